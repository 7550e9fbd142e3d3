; ERROR: 3:26: alignment is not a power of two
define void @f() {
  %p = alloca i32, align 3
  ret void
}
