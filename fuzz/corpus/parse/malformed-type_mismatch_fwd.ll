; ERROR: 6:16: '%x' defined with type 'i32' but expected 'i64'
define i32 @f() {
entry:
  br label %b
b:
  %y = add i64 %x, 1
  %x = add i32 1, 2
  ret i32 %x
}
