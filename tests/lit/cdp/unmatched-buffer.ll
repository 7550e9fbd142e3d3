; Spec 002 "Failure Modes", "Parameter-buffer / launch mismatch": a buffer
; whose matching launch is unreachable in the same function keeps the legacy
; cudaGetParameterBuffer ABI, with a warning naming the function. Unreachable
; means: no launch uses the buffer; several do; or the launch's kernel or
; geometry is computed after the allocation by code that cannot move above
; it. Other calls are still rewritten.
; RUN: nvpass-cli run --pipeline cdp %s | FileCheck %s
; RUN: nvpass-cli run --pipeline cdp %s -o %t 2>&1 | FileCheck %s --check-prefix=WARN

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.dim3 = type { i32, i32, i32 }

define ptx_kernel void @child() {
  ret void
}

; WARN: warning: 'cudaGetParameterBuffer' in 'no_launch' keeps the legacy parameter-buffer ABI: no launch in the function uses the buffer
; CHECK-LABEL: define ptr @no_launch(
; CHECK-NEXT:    %buf = call ptr @cudaGetParameterBuffer(i64 64, i64 8)
define ptr @no_launch() {
  %buf = call ptr @cudaGetParameterBuffer(i64 64, i64 8)
  ret ptr %buf
}

; WARN: warning: 'cudaGetParameterBuffer' in 'two_launches' keeps the legacy parameter-buffer ABI: several launches use the buffer
; CHECK-LABEL: define void @two_launches(
; CHECK-NEXT:    %buf = call ptr @cudaGetParameterBuffer(i64 64, i64 8)
; CHECK-NEXT:    %r1 = call i32 @__cudaCDP1LaunchDeviceV2(ptr @child, ptr %buf,
; CHECK-NEXT:    %r2 = call i32 @__cudaCDP1LaunchDeviceV2(ptr @child, ptr %buf,
define void @two_launches(%struct.dim3 %g, %struct.dim3 %b) {
  %buf = call ptr @cudaGetParameterBuffer(i64 64, i64 8)
  %r1 = call i32 @cudaLaunchDevice(ptr @child, ptr %buf, %struct.dim3 %g, %struct.dim3 %b, i32 0, ptr null)
  %r2 = call i32 @cudaLaunchDevice(ptr @child, ptr %buf, %struct.dim3 %g, %struct.dim3 %b, i32 0, ptr null)
  ret void
}

; The grid is loaded after the allocation, from memory the allocation itself
; may write (it is not a local): the load cannot move.
; WARN: warning: 'cudaGetParameterBuffer' in 'late_geometry' keeps the legacy parameter-buffer ABI: the launch's kernel or geometry is not computed before the allocation and cannot be moved there: the configuration reads memory that the allocation or the code after it may write
; CHECK-LABEL: define void @late_geometry(
; CHECK-NEXT:    %buf = call ptr @cudaGetParameterBuffer(i64 64, i64 8)
; CHECK-NEXT:    %g = load %struct.dim3, ptr %pg, align 4
; CHECK-NEXT:    %r = call i32 @__cudaCDP1LaunchDeviceV2(ptr @child, ptr %buf, %struct.dim3 %g,
define void @late_geometry(ptr %pg, %struct.dim3 %b) {
  %buf = call ptr @cudaGetParameterBuffer(i64 64, i64 8)
  %g = load %struct.dim3, ptr %pg, align 4
  %r = call i32 @cudaLaunchDevice(ptr @child, ptr %buf, %struct.dim3 %g, %struct.dim3 %b, i32 0, ptr null)
  ret void
}

; The shared-memory size is computed after the allocation, from a value of a
; block that does not dominate it (through the phi that does): the addition
; has no side effects and moves above the allocation.
; CHECK-LABEL: define void @late_smem(
; CHECK:       join:
; CHECK-NEXT:    %s = phi i32
; CHECK-NEXT:    %t = add i32 %s, 16
; CHECK-NEXT:    [[BUF:%.*]] = call ptr @__cudaCDP1GetParameterBufferV2(ptr @child, %struct.dim3 %g, %struct.dim3 %b, i32 %t)
; CHECK:       launch:
; CHECK-NEXT:    %r = call i32 @__cudaCDP1LaunchDeviceV2(ptr @child, ptr [[BUF]], %struct.dim3 %g, %struct.dim3 %b, i32 %t, ptr null)
; WARN-NOT: late_smem
define void @late_smem(i1 %c, i32 %n, %struct.dim3 %g, %struct.dim3 %b) {
entry:
  br i1 %c, label %big, label %join

big:
  %s2 = shl i32 %n, 1
  br label %join

join:
  %s = phi i32 [ %s2, %big ], [ 0, %entry ]
  %buf = call ptr @cudaGetParameterBuffer(i64 64, i64 8)
  %ok = icmp ne ptr %buf, null
  br i1 %ok, label %launch, label %done

launch:
  %t = add i32 %s, 16
  %r = call i32 @cudaLaunchDevice(ptr @child, ptr %buf, %struct.dim3 %g, %struct.dim3 %b, i32 %t, ptr null)
  br label %done

done:
  ret void
}

; The launch is reached on a path that bypasses the allocation's branch
; (its block has two predecessors): nothing moves.
; WARN: warning: 'cudaGetParameterBuffer' in 'late_smem_merge' keeps the legacy parameter-buffer ABI: the launch's kernel or geometry is not computed before the allocation and cannot be moved there: the code between the allocation and the launch is not straight-line
; CHECK-LABEL: define void @late_smem_merge(
; CHECK:         %buf = call ptr @cudaGetParameterBuffer(i64 64, i64 8)
; CHECK:         call i32 @__cudaCDP1LaunchDeviceV2(ptr @child, ptr %buf,
define void @late_smem_merge(i1 %c, i32 %n, %struct.dim3 %g, %struct.dim3 %b) {
entry:
  %buf = call ptr @cudaGetParameterBuffer(i64 64, i64 8)
  br i1 %c, label %big, label %launch

big:
  br label %launch

launch:
  %t = add i32 %n, 16
  %r = call i32 @cudaLaunchDevice(ptr @child, ptr %buf, %struct.dim3 %g, %struct.dim3 %b, i32 %t, ptr null)
  ret void
}

; Geometry computed in a dominating block is threaded.
; CHECK-LABEL: define void @early_smem(
; CHECK:       join:
; CHECK-NEXT:    %s = phi i32
; CHECK-NEXT:    [[BUF:%.*]] = call ptr @__cudaCDP1GetParameterBufferV2(ptr @child, %struct.dim3 %g, %struct.dim3 %b, i32 %s)
; CHECK:         call i32 @__cudaCDP1LaunchDeviceV2(ptr @child, ptr [[BUF]], %struct.dim3 %g, %struct.dim3 %b, i32 %s, ptr null)
; WARN-NOT: early_smem
define void @early_smem(i1 %c, i32 %n, %struct.dim3 %g, %struct.dim3 %b) {
entry:
  br i1 %c, label %big, label %join

big:
  %s2 = shl i32 %n, 1
  br label %join

join:
  %s = phi i32 [ %s2, %big ], [ 0, %entry ]
  %buf = call ptr @cudaGetParameterBuffer(i64 64, i64 8)
  %ok = icmp ne ptr %buf, null
  br i1 %ok, label %launch, label %done

launch:
  %r = call i32 @cudaLaunchDevice(ptr @child, ptr %buf, %struct.dim3 %g, %struct.dim3 %b, i32 %s, ptr null)
  br label %done

done:
  ret void
}

declare ptr @cudaGetParameterBuffer(i64, i64)
declare i32 @cudaLaunchDevice(ptr, ptr, %struct.dim3, %struct.dim3, i32, ptr)
