; ERROR: 2:23: expected type
%T = type { i32, [4 x 