//! Helpers shared by the equivalence tests: run a pipeline on any host IR,
//! and describe a module through the traits only, so that a tile IR module
//! and a reference IR module can be compared text for text.

#![allow(dead_code)]

pub mod program;

use std::collections::HashMap;

use nvpass_core::diag::Diagnostic;
use nvpass_core::ir::{
    Attr, AttrSlot, BlockId, ConstKind, IrEdit, IrView, TypeId, TypeKind, ValueId, ValueKind,
};
use nvpass_core::pass::Session;

/// Whether every pass in `names` is registered (passes land on `main` one
/// family at a time).
pub fn registered(names: &[&str]) -> bool {
    let r = nvpass_passes::registry::<nvpass_ir::Module>();
    let missing: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| r.lookup(n).is_none())
        .collect();
    if !missing.is_empty() {
        eprintln!("skipped: {missing:?} not registered in nvpass-passes yet");
    }
    missing.is_empty()
}

/// Runs `pipeline` over `m`; returns the diagnostics.
pub fn run<M: IrEdit + 'static>(m: &mut M, pipeline: &str) -> Vec<Diagnostic> {
    let r = nvpass_passes::registry::<M>();
    let mut pm = r.build_text(pipeline).expect("pipeline builds");
    let mut session = Session::new(r.knob_values().expect("knobs declare"));
    pm.run(m, &mut session, &mut [])
        .unwrap_or_else(|e| panic!("pipeline '{pipeline}' failed: {e}"));
    session.diags.diagnostics().to_vec()
}

/// `pass/name/function` of each diagnostic, with its arguments, sorted.
pub fn diag_keys(d: &[Diagnostic]) -> Vec<String> {
    let mut out: Vec<String> = d
        .iter()
        .map(|d| {
            let args: Vec<String> = d.args.iter().map(|a| format!("{a:?}")).collect();
            format!(
                "{}/{}/{} {}",
                d.pass,
                d.name,
                d.function.as_deref().unwrap_or("-"),
                args.join(" ")
            )
        })
        .collect();
    out.sort();
    out
}

/// A type, spelled like LLVM (through [`TypeView`](nvpass_core::ir::TypeView)).
pub fn ty<M: IrView + ?Sized>(m: &M, t: TypeId) -> String {
    match m.type_kind(t) {
        TypeKind::Void => "void".into(),
        TypeKind::Int(n) => format!("i{n}"),
        TypeKind::Half => "half".into(),
        TypeKind::Float => "float".into(),
        TypeKind::Double => "double".into(),
        TypeKind::Ptr(0) => "ptr".into(),
        TypeKind::Ptr(a) => format!("ptr addrspace({a})"),
        TypeKind::Struct { .. } => match m.struct_name(t) {
            Some(n) => format!("%{n}"),
            None => {
                let f: Vec<String> = m.struct_fields(t).map(|f| ty(m, f)).collect();
                format!("{{ {} }}", f.join(", "))
            }
        },
        TypeKind::Array { len, elem } => format!("[{len} x {}]", ty(m, elem)),
        TypeKind::Func { .. } => {
            let p: Vec<String> = m.func_type_params(t).map(|p| ty(m, p)).collect();
            let r = m.func_type_ret(t).map(|r| ty(m, r)).unwrap_or_default();
            format!("{r} ({})", p.join(", "))
        }
        TypeKind::TargetExt => format!("target(\"{}\")", m.target_ext_name(t).unwrap_or("?")),
        k => format!("{k:?}"),
    }
}

fn attr<M: IrView + ?Sized>(m: &M, a: Attr<'_>) -> String {
    match a {
        Attr::Enum(k) => k.name().into(),
        Attr::Int(k, n) => format!("{}({n})", k.name()),
        Attr::Type(k, t) => format!("{}({})", k.name(), ty(m, t)),
        Attr::Str(k, "") => format!("\"{k}\""),
        Attr::Str(k, v) => format!("\"{k}\"=\"{v}\""),
        Attr::Unknown(t) => t.into(),
    }
}

