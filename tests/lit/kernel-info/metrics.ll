; kernel-info emits the nineteen metrics, in spec order, for each kernel,
; as Analysis remarks: "kernel-info: <metric> in function '<fn>' = <value>".
; RUN: nvpass-cli run --pipeline kernel-info %s --pass-remarks-analysis=kernel-info -o %t 2>&1 | FileCheck %s
; The module is not changed.
; RUN: nvpass-cli run --pipeline '' %s -o %t.ref
; RUN: nvpass-cli run --pipeline kernel-info %s -o %t.out
; RUN: FileCheck --input-file %t.out %s --check-prefix=IR

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@sh = internal addrspace(3) global [64 x float] undef, align 4
@cst = internal addrspace(4) global [4 x i32] zeroinitializer, align 4
@sh2 = internal addrspace(3) global i32 undef, align 4

; At the store of %h, nine values are live: %p %n %x %c %a %b %s %f %g.
; CHECK: remark: kernel-info: regs in function 'k' = 9 [-Rpass-analysis=kernel-info]
; CHECK-NEXT: remark: kernel-info: smem in function 'k' = 260 [-Rpass-analysis=kernel-info]
; CHECK-NEXT: remark: kernel-info: cmem in function 'k' = 16 [
; CHECK-NEXT: remark: kernel-info: tex in function 'k' = 1 [
; CHECK-NEXT: remark: kernel-info: params in function 'k' = 24 [
; CHECK-NEXT: remark: kernel-info: local in function 'k' = 40 [
; CHECK-NEXT: remark: kernel-info: stack in function 'k' = 56 [
; CHECK-NEXT: remark: kernel-info: barriers in function 'k' = 2 [
; CHECK-NEXT: remark: kernel-info: loads in function 'k' = 3 [
; CHECK-NEXT: remark: kernel-info: stores in function 'k' = 2 [
; CHECK-NEXT: remark: kernel-info: branches in function 'k' = 2 [
; CHECK-NEXT: remark: kernel-info: fp_ops in function 'k' = 3 [
; CHECK-NEXT: remark: kernel-info: int_ops in function 'k' = 3 [
; CHECK-NEXT: remark: kernel-info: divergence in function 'k' = 1 [
; CHECK-NEXT: remark: kernel-info: predicated in function 'k' = 1 [
; CHECK-NEXT: remark: kernel-info: vector_ops in function 'k' = 2 [
; CHECK-NEXT: remark: kernel-info: mma_ops in function 'k' = 2 [
; CHECK-NEXT: remark: kernel-info: tcgen05_ops in function 'k' = 1 [
; CHECK-NEXT: remark: kernel-info: tma_ops in function 'k' = 1 [
; CHECK-NOT: remark:

; IR: define void @k(ptr %p, i32 %n, i64 %x)
define void @k(ptr %p, i32 %n, i64 %x) {
entry:
  %buf = alloca [10 x i32], align 4
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp slt i32 %tid, %n
  br i1 %c, label %then, label %exit

then:
  %a = load float, ptr addrspace(3) @sh, align 4
  %b = load i32, ptr addrspace(4) getelementptr ([4 x i32], ptr addrspace(4) @cst, i64 0, i64 1), align 4
  %s = load i32, ptr addrspace(3) @sh2, align 4
  %f = fadd float %a, 1.0
  %g = fmul float %f, %f
  %h = call float @llvm.fma.f32(float %f, float %g, float %a)
  store float %h, ptr %p, align 4
  %sum = add i32 %b, %s
  %sel = select i1 %c, i32 %sum, i32 0
  store i32 %sel, ptr %buf, align 4
  %v = insertelement <2 x i32> undef, i32 %sum, i32 0
  %w = add <2 x i32> %v, %v
  call void @llvm.nvvm.barrier0()
  call void @llvm.nvvm.bar.warp.sync(i32 -1)
  %t = call float @llvm.nvvm.tex.unified.1d.v4f32.s32(i64 %x, i32 0)
  call void @llvm.nvvm.wgmma.fence.sync.aligned()
  call void @llvm.nvvm.wmma.m16n16k16.mma.row.row.f32.f32()
  call void @llvm.nvvm.wmma.m16n16k16.load.a.row.f16()
  call void @llvm.nvvm.tcgen05.commit()
  call void @llvm.nvvm.cp.async.bulk.commit.group()
  call void @helper()
  switch i32 %n, label %exit [ i32 0, label %exit ]

exit:
  ret void
}

; In the closure: its alloca adds to the stack chain, not to 'local'.
define internal void @helper() {
  %tmp = alloca [4 x i32], align 4
  ret void
}

; Not a kernel: no remarks.
define void @device() {
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare float @llvm.fma.f32(float, float, float)
declare void @llvm.nvvm.barrier0()
declare void @llvm.nvvm.bar.warp.sync(i32)
declare float @llvm.nvvm.tex.unified.1d.v4f32.s32(i64, i32)
declare void @llvm.nvvm.wgmma.fence.sync.aligned()
declare void @llvm.nvvm.wmma.m16n16k16.mma.row.row.f32.f32()
declare void @llvm.nvvm.wmma.m16n16k16.load.a.row.f16()
declare void @llvm.nvvm.tcgen05.commit()
declare void @llvm.nvvm.cp.async.bulk.commit.group()
; (a definition after the declarations: the nvpass-ir parser reads named
; metadata right after a declaration as an attachment)
define internal void @after_decls() {
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
