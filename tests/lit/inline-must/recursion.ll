; Spec 002 "Recursive always-inline": a cycle is not inlined; the caller
; gets the remark "not AlwaysInline into <caller>" and the cycle stays.
; Declarations and interposable definitions get the same remark.
; RUN: nvpass-cli run --pipeline inline-must %s --pass-remarks-missed=inline-must 2>%t.err | FileCheck %s
; RUN: FileCheck --input-file %t.err %s --check-prefix=REMARK

define internal i32 @even(i32 %n) alwaysinline {
  %c = icmp eq i32 %n, 0
  br i1 %c, label %yes, label %no
yes:
  ret i32 1
no:
  %m = sub i32 %n, 1
  %r = call i32 @odd(i32 %m)
  ret i32 %r
}

define internal i32 @odd(i32 %n) alwaysinline {
  %c = icmp eq i32 %n, 0
  br i1 %c, label %yes, label %no
yes:
  ret i32 0
no:
  %m = sub i32 %n, 1
  %r = call i32 @even(i32 %m)
  ret i32 %r
}

define internal i32 @self(i32 %n) alwaysinline {
  %r = call i32 @self(i32 %n)
  ret i32 %r
}

declare i32 @ext(i32) alwaysinline

define weak i32 @weakdef(i32 %n) alwaysinline {
  ret i32 %n
}

; CHECK-LABEL: define i32 @user(
; CHECK: call i32 @even(
; CHECK: call i32 @self(
; CHECK: call i32 @ext(
; CHECK: call i32 @weakdef(
define i32 @user(i32 %n) {
  %a = call i32 @even(i32 %n)
  %b = call i32 @self(i32 %a)
  %c = call i32 @ext(i32 %b)
  %d = call i32 @weakdef(i32 %c)
  ret i32 %d
}

; REMARK-DAG: remark: odd not AlwaysInline into even (recursive cycle)
; REMARK-DAG: remark: even not AlwaysInline into odd (recursive cycle)
; REMARK-DAG: remark: self not AlwaysInline into self (recursive cycle)
; REMARK-DAG: remark: even not AlwaysInline into user (recursive cycle)
; REMARK-DAG: remark: self not AlwaysInline into user (recursive cycle)
; REMARK-DAG: remark: ext not AlwaysInline into user (callee is a declaration)
; REMARK-DAG: remark: weakdef not AlwaysInline into user (callee is interposable)
