; ERROR: 3:18: load operand must be a pointer
define i32 @f(i32 %x) {
  %v = load i32, i32 %x
  ret i32 %v
}
