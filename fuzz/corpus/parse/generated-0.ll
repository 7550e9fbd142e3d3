target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.dim3 = type { i32, i32, i32 }

@g0 = internal addrspace(1) global [4 x float] zeroinitializer, align 4
@g1 = internal addrspace(3) global [4 x float] undef, align 4
@g2 = internal addrspace(4) constant [4 x float] zeroinitializer, align 4

define float @f0() #0 alwaysinline !dbg !5 {
entry:
  %v0 = alloca float, align 4, !dbg !8
  %v1 = load volatile float, ptr addrspace(1) @g0, align 4, !nvpass.fuzz !0, !dbg !8
  store float %v1, ptr addrspacecast (ptr addrspace(4) @g2 to ptr), align 4, !dbg !7
  %v2 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !7
  %v3 = shl i32 1, %v2, !nvpass.fuzz !0, !dbg !8
  %v4 = load i32, ptr %v0, align 4, !dbg !7
  %v5 = select i1 true, i32 %v2, i32 1, !dbg !7
  %v6 = getelementptr i32, ptr addrspace(3) @g1, i64 1, !nvpass.fuzz !0, !dbg !6
  ret float %v1, !dbg !7
}

define i32 @f1(ptr addrspace(1) %a0, float %a1, i64 %a2) #0 !dbg !9 {
entry:
  call void @llvm.nvvm.barrier0(), !dbg !10
  %v0 = or i64 %a2, %a2, !nvpass.fuzz !0, !dbg !10
  %v1 = select i1 false, ptr addrspacecast (ptr addrspace(4) @g2 to ptr), ptr null, !dbg !12
  switch i32 242, label %bb4 [ i32 0, label %bb1 i32 1, label %bb2 i32 2, label %bb3 ], !nvpass.fuzz !0, !dbg !11
bb1:
  store float %a1, ptr addrspace(4) @g2, align 4, !dbg !10
  switch i32 397, label %bb8 [ i32 0, label %bb6 i32 1, label %bb7 ], !dbg !10
bb6:
  %v2 = fmul float %a1, %a1, !nvpass.fuzz !0, !dbg !12
  %v3 = xor i32 1, 672, !dbg !10
  %v4 = icmp eq ptr addrspacecast (ptr addrspace(4) @g2 to ptr), %v1, !dbg !12
  %v5 = call ptr @cudaGetParameterBuffer(i64 64, i64 16), !dbg !11
  store i32 %v3, ptr %v5, align 4, !dbg !11
  %v6 = call i32 @cudaLaunchDevice(ptr @k1, ptr %v5, %struct.dim3 { i32 3, i32 1, i32 1 }, %struct.dim3 { i32 32, i32 1, i32 1 }, i32 0, ptr null), !nvpass.fuzz !0, !dbg !12
  %v7 = call float @f0(), !dbg !11
  %v8 = getelementptr i32, ptr %v1, i64 %a2, !dbg !11
  %v9 = atomicrmw add ptr %v1, i32 %v6 seq_cst, align 4, !dbg !11
  %v10 = call i32 @f1(ptr addrspace(1) null, float %v2, i64 0), !dbg !10
  br label %bb5, !dbg !12
bb7:
  %v11 = load i32, ptr addrspace(3) @g1, align 4, !nvpass.fuzz !0, !dbg !11
  %v12 = load i32, ptr addrspace(4) @g2, align 4, !dbg !12
  store ptr %v1, ptr addrspace(3) @g1, align 4, !dbg !10
  br label %bb5, !dbg !10
bb8:
  %v13 = load i64, ptr addrspace(1) %a0, align 4, !dbg !11
  %v14 = fsub float %a1, %a1, !dbg !12
  %v15 = zext i32 172 to i64, !dbg !11
  %v16 = mul i32 -1, 0, !dbg !12
  %v17 = load i64, ptr addrspace(1) %a0, align 4, !dbg !10
  %v18 = select i1 true, ptr addrspace(1) %a0, ptr addrspace(1) %a0, !nvpass.fuzz !0, !dbg !10
  br label %bb5, !dbg !10
