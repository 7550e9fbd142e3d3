; Rule 14 (normalize_undef_memcpy_lengths): an undef/poison byte count
; becomes 0, and rule 5 then deletes the call in the same run (the hand-off
; the spec states). With rule 5 disabled, the spec's failure mode shows: the
; call survives, now with length 0.
; RUN: nvpass-cli run --pipeline pretreat %s | FileCheck %s
; RUN: nvpass-cli run --pipeline pretreat,pretreat %s | FileCheck %s
; RUN: nvpass-cli run --pipeline pretreat --pretreat-disable=5 %s \
; RUN:   | FileCheck %s --check-prefix=NO5
; RUN: nvpass-cli run --pipeline pretreat --pretreat-disable=14 %s \
; RUN:   | FileCheck %s --check-prefix=NO14

target triple = "nvptx64-nvidia-cuda"

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memmove.p0.p0.i32(ptr, ptr, i32, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

; CHECK-LABEL: define void @f(ptr %p, ptr %q, i64 %n)
; CHECK-NEXT:    call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %q, i64 %n, i1 false)
; CHECK-NEXT:    ret void
; NO5-LABEL: define void @f(ptr %p, ptr %q, i64 %n)
; NO5-NEXT:    call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %q, i64 0, i1 false)
; NO5-NEXT:    call void @llvm.memmove.p0.p0.i32(ptr %p, ptr %q, i32 0, i1 false)
; NO5-NEXT:    call void @llvm.memset.p0.i64(ptr %p, i8 1, i64 0, i1 false)
; NO5-NEXT:    call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %q, i64 %n, i1 false)
; NO14-LABEL: define void @f(ptr %p, ptr %q, i64 %n)
; NO14-NEXT:    call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %q, i64 undef, i1 false)
; NO14-NEXT:    call void @llvm.memmove.p0.p0.i32(ptr %p, ptr %q, i32 poison, i1 false)
; NO14-NEXT:    call void @llvm.memset.p0.i64(ptr %p, i8 1, i64 undef, i1 false)
define void @f(ptr %p, ptr %q, i64 %n) {
  call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %q, i64 undef, i1 false)
  call void @llvm.memmove.p0.p0.i32(ptr %p, ptr %q, i32 poison, i1 false)
  call void @llvm.memset.p0.i64(ptr %p, i8 1, i64 undef, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %q, i64 %n, i1 false)
  ret void
}
