; ERROR: 4:19: expected value token
define i32 @f(i32 %a) {
entry:
  %x = add i32 %a,