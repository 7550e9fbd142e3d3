; Running `inline` twice equals running it once, for every model: each run
; inlines until no call is accepted (calls exposed by inlining included),
; and every budget is a cap measured on the current IR, so the second run
; makes the same decisions and changes nothing. The small budgets leave
; calls behind on purpose; the recursion (an alwaysinline cycle, a
; self-recursive helper and, for model C, a pair of mutually recursive
; helpers) must not unroll further on the second run.
;
; RUN: nvpass-cli run --pipeline inline %s --inline-budget=24 -o %t.a1
; RUN: nvpass-cli run --pipeline inline %t.a1 --inline-budget=24 --pass-remarks=inline --pass-remarks-missed=inline --stats -o %t.a2 2>%t.a2.err
; RUN: FileCheck --input-file %t.a2.err %s --check-prefix=SECOND
; RUN: FileCheck --input-file %t.a1 %s --check-prefixes=CHECK,A
; RUN: FileCheck --input-file %t.a2 %s --check-prefixes=CHECK,A
; RUN: nvpass-cli run --pipeline inline,inline %s --inline-budget=24 | FileCheck %s --check-prefixes=CHECK,A
;
; RUN: nvpass-cli run --pipeline 'inline<model=llvm>' %s --inline-threshold=5 -o %t.b1
; RUN: nvpass-cli run --pipeline 'inline<model=llvm>' %t.b1 --inline-threshold=5 --pass-remarks=inline --pass-remarks-missed=inline --stats -o %t.b2 2>%t.b2.err
; RUN: FileCheck --input-file %t.b2.err %s --check-prefix=SECOND
; RUN: FileCheck --input-file %t.b1 %s --check-prefixes=CHECK,B
; RUN: FileCheck --input-file %t.b2 %s --check-prefixes=CHECK,B
; RUN: nvpass-cli run --pipeline 'inline<model=llvm>,inline<model=llvm>' %s --inline-threshold=5 | FileCheck %s --check-prefixes=CHECK,B
;
; RUN: nvpass-cli run --pipeline 'inline<model=cgscc>' %s --inline-threshold=5 -o %t.c1
; RUN: nvpass-cli run --pipeline 'inline<model=cgscc>' %t.c1 --inline-threshold=5 --pass-remarks=inline --pass-remarks-missed=inline --stats -o %t.c2 2>%t.c2.err
; RUN: FileCheck --input-file %t.c2.err %s --check-prefix=SECOND
; RUN: FileCheck --input-file %t.c1 %s --check-prefixes=CHECK,C
; RUN: FileCheck --input-file %t.c2 %s --check-prefixes=CHECK,C
; RUN: nvpass-cli run --pipeline 'inline<model=cgscc>,inline<model=cgscc>' %s --inline-threshold=5 | FileCheck %s --check-prefixes=CHECK,C

; SECOND-NOT: ' inlined into
; SECOND-NOT: Number of call sites inlined
; SECOND: not inlined into
; SECOND-NOT: ' inlined into
; SECOND-NOT: Number of call sites inlined

; CHECK-NOT: define linkonce_odr i32 @leaf(
; CHECK-LABEL: define linkonce_odr i32 @mid(
; CHECK-NOT: call
; CHECK: ret i32
define linkonce_odr i32 @leaf(i32 %x) {
  %a = add i32 %x, 1
  %b = mul i32 %a, %x
  %c = xor i32 %b, 7
  %d = sub i32 %c, %a
  ret i32 %d
}

define linkonce_odr i32 @mid(i32 %x) {
  %a = call i32 @leaf(i32 %x)
  %b = call i32 @leaf(i32 %a)
  %c = add i32 %a, %b
  ret i32 %c
}

; CHECK-LABEL: define i32 @user(
; A-COUNT-1: call i32 @mid(
; B-COUNT-3: call i32 @mid(
; C-COUNT-3: call i32 @mid(
; CHECK-NOT: call
; CHECK: ret i32
define i32 @user(i32 %x) {
  %a = call i32 @mid(i32 %x)
  %b = call i32 @mid(i32 %a)
  %c = call i32 @mid(i32 %b)
  %d = call i32 @leaf(i32 %c)
  ret i32 %d
}

; CHECK-LABEL: define internal i32 @even(
; CHECK: call i32 @odd(
; CHECK-LABEL: define internal i32 @odd(
; CHECK: call i32 @even(
define internal i32 @even(i32 %n) alwaysinline {
  %m = sub i32 %n, 1
  %r = call i32 @odd(i32 %m)
  ret i32 %r
}

define internal i32 @odd(i32 %n) alwaysinline {
  %m = sub i32 %n, 1
  %r = call i32 @even(i32 %m)
  ret i32 %r
}

; CHECK-LABEL: define linkonce_odr i32 @self(
; CHECK: call i32 @self(
define linkonce_odr i32 @self(i32 %n) {
entry:
  %z = icmp eq i32 %n, 0
  br i1 %z, label %done, label %again
again:
  %m = sub i32 %n, 1
  %r = call i32 @self(i32 %m)
  ret i32 %r
done:
  ret i32 0
}

; Model C prices the call to @pong (same component) with its multiplier
; and inlines it once; the copied call back into the component is marked
; `noinline` so that no later visit or run unrolls further.
; CHECK-LABEL: define linkonce_odr i32 @ping(
; A: call i32 @pong(
; B: call i32 @pong(
; C: call i32 @ping({{.*}}) noinline
; A-LABEL: define linkonce_odr i32 @pong(
; B-LABEL: define linkonce_odr i32 @pong(
; C-NOT: define linkonce_odr i32 @pong(
define linkonce_odr i32 @ping(i32 %n) {
  %m = add i32 %n, 1
  %r = call i32 @pong(i32 %m)
  ret i32 %r
}

define linkonce_odr i32 @pong(i32 %n) {
  %m = add i32 %n, 2
  %r = call i32 @ping(i32 %m)
  ret i32 %r
}

; CHECK-LABEL: define i32 @rec_user(
; CHECK: call i32 @even(
; CHECK: call i32 @self(
; CHECK: call i32 @ping(
define i32 @rec_user(i32 %n) {
  %a = call i32 @even(i32 %n)
  %b = call i32 @self(i32 %a)
  %c = call i32 @ping(i32 %b)
  ret i32 %c
}
