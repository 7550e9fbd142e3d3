; Spec 004 "Matching Predicate" and "Failure Modes": PHI and select join
; roots. A join of two roots carries both scopes in !alias.scope (the meet:
; "the PHI inherits both") and only the remaining scopes in !noalias. A join
; with an underived value is not derived. A loop PHI that steps its own
; GEP stays derived from its one root.
; RUN: nvpass-cli run --pipeline process-restrict %s | FileCheck %s

; CHECK-LABEL: define void @joins(
; CHECK: %v1 = load i32, ptr %p, align 4, !alias.scope [[LAB:![0-9]+]], !noalias [[LC:![0-9]+]]
; CHECK: %v2 = load i32, ptr %s, align 4, !alias.scope [[LAB]], !noalias [[LC]]
; CHECK: %v3 = load i32, ptr %mixed, align 4{{$}}
; CHECK: store i32 %v3, ptr %c, align 4, !alias.scope [[LC]], !noalias [[LAB]]
; CHECK: %v4 = load i32, ptr %u, align 4, !alias.scope [[LA:![0-9]+]], !noalias [[LBC:![0-9]+]]
; CHECK-NEXT: store i32 %v4, ptr %p, align 4, !alias.scope [[LAB]], !noalias [[LC]]
define void @joins(ptr "user_specified_restrict_scope"="1" %a, ptr "user_specified_restrict_scope"="1" %b, ptr "user_specified_restrict_scope"="1" %c, ptr %other, i1 %cond) {
entry:
  br i1 %cond, label %left, label %right
left:
  br label %join
right:
  br label %join
join:
  %p = phi ptr [ %a, %left ], [ %b, %right ]
  %v1 = load i32, ptr %p, align 4
  %s = select i1 %cond, ptr %a, ptr %b
  %v2 = load i32, ptr %s, align 4
  %mixed = select i1 %cond, ptr %a, ptr %other
  %v3 = load i32, ptr %mixed, align 4
  store i32 %v3, ptr %c, align 4
  %u = select i1 %cond, ptr %a, ptr undef
  %v4 = load i32, ptr %u, align 4
  store i32 %v4, ptr %p, align 4
  ret void
}

; CHECK-LABEL: define void @loop(
; CHECK: store i32 0, ptr %cur, align 4, !alias.scope [[LX:![0-9]+]], !noalias [[LY:![0-9]+]]
; CHECK: %w = load i32, ptr %y, align 4, !alias.scope [[LY]], !noalias [[LX]]
; CHECK: %z = load i32, ptr %q, align 4{{$}}
define void @loop(ptr noalias %x, ptr noalias %y, ptr %other, i64 %n) {
entry:
  br label %body
body:
  %cur = phi ptr [ %x, %entry ], [ %next, %body ]
  %q = phi ptr [ %other, %entry ], [ %qn, %body ]
  %i = phi i64 [ 0, %entry ], [ %in, %body ]
  store i32 0, ptr %cur, align 4
  %w = load i32, ptr %y, align 4
  %z = load i32, ptr %q, align 4
  %next = getelementptr inbounds i32, ptr %cur, i64 1
  %qn = getelementptr inbounds i32, ptr %x, i64 %i
  %in = add i64 %i, 1
  %done = icmp eq i64 %in, %n
  br i1 %done, label %exit, label %body
exit:
  ret void
}

; CHECK-DAG: [[LAB]] = !{[[SA:![0-9]+]], [[SB:![0-9]+]]}
; CHECK-DAG: [[LC]] = !{[[SC:![0-9]+]]}
; CHECK-DAG: [[LA]] = !{[[SA]]}
; CHECK-DAG: [[LBC]] = !{[[SB]], [[SC]]}
; CHECK-DAG: [[SA]] = distinct !{[[SA]], {{.*}}, !"restrict.scope.1.a"}
; CHECK-DAG: [[SB]] = distinct !{[[SB]], {{.*}}, !"restrict.scope.1.b"}
; CHECK-DAG: [[SC]] = distinct !{[[SC]], {{.*}}, !"restrict.scope.1.c"}
