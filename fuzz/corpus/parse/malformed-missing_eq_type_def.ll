; ERROR: 2:4: expected '=' after name
%T type { i32 }
