target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.dim3 = type { i32, i32, i32 }

@g0 = internal addrspace(1) global [4 x float] zeroinitializer, align 4
@g1 = internal addrspace(3) global [4 x i32] undef, align 4
@g2 = internal addrspace(4) constant [4 x i32] zeroinitializer, align 4

define internal ptr addrspace(3) @f0(i1 %a0, ptr addrspace(3) noalias nocapture %a1) #0 alwaysinline {
entry:
  %v0 = alloca i32, align 4
  %v1 = load i64, ptr addrspace(1) @g0, align 4
  %v2 = trunc i64 %v1 to i32, !nvpass.fuzz !0
  %v3 = call float @f1(), !nvpass.fuzz !0
  switch i32 %v2, label %bb2 [ i32 0, label %bb0 i32 1, label %bb1 ]
bb1:
  %v4 = load i64, ptr addrspace(1) @g0, align 4
  %v5 = load volatile i32, ptr addrspacecast (ptr addrspace(3) @g1 to ptr), align 4
  %v6 = addrspacecast ptr addrspace(4) @g2 to ptr
  br i1 %a0, label %bb3, label %bb4
bb3:
  ret ptr addrspace(3) %a1
bb4:
  br label %bb0
bb2:
  br label %bb5
bb5:
  %v7 = phi i32 [ 0, %bb2 ], [ %v8, %bb5 ], !nvpass.fuzz !0
  store i32 %v7, ptr addrspace(3) @g1, align 4
  %v9 = fcmp olt float -2.500000e-01, %v3
  %v10 = load i64, ptr addrspace(3) @g1, align 4
  %v11 = select i1 %a0, i1 %a0, i1 %a0, !nvpass.fuzz !0
  %v12 = addrspacecast ptr addrspace(4) null to ptr
  %v13 = addrspacecast ptr addrspace(1) null to ptr
  %v14 = trunc i64 %v10 to i32
  %v15 = sext i32 %v7 to i64
  %v16 = add i64 %v1, %v15
  call void @f2(ptr addrspacecast (ptr addrspace(3) @g1 to ptr), i64 %v16, float -2.500000e-01, ptr addrspace(3) null)
  call void @llvm.nvvm.barrier0()
  %v17 = call float @f1(), !nvpass.fuzz !0
  %v18 = getelementptr inbounds i32, ptr addrspace(4) @g2, i64 %v16
  %v19 = fsub float %v17, %v3
  %v20 = load float, ptr addrspace(1) @g0, align 4
  %v8 = add i32 %v7, 1
  %v21 = icmp slt i32 %v8, %v2
  br i1 %v21, label %bb5, label %bb6, !nvpass.fuzz !0
bb6:
  br label %bb0
bb0:
  %v22 = phi i32 [ %v2, %entry ], [ %v5, %bb4 ], [ %v2, %bb6 ]
  ret ptr addrspace(3) %a1
}

define internal float @f1() #0 alwaysinline "nvpass-unknown"="kept" {
entry:
  %v0 = alloca float, align 4
  %v1 = alloca float, align 4
  %v2 = select i1 true, i1 false, i1 true, !nvpass.fuzz !0
  call void @f2(ptr %v0, i64 1, float 0x7FF8000000000000, ptr addrspace(3) @g1)
  %v3 = addrspacecast ptr addrspace(3) null to ptr, !nvpass.fuzz !0
  %v4 = atomicrmw add ptr addrspace(1) @g0, i32 1 seq_cst, align 4
  %v5 = icmp slt i64 -1, 536
  br label %bb0
bb0:
  %v6 = phi i32 [ 0, %entry ], [ %v7, %bb3 ], !nvpass.fuzz !0
  call void @f2(ptr %v0, i64 0, float -2.500000e-01, ptr addrspace(3) null)
  %v8 = atomicrmw add ptr %v1, i32 %v4 seq_cst, align 4, !nvpass.fuzz !0
  %v9 = trunc i64 190 to i32
  call void @f2(ptr addrspacecast (ptr addrspace(3) @g1 to ptr), i64 -1, float 0.000000e+00, ptr addrspace(3) @g1)
  %v10 = ptrtoint ptr %v3 to i64
  %v11 = xor i64 %v10, %v10
  %v12 = inttoptr i64 %v11 to ptr
  br i1 false, label %bb2, label %bb3, !nvpass.fuzz !0
bb2:
  ret float 0x7FF8000000000000, !nvpass.fuzz !0
bb3:
  %v13 = addrspacecast ptr %v3 to ptr addrspace(3)
  %v7 = add i32 %v6, 1
  %v14 = icmp slt i32 %v7, %v4, !nvpass.fuzz !0
  br i1 %v14, label %bb0, label %bb1
bb1:
  br i1 %v5, label %bb4, label %bb5, !nvpass.fuzz !0
