; Several launches in one function, each paired with its own buffer (one
; through casts), of both variants and both entry-point generations. Stub
; declarations are created once and an existing one is reused. The
; cudaLaunchDeviceV2 launch takes the child and geometry of its
; cudaGetParameterBufferV2, so __cudaCDP1LaunchDeviceV2 keeps one signature.
; RUN: nvpass-cli run --pipeline cdp %s | FileCheck %s

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.dim3 = type { i32, i32, i32 }

define ptx_kernel void @a(i32 %x) {
  ret void
}

define ptx_kernel void @b(ptr %p) {
  ret void
}

; CHECK-LABEL: define void @parent(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[B1:%.*]] = call ptr @__cudaCDP1GetParameterBufferV2(ptr @a, %struct.dim3 %g, %struct.dim3 %blk, i32 0)
; CHECK-NEXT:    store i32 1, ptr [[B1]], align 4
; CHECK-NEXT:    %r1 = call i32 @__cudaCDP1LaunchDeviceV2(ptr @a, ptr [[B1]], %struct.dim3 %g, %struct.dim3 %blk, i32 0, ptr null)
; CHECK-NEXT:    [[B2:%.*]] = call ptr @__cudaCDP2GetParameterBufferV2(ptr @b, %struct.dim3 %g, %struct.dim3 %blk, i32 64){{.*}}
; CHECK-NEXT:    %b2.as = addrspacecast ptr [[B2]] to ptr addrspace(1)
; CHECK-NEXT:    store ptr %p, ptr addrspace(1) %b2.as, align 8
; CHECK-NEXT:    %b2.gen = addrspacecast ptr addrspace(1) %b2.as to ptr
; CHECK-NEXT:    %r2 = call i32 @__cudaCDP2LaunchDeviceV2(ptr @b, ptr %b2.gen, %struct.dim3 %g, %struct.dim3 %blk, i32 64, ptr %s){{.*}}
; CHECK-NEXT:    %b3 = call ptr @__cudaCDP1GetParameterBufferV2(ptr @a, %struct.dim3 %g, %struct.dim3 %g, i32 8)
; CHECK-NEXT:    store i32 3, ptr %b3, align 4
; CHECK-NEXT:    {{%.*}} = call i32 @__cudaCDP1LaunchDeviceV2(ptr @a, ptr %b3, %struct.dim3 %g, %struct.dim3 %g, i32 8, ptr null)
; CHECK-NEXT:    [[B4:%.*]] = call ptr @__cudaCDP1GetParameterBufferV2(ptr @a, %struct.dim3 %blk, %struct.dim3 %blk, i32 0)
; CHECK-NEXT:    store i32 4, ptr [[B4]], align 4
; CHECK-NEXT:    %r4 = call i32 @__cudaCDP1LaunchDeviceV2(ptr @a, ptr [[B4]], %struct.dim3 %blk, %struct.dim3 %blk, i32 0, ptr null)
; CHECK-NEXT:    ret void
define void @parent(ptr %p, ptr %s, %struct.dim3 %g, %struct.dim3 %blk) {
entry:
  %b1 = call ptr @cudaGetParameterBuffer(i64 64, i64 4)
  store i32 1, ptr %b1, align 4
  %r1 = call i32 @cudaLaunchDevice(ptr @a, ptr %b1, %struct.dim3 %g, %struct.dim3 %blk, i32 0, ptr null)
  %b2 = call ptr @cudaGetParameterBuffer(i64 64, i64 8) #0
  %b2.as = addrspacecast ptr %b2 to ptr addrspace(1)
  store ptr %p, ptr addrspace(1) %b2.as, align 8
  %b2.gen = addrspacecast ptr addrspace(1) %b2.as to ptr
  %r2 = call i32 @cudaLaunchDevice(ptr @b, ptr %b2.gen, %struct.dim3 %g, %struct.dim3 %blk, i32 64, ptr %s) #0
  %b3 = call ptr @cudaGetParameterBufferV2(ptr @a, %struct.dim3 %g, %struct.dim3 %g, i32 8)
  store i32 3, ptr %b3, align 4
  %r3 = call i32 @cudaLaunchDeviceV2(ptr %b3, ptr null)
  %b4 = call ptr @cudaGetParameterBuffer(i64 64, i64 4)
  store i32 4, ptr %b4, align 4
  %r4 = call i32 @cudaLaunchDevice(ptr @a, ptr %b4, %struct.dim3 %blk, %struct.dim3 %blk, i32 0, ptr null)
  ret void
}

; The existing declaration is used; no second one is added.
declare ptr @__cudaCDP1GetParameterBufferV2(ptr, %struct.dim3, %struct.dim3, i32)

declare ptr @cudaGetParameterBuffer(i64, i64)
declare ptr @cudaGetParameterBufferV2(ptr, %struct.dim3, %struct.dim3, i32)
declare i32 @cudaLaunchDevice(ptr, ptr, %struct.dim3, %struct.dim3, i32, ptr)
declare i32 @cudaLaunchDeviceV2(ptr, ptr)

; CHECK: declare ptr @__cudaCDP1GetParameterBufferV2(ptr, %struct.dim3, %struct.dim3, i32)
; CHECK-NOT: declare ptr @__cudaCDP1GetParameterBufferV2
; CHECK: declare i32 @__cudaCDP1LaunchDeviceV2(ptr, ptr, %struct.dim3, %struct.dim3, i32, ptr)

attributes #0 = { "nvvm.cdp.variant"="2" }
