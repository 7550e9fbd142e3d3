; ERROR: 2:17: invalid use of function-local name
@g = global ptr %x
