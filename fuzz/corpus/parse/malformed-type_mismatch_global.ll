; ERROR: 4:30: '@g' defined with type 'ptr' but expected 'ptr addrspace(1)'
@g = global i32 0
@p = global ptr @g
@q = global ptr addrspace(1) @g
