; Spec 004 "Attribute Keys": the front-end marker
; user_specified_restrict_processed also means "processed": the function is
; not re-entered, the marker is only canonicalized (and kept).
; RUN: nvpass-cli run --pipeline process-restrict %s | FileCheck %s
; RUN: nvpass-cli run --pipeline process-restrict,process-restrict %s | FileCheck %s

; CHECK-LABEL: define void @fe_marked(ptr "user_specified_restrict_scope"="1" %a, ptr "user_specified_restrict_scope"="1" %b) "user_specified_restrict_processed" "nvvm.restrict_processed" {
; CHECK-NEXT: %va = load i32, ptr %a, align 4{{$}}
define void @fe_marked(ptr "user_specified_restrict_scope"="1" %a, ptr "user_specified_restrict_scope"="1" %b) "user_specified_restrict_processed" {
  %va = load i32, ptr %a, align 4
  store i32 %va, ptr %b, align 4
  ret void
}
; CHECK-NOT: restrict.domain
