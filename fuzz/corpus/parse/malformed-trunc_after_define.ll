; ERROR: 2:7: expected type
define