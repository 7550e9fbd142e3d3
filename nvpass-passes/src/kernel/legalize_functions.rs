//! `legalize-functions` (LegalizeFunctions): post-link function-level
//! cleanup that makes a linked NVVM module acceptable to LLVM and ptxas.
//!
//! Spec 002, "Pass Registration Table": LegalizeFunctions, "post-link
//! function-level cleanup". The spec gives no rule list; this module defines
//! it. Each rule fixes or reports one function-level property that the LLVM
//! verifier or ptxas rejects after modules have been linked (libdevice,
//! user code and frontend output merged), and nothing else: no
//! internalization, no attribute stripping beyond the one conflict the
//! verifier rejects, no body changes.
//!
//! # Rules, in the order they run
//! 1. **`available_externally` bodies that are still called become
//!    `linkonce_odr`.** After the final link no other module provides the
//!    "external" definition, and llc-19 emits neither body nor prototype
//!    for an `available_externally` function, so ptxas rejects the call
//!    ("Call to 'f' requires call prototype", "Unknown symbol 'f'", checked
//!    with llc-19 and ptxas 12.9). `available_externally` promises the body
//!    is equivalent to the real definition, so emitting it as a `.weak`
//!    (`linkonce_odr`) definition keeps the semantics. Unused ones are left
//!    alone (llc emits nothing for them; `remove-dead-functions` deletes
//!    them).
//! 2. **`noinline` and `alwaysinline` together: drop `alwaysinline`.** The
//!    LLVM verifier rejects the pair ("Attributes 'noinline and
//!    alwaysinline' are incompatible!"); linking attribute groups from
//!    different front ends produces it. `noinline` wins: never inlining
//!    is always correct, inlining may not be (the user asked for a call).
//! 3. **`optnone` without `noinline`: add `noinline`.** The LLVM verifier
//!    requires it ("Attribute 'optnone' requires 'noinline'!").
//! 4. **A kernel that returns a value is an error.** A PTX `.entry` has no
//!    return value; llc-19 emits a store to an undeclared `func_retval0`
//!    that ptxas rejects.
//! 5. **A direct call of a kernel is an error.** PTX cannot call an
//!    `.entry` ("Illegal call target, device function expected"); device
//!    code launches kernels through CDP instead.
//!
//! Kernels are recognised by [`KernelSet`] (the one predicate plus legacy
//! `!nvvm.annotations` marks). Rules 4 and 5 report every offence, then the
//! pass fails, so the pipeline stops before code generation. Rules 1-3 run
//! first and are idempotent.
//!
//! # Knobs
//! None.
//!
//! # Diagnostics
//! - `Passed` remarks `AvailableExternallyMaterialized`,
//!   `AlwaysInlineDropped`, `NoInlineAdded`, one per function changed.
//! - Errors `KernelReturnsValue` (`kernel 'k' returns 'i32'; a PTX entry
//!   must return void`) and `KernelCalled` (`kernel 'k' is called directly
//!   from 'f'; PTX kernels can only be launched`), located at the call's
//!   `!dbg` when present; then the pass fails.
//! - Statistic `NumFunctionsLegalized`.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use nvpass_core::diag::{Diagnostic, RemarkKind};
use nvpass_core::ir::{
    Attr, AttrKey, AttrKind, AttrSlot, Callee, FuncId, IrEdit, IrView, Linkage, TypeKind, User,
};
use nvpass_core::kernel::KernelSet;
use nvpass_core::names;
use nvpass_core::pass::{
    AnyPass, ModulePass, PassContext, PassFailure, PassInfo, PassOptions, PreservedOrChanged,
};
use nvpass_core::stats::StatInfo;

/// Registry entry of `legalize-functions`.
pub const INFO: PassInfo = PassInfo {
    name: "legalize-functions",
    class_name: names::LEGALIZE_FUNCTIONS,
    description: "post-link function cleanup: materialize called available_externally bodies, fix inline attribute conflicts, reject illegal kernels",
    knobs: &[],
    options: &[],
};

/// Functions changed by rules 1-3.
pub const NUM_LEGALIZED: StatInfo = StatInfo {
    name: "NumFunctionsLegalized",
    description: "Number of function-level fixes applied",
};

/// The pass. Stateless.
#[derive(Copy, Clone, Default, Debug)]
pub struct LegalizeFunctions;

fn has(m: &(impl IrView + ?Sized), f: FuncId, k: AttrKind) -> bool {
    m.has_attr(f, AttrSlot::Function, AttrKey::Kind(k))
}

