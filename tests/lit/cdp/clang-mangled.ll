; Clang's device-side launch (clang CGCUDARuntime, `g2<<<1, 1>>>(42)`): the
; C++-mangled entry points, a 64-byte-aligned buffer, a null check, stores at
; aligned offsets, and a launch passing each dim3 as `ptr byval`. Kernels are
; marked only by !nvvm.annotations, as clang 19 does.
;
; Clang evaluates the launch configuration inside the null-check branch,
; after the allocation. In @g1 that code only constructs the two dim3
; temporaries, so it moves above the allocation and the buffer becomes the V2
; stub (clang-launch-hoist.ll has the other shapes). When the geometry is in
; memory that is fully written before the allocation (@g3), it is threaded
; as it is, byval attributes included.
; RUN: nvpass-cli run --pipeline cdp %s | FileCheck %s

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.dim3 = type { i32, i32, i32 }

define void @_Z2g2i(i32 %x) {
entry:
  ret void
}

; CHECK-LABEL: define void @_Z2g1v(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %agg.tmp = alloca %struct.dim3, align 4
; CHECK-NEXT:    %agg.tmp1 = alloca %struct.dim3, align 4
; CHECK-NEXT:    call void @_ZN4dim3C1Ejjj(ptr %agg.tmp, i32 1, i32 1, i32 1)
; CHECK-NEXT:    call void @_ZN4dim3C1Ejjj(ptr %agg.tmp1, i32 1, i32 1, i32 1)
; CHECK-NEXT:    [[CFG:%.*]] = call ptr @__cudaCDP1GetParameterBufferV2(ptr @_Z2g2i, ptr byval(%struct.dim3) align 4 %agg.tmp, ptr byval(%struct.dim3) align 4 %agg.tmp1, i32 0)
; CHECK-NEXT:    [[NN:%.*]] = icmp ne ptr [[CFG]], null
; CHECK:       dkcall.configok:
; CHECK-NEXT:    [[P:%.*]] = getelementptr inbounds i8, ptr [[CFG]], i64 0
; CHECK-NEXT:    store i32 42, ptr [[P]], align 64
; CHECK-NEXT:    %call = call i32 @__cudaCDP1LaunchDeviceV2(ptr @_Z2g2i, ptr [[CFG]], ptr byval(%struct.dim3) align 4 %agg.tmp, ptr byval(%struct.dim3) align 4 %agg.tmp1, i32 0, ptr null)
; CHECK-NOT:   cudaGetParameterBuffermm
define void @_Z2g1v() {
entry:
  %agg.tmp = alloca %struct.dim3, align 4
  %agg.tmp1 = alloca %struct.dim3, align 4
  %config = call ptr @_Z22cudaGetParameterBuffermm(i64 64, i64 4)
  %0 = icmp ne ptr %config, null
  br i1 %0, label %dkcall.configok, label %dkcall.end

dkcall.configok:
  %1 = getelementptr inbounds i8, ptr %config, i64 0
  store i32 42, ptr %1, align 64
  call void @_ZN4dim3C1Ejjj(ptr %agg.tmp, i32 1, i32 1, i32 1)
  call void @_ZN4dim3C1Ejjj(ptr %agg.tmp1, i32 1, i32 1, i32 1)
  %call = call i32 @_Z16cudaLaunchDevicePvS_4dim3S0_jP10cudaStream(ptr @_Z2g2i, ptr %config, ptr byval(%struct.dim3) align 4 %agg.tmp, ptr byval(%struct.dim3) align 4 %agg.tmp1, i32 0, ptr null)
  br label %dkcall.end

dkcall.end:
  ret void
}

; CHECK-LABEL: define void @_Z2g3i(
; CHECK:         call void @llvm.lifetime.start.p0(i64 12, ptr %grid)
; CHECK:         call void @_ZN4dim3C1Ejjj(ptr %block, i32 128, i32 1, i32 1)
; CHECK-NEXT:    [[CFG:%.*]] = call ptr @__cudaCDP1GetParameterBufferV2(ptr @_Z2g2i, ptr byval(%struct.dim3) align 4 %grid, ptr byval(%struct.dim3) align 4 %block, i32 0)
; CHECK-NEXT:    [[NN:%.*]] = icmp ne ptr [[CFG]], null
; CHECK:         store i32 %n, ptr [[CFG]], align 64
; CHECK-NEXT:    %call = call i32 @__cudaCDP1LaunchDeviceV2(ptr @_Z2g2i, ptr [[CFG]], ptr byval(%struct.dim3) align 4 %grid, ptr byval(%struct.dim3) align 4 %block, i32 0, ptr null)
; CHECK:         call void @llvm.lifetime.end.p0(i64 12, ptr %grid)
define void @_Z2g3i(i32 %n) {
entry:
  %grid = alloca %struct.dim3, align 4
  %block = alloca %struct.dim3, align 4
  call void @llvm.lifetime.start.p0(i64 12, ptr %grid)
  store i32 %n, ptr %grid, align 4
  %grid.y = getelementptr inbounds i8, ptr %grid, i64 4
  store i32 1, ptr %grid.y, align 4
  %grid.z = getelementptr inbounds i8, ptr %grid, i64 8
  store i32 1, ptr %grid.z, align 4
  call void @_ZN4dim3C1Ejjj(ptr %block, i32 128, i32 1, i32 1)
  %config = call ptr @_Z22cudaGetParameterBuffermm(i64 64, i64 4)
  %0 = icmp ne ptr %config, null
  br i1 %0, label %dkcall.configok, label %dkcall.end

dkcall.configok:
  store i32 %n, ptr %config, align 64
  %call = call i32 @_Z16cudaLaunchDevicePvS_4dim3S0_jP10cudaStream(ptr @_Z2g2i, ptr %config, ptr byval(%struct.dim3) align 4 %grid, ptr byval(%struct.dim3) align 4 %block, i32 0, ptr null)
  br label %dkcall.end

dkcall.end:
  %x = load i32, ptr %grid, align 4
  call void @llvm.lifetime.end.p0(i64 12, ptr %grid)
  ret void
}

declare ptr @_Z22cudaGetParameterBuffermm(i64, i64)
declare i32 @_Z16cudaLaunchDevicePvS_4dim3S0_jP10cudaStream(ptr, ptr, ptr byval(%struct.dim3) align 4, ptr byval(%struct.dim3) align 4, i32, ptr)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture)

define linkonce_odr void @_ZN4dim3C1Ejjj(ptr %this, i32 %x, i32 %y, i32 %z) {
entry:
  store i32 %x, ptr %this, align 4
  %py = getelementptr inbounds i8, ptr %this, i64 4
  store i32 %y, ptr %py, align 4
  %pz = getelementptr inbounds i8, ptr %this, i64 8
  store i32 %z, ptr %pz, align 4
  ret void
}

; The stubs take the launch's operand types, with its byval attributes.
; CHECK-DAG: declare i32 @__cudaCDP1LaunchDeviceV2(ptr, ptr, ptr byval(%struct.dim3) align 4, ptr byval(%struct.dim3) align 4, i32, ptr)
; CHECK-DAG: declare ptr @__cudaCDP1GetParameterBufferV2(ptr, ptr byval(%struct.dim3) align 4, ptr byval(%struct.dim3) align 4, i32)

!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @_Z2g2i, !"kernel", i32 1}
!1 = !{ptr @_Z2g1v, !"kernel", i32 1}
!2 = !{ptr @_Z2g3i, !"kernel", i32 1}
