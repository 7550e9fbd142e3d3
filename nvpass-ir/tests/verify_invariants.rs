//! One test per verifier invariant: each builds a broken module and checks
//! for the specific error; valid modules pass.

mod common;

use common::*;
use nvpass_ir::inst::{Align, CallData, Extra, InstFlags, Opcode, Ordering, Pred};
use nvpass_ir::types::{FloatKind, TypeData};
use nvpass_ir::value::{Const, Operand};
use nvpass_ir::verify::{verify_parsed_module, verify_use_lists};
use nvpass_ir::{verify_module, Block, Func, Module, Type, Value};

fn expect_err(m: &Module, needle: &str) {
    match verify_module(m) {
        Ok(()) => panic!("expected an error containing {needle:?}, module verified"),
        Err(errs) => {
            let all: Vec<String> = errs.iter().map(|e| e.describe(m)).collect();
            assert!(
                all.iter().any(|e| e.contains(needle)),
                "expected {needle:?} in:\n{}",
                all.join("\n")
            );
        }
    }
}

fn expect_ok(m: &Module) {
    if let Err(errs) = verify_module(m) {
        let all: Vec<String> = errs.iter().map(|e| e.describe(m)).collect();
        panic!("unexpected errors:\n{}", all.join("\n"));
    }
}

fn mem() -> Extra {
    Extra::Mem {
        align: Align::new(4),
        ordering: Ordering::NotAtomic,
        failure: Ordering::NotAtomic,
        syncscope: None,
        rmw_op: None,
    }
}

/// `i32 @f(i32 %x, ptr %p)` with entry, loop and exit blocks.
fn loop_module() -> (Module, Func) {
    let mut m = Module::new();
    let i1 = m.types.int(1);
    let i32t = m.types.int(32);
    let p0 = m.types.ptr(0);
    let v = m.types.void();
    let callee = add_func(&mut m, Some("g"), i32t, &[(i32t, None)], false, false);
    let f = add_func(
        &mut m,
        Some("f"),
        i32t,
        &[(i32t, Some("x")), (p0, Some("p"))],
        false,
        true,
    );
    let _ = v;
    let e = block(&mut m, f, "entry");
    let l = block(&mut m, f, "loop");
    let x_ = block(&mut m, f, "exit");
    let x = arg(&m, f, 0);
    let p = arg(&m, f, 1);
    let zero = m.const_int(i32t, 0);
    let one = m.const_int(i32t, 1);
    let ld = ins(&mut m, e, Opcode::Load, i32t, &[p], mem(), Some("ld"));
    let ldv = res(&m, ld);
    br(&mut m, e, l);
    let ph = phi(&mut m, l, i32t, &[(zero, e)], Some("i"));
    let phv = res(&m, ph);
    let nx = ins(
        &mut m,
        l,
        Opcode::Add,
        i32t,
        &[phv, one],
        Extra::None,
        Some("next"),
    );
    let nxv = res(&m, nx);
    m.push_operand(ph, nxv);
    m.push_block_op(ph, l);
    let c = call(&mut m, l, callee, &[nxv], Some("c"));
    let cv = res(&m, c);
    let cmp = ins(
        &mut m,
        l,
        Opcode::ICmp,
        i1,
        &[cv, x],
        Extra::Cmp(Pred(8)),
        Some("cmp"),
    );
    let cmpv = res(&m, cmp);
    cond_br(&mut m, l, cmpv, l, x_);
    let s = ins(
        &mut m,
        x_,
        Opcode::Add,
        i32t,
        &[nxv, ldv],
        Extra::None,
        Some("s"),
    );
    let sv = res(&m, s);
    ins(&mut m, x_, Opcode::Store, v, &[sv, p], mem(), None);
    ret(&mut m, x_, sv);
    (m, f)
}

fn blk(m: &Module, f: Func, name: &str) -> Block {
    m.func_blocks(f)
        .find(|&b| m.blocks[b].name.map(|s| m.text(s).into_owned()) == Some(name.into()))
        .unwrap()
}

