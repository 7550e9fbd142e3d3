//! Helpers that build modules programmatically for printer and verifier
//! tests.
#![allow(dead_code)]

use nvpass_ir::attr::AttrSet;
use nvpass_ir::inst::{CallData, Extra, Opcode};
use nvpass_ir::module::{FuncData, GlobalData, Linkage, Param, TopLevel};
use nvpass_ir::short::ShortVec;
use nvpass_ir::types::TypeData;
use nvpass_ir::value::{User, ValueKind};
use nvpass_ir::{Block, Func, Global, Inst, Module, Type, Value};
use smallvec::SmallVec;

pub fn fn_ty(m: &mut Module, ret: Type, params: &[Type], vararg: bool) -> Type {
    m.types.intern(TypeData::Func {
        ret,
        params: params.iter().copied().collect(),
        vararg,
    })
}

/// Adds a function `name` (None = unnamed) with parameters `(type, name)`.
pub fn add_func(
    m: &mut Module,
    name: Option<&str>,
    ret: Type,
    params: &[(Type, Option<&str>)],
    vararg: bool,
    is_def: bool,
) -> Func {
    let ptys: Vec<Type> = params.iter().map(|p| p.0).collect();
    let ty = fn_ty(m, ret, &ptys, vararg);
    let f = m.funcs.next_key();
    let ptr = m.types.ptr(0);
    let sym = name.map(|n| m.sym(n));
    let value = m.new_value(ptr, ValueKind::Func(f), sym);
    let mut ps = Vec::new();
    for (i, (t, n)) in params.iter().enumerate() {
        let s = n.map(|n| m.sym(n));
        let v = m.new_value(
            *t,
            ValueKind::Arg {
                func: f,
                index: i as u32,
            },
            s,
        );
        ps.push(Param {
            value: v,
            attrs: AttrSet::default(),
        });
    }
    let f2 = m.funcs.push(FuncData {
        value,
        is_definition: is_def,
        linkage: Linkage::External,
        keywords: SmallVec::new(),
        cc: Default::default(),
        ret_attrs: AttrSet::default(),
        ty,
        params: ps,
        unnamed_addr: None,
        fn_attrs: AttrSet::default(),
        extras: None,
        md: ShortVec::new(),
        first_block: Default::default(),
        last_block: Default::default(),
        erased: false,
    });
    assert_eq!(f, f2);
    m.order.push(TopLevel::Func(f));
    if let Some(s) = sym {
        m.symbols.insert(s, value);
    }
    f
}

pub fn arg(m: &Module, f: Func, i: usize) -> Value {
    m.funcs[f].params[i].value
}

/// Adds a global variable.
pub fn add_global(
    m: &mut Module,
    name: Option<&str>,
    value_ty: Type,
    init: Option<Value>,
    addrspace: u32,
) -> Global {
    let g = m.globals.next_key();
    let ptr = m.types.ptr(addrspace);
    let sym = name.map(|n| m.sym(n));
    let value = m.new_value(ptr, ValueKind::Global(g), sym);
    let init = init.map(|v| m.add_use(v, User::GlobalInit(g), 0));
    m.globals.push(GlobalData {
        value,
        linkage: Linkage::External,
        keywords: SmallVec::new(),
        addrspace,
        is_constant: false,
        value_ty,
        init,
        tail: SmallVec::new(),
        align: None,
        attrs: AttrSet::default(),
        md: ShortVec::new(),
        erased: false,
    });
    m.order.push(TopLevel::Global(g));
    if let Some(s) = sym {
        m.symbols.insert(s, value);
    }
    g
}

pub fn gval(m: &Module, g: Global) -> Value {
    m.globals[g].value
}

pub fn fval(m: &Module, f: Func) -> Value {
    m.funcs[f].value
}

/// Creates and appends an instruction.
pub fn ins(
    m: &mut Module,
    b: Block,
    op: Opcode,
    ty: Type,
    ops: &[Value],
    extra: Extra,
    name: Option<&str>,
) -> Inst {
    let s = name.map(|n| m.sym(n));
    let i = m.new_inst(op, ty, ops, extra, s);
    m.append_inst(b, i);
    i
}

pub fn res(m: &Module, i: Inst) -> Value {
    m.inst_result(i).unwrap()
}

pub fn ret_void(m: &mut Module, b: Block) -> Inst {
    let v = m.types.void();
    ins(m, b, Opcode::Ret, v, &[], Extra::None, None)
}

pub fn ret(m: &mut Module, b: Block, v: Value) -> Inst {
    let t = m.types.void();
    ins(m, b, Opcode::Ret, t, &[v], Extra::None, None)
}

pub fn br(m: &mut Module, b: Block, dest: Block) -> Inst {
    let v = m.types.void();
    let i = ins(m, b, Opcode::Br, v, &[], Extra::None, None);
    m.push_block_op(i, dest);
    i
}

pub fn cond_br(m: &mut Module, b: Block, c: Value, t: Block, e: Block) -> Inst {
    let v = m.types.void();
    let i = ins(m, b, Opcode::Br, v, &[c], Extra::None, None);
    m.push_block_op(i, t);
    m.push_block_op(i, e);
    i
}

pub fn phi(m: &mut Module, b: Block, ty: Type, inc: &[(Value, Block)], name: Option<&str>) -> Inst {
    let vals: Vec<Value> = inc.iter().map(|x| x.0).collect();
    let i = ins(m, b, Opcode::Phi, ty, &vals, Extra::None, name);
    for x in inc {
        m.push_block_op(i, x.1);
    }
    i
}

/// A direct call to `callee` of function type `fty`.
pub fn call(m: &mut Module, b: Block, callee: Func, args: &[Value], name: Option<&str>) -> Inst {
    let fty = m.funcs[callee].ty;
    let ret = m.types.func_sig(fty).unwrap().0;
    let mut ops = vec![m.funcs[callee].value];
    ops.extend_from_slice(args);
    let cd = CallData {
        fn_ty: Some(fty),
        nargs: args.len() as u32,
        ..Default::default()
    };
    ins(
        m,
        b,
        Opcode::Call,
        ret,
        &ops,
        Extra::Call(std::sync::Arc::new(cd)),
        name,
    )
}

/// `define void @name()` with one empty entry block.
pub fn simple_fn(m: &mut Module, name: &str) -> (Func, Block) {
    let v = m.types.void();
    let f = add_func(m, Some(name), v, &[], false, true);
    let b = m.append_block(f, None);
    (f, b)
}

/// Checks `text` with `llvm-as-19` when the environment variable
/// `NVPASS_LLVM_AS` is set (manual runs only).
pub fn llvm_as_check(text: &str) {
    if std::env::var_os("NVPASS_LLVM_AS").is_none() {
        return;
    }
    use std::io::Write;
    let mut child = std::process::Command::new("llvm-as-19")
        .args(["-o", "/dev/null", "-"])
        .stdin(std::process::Stdio::piped())
        .spawn()
        .expect("llvm-as-19");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let st = child.wait().unwrap();
    assert!(st.success(), "llvm-as-19 rejected:\n{text}");
}

/// Appends a block named `name` to `f`.
pub fn block(m: &mut Module, f: Func, name: &str) -> Block {
    let s = m.sym(name);
    m.append_block(f, Some(s))
}
