; A call is looked at only when its callee is a definition whose name does
; not start with `llvm.`: a function with an intrinsic's name is passed
; over quietly even when the module defines it (LLVM's verifier rejects
; such a definition; the reader keeps it). Each function is asked about
; once per run, so the second call of each callee must get the answer of
; the first.
; RUN: nvpass-cli run --pipeline inline %s --pass-remarks=inline --pass-remarks-missed=inline 2>%t.err | FileCheck %s
; RUN: FileCheck --input-file %t.err %s --check-prefix=REMARK
; RUN: nvpass-cli run --pipeline 'inline<model=llvm>' %s | FileCheck %s

; REMARK: 'helper' inlined into 'caller'
; REMARK: 'helper' inlined into 'caller'
; REMARK-NOT: llvm.twice

; CHECK-LABEL: define i32 @caller(
; CHECK: call i32 @llvm.twice(i32 %x)
; CHECK-NOT: call i32 @helper
; CHECK: call i32 @llvm.twice(
; CHECK-NOT: call i32 @helper
; CHECK: ret i32

define i32 @llvm.twice(i32 %x) {
  %r = add i32 %x, %x
  ret i32 %r
}

define linkonce_odr i32 @helper(i32 %x) {
  %r = mul i32 %x, 3
  ret i32 %r
}

define i32 @caller(i32 %x) {
  %a = call i32 @llvm.twice(i32 %x)
  %b = call i32 @helper(i32 %a)
  %c = call i32 @llvm.twice(i32 %b)
  %d = call i32 @helper(i32 %c)
  ret i32 %d
}
