//! `pretreat` on the tile IR: the rules whose constructs the tile IR has
//! (no-op address-space cast pairs, zero-offset pointer adds, sign- to
//! zero-extension, negated select conditions, unreachable blocks) rewrite
//! a tile program exactly as they rewrite the same program in LLVM IR.

mod common;

use common::{canonical, parse_ll, run};
use nvpass_example_tile_ir::{
    BinOp, FuncBuilder, FuncKind, MemSpace, Module, TypeData, Visibility,
};

const LL: &str = r#"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define i64 @pre(ptr %p, i16 %x, i1 %c) {
entry:
  %q = getelementptr i8, ptr %p, i64 0
  %a = addrspacecast ptr %q to ptr addrspace(1)
  %b = addrspacecast ptr addrspace(1) %a to ptr
  %v = load i32, ptr %b
  %y = zext i16 %x to i32
  %s = sext i32 %y to i64
  %n = xor i1 %c, true
  %sel = select i1 %n, i64 1, i64 2
  %r = add i64 %s, %sel
  ret i64 %r
dead:
  br label %dead2
dead2:
  br label %dead
}
"#;

/// The same program written with the tile builder.
fn tile() -> Module {
    let mut m = Module::new();
    let gp = m.ptr_ty(MemSpace::Generic);
    let (i1, i16t, i32t, i64t) = (m.int_ty(1), m.int_ty(16), m.int_ty(32), m.int_ty(64));
    let sig = m.func_ty(i64t, &[gp, i16t, i1]);
    let f = m.add_func("pre", sig, FuncKind::Device, Visibility::Public);
    let mut b = FuncBuilder::define(&mut m, f);
    let (p, x, c) = (b.param(0), b.param(1), b.param(2));
    let zero = b.iconst(64, 0);
    let q = b.ptr_add(p, zero);
    let a = b.cast_space(q, MemSpace::Global);
    let bb = b.cast_space(a, MemSpace::Generic);
    let _v = b.load(i32t, bb);
    let y = b.ext(x, 32, false);
    let s = b.ext(y, 64, true);
    let t = b.iconst(1, 1);
    let n = b.binary(BinOp::Xor, c, t);
    let (one, two) = (b.iconst(64, 1), b.iconst(64, 2));
    let sel = b.select(n, one, two);
    let r = b.binary(BinOp::Add, s, sel);
    b.ret(Some(r));
    let dead = b.block("dead", &[]);
    let dead2 = b.block("dead2", &[]);
    b.switch_to(dead);
    b.br(dead2, &[]);
    b.switch_to(dead2);
    b.br(dead, &[]);
    let _ = TypeData::Void;
    m
}

#[test]
fn same_program_before() {
    assert_eq!(canonical(&tile()), canonical(&parse_ll(LL)));
}

#[test]
fn pretreat_rewrites_both_alike() {
    let mut t = tile();
    let mut r = parse_ll(LL);
    run(&mut t, "pretreat");
    run(&mut r, "pretreat");
    let (ct, cr) = (canonical(&t), canonical(&r));
    assert_eq!(
        ct,
        cr,
        "tile IR:\n{}",
        nvpass_example_tile_ir::print_module(&t)
    );
    // Each of the five rules fired: no cast pair, no zero ptradd, no sext,
    // no xor, one block left.
    for gone in ["getelementptr", "addrspacecast", "sext", "xor", "bb1"] {
        assert!(!ct.contains(gone), "{gone} survived:\n{ct}");
    }
    assert!(ct.contains("select %a2, i64 2, i64 1"), "{ct}");
    // Idempotent on the tile IR too.
    run(&mut t, "pretreat");
    assert_eq!(canonical(&t), cr);
}
