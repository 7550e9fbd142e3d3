; ERROR: 2:10: expected metadata node
!foo = !{i32 1}
