; ERROR: 2:9: invalid integer width
declare i0 @f()
