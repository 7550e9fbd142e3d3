; ERROR: 5:1: redefinition of value '%a'
define void @f() {
a:
  br label %a
a:
  ret void
}
