; ERROR: 2:14: integer value too large
@g = global <4294967296 x i8> zeroinitializer
