; The clone returns what it was given: its return type becomes global and
; the caller casts the result back.
; RUN: nvpass-cli run --pipeline ipmsp --dump-ip-msp %s 2>&1 | FileCheck %s
define ptr @adv(ptr %p, i64 %i) {
  %q = getelementptr float, ptr %p, i64 %i
  ret ptr %q
}
; CHECK: note: Initial work list size : 1
; CHECK: note: adv is cloned
; CHECK: note: adv.global : changed in argument memory space (1 arguments)
; CHECK: note: adv.global : return memory space is resolved : 1
; CHECK: define internal ptr addrspace(1) @adv.global(ptr addrspace(1) %p, i64 %i)
; CHECK: %[[R:[0-9]+]] = call ptr addrspace(1) @adv.global(
; CHECK: addrspacecast ptr addrspace(1) %[[R]] to ptr
define ptx_kernel void @k(ptr %g) {
  %r = call ptr @adv(ptr %g, i64 1)
  store float 0.0, ptr %r
  ret void
}
