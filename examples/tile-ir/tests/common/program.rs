//! The program the pass tests share: a kernel with a shared-memory tile
//! walked by a pointer loop, helpers taking generic pointers, and functions
//! whose parameters or return force inlining. [`LL`] is the LLVM text,
//! [`tile`] builds the same program with the tile builder.

use nvpass_example_tile_ir::{
    BinOp, CmpPred, Const, FuncBuilder, FuncKind, InlinePolicy, MemSpace, Module, TypeData,
    Visibility,
};

/// The program as LLVM IR.
pub const LL: &str = r#"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.Big = type { [100 x i32] }
%struct.Ret = type { [40 x i32] }

@tile = internal addrspace(3) global [64 x float] zeroinitializer

define internal float @load_elem(ptr %p, i64 %i) {
entry:
  %q = getelementptr i8, ptr %p, i64 %i
  %v = load float, ptr %q
  ret float %v
}

define void @scale(ptr %p, float %f) {
entry:
  %v = load float, ptr %p
  %m = fmul float %v, %f
  store float %m, ptr %p
  ret void
}

define internal void @mixed(ptr %p) {
entry:
  store float 0.000000e+00, ptr %p
  ret void
}

define internal void @big_params(%struct.Big %b) {
entry:
  ret void
}

define internal %struct.Ret @big_ret() {
entry:
  ret %struct.Ret zeroinitializer
}

define internal void @big_noinline(%struct.Big %b) noinline {
entry:
  ret void
}

define internal void @sample(target("nvvm.image") %img) noinline {
entry:
  ret void
}

define linkonce_odr float @twice(float %x) {
entry:
  %r = fadd float %x, %x
  ret float %r
}

define ptx_kernel void @k(ptr %out, i64 %n) {
entry:
  %slot = alloca float
  %s = addrspacecast ptr addrspace(3) @tile to ptr
  br label %loop
loop:
  %p = phi ptr [ %s, %entry ], [ %p.next, %loop ]
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %v = call float @load_elem(ptr %p, i64 0)
  %t = call float @twice(float %v)
  store float %t, ptr %p
  store float %t, ptr %slot
  %p.next = getelementptr i8, ptr %p, i64 4
  %i.next = add i64 %i, 1
  %c = icmp ult i64 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  %w = load float, ptr %slot
  call void @scale(ptr %out, float %w)
  call void @mixed(ptr %out)
  call void @mixed(ptr %s)
  ret void
}
"#;

/// The program of [`LL`] in the tile IR.
pub fn tile() -> Module {
    let mut m = Module::new();
    let gp = m.ptr_ty(MemSpace::Generic);
    let (i32t, i64t) = (m.int_ty(32), m.int_ty(64));
    let f32t = m.ty(TypeData::F32);
    let void = m.void_ty;
    let a100 = m.array_ty(i32t, 100);
    let big = m.struct_ty("struct.Big", &[a100]);
    let a40 = m.array_ty(i32t, 40);
    let ret = m.struct_ty("struct.Ret", &[a40]);
    let image = m.ty(TypeData::Image);
    let a64 = m.array_ty(f32t, 64);
    let zero = m.constant(Const::Zero, a64);
    let tile = m.add_global(
        "tile",
        a64,
        MemSpace::Shared,
        Some(zero),
        Visibility::Private,
    );

    let sig = m.func_ty(f32t, &[gp, i64t]);
    let load_elem = m.add_func("load_elem", sig, FuncKind::Device, Visibility::Private);
    let mut b = FuncBuilder::define(&mut m, load_elem);
    let (p, i) = (b.param(0), b.param(1));
    let q = b.ptr_add(p, i);
    let v = b.load(f32t, q);
    b.ret(Some(v));

    let sig = m.func_ty(void, &[gp, f32t]);
    let scale = m.add_func("scale", sig, FuncKind::Device, Visibility::Public);
    let mut b = FuncBuilder::define(&mut m, scale);
    let (p, f) = (b.param(0), b.param(1));
    let v = b.load(f32t, p);
    let r = b.binary(BinOp::FMul, v, f);
    b.store(r, p);
    b.ret(None);

    let sig = m.func_ty(void, &[gp]);
    let mixed = m.add_func("mixed", sig, FuncKind::Device, Visibility::Private);
    let mut b = FuncBuilder::define(&mut m, mixed);
    let p = b.param(0);
    let z = b.fconst(0.0);
    b.store(z, p);
    b.ret(None);

    let sig = m.func_ty(void, &[big]);
    let f = m.add_func("big_params", sig, FuncKind::Device, Visibility::Private);
    FuncBuilder::define(&mut m, f).ret(None);

    let sig = m.func_ty(ret, &[]);
    let f = m.add_func("big_ret", sig, FuncKind::Device, Visibility::Private);
    let z = m.constant(Const::Zero, ret);
    FuncBuilder::define(&mut m, f).ret(Some(z));

    let sig = m.func_ty(void, &[big]);
    let f = m.add_func("big_noinline", sig, FuncKind::Device, Visibility::Private);
    m.funcs[f].inline = InlinePolicy::Never;
    FuncBuilder::define(&mut m, f).ret(None);

    let sig = m.func_ty(void, &[image]);
    let f = m.add_func("sample", sig, FuncKind::Device, Visibility::Private);
    m.funcs[f].inline = InlinePolicy::Never;
    FuncBuilder::define(&mut m, f).ret(None);

    let sig = m.func_ty(f32t, &[f32t]);
    let twice = m.add_func("twice", sig, FuncKind::Device, Visibility::Odr);
    let mut b = FuncBuilder::define(&mut m, twice);
    let x = b.param(0);
    let r = b.binary(BinOp::FAdd, x, x);
    b.ret(Some(r));

    let sig = m.func_ty(void, &[gp, i64t]);
    let k = m.add_func("k", sig, FuncKind::Kernel, Visibility::Public);
    let mut b = FuncBuilder::define(&mut m, k);
    let (out, n) = (b.param(0), b.param(1));
    let slot = b.alloca(f32t);
    let tile_addr = b.global_addr(tile);
    let s = b.cast_space(tile_addr, MemSpace::Generic);
    let lp = b.block("loop", &[gp, i64t]);
    let exit = b.block("exit", &[]);
    let zero = b.iconst(64, 0);
    b.br(lp, &[s, zero]);
    b.switch_to(lp);
    let (p, i) = (b.arg(lp, 0), b.arg(lp, 1));
    let v = b.call(load_elem, &[p, zero]).unwrap();
    let t = b.call(twice, &[v]).unwrap();
    b.store(t, p);
    b.store(t, slot);
    let four = b.iconst(64, 4);
    let pn = b.ptr_add(p, four);
    let one = b.iconst(64, 1);
    let inext = b.binary(BinOp::Add, i, one);
    let c = b.cmp(CmpPred::Ult, inext, n);
    b.cond_br(c, lp, &[pn, inext], exit, &[]);
    b.switch_to(exit);
    let w = b.load(f32t, slot);
    b.call(scale, &[out, w]);
    b.call(mixed, &[out]);
    b.call(mixed, &[s]);
    b.ret(None);
    m
}
