; Annotations without an attribute form stay in the metadata and are
; reported as Missed remarks: global targets (texture/surface/managed),
; unknown keys, and values that are not integer constants.
; RUN: nvpass-cli run --pipeline kernel-attr-transplant %s --pass-remarks-missed=kernel-attr-transplant -o %t 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: FileCheck --input-file %t %s
; RUN: nvpass-cli run --pipeline kernel-attr-transplant --kernel-attr-transplant-strip %s | FileCheck %s --check-prefix=STRIP

@tex = addrspace(1) global i64 0
@surf = addrspace(1) global i64 0
@man = addrspace(1) global i32 0

; REMARK: remark: annotation 'texture' of 'tex' has no attribute form; kept in !nvvm.annotations [-Rpass-missed=kernel-attr-transplant]
; REMARK: remark: annotation 'surface' of 'surf' has no attribute form; kept in !nvvm.annotations
; REMARK: remark: annotation 'managed' of 'man' has no attribute form; kept in !nvvm.annotations
; REMARK: remark: annotation 'align' of 'k' has no attribute form; kept in !nvvm.annotations
; REMARK: remark: annotation 'maxntidw' of 'k' has no attribute form
; REMARK: remark: annotation 'maxnreg' of 'k' has no attribute form
; REMARK: remark: annotation 'grid_constant' of 'k' has no attribute form

; CHECK-LABEL: define void @k(ptr %p)
; CHECK-SAME: "nvvm.kernel" "nvvm.annotations_transplanted"
; CHECK-NOT: maxnreg
; CHECK: !nvvm.annotations = !{!0, !1, !2, !3}
; CHECK: !3 = !{ptr @k, !"kernel", i32 1, !"align", i32 65544, !"maxntidw", i32 3, !"maxnreg", !"sixty", !"grid_constant", !4}

; Strip mode keeps the entries it could not migrate, minus the consumed pairs.
; STRIP: define ptx_kernel void @k(
; STRIP: !nvvm.annotations = !{!0, !1, !2, ![[K:[0-9]+]]}
; STRIP: ![[K]] = !{ptr @k, !"align", i32 65544, !"maxntidw", i32 3, !"maxnreg", !"sixty", !"grid_constant", !4}
define void @k(ptr %p) {
  ret void
}

!nvvm.annotations = !{!0, !1, !2, !3}
!0 = !{ptr addrspace(1) @tex, !"texture", i32 1}
!1 = !{ptr addrspace(1) @surf, !"surface", i32 1}
!2 = !{ptr addrspace(1) @man, !"managed", i32 1}
!3 = !{ptr @k, !"kernel", i32 1, !"align", i32 65544, !"maxntidw", i32 3, !"maxnreg", !"sixty", !"grid_constant", !4}
!4 = !{i32 9}
