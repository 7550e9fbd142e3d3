//! The spec-002 short pass names, as constants for `nvpass-passes` to use in
//! its `PassInfo::class_name`s.
//!
//! Spec 002 "Pass Registration Table": "Treat the short names as stable
//! public surface. They appear in remark output, in command-line pass
//! pipelines, and in the names emitted by -debug-pass-manager." Core only
//! names them; registering the passes is `nvpass-passes`' job.

/// Spec 002 "Pass Registration Table": annotate kernels with `nvvm.kernel`.
pub const KERNEL_ATTR_PASS: &str = "KernelAttrPass";
/// Spec 002 "Pass Registration Table": emit `kernel-info: ...` remarks.
pub const KERNEL_INFO_PRINTER: &str = "KernelInfoPrinter";
/// Spec 002 "Pass Registration Table": force AlwaysInline on hot kernels.
pub const INLINE_MUST_PASS: &str = "InlineMustPass";
/// Spec 002 "Pass Registration Table": early IR cleanup before NVPTX.
pub const PRETREAT: &str = "Pretreat";
/// Spec 002 "Pass Registration Table": expand `cudaLaunchDevice` to
/// `__cudaCDP*LaunchDeviceV2`.
pub const CDP_LAUNCH_EXPANDER: &str = "CDPLaunchExpander";
/// Spec 002 "Pass Registration Table": wire up `__cudaCDP*GetParameterBufferV2`.
pub const CDP_PARAMETER_BUFFER: &str = "CDPParameterBuffer";
/// Spec 002 "Pass Registration Table": drop unused kernel args.
pub const KERNEL_ARG_ELIMINATOR: &str = "KernelArgEliminator";
/// Spec 002 "Pass Registration Table": move kernel attrs to `nvvm.*` form.
pub const KERNEL_ATTR_TRANSPLANTER: &str = "KernelAttrTransplanter";
/// Spec 002 "Pass Registration Table": dead-function elimination.
pub const REMOVE_DEAD_FUNCTIONS: &str = "RemoveDeadFunctions";
/// Spec 002 "Pass Registration Table": post-link function-level cleanup.
pub const LEGALIZE_FUNCTIONS: &str = "LegalizeFunctions";

/// The ten short names in the order of spec 002's "Pass Registration Table".
pub const SPEC_002_SHORT_NAMES: [&str; 10] = [
    KERNEL_ATTR_PASS,
    KERNEL_INFO_PRINTER,
    INLINE_MUST_PASS,
    PRETREAT,
    CDP_LAUNCH_EXPANDER,
    CDP_PARAMETER_BUFFER,
    KERNEL_ARG_ELIMINATOR,
    KERNEL_ATTR_TRANSPLANTER,
    REMOVE_DEAD_FUNCTIONS,
    LEGALIZE_FUNCTIONS,
];

/// The C++ class of a spec-002 short name (`"mlir::nvvm::KernelAttrPass"`),
/// from the table's "C++ class" column.
pub fn spec_002_cxx_class(short_name: &str) -> Option<&'static str> {
    Some(match short_name {
        KERNEL_ATTR_PASS => "mlir::nvvm::KernelAttrPass",
        KERNEL_INFO_PRINTER => "mlir::nvvm::KernelInfoPrinter",
        INLINE_MUST_PASS => "mlir::nvvm::InlineMustPass",
        PRETREAT => "mlir::nvvm::PretreatPass",
        CDP_LAUNCH_EXPANDER => "mlir::nvvm::CDPLaunchExpander",
        CDP_PARAMETER_BUFFER => "mlir::nvvm::CDPParameterBuffer",
        KERNEL_ARG_ELIMINATOR => "mlir::nvvm::KernelArgEliminator",
        KERNEL_ATTR_TRANSPLANTER => "mlir::nvvm::KernelAttrTransplanter",
        REMOVE_DEAD_FUNCTIONS => "mlir::nvvm::RemoveDeadFunctions",
        LEGALIZE_FUNCTIONS => "mlir::nvvm::LegalizeFunctions",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_short_name_has_a_class() {
        for n in SPEC_002_SHORT_NAMES {
            let class = spec_002_cxx_class(n).unwrap();
            assert!(class.starts_with("mlir::nvvm::"));
        }
        // The one row whose class differs from its short name.
        assert_eq!(
            spec_002_cxx_class(PRETREAT),
            Some("mlir::nvvm::PretreatPass")
        );
        assert_eq!(spec_002_cxx_class("Nope"), None);
    }
}
