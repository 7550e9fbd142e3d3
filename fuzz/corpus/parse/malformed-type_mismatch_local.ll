; ERROR: 3:11: '%a' defined with type 'i32' but expected 'i64'
define i64 @f(i32 %a) {
  ret i64 %a
}
