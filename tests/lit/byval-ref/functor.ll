; A functor passed by value whose only use is as `this` of a call to a
; callee that only reads it (here not at all): rule 1 follows the pointer
; into the callee's parameter, up to four calls deep, and through -O0
; spill slots. A callee that writes through it, a chain deeper than that,
; or a spill slot that escapes keeps byval.
; RUN: nvpass-cli run --pipeline byval-ref %s | FileCheck %s
%plus = type { i8 }

define linkonce_odr i32 @plus_call(ptr %this, i32 %a, i32 %b) {
  %s = add i32 %a, %b
  ret i32 %s
}
define linkonce_odr void @clobber(ptr %this) {
  store i8 0, ptr %this
  ret void
}

; CHECK-LABEL: define private i32 @reduce.byref(ptr %op, i32 %a) alwaysinline {
define linkonce_odr i32 @reduce(ptr byval(%plus) align 1 %op, i32 %a) {
  %r = call i32 @plus_call(ptr %op, i32 %a, i32 1)
  ret i32 %r
}
; -O0 style: `this` spilled to a slot and reloaded.
; CHECK-LABEL: define linkonce_odr i32 @spilled_call(ptr %this, i32 %a)
define linkonce_odr i32 @spilled_call(ptr %this, i32 %a) {
  %slot = alloca ptr, align 8
  call void @llvm.lifetime.start.p0(i64 8, ptr %slot)
  store ptr %this, ptr %slot, align 8
  %t = load ptr, ptr %slot, align 8
  %v = load i8, ptr %t
  %z = zext i8 %v to i32
  %r = add i32 %z, %a
  call void @llvm.lifetime.end.p0(i64 8, ptr %slot)
  ret i32 %r
}
; CHECK-LABEL: define private i32 @spill.byref(ptr %op) alwaysinline {
define linkonce_odr i32 @spill(ptr byval(%plus) align 1 %op) {
  %slot = alloca ptr, align 8
  store ptr %op, ptr %slot, align 8
  %p = load ptr, ptr %slot, align 8
  %r = call i32 @spilled_call(ptr %p, i32 2)
  ret i32 %r
}
; CHECK-LABEL: define linkonce_odr i32 @spill_escapes(ptr byval(%plus) align 1 %op)
define linkonce_odr i32 @spill_escapes(ptr byval(%plus) align 1 %op) {
  %slot = alloca ptr, align 8
  store ptr %op, ptr %slot, align 8
  call void @ext(ptr %slot)
  ret i32 0
}
declare void @ext(ptr)
declare void @llvm.lifetime.start.p0(i64, ptr)
declare void @llvm.lifetime.end.p0(i64, ptr)

; CHECK-LABEL: define linkonce_odr i32 @writes(ptr byval(%plus) align 1 %op)
define linkonce_odr i32 @writes(ptr byval(%plus) align 1 %op) {
  call void @clobber(ptr %op)
  ret i32 0
}
; Five levels: @deep -> @d1 -> @d2 -> @d3 -> @d4 -> @d5 (which reads).
; CHECK-LABEL: define linkonce_odr i32 @deep(ptr byval(%plus) align 1 %op)
define linkonce_odr i32 @deep(ptr byval(%plus) align 1 %op) {
  %r = call i32 @d1(ptr %op)
  ret i32 %r
}
define linkonce_odr i32 @d1(ptr %p) {
  %r = call i32 @d2(ptr %p)
  ret i32 %r
}
define linkonce_odr i32 @d2(ptr %p) {
  %r = call i32 @d3(ptr %p)
  ret i32 %r
}
define linkonce_odr i32 @d3(ptr %p) {
  %r = call i32 @d4(ptr %p)
  ret i32 %r
}
define linkonce_odr i32 @d4(ptr %p) {
  %r = call i32 @d5(ptr %p)
  ret i32 %r
}
define linkonce_odr i32 @d5(ptr %p) {
  %v = load i8, ptr %p
  %r = zext i8 %v to i32
  ret i32 %r
}

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: call i32 @reduce.byref(ptr %f, i32 %x)
; CHECK: call i32 @writes(ptr byval(%plus) align 1 %f)
; CHECK: call i32 @deep(ptr byval(%plus) align 1 %f)
; CHECK: call i32 @spill.byref(ptr %f)
; CHECK: call i32 @spill_escapes(ptr byval(%plus) align 1 %f)
define ptx_kernel void @k(ptr %out, i32 %x) {
  %f = alloca %plus, align 1
  %r = call i32 @reduce(ptr byval(%plus) align 1 %f, i32 %x)
  %w = call i32 @writes(ptr byval(%plus) align 1 %f)
  %d = call i32 @deep(ptr byval(%plus) align 1 %f)
  %sp = call i32 @spill(ptr byval(%plus) align 1 %f)
  %se = call i32 @spill_escapes(ptr byval(%plus) align 1 %f)
  %s = add i32 %r, %w
  %t0 = add i32 %s, %d
  %t1 = add i32 %t0, %sp
  %t = add i32 %t1, %se
  store i32 %t, ptr %out
  ret void
}
