; ERROR: 2:12: expected attribute group id
attributes = { nounwind }
