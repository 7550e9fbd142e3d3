; ERROR: 5:3: instruction expected to be numbered '%1'
define void @f() {
entry:
  %0 = add i32 1, 2
  %2 = add i32 3, 4
  ret void
}
