; ERROR: 2:19: unexpected non-ASCII character
@g = global i32 0 é
