; --kernel-arg-elim-change-abi=true removes unused parameters of kernels
; whose address is unused; parameter attributes follow their parameters.
; RUN: nvpass-cli run --pipeline kernel-arg-elim --kernel-arg-elim-change-abi=true %s --pass-remarks=kernel-arg-elim -o %t 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: FileCheck --input-file %t %s
; Idempotent: a second run finds nothing left to remove.
; RUN: nvpass-cli run --pipeline kernel-arg-elim,kernel-arg-elim --kernel-arg-elim-change-abi %s | FileCheck %s

; REMARK: remark: removed unused parameter 3 ('%d') of kernel 'k' [-Rpass=kernel-arg-elim]
; REMARK-NEXT: remark: removed unused parameter 1 ('%b') of kernel 'k'
; REMARK-NOT: remark:

; CHECK: define ptx_kernel void @k(ptr noalias %a, i32 signext %c)
define ptx_kernel void @k(ptr noalias %a, ptr %b, i32 signext %c, double %d) {
  store i32 %c, ptr %a
  ret void
}

; Nothing unused: unchanged.
; CHECK: define ptx_kernel void @all_used(i32 %x)
define ptx_kernel void @all_used(i32 %x) {
  %y = add i32 %x, 1
  ret void
}
