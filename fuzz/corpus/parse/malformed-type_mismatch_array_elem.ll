; ERROR: 2:31: element 1 is of type 'i64' but expected 'i32'
@a = global [2 x i32] [i32 1, i64 2]
