; Spec 004 "Algorithm": nvvm.restrict_processed makes re-entry a no-op, so
; two runs print the same as one (same scope nodes, no fresh scopes), and
; so does a propagate-only run after it.
; RUN: nvpass-cli run --pipeline process-restrict %s | FileCheck %s
; RUN: nvpass-cli run --pipeline process-restrict,process-restrict %s | FileCheck %s
; RUN: nvpass-cli run --pipeline 'process-restrict,process-restrict<propagate-only>' %s | FileCheck %s
; RUN: nvpass-cli run --pipeline process-restrict -o %t %s
; RUN: nvpass-cli run --pipeline process-restrict %t | FileCheck %s
; RUN: nvpass-cli run --pipeline 'process-restrict<propagate-only>' %t | FileCheck %s

; CHECK-LABEL: define void @k(ptr "user_specified_restrict_scope"="1" "nvvm.restrict_scope"="1" noalias %a, ptr "user_specified_restrict_scope"="1" "nvvm.restrict_scope"="1" noalias %b)
; CHECK-SAME: "nvvm.restrict_processed"
; CHECK-NEXT: %va = load i32, ptr %a, align 4, !alias.scope [[LA:![0-9]+]], !noalias [[LB:![0-9]+]]
; CHECK-NEXT: store i32 %va, ptr %b, align 4, !alias.scope [[LB]], !noalias [[LA]]
define void @k(ptr "user_specified_restrict_scope"="1" %a, ptr "user_specified_restrict_scope"="1" %b) {
  %va = load i32, ptr %a, align 4
  store i32 %va, ptr %b, align 4
  ret void
}

; Exactly one domain and two scopes for @k, whatever the pipeline.
; CHECK: !"restrict.domain.k"
; CHECK-NOT: !"restrict.domain.k"
; CHECK-COUNT-1: !"restrict.scope.1.a"
; CHECK-NOT: !"restrict.scope.1.a"
