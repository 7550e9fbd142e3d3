; Even with --kernel-arg-elim-change-abi, a kernel is kept when its address
; is used (a launch or @llvm.used entry still expects the old layout) or
; when !nvvm.annotations holds grid_constant parameter indices.
; RUN: nvpass-cli run --pipeline kernel-arg-elim --kernel-arg-elim-change-abi %s --pass-remarks-missed=kernel-arg-elim -o %t 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: FileCheck --input-file %t %s

; REMARK: remark: unused parameters of kernel 'launched' kept: its address is used (called or launched) [-Rpass-missed=kernel-arg-elim]
; REMARK-NEXT: remark: unused parameters of kernel 'used' kept: its address is used (called or launched)
; REMARK-NEXT: remark: unused parameters of kernel 'gridc' kept: !nvvm.annotations holds grid_constant parameter indices

@llvm.used = appending global [1 x ptr] [ptr @used], section "llvm.metadata"

; CHECK: define ptx_kernel void @launched(i32 %x)
define ptx_kernel void @launched(i32 %x) {
  ret void
}
; CHECK: define ptx_kernel void @used(i32 %x)
define ptx_kernel void @used(i32 %x) {
  ret void
}
; CHECK: define void @gridc(ptr byval(i32) %a, i32 %x)
define void @gridc(ptr byval(i32) %a, i32 %x) {
  ret void
}

define void @parent() {
  %r = call i32 @cudaLaunchDevice(ptr @launched, ptr null)
  ret void
}
declare i32 @cudaLaunchDevice(ptr, ptr)
; (a definition after the declarations: the nvpass-ir parser reads named
; metadata right after a declaration as an attachment)
define internal void @after_decls() {
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @gridc, !"kernel", i32 1}
!1 = !{ptr @gridc, !"grid_constant", !2}
!2 = !{i32 1}
