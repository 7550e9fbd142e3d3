; Scope lists already on an access are merged, never dropped: scopes of
; other domains (LLVM's inliner, another function's restrict scopes) stay,
; only this function's own domain is (re)written.
; Spec 004 "Failure Modes", re-entry without canonical key: a clone that
; copied the keys and stamps but not nvvm.restrict_processed is entered
; again. Under its own name (@same) the pass finds its domain and scopes by
; name and reuses them, so no fresh scope appears; a renamed clone
; (@renamed) gets a fresh domain next to the inherited one (both are true).
; RUN: nvpass-cli run --pipeline process-restrict %s | FileCheck %s

; CHECK-LABEL: define void @foreign(
; CHECK-NEXT: %v = load i32, ptr %a, align 4, !alias.scope [[LA:![0-9]+]], !noalias [[NA:![0-9]+]]
; CHECK-NEXT: store i32 %v, ptr %b, align 4, !alias.scope [[NA]], !noalias [[LA]]
define void @foreign(ptr noalias %a, ptr noalias %b) {
  %v = load i32, ptr %a, align 4, !alias.scope !2, !noalias !3
  store i32 %v, ptr %b, align 4, !alias.scope !3, !noalias !2
  ret void
}

; CHECK-LABEL: define void @same(
; CHECK-NEXT: %v = load i32, ptr %a, align 4, !alias.scope !7, !noalias !8
; CHECK-NEXT: store i32 %v, ptr %b, align 4, !alias.scope !8, !noalias !7
define void @same(ptr "user_specified_restrict_scope"="1" %a, ptr "user_specified_restrict_scope"="1" %b) {
  %v = load i32, ptr %a, align 4, !alias.scope !7, !noalias !8
  store i32 %v, ptr %b, align 4, !alias.scope !8, !noalias !7
  ret void
}

; CHECK-LABEL: define void @renamed(
; CHECK-NEXT: %v = load i32, ptr %a, align 4, !alias.scope [[RA:![0-9]+]], !noalias [[RNA:![0-9]+]]
define void @renamed(ptr "user_specified_restrict_scope"="1" %a, ptr "user_specified_restrict_scope"="1" %b) {
  %v = load i32, ptr %a, align 4, !alias.scope !7, !noalias !8
  store i32 %v, ptr %b, align 4, !alias.scope !8, !noalias !7
  ret void
}

!0 = distinct !{!0, !"llvm.inliner.domain"}
!1 = distinct !{!1, !0, !"callee: %x"}
!2 = !{!1}
!3 = !{}
!4 = distinct !{!4, !"restrict.domain.same"}
!5 = distinct !{!5, !4, !"restrict.scope.1.a"}
!6 = distinct !{!6, !4, !"restrict.scope.1.b"}
!7 = !{!5}
!8 = !{!6}

; CHECK-DAG: [[LA]] = !{!1, [[SA:![0-9]+]]}
; CHECK-DAG: [[NA]] = !{[[SB:![0-9]+]]}
; CHECK-DAG: [[SA]] = distinct !{[[SA]], [[DF:![0-9]+]], !"restrict.scope.noalias.a"}
; CHECK-DAG: [[DF]] = distinct !{[[DF]], !"restrict.domain.foreign"}
; CHECK-DAG: [[RA]] = !{!5, [[SRA:![0-9]+]]}
; CHECK-DAG: [[RNA]] = !{!6, [[SRB:![0-9]+]]}
; CHECK-DAG: [[SRA]] = distinct !{[[SRA]], [[DR:![0-9]+]], !"restrict.scope.1.a"}
; CHECK-DAG: [[DR]] = distinct !{[[DR]], !"restrict.domain.renamed"}
; CHECK-NOT: restrict.domain.same
