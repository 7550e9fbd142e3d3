; The warnings: BOTTOM dereference, WMMA operand assumed global, WMMA
; contradiction (shared chain).
; RUN: nvpass-cli run -j 1 --pipeline memspace-opt %s 2>&1 | FileCheck %s
; RUN: nvpass-cli run -j 4 --pipeline memspace-opt %s 2>&1 | FileCheck %s
; CHECK-DAG: warning: Cannot tell what pointer points to
; CHECK-DAG: warning: assuming global memory space
@s = internal addrspace(3) global [256 x half] zeroinitializer
declare { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.load.a.row.stride.f16.p0(ptr, i32)

define i32 @helper(ptr %p) {
  %v = load i32, ptr %p
  ret i32 %v
}

; The unknown helper argument is assumed global: its other uses follow.
; CHECK-LABEL: define void @wmma_unknown(
; CHECK: store i32 0, ptr addrspace(1)
define void @wmma_unknown(ptr %p) {
  %f = call { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.load.a.row.stride.f16.p0(ptr %p, i32 16)
  store i32 0, ptr %p
  ret void
}

; CHECK-LABEL: define void @wmma_shared(
define void @wmma_shared() {
  %f = call { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.load.a.row.stride.f16.p0(ptr addrspacecast (ptr addrspace(3) @s to ptr), i32 16)
  ret void
}