fn named_inst(m: &Module, name: &str) -> nvpass_ir::Inst {
    let v = m
        .values
        .iter()
        .find(|(_, d)| d.name.map(|s| m.text(s).into_owned()) == Some(name.into()))
        .unwrap()
        .0;
    match m.values[v].kind {
        nvpass_ir::value::ValueKind::Inst(i) => i,
        _ => panic!(),
    }
}

#[test]
fn valid_loop_module_passes() {
    let (m, _) = loop_module();
    expect_ok(&m);
    assert!(verify_use_lists(&m).is_ok());
}

#[test]
fn valid_module_with_declarations_and_globals_passes() {
    let mut m = Module::new();
    let i32t = m.types.int(32);
    let z = m.const_int(i32t, 0);
    add_global(&mut m, Some("g"), i32t, Some(z), 3);
    add_global(&mut m, Some("ext"), i32t, None, 1);
    let v = m.types.void();
    add_func(&mut m, Some("d"), v, &[(i32t, None)], true, false);
    expect_ok(&m);
}

#[test]
fn missing_terminator() {
    let (mut m, f) = loop_module();
    let x = blk(&m, f, "exit");
    let t = m.terminator(x).unwrap();
    m.detach_inst(t);
    expect_err(
        &m,
        "[terminator] exit does not end in a terminator"
            .replace("exit", &format!("{x}"))
            .as_str(),
    );
}

#[test]
fn terminator_in_the_middle() {
    let (mut m, f) = loop_module();
    let x = blk(&m, f, "exit");
    let first = m.blocks[x].first.unwrap();
    let u = m.types.void();
    let un = m.new_inst(Opcode::Unreachable, u, &[], Extra::None, None);
    m.insert_inst_before(un, first);
    expect_err(&m, "[terminator] terminator in the middle");
}

#[test]
fn empty_block() {
    let (mut m, f) = loop_module();
    m.append_block(f, None);
    expect_err(&m, "is empty");
}

#[test]
fn entry_block_with_predecessors() {
    let (mut m, f) = loop_module();
    let e = blk(&m, f, "entry");
    let x = blk(&m, f, "exit");
    let t = m.terminator(x).unwrap();
    m.detach_inst(t);
    br(&mut m, x, e);
    expect_err(&m, "[terminator] entry block has predecessors");
}

#[test]
fn successor_in_another_function() {
    let (mut m, f) = loop_module();
    let (_, ob) = simple_fn(&mut m, "other");
    ret_void(&mut m, ob);
    let e = blk(&m, f, "entry");
    let t = m.terminator(e).unwrap();
    m.inst_block_ops_mut(t)[0] = ob;
    expect_err(&m, "is not a block of this function");
}

#[test]
fn phi_not_at_block_start() {
    let (mut m, f) = loop_module();
    let l = blk(&m, f, "loop");
    let ph = named_inst(&m, "i");
    let nx = named_inst(&m, "next");
    m.detach_inst(ph);
    // re-insert after `next`
    let after = m.insts[nx].next.unwrap();
    m.insert_inst_before(ph, after);
    let _ = l;
    expect_err(&m, "[phi] phi is not at the start of its block");
}

#[test]
fn phi_missing_predecessor() {
    let (mut m, _) = loop_module();
    let ph = named_inst(&m, "i");
    m.remove_operand(ph, 1);
    m.remove_block_op(ph, m.inst_block_ops(ph).len() - 1);
    expect_err(
        &m,
        "[phi] incoming blocks do not match the block's predecessors",
    );
}

#[test]
fn phi_count_mismatch() {
    let (mut m, _) = loop_module();
    let ph = named_inst(&m, "i");
    m.remove_block_op(ph, m.inst_block_ops(ph).len() - 1);
    expect_err(&m, "[phi] 2 incoming values but 1 incoming blocks");
}

