; ERROR: 2:20: floating point constant invalid for type
@g = global double 0xH3C00