bb5:
  %v19 = phi float [ %v2, %bb6 ], [ 1.000000e+00, %bb7 ], [ %a1, %bb8 ], !nvpass.fuzz !0, !dbg !12
  br label %bb0, !nvpass.fuzz !0, !dbg !12
bb2:
  br label %bb0, !dbg !10
bb3:
  br label %bb0, !dbg !11
bb4:
  br label %bb0, !dbg !12
bb0:
  %v20 = phi i64 [ 0, %bb5 ], [ %a2, %bb2 ], [ %a2, %bb3 ], [ 1, %bb4 ], !nvpass.fuzz !0, !dbg !12
  ret i32 -1, !dbg !12
}

define ptx_kernel void @k0() #0 "nvpass-unknown"="kept" !dbg !13 {
entry:
  %v0 = addrspacecast ptr addrspacecast (ptr addrspace(3) @g1 to ptr) to ptr addrspace(4), !nvpass.fuzz !0, !dbg !15
  %v1 = call ptr @cudaGetParameterBuffer(i64 64, i64 16), !nvpass.fuzz !0, !dbg !16
  store i32 -1, ptr %v1, align 4, !dbg !16
  %v2 = call i32 @cudaLaunchDevice(ptr @k1, ptr %v1, %struct.dim3 { i32 62, i32 1, i32 1 }, %struct.dim3 { i32 32, i32 1, i32 1 }, i32 0, ptr null), !dbg !14
  store ptr null, ptr addrspace(4) @g2, align 4, !dbg !14
  call void @ext_sink(ptr addrspacecast (ptr addrspace(4) @g2 to ptr)), !dbg !15
  br i1 true, label %bb0, label %bb1, !dbg !15
bb0:
  %v3 = mul nuw i64 1, 0, !dbg !16
  store ptr null, ptr addrspacecast (ptr addrspace(3) @g1 to ptr), align 4, !dbg !14
  %v4 = addrspacecast ptr addrspace(4) %v0 to ptr, !dbg !16
  br i1 true, label %bb3, label %bb4, !dbg !15
bb3:
  ret void, !dbg !15
bb4:
  %v5 = load i64, ptr addrspace(1) @g0, align 4, !dbg !16
  store i32 0, ptr addrspace(1) @g0, align 4, !dbg !16
  %v6 = add nsw i64 %v5, %v5, !nvpass.fuzz !0, !dbg !15
  %v7 = fadd float -2.500000e-01, 1.000000e+00, !dbg !14
  br label %bb2, !nvpass.fuzz !0, !dbg !16
bb1:
  br i1 true, label %bb5, label %bb6, !dbg !14
bb5:
  ret void, !dbg !14
bb6:
  %v8 = call float @f0(), !dbg !15
  br label %bb2, !nvpass.fuzz !0, !dbg !16
bb2:
  %v9 = phi ptr addrspace(1) [ @g0, %bb4 ], [ null, %bb6 ], !nvpass.fuzz !0, !dbg !16
  %v10 = load volatile i64, ptr addrspace(1) %v9, align 4, !dbg !16
  ret void, !dbg !16
}

define ptx_kernel void @k1(float %a0, i64 %a1) #0 !dbg !17 {
entry:
  %v0 = atomicrmw add ptr addrspace(1) @g0, i32 702 seq_cst, align 4, !dbg !20
  br i1 true, label %bb0, label %bb1, !dbg !19
bb0:
  br label %bb2, !dbg !18
bb1:
  %v1 = select i1 false, ptr addrspacecast (ptr addrspace(3) @g1 to ptr), ptr addrspacecast (ptr addrspace(1) @g0 to ptr), !nvpass.fuzz !0, !dbg !19
  %v2 = atomicrmw add ptr %v1, i32 517 seq_cst, align 4, !dbg !20
  %v3 = load i32, ptr addrspace(4) @g2, align 4, !dbg !19
  %v4 = call float @f0(), !nvpass.fuzz !0, !dbg !20
  store ptr %v1, ptr addrspace(4) @g2, align 4, !nvpass.fuzz !0, !dbg !19
  %v5 = call i32 @f1(ptr addrspace(1) @g0, float %a0, i64 0), !dbg !19
  %v6 = atomicrmw add ptr addrspace(4) @g2, i32 %v3 seq_cst, align 4, !dbg !20
  br i1 true, label %bb3, label %bb4, !dbg !18
