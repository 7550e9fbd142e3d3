; ERROR: 5:12: '%later' defined with type 'i32' but expected 'label'
define void @f() {
entry:
  %x = add i32 %later, 1
  br label %later
later:
  ret void
}
