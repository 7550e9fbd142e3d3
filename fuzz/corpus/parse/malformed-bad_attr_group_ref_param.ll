; ERROR: 2:21: attribute group reference not allowed here
declare void @f(i32 #0)
