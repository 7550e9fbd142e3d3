; Every alloca keyword survives a round trip.
; RUN: nvpass-cli run --pipeline '' %s | FileCheck %s

; CHECK: %a = alloca inalloca i32, align 4
; CHECK: %b = alloca swifterror ptr, align 8
; CHECK: %c = alloca i32, i32 4, align 16, addrspace(5)
define void @f() {
  %a = alloca inalloca i32, align 4
  %b = alloca swifterror ptr, align 8
  %c = alloca i32, i32 4, align 16, addrspace(5)
  ret void
}
