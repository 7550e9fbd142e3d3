; ERROR: 5:1: expected instruction opcode
define i32 @f(i32 %a) {
entry:
  %x = add i32 %a, 1
