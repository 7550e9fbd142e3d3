; A recursive helper: the spec's vote is poisoned by its own generic
; recursive call; with split-conflicts the clone calls itself.
; RUN: nvpass-cli run --pipeline ipmsp %s | FileCheck %s --check-prefix=SPEC
; RUN: nvpass-cli run --pipeline 'ipmsp<split-conflicts>' %s | FileCheck %s --check-prefix=SPLIT
define void @r(ptr %p, i32 %n) {
  store i32 %n, ptr %p
  %c = icmp eq i32 %n, 0
  br i1 %c, label %done, label %more
more:
  %q = getelementptr i32, ptr %p, i64 1
  %m = sub i32 %n, 1
  call void @r(ptr %q, i32 %m)
  br label %done
done:
  ret void
}
; SPEC-NOT: @r.global
; SPLIT: define internal void @r.global(ptr addrspace(1) %p, i32 %n)
; SPLIT: call void @r.global(ptr addrspace(1)
define ptx_kernel void @k(ptr %g) {
  call void @r(ptr %g, i32 3)
  ret void
}
