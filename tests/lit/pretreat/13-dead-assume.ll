; Rule 13 (strip_dead_assume): assume of a constant is deleted; assumes of
; values, and assumes carrying operand bundles, stay.
; RUN: nvpass-cli run --pipeline pretreat %s | FileCheck %s
; RUN: nvpass-cli run --pipeline pretreat,pretreat %s | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

declare void @llvm.assume(i1)

; CHECK-LABEL: define void @f(i1 %c, ptr %p)
; CHECK-NEXT:    call void @llvm.assume(i1 %c)
; CHECK-NEXT:    call void @llvm.assume(i1 true) [ "align"(ptr %p, i64 16) ]
; CHECK-NEXT:    ret void
define void @f(i1 %c, ptr %p) {
  call void @llvm.assume(i1 true)
  call void @llvm.assume(i1 %c)
  call void @llvm.assume(i1 false)
  call void @llvm.assume(i1 true) [ "align"(ptr %p, i64 16) ]
  ret void
}
