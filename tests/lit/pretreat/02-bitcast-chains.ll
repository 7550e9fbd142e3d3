; Rule 2 (canonicalize_bitcast_chains): bitcast(bitcast(x)) casts x once, or
; is x when the types agree; a lone bitcast is not a chain.
; RUN: nvpass-cli run --pipeline pretreat %s | FileCheck %s
; RUN: nvpass-cli run --pipeline pretreat,pretreat %s | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define i32 @round_trip(i32 %x)
; CHECK-NEXT:    ret i32 %x
define i32 @round_trip(i32 %x) {
  %f = bitcast i32 %x to float
  %y = bitcast float %f to i32
  ret i32 %y
}

; CHECK-LABEL: define <2 x i16> @collapse(i32 %x, ptr %p)
; CHECK-NEXT:    %[[C:[0-9]+]] = bitcast i32 %x to <2 x i16>
; CHECK-NEXT:    ret <2 x i16> %[[C]]
define <2 x i16> @collapse(i32 %x, ptr %p) {
  %f = bitcast i32 %x to float
  %v = bitcast float %f to <2 x i16>
  ret <2 x i16> %v
}

; The middle cast has another use, so it stays.
; CHECK-LABEL: define i32 @shared(i32 %x, ptr %p)
; CHECK-NEXT:    %f = bitcast i32 %x to float
; CHECK-NEXT:    store float %f, ptr %p
; CHECK-NEXT:    ret i32 %x
define i32 @shared(i32 %x, ptr %p) {
  %f = bitcast i32 %x to float
  store float %f, ptr %p
  %y = bitcast float %f to i32
  ret i32 %y
}

; Three links.
; CHECK-LABEL: define ptr @opaque(ptr %p)
; CHECK-NEXT:    ret ptr %p
define ptr @opaque(ptr %p) {
  %a = bitcast ptr %p to ptr
  %b = bitcast ptr %a to ptr
  %c = bitcast ptr %b to ptr
  ret ptr %c
}

; Negative: a single cast of an argument.
; CHECK-LABEL: define float @single(i32 %x)
; CHECK-NEXT:    %f = bitcast i32 %x to float
; CHECK-NEXT:    ret float %f
define float @single(i32 %x) {
  %f = bitcast i32 %x to float
  ret float %f
}
