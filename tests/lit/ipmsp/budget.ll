; DoCloneForIpMsp: -1 unlimited, 0 none, N attempts.
; RUN: nvpass-cli run --pipeline ipmsp %s | FileCheck %s --check-prefix=ALL
; RUN: nvpass-cli run --pipeline ipmsp --do-clone-for-ip-msp=0 --dump-ip-msp %s 2>&1 | FileCheck %s --check-prefix=NONE
; RUN: nvpass-cli run --pipeline ipmsp --do-clone-for-ip-msp=1 --dump-ip-msp %s 2>&1 | FileCheck %s --check-prefix=ONE
; RUN: nvpass-cli run --pipeline 'ipmsp<clone-budget=1>' --dump-ip-msp %s 2>&1 | FileCheck %s --check-prefix=ONE
define i32 @a(ptr %p) {
  %v = load i32, ptr %p
  ret i32 %v
}
define i32 @b(ptr %p) {
  %v = load i32, ptr %p
  ret i32 %v
}
; ALL: define internal i32 @a.global
; ALL: define internal i32 @b.global
; NONE: note: avoid cloning of a
; NONE: note: avoid cloning of b
; NONE-NOT: .global(
; ONE: note: a is cloned
; ONE: note: avoid cloning of b
; ONE: define internal i32 @a.global
; ONE-NOT: @b.global
define ptx_kernel void @k(ptr %g) {
  %x = call i32 @a(ptr %g)
  %y = call i32 @b(ptr %g)
  ret void
}
