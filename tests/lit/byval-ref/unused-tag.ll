; An empty tag object passed by value to a linkonce_odr helper that never
; reads it: the helper may be replaced at link time by an equivalent body,
; so it is cloned (private, alwaysinline) rather than changed, every call
; site is retargeted whatever its argument is, and the original, now
; unused, is deleted.
; RUN: nvpass-cli run --pipeline byval-ref %s | FileCheck %s
; RUN: nvpass-cli run --pipeline byval-ref --stats %s 2>&1 | FileCheck %s --check-prefix=STATS
; Idempotence: a second run finds nothing to do.
; RUN: nvpass-cli run --pipeline byval-ref %s -o %t && nvpass-cli run --pipeline byval-ref --stats %t 2>&1 | FileCheck %s --check-prefix=IDEM
; IDEM: @add.byref(
; IDEM-NOT: byval-ref -
%tag = type { i8 }
@escaped = global ptr null

; CHECK-NOT: define linkonce_odr i32 @add(
; CHECK-LABEL: define private i32 @add.byref(i32 %a, i32 %b, ptr noundef %op) alwaysinline #0 {
; CHECK-NEXT:    %s = add i32 %a, %b
define linkonce_odr i32 @add(i32 %a, i32 %b, ptr noundef byval(%tag) align 1 %op) #0 {
  %s = add i32 %a, %b
  ret i32 %s
}

; CHECK-LABEL: define ptx_kernel void @k(
; The unused parameter accepts any argument, even an escaping one.
; CHECK: call i32 @add.byref(i32 %x, i32 1, ptr noundef %t)
; CHECK: call i32 @add.byref(i32 %r, i32 2, ptr noundef %e)
define ptx_kernel void @k(ptr %out, i32 %x) {
  %t = alloca %tag, align 1
  %e = alloca %tag, align 1
  store ptr %e, ptr @escaped
  %r = call i32 @add(i32 %x, i32 1, ptr noundef byval(%tag) align 1 %t)
  %r2 = call i32 @add(i32 %r, i32 2, ptr noundef byval(%tag) align 1 %e)
  store i32 %r2, ptr %out
  ret void
}
; CHECK: attributes #0 = { nounwind }
attributes #0 = { nounwind }

; STATS-DAG: 1 byval-ref - Number of by-reference clones created
; STATS-DAG: 2 byval-ref - Number of call-site byval arguments now passed by reference
