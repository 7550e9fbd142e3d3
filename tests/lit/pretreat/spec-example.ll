; Spec 002 "Pretreat", "Input and Output IR Shape": the typical front-end
; output and its canonical form. The spec's `bitcast ptr to ptr addrspace(1)`
; is not valid LLVM IR; the cast pair is written as the addrspacecast round
; trip it stands for. The second and third RUN lines check idempotence:
; pretreat,pretreat and a re-run on the output give the same text.
; RUN: nvpass-cli run --pipeline pretreat %s | FileCheck %s
; RUN: nvpass-cli run --pipeline Pretreat,Pretreat %s | FileCheck %s
; RUN: nvpass-cli run --pipeline pretreat %s -o %t.1.ll && \
; RUN:   nvpass-cli run --pipeline pretreat %t.1.ll -o %t.2.ll && \
; RUN:   FileCheck --input-file %t.2.ll %s

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture)
declare void @llvm.memcpy.p0.p0.i32(ptr, ptr, i32, i1)
declare void @llvm.nvvm.kernel.placeholder()

; CHECK-NOT:   @llvm.nvvm.kernel.placeholder
; CHECK-LABEL: define void @k(ptr %p, i32 %n) "nvvm.kernel" {
; CHECK-NEXT:  entry:
; CHECK-NEXT:    call void @llvm.lifetime.start.p0(i64 -1, ptr %p)
; CHECK-NEXT:    call void @llvm.lifetime.end.p0(i64 -1, ptr %p)
; CHECK-NEXT:    ret void
; CHECK-NEXT:  }
define void @k(ptr %p, i32 %n) {
entry:
  %cast1 = addrspacecast ptr %p to ptr addrspace(1)
  %cast2 = addrspacecast ptr addrspace(1) %cast1 to ptr
  call void @llvm.lifetime.start.p0(i64 -1, ptr %p) ; -1 means "whole alloca"
  call void @llvm.memcpy.p0.p0.i32(ptr %p, ptr %p, i32 0, i1 false) ; zero-length
  call void @llvm.nvvm.kernel.placeholder() ; consumed by libNVVM
  call void @llvm.lifetime.end.p0(i64 -1, ptr %p)
  ret void
}

; CHECK: !nvvm.annotations = !{!0}
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
