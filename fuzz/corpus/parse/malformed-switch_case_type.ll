; ERROR: 3:29: case value has type 'i64' but expected 'i32'
define void @f(i32 %x) {
  switch i32 %x, label %d [ i64 1, label %d ]
d:
  ret void
}
