; ERROR: 2:3: invalid UTF-8 byte 0xC3
@g√( = global i32 0
