; Every call site passes shared memory: an internal helper is rewritten in
; place, an external one is cloned; nvvm.as records the vote.
; RUN: nvpass-cli run --pipeline ipmsp %s | FileCheck %s
@tile = internal addrspace(3) global [4 x float] zeroinitializer

; CHECK-LABEL: define internal float @inner(ptr addrspace(3) %p) "nvvm.as"="3"
define internal float @inner(ptr %p) {
; CHECK: addrspacecast ptr addrspace(3) %p to ptr
  %v = load float, ptr %p
  ret float %v
}

; CHECK-LABEL: define float @outer(ptr %p)
define float @outer(ptr %p) {
  %v = load float, ptr %p
  ret float %v
}
; CHECK-LABEL: define internal float @outer.shared(ptr addrspace(3) %p) alwaysinline "nvvm.as"="3"

define ptx_kernel void @k() {
; CHECK: call float @inner(ptr addrspace(3) @tile)
; CHECK: call float @outer.shared(ptr addrspace(3) @tile)
  %a = call float @inner(ptr addrspacecast (ptr addrspace(3) @tile to ptr))
  %b = call float @outer(ptr addrspacecast (ptr addrspace(3) @tile to ptr))
  ret void
}
