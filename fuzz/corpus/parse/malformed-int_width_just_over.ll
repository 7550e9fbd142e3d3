; ERROR: 2:13: invalid integer width
@g = global i8388609 0
