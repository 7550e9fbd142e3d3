; Inlined allocas of a struct nested 40 levels deep are merged: its size is
; found in one walk of the type (walking it again for its alignment and
; its size at every level took time exponential in the depth).
; RUN: nvpass-cli run --pipeline inline-must %s | FileCheck %s

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%s0 = type { i8, i32 }
%s1 = type { i8, %s0 }
%s2 = type { i8, %s1 }
%s3 = type { i8, %s2 }
%s4 = type { i8, %s3 }
%s5 = type { i8, %s4 }
%s6 = type { i8, %s5 }
%s7 = type { i8, %s6 }
%s8 = type { i8, %s7 }
%s9 = type { i8, %s8 }
%s10 = type { i8, %s9 }
%s11 = type { i8, %s10 }
%s12 = type { i8, %s11 }
%s13 = type { i8, %s12 }
%s14 = type { i8, %s13 }
%s15 = type { i8, %s14 }
%s16 = type { i8, %s15 }
%s17 = type { i8, %s16 }
%s18 = type { i8, %s17 }
%s19 = type { i8, %s18 }
%s20 = type { i8, %s19 }
%s21 = type { i8, %s20 }
%s22 = type { i8, %s21 }
%s23 = type { i8, %s22 }
%s24 = type { i8, %s23 }
%s25 = type { i8, %s24 }
%s26 = type { i8, %s25 }
%s27 = type { i8, %s26 }
%s28 = type { i8, %s27 }
%s29 = type { i8, %s28 }
%s30 = type { i8, %s29 }
%s31 = type { i8, %s30 }
%s32 = type { i8, %s31 }
%s33 = type { i8, %s32 }
%s34 = type { i8, %s33 }
%s35 = type { i8, %s34 }
%s36 = type { i8, %s35 }
%s37 = type { i8, %s36 }
%s38 = type { i8, %s37 }
%s39 = type { i8, %s38 }
%s40 = type { i8, %s39 }

define internal void @callee(ptr %p) alwaysinline {
  %a = alloca %s40, align 4
  store ptr %a, ptr %p
  ret void
}

; CHECK-LABEL: define void @k(
; CHECK-NEXT: %a.i = alloca %s40, align 4
; CHECK-NOT: alloca
; CHECK: store ptr %a.i, ptr %p
; CHECK-NOT: alloca
; CHECK: store ptr %a.i, ptr %p
; CHECK-NOT: alloca
; CHECK: ret void
define void @k(ptr %p) {
  call void @callee(ptr %p)
  call void @callee(ptr %p)
  ret void
}
