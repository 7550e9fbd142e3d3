; Front-end (-O0) IR spills every parameter to a stack slot and reloads it
; (restrict_atomics.fe). A private slot written once by the root and
; otherwise only loaded (or passed to llvm.lifetime.*) is looked through:
; its loads are the root again. A slot written twice is not.
; RUN: nvpass-cli run --pipeline process-restrict %s | FileCheck %s

; CHECK-LABEL: define void @fe(
; CHECK: store ptr %0, ptr %slot0, align 8{{$}}
; CHECK: %p0 = load ptr, ptr %slot0, align 8{{$}}
; CHECK: %e = getelementptr inbounds float, ptr %p0, i64 %i
; CHECK-NEXT: %v = load float, ptr %e, align 4, !alias.scope [[L0:![0-9]+]], !noalias [[L1:![0-9]+]]
; CHECK-NEXT: %p1 = load ptr, ptr %slot1, align 8{{$}}
; CHECK-NEXT: store float %v, ptr %p1, align 4, !alias.scope [[L1]], !noalias [[L0]]
; CHECK-NEXT: %p2 = load ptr, ptr %twice, align 8{{$}}
; CHECK-NEXT: store float %v, ptr %p2, align 4{{$}}
define void @fe(ptr noalias noundef %0, ptr noalias noundef %1, i64 %i) {
  %slot0 = alloca ptr, align 8
  %slot1 = alloca ptr, align 8
  %twice = alloca ptr, align 8
  call void @llvm.lifetime.start.p0(i64 8, ptr %slot0)
  store ptr %0, ptr %slot0, align 8
  store ptr %1, ptr %slot1, align 8
  store ptr %1, ptr %twice, align 8
  store ptr %0, ptr %twice, align 8
  %p0 = load ptr, ptr %slot0, align 8
  %e = getelementptr inbounds float, ptr %p0, i64 %i
  %v = load float, ptr %e, align 4
  %p1 = load ptr, ptr %slot1, align 8
  store float %v, ptr %p1, align 4
  %p2 = load ptr, ptr %twice, align 8
  store float %v, ptr %p2, align 4
  call void @llvm.lifetime.end.p0(i64 8, ptr %slot0)
  ret void
}

; A slot whose address escapes to a call may be rewritten there.
; CHECK-LABEL: define void @escapes(
; CHECK: store i32 0, ptr %p, align 4{{$}}
define void @escapes(ptr noalias %a) {
  %slot = alloca ptr, align 8
  store ptr %a, ptr %slot, align 8
  call void @clobber(ptr %slot)
  %p = load ptr, ptr %slot, align 8
  store i32 0, ptr %p, align 4
  ret void
}

declare void @clobber(ptr)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture)
