; Kept: kernels (every criterion and legacy annotations, even with internal
; linkage), functions in @llvm.used / @llvm.compiler.used, functions whose
; address is stored in a global or used in a constant expression, and
; helpers reachable from any of those.
; RUN: nvpass-cli run --pipeline remove-dead-functions %s | FileCheck %s
; Idempotent.
; RUN: nvpass-cli run --pipeline remove-dead-functions,remove-dead-functions %s | FileCheck %s

@llvm.used = appending global [1 x ptr] [ptr @in_used], section "llvm.metadata"
@llvm.compiler.used = appending global [1 x ptr] [ptr @in_compiler_used], section "llvm.metadata"
@table = internal global ptr @in_table

; CHECK: define internal ptx_kernel void @k_cc()
define internal ptx_kernel void @k_cc() {
  ret void
}
; CHECK: define internal void @k_attr() "nvvm.kernel"
define internal void @k_attr() "nvvm.kernel" {
  ret void
}
; CHECK: define internal void @k_transplanted() "nvvm.annotations_transplanted"
define internal void @k_transplanted() "nvvm.annotations_transplanted" {
  ret void
}
; CHECK: define internal void @k_legacy() "kernel"
define internal void @k_legacy() "kernel" {
  ret void
}
; CHECK: define internal void @k_annotated()
define internal void @k_annotated() {
  call void @from_kernel()
  ret void
}
; CHECK: define internal void @from_kernel()
define internal void @from_kernel() {
  ret void
}
; CHECK: define internal void @in_used()
define internal void @in_used() {
  ret void
}
; CHECK: define internal void @in_compiler_used()
define internal void @in_compiler_used() {
  ret void
}
; CHECK: define internal void @in_table()
define internal void @in_table() {
  ret void
}
; CHECK: define internal void @in_const_expr()
define internal void @in_const_expr() {
  ret void
}
define void @user(ptr %p) {
  store ptr addrspace(1) addrspacecast (ptr @in_const_expr to ptr addrspace(1)), ptr %p
  ret void
}

; A function referenced only from metadata is dead (metadata is not a use);
; the reference becomes null.
; CHECK-NOT: @md_only
define internal void @md_only() {
  ret void
}

; CHECK: !nvvm.annotations = !{!0, !1}
; CHECK: !1 = !{null, !"maxnreg", i32 8}
!nvvm.annotations = !{!0, !1}
!0 = !{ptr @k_annotated, !"kernel", i32 1}
!1 = !{ptr @md_only, !"maxnreg", i32 8}
