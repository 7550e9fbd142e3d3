; Rule 1 (strip_consumed_annotations): the "kernel" annotation of a function
; that the transplanter migrated ("nvvm.annotations_transplanted") and that
; the back end still recognizes without it (ptx_kernel) is dropped; other
; keys, and kernel marks the back end still needs, stay.
; RUN: nvpass-cli run --pipeline pretreat %s | FileCheck %s
; RUN: nvpass-cli run --pipeline pretreat,pretreat %s | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @migrated()
define ptx_kernel void @migrated() #0 {
  ret void
}

; CHECK-LABEL: define ptx_kernel void @migrated_bounds()
define ptx_kernel void @migrated_bounds() #0 {
  ret void
}

; Not removed: llc-19 would emit this ccc function as .func without it.
; CHECK-LABEL: define void @ccc_transplanted()
define void @ccc_transplanted() #0 {
  ret void
}

; Not removed: the transplanter has not run.
; Rule 17 stamps "nvvm.kernel" here.
; CHECK-LABEL: define ptx_kernel void @not_transplanted() "nvvm.kernel"
define ptx_kernel void @not_transplanted() {
  ret void
}

; Declarations are not visited.
declare ptx_kernel void @extern_kernel() #0

attributes #0 = { "nvvm.annotations_transplanted" }

; CHECK: !nvvm.annotations = !{![[B:[0-9]+]], ![[C:[0-9]+]], ![[D:[0-9]+]], ![[E:[0-9]+]]}
; @migrated's entry is gone from the list (the node itself may linger
; unreferenced, which LLVM ignores).
; CHECK-DAG: ![[B]] = !{ptr @migrated_bounds, !"maxntidx", i32 128}
; CHECK-DAG: ![[C]] = !{ptr @ccc_transplanted, !"kernel", i32 1}
; CHECK-DAG: ![[D]] = !{ptr @not_transplanted, !"kernel", i32 1}
; CHECK-DAG: ![[E]] = !{ptr @extern_kernel, !"kernel", i32 1}
!nvvm.annotations = !{!0, !1, !2, !3, !4}
!0 = !{ptr @migrated, !"kernel", i32 1}
!1 = !{ptr @migrated_bounds, !"kernel", i32 1, !"maxntidx", i32 128}
!2 = !{ptr @ccc_transplanted, !"kernel", i32 1}
!3 = !{ptr @not_transplanted, !"kernel", i32 1}
!4 = !{ptr @extern_kernel, !"kernel", i32 1}
