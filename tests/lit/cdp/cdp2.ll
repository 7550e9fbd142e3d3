; Spec 002 "CDP Variant Selection": flag "2" selects the CDP-2 stubs of both
; tables. The pair is also reachable by its class name.
; RUN: nvpass-cli run --pipeline cdp %s | FileCheck %s
; RUN: nvpass-cli run --pipeline CDPExpansion %s | FileCheck %s

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.dim3 = type { i32, i32, i32 }

define ptx_kernel void @child(i32 %n) {
  ret void
}

; CHECK-LABEL: define void @parent(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[BUF:%.*]] = call ptr @__cudaCDP2GetParameterBufferV2(ptr @child, %struct.dim3 %grid, %struct.dim3 %block, i32 0){{.*}}
; CHECK-NEXT:    store i32 %n, ptr [[BUF]], align 4
; CHECK-NEXT:    %r = call i32 @__cudaCDP2LaunchDeviceV2(ptr @child, ptr [[BUF]], %struct.dim3 %grid, %struct.dim3 %block, i32 0, ptr null){{.*}}
; CHECK-NOT:   __cudaCDP1
define void @parent(i32 %n, %struct.dim3 %grid, %struct.dim3 %block) {
entry:
  %buf = call ptr @cudaGetParameterBuffer(i64 64, i64 4) #0
  store i32 %n, ptr %buf, align 4
  %r = call i32 @cudaLaunchDevice(ptr @child, ptr %buf, %struct.dim3 %grid, %struct.dim3 %block, i32 0, ptr null) #0
  ret void
}

declare ptr @cudaGetParameterBuffer(i64, i64)
declare i32 @cudaLaunchDevice(ptr, ptr, %struct.dim3, %struct.dim3, i32, ptr)

; CHECK-DAG: declare ptr @__cudaCDP2GetParameterBufferV2(ptr, %struct.dim3, %struct.dim3, i32)
; CHECK-DAG: declare i32 @__cudaCDP2LaunchDeviceV2(ptr, ptr, %struct.dim3, %struct.dim3, i32, ptr)

attributes #0 = { "nvvm.cdp.variant"="2" }