#[test]
fn phi_edges_are_a_multiset() {
    // A switch with two edges to the same block needs two phi entries.
    let mut m = Module::new();
    let i32t = m.types.int(32);
    let v = m.types.void();
    let f = add_func(&mut m, Some("f"), i32t, &[(i32t, Some("x"))], false, true);
    let e = block(&mut m, f, "entry");
    let t = block(&mut m, f, "t");
    let x = arg(&m, f, 0);
    let one = m.const_int(i32t, 1);
    let two = m.const_int(i32t, 2);
    let sw = ins(&mut m, e, Opcode::Switch, v, &[x, one], Extra::None, None);
    m.push_block_op(sw, t);
    m.push_block_op(sw, t);
    let ph = phi(&mut m, t, i32t, &[(two, e)], Some("p"));
    let pv = res(&m, ph);
    ret(&mut m, t, pv);
    expect_err(&m, "[phi] incoming blocks do not match");
    m.push_operand(ph, two);
    m.push_block_op(ph, e);
    expect_ok(&m);
    // Same block, different values.
    let o = m.inst_ops(ph)[1];
    let u = nvpass_ir::value::Use::new(nvpass_ir::value::User::Inst(ph), 1);
    let _ = o;
    m.set_operand(u, one);
    expect_err(&m, "carry different values");
}

#[test]
fn phi_value_type() {
    let (mut m, _) = loop_module();
    let ph = named_inst(&m, "i");
    let i64t = m.types.int(64);
    let z = m.const_int(i64t, 0);
    let u = nvpass_ir::value::Use::new(nvpass_ir::value::User::Inst(ph), 0);
    m.set_operand(u, z);
    expect_err(&m, "[phi] incoming value type differs");
}

#[test]
fn use_before_def_in_same_block() {
    let (mut m, _) = loop_module();
    let nx = named_inst(&m, "next");
    let c = named_inst(&m, "c");
    // make `next` use `c`, defined after it
    let cv = res(&m, c);
    let u = nvpass_ir::value::Use::new(nvpass_ir::value::User::Inst(nx), 1);
    m.set_operand(u, cv);
    expect_err(&m, "[dominance] operand 1");
}

#[test]
fn self_use_is_not_dominated() {
    let (mut m, _) = loop_module();
    let nx = named_inst(&m, "next");
    let nv = res(&m, nx);
    let u = nvpass_ir::value::Use::new(nvpass_ir::value::User::Inst(nx), 1);
    m.set_operand(u, nv);
    expect_err(&m, "[dominance]");
}

fn diamond() -> (Module, Func, [Block; 4], Value) {
    let mut m = Module::new();
    let i1 = m.types.int(1);
    let i32t = m.types.int(32);
    let f = add_func(
        &mut m,
        Some("f"),
        i32t,
        &[(i1, Some("c")), (i32t, Some("x"))],
        false,
        true,
    );
    let e = block(&mut m, f, "e");
    let a = block(&mut m, f, "a");
    let b = block(&mut m, f, "b");
    let j = block(&mut m, f, "j");
    let c = arg(&m, f, 0);
    let x = arg(&m, f, 1);
    cond_br(&mut m, e, c, a, b);
    let ai = ins(
        &mut m,
        a,
        Opcode::Add,
        i32t,
        &[x, x],
        Extra::None,
        Some("av"),
    );
    let av = res(&m, ai);
    br(&mut m, a, j);
    br(&mut m, b, j);
    (m, f, [e, a, b, j], av)
}

#[test]
fn use_not_dominated_across_blocks() {
    let (mut m, _, [_, _, _, j], av) = diamond();
    ret(&mut m, j, av);
    expect_err(&m, "[dominance] operand 0");
}

#[test]
fn phi_use_checked_at_incoming_block_end() {
    let (mut m, _, [_, a, b, j], av) = diamond();
    let i32t = m.types.int(32);
    let z = m.const_int(i32t, 0);
    // correct: av comes from a
    let ph = phi(&mut m, j, i32t, &[(av, a), (z, b)], Some("p"));
    let pv = res(&m, ph);
    ret(&mut m, j, pv);
    expect_ok(&m);
    // wrong: av flowing in from b
    m.inst_block_ops_mut(ph)[0] = b;
    m.inst_block_ops_mut(ph)[1] = a;
    expect_err(
        &m,
        "[dominance] incoming value 0 does not dominate the end of its incoming block",
    );
}

