; ERROR: 2:13: unknown selection kind
$c = comdat whatever
