; ERROR: 4:16: '%entry' defined with type 'label' but expected 'i32'
define void @f() {
entry:
  %x = add i32 %entry, 1
  ret void
}
