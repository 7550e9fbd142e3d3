; Only the callers of always-inline functions are visited, found through
; the functions' uses. Here @twice is also stored in a global (a use that is
; not a call): every function is then visited, and both callers, before and
; after the global, get the body. @plain calls nothing always-inline and
; keeps its call of @other.
; RUN: nvpass-cli run --pipeline inline-must %s | FileCheck %s

@table = global ptr @twice

define float @twice(float %x) alwaysinline {
  %y = fadd float %x, %x
  ret float %y
}

define float @other(float %x) noinline {
  ret float %x
}

; CHECK-LABEL: define float @first(
; CHECK-NOT: call
; CHECK: %y.i = fadd float %a, %a
; CHECK-NOT: call
; CHECK: ret float %y.i
define float @first(float %a) {
  %r = call float @twice(float %a)
  ret float %r
}

; CHECK-LABEL: define float @plain(
; CHECK-NEXT: %r = call float @other(float %a)
define float @plain(float %a) {
  %r = call float @other(float %a)
  ret float %r
}

; CHECK-LABEL: define float @second(
; CHECK-NOT: call
; CHECK: %y.i = fadd float %b, %b
; CHECK-NOT: call
; CHECK: ret float %y.i
define float @second(float %b) {
  %r = call float @twice(float %b)
  ret float %r
}
