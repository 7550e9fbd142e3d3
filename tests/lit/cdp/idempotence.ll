; Running the pair twice, or again on its own output, changes nothing more;
; the two passes also pair up when the launch expander runs first (the buffer
; pass recognizes launches already rewritten to stubs). Each pass alone
; rewrites only its own calls.
; RUN: nvpass-cli run --pipeline cdp,cdp %s | FileCheck %s
; RUN: nvpass-cli run --pipeline cdp %s -o %t && nvpass-cli run --pipeline cdp %t | FileCheck %s
; RUN: nvpass-cli run --pipeline cdp-launch-expander,cdp-parameter-buffer %s | FileCheck %s
; RUN: nvpass-cli run --pipeline CDPParameterBuffer,CDPLaunchExpander %s | FileCheck %s
; RUN: nvpass-cli run --pipeline cdp-parameter-buffer %s | FileCheck %s --check-prefix=ONLYBUF
; RUN: nvpass-cli run --pipeline cdp-launch-expander %s | FileCheck %s --check-prefix=ONLYLAUNCH

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.dim3 = type { i32, i32, i32 }

define ptx_kernel void @child(i32 %n) {
  ret void
}

; CHECK-LABEL: define void @parent(
; CHECK-NEXT:    [[BUF:%.*]] = call ptr @__cudaCDP2GetParameterBufferV2(ptr @child, %struct.dim3 %g, %struct.dim3 %b, i32 0){{.*}}
; CHECK-NEXT:    store i32 %n, ptr [[BUF]], align 4
; CHECK-NEXT:    %r = call i32 @__cudaCDP2LaunchDeviceV2(ptr @child, ptr [[BUF]], %struct.dim3 %g, %struct.dim3 %b, i32 0, ptr null){{.*}}
; CHECK-NEXT:    ret void
; CHECK-NOT:   __cudaCDP1
; CHECK-NOT:   call {{.*}}@cudaGetParameterBuffer

; ONLYBUF-LABEL: define void @parent(
; ONLYBUF-NEXT:    [[BUF:%.*]] = call ptr @__cudaCDP2GetParameterBufferV2(ptr @child, %struct.dim3 %g, %struct.dim3 %b, i32 0){{.*}}
; ONLYBUF-NEXT:    store i32 %n, ptr [[BUF]], align 4
; ONLYBUF-NEXT:    %r = call i32 @cudaLaunchDevice(ptr @child, ptr [[BUF]],

; ONLYLAUNCH-LABEL: define void @parent(
; ONLYLAUNCH-NEXT:    %buf = call ptr @cudaGetParameterBuffer(i64 64, i64 4)
; ONLYLAUNCH-NEXT:    store i32 %n, ptr %buf, align 4
; ONLYLAUNCH-NEXT:    %r = call i32 @__cudaCDP2LaunchDeviceV2(ptr @child, ptr %buf,
define void @parent(i32 %n, %struct.dim3 %g, %struct.dim3 %b) {
  %buf = call ptr @cudaGetParameterBuffer(i64 64, i64 4)
  store i32 %n, ptr %buf, align 4
  %r = call i32 @cudaLaunchDevice(ptr @child, ptr %buf, %struct.dim3 %g, %struct.dim3 %b, i32 0, ptr null) #0
  ret void
}

declare ptr @cudaGetParameterBuffer(i64, i64)
declare i32 @cudaLaunchDevice(ptr, ptr, %struct.dim3, %struct.dim3, i32, ptr)

attributes #0 = { "nvvm.cdp.variant"="2" }
