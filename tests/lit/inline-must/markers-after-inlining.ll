; Inlining can turn a caller into a forced-inline helper itself: @outer's
; only call is to @sync, a thin convergent intrinsic wrapper, and once
; @sync's body is in it, @outer is such a wrapper too. Phase 1 looks again
; at the callers that received code, so @outer is marked and inlined in
; the same run, and a second run changes nothing.
; RUN: nvpass-cli run --pipeline inline-must %s --pass-remarks-analysis=inline-must 2>%t.err | FileCheck %s
; RUN: FileCheck --input-file %t.err %s --check-prefix=REMARK
; RUN: nvpass-cli run --pipeline inline-must %s | nvpass-cli run --pipeline inline-must - | FileCheck %s

; CHECK-NOT: @sync(
; CHECK-NOT: @outer(
; REMARK: remark: sync marked alwaysinline: convergent/noreturn intrinsic wrapper
; REMARK-NEXT: remark: outer marked alwaysinline: convergent/noreturn intrinsic wrapper
; REMARK-NOT: remark
define internal void @sync() {
  call void @llvm.nvvm.barrier0()
  ret void
}

define internal i32 @outer(ptr %p) {
  store i32 1, ptr %p, align 4
  call void @sync()
  %v = load i32, ptr %p, align 4
  ret i32 %v
}

; Two calls: never a thin wrapper, before or after inlining.
; CHECK-LABEL: define internal void @twice() {
; CHECK-NEXT: call void @llvm.nvvm.barrier0()
; CHECK-NEXT: call void @llvm.nvvm.barrier0()
; CHECK-NEXT: ret void
define internal void @twice() {
  call void @sync()
  call void @sync()
  ret void
}

; CHECK-LABEL: define ptx_kernel void @k(ptr %p) {
; CHECK-NEXT: store i32 1, ptr %p, align 4
; CHECK-NEXT: call void @llvm.nvvm.barrier0()
; CHECK-NEXT: %v.i = load i32, ptr %p, align 4
; CHECK-NEXT: call void @twice()
; CHECK-NEXT: ret void
; CHECK-NOT: @outer(
define ptx_kernel void @k(ptr %p) {
  %r = call i32 @outer(ptr %p)
  call void @twice()
  ret void
}

declare void @llvm.nvvm.barrier0() #0

attributes #0 = { convergent nounwind }
