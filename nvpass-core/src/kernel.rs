//! The one kernel predicate: [`is_kernel_function`].
//!
//! Spec 002 "Kernel Identity": every pass that asks "is this a kernel?"
//! (KernelAttrPass, InlineMustPass, CDPLaunchExpander, KernelArgEliminator,
//! ...) must reach the same predicate, so that no two passes disagree. This
//! is it; do not re-implement the check elsewhere.
//!
//! # Legacy `!nvvm.annotations` kernel marks
//!
//! clang (up to at least 19) and CUDA 11-era NVVM mark kernels only through
//! the module-level list `!nvvm.annotations = !{!{ptr @k, !"kernel", i32 1}}`,
//! which none of the spec's four criteria reads. The predicate stays exactly
//! the spec's four-criteria disjunction; the metadata form is handled next to
//! it, once, by:
//!
//! - [`parse_nvvm_annotation`] / [`nvvm_annotations`]: the one reader of
//!   `!nvvm.annotations` entries (`!{<target>, !"key", <value>, ...}`);
//! - [`KernelSet`]: the set of functions that satisfy
//!   [`is_kernel_function`] *or* carry a legacy kernel mark with a non-zero
//!   value. Passes that must not miss kernels of unmigrated IR (stamping,
//!   dead-function removal, argument elimination, kernel reports) use it;
//!   it calls [`is_kernel_function`] and adds the metadata marks, so the two
//!   never disagree on a function that has been through `kernel-attr` or
//!   `kernel-attr-transplant`.
//!
//! A mark `!"kernel", i32 0` is not a kernel mark (LLVM's
//! `isKernelFunction` reads the value the same way).

use alloc::vec::Vec;

use hashbrown::HashSet;

use crate::ir::{AttrKey, AttrSlot, CallConv, FuncId, IrView, MdId, MdOperand, ValueId, ValueKind};

/// Function attribute that marks a kernel in the modern form (criterion 2).
///
/// Spec 002, "Kernel Identity", criterion 2: "function carries the
/// nvvm.kernel LLVM attribute", set by KernelAttrPass.
pub const NVVM_KERNEL_ATTR: &str = "nvvm.kernel";

/// Marker stamped by KernelAttrTransplanter after migrating legacy
/// `!nvvm.annotations` kernel marks (criterion 3).
///
/// Spec 002, "Kernel Identity", criterion 3.
pub const NVVM_ANNOTATIONS_TRANSPLANTED_ATTR: &str = "nvvm.annotations_transplanted";

/// Legacy string attribute of CUDA 11 and earlier front ends (criterion 4).
///
/// Spec 002, "Kernel Identity", criterion 4: "function carries the legacy
/// string attribute \"kernel\"".
pub const LEGACY_KERNEL_ATTR: &str = "kernel";

/// Whether `f` is a kernel entry point: spec 002 "Kernel Identity", the
/// four-criteria disjunction, checked in the spec's order:
///
/// 1. the calling convention is `ptx_kernel` (LLVM id 0x47);
/// 2. the function has the attribute [`NVVM_KERNEL_ATTR`];
/// 3. the function has the attribute [`NVVM_ANNOTATIONS_TRANSPLANTED_ATTR`];
/// 4. the function has the legacy attribute [`LEGACY_KERNEL_ATTR`].
///
/// The attributes are string attributes (`"nvvm.kernel"`); their value is
/// ignored, as `Function::hasFnAttribute(StringRef)` ignores it.
pub fn is_kernel_function<M: IrView + ?Sized>(ir: &M, f: FuncId) -> bool {
    ir.func_call_conv(f) == CallConv::PtxKernel
        || [
            NVVM_KERNEL_ATTR,
            NVVM_ANNOTATIONS_TRANSPLANTED_ATTR,
            LEGACY_KERNEL_ATTR,
        ]
        .into_iter()
        .any(|key| ir.has_attr(f, AttrSlot::Function, AttrKey::Str(key)))
}

/// Named metadata holding legacy NVVM annotations (`!nvvm.annotations`).
///
/// Spec 002 "Kernel Identity", criterion 3: the "old !nvvm.annotations
/// metadata" that KernelAttrTransplanter migrates.
pub const NVVM_ANNOTATIONS: &str = "nvvm.annotations";

/// Annotation key of a legacy kernel mark (`!{ptr @k, !"kernel", i32 1}`).
pub const KERNEL_ANNOTATION_KEY: &str = "kernel";

/// One well-formed `!nvvm.annotations` entry: `!{<target>, !"k1", v1, ...}`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NvvmAnnotation<'a> {
    /// The entry's node.
    pub node: MdId,
    /// The annotated value (a function or a global variable).
    pub target: ValueId,
    /// The `(key, value)` pairs in order; values are usually integer
    /// constants (`MdOperand::Value`), `grid_constant` takes a node.
    pub props: Vec<(&'a str, MdOperand<'a>)>,
}

impl NvvmAnnotation<'_> {
    /// The function annotated, if the target is a function.
    pub fn target_func<M: IrView + ?Sized>(&self, ir: &M) -> Option<FuncId> {
        match ir.value_kind(self.target) {
            ValueKind::Function(f) => Some(f),
            _ => None,
        }
    }

    /// Whether the entry holds a kernel mark with a non-zero integer value.
    pub fn is_kernel_mark<M: IrView + ?Sized>(&self, ir: &M) -> bool {
        self.props.iter().any(|&(k, v)| {
            k == KERNEL_ANNOTATION_KEY
                && matches!(v, MdOperand::Value(v) if ir.const_int(v).is_some_and(|x| x != 0))
        })
    }
}

