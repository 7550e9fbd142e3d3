; ERROR: 3:11: expected instruction opcode
define void @f() {
  ret void, 
}
