; Parsing and printing with an empty pipeline keeps the function.
; RUN: nvpass-cli run --pipeline '' %s | FileCheck %s

; CHECK: define void @f(
; CHECK: ret void
define void @f(i32 %x) {
entry:
  ret void
}
