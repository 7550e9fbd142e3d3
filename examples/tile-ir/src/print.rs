//! The tile IR's own textual form (MLIR-like), for test failures and docs.
//! There is no parser: programs are written with [`FuncBuilder`](crate::FuncBuilder).
//!
//! ```text
//! tile.func private @load_elem(%p: !tile.ptr<shared>, %i: i64) -> f32 device {
//! ^entry:
//!   %0 = tile.ptradd %p, %i : !tile.ptr<shared>
//!   %1 = tile.load %0 : f32
//!   tile.return %1
//! }
//! ```

use std::fmt::Write;

use crate::builder::pred_name;
use crate::ir::{
    AttrEntry, Const, Func, FuncKind, InlinePolicy, MemSpace, Module, OpKind, Ty, TypeData, Value,
    ValueDef, Visibility,
};

/// Prints a type.
pub fn type_text(m: &Module, t: Ty) -> String {
    match &m.types[t] {
        TypeData::Void => "()".into(),
        TypeData::Int(n) => format!("i{n}"),
        TypeData::F16 => "f16".into(),
        TypeData::F32 => "f32".into(),
        TypeData::F64 => "f64".into(),
        TypeData::Ptr(s) => format!("!tile.ptr<{}>", space_text(*s)),
        TypeData::Struct { name, fields } => {
            let fs: Vec<String> = fields.iter().map(|&f| type_text(m, f)).collect();
            match name {
                Some(n) => format!("!tile.struct<\"{n}\", {}>", fs.join(", ")),
                None => format!("!tile.struct<{}>", fs.join(", ")),
            }
        }
        TypeData::Array { elem, len } => format!("!tile.array<{len} x {}>", type_text(m, *elem)),
        TypeData::Func {
            ret,
            params,
            vararg,
        } => {
            let mut ps: Vec<String> = params.iter().map(|&p| type_text(m, p)).collect();
            if *vararg {
                ps.push("...".into());
            }
            format!("({}) -> {}", ps.join(", "), type_text(m, *ret))
        }
        TypeData::Image => "!tile.image".into(),
        TypeData::Sampler => "!tile.sampler".into(),
    }
}

fn space_text(s: MemSpace) -> String {
    match s {
        MemSpace::Generic => "generic".into(),
        MemSpace::Global => "global".into(),
        MemSpace::Shared => "shared".into(),
        MemSpace::Const => "const".into(),
        MemSpace::Local => "local".into(),
        MemSpace::Other(n) => n.to_string(),
    }
}

fn value_text(m: &Module, v: Value) -> String {
    let d = &m.values[v];
    match d.def {
        ValueDef::Const(c) => match c {
            Const::Int(n) => format!("{n} : {}", type_text(m, d.ty)),
            Const::Float(b) => format!("0x{b:x} : {}", type_text(m, d.ty)),
            Const::Null => "null".into(),
            Const::Undef => "undef".into(),
            Const::Zero => "zero".into(),
        },
        ValueDef::GlobalAddr(g) => format!("@{}", m.globals[g].name),
        ValueDef::FuncAddr(f) => format!("@{}", m.funcs[f].name),
        _ => match &d.name {
            Some(n) => format!("%{n}"),
            None => format!("%{}", v.as_u32()),
        },
    }
}

fn attr_text(m: &Module, e: &AttrEntry) -> String {
    match e {
        AttrEntry::Flag(k) => k.name().to_string(),
        AttrEntry::Int(k, n) => format!("{} = {n}", k.name()),
        AttrEntry::Type(k, t) => format!("{} = {}", k.name(), type_text(m, *t)),
        AttrEntry::Str(k, v) => format!("\"{k}\" = \"{v}\""),
        AttrEntry::Opaque(t) => t.clone(),
    }
}

