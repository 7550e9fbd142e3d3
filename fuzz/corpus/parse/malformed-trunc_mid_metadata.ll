; ERROR: 2:12: expected type
!0 = !{!1, 