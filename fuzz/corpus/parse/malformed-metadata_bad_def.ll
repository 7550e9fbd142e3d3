; ERROR: 2:6: unexpected type in metadata definition
!0 = i32 1
