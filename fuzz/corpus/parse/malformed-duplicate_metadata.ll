; ERROR: 3:1: redefinition of metadata '!0'
!0 = !{}
!0 = !{}
