; Liveness flows down every level of a chain of internal helpers: @lvl4 is
; used only by @lvl3, which is used only by @lvl2, and so on up to the
; external @ext. A helper called both from a dead one and from the live
; chain (@shared) stays; the dead caller (@dead_top) and the helper only
; it calls (@dead_leaf) go.
; RUN: nvpass-cli run --pipeline remove-dead-functions %s --pass-remarks=remove-dead-functions -o %t 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: FileCheck --input-file %t %s

; REMARK: remark: removed dead function 'dead_leaf' (linkage internal)
; REMARK-NEXT: remark: removed dead function 'dead_top' (linkage internal)
; REMARK-NOT: remark:

; CHECK: define internal void @lvl4()
; CHECK: define internal void @shared()
; CHECK: define internal void @lvl3()
; CHECK: define internal void @lvl2()
; CHECK: define internal void @lvl1()
; CHECK: define void @ext()
; CHECK-NOT: @dead_

define internal void @lvl4() {
  call void @shared()
  ret void
}
define internal void @dead_leaf() {
  ret void
}
define internal void @shared() {
  ret void
}
define internal void @lvl3() {
  call void @lvl4()
  ret void
}
define internal void @dead_top() {
  call void @dead_leaf()
  call void @shared()
  ret void
}
define internal void @lvl2() {
  call void @lvl3()
  ret void
}
define internal void @lvl1() {
  call void @lvl2()
  ret void
}
define void @ext() {
  call void @lvl1()
  ret void
}
