; ERROR: 2:13: invalid integer width
@g = global i16777216 0
