; Rule 16 (strip_discarded_loop_metadata): vectorizer/interleave/distribute
; hints leave !llvm.loop; mustprogress and unroll hints (which NVPTX
; honours) stay; a loop node left empty is detached.
; RUN: nvpass-cli run --pipeline pretreat %s | FileCheck %s
; RUN: nvpass-cli run --pipeline pretreat,pretreat %s | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @loops(i32 %n)
; CHECK:         br i1 %c1, label %l1, label %l2, !llvm.loop ![[L1:[0-9]+]]
; CHECK:         br i1 %c2, label %l2, label %l3{{$}}
; CHECK:         br i1 %c3, label %l3, label %exit, !llvm.loop ![[L3:[0-9]+]]
define void @loops(i32 %n) {
entry:
  br label %l1
l1:
  %i = phi i32 [ 0, %entry ], [ %i1, %l1 ]
  %i1 = add i32 %i, 1
  %c1 = icmp slt i32 %i1, %n
  br i1 %c1, label %l1, label %l2, !llvm.loop !0
l2:
  %j = phi i32 [ 0, %l1 ], [ %j1, %l2 ]
  %j1 = add i32 %j, 1
  %c2 = icmp slt i32 %j1, %n
  br i1 %c2, label %l2, label %l3, !llvm.loop !4
l3:
  %k = phi i32 [ 0, %l2 ], [ %k1, %l3 ]
  %k1 = add i32 %k, 1
  %c3 = icmp slt i32 %k1, %n
  br i1 %c3, label %l3, label %exit, !llvm.loop !6
exit:
  ret void
}

; CHECK-DAG: ![[L1]] = distinct !{![[L1]], ![[MP:[0-9]+]], ![[UD:[0-9]+]]}
; CHECK-DAG: ![[MP]] = !{!"llvm.loop.mustprogress"}
; CHECK-DAG: ![[UD]] = !{!"llvm.loop.unroll.disable"}
; CHECK-DAG: ![[L3]] = distinct !{![[L3]], ![[UC:[0-9]+]]}
; CHECK-DAG: ![[UC]] = !{!"llvm.loop.unroll.count", i32 4}
!0 = distinct !{!0, !1, !2, !3}
!1 = !{!"llvm.loop.mustprogress"}
!2 = !{!"llvm.loop.vectorize.enable", i1 true}
!3 = !{!"llvm.loop.unroll.disable"}
!4 = distinct !{!4, !5}
!5 = !{!"llvm.loop.vectorize.width", i32 4}
!6 = distinct !{!6, !7}
!7 = !{!"llvm.loop.unroll.count", i32 4}
