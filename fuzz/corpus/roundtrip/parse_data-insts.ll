target datalayout = "e-i64:64-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @callee(i32, ptr)
declare i32 @vararg(i32, ...)
declare i32 @pers(...)
declare i1 @llvm.type.test(ptr, metadata)

define i32 @all(i32 %a, i32 %b, float %x, ptr %p, <4 x i32> %v, { i32, float } %agg, i1 %c, ptr %ap) personality ptr @pers {
entry:
  %add = add nuw nsw i32 %a, %b
  %sub = sub i32 %a, 1
  %mul = mul nsw i32 %add, %sub
  %ud = udiv exact i32 %a, 2
  %sd = sdiv i32 %a, %b
  %ur = urem i32 %a, 3
  %sr = srem i32 %a, 3
  %sh = shl nuw i32 %a, 1
  %ls = lshr exact i32 %a, 1
  %as = ashr i32 %a, 1
  %an = and i32 %a, %b
  %or = or disjoint i32 %a, 8
  %xo = xor i32 %a, -1
  %fa = fadd fast float %x, 1.000000e+00
  %fs = fsub nnan ninf float %x, %fa
  %fm = fmul contract float %x, %x
  %fd = fdiv arcp float %x, 2.0
  %fr = frem float %x, 3.0
  %fn = fneg nsz float %x
  %ic = icmp ult i32 %a, %b
  %fc = fcmp reassoc olt float %x, 0.0
  %tr = trunc nuw i32 %a to i8
  %ze = zext nneg i8 %tr to i64
  %se = sext i8 %tr to i16
  %fpt = fptrunc float %x to half
  %fpe = fpext float %x to double
  %fui = fptoui float %x to i32
  %fsi = fptosi float %x to i32
  %uif = uitofp nneg i32 %a to float
  %sif = sitofp i32 %a to float
  %pti = ptrtoint ptr %p to i64
  %itp = inttoptr i64 %pti to ptr
  %bc = bitcast i32 %a to float
  %asc = addrspacecast ptr %p to ptr addrspace(1)
  %sel = select nnan i1 %c, float %x, float %fa
  %ee = extractelement <4 x i32> %v, i32 0
  %ie = insertelement <4 x i32> %v, i32 %a, i64 1
  %sv = shufflevector <4 x i32> %v, <4 x i32> poison, <2 x i32> <i32 0, i32 3>
  %ev = extractvalue { i32, float } %agg, 1
  %iv = insertvalue { i32, float } %agg, i32 %a, 0
  %al = alloca i32, align 4
  %al2 = alloca i8, i32 %a, align 16
  %ld = load volatile i32, ptr %p, align 4, !tbaa !0
  %lda = load atomic i32, ptr %p syncscope("block") acquire, align 4
  store i32 %a, ptr %p, align 4
  store atomic volatile i32 %a, ptr %p seq_cst, align 4
  fence syncscope("agent") release
  %cx = cmpxchg weak volatile ptr %p, i32 0, i32 1 syncscope("x") acq_rel monotonic, align 4
  %rmw = atomicrmw volatile add ptr %p, i32 1 seq_cst, align 4
  %rmwf = atomicrmw fmax ptr %p, float 1.0 monotonic, align 4
  %rmwu = atomicrmw uinc_wrap ptr %p, i32 1 monotonic, align 4
  %gep = getelementptr inbounds nuw { i32, [4 x i8] }, ptr %p, i64 0, i32 1, i64 %pti
  %vg = getelementptr i8, ptr %p, <2 x i64> <i64 0, i64 1>
  %fz = freeze i32 %a
  %va = va_arg ptr %ap, i32
  %call = call noundef i32 @callee(i32 noundef %a, ptr nonnull align 8 %p) #0, !srcloc !3
  %tc = tail call fastcc i32 @callee(i32 1, ptr null)
  %mc = call i32 (i32, ...) @vararg(i32 1, double 2.0)
  %ia = call i32 asm sideeffect "mov $0, $1;", "=r,r"(i32 %a)
  %tt = call i1 @llvm.type.test(ptr %p, metadata !"typeid")
  %ob = call i32 @callee(i32 1, ptr null) [ "deopt"(i32 1, ptr %p), "foo"() ]
  %nt = notail call i32 @callee(i32 1, ptr null)
  switch i32 %a, label %def [
    i32 0, label %b0
    i32 1, label %b1
  ]

def:
  %inv = invoke i32 @callee(i32 2, ptr null)
          to label %b0 unwind label %lp

lp:
  %lpv = landingpad { ptr, i32 } cleanup catch ptr null filter [1 x ptr] [ptr null]
  resume { ptr, i32 } %lpv

b0:
  %ph = phi i32 [ %add, %entry ], [ %inv, %def ]
  br i1 %c, label %b1, label %ind

b1:
  br label %loop

loop:
  %i = phi i32 [ 0, %b1 ], [ %inc, %loop ]
  %inc = add i32 %i, 1
  %done = icmp eq i32 %inc, 10
  br i1 %done, label %exit, label %loop, !llvm.loop !1

exit:
  ret i32 0

ind:
  indirectbr ptr blockaddress(@all, %b1), [label %b1, label %exit]

cb:
  callbr void asm "", "r,!i"(i32 %a) to label %exit [label %b1]
}

define i32 @nums(i32 %0) {
  br label %2

2:
  %3 = phi i32 [ 0, %1 ], [ %4, %2 ]
  %4 = add i32 %3, 1
  %5 = icmp eq i32 %4, %0
  br i1 %5, label %6, label %2

6:
  unreachable
}

attributes #0 = { nounwind }

!0 = !{!"int", !2, i64 0}
!1 = distinct !{!1}
!2 = !{!"tbaa root"}
!3 = !{i64 123}
