; ERROR: 2:13: invalid vector element type
@g = global <2 x [2 x i8]> zeroinitializer
