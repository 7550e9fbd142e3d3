; Default mode: unused kernel parameters are reported (Missed remarks) and
; the signature is kept, because it is the launch ABI.
; RUN: nvpass-cli run --pipeline kernel-arg-elim %s --pass-remarks-missed=kernel-arg-elim -o %t 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: FileCheck --input-file %t %s

; REMARK: remark: parameter 1 ('%unused') of kernel 'k' is unused; kept to preserve the launch ABI [-Rpass-missed=kernel-arg-elim]
; REMARK-NEXT: remark: parameter 2 ('<unnamed>') of kernel 'k' is unused; kept to preserve the launch ABI
; REMARK-NEXT: remark: parameter 0 ('%q') of kernel 'annotated' is unused
; REMARK-NOT: remark:

; CHECK: define void @k(ptr %p, i32 %unused, float %0) "nvvm.kernel" {
define void @k(ptr %p, i32 %unused, float %0) "nvvm.kernel" {
  store i32 0, ptr %p
  ret void
}

; Kernels known only through !nvvm.annotations are kernels too.
; CHECK: define void @annotated(ptr %q)
define void @annotated(ptr %q) {
  ret void
}

; Device functions are not this pass's business.
; CHECK: define void @device(i32 %x)
define void @device(i32 %x) {
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @annotated, !"kernel", i32 1}
