; ERROR: 2:19: invalid token after '#'
@g = global i32 0 #x
