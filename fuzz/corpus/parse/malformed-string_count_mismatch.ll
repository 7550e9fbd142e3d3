; ERROR: 2:22: constant expression type mismatch: got type '[3 x i8]' but expected '[4 x i8]'
@s = global [4 x i8] c"abc"
