; Rule 3 (drop_noop_addrspace_casts): a cast to another space and straight
; back is the original pointer; a one-way cast, or A -> B -> C, stays.
; RUN: nvpass-cli run --pipeline pretreat %s | FileCheck %s
; RUN: nvpass-cli run --pipeline pretreat,pretreat %s | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

@g = addrspace(1) global i32 0

; CHECK-LABEL: define void @round_trip(ptr %p, i32 %v)
; CHECK-NEXT:    store i32 %v, ptr %p
; CHECK-NEXT:    ret void
define void @round_trip(ptr %p, i32 %v) {
  %g = addrspacecast ptr %p to ptr addrspace(1)
  %q = addrspacecast ptr addrspace(1) %g to ptr
  store i32 %v, ptr %q
  ret void
}

; The inner cast has another use: only the outer one goes.
; CHECK-LABEL: define void @shared(ptr %p, i32 %v)
; CHECK-NEXT:    %g = addrspacecast ptr %p to ptr addrspace(1)
; CHECK-NEXT:    store i32 %v, ptr addrspace(1) %g
; CHECK-NEXT:    store i32 %v, ptr %p
define void @shared(ptr %p, i32 %v) {
  %g = addrspacecast ptr %p to ptr addrspace(1)
  store i32 %v, ptr addrspace(1) %g
  %q = addrspacecast ptr addrspace(1) %g to ptr
  store i32 %v, ptr %q
  ret void
}

; Constant-expression round trip used as an operand.
; CHECK-LABEL: define i32 @const_expr()
; CHECK-NEXT:    %v = load i32, ptr addrspace(1) @g
define i32 @const_expr() {
  %v = load i32, ptr addrspace(1) addrspacecast (ptr addrspacecast (ptr addrspace(1) @g to ptr) to ptr addrspace(1))
  ret i32 %v
}

; Negative: one-way casts, and a cast through two different spaces.
; CHECK-LABEL: define void @one_way(ptr %p, i32 %v)
; CHECK-NEXT:    %g = addrspacecast ptr %p to ptr addrspace(1)
; CHECK-NEXT:    %s = addrspacecast ptr addrspace(1) %g to ptr addrspace(3)
; CHECK-NEXT:    store i32 %v, ptr addrspace(3) %s
define void @one_way(ptr %p, i32 %v) {
  %g = addrspacecast ptr %p to ptr addrspace(1)
  %s = addrspacecast ptr addrspace(1) %g to ptr addrspace(3)
  store i32 %v, ptr addrspace(3) %s
  ret void
}
