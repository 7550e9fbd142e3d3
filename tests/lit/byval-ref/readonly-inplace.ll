; A read-only byval parameter of an internal function whose only callers
; pass a copy in a local object that does not escape: byval is dropped in
; place, on the parameter and at every call site, with the attributes that
; only describe the copy (align, writable, dead_on_unwind).
; RUN: nvpass-cli run --pipeline byval-ref %s | FileCheck %s
%struct.Big = type { [16 x float] }

; CHECK-LABEL: define internal float @big_param(ptr noundef %s, i32 %i) {
define internal float @big_param(ptr noundef byval(%struct.Big) align 4 writable dead_on_unwind %s, i32 %i) {
  %f = getelementptr inbounds %struct.Big, ptr %s, i32 0, i32 0, i32 %i
  %v = load float, ptr %f, align 4
  ; a read of the object through memcpy and a pass-along byval copy
  %tmp = alloca %struct.Big, align 4
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %tmp, ptr align 4 %s, i64 64, i1 false)
  %w = call float @sink(ptr byval(%struct.Big) align 4 %s)
  %r = fadd float %v, %w
  ret float %r
}

declare float @sink(ptr byval(%struct.Big) align 4)

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: call float @big_param(ptr noundef %agg, i32 %i)
; CHECK: call float @big_param(ptr noundef %cast, i32 0)
define ptx_kernel void @k(ptr %out, ptr byval(%struct.Big) align 4 %in, i32 %i) {
  %agg = alloca %struct.Big, align 8
  %loc = alloca %struct.Big, align 4, addrspace(5)
  %cast = addrspacecast ptr addrspace(5) %loc to ptr
  call void @llvm.lifetime.start.p0(i64 64, ptr %agg)
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %agg, ptr align 4 %in, i64 64, i1 false)
  %a = call float @big_param(ptr noundef byval(%struct.Big) align 4 %agg, i32 %i)
  call void @llvm.lifetime.end.p0(i64 64, ptr %agg)
  call void @llvm.memset.p0.i64(ptr align 4 %cast, i8 0, i64 64, i1 false)
  %b = call float @big_param(ptr noundef byval(%struct.Big) align 4 %cast, i32 0)
  %s = fadd float %a, %b
  store float %s, ptr %out
  ret void
}

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.lifetime.start.p0(i64, ptr)
declare void @llvm.lifetime.end.p0(i64, ptr)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
