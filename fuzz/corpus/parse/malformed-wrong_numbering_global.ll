; ERROR: 3:1: variable expected to be numbered '@1'
@0 = global i32 0
@2 = global i32 1
