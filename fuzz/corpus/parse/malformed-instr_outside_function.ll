; ERROR: 2:3: expected top-level entity
  ret void
