; Entries that are not !{<value>, !"key", value, ...} are reported as
; warnings and kept; well-formed entries are still migrated.
; RUN: nvpass-cli run --pipeline kernel-attr-transplant %s -o %t 2>&1 | FileCheck %s --check-prefix=WARN
; RUN: FileCheck --input-file %t %s

; WARN-COUNT-3: warning: malformed !nvvm.annotations entry

; CHECK: define void @k() "nvvm.kernel" "nvvm.annotations_transplanted"
; CHECK: !nvvm.annotations = !{!0, !1, !2, !3}
define void @k() {
  ret void
}

!nvvm.annotations = !{!0, !1, !2, !3}
!0 = !{ptr @k, !"kernel"}
!1 = !{!"kernel", i32 1}
!2 = !{ptr @k, i32 1, i32 1}
!3 = !{ptr @k, !"kernel", i32 1}
