; After transplanting, the predicate alone (criterion 2 and 3) recognises
; the kernel: kernel-attr has nothing left to do.
; RUN: nvpass-cli run --pipeline kernel-attr-transplant,kernel-attr %s --pass-remarks=kernel-attr 2>&1 | FileCheck %s

; CHECK-NOT: remark: marked
; CHECK: define void @k() "nvvm.kernel" "nvvm.annotations_transplanted"
define void @k() {
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
