; ERROR: 2:27: use of undefined comdat '$c'
@g = global i32 0, comdat($c)