#[test]
fn unreachable_blocks_are_exempt_from_dominance() {
    let (mut m, f, [_, _, _, j], av) = diamond();
    ret(&mut m, j, av);
    // Make j unreachable: a and b return instead.
    let a = blk(&m, f, "a");
    let b = blk(&m, f, "b");
    for bb in [a, b] {
        let t = m.terminator(bb).unwrap();
        m.detach_inst(t);
        let x = arg(&m, f, 1);
        ret(&mut m, bb, x);
    }
    expect_ok(&m);
}

#[test]
fn binary_operand_types() {
    let (mut m, _) = loop_module();
    let nx = named_inst(&m, "next");
    let i64t = m.types.int(64);
    let one = m.const_int(i64t, 1);
    let u = nvpass_ir::value::Use::new(nvpass_ir::value::User::Inst(nx), 1);
    m.set_operand(u, one);
    expect_err(
        &m,
        "[type] binary operator operands must have the result type",
    );
}

#[test]
fn float_op_on_integers() {
    let (mut m, _) = loop_module();
    let nx = named_inst(&m, "next");
    m.insts[nx].opcode = Opcode::FAdd;
    expect_err(&m, "[type] floating-point operator on non-float type");
}

#[test]
fn icmp_operands_and_result() {
    let (mut m, _) = loop_module();
    let cmp = named_inst(&m, "cmp");
    let i64t = m.types.int(64);
    let one = m.const_int(i64t, 1);
    let u = nvpass_ir::value::Use::new(nvpass_ir::value::User::Inst(cmp), 1);
    m.set_operand(u, one);
    expect_err(&m, "[type] compare operands must have the same type");

    let (mut m, _) = loop_module();
    let cmp = named_inst(&m, "cmp");
    let i32t = m.types.int(32);
    let r = res(&m, cmp);
    m.values[r].ty = i32t;
    expect_err(&m, "[type] compare result must be i1");
}

#[test]
fn select_condition_and_values() {
    let mut m = Module::new();
    let i32t = m.types.int(32);
    let i8t = m.types.int(8);
    let f = add_func(
        &mut m,
        Some("f"),
        i32t,
        &[(i32t, Some("x")), (i8t, Some("c"))],
        false,
        true,
    );
    let e = m.append_block(f, None);
    let x = arg(&m, f, 0);
    let c = arg(&m, f, 1);
    let s = ins(
        &mut m,
        e,
        Opcode::Select,
        i32t,
        &[c, x, x],
        Extra::None,
        Some("s"),
    );
    let sv = res(&m, s);
    ret(&mut m, e, sv);
    expect_err(&m, "[type] select condition must be i1");
}

#[test]
fn store_and_load_need_pointers() {
    let (mut m, _) = loop_module();
    let st = m
        .insts
        .iter()
        .find(|(_, d)| d.opcode == Opcode::Store)
        .unwrap()
        .0;
    let i32t = m.types.int(32);
    let z = m.const_int(i32t, 0);
    let u = nvpass_ir::value::Use::new(nvpass_ir::value::User::Inst(st), 1);
    m.set_operand(u, z);
    expect_err(&m, "[type] store needs a value and a pointer");

    let (mut m, _) = loop_module();
    let ld = named_inst(&m, "ld");
    let i32t = m.types.int(32);
    let z = m.const_int(i32t, 0);
    let u = nvpass_ir::value::Use::new(nvpass_ir::value::User::Inst(ld), 0);
    m.set_operand(u, z);
    expect_err(&m, "[type] load needs one pointer operand");
}

fn cast_module(op: Opcode, from: Type, to: Type) -> Module {
    let mut m = Module::new();
    let v = m.types.void();
    let f = add_func(&mut m, Some("f"), v, &[(from, Some("x"))], false, true);
    let e = m.append_block(f, None);
    let x = arg(&m, f, 0);
    ins(&mut m, e, op, to, &[x], Extra::None, Some("c"));
    ret_void(&mut m, e);
    m
}

