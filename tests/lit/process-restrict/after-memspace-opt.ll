; Front-end IR after memspace-opt: each parameter's stack slot is reached
; through an addrspacecast to the local space. The slots are still private
; spill slots, so the reloaded pointers keep their restrict roots, and
; running after memspace-opt in one pipeline stamps the same accesses.
; RUN: nvpass-cli run --pipeline process-restrict %s | FileCheck %s
; RUN: nvpass-cli run --pipeline memspace-opt,process-restrict %s 2>/dev/null | FileCheck %s

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @axpy(
; CHECK: load float, {{.*}}, !alias.scope [[X:![0-9]+]], !noalias [[Y:![0-9]+]]
; CHECK: store float {{.*}}, !alias.scope [[Y]], !noalias [[X]]
define void @axpy(ptr noalias %y, ptr noalias %x, i64 %i) {
entry:
  %y.addr = alloca ptr, align 8
  %y.local = addrspacecast ptr %y.addr to ptr addrspace(5)
  %x.addr = alloca ptr, align 8
  %x.local = addrspacecast ptr %x.addr to ptr addrspace(5)
  store ptr %y, ptr addrspace(5) %y.local, align 8
  store ptr %x, ptr addrspace(5) %x.local, align 8
  %xp = load ptr, ptr addrspace(5) %x.local, align 8
  %xa = getelementptr inbounds float, ptr %xp, i64 %i
  %v = load float, ptr %xa, align 4
  %yp = load ptr, ptr addrspace(5) %y.local, align 8
  %ya = getelementptr inbounds float, ptr %yp, i64 %i
  store float %v, ptr %ya, align 4
  ret void
}

; A slot whose cast view escapes is not a spill slot: nothing is stamped.
; CHECK-LABEL: define void @escapes(
; CHECK-NOT: !alias.scope
; CHECK: ret void
define void @escapes(ptr noalias %p, ptr %sink) {
entry:
  %p.addr = alloca ptr, align 8
  %p.local = addrspacecast ptr %p.addr to ptr addrspace(5)
  store ptr %p, ptr addrspace(5) %p.local, align 8
  store ptr addrspace(5) %p.local, ptr %sink, align 8
  %q = load ptr, ptr addrspace(5) %p.local, align 8
  store float 0.0, ptr %q, align 4
  ret void
}
