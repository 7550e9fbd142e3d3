; --kernel-attr-transplant-strip removes the consumed pairs (an entry left
; empty is dropped, an emptied !nvvm.annotations is deleted) and gives each
; migrated kernel the ptx_kernel convention so llc-19 still emits .entry.
; RUN: nvpass-cli run --pipeline kernel-attr-transplant --kernel-attr-transplant-strip=true %s | FileCheck %s
; RUN: nvpass-cli run --pipeline kernel-attr-transplant --kernel-attr-transplant-strip=true %s -o %t
; RUN: nvpass-cli run --pipeline kernel-attr-transplant --kernel-attr-transplant-strip=true %t | FileCheck %s
; RUN: not nvpass-cli run --pipeline kernel-attr-transplant --kernel-attr-transplant-strip=maybe %s 2>&1 | FileCheck %s --check-prefix=BAD

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK-SAME: "nvvm.kernel" "nvvm.maxntid"="128" "nvvm.annotations_transplanted"
define void @k() {
  ret void
}

; A device function keeps its convention.
; CHECK-LABEL: define void @d(
; CHECK-SAME: "nvvm.minctasm"="4"
define void @d() {
  ret void
}

; CHECK-NOT: !nvvm.annotations
!nvvm.annotations = !{!0, !1}
!0 = !{ptr @k, !"kernel", i32 1, !"maxntidx", i32 128}
!1 = !{ptr @d, !"minctasm", i32 4}

; BAD: invalid value 'maybe' for option '--kernel-attr-transplant-strip'