#[test]
fn cast_legality() {
    let mut t = Module::new();
    let i8t = t.types.int(8);
    let i32t = t.types.int(32);
    let i64t = t.types.int(64);
    let f32t = t.types.intern(TypeData::Float(FloatKind::Float));
    let f64t = t.types.intern(TypeData::Float(FloatKind::Double));
    let p0 = t.types.ptr(0);
    let p3 = t.types.ptr(3);
    let v2i32 = t.types.intern(TypeData::Vector {
        len: 2,
        elem: i32t,
        scalable: false,
    });
    let v2i64 = t.types.intern(TypeData::Vector {
        len: 2,
        elem: i64t,
        scalable: false,
    });
    let v4i32 = t.types.intern(TypeData::Vector {
        len: 4,
        elem: i32t,
        scalable: false,
    });
    let types = t.types.clone();
    let mk = |op, a, b| {
        let mut m = cast_module(op, i8t, i8t); // placeholder to get ids right
        m.types = types.clone();
        cast_module_with(m, op, a, b)
    };
    let good = [
        (Opcode::Trunc, i64t, i32t),
        (Opcode::ZExt, i8t, i64t),
        (Opcode::SExt, v2i32, v2i64),
        (Opcode::FPExt, f32t, f64t),
        (Opcode::FPTrunc, f64t, f32t),
        (Opcode::FPToSI, f32t, i32t),
        (Opcode::UIToFP, i64t, f64t),
        (Opcode::PtrToInt, p0, i64t),
        (Opcode::IntToPtr, i64t, p3),
        (Opcode::BitCast, i32t, f32t),
        (Opcode::BitCast, v2i32, i64t),
        (Opcode::BitCast, p3, p3),
        (Opcode::AddrSpaceCast, p3, p0),
    ];
    for (op, a, b) in good {
        expect_ok(&mk(op, a, b));
    }
    let bad = [
        (Opcode::Trunc, i32t, i64t),
        (Opcode::ZExt, i64t, i32t),
        (Opcode::SExt, i32t, i32t),
        (Opcode::FPExt, f64t, f32t),
        (Opcode::ZExt, v2i32, i64t),
        (Opcode::BitCast, i32t, i64t),
        (Opcode::BitCast, p0, i64t),
        (Opcode::BitCast, p0, p3),
        (Opcode::BitCast, v4i32, v2i32),
        (Opcode::AddrSpaceCast, p3, p3),
        (Opcode::AddrSpaceCast, i64t, p3),
        (Opcode::PtrToInt, i64t, i64t),
    ];
    for (op, a, b) in bad {
        expect_err(&mk(op, a, b), "[type] invalid cast");
    }
}

fn cast_module_with(mut m: Module, op: Opcode, from: Type, to: Type) -> Module {
    // Rebuild `f` with the requested types on a fresh module sharing `m.types`.
    let types = std::mem::take(&mut m.types);
    let mut m = Module::new();
    m.types = types;
    let v = m.types.void();
    let f = add_func(&mut m, Some("f"), v, &[(from, Some("x"))], false, true);
    let e = m.append_block(f, None);
    let x = arg(&m, f, 0);
    ins(&mut m, e, op, to, &[x], Extra::None, Some("c"));
    ret_void(&mut m, e);
    m
}

#[test]
fn call_arguments() {
    let (mut m, _) = loop_module();
    let c = named_inst(&m, "c");
    m.remove_operand(c, 1);
    m.insts[c].call_mut().unwrap().nargs = 0;
    expect_err(
        &m,
        "[type] call passes 0 arguments to a function type with 1 parameters",
    );

    let (mut m, _) = loop_module();
    let c = named_inst(&m, "c");
    let i64t = m.types.int(64);
    let z = m.const_int(i64t, 0);
    let u = nvpass_ir::value::Use::new(nvpass_ir::value::User::Inst(c), 1);
    m.set_operand(u, z);
    expect_err(&m, "[type] call argument 0 type differs");

    let (mut m, _) = loop_module();
    let c = named_inst(&m, "c");
    let i32t = m.types.int(32);
    let z = m.const_int(i32t, 0);
    m.push_operand(c, z);
    m.insts[c].call_mut().unwrap().nargs = 2;
    expect_err(&m, "[type] call passes 2 arguments");
}

