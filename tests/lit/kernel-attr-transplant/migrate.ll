; Every annotation kind with an attribute form becomes the LLVM 20+
; attribute; the kernel gets "nvvm.kernel" and "nvvm.annotations_transplanted";
; the metadata is kept by default (llc-19 reads only the metadata).
; RUN: nvpass-cli run --pipeline kernel-attr-transplant %s | FileCheck %s

; CHECK-LABEL: define void @k(ptr "nvvm.grid_constant" %a, i32 %b, ptr "nvvm.grid_constant" %c)
; CHECK-SAME: "nvvm.kernel"
; CHECK-SAME: "nvvm.maxntid"="256,2,1"
; CHECK-SAME: "nvvm.reqntid"="32"
; CHECK-SAME: "nvvm.minctasm"="2"
; CHECK-SAME: "nvvm.maxnreg"="64"
; CHECK-SAME: "nvvm.maxclusterrank"="8"
; CHECK-SAME: "nvvm.cluster_dim"="1,1,4"
; CHECK-SAME: "nvvm.annotations_transplanted"
define void @k(ptr %a, i32 %b, ptr %c) {
  ret void
}

; cluster_max_blocks is the other spelling of maxclusterrank.
; CHECK-LABEL: define void @k2(
; CHECK-SAME: "nvvm.kernel" "nvvm.maxclusterrank"="4" "nvvm.annotations_transplanted"
define void @k2() {
  ret void
}

; A device function with launch bounds gets them, but not the kernel marker
; (criterion 3 would turn it into a kernel).
; CHECK-LABEL: define void @device(
; CHECK-SAME: "nvvm.maxnreg"="32"
; CHECK-NOT: nvvm.annotations_transplanted
; CHECK-NOT: "nvvm.kernel"
; CHECK: ret void
define void @device() {
  ret void
}

; kernel = 0 is consumed and stamps nothing.
; CHECK-LABEL: define void @not_kernel(
; CHECK-NOT: "nvvm.
; CHECK: ret void
define void @not_kernel() {
  ret void
}

; CHECK: !nvvm.annotations = !{!0, !1, !2, !3, !4, !5, !6}
; CHECK: !0 = !{ptr @k, !"kernel", i32 1, !"maxntidx", i32 256, !"maxntidy", i32 2, !"maxntidz", i32 1}
!nvvm.annotations = !{!0, !1, !2, !3, !4, !5, !6}
!0 = !{ptr @k, !"kernel", i32 1, !"maxntidx", i32 256, !"maxntidy", i32 2, !"maxntidz", i32 1}
!1 = !{ptr @k, !"reqntidx", i32 32, !"minctasm", i32 2, !"maxnreg", i32 64}
!2 = !{ptr @k, !"maxclusterrank", i32 8, !"cluster_dim_z", i32 4}
!3 = !{ptr @k, !"grid_constant", !7}
!4 = !{ptr @k2, !"kernel", i32 1, !"cluster_max_blocks", i32 4}
!5 = !{ptr @device, !"maxnreg", i32 32}
!6 = !{ptr @not_kernel, !"kernel", i32 0}
!7 = !{i32 1, i32 3}
