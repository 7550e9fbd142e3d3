; ERROR: 6:21: expected basic block name
define i32 @f() {
entry:
  br label %b
b:
  %p = phi i32 [ 0, i32 ]
  ret i32 %p
}