#[test]
fn vararg_calls_accept_extra_arguments() {
    let mut m = Module::new();
    let i32t = m.types.int(32);
    let p0 = m.types.ptr(0);
    let pf = add_func(&mut m, Some("printf"), i32t, &[(p0, None)], true, false);
    let f = add_func(&mut m, Some("f"), i32t, &[(p0, Some("s"))], false, true);
    let e = m.append_block(f, None);
    let s = arg(&m, f, 0);
    let one = m.const_int(i32t, 1);
    let c = call(&mut m, e, pf, &[s, one, one], Some("r"));
    let r = res(&m, c);
    ret(&mut m, e, r);
    expect_ok(&m);
    // too few arguments is still an error
    let c2 = call(&mut m, e, pf, &[], None);
    m.detach_inst(c2);
    m.insert_inst_before(c2, c);
    expect_err(&m, "call passes 0 arguments");
}

#[test]
fn call_result_type_and_bundles() {
    let (mut m, _) = loop_module();
    let c = named_inst(&m, "c");
    let fty = {
        let i64t = m.types.int(64);
        let i32t = m.types.int(32);
        fn_ty(&mut m, i64t, &[i32t], false)
    };
    m.insts[c].call_mut().unwrap().fn_ty = Some(fty);
    expect_err(&m, "[type] call result type differs");

    let (mut m, _) = loop_module();
    let c = named_inst(&m, "c");
    let tag = m.sym("deopt");
    m.insts[c].call_mut().unwrap().bundles = Box::new([nvpass_ir::inst::Bundle {
        tag,
        start: 2,
        len: 3,
    }]);
    expect_err(&m, "[type] operand bundle range");
}

#[test]
fn return_type() {
    let (mut m, f) = loop_module();
    let x = blk(&m, f, "exit");
    let t = m.terminator(x).unwrap();
    m.detach_inst(t);
    let i64t = m.types.int(64);
    let z = m.const_int(i64t, 0);
    ret(&mut m, x, z);
    expect_err(
        &m,
        "[type] ret value type differs from the function's return type",
    );

    let (mut m, e) = simple_fn(&mut Module::new(), "unused");
    let _ = (&mut m, e);
    let mut m = Module::new();
    let (_, b) = simple_fn(&mut m, "v");
    let i32t = m.types.int(32);
    let z = m.const_int(i32t, 0);
    ret(&mut m, b, z);
    expect_err(&m, "[type] ret with a value in a void function");
}

#[test]
fn branch_condition_must_be_i1() {
    let (mut m, _) = loop_module();
    let cmp = named_inst(&m, "cmp");
    let br = m.insts[cmp].next.unwrap();
    let i32t = m.types.int(32);
    let z = m.const_int(i32t, 0);
    let u = nvpass_ir::value::Use::new(nvpass_ir::value::User::Inst(br), 0);
    m.set_operand(u, z);
    expect_err(&m, "[type] br needs one block, or an i1 and two blocks");
}

#[test]
fn use_of_erased_instruction() {
    let (mut m, _) = loop_module();
    let ld = named_inst(&m, "ld");
    m.detach_inst(ld);
    expect_err(&m, "uses the result of erased or detached");
}

#[test]
fn value_from_another_function() {
    let (mut m, f) = loop_module();
    let i32t = m.types.int(32);
    let g = add_func(&mut m, Some("h"), i32t, &[(i32t, Some("y"))], false, true);
    let gb = m.append_block(g, None);
    let y = arg(&m, g, 0);
    let gi = ins(
        &mut m,
        gb,
        Opcode::Add,
        i32t,
        &[y, y],
        Extra::None,
        Some("hv"),
    );
    let giv = res(&m, gi);
    ret(&mut m, gb, giv);
    expect_ok(&m);
    // use h's argument in f
    let nx = named_inst(&m, "next");
    let u = nvpass_ir::value::Use::new(nvpass_ir::value::User::Inst(nx), 1);
    m.set_operand(u, y);
    expect_err(&m, "is an argument of");
    // use h's instruction in f
    m.set_operand(u, giv);
    expect_err(&m, "is defined in another function");
    let _ = f;
}

