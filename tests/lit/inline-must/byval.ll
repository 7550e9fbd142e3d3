; A byval parameter is inlined like LLVM does: the caller copies the
; argument into a fresh entry-block alloca with llvm.memcpy right before the
; inlined body, and the body uses the copy (writes to it stay private).
; RUN: nvpass-cli run --pipeline inline-must %s | FileCheck %s

%struct.Big = type { [128 x float] }

define internal float @first(ptr byval(%struct.Big) align 4 %b) alwaysinline {
  %v = load float, ptr %b, align 4
  store float 0.0, ptr %b, align 4
  ret float %v
}

; CHECK-LABEL: define float @caller(
; CHECK-NEXT: [[COPY:%[0-9]+]] = alloca %struct.Big, align 4
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr [[COPY]], ptr %src, i64 512, i1 false)
; CHECK: %v.i = load float, ptr [[COPY]], align 4
; CHECK: store float 0.000000e+00, ptr [[COPY]], align 4
; CHECK: ret float %v.i
define float @caller(ptr %src) {
  %r = call float @first(ptr byval(%struct.Big) align 4 %src)
  ret float %r
}
; CHECK: declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
