; ERROR: 3:1: expected type
@g = global
