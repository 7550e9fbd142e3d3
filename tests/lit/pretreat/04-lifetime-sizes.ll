; Rule 4 (normalize_lifetime_sizes): a lifetime size equal to the whole
; alloca becomes -1; partial sizes, pointers into the alloca, and non-alloca
; pointers keep theirs.
; RUN: nvpass-cli run --pipeline pretreat %s | FileCheck %s
; RUN: nvpass-cli run --pipeline pretreat,pretreat %s | FileCheck %s

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.Big = type { [12 x i32], double }

declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture)
declare void @use(ptr)

; CHECK-LABEL: define void @whole()
; CHECK:         call void @llvm.lifetime.start.p0(i64 -1, ptr %a)
; CHECK:         call void @llvm.lifetime.start.p0(i64 -1, ptr %s)
; CHECK:         call void @llvm.lifetime.start.p0(i64 -1, ptr %n)
; CHECK:         call void @llvm.lifetime.end.p0(i64 -1, ptr %n)
; CHECK:         call void @llvm.lifetime.end.p0(i64 -1, ptr %s)
; CHECK:         call void @llvm.lifetime.end.p0(i64 -1, ptr %a)
define void @whole() {
  %a = alloca [4 x i32], align 4
  %s = alloca %struct.Big, align 8
  %n = alloca i64, i32 3, align 8
  call void @llvm.lifetime.start.p0(i64 16, ptr %a)
  call void @llvm.lifetime.start.p0(i64 56, ptr %s)
  call void @llvm.lifetime.start.p0(i64 24, ptr %n)
  call void @use(ptr %a)
  call void @use(ptr %s)
  call void @use(ptr %n)
  call void @llvm.lifetime.end.p0(i64 24, ptr %n)
  call void @llvm.lifetime.end.p0(i64 56, ptr %s)
  call void @llvm.lifetime.end.p0(i64 16, ptr %a)
  ret void
}

; CHECK-LABEL: define void @partial(ptr %p)
; CHECK:         call void @llvm.lifetime.start.p0(i64 8, ptr %a)
; CHECK:         call void @llvm.lifetime.start.p0(i64 8, ptr %q)
; CHECK:         call void @llvm.lifetime.start.p0(i64 16, ptr %p)
; CHECK:         call void @llvm.lifetime.end.p0(i64 -1, ptr %a)
define void @partial(ptr %p) {
  %a = alloca [4 x i32], align 4
  %q = getelementptr inbounds i8, ptr %a, i64 8
  call void @llvm.lifetime.start.p0(i64 8, ptr %a)
  call void @llvm.lifetime.start.p0(i64 8, ptr %q)
  call void @llvm.lifetime.start.p0(i64 16, ptr %p)
  call void @use(ptr %a)
  call void @llvm.lifetime.end.p0(i64 -1, ptr %a)
  ret void
}
