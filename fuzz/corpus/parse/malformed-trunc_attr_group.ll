; ERROR: 2:28: expected end of attribute group
attributes #0 = { nounwind 