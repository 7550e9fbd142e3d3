; noinline functions are not candidates; a chain outer -> inner is
; specialized through the re-enqueued callee (outer is internal, so it is
; rewritten in place).
; RUN: nvpass-cli run --pipeline ipmsp --dump-ip-msp %s 2>&1 | FileCheck %s
define i32 @kept(ptr %p) noinline {
  %v = load i32, ptr %p
  ret i32 %v
}
define i32 @inner(ptr %p) {
  %v = load i32, ptr %p
  ret i32 %v
}
define internal i32 @outer(ptr %p) {
  %s = alloca ptr
  store ptr %p, ptr %s
  %l = load ptr, ptr %s
  %v = call i32 @inner(ptr %l)
  ret i32 %v
}
; CHECK: note: Initial work list size : 2
; CHECK: note: outer : changed in argument memory space (1 arguments)
; CHECK: note: 1 callees are affected
; CHECK: note: inner is cloned
; CHECK-NOT: @kept.
; CHECK: define internal i32 @inner.global(ptr addrspace(1) %p)
; CHECK: define internal i32 @outer(ptr addrspace(1) %p)
; CHECK: call i32 @inner.global(
define ptx_kernel void @k(ptr %g) {
  %a = call i32 @kept(ptr %g)
  %b = call i32 @outer(ptr %g)
  ret void
}