bb4:
  %v15 = icmp eq i32 %v7, %v7, !nvpass.fuzz !0
  store i32 %v7, ptr %v3, align 4
  %v16 = addrspacecast ptr addrspace(4) null to ptr, !nvpass.fuzz !0
  %v17 = select i1 %v5, float 0x7FF8000000000000, float 1.000000e+00, !nvpass.fuzz !0
  %v18 = atomicrmw add ptr %v0, i32 0 seq_cst, align 4
  %v19 = select i1 %v5, i64 -1, i64 -1
  %v20 = getelementptr inbounds float, ptr addrspace(4) @g2, i64 -1, !nvpass.fuzz !0
  call void @llvm.nvvm.barrier0()
  br label %bb6
bb5:
  br label %bb6
bb6:
  %v21 = phi ptr addrspace(1) [ null, %bb4 ], [ null, %bb5 ], !nvpass.fuzz !0
  ret float 0x7FF8000000000000
}

define internal void @f2(ptr %a0, i64 %a1, float %a2, ptr addrspace(3) %a3) #0 noinline {
entry:
  %v0 = alloca i32, align 4
  %v1 = fcmp olt float %a2, %a2, !nvpass.fuzz !0
  %v2 = addrspacecast ptr null to ptr addrspace(1), !nvpass.fuzz !0
  br label %bb0
bb0:
  %v3 = phi i32 [ 0, %entry ], [ %v4, %bb0 ]
  call void @ext_sink(ptr %v0)
  store ptr %a0, ptr %a0, align 4
  %v5 = getelementptr float, ptr addrspace(1) @g0, i64 %a1, !nvpass.fuzz !0
  %v6 = load i64, ptr addrspace(1) %v2, align 4
  call void @ext_sink(ptr %v0), !nvpass.fuzz !0
  %v4 = add i32 %v3, 1
  %v7 = icmp slt i32 %v4, 0
  br i1 %v7, label %bb0, label %bb1
bb1:
  switch i32 %v4, label %bb3 [ i32 0, label %bb2 i32 1, label %bb2 i32 2, label %bb2 ], !nvpass.fuzz !0
bb3:
  br i1 %v1, label %bb4, label %bb5
bb4:
  ret void
bb5:
  %v8 = select i1 %v1, i32 %v4, i32 %v4, !nvpass.fuzz !0
  br i1 %v1, label %bb6, label %bb7
bb6:
  ret void
bb7:
  call void @f2(ptr %v0, i64 %a1, float %a2, ptr addrspace(3) %a3)
  %v9 = atomicrmw add ptr addrspace(3) %a3, i32 %v8 seq_cst, align 4
  %v10 = load i32, ptr addrspace(4) @g2, align 4
  br label %bb8
bb8:
  %v11 = phi i32 [ 0, %bb7 ], [ %v12, %bb8 ]
  %v13 = icmp ugt i32 %v11, %v11
  store ptr %a0, ptr %a0, align 4
  call void @f2(ptr %v0, i64 %a1, float %a2, ptr addrspace(3) %a3)
  call void @f2(ptr null, i64 %a1, float %a2, ptr addrspace(3) null), !nvpass.fuzz !0
  store i32 %v9, ptr %a0, align 4
  %v12 = add i32 %v11, 1
  %v14 = icmp slt i32 %v12, %v4
  br i1 %v14, label %bb8, label %bb9
bb9:
  %v15 = icmp eq ptr addrspacecast (ptr addrspace(3) @g1 to ptr), %v0
  switch i32 %v10, label %bb11 [ i32 0, label %bb10 i32 1, label %bb10 ]
bb11:
  br label %bb10, !nvpass.fuzz !0
bb10:
  %v16 = phi ptr addrspace(1) [ %v2, %bb9 ], [ %v2, %bb9 ], [ %v2, %bb11 ]
  br label %bb2
bb2:
  %v17 = phi ptr addrspace(1) [ %v2, %bb1 ], [ %v2, %bb1 ], [ %v2, %bb1 ], [ %v16, %bb10 ]
  ret void, !nvpass.fuzz !0
}

define ptx_kernel void @k0(float %a0, i64 %a1, ptr %a2, ptr addrspace(1) %a3) #0 "nvpass-unknown"="kept" {
entry:
  %v0 = alloca float, align 4, !nvpass.fuzz !0
  %v1 = alloca float, align 4
  %v2 = addrspacecast ptr %v1 to ptr addrspace(3)
  ret void, !nvpass.fuzz !0
}

define ptx_kernel void @k1(ptr addrspace(1) %a0, float %a1) #0 {
entry:
  br i1 true, label %bb0, label %bb1
bb0:
  ret void
bb1:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1
declare void @llvm.nvvm.barrier0() #2
declare void @ext_sink(ptr) #0

attributes #0 = { convergent nounwind "target-cpu"="sm_90" "target-features"="+ptx85,+sm_90" }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { convergent nocallback nounwind }

!llvm.module.flags = !{!2}
!nvvm.annotations = !{!3, !4, !5}
!nvvmir.version = !{!1}

!0 = !{!"nvpass-fuzz", i32 7}
!1 = !{i32 2, i32 0}
!2 = !{i32 1, !"wchar_size", i32 4}
!3 = !{ptr @k0, !"kernel", i32 1}
!4 = !{ptr @k1, !"kernel", i32 1}
!5 = !{ptr @k1, !"maxntidx", i32 64}