/// An instruction's type is its result's: retyping the result retypes the
/// instruction, which the type rules then reject.
#[test]
fn result_must_match() {
    let (mut m, _) = loop_module();
    let nx = named_inst(&m, "next");
    let i64t = m.types.int(64);
    let r = res(&m, nx);
    m.values[r].ty = i64t;
    expect_err(
        &m,
        "[type] binary operator operands must have the result type",
    );
}

#[test]
fn use_lists_are_consistent() {
    let (mut m, _) = loop_module();
    let nx = named_inst(&m, "next");
    let Operand { value, pos } = m.inst_ops(nx)[0];
    m.inst_ops_mut(nx)[0] = Operand {
        value,
        pos: pos + 7,
    };
    assert!(verify_use_lists(&m).is_err());
    expect_err(&m, "[use-list]");

    let (mut m, _) = loop_module();
    let nx = named_inst(&m, "next");
    let v = m.inst_ops(nx)[1].value;
    m.push_raw_use(
        v,
        nvpass_ir::value::Use::new(nvpass_ir::value::User::Inst(nx), 0),
    );
    let errs = verify_use_lists(&m).unwrap_err();
    assert!(
        errs[0]
            .message
            .contains("does not read it at that position"),
        "{errs:?}"
    );
}

/// `verify_parsed_module` makes every check but the use lists': on a
/// module with a wrong use-list position and a block without its
/// terminator, it reports the terminator alone, where `verify_module`
/// reports both.
#[test]
fn parsed_module_checks_skip_only_the_use_lists() {
    let (mut m, _) = loop_module();
    assert_eq!(verify_parsed_module(&m), Ok(()));
    let nx = named_inst(&m, "next");
    let Operand { value, pos } = m.inst_ops(nx)[0];
    m.inst_ops_mut(nx)[0] = Operand {
        value,
        pos: pos + 7,
    };
    let b = m.block_of(nx).unwrap();
    let term = m.terminator(b).unwrap();
    m.detach_inst(term);
    let tags = |r: Result<(), Vec<nvpass_ir::VerifyError>>| {
        let mut t: Vec<String> = r
            .unwrap_err()
            .iter()
            .map(|e| e.message.split(']').next().unwrap_or("").to_string() + "]")
            .collect();
        t.dedup();
        t
    };
    let all = tags(verify_module(&m));
    assert!(all.contains(&"[use-list]".to_string()), "{all:?}");
    assert!(all.contains(&"[terminator]".to_string()), "{all:?}");
    let parsed = tags(verify_parsed_module(&m));
    let want: Vec<String> = all.into_iter().filter(|t| t != "[use-list]").collect();
    assert_eq!(parsed, want);
}

/// A duplicated use names a slot that does point back to the first copy,
/// so every slot checks out: only the surplus of uses over slots reveals
/// the copy.
#[test]
fn use_list_duplicate_of_a_valid_use() {
    let (mut m, _) = loop_module();
    let nx = named_inst(&m, "next");
    let Operand { value, pos } = m.inst_ops(nx)[0];
    let u = m.users(value)[pos as usize];
    m.push_raw_use(value, u);
    let errs = verify_use_lists(&m).unwrap_err();
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0]
            .message
            .contains("does not read it at that position"),
        "{errs:?}"
    );
}

#[test]
fn global_initializer_type() {
    let mut m = Module::new();
    let i32t = m.types.int(32);
    let i64t = m.types.int(64);
    let z = m.const_int(i64t, 0);
    add_global(&mut m, Some("g"), i32t, Some(z), 0);
    expect_err(&m, "[global]");
}

#[test]
fn function_signature() {
    let (mut m, f) = loop_module();
    let i64t = m.types.int(64);
    let p = arg(&m, f, 0);
    m.values[p].ty = i64t;
    expect_err(&m, "[function] parameter 0 type differs");
}

