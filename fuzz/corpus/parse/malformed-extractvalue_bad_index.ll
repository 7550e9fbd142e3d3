; ERROR: 3:21: invalid indices for extractvalue
define i32 @f({ i32, i32 } %a) {
  %x = extractvalue { i32, i32 } %a, 2
  ret i32 %x
}
