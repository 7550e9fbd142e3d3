; ERROR: 3:31: cmpxchg new value has type 'i64' but expected 'i32'
define void @f(ptr %p) {
  %r = cmpxchg ptr %p, i32 0, i64 1 seq_cst seq_cst
  ret void
}
