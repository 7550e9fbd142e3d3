//! Rules 9, 10 and 13: intrinsic call sites.

use alloc::vec::Vec;

use nvpass_core::ir::{AttrKey, AttrKind, AttrSlot, FuncId, InstId, IrEdit, Opcode, TypeKind};

use super::util::{direct_callee, direct_callee_name, func_insts, has_bundle_operands};

/// Intrinsic name prefixes whose semantics never need `convergent`
/// (rule 9). Each is a family whose LLVM 19 definition
/// (`Intrinsics.td`, `IntrinsicsNVVM.td`) is not `IntrConvergent`: memory
/// and lifetime intrinsics, `llvm.assume`, debug intrinsics, special
/// register reads, and NVVM floating-point arithmetic and conversions.
/// Everything else (barriers, shuffles, votes, `match`, `activemask`,
/// `redux`, WGMMA, ...) is left alone.
pub const NON_CONVERGENT_INTRINSIC_PREFIXES: &[&str] = &[
    "llvm.lifetime.",
    "llvm.memcpy.",
    "llvm.memmove.",
    "llvm.memset.",
    "llvm.assume",
    "llvm.dbg.",
    "llvm.nvvm.read.ptx.sreg.",
    "llvm.nvvm.fma.",
    "llvm.nvvm.add.",
    "llvm.nvvm.mul.",
    "llvm.nvvm.div.",
    "llvm.nvvm.rcp.",
    "llvm.nvvm.sqrt.",
    "llvm.nvvm.rsqrt.",
    "llvm.nvvm.fabs.",
    "llvm.nvvm.fmin.",
    "llvm.nvvm.fmax.",
    "llvm.nvvm.d2i.",
    "llvm.nvvm.f2i.",
    "llvm.nvvm.lohi.i2d",
    "llvm.nvvm.ex2.approx.",
    "llvm.nvvm.lg2.approx.",
    "llvm.nvvm.sin.approx.",
    "llvm.nvvm.cos.approx.",
];

pub(super) fn needs_no_convergent(name: &str) -> bool {
    NON_CONVERGENT_INTRINSIC_PREFIXES
        .iter()
        .any(|p| name.starts_with(p))
}

/// Rule 9 (`strip_spurious_convergent`): removes `convergent` from call
/// sites in `f` calling an intrinsic of
/// [`NON_CONVERGENT_INTRINSIC_PREFIXES`], and from that intrinsic's
/// declaration (a call is convergent if either carries the attribute).
pub fn strip_spurious_convergent<M: IrEdit + ?Sized>(m: &mut M, f: FuncId) -> u64 {
    let key = AttrKey::Kind(AttrKind::Convergent);
    let mut changed = 0;
    for i in func_insts(m, f) {
        if !m.opcode(i).is_call() {
            continue;
        }
        let Some(callee) = direct_callee(m, i) else {
            continue;
        };
        if !needs_no_convergent(m.func_name(callee)) {
            continue;
        }
        if m.remove_call_attr(i, AttrSlot::Function, key) {
            changed += 1;
        }
        if m.func_is_declaration(callee) && m.remove_attr(callee, AttrSlot::Function, key) {
            changed += 1;
        }
    }
    changed
}

/// Legacy special-register placeholders (the pre-NVVM PTX back end's
/// `llvm.ptx.read.*` names) and the canonical
/// `llvm.nvvm.read.ptx.sreg.*` intrinsic each stands for, with the result
/// width in bits. Rule 10.
pub const SREG_PLACEHOLDERS: &[(&str, &str, u32)] = &[
    ("llvm.ptx.read.tid.x", "llvm.nvvm.read.ptx.sreg.tid.x", 32),
    ("llvm.ptx.read.tid.y", "llvm.nvvm.read.ptx.sreg.tid.y", 32),
    ("llvm.ptx.read.tid.z", "llvm.nvvm.read.ptx.sreg.tid.z", 32),
    ("llvm.ptx.read.ntid.x", "llvm.nvvm.read.ptx.sreg.ntid.x", 32),
    ("llvm.ptx.read.ntid.y", "llvm.nvvm.read.ptx.sreg.ntid.y", 32),
    ("llvm.ptx.read.ntid.z", "llvm.nvvm.read.ptx.sreg.ntid.z", 32),
    (
        "llvm.ptx.read.ctaid.x",
        "llvm.nvvm.read.ptx.sreg.ctaid.x",
        32,
    ),
    (
        "llvm.ptx.read.ctaid.y",
        "llvm.nvvm.read.ptx.sreg.ctaid.y",
        32,
    ),
    (
        "llvm.ptx.read.ctaid.z",
        "llvm.nvvm.read.ptx.sreg.ctaid.z",
        32,
    ),
    (
        "llvm.ptx.read.nctaid.x",
        "llvm.nvvm.read.ptx.sreg.nctaid.x",
        32,
    ),
    (
        "llvm.ptx.read.nctaid.y",
        "llvm.nvvm.read.ptx.sreg.nctaid.y",
        32,
    ),
    (
        "llvm.ptx.read.nctaid.z",
        "llvm.nvvm.read.ptx.sreg.nctaid.z",
        32,
    ),
    ("llvm.ptx.read.laneid", "llvm.nvvm.read.ptx.sreg.laneid", 32),
    ("llvm.ptx.read.warpid", "llvm.nvvm.read.ptx.sreg.warpid", 32),
    (
        "llvm.ptx.read.nwarpid",
        "llvm.nvvm.read.ptx.sreg.nwarpid",
        32,
    ),
    ("llvm.ptx.read.smid", "llvm.nvvm.read.ptx.sreg.smid", 32),
    ("llvm.ptx.read.nsmid", "llvm.nvvm.read.ptx.sreg.nsmid", 32),
    ("llvm.ptx.read.clock", "llvm.nvvm.read.ptx.sreg.clock", 32),
    (
        "llvm.ptx.read.clock64",
        "llvm.nvvm.read.ptx.sreg.clock64",
        64,
    ),
];

