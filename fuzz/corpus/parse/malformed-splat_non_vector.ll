; ERROR: 2:17: splat must have vector type
@g = global i32 splat (i32 1)
