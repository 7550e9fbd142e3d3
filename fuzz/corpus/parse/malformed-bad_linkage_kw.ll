; ERROR: 2:6: expected 'global' or 'constant'
@g = sideways global i32 0
