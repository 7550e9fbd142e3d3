; ERROR: 3:12: redefinition of attribute group '#0'
attributes #0 = { nounwind }
attributes #0 = { noinline }
