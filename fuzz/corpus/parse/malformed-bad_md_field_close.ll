; ERROR: 2:25: expected ',' or ')' in metadata node
!0 = !DILocation(line: 3]
