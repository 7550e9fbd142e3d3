; A callee that observes the address of its byval copy (stores it,
; converts it to an integer, compares it, returns it, selects on it) keeps
; its byval parameter: the copy's address differs from the original's.
; RUN: nvpass-cli run --pipeline byval-ref %s | FileCheck %s
; CHECK-NOT: .byref
%S = type { i32, i32 }
@g = global ptr null

; CHECK: define internal void @keep(ptr byval(%S) align 4 %p)
define internal void @keep(ptr byval(%S) align 4 %p) {
  store ptr %p, ptr @g
  ret void
}
; CHECK: define internal i64 @p2i(ptr byval(%S) align 4 %p)
define internal i64 @p2i(ptr byval(%S) align 4 %p) {
  %i = ptrtoint ptr %p to i64
  ret i64 %i
}
; CHECK: define internal i1 @cmp(ptr byval(%S) align 4 %p, ptr %q)
define internal i1 @cmp(ptr byval(%S) align 4 %p, ptr %q) {
  %c = icmp eq ptr %p, %q
  ret i1 %c
}
; CHECK: define internal ptr @ret(ptr byval(%S) align 4 %p)
define internal ptr @ret(ptr byval(%S) align 4 %p) {
  %f = getelementptr %S, ptr %p, i32 0, i32 1
  ret ptr %f
}
; CHECK: define internal i32 @sel(ptr byval(%S) align 4 %p, ptr %q, i1 %c)
define internal i32 @sel(ptr byval(%S) align 4 %p, ptr %q, i1 %c) {
  %s = select i1 %c, ptr %p, ptr %q
  %v = load i32, ptr %s
  ret i32 %v
}

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: call void @keep(ptr byval(%S) align 4 %a)
; CHECK: call i64 @p2i(ptr byval(%S) align 4 %a)
; CHECK: call i1 @cmp(ptr byval(%S) align 4 %a, ptr %b)
; CHECK: call ptr @ret(ptr byval(%S) align 4 %a)
; CHECK: call i32 @sel(ptr byval(%S) align 4 %a, ptr %b, i1 %c)
define ptx_kernel void @k(i1 %c) {
  %a = alloca %S, align 4
  %b = alloca %S, align 4
  call void @keep(ptr byval(%S) align 4 %a)
  %1 = call i64 @p2i(ptr byval(%S) align 4 %a)
  %2 = call i1 @cmp(ptr byval(%S) align 4 %a, ptr %b)
  %3 = call ptr @ret(ptr byval(%S) align 4 %a)
  %4 = call i32 @sel(ptr byval(%S) align 4 %a, ptr %b, i1 %c)
  ret void
}
