; ERROR: 3:13: redefinition of global '@f'
declare void @f()
define void @f() {
  ret void
}
