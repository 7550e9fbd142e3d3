; inline<model=llvm>: model B (threshold 225, instruction cost 5, call
; penalty 25) with LLVM-style remarks; noinline is never inlined; recursive
; calls are not inlined. model=cgscc is accepted, other models are refused.
; RUN: nvpass-cli run --pipeline 'inline<model=llvm>' %s --pass-remarks=inline --pass-remarks-missed=inline 2>%t.err | FileCheck %s
; RUN: FileCheck --input-file %t.err %s --check-prefix=REMARK
; RUN: nvpass-cli run --pipeline 'inline<model=llvm>' --inline-threshold=10 --inline-instr-cost=20 --inline-call-penalty=0 %s | FileCheck %s --check-prefix=LOW
; RUN: nvpass-cli run --pipeline 'inline<model=cgscc>' %s | FileCheck %s
; RUN: not nvpass-cli run --pipeline 'inline<model=gpt>' %s 2>&1 | FileCheck %s --check-prefix=BAD

; cost = 3 * 5 - (5 * 2 + 25) = -20; with instruction cost 20 and no call
; penalty, 3 * 20 - 20 * 2 = 20, not below threshold 10.
define linkonce_odr i32 @small(i32 %x) {
  %a = add i32 %x, 1
  %b = mul i32 %a, 3
  %c = sub i32 %b, %x
  ret i32 %c
}

define internal i32 @never(i32 %x) noinline {
  ret i32 %x
}

define internal i32 @rec(i32 %x) {
  %c = icmp eq i32 %x, 0
  br i1 %c, label %done, label %more
more:
  %y = sub i32 %x, 1
  %r = call i32 @rec(i32 %y)
  ret i32 %r
done:
  ret i32 0
}

; CHECK-LABEL: define i32 @user(
; CHECK-NOT: call i32 @small
; CHECK: call i32 @never(
; CHECK: call i32 @rec(
; LOW-LABEL: define i32 @user(
; LOW: call i32 @small(
define i32 @user(i32 %x) {
  %a = call i32 @small(i32 %x)
  %b = call i32 @never(i32 %a)
  %c = call i32 @rec(i32 %b)
  ret i32 %c
}

; REMARK-DAG: remark: 'small' inlined into 'user' with (cost=-20, threshold=225): cost within threshold and budget
; REMARK-DAG: remark: 'never' not inlined into 'user' because it should never be inlined (cost=never): noinline function attribute
; REMARK-DAG: remark: 'rec' not inlined into 'rec' because it should never be inlined (cost=never): recursive call
; BAD: unknown model 'gpt'; valid models: nvidia, llvm, cgscc
