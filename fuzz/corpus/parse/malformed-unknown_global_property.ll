; ERROR: 2:20: unknown global variable property
@g = global i32 0, frobnicate
