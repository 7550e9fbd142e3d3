; Rule 19 (drop_empty_ctor_dtor_entries): null-function entries of
; llvm.global_ctors / llvm.global_dtors go; an array left empty is deleted
; (LLVM 19's NVPTX back end rejects any non-empty one, nulls included).
; RUN: nvpass-cli run --pipeline pretreat %s | FileCheck %s
; RUN: nvpass-cli run --pipeline pretreat,pretreat %s | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

; CHECK: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @init, ptr null }]
; CHECK-NOT: @llvm.global_dtors
; CHECK: @keep = global [2 x { i32, ptr, ptr }] zeroinitializer
@llvm.global_ctors = appending global [3 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr null, ptr null }, { i32, ptr, ptr } { i32 65535, ptr @init, ptr null }, { i32, ptr, ptr } zeroinitializer]
@llvm.global_dtors = appending global [2 x { i32, ptr, ptr }] zeroinitializer
@keep = global [2 x { i32, ptr, ptr }] zeroinitializer

define void @init() {
  ret void
}
