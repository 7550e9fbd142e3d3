; Call sites that qualify for different sets of parameters: one clone per
; set, the other callers keep the original (external, so it stays).
; Running the pass twice gives the same module as running it once.
; RUN: nvpass-cli run --pipeline byval-ref %s | FileCheck %s
; RUN: nvpass-cli run --pipeline byval-ref,byval-ref %s | FileCheck %s
; RUN: nvpass-cli run --pipeline 'byval-ref<max-clones=1>' %s --pass-remarks-missed=byval-ref 2>&1 | FileCheck %s --check-prefix=ONE
; RUN: nvpass-cli run --pipeline 'byval-ref<max-clones=0>' %s | FileCheck %s --check-prefix=NONE
%S = type { i32, i32 }
@g = global ptr null

; Clones are placed right after their original, the latest first.
; CHECK-LABEL: define i32 @rd2(ptr byval(%S) align 4 %p, ptr byval(%S) align 4 %q) {
; CHECK-LABEL: define private i32 @rd2.byref.1(ptr %p, ptr byval(%S) align 4 %q) alwaysinline {
; CHECK-LABEL: define private i32 @rd2.byref(ptr %p, ptr %q) alwaysinline {
; CHECK-NOT: .byref.2
; ONE-DAG: remark: clone limit reached, not cloned: rd2
; ONE-DAG: remark: clone limit reached, not cloned: rd1
; ONE: define private i32 @rd2.byref(ptr %p, ptr %q) alwaysinline {
; ONE-NOT: @rd2.byref.1
; NONE-NOT: .byref
define i32 @rd2(ptr byval(%S) align 4 %p, ptr byval(%S) align 4 %q) {
  %a = load i32, ptr %p
  %b = load i32, ptr %q
  %s = add i32 %a, %b
  ret i32 %s
}

; An internal callee whose address is taken is cloned, not changed.
; CHECK-LABEL: define internal i32 @rd1(ptr byval(%S) align 4 %p) {
; CHECK-LABEL: define private i32 @rd1.byref(ptr %p) alwaysinline {
define internal i32 @rd1(ptr byval(%S) align 4 %p) {
  %a = load i32, ptr %p
  ret i32 %a
}
@fp = global ptr @rd1

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: call i32 @rd2.byref(ptr %a, ptr %b)
; CHECK: call i32 @rd2.byref.1(ptr %a, ptr byval(%S) align 4 %e)
; CHECK: call i32 @rd2(ptr byval(%S) align 4 %e, ptr byval(%S) align 4 %e)
; CHECK: call i32 @rd2.byref(ptr %b, ptr %a)
; CHECK: call i32 @rd1.byref(ptr %a)
; CHECK: call i32 @rd1(ptr byval(%S) align 4 %e)
; NONE: call i32 @rd1(ptr byval(%S) align 4 %a)
define ptx_kernel void @k() {
  %a = alloca %S, align 4
  %b = alloca %S, align 4
  %e = alloca %S, align 4
  store ptr %e, ptr @g
  %1 = call i32 @rd2(ptr byval(%S) align 4 %a, ptr byval(%S) align 4 %b)
  %2 = call i32 @rd2(ptr byval(%S) align 4 %a, ptr byval(%S) align 4 %e)
  %3 = call i32 @rd2(ptr byval(%S) align 4 %e, ptr byval(%S) align 4 %e)
  %4 = call i32 @rd2(ptr byval(%S) align 4 %b, ptr byval(%S) align 4 %a)
  %5 = call i32 @rd1(ptr byval(%S) align 4 %a)
  %6 = call i32 @rd1(ptr byval(%S) align 4 %e)
  ret void
}
