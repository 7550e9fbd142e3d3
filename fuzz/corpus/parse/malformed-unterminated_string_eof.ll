; ERROR: 3:1: expected '"' to close string constant starting at 2:19
source_filename = "abc
