; ERROR: 2:31: expected type
@a = global [2 x i32] [i32 1, 