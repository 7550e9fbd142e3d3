; Spec 002 "CDP Launch Expansion", "Input and Output IR Shape": the legacy
; buffer allocation gets the child kernel and launch geometry of its launch,
; the launch is retargeted with its operands kept. Flag "1" selects CDP-1.
; RUN: nvpass-cli run --pipeline cdp %s | FileCheck %s

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.dim3 = type { i32, i32, i32 }

define ptx_kernel void @child_kernel(ptr %p, i32 %n) {
  ret void
}

; CHECK-LABEL: define void @parent(
; CHECK-NEXT:    [[BUF:%.*]] = call ptr @__cudaCDP1GetParameterBufferV2(ptr @child_kernel, %struct.dim3 %grid, %struct.dim3 %block, i32 %smem){{.*}}
; CHECK-NEXT:    store ptr %arg0, ptr [[BUF]], align 8
; CHECK-NEXT:    %pbuf.1 = getelementptr i8, ptr [[BUF]], i64 8
; CHECK-NEXT:    store i32 %arg1, ptr %pbuf.1, align 4
; CHECK-NEXT:    %r = call i32 @__cudaCDP1LaunchDeviceV2(ptr @child_kernel, ptr [[BUF]], %struct.dim3 %grid, %struct.dim3 %block, i32 %smem, ptr %stream){{.*}}
; CHECK-NEXT:    ret void
define void @parent(ptr %arg0, i32 %arg1, %struct.dim3 %grid, %struct.dim3 %block, i32 %smem, ptr %stream) {
  %pbuf = call ptr @cudaGetParameterBuffer(i64 64, i64 16) #0
  store ptr %arg0, ptr %pbuf, align 8
  %pbuf.1 = getelementptr i8, ptr %pbuf, i64 8
  store i32 %arg1, ptr %pbuf.1, align 4
  %r = call i32 @cudaLaunchDevice(ptr @child_kernel, ptr %pbuf, %struct.dim3 %grid, %struct.dim3 %block, i32 %smem, ptr %stream) #0
  ret void
}

declare ptr @cudaGetParameterBuffer(i64, i64)
declare i32 @cudaLaunchDevice(ptr, ptr, %struct.dim3, %struct.dim3, i32, ptr)

; The stubs are declared with the types of the launch's operands.
; CHECK-DAG: declare ptr @__cudaCDP1GetParameterBufferV2(ptr, %struct.dim3, %struct.dim3, i32)
; CHECK-DAG: declare i32 @__cudaCDP1LaunchDeviceV2(ptr, ptr, %struct.dim3, %struct.dim3, i32, ptr)

attributes #0 = { "nvvm.cdp.variant"="1" }
