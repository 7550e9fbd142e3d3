; Spec 000 "Force-Inline Decision", large parameters: the aligned parameter
; payload must EXCEED 384 bytes. 384 bytes stays out-of-line, 385+ is forced.
; RUN: nvpass-cli run --pipeline 'force-inline<mark-only>' %s --pass-remarks-analysis=force-inline 2>%t.err | FileCheck %s
; RUN: FileCheck --input-file %t.err %s --check-prefix=REMARK

; 96 x i32 = 384 bytes: not forced.
; CHECK-LABEL: define float @exactly_384(
; CHECK-NOT: alwaysinline
; CHECK: ret float
define float @exactly_384([96 x i32] %a) {
  ret float 0.0
}

; 384 + an i8 that occupies a 4-byte slot = 388 bytes: forced.
; CHECK-LABEL: define float @slot_rounding_388(
; CHECK-SAME: ) alwaysinline {
define float @slot_rounding_388([96 x i32] %a, i8 %b) {
  ret float 0.0
}

; 380 bytes + i64 (8) = 388: forced.
; CHECK-LABEL: define void @over_by_scalar(
; CHECK-SAME: ) alwaysinline {
define void @over_by_scalar([95 x i32] %a, i64 %b) {
  ret void
}

; A byval parameter counts the size of its type (512 bytes), not the pointer.
; CHECK-LABEL: define void @byval_big(
; CHECK-SAME: ) alwaysinline {
define void @byval_big(ptr byval([128 x float]) align 4 %p) {
  ret void
}

; 48 pointers = 384 bytes: not forced; 49 are.
; CHECK-LABEL: define void @ptrs_384(
; CHECK-NOT: #
define void @ptrs_384([48 x ptr] %p) {
  ret void
}

; 96 slots of i8 at 4 bytes each = 384: not forced; a 97th tips it over.
; CHECK-LABEL: define void @i8_slots_384(
; CHECK-NOT: #
define void @i8_slots_384(i8 %a0, i8 %a1, i8 %a2, i8 %a3, i8 %a4, i8 %a5, i8 %a6, i8 %a7, i8 %a8, i8 %a9, i8 %a10, i8 %a11, i8 %a12, i8 %a13, i8 %a14, i8 %a15, i8 %a16, i8 %a17, i8 %a18, i8 %a19, i8 %a20, i8 %a21, i8 %a22, i8 %a23, i8 %a24, i8 %a25, i8 %a26, i8 %a27, i8 %a28, i8 %a29, i8 %a30, i8 %a31, i8 %a32, i8 %a33, i8 %a34, i8 %a35, i8 %a36, i8 %a37, i8 %a38, i8 %a39, i8 %a40, i8 %a41, i8 %a42, i8 %a43, i8 %a44, i8 %a45, i8 %a46, i8 %a47, i8 %a48, i8 %a49, i8 %a50, i8 %a51, i8 %a52, i8 %a53, i8 %a54, i8 %a55, i8 %a56, i8 %a57, i8 %a58, i8 %a59, i8 %a60, i8 %a61, i8 %a62, i8 %a63, i8 %a64, i8 %a65, i8 %a66, i8 %a67, i8 %a68, i8 %a69, i8 %a70, i8 %a71, i8 %a72, i8 %a73, i8 %a74, i8 %a75, i8 %a76, i8 %a77, i8 %a78, i8 %a79, i8 %a80, i8 %a81, i8 %a82, i8 %a83, i8 %a84, i8 %a85, i8 %a86, i8 %a87, i8 %a88, i8 %a89, i8 %a90, i8 %a91, i8 %a92, i8 %a93, i8 %a94, i8 %a95) {
  ret void
}


; REMARK-DAG: remark: slot_rounding_388 marked alwaysinline: large parameters
; REMARK-DAG: remark: byval_big marked alwaysinline: large parameters
; REMARK-NOT: exactly_384
