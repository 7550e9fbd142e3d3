; ERROR: 3:3: instructions returning void cannot have a name
define void @f() {
  %x = call void @f()
  ret void
}
