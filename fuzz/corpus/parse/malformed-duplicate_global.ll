; ERROR: 3:1: redefinition of global '@g'
@g = global i32 0
@g = global i32 1
