target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.dim3 = type { i32, i32, i32 }

@g0 = internal addrspace(1) global [4 x float] zeroinitializer, align 4
@g1 = internal addrspace(3) global [4 x float] undef, align 4
@g2 = internal addrspace(4) constant [4 x float] zeroinitializer, align 4
@g4 = internal addrspace(3) global [4 x float] undef, align 4

define ptr addrspace(1) @f0() #0 !dbg !4 {
entry:
  %v0 = atomicrmw add ptr addrspacecast (ptr addrspace(4) @g2 to ptr), i32 150 seq_cst, align 4, !dbg !5
  %v1 = fadd contract float 0x7FF8000000000000, -2.500000e-01, !dbg !7
  %v2 = inttoptr i64 0 to ptr, !dbg !6
  store float %v1, ptr addrspace(3) @g1, align 4, !dbg !7
  br i1 false, label %bb0, label %bb1, !dbg !5
bb0:
  switch i32 %v0, label %bb6 [ i32 0, label %bb4 i32 1, label %bb3 i32 2, label %bb5 ], !dbg !5
bb4:
  br label %bb3, !dbg !7
bb5:
  %v3 = addrspacecast ptr %v2 to ptr addrspace(3), !dbg !6
  %v4 = zext i1 false to i32, !dbg !6
  store ptr %v2, ptr addrspace(3) %v3, align 4, !dbg !5
  %v5 = zext i1 true to i32, !dbg !6
  %v6 = addrspacecast ptr %v2 to ptr addrspace(3), !dbg !6
  br label %bb3, !dbg !7
bb6:
  %v7 = addrspacecast ptr addrspace(3) @g4 to ptr, !dbg !6
  %v8 = addrspacecast ptr addrspacecast (ptr addrspace(1) @g0 to ptr) to ptr addrspace(3), !dbg !7
  store i32 %v0, ptr addrspace(3) @g4, align 4, !dbg !5
  store i32 272, ptr addrspace(1) @g0, align 4, !dbg !5
  %v9 = sitofp i32 %v0 to float, !dbg !7
  store ptr addrspacecast (ptr addrspace(4) @g2 to ptr), ptr addrspacecast (ptr addrspace(3) @g1 to ptr), align 4, !dbg !6
  %v10 = load float, ptr addrspace(4) @g2, align 4, !dbg !6
  call void @ext_sink(ptr addrspacecast (ptr addrspace(4) @g2 to ptr)), !dbg !6
  %v11 = fptosi float 0.000000e+00 to i32, !dbg !7
  %v12 = fsub contract float %v9, %v9, !dbg !6
  %v13 = getelementptr inbounds i32, ptr addrspace(3) %v8, i64 1, !dbg !5
  %v14 = load i64, ptr addrspace(3) @g4, align 4, !dbg !5
  br label %bb3, !dbg !5
bb3:
  %v15 = phi ptr addrspace(4) [ null, %bb0 ], [ null, %bb4 ], [ null, %bb5 ], [ null, %bb6 ], !dbg !5
  br label %bb2, !dbg !5
bb1:
  br label %bb2, !dbg !5
bb2:
  %v16 = phi i64 [ 1, %bb3 ], [ 538, %bb1 ], !dbg !6
  ret ptr addrspace(1) null, !dbg !5
}

define ptx_kernel void @k0(float %a0) #0 "nvpass-unknown"="kept" !dbg !8 {
entry:
  %v0 = alloca float, align 4, !dbg !10
  %v1 = alloca i32, align 4, !dbg !11
  %v2 = getelementptr float, ptr addrspace(3) @g1, i64 937, !dbg !9
  %v3 = getelementptr inbounds float, ptr %v1, i64 537, !dbg !10
  ret void, !dbg !9
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1
declare void @llvm.nvvm.barrier0() #2
declare void @ext_sink(ptr) #0

attributes #0 = { convergent nounwind "target-cpu"="sm_90" "target-features"="+ptx85,+sm_90" }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { convergent nocallback nounwind }

!llvm.module.flags = !{!13, !14}
!nvvm.annotations = !{!15}
!nvvmir.version = !{!12}
!llvm.dbg.cu = !{!1}

!0 = !DIFile(filename: "gen.cu", directory: "/tmp")
!1 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !0, producer: "nvpass-gen", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!2 = !{null}
!3 = !DISubroutineType(types: !2)
!4 = distinct !DISubprogram(name: "f0", scope: !0, file: !0, line: 1, type: !3, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !1)
!5 = !DILocation(line: 2, column: 3, scope: !4)
!6 = !DILocation(line: 3, column: 4, scope: !4)
!7 = !DILocation(line: 4, column: 5, scope: !4)
!8 = distinct !DISubprogram(name: "k0", scope: !0, file: !0, line: 2, type: !3, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !1)
!9 = !DILocation(line: 12, column: 3, scope: !8)
!10 = !DILocation(line: 13, column: 4, scope: !8)
!11 = !DILocation(line: 14, column: 5, scope: !8)
!12 = !{i32 2, i32 0}
!13 = !{i32 1, !"wchar_size", i32 4}
!14 = !{i32 2, !"Debug Info Version", i32 3}
!15 = !{ptr @k0, !"kernel", i32 1}
