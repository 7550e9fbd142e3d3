; Rule 9 (strip_spurious_convergent): convergent is removed from calls to
; (and declarations of) intrinsics that never need it; convergent
; operations (barriers, shuffles) and ordinary device functions keep it.
; RUN: nvpass-cli run --pipeline pretreat %s | FileCheck %s
; RUN: nvpass-cli run --pipeline pretreat,pretreat %s | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

; CHECK: declare i32 @llvm.nvvm.read.ptx.sreg.tid.x(){{$}}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x() #0
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare double @llvm.nvvm.fma.rn.d(double, double, double)
; CHECK: declare void @llvm.nvvm.barrier0() #0
declare void @llvm.nvvm.barrier0() #0
declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)
declare void @helper()

; CHECK-LABEL: define void @k(ptr %p, double %x)
; CHECK-NEXT:    %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(){{$}}
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 4, i1 false) nounwind{{$}}
; CHECK-NEXT:    %f = call double @llvm.nvvm.fma.rn.d(double %x, double %x, double %x){{$}}
; CHECK-NEXT:    call void @llvm.nvvm.barrier0() #0
; CHECK-NEXT:    %s = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %t, i32 0, i32 31) #0
; CHECK-NEXT:    call void @helper() #0
define void @k(ptr %p, double %x) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x() #0
  call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 4, i1 false) #1
  %f = call double @llvm.nvvm.fma.rn.d(double %x, double %x, double %x) convergent
  call void @llvm.nvvm.barrier0() #0
  %s = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %t, i32 0, i32 31) #0
  call void @helper() #0
  ret void
}

attributes #0 = { convergent }
attributes #1 = { convergent nounwind }
