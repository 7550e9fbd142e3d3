//! `kernel-arg-elim` (KernelArgEliminator): find, and on request remove,
//! unused kernel parameters.
//!
//! Spec 002, "Pass Registration Table" (KernelArgEliminator: "drop unused
//! kernel args") and "Kernel Identity" (the pass must use the shared
//! predicate, so that it never drops parameters of a function another pass
//! treats differently).
//!
//! # Why the default does not change signatures
//! A kernel's parameter list is its launch ABI: the host side
//! (`cudaLaunchKernel` argument arrays, `<<<>>>` stubs compiled separately,
//! CDP parameter buffers laid out by the caller) fills the parameter space
//! by the signature it was compiled against. Removing a parameter in the
//! device module alone shifts every later parameter and silently corrupts
//! launches. So by default the pass only **reports**: one `Missed` remark per
//! unused parameter; the IR is unchanged.
//!
//! # Opt-in removal
//! With `--kernel-arg-elim-change-abi=true` unused parameters really are
//! removed ([`IrEdit::remove_param`], last to first, so parameter attributes
//! follow their parameters) from every kernel that is safe to change:
//! - a definition (a declaration has no uses to inspect);
//! - whose address is not used anywhere (no direct calls, no CDP launch
//!   passing `ptr @k`, no `@llvm.used` entry): a use means some code still
//!   launches it with the old layout;
//! - and that has no `grid_constant` entry in `!nvvm.annotations`, whose
//!   1-based parameter indices would be left pointing at the wrong
//!   parameters (run `kernel-attr-transplant` first: the
//!   `"nvvm.grid_constant"` parameter attribute moves with its parameter).
//!
//! Kernels that fail a condition get a `Missed` remark naming the reason.
//! The caller (a compiler that owns both host and device code) is
//! responsible for updating the launch sites.
//!
//! "Unused" means the argument value has no use; references from debug
//! records do not count (the host drops them with the parameter).
//!
//! # Knobs
//! - `--kernel-arg-elim-change-abi` (bool, default `false`).
//!
//! # Diagnostics
//! - `Missed` remark `UnusedKernelArg` (report mode):
//!   `parameter N ('%x') of kernel 'k' is unused; kept to preserve the launch ABI`.
//! - `Passed` remark `KernelArgRemoved` (ABI mode):
//!   `removed unused parameter N ('%x') of kernel 'k'`.
//! - `Missed` remark `KernelArgsKept` (ABI mode): kernel not changed and why.
//! - Statistics `NumUnusedKernelArgs`, `NumKernelArgsRemoved`.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use nvpass_core::diag::RemarkKind;
use nvpass_core::ir::{FuncId, IrEdit, IrView};
use nvpass_core::kernel::{nvvm_annotations, KernelSet};
use nvpass_core::knob::{KnobInfo, KnobKind};
use nvpass_core::names;
use nvpass_core::pass::{
    AnyPass, ModulePass, PassContext, PassFailure, PassInfo, PassOptions, PreservedOrChanged,
};
use nvpass_core::stats::StatInfo;

/// Opt in to removing unused kernel parameters (changes the launch ABI).
pub const CHANGE_ABI: KnobInfo = KnobInfo {
    name: "kernel-arg-elim-change-abi",
    kind: KnobKind::Bool,
    default: "false",
    description: "really remove unused kernel parameters (changes the kernel launch ABI)",
};

/// Registry entry of `kernel-arg-elim`.
pub const INFO: PassInfo = PassInfo {
    name: "kernel-arg-elim",
    class_name: names::KERNEL_ARG_ELIMINATOR,
    description: "report (or, opting in, drop) unused kernel parameters",
    knobs: &[CHANGE_ABI],
    options: &[],
};

/// Unused kernel parameters found.
pub const NUM_UNUSED: StatInfo = StatInfo {
    name: "NumUnusedKernelArgs",
    description: "Number of unused kernel parameters found",
};

/// Kernel parameters removed.
pub const NUM_REMOVED: StatInfo = StatInfo {
    name: "NumKernelArgsRemoved",
    description: "Number of unused kernel parameters removed",
};

/// The pass. Stateless.
#[derive(Copy, Clone, Default, Debug)]
pub struct KernelArgEliminator;

