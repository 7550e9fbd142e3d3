; ERROR: 3:13: use of undefined value '@g'
define void @f() {
  call void @g()
  ret void
}
