; Spec 004 "Tunables": dump-process-restrict prints, per function, the
; roots before and the stamped accesses after (as notes on stderr).
; RUN: nvpass-cli run --pipeline process-restrict --dump-process-restrict %s -o %t 2>&1 | FileCheck %s
; RUN: nvpass-cli run --pipeline process-restrict %s -o %t 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty

; CHECK: note: process-restrict before @k: roots restrict.scope.1.a (parameter key), restrict.scope.noalias.b (noalias)
; CHECK-NEXT: note: process-restrict after @k: 2 accesses stamped; load %va via %a in {restrict.scope.1.a}; store via %b in {restrict.scope.noalias.b}
; QUIET-NOT: note
define void @k(ptr "user_specified_restrict_scope"="1" %a, ptr noalias %b) {
  %va = load i32, ptr %a, align 4
  store i32 %va, ptr %b, align 4
  ret void
}
