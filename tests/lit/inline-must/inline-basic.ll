; Spec 002 "Input and Output IR Shape": the always-inline callee is inlined
; and, being internal and now unused, dead-stripped. The front end's string
; marker "nvvm.always_inline" counts as the marker.
; RUN: nvpass-cli run --pipeline inline-must %s --pass-remarks=inline-must 2>%t.err | FileCheck %s
; RUN: FileCheck --input-file %t.err %s --check-prefix=REMARK

; CHECK-NOT: @sqrt_approx(
define internal float @sqrt_approx(float %x) "nvvm.always_inline" {
  %r = call float @llvm.nvvm.rsqrt.approx.f(float %x)
  %s = fmul float %r, %x
  ret float %s
}

; CHECK-LABEL: define void @kernel(
; CHECK-NOT: call float @sqrt_approx
; CHECK: %r.i = call float @llvm.nvvm.rsqrt.approx.f(float %x)
; CHECK-NEXT: %s.i = fmul float %r.i, %x
; CHECK: store float %s.i, ptr addrspace(1) %p, align 4
; CHECK-NEXT: ret void
define void @kernel(ptr addrspace(1) %p, float %x) {
  %v = call float @sqrt_approx(float %x)
  store float %v, ptr addrspace(1) %p, align 4
  ret void
}

declare float @llvm.nvvm.rsqrt.approx.f(float)
; CHECK-NOT: @sqrt_approx

; REMARK: remark: 'sqrt_approx' inlined into 'kernel' with (cost=always): always inline attribute
