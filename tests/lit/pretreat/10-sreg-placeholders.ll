; Rule 10 (rewrite_sreg_placeholders): legacy llvm.ptx.read.<sreg> calls
; become llvm.nvvm.read.ptx.sreg.<sreg> (declared on demand, the old
; declaration deleted once unused), and llvm.nvvm.kernel.placeholder()
; calls are deleted. A placeholder of the wrong type is left alone.
; RUN: nvpass-cli run --pipeline pretreat %s | FileCheck %s
; RUN: nvpass-cli run --pipeline pretreat,pretreat %s | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

; CHECK-NOT: declare i32 @llvm.ptx.read.tid.x()
; CHECK-NOT: declare void @llvm.nvvm.kernel.placeholder()
; CHECK: declare i64 @llvm.ptx.read.ctaid.x()
declare i32 @llvm.ptx.read.tid.x()
declare i64 @llvm.ptx.read.clock64()
declare i64 @llvm.ptx.read.ctaid.x()
declare void @llvm.nvvm.kernel.placeholder()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.ptx.read.ntid.x()

; CHECK-LABEL: define void @k(ptr %p)
; CHECK-NEXT:    %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !range ![[R:[0-9]+]]
; CHECK-NEXT:    %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
; CHECK-NEXT:    %c = call i64 @llvm.nvvm.read.ptx.sreg.clock64()
; CHECK-NEXT:    %bad = call i64 @llvm.ptx.read.ctaid.x()
; CHECK-NEXT:    store i32 %t, ptr %p
define void @k(ptr %p) {
  call void @llvm.nvvm.kernel.placeholder()
  %t = call i32 @llvm.ptx.read.tid.x(), !range !0
  %n = call i32 @llvm.ptx.read.ntid.x()
  %c = call i64 @llvm.ptx.read.clock64()
  %bad = call i64 @llvm.ptx.read.ctaid.x()
  store i32 %t, ptr %p
  store i32 %n, ptr %p
  store i64 %c, ptr %p
  store i64 %bad, ptr %p
  ret void
}

; CHECK-DAG: declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK-DAG: declare i64 @llvm.nvvm.read.ptx.sreg.clock64()
; CHECK: ![[R]] = !{i32 0, i32 1024}
!0 = !{i32 0, i32 1024}
