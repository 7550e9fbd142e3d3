; Spec 001 "Alloca Merging" down chains of nested inlinings. @k is read
; before its callees, so each of its calls is inlined with the calls its
; copy brings in, one level inside the other (regions 3 > 4 > 5 for the
; second @c0 call, 6 > 7 > 8 for the first; the last call is inlined
; first). An alloca may reuse one that no region on its own chain uses:
; - @narrow's %n (align 32) comes first; @wide's (align 16) reuses it;
; - the second @c0's %b0 reuses it too, but its nested %b1 and %b2 cannot
;   (their enclosing copies are live), so they stay: three allocas;
; - the first @c0's chain, entered after the second's was left, reuses
;   all three, level by level.
; RUN: nvpass-cli run --pipeline inline-must %s | FileCheck %s --check-prefix=MERGE
; RUN: nvpass-cli run --pipeline inline-must --disable-inlined-alloca-merging %s | FileCheck %s --check-prefix=KEEP

; MERGE-LABEL: define i32 @k(
; MERGE-DAG: %b2.i = alloca [4 x i32], align 4
; MERGE-DAG: %b1.i = alloca [4 x i32], align 4
; MERGE-DAG: %n.i = alloca [4 x i32], align 32
; MERGE-NOT: alloca
; The first @c0's chain, then the second's, then @wide and @narrow.
; MERGE: store i32 %x, ptr %n.i
; MERGE-NEXT: store i32 %x, ptr %b1.i
; MERGE-NEXT: store i32 %x, ptr %b2.i
; MERGE: store i32 [[A:%.*]], ptr %n.i
; MERGE-NEXT: store i32 [[A]], ptr %b1.i
; MERGE-NEXT: store i32 [[A]], ptr %b2.i
; MERGE: store i32 {{%.*}}, ptr %n.i, align 16
; MERGE: store i32 {{%.*}}, ptr %n.i, align 32
; MERGE: ret i32
; KEEP-LABEL: define i32 @k(
; KEEP-COUNT-8: alloca
; KEEP-NOT: alloca
; KEEP: ret i32
define i32 @k(i32 %x) {
  %a = call i32 @c0(i32 %x)
  %b = call i32 @c0(i32 %a)
  %c = call i32 @wide(i32 %b)
  %d = call i32 @narrow(i32 %c)
  ret i32 %d
}

define internal i32 @c2(i32 %x) alwaysinline {
  %b2 = alloca [4 x i32], align 4
  store i32 %x, ptr %b2, align 4
  %v = load i32, ptr %b2, align 4
  ret i32 %v
}

define internal i32 @c1(i32 %x) alwaysinline {
  %b1 = alloca [4 x i32], align 4
  store i32 %x, ptr %b1, align 4
  %r = call i32 @c2(i32 %x)
  %v = load i32, ptr %b1, align 4
  %s = add i32 %r, %v
  ret i32 %s
}

define internal i32 @c0(i32 %x) alwaysinline {
  %b0 = alloca [4 x i32], align 4
  store i32 %x, ptr %b0, align 4
  %r = call i32 @c1(i32 %x)
  %v = load i32, ptr %b0, align 4
  %s = add i32 %r, %v
  ret i32 %s
}

define internal i32 @wide(i32 %x) alwaysinline {
  %w = alloca [4 x i32], align 16
  store i32 %x, ptr %w, align 16
  %v = load i32, ptr %w, align 16
  ret i32 %v
}

define internal i32 @narrow(i32 %x) alwaysinline {
  %n = alloca [4 x i32], align 32
  store i32 %x, ptr %n, align 32
  %v = load i32, ptr %n, align 32
  ret i32 %v
}
