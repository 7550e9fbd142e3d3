; Multiple returns merge in a phi at the split point; SSA values are
; remapped; the callee's static allocas move to the caller's entry block.
; RUN: nvpass-cli run --pipeline inline-must %s | FileCheck %s

define internal i32 @pick(i32 %x, ptr %p) alwaysinline {
entry:
  %slot = alloca i32, align 4
  store i32 %x, ptr %slot, align 4
  %c = icmp sgt i32 %x, 0
  br i1 %c, label %pos, label %neg
pos:
  %a = add i32 %x, 1
  ret i32 %a
neg:
  %b = load i32, ptr %p, align 4
  ret i32 %b
}

; CHECK-LABEL: define i32 @caller(
; CHECK-NEXT: entry:
; CHECK-NEXT: %slot.i = alloca i32, align 4
; CHECK: store i32 %y, ptr %slot.i
; CHECK: icmp sgt i32 %y, 0
; CHECK: %a.i = add i32 %y, 1
; CHECK: %b.i = load i32, ptr %q
; CHECK: [[R:%[a-z0-9.]+]] = phi i32 [ %a.i, %pos.i ], [ %b.i, %neg.i ]
; CHECK-NEXT: %z = mul i32 [[R]], 2
; CHECK-NOT: call
define i32 @caller(i32 %y, ptr %q) {
entry:
  %r = call i32 @pick(i32 %y, ptr %q)
  %z = mul i32 %r, 2
  ret i32 %z
}
; CHECK-NOT: define internal i32 @pick
