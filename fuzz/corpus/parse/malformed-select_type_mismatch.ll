; ERROR: 3:29: select operand has type 'i64' but expected 'i32'
define i32 @f(i1 %c) {
  %x = select i1 %c, i32 1, i64 2
  ret i32 %x
}
