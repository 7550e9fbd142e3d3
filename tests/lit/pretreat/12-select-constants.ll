; Rule 12 (canonicalize_select_constants): select (not c), C1, C2 becomes
; select c, C2, C1 (operands reordered, the negation dropped once unused);
; non-constant arms, !prof selects and plain conditions stay.
; RUN: nvpass-cli run --pipeline pretreat %s | FileCheck %s
; RUN: nvpass-cli run --pipeline pretreat,pretreat %s | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define i32 @swap(i1 %c)
; CHECK-NEXT:    %s = select i1 %c, i32 7, i32 3
; CHECK-NEXT:    ret i32 %s
define i32 @swap(i1 %c) {
  %n = xor i1 %c, true
  %s = select i1 %n, i32 3, i32 7
  ret i32 %s
}

; The negation has another user: it stays, the select still flips.
; CHECK-LABEL: define float @shared(i1 %c, ptr %p)
; CHECK-NEXT:    %n = xor i1 true, %c
; CHECK-NEXT:    store i1 %n, ptr %p
; CHECK-NEXT:    %s = select i1 %c, float 2.000000e+00, float 1.000000e+00
define float @shared(i1 %c, ptr %p) {
  %n = xor i1 true, %c
  store i1 %n, ptr %p
  %s = select i1 %n, float 1.0, float 2.0
  ret float %s
}

; CHECK-LABEL: define i32 @keep(i1 %c, i32 %x)
; CHECK-NEXT:    %n = xor i1 %c, true
; CHECK-NEXT:    %a = select i1 %n, i32 %x, i32 7
; CHECK-NEXT:    %b = select i1 %n, i32 1, i32 2, !prof
; CHECK-NEXT:    %d = select i1 %c, i32 1, i32 2
define i32 @keep(i1 %c, i32 %x) {
  %n = xor i1 %c, true
  %a = select i1 %n, i32 %x, i32 7
  %b = select i1 %n, i32 1, i32 2, !prof !0
  %d = select i1 %c, i32 1, i32 2
  %s1 = add i32 %a, %b
  %s2 = add i32 %s1, %d
  ret i32 %s2
}

!0 = !{!"branch_weights", i32 1, i32 100}
