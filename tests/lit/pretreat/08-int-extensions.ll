; Rule 8 (canonicalize_int_extensions): sext of a value known non-negative
; (a constant >= 0, a zext, an and with a mask >= 0, an lshr by >= 1)
; becomes zext in place; anything else keeps sext.
; RUN: nvpass-cli run --pipeline pretreat %s | FileCheck %s
; RUN: nvpass-cli run --pipeline pretreat,pretreat %s | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @nonneg(i8 %b, i32 %x, ptr %p)
; CHECK-NEXT:    %z = zext i8 %b to i32
; CHECK-NEXT:    %idx1 = zext i32 %z to i64
; CHECK-NEXT:    %m = and i32 %x, 255
; CHECK-NEXT:    %idx2 = zext i32 %m to i64
; CHECK-NEXT:    %h = lshr i32 %x, 1
; CHECK-NEXT:    %idx3 = zext i32 %h to i64
define void @nonneg(i8 %b, i32 %x, ptr %p) {
  %z = zext i8 %b to i32
  %idx1 = sext i32 %z to i64
  %m = and i32 %x, 255
  %idx2 = sext i32 %m to i64
  %h = lshr i32 %x, 1
  %idx3 = sext i32 %h to i64
  store i64 %idx1, ptr %p
  store i64 %idx2, ptr %p
  store i64 %idx3, ptr %p
  ret void
}

; CHECK-LABEL: define void @maybe_negative(i32 %x, ptr %p)
; CHECK-NEXT:    %a = sext i32 %x to i64
; CHECK-NEXT:    %m = and i32 %x, -2
; CHECK-NEXT:    %b = sext i32 %m to i64
; CHECK-NEXT:    %h = lshr i32 %x, 0
; CHECK-NEXT:    %c = sext i32 %h to i64
; CHECK-NEXT:    %s = ashr i32 %x, 1
; CHECK-NEXT:    %d = sext i32 %s to i64
define void @maybe_negative(i32 %x, ptr %p) {
  %a = sext i32 %x to i64
  %m = and i32 %x, -2
  %b = sext i32 %m to i64
  %h = lshr i32 %x, 0
  %c = sext i32 %h to i64
  %s = ashr i32 %x, 1
  %d = sext i32 %s to i64
  store i64 %a, ptr %p
  store i64 %b, ptr %p
  store i64 %c, ptr %p
  store i64 %d, ptr %p
  ret void
}
