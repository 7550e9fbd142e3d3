target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.dim3 = type { i32, i32, i32 }

@g0 = internal addrspace(1) global [4 x i32] zeroinitializer, align 4
@g1 = internal addrspace(3) global [4 x i32] undef, align 4
@g2 = internal addrspace(4) constant [4 x float] zeroinitializer, align 4
@g3 = internal addrspace(1) global [4 x float] zeroinitializer, align 4

define void @f0(ptr addrspace(3) %a0, float %a1, float %a2) #0 noinline {
entry:
  %v0 = alloca float, align 4
  br i1 false, label %bb0, label %bb1
bb0:
  %v1 = sub i64 0, 1
  call void @f0(ptr addrspace(3) %a0, float %a2, float %a2)
  %v2 = load float, ptr addrspace(3) @g1, align 4
  store ptr %v0, ptr %v0, align 4
  switch i32 258, label %bb6 [ i32 0, label %bb4 i32 1, label %bb5 ]
bb4:
  store i32 -1, ptr addrspace(3) @g1, align 4, !nvpass.fuzz !0
  %v3 = atomicrmw add ptr addrspace(3) @g1, i32 -1 seq_cst, align 4, !nvpass.fuzz !0
  %v4 = select i1 true, i1 false, i1 false
  call void @ext_sink(ptr %v0)
  %v5 = load i64, ptr addrspace(1) @g3, align 4
  %v6 = or i32 %v3, %v3, !nvpass.fuzz !0
  call void @f0(ptr addrspace(3) @g1, float %v2, float %a1)
  %v7 = or i32 %v3, %v6
  %v8 = xor i64 %v5, 1, !nvpass.fuzz !0
  %v9 = and i32 %v7, %v6
  br label %bb3, !nvpass.fuzz !0
bb5:
  %v10 = fadd float %a1, %a2
  %v11 = icmp ugt i32 -1, 634
  store ptr %v0, ptr addrspace(3) @g1, align 4
  %v12 = atomicrmw add ptr addrspace(3) %a0, i32 -1 seq_cst, align 4, !nvpass.fuzz !0
  %v13 = load i64, ptr addrspace(3) @g1, align 4
  %v14 = load float, ptr addrspace(4) @g2, align 4, !nvpass.fuzz !0
  %v15 = addrspacecast ptr addrspace(3) @g1 to ptr
  br label %bb3
bb6:
  br label %bb3
bb3:
  %v16 = phi i32 [ %v6, %bb4 ], [ %v12, %bb5 ], [ 1, %bb6 ]
  br label %bb2
bb1:
  br label %bb2
bb2:
  %v17 = phi i32 [ %v16, %bb3 ], [ 0, %bb1 ], !nvpass.fuzz !0
  ret void
}

define float @f1(float %a0) #0 optsize {
entry:
  %v0 = alloca i32, align 4, !nvpass.fuzz !0
  %v1 = alloca i32, align 4, !nvpass.fuzz !0
  switch i32 1, label %bb3 [ i32 0, label %bb1 i32 1, label %bb2 ]
bb1:
  store i32 -1, ptr addrspace(3) @g1, align 4
  %v2 = addrspacecast ptr %v1 to ptr addrspace(4)
  store ptr %v0, ptr addrspace(4) %v2, align 4
  %v3 = addrspacecast ptr addrspace(3) null to ptr
  %v4 = fadd float %a0, %a0
  br label %bb0
bb2:
  %v5 = addrspacecast ptr %v0 to ptr addrspace(1)
  %v6 = zext i1 true to i32, !nvpass.fuzz !0
  %v7 = addrspacecast ptr %v0 to ptr addrspace(1), !nvpass.fuzz !0
  %v8 = fsub float 0x7FF8000000000000, %a0
  %v9 = atomicrmw add ptr addrspace(3) @g1, i32 %v6 seq_cst, align 4
  store i32 %v9, ptr addrspace(1) %v7, align 4
  br i1 false, label %bb4, label %bb5
bb4:
  ret float %v8
bb5:
  switch i32 %v9, label %bb7 [ i32 0, label %bb6 i32 1, label %bb6 ], !nvpass.fuzz !0
bb7:
  %v10 = sext i32 -1 to i64
  %v11 = zext i32 %v6 to i64
  store ptr %v0, ptr %v0, align 4, !nvpass.fuzz !0
  br label %bb6
bb6:
  %v12 = phi ptr addrspace(4) [ null, %bb5 ], [ null, %bb5 ], [ null, %bb7 ]
  store float %v8, ptr addrspace(4) %v12, align 4
  %v13 = select i1 true, i64 214, i64 -1
  %v14 = getelementptr float, ptr addrspace(3) @g1, i64 %v13, !nvpass.fuzz !0
  %v15 = call float @f1(float %a0), !nvpass.fuzz !0
  %v16 = atomicrmw add ptr %v1, i32 %v9 seq_cst, align 4
  %v17 = load i64, ptr %v1, align 4
  br label %bb0
bb3:
  br label %bb0
bb0:
  %v18 = phi ptr addrspace(1) [ null, %bb1 ], [ %v5, %bb6 ], [ null, %bb3 ]
  ret float %a0
}

define ptx_kernel void @k0(ptr addrspace(1) nocapture %a0) #0 {
entry:
  %v0 = alloca float, align 4
  %v1 = alloca i32, align 4
  store float -2.500000e-01, ptr addrspace(1) %a0, align 4
  %v2 = addrspacecast ptr addrspace(4) null to ptr
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1
declare void @llvm.nvvm.barrier0() #2
declare void @ext_sink(ptr) #0

attributes #0 = { convergent nounwind "target-cpu"="sm_90" "target-features"="+ptx85,+sm_90" }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { convergent nocallback nounwind }

!llvm.module.flags = !{!2}
!nvvm.annotations = !{!3}
!nvvmir.version = !{!1}

!0 = !{!"nvpass-fuzz", i32 7}
!1 = !{i32 2, i32 0}
!2 = !{i32 1, !"wchar_size", i32 4}
!3 = !{ptr @k0, !"maxntidx", i32 512}
