; A read-only callee whose caller's object escapes (its address is stored,
; passed to a call that may keep it, converted to an integer), is not
; local, or is less aligned than the copy would be: the call keeps byval.
; RUN: nvpass-cli run --pipeline byval-ref %s | FileCheck %s
; CHECK-NOT: .byref
%S = type { i32, i32 }
@g = global ptr null
@gs = global %S zeroinitializer

; CHECK: define internal i32 @rd(ptr byval(%S) align 4 %p)
define internal i32 @rd(ptr byval(%S) align 4 %p) {
  %v = load i32, ptr %p
  ret i32 %v
}
declare void @ext(ptr)

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: call i32 @rd(ptr byval(%S) align 4 %stored)
; CHECK: call i32 @rd(ptr byval(%S) align 4 %passed)
; CHECK: call i32 @rd(ptr byval(%S) align 4 %gepd)
; CHECK: call i32 @rd(ptr byval(%S) align 4 %int)
; CHECK: call i32 @rd(ptr byval(%S) align 4 @gs)
; CHECK: call i32 @rd(ptr byval(%S) align 4 %arg)
; CHECK: call i32 @rd(ptr byval(%S) align 4 %small)
define ptx_kernel void @k(ptr %arg) {
  %stored = alloca %S, align 4
  %passed = alloca %S, align 4
  %gepd = alloca %S, align 4
  %int = alloca %S, align 4
  %small = alloca %S, align 2
  store ptr %stored, ptr @g
  call void @ext(ptr %passed)
  %f = getelementptr %S, ptr %gepd, i32 0, i32 1
  call void @ext(ptr %f)
  %i = ptrtoint ptr %int to i64
  %1 = call i32 @rd(ptr byval(%S) align 4 %stored)
  %2 = call i32 @rd(ptr byval(%S) align 4 %passed)
  %3 = call i32 @rd(ptr byval(%S) align 4 %gepd)
  %4 = call i32 @rd(ptr byval(%S) align 4 %int)
  %5 = call i32 @rd(ptr byval(%S) align 4 @gs)
  %6 = call i32 @rd(ptr byval(%S) align 4 %arg)
  %7 = call i32 @rd(ptr byval(%S) align 4 %small)
  ret void
}
