; ERROR: 5:1: expected instruction opcode
define void @f() {
entry:
  %x = add i32 1, 2
}
