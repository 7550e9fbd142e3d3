; The V2 entry points: cudaGetParameterBufferV2 already carries the child and
; geometry and is only retargeted; cudaLaunchDeviceV2(buffer, stream) takes
; them from that buffer and becomes the canonical six-operand launch stub. A
; legacy buffer launched by cudaLaunchDeviceV2 has no geometry to thread: it
; keeps the legacy ABI, and its launch is retargeted with its two operands
; (no other call of its CDP-1 stub has another signature; see
; mixed-launch-forms.ll for when one does).
; RUN: nvpass-cli run --pipeline cdp %s | FileCheck %s
; RUN: nvpass-cli run --pipeline cdp %s -o %t 2>&1 | FileCheck %s --check-prefix=WARN

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.dim3 = type { i32, i32, i32 }

define void @child(ptr %p) "nvvm.kernel" {
  ret void
}

; CHECK-LABEL: define void @v2(
; CHECK-NEXT:    %buf = call ptr @__cudaCDP2GetParameterBufferV2(ptr @child, %struct.dim3 %g, %struct.dim3 %b, i32 16){{.*}}
; CHECK-NEXT:    store ptr %p, ptr %buf, align 8
; CHECK-NEXT:    {{%.*}} = call i32 @__cudaCDP2LaunchDeviceV2(ptr @child, ptr %buf, %struct.dim3 %g, %struct.dim3 %b, i32 16, ptr null){{.*}}
define void @v2(ptr %p, %struct.dim3 %g, %struct.dim3 %b) {
  %buf = call ptr @cudaGetParameterBufferV2(ptr @child, %struct.dim3 %g, %struct.dim3 %b, i32 16) #0
  store ptr %p, ptr %buf, align 8
  %r = call i32 @cudaLaunchDeviceV2(ptr %buf, ptr null) #0
  ret void
}

; CHECK-LABEL: define void @legacy_buffer_v2_launch(
; CHECK-NEXT:    %buf = call ptr @cudaGetParameterBuffer(i64 64, i64 8){{.*}}
; CHECK-NEXT:    %r = call i32 @__cudaCDP1LaunchDeviceV2(ptr %buf, ptr null){{.*}}
; WARN: warning: 'cudaGetParameterBuffer' in 'legacy_buffer_v2_launch' keeps the legacy parameter-buffer ABI: it is launched by cudaLaunchDeviceV2, which carries no launch geometry
define void @legacy_buffer_v2_launch() {
  %buf = call ptr @cudaGetParameterBuffer(i64 64, i64 8) #1
  %r = call i32 @cudaLaunchDeviceV2(ptr %buf, ptr null) #1
  ret void
}

declare ptr @cudaGetParameterBuffer(i64, i64)
declare ptr @cudaGetParameterBufferV2(ptr, %struct.dim3, %struct.dim3, i32)
declare i32 @cudaLaunchDeviceV2(ptr, ptr)

; CHECK-DAG: declare ptr @__cudaCDP2GetParameterBufferV2(ptr, %struct.dim3, %struct.dim3, i32)
; CHECK-DAG: declare i32 @__cudaCDP2LaunchDeviceV2(ptr, ptr, %struct.dim3, %struct.dim3, i32, ptr)
; CHECK-DAG: declare i32 @__cudaCDP1LaunchDeviceV2(ptr, ptr)

attributes #0 = { "nvvm.cdp.variant"="2" }
attributes #1 = { "nvvm.cdp.variant"="1" }