#[test]
fn layout_cycles_are_reported_not_followed() {
    let (mut m, f) = loop_module();
    let x = blk(&m, f, "exit");
    let first = m.blocks[x].first.unwrap();
    let last = m.blocks[x].last.unwrap();
    m.insts[last].next = first.into();
    expect_err(&m, "[layout]");
    let (mut m, f) = loop_module();
    let e = blk(&m, f, "entry");
    let x = blk(&m, f, "exit");
    m.blocks[x].next = e.into();
    expect_err(&m, "[layout]");
}

#[test]
fn flags_do_not_matter_to_the_verifier() {
    let (mut m, _) = loop_module();
    let nx = named_inst(&m, "next");
    m.insts[nx].flags = InstFlags::NUW | InstFlags::NSW;
    expect_ok(&m);
}

#[test]
fn never_panics_on_corrupted_modules() {
    let mut state = 0x1234_5678_9abc_def1u64;
    let mut rnd = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..3000 {
        let (mut m, _) = loop_module();
        let ni = m.insts.len() as u64;
        let nv = m.values.len() as u64;
        let nb = m.blocks.len() as u64;
        let ns = m.segs.len() as u64;
        let nt = m.types.len() as u64;
        for _ in 0..(1 + rnd() % 3) {
            let i = nvpass_ir::Inst::from_u32((rnd() % ni) as u32);
            let d = &mut m.insts[i];
            match rnd() % 10 {
                0 if !d.ops.is_empty() => {
                    let k = (rnd() as usize) % d.ops.len();
                    m.inst_ops_mut(i)[k].value = Value::from_u32((rnd() % (nv + 3)) as u32);
                }
                1 if !d.ops.is_empty() => {
                    let k = (rnd() as usize) % d.ops.len();
                    m.inst_ops_mut(i)[k].pos = (rnd() % 5) as u32;
                }
                2 => d.next = Some(nvpass_ir::Inst::from_u32((rnd() % (ni + 2)) as u32)).into(),
                3 => m.push_block_op(i, Block::from_u32((rnd() % (nb + 2)) as u32)),
                4 => {
                    if let Some(r) = d.result.expand() {
                        m.values[r].ty = Type::from_u32((rnd() % (nt + 2)) as u32);
                    }
                }
                5 => {
                    d.ops = Default::default();
                }
                6 => d.extra = Extra::None,
                7 => d.seg = Some(nvpass_ir::Seg::from_u32((rnd() % (ns + 2)) as u32)).into(),
                8 => {
                    let b = Block::from_u32((rnd() % nb) as u32);
                    m.blocks[b].first =
                        Some(nvpass_ir::Inst::from_u32((rnd() % (ni + 2)) as u32)).into();
                }
                _ => {
                    let c = CallData {
                        nargs: (rnd() % 4) as u32,
                        ..Default::default()
                    };
                    d.extra = Extra::Call(std::sync::Arc::new(c));
                    d.opcode = Opcode::Call;
                }
            }
        }
        let r = verify_module(&m);
        if let Err(errs) = r {
            for e in errs.iter().take(3) {
                let _ = e.describe(&m);
            }
        }
        let _ = Const::Null;
    }
}

#[test]
fn linear_on_long_chains() {
    // 20,000 blocks in a chain, each using a value defined in the entry.
    let mut m = Module::new();
    let i32t = m.types.int(32);
    let f = add_func(&mut m, Some("f"), i32t, &[(i32t, Some("x"))], false, true);
    let x = arg(&m, f, 0);
    let e = m.append_block(f, None);
    let a = ins(&mut m, e, Opcode::Add, i32t, &[x, x], Extra::None, None);
    let av = res(&m, a);
    let mut prev = e;
    let mut last = av;
    for _ in 0..20_000 {
        let b = m.append_block(f, None);
        br(&mut m, prev, b);
        let i = ins(&mut m, b, Opcode::Add, i32t, &[av, last], Extra::None, None);
        last = res(&m, i);
        prev = b;
    }
    ret(&mut m, prev, last);
    let t = std::time::Instant::now();
    expect_ok(&m);
    assert!(t.elapsed().as_secs_f64() < 2.0, "took {:?}", t.elapsed());
}