bb3:
  %v7 = atomicrmw add ptr %v1, i32 -1 seq_cst, align 4, !dbg !18
  %v8 = fadd float %a0, -2.500000e-01, !dbg !18
  store i32 %v7, ptr addrspace(1) @g0, align 4, !dbg !20
  %v9 = addrspacecast ptr addrspace(3) null to ptr, !dbg !20
  store float 1.000000e+00, ptr addrspace(1) @g0, align 4, !dbg !18
  %v10 = load i64, ptr addrspace(1) @g0, align 4, !dbg !18
  %v11 = select i1 true, i32 100, i32 -1, !dbg !20
  br label %bb5, !dbg !18
bb4:
  %v12 = icmp eq ptr %v1, %v1, !dbg !20
  %v13 = fcmp olt float %a0, %a0, !dbg !20
  %v14 = addrspacecast ptr %v1 to ptr addrspace(4), !dbg !20
  %v15 = fadd float %v4, %v4, !nvpass.fuzz !0, !dbg !19
  store i32 %v2, ptr addrspace(1) @g0, align 4, !dbg !20
  %v16 = addrspacecast ptr %v1 to ptr addrspace(4), !dbg !18
  br label %bb5, !dbg !20
bb5:
  %v17 = phi float [ %v8, %bb3 ], [ %v4, %bb4 ], !dbg !20
  br label %bb2, !dbg !18
bb2:
  %v18 = phi i1 [ true, %bb0 ], [ true, %bb5 ], !dbg !20
  ret void, !dbg !20
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1
declare void @llvm.nvvm.barrier0() #2
declare void @ext_sink(ptr) #0
declare ptr @cudaGetParameterBuffer(i64, i64)
declare i32 @cudaLaunchDevice(ptr, ptr, %struct.dim3, %struct.dim3, i32, ptr)

attributes #0 = { convergent nounwind "target-cpu"="sm_90" "target-features"="+ptx85,+sm_90" }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { convergent nocallback nounwind }

!llvm.module.flags = !{!22, !23}
!nvvm.annotations = !{!24}
!nvvmir.version = !{!21}
!llvm.dbg.cu = !{!2}

!0 = !{!"nvpass-fuzz", i32 7}
!1 = !DIFile(filename: "gen.cu", directory: "/tmp")
!2 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "nvpass-gen", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!3 = !{null}
!4 = !DISubroutineType(types: !3)
!5 = distinct !DISubprogram(name: "f0", scope: !1, file: !1, line: 1, type: !4, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2)
!6 = !DILocation(line: 2, column: 3, scope: !5)
!7 = !DILocation(line: 3, column: 4, scope: !5)
!8 = !DILocation(line: 4, column: 5, scope: !5)
!9 = distinct !DISubprogram(name: "f1", scope: !1, file: !1, line: 2, type: !4, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2)
!10 = !DILocation(line: 12, column: 3, scope: !9)
!11 = !DILocation(line: 13, column: 4, scope: !9)
!12 = !DILocation(line: 14, column: 5, scope: !9)
!13 = distinct !DISubprogram(name: "k0", scope: !1, file: !1, line: 3, type: !4, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2)
!14 = !DILocation(line: 22, column: 3, scope: !13)
!15 = !DILocation(line: 23, column: 4, scope: !13)
!16 = !DILocation(line: 24, column: 5, scope: !13)
!17 = distinct !DISubprogram(name: "k1", scope: !1, file: !1, line: 4, type: !4, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2)
!18 = !DILocation(line: 32, column: 3, scope: !17)
!19 = !DILocation(line: 33, column: 4, scope: !17)
!20 = !DILocation(line: 34, column: 5, scope: !17)
!21 = !{i32 2, i32 0}
!22 = !{i32 1, !"wchar_size", i32 4}
!23 = !{i32 2, !"Debug Info Version", i32 3}
!24 = !{ptr @k1, !"kernel", i32 1}
