; ERROR: 3:12: '%x' defined with type 'i32' but expected 'label'
define void @f(i32 %x) {
  br label %x
}
