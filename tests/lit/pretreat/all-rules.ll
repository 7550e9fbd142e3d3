; Every rule firing in one module, checked after one run and after two
; (idempotence), plus the knob's error path and rule-by-rule disabling.
; RUN: nvpass-cli run --pipeline pretreat %s | FileCheck %s
; RUN: nvpass-cli run --pipeline pretreat,pretreat %s | FileCheck %s
; RUN: nvpass-cli run --pipeline pretreat --pretreat-disable=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19 %s \
; RUN:   | FileCheck %s --check-prefix=NONE
; RUN: not nvpass-cli run --pipeline pretreat --pretreat-disable=20 %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=BAD

; BAD: unknown Pretreat rule '20'

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr null, ptr null }]
@g = addrspace(1) global i32 0

declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.assume(i1)
declare i32 @llvm.ptx.read.tid.x()
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

; CHECK-NOT: @llvm.global_ctors
; CHECK-LABEL: define void @k(ptr %p, i1 %c, float %x) "nvvm.kernel" {
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %a = alloca [2 x i64], align 8
; CHECK-NEXT:    call void @llvm.lifetime.start.p0(i64 -1, ptr %a)
; CHECK-NEXT:    %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK-NEXT:    %m = and i32 %t, 255
; CHECK-NEXT:    %w = zext i32 %m to i64
; CHECK-NEXT:    store i64 %w, ptr %a
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr %a, i8 0, i64 16, i1 false){{$}}
; CHECK-NEXT:    %s = select i1 %c, i32 1, i32 0
; CHECK-NEXT:    store i32 %s, ptr %p
; CHECK-NEXT:    store float 1.000000e+00, ptr addrspace(1) @g
; CHECK-NEXT:    %f = fmul float %x, 0x7FF8000000000000
; CHECK-NEXT:    store float %f, ptr %p
; CHECK-NEXT:    br label %exit, !llvm.loop
; CHECK:       exit:
; CHECK-NEXT:    ret void
; CHECK-NEXT:  }
; NONE-LABEL: define void @k(ptr %p, i1 %c, float %x) {
; NONE:         call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %p, i64 undef, i1 false)
; NONE:       dead:
define void @k(ptr %p, i1 %c, float %x) {
entry:
  %a = alloca [2 x i64], align 8
  %q0 = addrspacecast ptr %p to ptr addrspace(1)
  %q = addrspacecast ptr addrspace(1) %q0 to ptr
  %a0 = getelementptr inbounds [2 x i64], ptr %a, i64 0, i64 0
  call void @llvm.lifetime.start.p0(i64 16, ptr %a)
  call void @llvm.memcpy.p0.p0.i64(ptr %q, ptr %p, i64 0, i1 false)
  %t = call i32 @llvm.ptx.read.tid.x()
  %m = and i32 %t, 255
  %w = sext i32 %m to i64
  %w2 = bitcast i64 %w to double
  %w3 = bitcast double %w2 to i64
  store i64 %w3, ptr %a0
  call void @llvm.memset.p0.i64(ptr %a, i8 0, i64 16, i1 false) convergent
  call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %p, i64 undef, i1 false)
  %nc = xor i1 %c, true
  %s = select i1 %nc, i32 0, i32 1
  store i32 %s, ptr %p
  %one = bitcast i32 1065353216 to float
  store float %one, ptr addrspace(1) @g
  call void @llvm.assume(i1 true)
  %f = fmul float %x, 0x7FF8000040000000
  store float %f, ptr %p
  br label %exit, !llvm.loop !1
dead:
  br label %exit
exit:
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
!1 = distinct !{!1, !2, !3}
!2 = !{!"llvm.loop.mustprogress"}
!3 = !{!"llvm.loop.vectorize.enable", i1 true}
