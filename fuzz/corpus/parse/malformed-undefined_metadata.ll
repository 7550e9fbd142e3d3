; ERROR: 3:18: use of undefined metadata '!7'
define void @f() {
  ret void, !dbg !7
}
