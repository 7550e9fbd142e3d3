; Spec 004 "Matching Predicate": a pointer parameter is in scope iff it
; carries the restrict key. Unannotated parameters get no noalias and their
; accesses no metadata; keys stay in both spellings (spec "Attribute Keys").
; RUN: nvpass-cli run --pipeline process-restrict %s | FileCheck %s

; CHECK-LABEL: define void @f(
; CHECK-SAME: ptr "user_specified_restrict_scope"="7" "user_specified_restrict_keyword"="restrict" "nvvm.restrict_scope"="7" "nvvm.restrict_keyword"="restrict" noalias %p,
; CHECK-SAME: ptr "user_specified_restrict_scope"="8" "nvvm.restrict_scope"="8" noalias %q,
; CHECK-SAME: ptr %plain, i32 "user_specified_restrict_scope"="9" "nvvm.restrict_scope"="9" %n)
; CHECK-SAME: "nvvm.restrict_processed"
; CHECK-NEXT: %x = load i32, ptr %p, align 4, !alias.scope [[LP:![0-9]+]], !noalias [[LQ:![0-9]+]]
; CHECK-NEXT: store i32 %x, ptr %q, align 4, !alias.scope [[LQ]], !noalias [[LP]]
; CHECK-NEXT: %y = load i32, ptr %plain, align 4{{$}}
; CHECK-NEXT: store i32 %y, ptr %p, align 4, !alias.scope [[LP]], !noalias [[LQ]]

; A function with no restrict still gets the marker (the spec's
; processRestrict sets it on every function it visits).
; CHECK-LABEL: define void @none(ptr %a) "nvvm.restrict_processed" {
; CHECK-NEXT: store i32 0, ptr %a, align 4{{$}}

define void @f(ptr "user_specified_restrict_scope"="7" "user_specified_restrict_keyword"="restrict" %p, ptr "user_specified_restrict_scope"="8" %q, ptr %plain, i32 "user_specified_restrict_scope"="9" %n) {
  %x = load i32, ptr %p, align 4
  store i32 %x, ptr %q, align 4
  %y = load i32, ptr %plain, align 4
  store i32 %y, ptr %p, align 4
  ret void
}

define void @none(ptr %a) {
  store i32 0, ptr %a, align 4
  ret void
}

declare void @decl(ptr "user_specified_restrict_scope"="1")
; Declarations are not touched.
; CHECK-LABEL: declare void @decl(ptr "user_specified_restrict_scope"="1")

; CHECK-DAG: [[LP]] = !{[[SP:![0-9]+]]}
; CHECK-DAG: [[SP]] = distinct !{[[SP]], {{![0-9]+}}, !"restrict.scope.7.p"}
; CHECK-DAG: [[LQ]] = !{[[SQ:![0-9]+]]}
; CHECK-DAG: [[SQ]] = distinct !{[[SQ]], {{![0-9]+}}, !"restrict.scope.8.q"}