/// The attributes of list `slot` of `f`, sorted.
pub fn attrs<M: IrView + ?Sized>(m: &M, f: nvpass_core::ir::FuncId, slot: AttrSlot) -> Vec<String> {
    let mut v: Vec<String> = m.attrs(f, slot).map(|a| attr(m, a)).collect();
    v.sort();
    v
}

/// The signature line of every function: linkage, calling convention,
/// name, parameter types, return type, function attributes.
pub fn signatures<M: IrView + ?Sized>(m: &M) -> Vec<String> {
    m.funcs()
        .map(|f| {
            let params: Vec<String> = m.params(f).map(|p| ty(m, m.value_type(p))).collect();
            format!(
                "{:?} {:?} @{}({}) -> {} {:?}",
                m.func_linkage(f),
                m.func_call_conv(f),
                m.func_name(f),
                params.join(", "),
                ty(m, m.ret_type(f)),
                attrs(m, f, AttrSlot::Function),
            )
        })
        .collect()
}

/// Every function with its body in a canonical form: values numbered in
/// definition order, blocks by position, constants by type and value,
/// globals and functions by name. Two modules with the same text have
/// the same IR up to naming, whatever host holds them.
pub fn canonical<M: IrView + ?Sized>(m: &M) -> String {
    let mut out = String::new();
    for (f, sig) in m.funcs().zip(signatures(m)) {
        out.push_str(&sig);
        out.push('\n');
        let blocks: Vec<BlockId> = m.blocks(f).collect();
        let bnum: HashMap<BlockId, usize> =
            blocks.iter().enumerate().map(|(i, &b)| (b, i)).collect();
        let mut vnum: HashMap<ValueId, String> = HashMap::new();
        for (k, p) in m.params(f).enumerate() {
            vnum.insert(p, format!("%a{k}"));
        }
        let mut next = 0;
        for &b in &blocks {
            for i in m.insts(b) {
                if let Some(r) = m.inst_result(i) {
                    vnum.insert(r, format!("%{next}"));
                    next += 1;
                }
            }
        }
        let val = |v: ValueId| -> String {
            if let Some(n) = vnum.get(&v) {
                return n.clone();
            }
            let t = ty(m, m.value_type(v));
            match m.value_kind(v) {
                ValueKind::Global(g) => format!("@{}", m.global_name(g)),
                ValueKind::Function(g) => format!("@{}", m.func_name(g)),
                ValueKind::Constant(ConstKind::Int) => format!("{t} {}", m.const_int(v).unwrap()),
                ValueKind::Constant(ConstKind::Float) => {
                    format!("{t} f0x{:x}", m.const_float_bits(v).unwrap())
                }
                ValueKind::Constant(k) => format!("{t} {k:?}"),
                k => format!("?{k:?}"),
            }
        };
        for &b in &blocks {
            out.push_str(&format!("  bb{}:\n", bnum[&b]));
            for i in m.insts(b) {
                let mut line = String::from("    ");
                if let Some(r) = m.inst_result(i) {
                    line.push_str(&format!("{} = ", vnum[&r]));
                }
                line.push_str(m.opcode(i).name());
                let ops: Vec<String> = m.operands(i).map(val).collect();
                line.push(' ');
                line.push_str(&ops.join(", "));
                let inc: Vec<String> = m
                    .phi_incoming(i)
                    .map(|(_, p)| format!("bb{}", bnum[&p]))
                    .collect();
                if !inc.is_empty() {
                    line.push_str(&format!(" from [{}]", inc.join(", ")));
                }
                if m.terminator(b) == Some(i) {
                    let s: Vec<String> =
                        m.successors(b).map(|s| format!("bb{}", bnum[&s])).collect();
                    if !s.is_empty() {
                        line.push_str(&format!(" -> [{}]", s.join(", ")));
                    }
                }
                if let Some(r) = m.inst_result(i) {
                    line.push_str(&format!(" : {}", ty(m, m.value_type(r))));
                }
                out.push_str(&line);
                out.push('\n');
            }
        }
    }
    out
}

/// Parses reference IR text.
pub fn parse_ll(text: &str) -> nvpass_ir::Module {
    nvpass_ir::parse_module(text.as_bytes()).unwrap_or_else(|e| panic!("bad .ll: {e:?}"))
}
