; ERROR: 3:1: expected '"' to close string constant starting at 2:2
@"abc = global i32 0