/// Prints one function.
pub fn print_func(m: &Module, f: Func) -> String {
    let d = &m.funcs[f];
    let mut s = String::new();
    let vis = match d.visibility {
        Visibility::Public => "public",
        Visibility::Private => "private",
        Visibility::Odr => "odr",
        Visibility::WeakOdr => "weak_odr",
    };
    let params: Vec<String> = d
        .params
        .iter()
        .map(|&p| format!("{}: {}", value_text(m, p), type_text(m, m.values[p].ty)))
        .collect();
    let ret = m.sig_parts(d.sig).map(|(r, _)| r).unwrap_or(m.void_ty);
    let _ = write!(
        s,
        "tile.func {vis} @{}({}) -> {} {}",
        d.name,
        params.join(", "),
        type_text(m, ret),
        match d.kind {
            FuncKind::Kernel => "kernel",
            FuncKind::Device => "device",
        }
    );
    match d.inline {
        InlinePolicy::Always => s.push_str(" inline = always"),
        InlinePolicy::Never => s.push_str(" inline = never"),
        InlinePolicy::Default => {}
    }
    if !d.attrs.is_empty() {
        let a: Vec<String> = d.attrs.iter().map(|e| attr_text(m, e)).collect();
        let _ = write!(s, " {{{}}}", a.join(", "));
    }
    let Some(blocks) = &d.body else {
        s.push('\n');
        return s;
    };
    s.push_str(" {\n");
    for &b in blocks {
        let bd = &m.blocks[b];
        let label = bd
            .name
            .clone()
            .unwrap_or_else(|| format!("bb{}", b.as_u32()));
        if b == blocks[0] || bd.args.is_empty() {
            let _ = writeln!(s, "^{label}:");
        } else {
            let args: Vec<String> = bd
                .args
                .iter()
                .map(|&a| format!("{}: {}", value_text(m, a), type_text(m, m.values[a].ty)))
                .collect();
            let _ = writeln!(s, "^{label}({}):", args.join(", "));
        }
        for &o in &bd.ops {
            let od = &m.ops[o];
            s.push_str("  ");
            if let Some(r) = od.result {
                let _ = write!(s, "{} = ", value_text(m, r));
            }
            s.push_str(od.kind.mnemonic());
            match &od.kind {
                OpKind::Call { callee, .. } => {
                    let _ = write!(s, " @{}", m.funcs[*callee].name);
                }
                OpKind::Cmp(p) => {
                    let _ = write!(s, " {}", pred_name(*p));
                }
                _ => {}
            }
            let ops: Vec<String> = od.operands.iter().map(|&v| value_text(m, v)).collect();
            if matches!(od.kind, OpKind::Call { .. } | OpKind::CallIndirect { .. }) {
                let _ = write!(s, "({})", ops.join(", "));
            } else if !ops.is_empty() {
                let _ = write!(s, " {}", ops.join(", "));
            }
            for succ in &od.succs {
                let label = m.blocks[succ.block].name.clone().unwrap_or_default();
                let args: Vec<String> = succ.args.iter().map(|&v| value_text(m, v)).collect();
                if args.is_empty() {
                    let _ = write!(s, " ^{label}");
                } else {
                    let _ = write!(s, " ^{label}({})", args.join(", "));
                }
            }
            if let Some(r) = od.result {
                let _ = write!(s, " : {}", type_text(m, m.values[r].ty));
            }
            if let Some(l) = od.loc {
                let ld = &m.locs[l];
                let _ = write!(s, " loc(\"{}\":{}:{})", ld.file, ld.line, ld.col);
            }
            s.push('\n');
        }
    }
    s.push_str("}\n");
    s
}

/// Prints the whole module.
pub fn print_module(m: &Module) -> String {
    let mut s = String::new();
    for (_, g) in m.globals.iter().filter(|(_, g)| !g.dead) {
        let _ = writeln!(
            s,
            "tile.global {} @{} : {} in {}",
            match g.visibility {
                Visibility::Private => "private",
                _ => "public",
            },
            g.name,
            type_text(m, g.ty),
            space_text(g.space)
        );
    }
    for f in m.live_funcs() {
        s.push_str(&print_func(m, f));
    }
    s
}
