; ERROR: 3:11: value number too large
define void @f() {
  ret i32 %99999999999
}
