; Rule 7 (collapse_zero_index_geps): a GEP whose indices are all zero and
; whose result has its base's type is its base (instructions and constant
; expressions); non-zero or variable indices stay.
; RUN: nvpass-cli run --pipeline pretreat %s | FileCheck %s
; RUN: nvpass-cli run --pipeline pretreat,pretreat %s | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

@arr = addrspace(1) global [4 x i32] zeroinitializer

; CHECK-LABEL: define i32 @zero(ptr %p)
; CHECK-NEXT:    %a = load i32, ptr %p
; CHECK-NEXT:    %b = load i32, ptr addrspace(1) @arr
; CHECK-NEXT:    %s = add i32 %a, %b
; CHECK-NEXT:    ret i32 %s
define i32 @zero(ptr %p) {
  %q = getelementptr inbounds [4 x i32], ptr %p, i64 0, i64 0
  %r = getelementptr i8, ptr %q, i32 0
  %a = load i32, ptr %r
  %b = load i32, ptr addrspace(1) getelementptr inbounds ([4 x i32], ptr addrspace(1) @arr, i64 0, i64 0)
  %s = add i32 %a, %b
  ret i32 %s
}

; CHECK-LABEL: define i32 @keep(ptr %p, i64 %i)
; CHECK-NEXT:    %q = getelementptr inbounds [4 x i32], ptr %p, i64 0, i64 1
; CHECK-NEXT:    %r = getelementptr i32, ptr %p, i64 %i
; CHECK-NEXT:    %v = getelementptr i32, ptr %p, <2 x i64> zeroinitializer
define i32 @keep(ptr %p, i64 %i) {
  %q = getelementptr inbounds [4 x i32], ptr %p, i64 0, i64 1
  %r = getelementptr i32, ptr %p, i64 %i
  %v = getelementptr i32, ptr %p, <2 x i64> zeroinitializer
  %a = load i32, ptr %q
  %b = load i32, ptr %r
  %s = add i32 %a, %b
  ret i32 %s
}
