//! `kernel-attr` (KernelAttrPass): stamp `"nvvm.kernel"` on every kernel.
//!
//! Spec 002, "Pass Registration Table" (KernelAttrPass: "annotate kernels
//! with nvvm.kernel") and "Kernel Identity", criterion 2: `nvvm.kernel` is
//! "the canonical form KernelAttrPass produces and the form every later
//! analysis prefers to read".
//!
//! # What it does
//! Every function in [`KernelSet`] that lacks the function attribute
//! `"nvvm.kernel"` gets it (bare, no value). [`KernelSet`] is the one
//! predicate [`is_kernel_function`](nvpass_core::kernel::is_kernel_function)
//! (calling convention `ptx_kernel`, `"nvvm.kernel"`,
//! `"nvvm.annotations_transplanted"`, legacy `"kernel"`) plus the legacy
//! `!nvvm.annotations` kernel marks (`!{ptr @k, !"kernel", i32 1}`), which
//! is the only way clang 19 marks kernels. Nothing else changes: the
//! metadata, the calling convention and every other attribute stay as they
//! are (the metadata is what llc-19 reads to emit `.entry`).
//!
//! # Choices
//! - Legacy annotations are read here, not folded into the predicate: the
//!   predicate stays the spec's four criteria; `nvpass_core::kernel` holds
//!   the metadata reader next to it (see its module docs). After this pass
//!   the predicate alone recognises every kernel.
//! - Declarations are stamped too (a declared kernel is still a kernel);
//!   an existing `"nvvm.kernel"` with any value is left untouched, so the
//!   pass is idempotent.
//!
//! # Knobs
//! None.
//!
//! # Diagnostics
//! - `Passed` remark `KernelMarked` per stamped function:
//!   `marked 'k' as kernel (nvvm.kernel)` (see `--pass-remarks=kernel-attr`).
//! - Statistic `NumKernelsMarked`.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use nvpass_core::diag::RemarkKind;
use nvpass_core::ir::{Attr, AttrSlot, IrEdit};
use nvpass_core::kernel::{KernelSet, NVVM_KERNEL_ATTR};
use nvpass_core::names;
use nvpass_core::pass::{
    AnyPass, ModulePass, PassContext, PassFailure, PassInfo, PassOptions, PreservedOrChanged,
};
use nvpass_core::stats::StatInfo;

/// Registry entry of `kernel-attr`.
pub const INFO: PassInfo = PassInfo {
    name: "kernel-attr",
    class_name: names::KERNEL_ATTR_PASS,
    description: "annotate kernels with nvvm.kernel",
    knobs: &[],
    options: &[],
};

/// Kernels that received `"nvvm.kernel"`.
pub const NUM_KERNELS_MARKED: StatInfo = StatInfo {
    name: "NumKernelsMarked",
    description: "Number of kernels stamped with nvvm.kernel",
};

/// The pass. Stateless.
#[derive(Copy, Clone, Default, Debug)]
pub struct KernelAttrPass;

impl<M: IrEdit + ?Sized> ModulePass<M> for KernelAttrPass {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(
        &mut self,
        m: &mut M,
        cx: &mut PassContext<'_>,
    ) -> Result<PreservedOrChanged, PassFailure> {
        let kernels = KernelSet::compute(m);
        let todo: Vec<_> = m
            .funcs()
            .filter(|&f| kernels.contains(f))
            .filter(|&f| {
                m.str_attr(f, AttrSlot::Function, NVVM_KERNEL_ATTR)
                    .is_none()
            })
            .collect();
        for &f in &todo {
            m.add_attr(f, AttrSlot::Function, Attr::Str(NVVM_KERNEL_ATTR, ""));
            if !cx.remarks_enabled() {
                continue;
            }
            let name = String::from(m.func_name(f));
            let d = cx
                .remark(RemarkKind::Passed, "KernelMarked")
                .in_function(name.clone())
                .text("marked '")
                .arg("Function", name)
                .text(format!("' as kernel ({NVVM_KERNEL_ATTR})"));
            cx.emit(d);
        }
        cx.add_stat(&NUM_KERNELS_MARKED, todo.len() as u64);
        Ok(PreservedOrChanged::from_changed(!todo.is_empty()))
    }
}

/// Registry constructor.
pub fn ctor<M: IrEdit + ?Sized>(_: &PassOptions) -> Result<AnyPass<M>, String> {
    Ok(AnyPass::Transform(Box::new(KernelAttrPass)))
}
