; Rule 5 (delete_zero_length_mem_intrinsics): memcpy/memmove/memset (and
; the .inline forms) of constant length 0 are deleted, volatile or not;
; other lengths stay.
; RUN: nvpass-cli run --pipeline pretreat %s | FileCheck %s
; RUN: nvpass-cli run --pipeline pretreat,pretreat %s | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memcpy.p0.p1.i32(ptr, ptr addrspace(1), i32, i1)
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare void @llvm.memcpy.inline.p0.p0.i64(ptr, ptr, i64, i1)

; CHECK-LABEL: define void @zero(ptr %p, ptr %q, ptr addrspace(1) %g)
; CHECK-NEXT:    ret void
define void @zero(ptr %p, ptr %q, ptr addrspace(1) %g) {
  call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %q, i64 0, i1 false)
  call void @llvm.memcpy.p0.p1.i32(ptr %p, ptr addrspace(1) %g, i32 0, i1 false)
  call void @llvm.memmove.p0.p0.i64(ptr %p, ptr %q, i64 0, i1 false)
  call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 0, i1 true)
  call void @llvm.memcpy.inline.p0.p0.i64(ptr %p, ptr %q, i64 0, i1 false)
  ret void
}

; CHECK-LABEL: define void @nonzero(ptr %p, ptr %q, i64 %n)
; CHECK-NEXT:    call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %q, i64 1, i1 false)
; CHECK-NEXT:    call void @llvm.memmove.p0.p0.i64(ptr %p, ptr %q, i64 %n, i1 false)
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 8, i1 false)
; CHECK-NEXT:    ret void
define void @nonzero(ptr %p, ptr %q, i64 %n) {
  call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %q, i64 1, i1 false)
  call void @llvm.memmove.p0.p0.i64(ptr %p, ptr %q, i64 %n, i1 false)
  call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 8, i1 false)
  ret void
}