/// Why a kernel's parameters may not be removed even in ABI mode.
fn blocker<M: IrView + ?Sized>(m: &M, f: FuncId) -> Option<&'static str> {
    if !m.has_no_uses(m.func_value(f)) {
        return Some("its address is used (called or launched)");
    }
    let grid_constant = nvvm_annotations(m).any(|(_, a)| {
        a.is_some_and(|a| {
            a.target_func(m) == Some(f) && a.props.iter().any(|&(k, _)| k == "grid_constant")
        })
    });
    if grid_constant {
        return Some("!nvvm.annotations holds grid_constant parameter indices");
    }
    None
}

/// `%name` of parameter `i`, or `<unnamed>`.
fn param_label<M: IrView + ?Sized>(m: &M, f: FuncId, i: usize) -> String {
    match m.param(f, i).and_then(|v| m.value_name(v)) {
        Some(n) => format!("%{n}"),
        None => String::from("<unnamed>"),
    }
}

impl<M: IrEdit + ?Sized> ModulePass<M> for KernelArgEliminator {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(
        &mut self,
        m: &mut M,
        cx: &mut PassContext<'_>,
    ) -> Result<PreservedOrChanged, PassFailure> {
        let change_abi = cx.knob_bool(&CHANGE_ABI);
        let kernels = KernelSet::compute(m);
        let defs: Vec<FuncId> = m
            .funcs()
            .filter(|&f| kernels.contains(f) && !m.func_is_declaration(f))
            .collect();
        let (mut found, mut removed) = (0u64, 0u64);
        for f in defs {
            let unused: Vec<usize> = m
                .params(f)
                .enumerate()
                .filter(|&(_, v)| m.has_no_uses(v))
                .map(|(i, _)| i)
                .collect();
            if unused.is_empty() {
                continue;
            }
            found += unused.len() as u64;
            let name = String::from(m.func_name(f));
            if !change_abi {
                if !cx.remarks_enabled() {
                    continue;
                }
                for &i in &unused {
                    let d = cx
                        .remark(RemarkKind::Missed, "UnusedKernelArg")
                        .in_function(name.clone())
                        .text("parameter ")
                        .arg("ArgNo", i.to_string())
                        .text(" ('")
                        .arg("Arg", param_label(m, f, i))
                        .text("') of kernel '")
                        .arg("Kernel", name.clone())
                        .text("' is unused; kept to preserve the launch ABI");
                    cx.emit(d);
                }
                continue;
            }
            if let Some(why) = blocker(m, f) {
                let d = cx
                    .remark(RemarkKind::Missed, "KernelArgsKept")
                    .in_function(name.clone())
                    .text("unused parameters of kernel '")
                    .arg("Kernel", name.clone())
                    .text("' kept: ")
                    .arg("Reason", why);
                cx.emit(d);
                continue;
            }
            for &i in unused.iter().rev() {
                let label = param_label(m, f, i);
                match m.remove_param(f, i) {
                    Ok(()) => {
                        removed += 1;
                        let d = cx
                            .remark(RemarkKind::Passed, "KernelArgRemoved")
                            .in_function(name.clone())
                            .text("removed unused parameter ")
                            .arg("ArgNo", i.to_string())
                            .text(" ('")
                            .arg("Arg", label)
                            .text("') of kernel '")
                            .arg("Kernel", name.clone())
                            .text("'");
                        cx.emit(d);
                    }
                    Err(e) => {
                        let d = cx
                            .remark(RemarkKind::Missed, "KernelArgsKept")
                            .in_function(name.clone())
                            .text(format!("parameter {i} ('{label}') of kernel '"))
                            .arg("Kernel", name.clone())
                            .text("' kept: ")
                            .arg("Reason", e.to_string());
                        cx.emit(d);
                    }
                }
            }
        }
        cx.add_stat(&NUM_UNUSED, found);
        cx.add_stat(&NUM_REMOVED, removed);
        Ok(PreservedOrChanged::from_changed(removed > 0))
    }
}

/// Registry constructor.
pub fn ctor<M: IrEdit + ?Sized>(_: &PassOptions) -> Result<AnyPass<M>, String> {
    Ok(AnyPass::Transform(Box::new(KernelArgEliminator)))
}
