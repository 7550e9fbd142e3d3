; Uses of the caller's object that keep it local: a read-only pointer
; parameter of another function (checked with the same rule as byval
; parameters), memcpy/memset, lifetime markers, field stores. Passing it to
; a parameter that is written or kept counts as an escape. Here @rd is
; internal but one call site does not qualify: it is cloned, and the
; original stays for that site.
; RUN: nvpass-cli run --pipeline byval-ref %s | FileCheck %s
%S = type { i32, i32 }

define internal i32 @peek(ptr %p) {
  %v = load i32, ptr %p
  ret i32 %v
}
define internal void @poke(ptr %p) {
  store i32 0, ptr %p
  ret void
}

; CHECK-LABEL: define internal i32 @rd(ptr byval(%S) align 4 %p) {
; CHECK-LABEL: define private i32 @rd.byref(ptr %p) alwaysinline {
define internal i32 @rd(ptr byval(%S) align 4 %p) {
  %v = load i32, ptr %p
  ret i32 %v
}

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: call i32 @rd.byref(ptr %a)
; CHECK: call i32 @rd(ptr byval(%S) align 4 %b)
define ptx_kernel void @k(ptr %src) {
  %a = alloca %S, align 4
  %b = alloca %S, align 4
  call void @llvm.lifetime.start.p0(i64 8, ptr %a)
  call void @llvm.memset.p0.i64(ptr %a, i8 0, i64 8, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr %a, ptr %src, i64 4, i1 false)
  %f = getelementptr inbounds %S, ptr %a, i32 0, i32 1
  store i32 3, ptr %f
  %x = call i32 @peek(ptr %a)
  %1 = call i32 @rd(ptr byval(%S) align 4 %a)
  call void @poke(ptr %b)
  %2 = call i32 @rd(ptr byval(%S) align 4 %b)
  call void @llvm.lifetime.end.p0(i64 8, ptr %a)
  ret void
}
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.lifetime.start.p0(i64, ptr)
declare void @llvm.lifetime.end.p0(i64, ptr)
