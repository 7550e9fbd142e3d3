; Which callees are changed: an interposable body (weak, linkonce) may be
; replaced at link time by one that writes the copy, so it keeps byval; a
; noinline callee, optnone ones included, is cloned without alwaysinline
; (the two conflict). The originals, now unused, are deleted.
; RUN: nvpass-cli run --pipeline byval-ref %s | FileCheck %s
%S = type { i32 }

; CHECK-LABEL: define weak i32 @w(ptr byval(%S) align 4 %p)
define weak i32 @w(ptr byval(%S) align 4 %p) {
  %v = load i32, ptr %p
  ret i32 %v
}
; CHECK-LABEL: define linkonce i32 @l(ptr byval(%S) align 4 %p)
define linkonce i32 @l(ptr byval(%S) align 4 %p) {
  %v = load i32, ptr %p
  ret i32 %v
}
; CHECK-NOT: @ni(
; CHECK-LABEL: define private i32 @ni.byref(ptr %p) #0 {
define linkonce_odr i32 @ni(ptr byval(%S) align 4 %p) #0 {
  %v = load i32, ptr %p
  ret i32 %v
}
; CHECK-LABEL: define private i32 @on.byref(ptr %p) #1 {
define linkonce_odr i32 @on(ptr byval(%S) align 4 %p) #1 {
  %v = load i32, ptr %p
  ret i32 %v
}

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: call i32 @w(ptr byval(%S) align 4 %a)
; CHECK: call i32 @l(ptr byval(%S) align 4 %a)
; CHECK: call i32 @ni.byref(ptr %a)
; CHECK: call i32 @on.byref(ptr %a)
define ptx_kernel void @k() {
  %a = alloca %S, align 4
  %1 = call i32 @w(ptr byval(%S) align 4 %a)
  %2 = call i32 @l(ptr byval(%S) align 4 %a)
  %3 = call i32 @ni(ptr byval(%S) align 4 %a)
  %4 = call i32 @on(ptr byval(%S) align 4 %a)
  ret void
}
; CHECK: attributes #0 = { noinline }
; CHECK: attributes #1 = { noinline optnone }
attributes #0 = { noinline }
attributes #1 = { noinline optnone }
