; ERROR: 3:16: use of undefined value '%5'
define i32 @f() {
  %1 = add i32 %5, 1
  ret i32 %1
}
