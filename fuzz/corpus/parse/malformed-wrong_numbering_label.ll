; ERROR: 4:1: label expected to be numbered '%2'
define void @f(i32) {
  br label %3
3:
  ret void
}
