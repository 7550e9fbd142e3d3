; ERROR: 3:3: instruction expected to be numbered '%1'
define void @f() {
  %0 = add i32 1, 2
  ret void
}