/// Reads entry `node` of `!nvvm.annotations`. `None` when it is not of the
/// form `!{<value>, !"key", <operand>, ...}` (no target value, `null`
/// target, an odd number of key/value operands, or a key that is not a
/// string); callers decide whether to report such entries.
pub fn parse_nvvm_annotation<M: IrView + ?Sized>(ir: &M, node: MdId) -> Option<NvvmAnnotation<'_>> {
    let mut ops = ir.md_operands(node);
    let target = match ops.next()? {
        MdOperand::Value(v) => v,
        _ => return None,
    };
    let mut props = Vec::new();
    loop {
        let key = match ops.next() {
            None => break,
            Some(MdOperand::String(k)) => k,
            Some(_) => return None,
        };
        props.push((key, ops.next()?));
    }
    Some(NvvmAnnotation {
        node,
        target,
        props,
    })
}

/// The function entry `node` of `!nvvm.annotations` marks as a kernel:
/// what [`parse_nvvm_annotation`], [`NvvmAnnotation::is_kernel_mark`] and
/// [`NvvmAnnotation::target_func`] give together, read in one pass over
/// the operands with nothing collected. [`KernelSet::compute`] asks it of
/// every entry, one per kernel and often several.
fn kernel_mark_target<M: IrView + ?Sized>(ir: &M, node: MdId) -> Option<FuncId> {
    let mut ops = ir.md_operands(node);
    let MdOperand::Value(target) = ops.next()? else {
        return None;
    };
    let mut mark = false;
    while let Some(key) = ops.next() {
        let MdOperand::String(key) = key else {
            return None;
        };
        let value = ops.next()?;
        mark |= key == KERNEL_ANNOTATION_KEY
            && matches!(value, MdOperand::Value(v) if ir.const_int(v).is_some_and(|x| x != 0));
    }
    match ir.value_kind(target) {
        ValueKind::Function(f) if mark => Some(f),
        _ => None,
    }
}

/// Every entry of `!nvvm.annotations` in order, with its parse
/// ([`parse_nvvm_annotation`]; `None` for malformed entries).
pub fn nvvm_annotations<M: IrView + ?Sized>(
    ir: &M,
) -> impl Iterator<Item = (MdId, Option<NvvmAnnotation<'_>>)> + '_ {
    ir.named_md(NVVM_ANNOTATIONS)
        .map(move |md| (md, parse_nvvm_annotation(ir, md)))
}

/// The kernels of a module: functions satisfying [`is_kernel_function`]
/// plus functions with a legacy `!nvvm.annotations` kernel mark (see the
/// module docs). Computed once; cheap to query.
#[derive(Clone, Default, Debug)]
pub struct KernelSet {
    kernels: HashSet<FuncId>,
    annotated: HashSet<FuncId>,
}

impl KernelSet {
    /// Computes the set for `ir`.
    pub fn compute<M: IrView + ?Sized>(ir: &M) -> KernelSet {
        let annotated: HashSet<FuncId> = ir
            .named_md(NVVM_ANNOTATIONS)
            .filter_map(|md| kernel_mark_target(ir, md))
            .collect();
        let mut kernels: HashSet<FuncId> =
            ir.funcs().filter(|&f| is_kernel_function(ir, f)).collect();
        kernels.extend(annotated.iter().copied());
        KernelSet { kernels, annotated }
    }

    /// Whether `f` is a kernel by [`is_kernel_function`] or by a legacy
    /// annotation.
    pub fn contains(&self, f: FuncId) -> bool {
        self.kernels.contains(&f)
    }

    /// Whether `f` carries a legacy `!nvvm.annotations` kernel mark.
    pub fn has_legacy_mark(&self, f: FuncId) -> bool {
        self.annotated.contains(&f)
    }

    /// Number of kernels.
    pub fn len(&self) -> usize {
        self.kernels.len()
    }

    /// Whether there is no kernel.
    pub fn is_empty(&self) -> bool {
        self.kernels.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Attr, AttrKind};
    use crate::testing::MockModule;

    #[test]
    fn four_criteria() {
        let mut m = MockModule::default();
        let plain = m.add_func("plain", CallConv::C, &[]);
        let cc = m.add_func("cc", CallConv::PtxKernel, &[]);
        let modern = m.add_func("modern", CallConv::C, &[Attr::Str("nvvm.kernel", "")]);
        let transplanted = m.add_func(
            "transplanted",
            CallConv::C,
            &[Attr::Str("nvvm.annotations_transplanted", "")],
        );
        let legacy = m.add_func("legacy", CallConv::C, &[Attr::Str("kernel", "1")]);
        let device = m.add_func(
            "device",
            CallConv::PtxDevice,
            &[Attr::Enum(AttrKind::NoInline)],
        );
        // Look-alikes that are not kernels: a different key, an unknown
        // attribute spelled like the key, a C++ name containing "kernel".
        let other = m.add_func(
            "kernel",
            CallConv::Other(70),
            &[Attr::Str("nvvm.kernels", ""), Attr::Unknown("kernel")],
        );
        assert!(!is_kernel_function(&m, plain));
        assert!(is_kernel_function(&m, cc));
        assert!(is_kernel_function(&m, modern));
        assert!(is_kernel_function(&m, transplanted));
        assert!(is_kernel_function(&m, legacy));
        assert!(!is_kernel_function(&m, device));
        assert!(!is_kernel_function(&m, other));
    }

    #[test]
    fn ptx_kernel_is_0x47() {
        assert_eq!(CallConv::PtxKernel.id(), 0x47);
        assert_eq!(CallConv::from_id(0x47), CallConv::PtxKernel);
    }
}
