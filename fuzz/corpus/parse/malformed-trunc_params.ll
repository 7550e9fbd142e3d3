; ERROR: 2:22: expected type
declare void @f(i32, 