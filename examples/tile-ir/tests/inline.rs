//! `inline_call` on the tile IR: returns become branches to a continuation
//! block whose argument carries the result (one return: the value itself).

mod common;

use common::canonical;
use nvpass_core::ir::{Callee, IrEdit, IrView, Opcode};
use nvpass_example_tile_ir::{
    print_module, BinOp, CmpPred, FuncBuilder, FuncKind, MemSpace, Module, TypeData, Visibility,
};

/// `abs_diff(a, b)` with two returns, `bump(p)` with one, and a caller of both.
fn program() -> Module {
    let mut m = Module::new();
    let i32t = m.int_ty(32);
    let f32t = m.ty(TypeData::F32);
    let gp = m.ptr_ty(MemSpace::Generic);

    let sig = m.func_ty(i32t, &[i32t, i32t]);
    let absd = m.add_func("abs_diff", sig, FuncKind::Device, Visibility::Private);
    let mut b = FuncBuilder::define(&mut m, absd);
    let (x, y) = (b.param(0), b.param(1));
    let c = b.cmp(CmpPred::Slt, x, y);
    let (lt, ge) = (b.block("lt", &[]), b.block("ge", &[]));
    b.cond_br(c, lt, &[], ge, &[]);
    b.switch_to(lt);
    let d = b.binary(BinOp::Sub, y, x);
    b.ret(Some(d));
    b.switch_to(ge);
    let d = b.binary(BinOp::Sub, x, y);
    b.ret(Some(d));

    let sig = m.func_ty(f32t, &[gp]);
    let bump = m.add_func("bump", sig, FuncKind::Device, Visibility::Private);
    let mut b = FuncBuilder::define(&mut m, bump);
    let p = b.param(0);
    let tmp = b.alloca(f32t);
    let v = b.load(f32t, p);
    b.store(v, tmp);
    let w = b.binary(BinOp::FAdd, v, v);
    b.ret(Some(w));

    let sig = m.func_ty(i32t, &[gp, i32t]);
    let k = m.add_func("k", sig, FuncKind::Kernel, Visibility::Public);
    let mut b = FuncBuilder::define(&mut m, k);
    let (p, n) = (b.param(0), b.param(1));
    let one = b.iconst(32, 1);
    let d = b.call(absd, &[n, one]).unwrap();
    let _ = b.call(bump, &[p]).unwrap();
    let r = b.binary(BinOp::Add, d, d);
    b.ret(Some(r));
    m
}

fn calls_in<M: IrView>(m: &M, f: &str) -> Vec<nvpass_core::ir::InstId> {
    let f = m.func_by_name(f).unwrap();
    m.blocks(f)
        .flat_map(|b| m.insts(b).collect::<Vec<_>>())
        .filter(|&i| m.opcode(i) == Opcode::Call)
        .collect()
}

#[test]
fn inline_both_calls() {
    let mut m = program();
    for c in calls_in(&m, "k") {
        assert!(matches!(m.callee(c), Some(Callee::Direct(_))));
        m.inline_call(c)
            .unwrap_or_else(|e| panic!("{e}\n{}", print_module(&m)));
    }
    assert!(calls_in(&m, "k").is_empty());
    let text = canonical(&m);
    let k = &text[text.find("@k(").unwrap()..];
    // Entry: the callee's alloca first, then the branch into abs_diff's copy.
    assert!(
        k.contains("  bb0:\n    %0 = alloca  : ptr\n    br  -> [bb1]"),
        "{k}"
    );
    // abs_diff's two returns meet in a continuation block with one argument,
    // seen through the traits as a phi.
    assert!(k.contains("phi") && k.contains("from [bb2, bb3]"), "{k}");
    // bump's single return needs no argument: its value is used directly,
    // and the final add uses the phi.
    assert_eq!(k.matches("phi").count(), 1, "{k}");
    // The original functions are untouched.
    assert_eq!(calls_in(&m, "abs_diff").len(), 0);
    assert!(text.contains("@abs_diff(i32, i32)"));
}

#[test]
fn refusals() {
    let mut m = program();
    let absd = m.func_by_name("abs_diff").unwrap();
    let first = m.insts(m.entry_block(absd).unwrap()).next().unwrap();
    assert!(m.inline_call(first).is_err());
}

/// `inline-must` drives the primitive through `inline_call_with_info`:
/// both always-inline helpers are inlined and, being private and now
/// unused, erased.
#[test]
fn inline_must_pass() {
    if !common::registered(&["inline-must"]) {
        return;
    }
    let mut m = program();
    for name in ["abs_diff", "bump"] {
        let f = m.func_named(name).unwrap();
        m.funcs[f].inline = nvpass_example_tile_ir::InlinePolicy::Always;
    }
    let diags = common::run(&mut m, "inline-must");
    assert!(calls_in(&m, "k").is_empty(), "{}", print_module(&m));
    assert!(m.func_named("abs_diff").is_none() && m.func_named("bump").is_none());
    let passed = diags.iter().filter(|d| d.name == "AlwaysInline").count();
    assert_eq!(passed, 2, "{diags:?}");
}
