; ERROR: 2:34: expected ')' in metadata node
!0 = !DILocation(line: 3, scope: 