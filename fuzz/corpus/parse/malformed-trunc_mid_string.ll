; ERROR: 3:1: expected '"' to close string constant starting at 2:25
@s = constant [3 x i8] c"ab
