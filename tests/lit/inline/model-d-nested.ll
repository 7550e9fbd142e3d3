; Model D's bonus follows inlining. @leaf, with a warp-collective call,
; is inlined into @mid; @mid then carries model D's bonus (spec 001
; "NVPTX Opcode Tag 9 Bonus") and @k inlines it although its 60 additions
; alone cost more than the threshold. @leaf2, @mid2 and @k2 are the same
; without the warp call: @k2 keeps its call of @mid2.
; RUN: nvpass-cli run --pipeline 'inline<model=llvm>' %s --pass-remarks=inline --pass-remarks-missed=inline 2>%t.err | FileCheck %s
; RUN: FileCheck --input-file %t.err %s --check-prefix=REMARK

; CHECK-LABEL: define i32 @mid(
; CHECK-NOT: call i32 @leaf(
; CHECK: call void @llvm.nvvm.bar.warp.sync(i32 -1)
; CHECK-LABEL: define i32 @k(
; CHECK-NOT: call i32 @mid(
; CHECK: call void @llvm.nvvm.bar.warp.sync(i32 -1)
; CHECK: ret i32
; CHECK-LABEL: define i32 @k2(
; CHECK: call i32 @mid2(
; REMARK-DAG: 'mid' inlined into 'k' with (cost=270, threshold=2225)
; REMARK-DAG: 'mid2' not inlined into 'k2' because too costly to inline (cost=265, threshold=225)

define internal i32 @leaf(i32 %x) {
  call void @llvm.nvvm.bar.warp.sync(i32 -1)
  ret i32 %x
}

define internal i32 @leaf2(i32 %x) {
  ret i32 %x
}

define i32 @mid(i32 %x) {
  %l = call i32 @leaf(i32 %x)
  %a0 = add i32 %l, 1
  %a1 = add i32 %a0, 2
  %a2 = add i32 %a1, 3
  %a3 = add i32 %a2, 4
  %a4 = add i32 %a3, 5
  %a5 = add i32 %a4, 6
  %a6 = add i32 %a5, 7
  %a7 = add i32 %a6, 8
  %a8 = add i32 %a7, 9
  %a9 = add i32 %a8, 10
  %a10 = add i32 %a9, 11
  %a11 = add i32 %a10, 12
  %a12 = add i32 %a11, 13
  %a13 = add i32 %a12, 14
  %a14 = add i32 %a13, 15
  %a15 = add i32 %a14, 16
  %a16 = add i32 %a15, 17
  %a17 = add i32 %a16, 18
  %a18 = add i32 %a17, 19
  %a19 = add i32 %a18, 20
  %a20 = add i32 %a19, 21
  %a21 = add i32 %a20, 22
  %a22 = add i32 %a21, 23
  %a23 = add i32 %a22, 24
  %a24 = add i32 %a23, 25
  %a25 = add i32 %a24, 26
  %a26 = add i32 %a25, 27
  %a27 = add i32 %a26, 28
  %a28 = add i32 %a27, 29
  %a29 = add i32 %a28, 30
  %a30 = add i32 %a29, 31
  %a31 = add i32 %a30, 32
  %a32 = add i32 %a31, 33
  %a33 = add i32 %a32, 34
  %a34 = add i32 %a33, 35
  %a35 = add i32 %a34, 36
  %a36 = add i32 %a35, 37
  %a37 = add i32 %a36, 38
  %a38 = add i32 %a37, 39
  %a39 = add i32 %a38, 40
  %a40 = add i32 %a39, 41
  %a41 = add i32 %a40, 42
  %a42 = add i32 %a41, 43
  %a43 = add i32 %a42, 44
  %a44 = add i32 %a43, 45
  %a45 = add i32 %a44, 46
  %a46 = add i32 %a45, 47
  %a47 = add i32 %a46, 48
  %a48 = add i32 %a47, 49
  %a49 = add i32 %a48, 50
  %a50 = add i32 %a49, 51
  %a51 = add i32 %a50, 52
  %a52 = add i32 %a51, 53
  %a53 = add i32 %a52, 54
  %a54 = add i32 %a53, 55
  %a55 = add i32 %a54, 56
  %a56 = add i32 %a55, 57
  %a57 = add i32 %a56, 58
  %a58 = add i32 %a57, 59
  %a59 = add i32 %a58, 60
  ret i32 %a59
}

define i32 @mid2(i32 %x) {
  %l = call i32 @leaf2(i32 %x)
  %a0 = add i32 %l, 1
  %a1 = add i32 %a0, 2
  %a2 = add i32 %a1, 3
  %a3 = add i32 %a2, 4
  %a4 = add i32 %a3, 5
  %a5 = add i32 %a4, 6
  %a6 = add i32 %a5, 7
  %a7 = add i32 %a6, 8
  %a8 = add i32 %a7, 9
  %a9 = add i32 %a8, 10
  %a10 = add i32 %a9, 11
  %a11 = add i32 %a10, 12
  %a12 = add i32 %a11, 13
  %a13 = add i32 %a12, 14
  %a14 = add i32 %a13, 15
  %a15 = add i32 %a14, 16
  %a16 = add i32 %a15, 17
  %a17 = add i32 %a16, 18
  %a18 = add i32 %a17, 19
  %a19 = add i32 %a18, 20
  %a20 = add i32 %a19, 21
  %a21 = add i32 %a20, 22
  %a22 = add i32 %a21, 23
  %a23 = add i32 %a22, 24
  %a24 = add i32 %a23, 25
  %a25 = add i32 %a24, 26
  %a26 = add i32 %a25, 27
  %a27 = add i32 %a26, 28
  %a28 = add i32 %a27, 29
  %a29 = add i32 %a28, 30
  %a30 = add i32 %a29, 31
  %a31 = add i32 %a30, 32
  %a32 = add i32 %a31, 33
  %a33 = add i32 %a32, 34
  %a34 = add i32 %a33, 35
  %a35 = add i32 %a34, 36
  %a36 = add i32 %a35, 37
  %a37 = add i32 %a36, 38
  %a38 = add i32 %a37, 39
  %a39 = add i32 %a38, 40
  %a40 = add i32 %a39, 41
  %a41 = add i32 %a40, 42
  %a42 = add i32 %a41, 43
  %a43 = add i32 %a42, 44
  %a44 = add i32 %a43, 45
  %a45 = add i32 %a44, 46
  %a46 = add i32 %a45, 47
  %a47 = add i32 %a46, 48
  %a48 = add i32 %a47, 49
  %a49 = add i32 %a48, 50
  %a50 = add i32 %a49, 51
  %a51 = add i32 %a50, 52
  %a52 = add i32 %a51, 53
  %a53 = add i32 %a52, 54
  %a54 = add i32 %a53, 55
  %a55 = add i32 %a54, 56
  %a56 = add i32 %a55, 57
  %a57 = add i32 %a56, 58
  %a58 = add i32 %a57, 59
  %a59 = add i32 %a58, 60
  ret i32 %a59
}

define i32 @k(i32 %x) {
  %r = call i32 @mid(i32 %x)
  ret i32 %r
}

define i32 @k2(i32 %x) {
  %r = call i32 @mid2(i32 %x)
  ret i32 %r
}

declare void @llvm.nvvm.bar.warp.sync(i32)
