; The module-wide budget refuses @big in @mid (the module has 14
; instructions, 2 left under 16, @big costs 9 - 2 * 2 = 5), then @mid
; (cost 0) is inlined into @k and erased. A function the cap refused is
; requeued when erasures shrink the module below its size at that refusal;
; an erased one is no longer visited, so it must leave that list, or the
; pass requeues it after every round and never ends.
; RUN: nvpass-cli run --pipeline inline %s --inline-total-budget=16 --pass-remarks=inline --pass-remarks-missed=inline 2>%t.err | FileCheck %s
; RUN: FileCheck --input-file %t.err %s --check-prefix=REMARK
target triple = "nvptx64-nvidia-cuda"

; REMARK: remark: 'mid' inlined into 'k' with (cost=0
; REMARK: remark: 'big' not inlined into 'mid' because the inline budget is exhausted (cost=5, budget=2)
; REMARK: remark: 'big' not inlined into 'k' because the inline budget is exhausted (cost=5, budget=4)

; CHECK: define linkonce_odr i32 @big(i32 %x)
define linkonce_odr i32 @big(i32 %x) {
  %a = add i32 %x, 1
  %b = mul i32 %a, 3
  %c = add i32 %b, 5
  %d = mul i32 %c, 7
  %e = add i32 %d, 11
  %f = mul i32 %e, 13
  %g = add i32 %f, 17
  %h = mul i32 %g, 19
  ret i32 %h
}

; CHECK-NOT: @mid
define linkonce_odr i32 @mid(i32 %x) {
  %r = call i32 @big(i32 %x)
  ret i32 %r
}

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK-NEXT: %r.i = call i32 @big(i32 %x)
define ptx_kernel void @k(ptr %p, i32 %x) {
  %r = call i32 @mid(i32 %x)
  store i32 %r, ptr %p, align 4
  ret void
}
