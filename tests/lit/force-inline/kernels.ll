; Spec 000: a kernel is force-inlined first of all. Kernels are entry
; points nothing calls on NVPTX, so the mark changes no call site; the
; kernel stays, marked. Each kernel criterion of spec 002 counts.
; RUN: nvpass-cli run --pipeline force-inline %s --pass-remarks-analysis=force-inline 2>%t.err | FileCheck %s
; RUN: FileCheck --input-file %t.err %s --check-prefix=REMARK
; Idempotent: a second run changes nothing.
; RUN: nvpass-cli run --pipeline force-inline %s -o %t.1
; RUN: nvpass-cli run --pipeline force-inline %t.1 -o %t.2
; RUN: nvpass-cli run --pipeline force-inline,force-inline %s | FileCheck %s

; CHECK-LABEL: define ptx_kernel void @cc_kernel(
; CHECK-SAME: ) alwaysinline {
define ptx_kernel void @cc_kernel() {
  ret void
}

; CHECK-LABEL: define void @attr_kernel(
; CHECK-SAME: ) alwaysinline #[[K:[0-9]+]] {
define void @attr_kernel() #0 {
  ret void
}

; A device function is not a kernel.
; CHECK-LABEL: define void @device(
; CHECK-SAME: ) {
define void @device() {
  ret void
}

; CHECK: attributes #[[K]] = { "nvvm.kernel" }
attributes #0 = { "nvvm.kernel" }

; REMARK-DAG: remark: cc_kernel marked alwaysinline: kernel
; REMARK-DAG: remark: attr_kernel marked alwaysinline: kernel
