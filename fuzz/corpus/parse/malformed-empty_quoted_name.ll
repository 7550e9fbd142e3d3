; ERROR: 2:1: empty name
@"" = global i32 0
