; ERROR: 3:15: expected ',' after store operand
define void @f(ptr %p) {
  store i32 1 ptr %p
  ret void
}
