; Clang's device-side launch (clang 20+ CGCUDARuntime) evaluates the
; `<<<grid, block, smem>>>` configuration inside the `config != null` branch,
; after cudaGetParameterBuffer. When that code only initializes the launch's
; dim3 temporaries (stores, a memcpy from a dim3 local, the -O0 C1 -> C2
; constructor chain) and computes operands without side effects, it moves,
; in order, to just before the allocation, and the buffer becomes the V2
; stub with the launch's kernel and geometry. Anything else (a call with side
; effects, a load of memory written on the way, a volatile store, a
; constructor that writes other memory, a division) keeps the legacy buffer
; with a warning. Running `cdp` again changes nothing.
; RUN: nvpass-cli run --pipeline cdp %s | FileCheck %s
; RUN: nvpass-cli run --pipeline cdp,cdp %s | FileCheck %s
; RUN: nvpass-cli run --pipeline cdp %s -o %t && nvpass-cli run --pipeline cdp %t | FileCheck %s
; RUN: nvpass-cli run --pipeline cdp %s -o %t 2>&1 | FileCheck %s --check-prefix=WARN

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.dim3 = type { i32, i32, i32 }

@counter = global i32 0

define void @_Z2g2i(i32 %x) {
entry:
  ret void
}

; -O0, `g2<<<n, 128, n * 4>>>(n)`: the reloads of `n`, both constructor
; calls and the multiply move above the allocation; the argument store stays
; in the branch.
; CHECK-LABEL: define void @o0_ctor(
; CHECK:         store i32 %n, ptr %n.addr, align 4
; CHECK-NEXT:    %n1 = load i32, ptr %n.addr, align 4
; CHECK-NEXT:    call void @_ZN4dim3C1Ejjj(ptr %agg.tmp, i32 %n1, i32 1, i32 1)
; CHECK-NEXT:    call void @_ZN4dim3C1Ejjj(ptr %agg.tmp1, i32 128, i32 1, i32 1)
; CHECK-NEXT:    %n2 = load i32, ptr %n.addr, align 4
; CHECK-NEXT:    %mul = mul nsw i32 %n2, 4
; CHECK-NEXT:    [[CFG:%.*]] = call ptr @__cudaCDP1GetParameterBufferV2(ptr @_Z2g2i, ptr byval(%struct.dim3) align 4 %agg.tmp, ptr byval(%struct.dim3) align 4 %agg.tmp1, i32 %mul)
; CHECK-NEXT:    [[OK:%.*]] = icmp ne ptr [[CFG]], null
; CHECK-NEXT:    br i1 [[OK]], label %dkcall.configok, label %dkcall.end
; CHECK:       dkcall.configok:
; CHECK-NEXT:    %n0 = load i32, ptr %n.addr, align 4
; CHECK-NEXT:    store i32 %n0, ptr [[CFG]], align 64
; CHECK-NEXT:    %call = call i32 @__cudaCDP1LaunchDeviceV2(ptr @_Z2g2i, ptr [[CFG]], ptr byval(%struct.dim3) align 4 %agg.tmp, ptr byval(%struct.dim3) align 4 %agg.tmp1, i32 %mul, ptr null)
; WARN-NOT: 'o0_ctor'
define void @o0_ctor(i32 %n) {
entry:
  %n.addr = alloca i32, align 4
  %agg.tmp = alloca %struct.dim3, align 4
  %agg.tmp1 = alloca %struct.dim3, align 4
  store i32 %n, ptr %n.addr, align 4
  %config = call ptr @_Z22cudaGetParameterBuffermm(i64 64, i64 4)
  %ok = icmp ne ptr %config, null
  br i1 %ok, label %dkcall.configok, label %dkcall.end

dkcall.configok:
  %n0 = load i32, ptr %n.addr, align 4
  store i32 %n0, ptr %config, align 64
  %n1 = load i32, ptr %n.addr, align 4
  call void @_ZN4dim3C1Ejjj(ptr %agg.tmp, i32 %n1, i32 1, i32 1)
  call void @_ZN4dim3C1Ejjj(ptr %agg.tmp1, i32 128, i32 1, i32 1)
  %n2 = load i32, ptr %n.addr, align 4
  %mul = mul nsw i32 %n2, 4
  %call = call i32 @_Z16cudaLaunchDevicePvS_4dim3S0_jP10cudaStream(ptr @_Z2g2i, ptr %config, ptr byval(%struct.dim3) align 4 %agg.tmp, ptr byval(%struct.dim3) align 4 %agg.tmp1, i32 %mul, ptr null)
  br label %dkcall.end

dkcall.end:
  ret void
}

; -O2: the constructors are inlined to plain stores, with lifetime markers;
; the lifetime starts and the stores move, the lifetime ends stay after the
; launch.
; CHECK-LABEL: define void @o2_stores(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %agg.tmp = alloca %struct.dim3, align 4
; CHECK-NEXT:    %agg.tmp1 = alloca %struct.dim3, align 4
; CHECK-NEXT:    call void @llvm.lifetime.start.p0(i64 12, ptr %agg.tmp)
; CHECK-NEXT:    store i32 %n, ptr %agg.tmp, align 4
; CHECK-NEXT:    %gy = getelementptr inbounds i8, ptr %agg.tmp, i64 4
; CHECK-NEXT:    store i32 1, ptr %gy, align 4
; CHECK-NEXT:    %gz = getelementptr inbounds i8, ptr %agg.tmp, i64 8
; CHECK-NEXT:    store i32 1, ptr %gz, align 4
; CHECK-NEXT:    call void @llvm.lifetime.start.p0(i64 12, ptr %agg.tmp1)
; CHECK-NEXT:    store i32 128, ptr %agg.tmp1, align 4
; CHECK-NEXT:    %by = getelementptr inbounds i8, ptr %agg.tmp1, i64 4
; CHECK-NEXT:    store i32 1, ptr %by, align 4
; CHECK-NEXT:    %bz = getelementptr inbounds i8, ptr %agg.tmp1, i64 8
; CHECK-NEXT:    store i32 1, ptr %bz, align 4
; CHECK-NEXT:    %smem = shl i32 %n, 2
; CHECK-NEXT:    [[CFG:%.*]] = call ptr @__cudaCDP1GetParameterBufferV2(ptr @_Z2g2i, ptr byval(%struct.dim3) align 4 %agg.tmp, ptr byval(%struct.dim3) align 4 %agg.tmp1, i32 %smem)
; CHECK-NEXT:    [[NOT:%.*]] = icmp eq ptr [[CFG]], null
; CHECK-NEXT:    br i1 [[NOT]], label %dkcall.end, label %dkcall.configok
; CHECK:       dkcall.configok:
; CHECK-NEXT:    store i32 %n, ptr [[CFG]], align 64
; CHECK-NEXT:    %call = call i32 @__cudaCDP1LaunchDeviceV2(ptr @_Z2g2i, ptr [[CFG]], ptr byval(%struct.dim3) align 4 %agg.tmp, ptr byval(%struct.dim3) align 4 %agg.tmp1, i32 %smem, ptr null)
; CHECK-NEXT:    call void @llvm.lifetime.end.p0(i64 12, ptr %agg.tmp)
; CHECK-NEXT:    call void @llvm.lifetime.end.p0(i64 12, ptr %agg.tmp1)
; WARN-NOT: 'o2_stores'
define void @o2_stores(i32 %n) {
entry:
  %agg.tmp = alloca %struct.dim3, align 4
  %agg.tmp1 = alloca %struct.dim3, align 4
  %config = call ptr @_Z22cudaGetParameterBuffermm(i64 64, i64 4)
  %.not = icmp eq ptr %config, null
  br i1 %.not, label %dkcall.end, label %dkcall.configok

dkcall.configok:
  store i32 %n, ptr %config, align 64
  call void @llvm.lifetime.start.p0(i64 12, ptr %agg.tmp)
  store i32 %n, ptr %agg.tmp, align 4
  %gy = getelementptr inbounds i8, ptr %agg.tmp, i64 4
  store i32 1, ptr %gy, align 4
  %gz = getelementptr inbounds i8, ptr %agg.tmp, i64 8
  store i32 1, ptr %gz, align 4
  call void @llvm.lifetime.start.p0(i64 12, ptr %agg.tmp1)
  store i32 128, ptr %agg.tmp1, align 4
  %by = getelementptr inbounds i8, ptr %agg.tmp1, i64 4
  store i32 1, ptr %by, align 4
  %bz = getelementptr inbounds i8, ptr %agg.tmp1, i64 8
  store i32 1, ptr %bz, align 4
  %smem = shl i32 %n, 2
  %call = call i32 @_Z16cudaLaunchDevicePvS_4dim3S0_jP10cudaStream(ptr @_Z2g2i, ptr %config, ptr byval(%struct.dim3) align 4 %agg.tmp, ptr byval(%struct.dim3) align 4 %agg.tmp1, i32 %smem, ptr null)
  call void @llvm.lifetime.end.p0(i64 12, ptr %agg.tmp)
  call void @llvm.lifetime.end.p0(i64 12, ptr %agg.tmp1)
  br label %dkcall.end

dkcall.end:
  ret void
}

; -O0, `dim3 grid(n), block(64); g2<<<grid, block>>>(n)`: the dim3 locals
; are built before the allocation and copied into the temporaries in the
; branch; the copies move.
; CHECK-LABEL: define void @o0_memcpy(
; CHECK:         call void @_ZN4dim3C1Ejjj(ptr %block, i32 64, i32 1, i32 1)
; CHECK-NEXT:    call void @llvm.memcpy.p0.p0.i64(ptr align 4 %agg.tmp, ptr align 4 %grid, i64 12, i1 false)
; CHECK-NEXT:    call void @llvm.memcpy.p0.p0.i64(ptr align 4 %agg.tmp1, ptr align 4 %block, i64 12, i1 false)
; CHECK-NEXT:    [[CFG:%.*]] = call ptr @__cudaCDP1GetParameterBufferV2(ptr @_Z2g2i, ptr byval(%struct.dim3) align 4 %agg.tmp, ptr byval(%struct.dim3) align 4 %agg.tmp1, i32 0)
; CHECK:       dkcall.configok:
; CHECK-NEXT:    store i32 %n, ptr [[CFG]], align 64
; CHECK-NEXT:    %call = call i32 @__cudaCDP1LaunchDeviceV2(ptr @_Z2g2i, ptr [[CFG]], ptr byval(%struct.dim3) align 4 %agg.tmp, ptr byval(%struct.dim3) align 4 %agg.tmp1, i32 0, ptr null)
; WARN-NOT: 'o0_memcpy'
define void @o0_memcpy(i32 %n) {
entry:
  %grid = alloca %struct.dim3, align 4
  %block = alloca %struct.dim3, align 4
  %agg.tmp = alloca %struct.dim3, align 4
  %agg.tmp1 = alloca %struct.dim3, align 4
  call void @_ZN4dim3C1Ejjj(ptr %grid, i32 %n, i32 1, i32 1)
  call void @_ZN4dim3C1Ejjj(ptr %block, i32 64, i32 1, i32 1)
  %config = call ptr @_Z22cudaGetParameterBuffermm(i64 64, i64 4)
  %ok = icmp ne ptr %config, null
  br i1 %ok, label %dkcall.configok, label %dkcall.end

dkcall.configok:
  store i32 %n, ptr %config, align 64
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %agg.tmp, ptr align 4 %grid, i64 12, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %agg.tmp1, ptr align 4 %block, i64 12, i1 false)
  %call = call i32 @_Z16cudaLaunchDevicePvS_4dim3S0_jP10cudaStream(ptr @_Z2g2i, ptr %config, ptr byval(%struct.dim3) align 4 %agg.tmp, ptr byval(%struct.dim3) align 4 %agg.tmp1, i32 0, ptr null)
  br label %dkcall.end

dkcall.end:
  ret void
}

; `g2<<<f(), 1>>>(n)`: f() may have side effects; moving it above the
; allocation would change when they happen.
; CHECK-LABEL: define void @call_in_config(
; CHECK:         %config = call ptr @_Z22cudaGetParameterBuffermm(i64 64, i64 4)
; CHECK:       dkcall.configok:
; CHECK-NEXT:    store i32 %n, ptr %config, align 64
; CHECK-NEXT:    %f = call i32 @f()
; WARN: warning: '_Z22cudaGetParameterBuffermm' in 'call_in_config' keeps the legacy parameter-buffer ABI: the launch's kernel or geometry is not computed before the allocation and cannot be moved there: the configuration is computed by a call or a division, which cannot run earlier
define void @call_in_config(i32 %n) {
entry:
  %agg.tmp = alloca %struct.dim3, align 4
  %agg.tmp1 = alloca %struct.dim3, align 4
  %config = call ptr @_Z22cudaGetParameterBuffermm(i64 64, i64 4)
  %ok = icmp ne ptr %config, null
  br i1 %ok, label %dkcall.configok, label %dkcall.end

dkcall.configok:
  store i32 %n, ptr %config, align 64
  %f = call i32 @f()
  call void @_ZN4dim3C1Ejjj(ptr %agg.tmp, i32 %f, i32 1, i32 1)
  call void @_ZN4dim3C1Ejjj(ptr %agg.tmp1, i32 1, i32 1, i32 1)
  %call = call i32 @_Z16cudaLaunchDevicePvS_4dim3S0_jP10cudaStream(ptr @_Z2g2i, ptr %config, ptr byval(%struct.dim3) align 4 %agg.tmp, ptr byval(%struct.dim3) align 4 %agg.tmp1, i32 0, ptr null)
  br label %dkcall.end

dkcall.end:
  ret void
}

; The grid reads a local that is written after the allocation.
; CHECK-LABEL: define void @load_of_written_memory(
; CHECK:         %config = call ptr @_Z22cudaGetParameterBuffermm(i64 64, i64 4)
; WARN: warning: '_Z22cudaGetParameterBuffermm' in 'load_of_written_memory' keeps the legacy parameter-buffer ABI: {{.*}}: the configuration reads memory that the allocation or the code after it may write
define void @load_of_written_memory(i32 %n) {
entry:
  %n.addr = alloca i32, align 4
  %agg.tmp = alloca %struct.dim3, align 4
  %agg.tmp1 = alloca %struct.dim3, align 4
  store i32 %n, ptr %n.addr, align 4
  %config = call ptr @_Z22cudaGetParameterBuffermm(i64 64, i64 4)
  %ok = icmp ne ptr %config, null
  br i1 %ok, label %dkcall.configok, label %dkcall.end

dkcall.configok:
  store i32 7, ptr %n.addr, align 4
  %v = load i32, ptr %n.addr, align 4
  call void @_ZN4dim3C1Ejjj(ptr %agg.tmp, i32 %v, i32 1, i32 1)
  call void @_ZN4dim3C1Ejjj(ptr %agg.tmp1, i32 1, i32 1, i32 1)
  %call = call i32 @_Z16cudaLaunchDevicePvS_4dim3S0_jP10cudaStream(ptr @_Z2g2i, ptr %config, ptr byval(%struct.dim3) align 4 %agg.tmp, ptr byval(%struct.dim3) align 4 %agg.tmp1, i32 0, ptr null)
  br label %dkcall.end

dkcall.end:
  ret void
}

; A volatile store into the grid temporary.
; CHECK-LABEL: define void @volatile_store(
; CHECK:         %config = call ptr @_Z22cudaGetParameterBuffermm(i64 64, i64 4)
; WARN: warning: '_Z22cudaGetParameterBuffermm' in 'volatile_store' keeps the legacy parameter-buffer ABI: {{.*}}: a grid or block temporary is used other than by its initializers and the launch
define void @volatile_store(i32 %n) {
entry:
  %agg.tmp = alloca %struct.dim3, align 4
  %agg.tmp1 = alloca %struct.dim3, align 4
  %config = call ptr @_Z22cudaGetParameterBuffermm(i64 64, i64 4)
  %ok = icmp ne ptr %config, null
  br i1 %ok, label %dkcall.configok, label %dkcall.end

dkcall.configok:
  store volatile i32 %n, ptr %agg.tmp, align 4
  call void @_ZN4dim3C1Ejjj(ptr %agg.tmp1, i32 1, i32 1, i32 1)
  %call = call i32 @_Z16cudaLaunchDevicePvS_4dim3S0_jP10cudaStream(ptr @_Z2g2i, ptr %config, ptr byval(%struct.dim3) align 4 %agg.tmp, ptr byval(%struct.dim3) align 4 %agg.tmp1, i32 0, ptr null)
  br label %dkcall.end

dkcall.end:
  ret void
}

; A "constructor" that also counts its calls in a global.
; CHECK-LABEL: define void @ctor_with_side_effect(
; CHECK:         %config = call ptr @_Z22cudaGetParameterBuffermm(i64 64, i64 4)
; CHECK:       dkcall.configok:
; CHECK-NEXT:    call void @counting_ctor(ptr %agg.tmp, i32 %n)
; WARN: warning: '_Z22cudaGetParameterBuffermm' in 'ctor_with_side_effect' keeps the legacy parameter-buffer ABI: {{.*}}: a call initializing the configuration may have other side effects
define void @ctor_with_side_effect(i32 %n) {
entry:
  %agg.tmp = alloca %struct.dim3, align 4
  %agg.tmp1 = alloca %struct.dim3, align 4
  %config = call ptr @_Z22cudaGetParameterBuffermm(i64 64, i64 4)
  %ok = icmp ne ptr %config, null
  br i1 %ok, label %dkcall.configok, label %dkcall.end

dkcall.configok:
  call void @counting_ctor(ptr %agg.tmp, i32 %n)
  call void @_ZN4dim3C1Ejjj(ptr %agg.tmp1, i32 1, i32 1, i32 1)
  %call = call i32 @_Z16cudaLaunchDevicePvS_4dim3S0_jP10cudaStream(ptr @_Z2g2i, ptr %config, ptr byval(%struct.dim3) align 4 %agg.tmp, ptr byval(%struct.dim3) align 4 %agg.tmp1, i32 0, ptr null)
  br label %dkcall.end

dkcall.end:
  ret void
}

; `<<<1, 1, n / d>>>`: a division by zero the original never performed when
; the allocation fails.
; CHECK-LABEL: define void @division_in_smem(
; CHECK:         %config = call ptr @_Z22cudaGetParameterBuffermm(i64 64, i64 4)
; WARN: warning: '_Z22cudaGetParameterBuffermm' in 'division_in_smem' keeps the legacy parameter-buffer ABI: {{.*}}: the configuration is computed by a call or a division, which cannot run earlier
define void @division_in_smem(i32 %n, i32 %d) {
entry:
  %agg.tmp = alloca %struct.dim3, align 4
  %agg.tmp1 = alloca %struct.dim3, align 4
  %config = call ptr @_Z22cudaGetParameterBuffermm(i64 64, i64 4)
  %ok = icmp ne ptr %config, null
  br i1 %ok, label %dkcall.configok, label %dkcall.end

dkcall.configok:
  call void @_ZN4dim3C1Ejjj(ptr %agg.tmp, i32 1, i32 1, i32 1)
  call void @_ZN4dim3C1Ejjj(ptr %agg.tmp1, i32 1, i32 1, i32 1)
  %smem = udiv i32 %n, %d
  %call = call i32 @_Z16cudaLaunchDevicePvS_4dim3S0_jP10cudaStream(ptr @_Z2g2i, ptr %config, ptr byval(%struct.dim3) align 4 %agg.tmp, ptr byval(%struct.dim3) align 4 %agg.tmp1, i32 %smem, ptr null)
  br label %dkcall.end

dkcall.end:
  ret void
}

; The block temporary is read after the branch, where the allocation may
; have failed: its initialization cannot run unconditionally unseen.
; CHECK-LABEL: define i32 @temp_read_after_join(
; CHECK:         %config = call ptr @_Z22cudaGetParameterBuffermm(i64 64, i64 4)
; WARN: warning: '_Z22cudaGetParameterBuffermm' in 'temp_read_after_join' keeps the legacy parameter-buffer ABI: {{.*}}: a grid or block temporary is used other than by its initializers and the launch
define i32 @temp_read_after_join(i32 %n) {
entry:
  %agg.tmp = alloca %struct.dim3, align 4
  %agg.tmp1 = alloca %struct.dim3, align 4
  store i32 0, ptr %agg.tmp1, align 4
  %config = call ptr @_Z22cudaGetParameterBuffermm(i64 64, i64 4)
  %ok = icmp ne ptr %config, null
  br i1 %ok, label %dkcall.configok, label %dkcall.end

dkcall.configok:
  call void @_ZN4dim3C1Ejjj(ptr %agg.tmp, i32 1, i32 1, i32 1)
  call void @_ZN4dim3C1Ejjj(ptr %agg.tmp1, i32 %n, i32 1, i32 1)
  %call = call i32 @_Z16cudaLaunchDevicePvS_4dim3S0_jP10cudaStream(ptr @_Z2g2i, ptr %config, ptr byval(%struct.dim3) align 4 %agg.tmp, ptr byval(%struct.dim3) align 4 %agg.tmp1, i32 0, ptr null)
  br label %dkcall.end

dkcall.end:
  %x = load i32, ptr %agg.tmp1, align 4
  ret i32 %x
}

; Two nested launches share their computed shared-memory size: it moves
; above the outer allocation once and then dominates both.
; CHECK-LABEL: define void @shared_config(
; CHECK-NEXT:    %s = shl i32 %n, 2
; CHECK-NEXT:    [[B1:%.*]] = call ptr @__cudaCDP1GetParameterBufferV2(ptr @_Z2g2i, %struct.dim3 %g, %struct.dim3 %g, i32 %s)
; CHECK-NEXT:    [[B2:%.*]] = call ptr @__cudaCDP1GetParameterBufferV2(ptr @_Z2g2i, %struct.dim3 %g, %struct.dim3 %g, i32 %s)
; CHECK-NEXT:    %r2 = call i32 @__cudaCDP1LaunchDeviceV2(ptr @_Z2g2i, ptr [[B2]], %struct.dim3 %g, %struct.dim3 %g, i32 %s, ptr null)
; CHECK-NEXT:    %r1 = call i32 @__cudaCDP1LaunchDeviceV2(ptr @_Z2g2i, ptr [[B1]], %struct.dim3 %g, %struct.dim3 %g, i32 %s, ptr null)
; WARN-NOT: 'shared_config'
define void @shared_config(i32 %n, %struct.dim3 %g) {
  %b1 = call ptr @cudaGetParameterBuffer(i64 64, i64 4)
  %b2 = call ptr @cudaGetParameterBuffer(i64 64, i64 4)
  %s = shl i32 %n, 2
  %r2 = call i32 @cudaLaunchDevice(ptr @_Z2g2i, ptr %b2, %struct.dim3 %g, %struct.dim3 %g, i32 %s, ptr null)
  %r1 = call i32 @cudaLaunchDevice(ptr @_Z2g2i, ptr %b1, %struct.dim3 %g, %struct.dim3 %g, i32 %s, ptr null)
  ret void
}

declare ptr @cudaGetParameterBuffer(i64, i64)
declare i32 @cudaLaunchDevice(ptr, ptr, %struct.dim3, %struct.dim3, i32, ptr)
declare ptr @_Z22cudaGetParameterBuffermm(i64, i64)
declare i32 @_Z16cudaLaunchDevicePvS_4dim3S0_jP10cudaStream(ptr, ptr, ptr byval(%struct.dim3) align 4, ptr byval(%struct.dim3) align 4, i32, ptr)
declare i32 @f()
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias nocapture writeonly, ptr noalias nocapture readonly, i64, i1 immarg)

; clang -O0's dim3 constructors: C1 spills its arguments and calls C2, which
; spills them again and stores the fields through the reloaded `this`.
define linkonce_odr void @_ZN4dim3C1Ejjj(ptr %this, i32 %vx, i32 %vy, i32 %vz) {
entry:
  %this.addr = alloca ptr, align 8
  %vx.addr = alloca i32, align 4
  %vy.addr = alloca i32, align 4
  %vz.addr = alloca i32, align 4
  store ptr %this, ptr %this.addr, align 8
  store i32 %vx, ptr %vx.addr, align 4
  store i32 %vy, ptr %vy.addr, align 4
  store i32 %vz, ptr %vz.addr, align 4
  %this1 = load ptr, ptr %this.addr, align 8
  %0 = load i32, ptr %vx.addr, align 4
  %1 = load i32, ptr %vy.addr, align 4
  %2 = load i32, ptr %vz.addr, align 4
  call void @_ZN4dim3C2Ejjj(ptr %this1, i32 %0, i32 %1, i32 %2)
  ret void
}

define linkonce_odr void @_ZN4dim3C2Ejjj(ptr %this, i32 %vx, i32 %vy, i32 %vz) {
entry:
  %this.addr = alloca ptr, align 8
  %vx.addr = alloca i32, align 4
  %vy.addr = alloca i32, align 4
  %vz.addr = alloca i32, align 4
  store ptr %this, ptr %this.addr, align 8
  store i32 %vx, ptr %vx.addr, align 4
  store i32 %vy, ptr %vy.addr, align 4
  store i32 %vz, ptr %vz.addr, align 4
  %this1 = load ptr, ptr %this.addr, align 8
  %x = getelementptr inbounds %struct.dim3, ptr %this1, i32 0, i32 0
  %0 = load i32, ptr %vx.addr, align 4
  store i32 %0, ptr %x, align 4
  %y = getelementptr inbounds %struct.dim3, ptr %this1, i32 0, i32 1
  %1 = load i32, ptr %vy.addr, align 4
  store i32 %1, ptr %y, align 4
  %z = getelementptr inbounds %struct.dim3, ptr %this1, i32 0, i32 2
  %2 = load i32, ptr %vz.addr, align 4
  store i32 %2, ptr %z, align 4
  ret void
}

define linkonce_odr void @counting_ctor(ptr %this, i32 %v) {
entry:
  store i32 %v, ptr %this, align 4
  %c = load i32, ptr @counter, align 4
  %c1 = add i32 %c, 1
  store i32 %c1, ptr @counter, align 4
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @_Z2g2i, !"kernel", i32 1}
