; With split-conflicts, the first call's clone resolves its return space,
; which makes the second call's argument global: the same run sends it to
; the same clone, where before a second run was needed. The spec's single
; vote is POISON (the second argument is an unclassified call result) and
; nothing changes.
; RUN: nvpass-cli run --pipeline 'ipmsp<split-conflicts>' %s -o %t.ll
; RUN: FileCheck %s --check-prefix=SPLIT < %t.ll
; RUN: nvpass-cli run --pipeline 'ipmsp<split-conflicts>' %t.ll | FileCheck %s --check-prefix=SPLIT
; RUN: nvpass-cli run --pipeline ipmsp %s | FileCheck %s --check-prefix=SPEC
target triple = "nvptx64-nvidia-cuda"

; SPEC-NOT: @pick.
define ptr @pick(ptr %p) {
  ret ptr %p
}

; SPLIT: define internal ptr addrspace(1) @pick.global(ptr addrspace(1) %p)
; SPLIT-NOT: define {{.*}}@pick.
; SPLIT-LABEL: define ptx_kernel void @k(
; SPLIT: %[[R:[0-9]+]] = call ptr addrspace(1) @pick.global(ptr addrspace(1)
; SPLIT: call ptr addrspace(1) @pick.global(ptr addrspace(1) %[[R]])
; SPEC-LABEL: define ptx_kernel void @k(
; SPEC: %r = call ptr @pick(ptr %a)
; SPEC: %s = call ptr @pick(ptr %r)
define ptx_kernel void @k(ptr %a) {
  %r = call ptr @pick(ptr %a)
  %s = call ptr @pick(ptr %r)
  store i32 0, ptr %s, align 4
  ret void
}
