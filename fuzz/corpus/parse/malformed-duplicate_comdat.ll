; ERROR: 3:1: redefinition of comdat '$c'
$c = comdat any
$c = comdat any
