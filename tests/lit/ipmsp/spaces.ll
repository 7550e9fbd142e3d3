; Each concrete space: constant, local, tensor, distributed shared; global
; from a kernel parameter.
; RUN: nvpass-cli run --pipeline 'ipmsp<split-conflicts>' %s | FileCheck %s
@c = internal addrspace(4) global i32 0

define i32 @h(ptr %p) {
  %v = load i32, ptr %p
  ret i32 %v
}
; CHECK-DAG: @h.global(ptr addrspace(1) %p) alwaysinline "nvvm.as"="1"
; CHECK-DAG: @h.const(ptr addrspace(4) %p) alwaysinline "nvvm.as"="4"
; CHECK-DAG: @h.local(ptr addrspace(5) %p) alwaysinline "nvvm.as"="5"
; CHECK-DAG: @h.tensor(ptr addrspace(6) %p) alwaysinline "nvvm.as"="6"
; CHECK-DAG: @h.dist_shared(ptr addrspace(7) %p) alwaysinline "nvvm.as"="7"

define void @k(ptr %g, ptr addrspace(6) %t, ptr addrspace(7) %d) {
  %l = alloca i32
  %a = call i32 @h(ptr %g)
  %b = call i32 @h(ptr addrspacecast (ptr addrspace(4) @c to ptr))
  %e = call i32 @h(ptr %l)
  %tg = addrspacecast ptr addrspace(6) %t to ptr
  %f = call i32 @h(ptr %tg)
  %dg = addrspacecast ptr addrspace(7) %d to ptr
  %x = call i32 @h(ptr %dg)
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
