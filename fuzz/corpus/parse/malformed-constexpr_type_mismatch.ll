; ERROR: 3:17: constant expression type mismatch: got type 'i32' but expected 'i64'
@g = global i32 0
@p = global i64 ptrtoint (ptr @g to i32)
