; ERROR: 2:34: referenced value is not a basic block '%nope'
@p = global ptr blockaddress(@f, %nope)
define void @f() {
entry:
  ret void
}
