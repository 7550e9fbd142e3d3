; Spec 002 "Force-Inline Marker Propagation": phase 1 stamps alwaysinline on
; helpers whose body holds a forced-inline trigger, then phase 2 inlines
; them. Ordinary helpers are left alone.
; RUN: nvpass-cli run --pipeline inline-must %s --pass-remarks-analysis=inline-must 2>%t.err | FileCheck %s
; RUN: FileCheck --input-file %t.err %s --check-prefix=REMARK
; Running twice gives the same module (the marker survives untouched).
; RUN: nvpass-cli run --pipeline inline-must,inline-must %s | FileCheck %s

; 1. __nv_ math wrapper around an NVPTX intrinsic.
define internal float @__nv_fast_rsqrt(float %x) {
  %r = call float @llvm.nvvm.rsqrt.approx.f(float %x)
  ret float %r
}

; 2. Thin wrapper attaching convergent to an intrinsic call.
define internal void @sync_wrapper() {
  call void @llvm.nvvm.barrier0()
  ret void
}

; 3. Texture intrinsic whose handle is a parameter.
define internal { float, float, float, float } @fetch(i64 %tex, i32 %i) {
  %v = call { float, float, float, float } @llvm.nvvm.tex.1d.v4f32.s32(i64 %tex, i32 %i)
  ret { float, float, float, float } %v
}

; Not triggers: a plain helper, a bindless texture fetch, noinline.
; CHECK-LABEL: define internal float @plain(
; CHECK-SAME: ) {
define internal float @plain(float %x) {
  %r = fmul float %x, %x
  ret float %r
}
; CHECK-LABEL: define internal { float, float, float, float } @bindless(
; CHECK-SAME: ) {
define internal { float, float, float, float } @bindless(i64 %tex, i32 %i) {
  %v = call { float, float, float, float } @llvm.nvvm.tex.unified.1d.v4f32.s32(i64 %tex, i32 %i)
  ret { float, float, float, float } %v
}
; CHECK-LABEL: define internal void @sync_noinline(
; CHECK-SAME: ) #[[NI:[0-9]+]] {
define internal void @sync_noinline() #0 {
  call void @llvm.nvvm.barrier0()
  ret void
}

; Once @fetch is inlined, @k itself passes its parameter %t to a texture
; intrinsic as the handle, so phase 1 marks it too, in the same run (it is
; not a kernel; see markers-after-inlining.ll).
; CHECK-LABEL: define void @k(
; CHECK-SAME: ) alwaysinline {
; CHECK: call float @llvm.nvvm.rsqrt.approx.f
; CHECK: call void @llvm.nvvm.barrier0()
; CHECK: call { float, float, float, float } @llvm.nvvm.tex.1d.v4f32.s32(i64 %t
; CHECK: call float @plain(
; CHECK: call { float, float, float, float } @bindless(
; CHECK: call void @sync_noinline()
define void @k(float %x, i64 %t, ptr %out) {
  %a = call float @__nv_fast_rsqrt(float %x)
  call void @sync_wrapper()
  %v = call { float, float, float, float } @fetch(i64 %t, i32 0)
  %b = call float @plain(float %a)
  %w = call { float, float, float, float } @bindless(i64 %t, i32 0)
  call void @sync_noinline()
  store float %b, ptr %out
  ret void
}
; CHECK-NOT: @__nv_fast_rsqrt(
; CHECK-NOT: @sync_wrapper(
; CHECK-NOT: @fetch(
; CHECK: attributes #[[NI]] = { noinline }

declare float @llvm.nvvm.rsqrt.approx.f(float)
declare void @llvm.nvvm.barrier0() #1
declare { float, float, float, float } @llvm.nvvm.tex.1d.v4f32.s32(i64, i32)
declare { float, float, float, float } @llvm.nvvm.tex.unified.1d.v4f32.s32(i64, i32)

attributes #0 = { noinline }
attributes #1 = { convergent nounwind }

; REMARK-DAG: remark: __nv_fast_rsqrt marked alwaysinline: __nv_ math wrapper
; REMARK-DAG: remark: sync_wrapper marked alwaysinline: convergent/noreturn intrinsic wrapper
; REMARK-DAG: remark: fetch marked alwaysinline: texture/surface handle parameter
; REMARK-DAG: remark: k marked alwaysinline: texture/surface handle parameter
; REMARK-NOT: plain
; REMARK-NOT: bindless
