; Global at one site, shared at another: the vote is POISON and nothing is
; cloned; with split-conflicts one clone per vote vector is made.
; RUN: nvpass-cli run --pipeline ipmsp %s | FileCheck %s --check-prefix=SPEC
; RUN: nvpass-cli run --pipeline 'ipmsp<split-conflicts>' %s | FileCheck %s --check-prefix=SPLIT
@tile = internal addrspace(3) global [4 x float] zeroinitializer

define float @h(ptr %p) {
  %v = load float, ptr %p
  ret float %v
}
; SPEC-NOT: @h.
; SPLIT-DAG: define internal float @h.shared(ptr addrspace(3) %p)
; SPLIT-DAG: define internal float @h.global(ptr addrspace(1) %p)

define ptx_kernel void @k(ptr %g, i1 %c) {
; SPEC: call float @h(ptr %g)
; SPLIT: call float @h.global(ptr addrspace(1)
; SPLIT: call float @h.shared(ptr addrspace(3) @tile)
; SPLIT: call float @h(ptr %s)
  %a = call float @h(ptr %g)
  %b = call float @h(ptr addrspacecast (ptr addrspace(3) @tile to ptr))
  %s = select i1 %c, ptr %g, ptr addrspacecast (ptr addrspace(3) @tile to ptr)
  %d = call float @h(ptr %s)
  ret void
}
