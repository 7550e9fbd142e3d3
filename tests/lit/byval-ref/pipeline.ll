; byval-ref then ipmsp and memspace-opt: the by-reference parameter gets a
; local vote, is specialized to addrspace(5), and its loads are local.
; Without byval-ref the parameter stays a generic byval pointer.
; RUN: nvpass-cli run --pipeline byval-ref,ipmsp,memspace-opt %s | FileCheck %s
; RUN: nvpass-cli run --pipeline ipmsp,memspace-opt %s | FileCheck %s --check-prefix=BASE
%struct.Big = type { [16 x float] }

; CHECK-LABEL: define private float @big_param.byref(ptr addrspace(5) %s, i32 %i)
; CHECK: getelementptr inbounds %struct.Big, ptr addrspace(5) %s
; CHECK: load float, ptr addrspace(5)
; BASE: define linkonce_odr float @big_param(ptr byval(%struct.Big) align 4 %s, i32 %i)
; BASE-NOT: load float, ptr addrspace(5)
define linkonce_odr float @big_param(ptr byval(%struct.Big) align 4 %s, i32 %i) {
  %f = getelementptr inbounds %struct.Big, ptr %s, i32 0, i32 0, i32 %i
  %v = load float, ptr %f, align 4
  ret float %v
}

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: call float @big_param.byref(ptr addrspace(5) %agg, i32 %i)
define ptx_kernel void @k(ptr %out, ptr byval(%struct.Big) align 4 %in, i32 %i) {
  %agg = alloca %struct.Big, align 4, addrspace(5)
  %g = addrspacecast ptr addrspace(5) %agg to ptr
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %g, ptr align 4 %in, i64 64, i1 false)
  %a = call float @big_param(ptr byval(%struct.Big) align 4 %g, i32 %i)
  store float %a, ptr %out
  ret void
}

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
