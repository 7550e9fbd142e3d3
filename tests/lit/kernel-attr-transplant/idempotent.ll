; A second run skips kernels already stamped "nvvm.annotations_transplanted"
; and re-derives identical attributes for the rest: output is unchanged.
; RUN: nvpass-cli run --pipeline kernel-attr-transplant,kernel-attr-transplant %s | FileCheck %s
; RUN: nvpass-cli run --pipeline kernel-attr-transplant %s -o %t
; RUN: nvpass-cli run --pipeline kernel-attr-transplant %t --pass-remarks=kernel-attr-transplant 2>&1 | FileCheck %s --check-prefix=SECOND

; CHECK-LABEL: define void @k(
; CHECK-SAME: "nvvm.kernel" "nvvm.maxntid"="64,2" "nvvm.annotations_transplanted"
; CHECK-NOT: "nvvm.
; CHECK-LABEL: define void @d(
; CHECK-SAME: "nvvm.reqntid"="1,8"
; CHECK-NOT: "nvvm.
; CHECK: ret void
define void @k() {
  ret void
}
define void @d() {
  ret void
}

; Only the device function is revisited (its values are re-derived unchanged).
; SECOND-NOT: of 'k'
; SECOND: remark: transplanted 1 annotation(s) of 'd' to attributes
; SECOND-NOT: of 'k'

!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @k, !"kernel", i32 1}
!1 = !{ptr @k, !"maxntidx", i32 64, !"maxntidy", i32 2}
!2 = !{ptr @d, !"reqntidy", i32 8}
