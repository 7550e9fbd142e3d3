; Spec 004 "Input and Output IR Shape": the spec's own example. The
; function-level keys restrict every pointer parameter; front-end keys stay
; next to their canonical copies; each argument gets noalias and its own
; scope in a per-function domain.
; RUN: nvpass-cli run --pipeline process-restrict %s | FileCheck %s
; RUN: nvpass-cli run --pipeline ProcessRestrict %s | FileCheck %s

; CHECK-LABEL: define void @k(ptr addrspace(1) noalias %a, ptr addrspace(1) noalias %b)
; CHECK-SAME: "user_specified_restrict_scope"="1"
; CHECK-SAME: "user_specified_restrict_keyword"="__restrict__"
; CHECK-SAME: "nvvm.restrict_scope"="1"
; CHECK-SAME: "nvvm.restrict_keyword"="__restrict__"
; CHECK-SAME: "nvvm.restrict_processed"
; CHECK-NEXT: %va = load i32, ptr addrspace(1) %a, align 4, !alias.scope [[LA:![0-9]+]], !noalias [[LB:![0-9]+]]
; CHECK-NEXT: %vb = load i32, ptr addrspace(1) %b, align 4, !alias.scope [[LB]], !noalias [[LA]]
; CHECK-NEXT: store i32 %va, ptr addrspace(1) %b, align 4, !alias.scope [[LB]], !noalias [[LA]]
; CHECK-NEXT: ret void

; Domain distinct !{!self, !"name"}, scopes distinct !{!self, !domain, !"name"},
; scope lists !{scope}.
; CHECK-DAG: [[LA]] = !{[[SA:![0-9]+]]}
; CHECK-DAG: [[LB]] = !{[[SB:![0-9]+]]}
; CHECK-DAG: [[SA]] = distinct !{[[SA]], [[DOM:![0-9]+]], !"restrict.scope.1.a"}
; CHECK-DAG: [[SB]] = distinct !{[[SB]], [[DOM]], !"restrict.scope.1.b"}
; CHECK-DAG: [[DOM]] = distinct !{[[DOM]], !"restrict.domain.k"}

define void @k(ptr addrspace(1) %a, ptr addrspace(1) %b) "user_specified_restrict_scope"="1" "user_specified_restrict_keyword"="__restrict__" {
  %va = load i32, ptr addrspace(1) %a, align 4
  %vb = load i32, ptr addrspace(1) %b, align 4
  store i32 %va, ptr addrspace(1) %b, align 4
  ret void
}
