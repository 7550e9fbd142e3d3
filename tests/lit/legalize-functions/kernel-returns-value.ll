; Rule 4: a kernel must return void (a PTX .entry has no return value).
; The error names the kernel and type; the pass fails.
; RUN: not nvpass-cli run --pipeline legalize-functions %s 2>&1 | FileCheck %s

; CHECK: error: kernel 'k' returns 'i32'; a PTX entry must return void
; CHECK: error: kernel 'k2' returns '%struct.S'; a PTX entry must return void
; CHECK-NOT: define
%struct.S = type { i32 }
define i32 @k() {
  ret i32 1
}
define ptx_kernel %struct.S @k2() {
  ret %struct.S zeroinitializer
}
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
