; ERROR: 3:18: use of undefined metadata '!4000000000'
define void @f() {
  ret void, !dbg !4000000000
}
!0 = !{}
