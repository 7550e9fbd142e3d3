; Rule 17 (lift_kernel_metadata_to_attr): a function marked a kernel only by
; !nvvm.annotations, untouched by the transplanter, gets "nvvm.kernel"
; (criterion 2 of the kernel predicate); the metadata stays for the back
; end. The spec's failure mode "skipping cleanup 17" shows with the rule
; disabled: the kernel carries no attribute.
; RUN: nvpass-cli run --pipeline pretreat %s | FileCheck %s
; RUN: nvpass-cli run --pipeline pretreat,pretreat %s | FileCheck %s
; RUN: nvpass-cli run --pipeline pretreat --pretreat-disable=lift-kernel-metadata %s \
; RUN:   | FileCheck %s --check-prefix=SKIP

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @legacy() "nvvm.kernel" {
; SKIP-LABEL: define void @legacy() {
; SKIP-NOT:   "nvvm.kernel"
; SKIP:       define void @transplanted()
define void @legacy() {
  ret void
}

; Already transplanted or already stamped: unchanged.
; CHECK-LABEL: define void @transplanted() #1 {
define void @transplanted() #1 {
  ret void
}
; CHECK-LABEL: define void @stamped() #2 {
define void @stamped() #2 {
  ret void
}

; A non-kernel annotation (or kernel value 0) does not make a kernel.
; CHECK-LABEL: define void @not_kernel() {
define void @not_kernel() {
  ret void
}

; CHECK-LABEL: define void @zero() {
define void @zero() {
  ret void
}

attributes #1 = { "nvvm.annotations_transplanted" }
attributes #2 = { "nvvm.kernel" }

; CHECK: !nvvm.annotations = !{!0, !1, !2, !3, !4}
; CHECK: !0 = !{ptr @legacy, !"kernel", i32 1}
!nvvm.annotations = !{!0, !1, !2, !3, !4}
!0 = !{ptr @legacy, !"kernel", i32 1}
!1 = !{ptr @transplanted, !"kernel", i32 1}
!2 = !{ptr @stamped, !"kernel", i32 1}
!3 = !{ptr @not_kernel, !"maxntidx", i32 64}
!4 = !{ptr @zero, !"kernel", i32 0}
