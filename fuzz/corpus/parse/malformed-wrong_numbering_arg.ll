; ERROR: 2:20: argument expected to be numbered '%0'
define void @f(i32 %1) {
  ret void
}
