; ERROR: 3:1: function body requires at least one basic block
define void @f() {
}
