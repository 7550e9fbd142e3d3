; Each stamped kernel gets a Passed remark, also in the YAML stream.
; RUN: nvpass-cli run --pipeline kernel-attr %s --pass-remarks=kernel-attr -o %t 2>&1 | FileCheck %s
; RUN: nvpass-cli run --pipeline kernel-attr %s --pass-remarks-output=%t.yaml -o %t
; RUN: FileCheck --input-file %t.yaml %s --check-prefix=YAML
; RUN: nvpass-cli run --pipeline KernelAttrPass %s | FileCheck %s --check-prefix=CLASS

; CHECK: remark: marked 'k1' as kernel (nvvm.kernel) [-Rpass=kernel-attr]
; CHECK-NEXT: remark: marked 'k2' as kernel (nvvm.kernel) [-Rpass=kernel-attr]
; CHECK-NOT: remark:

; YAML: --- !Passed
; YAML-NEXT: Pass: kernel-attr
; YAML-NEXT: Name: KernelMarked
; YAML-NEXT: Function: k1

; CLASS: define ptx_kernel void @k1() "nvvm.kernel"
define ptx_kernel void @k1() {
  ret void
}
define void @k2() "kernel" {
  ret void
}
define void @f() {
  ret void
}
