; Without other uses, the callers of always-inline functions are exactly the
; functions calling them; a chain of always-inline calls reached only through
; inlining (@outer -> @mid -> @leaf) is inlined completely into the one
; caller that starts it.
; RUN: nvpass-cli run --pipeline inline-must %s | FileCheck %s

define internal i32 @leaf(i32 %x) alwaysinline {
  %y = add i32 %x, 1
  ret i32 %y
}

define internal i32 @mid(i32 %x) alwaysinline {
  %y = call i32 @leaf(i32 %x)
  %z = mul i32 %y, 3
  ret i32 %z
}

; CHECK-LABEL: define i32 @outer(
; CHECK-NOT: call
; CHECK: %y.i.i = add i32 %a, 1
; CHECK-NOT: call
; CHECK: %z.i = mul i32 %y.i.i, 3
; CHECK-NOT: call
; CHECK: ret i32 %z.i
define i32 @outer(i32 %a) {
  %r = call i32 @mid(i32 %a)
  ret i32 %r
}

; CHECK-LABEL: define i32 @unrelated(
; CHECK-NEXT: ret i32 %a
define i32 @unrelated(i32 %a) {
  ret i32 %a
}
; CHECK-NOT: @leaf
; CHECK-NOT: @mid
