; ERROR: 2:19: ptr* is invalid - use ptr instead
declare void @f(i8*)
