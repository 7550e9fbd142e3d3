; Remarks are Analysis remarks: shown only with --pass-remarks-analysis
; (not --pass-remarks), and written to --pass-remarks-output as
; "--- !Analysis" documents. Kernels come in module order; every criterion
; of the predicate and the legacy annotation select a kernel; declarations
; and device functions are skipped.
; RUN: nvpass-cli run --pipeline kernel-info %s --pass-remarks=kernel-info -o %t 2>&1 | FileCheck %s --check-prefix=PASSED --allow-empty
; RUN: nvpass-cli run -j 1 --pipeline kernel-info %s --pass-remarks-analysis=kernel-info -o %t 2>&1 | FileCheck %s --check-prefix=ORDER
; RUN: nvpass-cli run -j 1 --pipeline KernelInfoPrinter %s --pass-remarks-output=%t.yaml -o %t
; RUN: FileCheck --input-file %t.yaml %s --check-prefix=YAML
; Kernels analyzed on four threads are still reported in module order.
; RUN: nvpass-cli run -j 4 --pipeline kernel-info %s --pass-remarks-analysis=kernel-info -o %t 2>&1 | FileCheck %s --check-prefix=ORDER
; RUN: nvpass-cli run -j 4 --pipeline KernelInfoPrinter %s --pass-remarks-output=%t.yaml4 -o %t
; RUN: FileCheck --input-file %t.yaml4 %s --check-prefix=YAML

; PASSED-NOT: remark

; ORDER-COUNT-19: in function 'by_cc'
; ORDER-COUNT-19: in function 'by_attr'
; ORDER-COUNT-19: in function 'by_transplanted'
; ORDER-COUNT-19: in function 'by_legacy'
; ORDER-COUNT-19: in function 'by_annotation'
; ORDER-NOT: remark

; YAML: --- !Analysis
; YAML-NEXT: Pass: kernel-info
; YAML-NEXT: Name: regs
; YAML-NEXT: Function: by_cc
; YAML-NEXT: Args:
; YAML-NEXT:   - String: 'kernel-info: '
; YAML-NEXT:   - Metric: regs
; YAML-NEXT:   - String: ' in function '''
; YAML-NEXT:   - Function: by_cc
; YAML-NEXT:   - String: ''' = '
; YAML-NEXT:   - Value: '1'
; YAML-NEXT: ...
; YAML-NEXT: --- !Analysis
; YAML-NEXT: Pass: kernel-info
; YAML-NEXT: Name: smem
; YAML: Name: tma_ops
; YAML-NEXT: Function: by_cc
; YAML: Name: regs
; YAML-NEXT: Function: by_attr

define ptx_kernel void @by_cc(i32 %x) {
  %y = add i32 %x, 1
  ret void
}
define void @by_attr() "nvvm.kernel" {
  ret void
}
define void @by_transplanted() "nvvm.annotations_transplanted" {
  ret void
}
define void @by_legacy() "kernel" {
  ret void
}
define void @by_annotation() {
  ret void
}
declare ptx_kernel void @declared()
define void @device() {
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @by_annotation, !"kernel", i32 1}
