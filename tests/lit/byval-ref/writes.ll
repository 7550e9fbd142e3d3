; A callee that writes its byval copy (store, memset, memcpy into it,
; atomicrmw, volatile load, a call that may write) keeps its byval
; parameter: the caller's object must not see the writes.
; RUN: nvpass-cli run --pipeline byval-ref %s | FileCheck %s
; CHECK-NOT: .byref
%S = type { i32, i32 }

; CHECK: define internal i32 @st(ptr byval(%S) align 4 %p)
define internal i32 @st(ptr byval(%S) align 4 %p) {
  %f = getelementptr %S, ptr %p, i32 0, i32 1
  store i32 7, ptr %f
  %v = load i32, ptr %p
  ret i32 %v
}
; CHECK: define internal void @ms(ptr byval(%S) align 4 %p)
define internal void @ms(ptr byval(%S) align 4 %p) {
  call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 8, i1 false)
  ret void
}
; CHECK: define internal void @mc(ptr byval(%S) align 4 %p, ptr %q)
define internal void @mc(ptr byval(%S) align 4 %p, ptr %q) {
  call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %q, i64 8, i1 false)
  ret void
}
; CHECK: define internal i32 @rmw(ptr byval(%S) align 4 %p)
define internal i32 @rmw(ptr byval(%S) align 4 %p) {
  %v = atomicrmw add ptr %p, i32 1 monotonic
  ret i32 %v
}
; CHECK: define internal i32 @vol(ptr byval(%S) align 4 %p)
define internal i32 @vol(ptr byval(%S) align 4 %p) {
  %v = load volatile i32, ptr %p
  ret i32 %v
}
; CHECK: define internal void @call(ptr byval(%S) align 4 %p)
define internal void @call(ptr byval(%S) align 4 %p) {
  call void @ext(ptr %p)
  ret void
}
declare void @ext(ptr)

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: call i32 @st(ptr byval(%S) align 4 %a)
; CHECK: call void @ms(ptr byval(%S) align 4 %a)
; CHECK: call void @mc(ptr byval(%S) align 4 %a, ptr %b)
; CHECK: call i32 @rmw(ptr byval(%S) align 4 %a)
; CHECK: call i32 @vol(ptr byval(%S) align 4 %a)
; CHECK: call void @call(ptr byval(%S) align 4 %a)
define ptx_kernel void @k() {
  %a = alloca %S, align 4
  %b = alloca %S, align 4
  store i32 1, ptr %a
  %1 = call i32 @st(ptr byval(%S) align 4 %a)
  call void @ms(ptr byval(%S) align 4 %a)
  call void @mc(ptr byval(%S) align 4 %a, ptr %b)
  %2 = call i32 @rmw(ptr byval(%S) align 4 %a)
  %3 = call i32 @vol(ptr byval(%S) align 4 %a)
  call void @call(ptr byval(%S) align 4 %a)
  ret void
}
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
