; ipmsp deletes a discardable candidate that has no use left. A function
; whose only use was inside the deleted body (here its address, taken by
; `ptrtoint`, as a CDP launch takes its child's) is then dead too and goes in
; the same run, so a second run changes nothing (found by the `passes` fuzz
; target).
; RUN: nvpass-cli run --pipeline ipmsp %s | FileCheck %s
; RUN: nvpass-cli run --pipeline ipmsp,ipmsp %s | FileCheck %s
; RUN: nvpass-cli run --pipeline ipmsp %s -o %t && nvpass-cli run --pipeline ipmsp %t | FileCheck %s

; CHECK-NOT: @child
; CHECK-NOT: @dead
define internal void @child(ptr %p) {
  store i32 0, ptr %p
  ret void
}

define internal void @dead(ptr %q) {
  %x = ptrtoint ptr @child to i64
  store i64 %x, ptr %q
  ret void
}

; CHECK: define ptx_kernel void @k(
define ptx_kernel void @k(ptr %p) {
  store i32 1, ptr %p
  ret void
}
