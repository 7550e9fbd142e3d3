; ERROR: 2:26: struct constant has 1 elements but type '{ i32, i32 }' has 2 fields
@s = global { i32, i32 } { i32 1 }
