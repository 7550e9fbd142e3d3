; regs: peak live SSA values across a loop (phi operands live out of the
; latch, allocas excluded); divergence follows data flow through phis and
; from atomics, not control dependence; stack follows the deepest call
; chain and cuts recursion.
; RUN: nvpass-cli run --pipeline kernel-info %s --pass-remarks-analysis=kernel-info -o %t 2>&1 | FileCheck %s

; CHECK: kernel-info: regs in function 'k' = 5 [
; CHECK: kernel-info: local in function 'k' = 8 [
; CHECK: kernel-info: stack in function 'k' = 1040 [
; CHECK: kernel-info: branches in function 'k' = 2 [
; CHECK: kernel-info: divergence in function 'k' = 2 [

define void @k(ptr %p, i32 %n) "nvvm.kernel" {
entry:
  %slot = alloca i64, align 8
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i32 [ %lane, %entry ], [ %acc.next, %loop ]
  %acc.next = add i32 %acc, %i
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %acc.next, %n
  br i1 %done, label %after, label %loop

after:
  %old = atomicrmw add ptr %p, i32 1 seq_cst
  %z = icmp eq i32 %old, 0
  br i1 %z, label %a, label %b

a:
  call void @deep()
  br label %b

b:
  call void @shallow()
  ret void
}

define internal void @deep() {
  %big = alloca [256 x i32], align 4
  call void @rec()
  ret void
}

define internal void @rec() {
  %w = alloca [2 x i32], align 4
  call void @rec()
  ret void
}

define internal void @shallow() {
  %s = alloca [16 x i32], align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
