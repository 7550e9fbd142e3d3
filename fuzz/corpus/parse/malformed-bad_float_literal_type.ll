; ERROR: 2:19: floating point constant invalid for type
@g = global fp128 1.0
