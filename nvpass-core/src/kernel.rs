//! The one kernel predicate: [`is_kernel_function`].
//!
//! Spec 002 "Kernel Identity": every pass that asks "is this a kernel?"
//! (KernelAttrPass, InlineMustPass, CDPLaunchExpander, KernelArgEliminator,
//! ...) must reach the same predicate, so that no two passes disagree. This
//! is it; do not re-implement the check elsewhere.

use crate::ir::{AttrKey, AttrSlot, CallConv, FuncId, IrView};

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
