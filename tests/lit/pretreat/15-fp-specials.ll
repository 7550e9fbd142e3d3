; Rule 15 (canonicalize_fp_specials): non-canonical NaN literals become the
; canonical quiet NaN where LLVM leaves NaN bits unspecified anyway (fadd,
; fsub, fmul, fdiv, frem, fcmp operands); stored, bitcast or fneg'd NaNs,
; infinities and ordinary literals keep their bits.
; RUN: nvpass-cli run --pipeline pretreat %s | FileCheck %s
; RUN: nvpass-cli run --pipeline pretreat,pretreat %s | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @arith(float %x, double %d, half %h, ptr %p)
; CHECK-NEXT:    %a = fadd float %x, 0x7FF8000000000000
; CHECK-NEXT:    %b = fmul double 0x7FF8000000000000, %d
; CHECK-NEXT:    %c = fcmp uno double %d, 0x7FF8000000000000
; CHECK-NEXT:    %e = fsub half %h, 0xH7E00
; CHECK-NEXT:    %i = fdiv float %x, 0x7FF0000000000000
; CHECK-NEXT:    %j = frem float %x, 0x7FF8000000000000
define void @arith(float %x, double %d, half %h, ptr %p) {
  %a = fadd float %x, 0x7FF8000020000000
  %b = fmul double 0xFFF8000000000001, %d
  %c = fcmp uno double %d, 0x7FF4000000000000
  %e = fsub half %h, 0xH7E01
  %i = fdiv float %x, 0x7FF0000000000000
  %j = frem float %x, 0x7FF8000000000000
  store float %a, ptr %p
  store double %b, ptr %p
  store i1 %c, ptr %p
  store half %e, ptr %p
  store float %i, ptr %p
  store float %j, ptr %p
  ret void
}

; CHECK-LABEL: define void @bits_observable(ptr %p)
; CHECK-NEXT:    store float 0x7FF8000020000000, ptr %p
; CHECK-NEXT:    %n = fneg double 0xFFF8000000000001
define void @bits_observable(ptr %p) {
  store float 0x7FF8000020000000, ptr %p
  %n = fneg double 0xFFF8000000000001
  store double %n, ptr %p
  ret void
}
