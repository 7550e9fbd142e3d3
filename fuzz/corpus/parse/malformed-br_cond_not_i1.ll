; ERROR: 3:6: branch condition must have 'i1' type
define void @f(i32 %c) {
  br i32 %c, label %a, label %a
a:
  ret void
}
