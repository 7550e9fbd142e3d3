; Spec 004 "Tunables": process-restrict=0 is the master switch (spec
; "Operational Knobs": "Allows disabling restrict metadata generation for
; differential testing"): nothing changes.
; RUN: nvpass-cli run --pipeline process-restrict --process-restrict=0 %s | FileCheck %s
; RUN: nvpass-cli run --pipeline process-restrict --process-restrict=false %s | FileCheck %s

; CHECK-LABEL: define void @k(ptr "user_specified_restrict_scope"="1" %a, ptr noalias %b) {
; CHECK-NEXT: %va = load i32, ptr %a, align 4{{$}}
; CHECK-NEXT: store i32 %va, ptr %b, align 4{{$}}
; CHECK-NOT: restrict.domain
; CHECK-NOT: nvvm.restrict
define void @k(ptr "user_specified_restrict_scope"="1" %a, ptr noalias %b) {
  %va = load i32, ptr %a, align 4
  store i32 %va, ptr %b, align 4
  ret void
}
