; ERROR: 2:23: array constant has 2 elements but type '[3 x i32]' expects 3
@a = global [3 x i32] [i32 1, i32 2]
