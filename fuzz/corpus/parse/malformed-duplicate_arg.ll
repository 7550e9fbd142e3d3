; ERROR: 2:28: redefinition of value '%a'
define void @f(i32 %a, i32 %a) {
  ret void
}
