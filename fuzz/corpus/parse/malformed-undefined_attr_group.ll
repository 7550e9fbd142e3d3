; ERROR: 2:18: undefined attribute group '#3'
define void @f() #3 {
  ret void
}
