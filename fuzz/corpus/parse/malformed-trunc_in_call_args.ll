; ERROR: 4:21: expected ',' in argument list
declare void @g(i32)
define void @f() {
  call void @g(i32 1