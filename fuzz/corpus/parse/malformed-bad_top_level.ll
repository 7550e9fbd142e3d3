; ERROR: 2:1: expected top-level entity
foo bar
