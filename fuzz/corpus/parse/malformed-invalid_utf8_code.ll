; ERROR: 3:12: invalid UTF-8 byte 0xFF
define void @f() {
  ret void ÿ
}
