; ERROR: 3:18: expected binary operation in atomicrmw
define i32 @f(ptr %p) {
  %r = atomicrmw frob ptr %p, i32 1 seq_cst
  ret i32 %r
}
