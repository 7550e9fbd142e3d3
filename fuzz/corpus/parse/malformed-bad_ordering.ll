; ERROR: 3:9: Expected ordering on atomic instruction
define void @f(ptr %p) {
  fence sideways
  ret void
}
