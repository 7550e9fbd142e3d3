; ERROR: 2:19: integer constant must have integer type
@g = global float 1
