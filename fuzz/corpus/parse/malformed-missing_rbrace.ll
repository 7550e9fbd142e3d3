; ERROR: 6:1: expected instruction opcode
define void @f() {
entry:
  ret void

define void @g() {
  ret void
}
