; ERROR: 2:16: ptr* is invalid - use ptr instead
@g = global i32* null