/// The placeholder intrinsic libNVVM consumes (spec 002 "Pretreat", the
/// whole-pass example: "placeholder intrinsic deleted").
pub const KERNEL_PLACEHOLDER: &str = "llvm.nvvm.kernel.placeholder";

/// Rule 10 (`rewrite_sreg_placeholders`): calls of a legacy
/// [`SREG_PLACEHOLDERS`] name whose type is `iN ()` with the canonical
/// width are redirected to the canonical `llvm.nvvm.read.ptx.sreg.*`
/// intrinsic (declared if missing), keeping the call's attributes and
/// metadata; `void` calls of [`KERNEL_PLACEHOLDER`] are deleted. A
/// placeholder declaration left without uses is deleted too.
pub fn rewrite_sreg_placeholders<M: IrEdit + ?Sized>(m: &mut M, f: FuncId) -> u64 {
    let mut changed = 0;
    let mut dead_decls: Vec<FuncId> = Vec::new();
    for i in func_insts(m, f) {
        if m.opcode(i) != Opcode::Call {
            continue;
        }
        let Some(old) = direct_callee(m, i) else {
            continue;
        };
        let name = m.func_name(old);
        if name == KERNEL_PLACEHOLDER {
            if m.inst_result(i).is_none() && m.erase_inst(i).is_ok() {
                changed += 1;
                dead_decls.push(old);
            }
            continue;
        }
        let Some(&(_, canonical, bits)) = SREG_PLACEHOLDERS.iter().find(|e| e.0 == name) else {
            continue;
        };
        if redirect(m, i, old, canonical, bits) {
            changed += 1;
            dead_decls.push(old);
        }
    }
    for d in dead_decls {
        let v = m.func_value(d);
        if m.func_is_declaration(d) && m.has_no_uses(v) {
            let _ = m.erase_function(d);
        }
    }
    changed
}

fn redirect<M: IrEdit + ?Sized>(
    m: &mut M,
    call: InstId,
    old: FuncId,
    canonical: &str,
    bits: u32,
) -> bool {
    let fty = m.func_type(old);
    let ret = m.func_type_ret(fty);
    let shape_ok = ret.is_some_and(|r| m.type_kind(r) == TypeKind::Int(bits))
        && m.func_type_params(fty).next().is_none()
        && m.type_kind(fty) == TypeKind::Func { vararg: false };
    if !shape_ok || m.call_func_type(call) != Some(fty) {
        return false;
    }
    let target = match m.func_by_name(canonical) {
        Some(t) if m.func_type(t) == fty => t,
        Some(_) => return false,
        None => match m.declare_function(canonical, fty) {
            Ok(t) => t,
            Err(_) => return false,
        },
    };
    let v = m.func_value(target);
    m.set_callee(call, v, fty).is_ok()
}

/// Rule 13 (`strip_dead_assume`): deletes `llvm.assume(i1 C)` calls whose
/// condition is a constant: `assume(true)` states nothing, and deleting
/// `assume(false)` only makes an undefined path defined. Calls carrying
/// operand bundles (`["align"(ptr %p, i64 16)]`) are kept: the bundles are
/// the assumption.
pub fn strip_dead_assume<M: IrEdit + ?Sized>(m: &mut M, f: FuncId) -> u64 {
    let dead: Vec<InstId> = func_insts(m, f)
        .into_iter()
        .filter(|&i| {
            m.opcode(i) == Opcode::Call
                && direct_callee_name(m, i) == Some("llvm.assume")
                && m.call_args(i)
                    .next()
                    .is_some_and(|c| m.const_int(c).is_some())
                && !has_bundle_operands(m, i)
        })
        .collect();
    dead.into_iter()
        .filter(|&i| m.erase_inst(i).is_ok())
        .count() as u64
}
