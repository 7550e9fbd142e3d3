; Rule 18 (remove_unreachable_blocks): blocks unreachable from the entry go,
; unreachable loops included, and phis lose their entries; reachable blocks
; (even with a constant-false branch to them) stay.
; RUN: nvpass-cli run --pipeline pretreat %s | FileCheck %s
; RUN: nvpass-cli run --pipeline pretreat,pretreat %s | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define i32 @f(i1 %c)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    br i1 false, label %live, label %join
; CHECK:       live:
; CHECK-NEXT:    br label %join
; CHECK:       join:
; CHECK-NEXT:    %r = phi i32 [ 1, %entry ], [ 2, %live ]
; CHECK-NEXT:    ret i32 %r
; CHECK-NOT:   dead
; CHECK-LABEL: define void @g()
define i32 @f(i1 %c) {
entry:
  br i1 false, label %live, label %join
live:
  br label %join
dead_loop:
  %v = phi i32 [ 0, %dead_head ], [ %w, %dead_loop ]
  %w = add i32 %v, 1
  br i1 %c, label %dead_loop, label %join
dead_head:
  br label %dead_loop
dead_ret:
  ret i32 %w
join:
  %r = phi i32 [ 1, %entry ], [ 2, %live ], [ %w, %dead_loop ]
  ret i32 %r
}

define void @g() {
  ret void
}
