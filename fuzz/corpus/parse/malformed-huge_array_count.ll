; ERROR: 2:14: integer value too large
@g = global [18446744073709551616 x i8] zeroinitializer
