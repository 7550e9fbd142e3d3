; ERROR: 4:3: redefinition of value '%x'
define void @f() {
  %x = add i32 1, 2
  %x = add i32 3, 4
  ret void
}
