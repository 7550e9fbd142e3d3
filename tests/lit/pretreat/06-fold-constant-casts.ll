; Rule 6 (constant_fold_casts): a bitcast of a constant folds: a same-type
; cast to its operand, an int <-> fp cast of one width to the reinterpreted
; literal. Casts of non-constants and vector reinterpretations stay.
; RUN: nvpass-cli run --pipeline pretreat %s | FileCheck %s
; RUN: nvpass-cli run --pipeline pretreat,pretreat %s | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

@g = global i32 0

; CHECK-LABEL: define void @fold(ptr %p)
; CHECK-NEXT:    store ptr @g, ptr %p
; CHECK-NEXT:    store float 1.000000e+00, ptr %p
; CHECK-NEXT:    store i64 4611686018427387904, ptr %p
; CHECK-NEXT:    ret void
define void @fold(ptr %p) {
  %a = bitcast ptr @g to ptr
  store ptr %a, ptr %p
  %f = bitcast i32 1065353216 to float
  store float %f, ptr %p
  %i = bitcast double 2.0 to i64
  store i64 %i, ptr %p
  ret void
}

; CHECK-LABEL: define void @keep(i32 %x, ptr %p)
; CHECK-NEXT:    %f = bitcast i32 %x to float
; CHECK-NEXT:    store float %f, ptr %p
; CHECK-NEXT:    %v = bitcast i64 1 to <2 x i32>
; CHECK-NEXT:    store <2 x i32> %v, ptr %p
define void @keep(i32 %x, ptr %p) {
  %f = bitcast i32 %x to float
  store float %f, ptr %p
  %v = bitcast i64 1 to <2 x i32>
  store <2 x i32> %v, ptr %p
  ret void
}
