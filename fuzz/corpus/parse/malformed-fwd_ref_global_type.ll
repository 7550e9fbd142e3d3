; ERROR: 2:30: '@b' defined with type 'ptr' but expected 'ptr addrspace(1)'
@a = global ptr addrspace(1) @b
@b = global i32 0
