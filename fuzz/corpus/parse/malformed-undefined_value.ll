; ERROR: 3:11: use of undefined value '%x'
define i32 @f() {
  ret i32 %x
}