/// Rule 1 applies: a called (used) `available_externally` definition.
fn needs_materializing<M: IrView + ?Sized>(m: &M, f: FuncId) -> bool {
    m.func_linkage(f) == Linkage::AvailableExternally
        && !m.func_is_declaration(f)
        && !m.has_no_uses(m.func_value(f))
}

fn type_text<M: IrView + ?Sized>(m: &M, ty: nvpass_core::ir::TypeId) -> String {
    match m.type_kind(ty) {
        TypeKind::Int(n) => format!("i{n}"),
        TypeKind::Float => "float".into(),
        TypeKind::Double => "double".into(),
        TypeKind::Half => "half".into(),
        TypeKind::Ptr(0) => "ptr".into(),
        TypeKind::Ptr(a) => format!("ptr addrspace({a})"),
        TypeKind::Struct { .. } => match m.struct_name(ty) {
            Some(n) => format!("%{n}"),
            None => "a struct".into(),
        },
        TypeKind::Array { .. } => "an array".into(),
        TypeKind::Vector { .. } => "a vector".into(),
        _ => "a non-void type".into(),
    }
}

/// Errors of rules 4 and 5.
fn kernel_errors<M: IrView + ?Sized>(m: &M, cx: &PassContext<'_>) -> Vec<Diagnostic> {
    let kernels = KernelSet::compute(m);
    let mut out = Vec::new();
    for k in m.funcs().filter(|&f| kernels.contains(f)) {
        let name = m.func_name(k);
        let ret = m.ret_type(k);
        if m.type_kind(ret) != TypeKind::Void {
            out.push(
                cx.error("KernelReturnsValue")
                    .in_function(name)
                    .text("kernel '")
                    .arg("Kernel", name.to_string())
                    .text("' returns '")
                    .arg("Type", type_text(m, ret))
                    .text("'; a PTX entry must return void"),
            );
        }
        for u in m.users(m.func_value(k)) {
            let User::Inst(i) = u else { continue };
            if m.callee(i) != Some(Callee::Direct(k)) {
                continue;
            }
            let caller = m.func_name(m.inst_func(i));
            out.push(
                cx.error("KernelCalled")
                    .in_function(caller)
                    .at(m.debug_loc(i))
                    .text("kernel '")
                    .arg("Kernel", name.to_string())
                    .text("' is called directly from '")
                    .arg("Caller", caller.to_string())
                    .text("'; PTX kernels can only be launched"),
            );
        }
    }
    out
}

impl<M: IrEdit + ?Sized> ModulePass<M> for LegalizeFunctions {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(
        &mut self,
        m: &mut M,
        cx: &mut PassContext<'_>,
    ) -> Result<PreservedOrChanged, PassFailure> {
        let funcs: Vec<FuncId> = m.funcs().collect();
        let mut fixes = 0u64;
        for f in funcs {
            let name = String::from(m.func_name(f));
            let mut note = |cx: &mut PassContext<'_>, id: &str, what: &str| {
                fixes += 1;
                let d = cx
                    .remark(RemarkKind::Passed, id)
                    .in_function(name.clone())
                    .arg("Function", name.clone())
                    .text(": ")
                    .text(String::from(what));
                cx.emit(d);
            };
            if needs_materializing(m, f) {
                m.set_linkage(f, Linkage::LinkOnceOdr);
                note(
                    cx,
                    "AvailableExternallyMaterialized",
                    "called available_externally definition made linkonce_odr",
                );
            }
            if has(m, f, AttrKind::NoInline) && has(m, f, AttrKind::AlwaysInline) {
                m.remove_attr(f, AttrSlot::Function, AttrKey::Kind(AttrKind::AlwaysInline));
                note(
                    cx,
                    "AlwaysInlineDropped",
                    "alwaysinline dropped (conflicts with noinline)",
                );
            }
            if has(m, f, AttrKind::OptNone) && !has(m, f, AttrKind::NoInline) {
                m.add_attr(f, AttrSlot::Function, Attr::Enum(AttrKind::NoInline));
                note(cx, "NoInlineAdded", "noinline added (required by optnone)");
            }
        }
        cx.add_stat(&NUM_LEGALIZED, fixes);
        let errors = kernel_errors(m, cx);
        let n = errors.len();
        for e in errors {
            cx.emit(e);
        }
        if n > 0 {
            return Err(PassFailure::new(format!(
                "{n} illegal kernel definition(s) or call(s)"
            )));
        }
        Ok(PreservedOrChanged::from_changed(fixes > 0))
    }
}

/// Registry constructor.
pub fn ctor<M: IrEdit + ?Sized>(_: &PassOptions) -> Result<AnyPass<M>, String> {
    Ok(AnyPass::Transform(Box::new(LegalizeFunctions)))
}
