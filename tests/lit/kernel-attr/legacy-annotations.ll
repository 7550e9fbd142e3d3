; clang 19 marks kernels only through !nvvm.annotations; kernel-attr reads
; those marks too (non-zero value only) and keeps the metadata, which llc-19
; still needs to emit .entry.
; RUN: nvpass-cli run --pipeline kernel-attr %s | FileCheck %s

; CHECK-LABEL: define void @annotated(
; CHECK-SAME: "nvvm.kernel"
define void @annotated(ptr %p) {
  ret void
}

; A mark with value 0 is not a kernel mark.
; CHECK-LABEL: define void @annotated_zero(
; CHECK-NOT: "nvvm.kernel"
; CHECK: ret void
define void @annotated_zero() {
  ret void
}

; Other keys do not make a kernel.
; CHECK-LABEL: define void @only_maxntid(
; CHECK-NOT: "nvvm.kernel"
; CHECK: ret void
define void @only_maxntid() {
  ret void
}

; A kernel mark in a later pair of a multi-key entry counts.
; CHECK-LABEL: define void @second_pair(
; CHECK-SAME: "nvvm.kernel"
define void @second_pair() {
  ret void
}

@g = addrspace(1) global i32 0

; CHECK: !nvvm.annotations = !{!0, !1, !2, !3, !4}
; CHECK: !0 = !{ptr @annotated, !"kernel", i32 1}
; CHECK: !4 = !{ptr addrspace(1) @g, !"managed", i32 1}
!nvvm.annotations = !{!0, !1, !2, !3, !4}
!0 = !{ptr @annotated, !"kernel", i32 1}
!1 = !{ptr @annotated_zero, !"kernel", i32 0}
!2 = !{ptr @only_maxntid, !"maxntidx", i32 128}
!3 = !{ptr @second_pair, !"maxntidx", i32 64, !"kernel", i32 1}
!4 = !{ptr addrspace(1) @g, !"managed", i32 1}
