; Spec 004 "Operational Knobs", propagate-only restrict mode: "Reapplies
; already-stamped scopes after another pass creates new derived values".
; Input: @k was processed (marker, noalias, stamps on %va and the store);
; since then a pass added %c/%vc (an addrspacecast and a load through it),
; and an inlined callee brought %vi, which carries its own domain's scopes.
; Propagate-only reuses @k's domain, scopes and scope lists, keeps the
; callee's scopes and appends @k's; it never processes new functions.
; RUN: nvpass-cli run --pipeline 'process-restrict<propagate-only>' %s | FileCheck %s
; RUN: nvpass-cli run --pipeline process-restrict --process-restrict-propagate-only %s | FileCheck %s
; A plain run leaves processed functions alone (the marker).
; RUN: nvpass-cli run --pipeline process-restrict %s | FileCheck %s --check-prefix=PLAIN

; CHECK-LABEL: define void @k(
; CHECK-NEXT: %va = load i32, ptr %a, align 4, !alias.scope !3, !noalias !4
; CHECK-NEXT: store i32 %va, ptr %b, align 4, !alias.scope !4, !noalias !3
; CHECK-NEXT: %c = addrspacecast ptr %a to ptr addrspace(1)
; CHECK-NEXT: %vc = load i32, ptr addrspace(1) %c, align 4, !alias.scope !3, !noalias !4
; CHECK-NEXT: %vi = load i32, ptr %b, align 4, !alias.scope [[LI:![0-9]+]], !noalias [[NI:![0-9]+]]
; PLAIN-LABEL: define void @k(
; PLAIN: %vc = load i32, ptr addrspace(1) %c, align 4{{$}}
; PLAIN-NEXT: %vi = load i32, ptr %b, align 4, !alias.scope !7{{$}}
define void @k(ptr noalias "nvvm.restrict_scope"="1" %a, ptr noalias "nvvm.restrict_scope"="1" %b) "nvvm.restrict_processed" {
  %va = load i32, ptr %a, align 4, !alias.scope !3, !noalias !4
  store i32 %va, ptr %b, align 4, !alias.scope !4, !noalias !3
  %c = addrspacecast ptr %a to ptr addrspace(1)
  %vc = load i32, ptr addrspace(1) %c, align 4
  %vi = load i32, ptr %b, align 4, !alias.scope !7
  ret void
}

; A processed kernel whose accesses all arrived later (its helper was
; inlined): the domain is created now.
; CHECK-LABEL: define void @kernel(
; CHECK-NEXT: store i32 1, ptr %p, align 4, !alias.scope [[LP:![0-9]+]]{{$}}
define void @kernel(ptr noalias %p) "nvvm.restrict_processed" {
  store i32 1, ptr %p, align 4
  ret void
}

; Not processed: propagate-only does not touch it.
; CHECK-LABEL: define void @fresh(ptr noalias %q) {
; CHECK-NEXT: store i32 2, ptr %q, align 4{{$}}
define void @fresh(ptr noalias %q) {
  store i32 2, ptr %q, align 4
  ret void
}

!0 = distinct !{!0, !"restrict.domain.k"}
!1 = distinct !{!1, !0, !"restrict.scope.1.a"}
!2 = distinct !{!2, !0, !"restrict.scope.1.b"}
!3 = !{!1}
!4 = !{!2}
!5 = distinct !{!5, !"restrict.domain.callee"}
!6 = distinct !{!6, !5, !"restrict.scope.1.x"}
!7 = !{!6}

; The callee's scope stays first; @k's own scope of %b is appended.
; CHECK-DAG: [[LI]] = !{!6, !2}
; CHECK-DAG: [[NI]] = !{!1}
; CHECK-DAG: [[LP]] = !{[[SP:![0-9]+]]}
; CHECK-DAG: [[SP]] = distinct !{[[SP]], [[DP:![0-9]+]], !"restrict.scope.noalias.p"}
; CHECK-DAG: [[DP]] = distinct !{[[DP]], !"restrict.domain.kernel"}
; No second domain for @k.
; CHECK-NOT: !"restrict.domain.k"
