; Running kernel-attr twice stamps once; the second run changes nothing.
; RUN: nvpass-cli run --pipeline kernel-attr,kernel-attr %s | FileCheck %s
; RUN: nvpass-cli run --pipeline kernel-attr %s -o %t
; RUN: nvpass-cli run --pipeline kernel-attr %t --pass-remarks=kernel-attr 2>&1 | FileCheck %s --check-prefix=SECOND

; CHECK-LABEL: define void @k(
; CHECK-SAME: "nvvm.kernel"
; CHECK-NOT: "nvvm.kernel"
; CHECK: ret void
define void @k() {
  ret void
}

; SECOND-NOT: remark:
; SECOND: define void @k() "nvvm.kernel"
; SECOND-NOT: remark:

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
