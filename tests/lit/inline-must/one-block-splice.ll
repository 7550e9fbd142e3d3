; A callee whose body is one block ending in `ret` is spliced in place of
; the call, as LLVM's InlineFunction does: the caller's block is not split,
; no branch or tail block is added, the call's result becomes the returned
; value, and the callee's static allocas still move to the caller's entry
; block. A callee of several blocks still splits the caller's block.
; RUN: nvpass-cli run --pipeline inline-must %s | FileCheck %s
; RUN: nvpass-cli run --pipeline inline-must %s | nvpass-cli run --pipeline '' - | FileCheck %s --check-prefix=ROUND

define internal i32 @twice(i32 %x, ptr %p) alwaysinline {
  %slot = alloca i32, align 4
  store i32 %x, ptr %slot, align 4
  %y = add i32 %x, %x
  store i32 %y, ptr %p, align 4
  ret i32 %y
}

define internal void @touch(ptr %p) alwaysinline {
  store i32 0, ptr %p, align 4
  ret void
}

define internal i32 @branchy(i32 %x) alwaysinline {
entry:
  %c = icmp eq i32 %x, 0
  br i1 %c, label %zero, label %other
zero:
  ret i32 1
other:
  ret i32 %x
}

; Two calls in a non-entry block: both bodies land in that block, between
; the instructions around the calls. Call sites are inlined last first, so
; the second call's copies get `.i`; each inline's allocas go to the top of
; the entry block, ahead of the ones already there, which leaves them in
; call order, ahead of the caller's own.
; CHECK-LABEL: define i32 @caller(
; CHECK-NEXT: entry:
; CHECK-NEXT: %slot.i1 = alloca i32, align 4
; CHECK-NEXT: %slot.i = alloca i32, align 4
; CHECK-NEXT: %own = alloca i32, align 4
; CHECK-NEXT: br label %body
; CHECK: body:
; CHECK-NEXT: %a = add i32 %n, 1
; CHECK-NEXT: store i32 %a, ptr %slot.i1, align 4
; CHECK-NEXT: %y.i1 = add i32 %a, %a
; CHECK-NEXT: store i32 %y.i1, ptr %q, align 4
; CHECK-NEXT: %b = mul i32 %y.i1, 3
; CHECK-NEXT: store i32 0, ptr %own, align 4
; CHECK-NEXT: store i32 %b, ptr %slot.i, align 4
; CHECK-NEXT: %y.i = add i32 %b, %b
; CHECK-NEXT: store i32 %y.i, ptr %q, align 4
; CHECK-NEXT: ret i32 %y.i
; CHECK-NEXT: }
define i32 @caller(i32 %n, ptr %q) {
entry:
  %own = alloca i32, align 4
  br label %body
body:
  %a = add i32 %n, 1
  %r1 = call i32 @twice(i32 %a, ptr %q)
  %b = mul i32 %r1, 3
  call void @touch(ptr %own)
  %r2 = call i32 @twice(i32 %b, ptr %q)
  ret i32 %r2
}

; The call is the first instruction of the entry block: the allocas go
; before the spliced body, the body before the rest of the block.
; CHECK-LABEL: define void @first(
; CHECK-NEXT: %slot.i = alloca i32, align 4
; CHECK-NEXT: store i32 %n, ptr %slot.i, align 4
; CHECK-NEXT: %y.i = add i32 %n, %n
; CHECK-NEXT: store i32 %y.i, ptr %q, align 4
; CHECK-NEXT: ret void
define void @first(i32 %n, ptr %q) {
  %r = call i32 @twice(i32 %n, ptr %q)
  ret void
}

; Several blocks: the caller's block is split after the call and the
; results merge in a phi in the tail.
; CHECK-LABEL: define i32 @split(
; CHECK: br label %entry.i
; CHECK: entry.i:
; CHECK: phi i32 [ 1, %zero.i ], [ %n, %other.i ]
; CHECK: ret i32
define i32 @split(i32 %n) {
  %r = call i32 @branchy(i32 %n)
  ret i32 %r
}

; ROUND-LABEL: define i32 @caller(
; ROUND-NOT: call
; ROUND: ret i32 %y.i
