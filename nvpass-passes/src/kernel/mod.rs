//! The kernel-level passes of spec 002's registration table: kernel
//! identity stamping and migration, the kernel report, kernel argument
//! elimination, and the post-link function cleanups.
//!
//! | pipeline name | class (spec 002) | module |
//! |---|---|---|
//! | `kernel-attr` | KernelAttrPass | [`kernel_attr`] |
//! | `kernel-attr-transplant` | KernelAttrTransplanter | [`attr_transplant`] |
//! | `kernel-info` | KernelInfoPrinter | [`kernel_info`] |
//! | `kernel-arg-elim` | KernelArgEliminator | [`arg_elim`] |
//! | `remove-dead-functions` | RemoveDeadFunctions | [`remove_dead_functions`] |
//! | `legalize-functions` | LegalizeFunctions | [`legalize_functions`] |
//!
//! Every pass decides "is this a kernel?" through
//! [`nvpass_core::kernel::KernelSet`], i.e. the one predicate
//! [`is_kernel_function`](nvpass_core::kernel::is_kernel_function) plus the
//! legacy `!nvvm.annotations` kernel marks clang still emits.

pub mod arg_elim;
pub mod attr_transplant;
pub mod kernel_attr;
pub mod kernel_info;
pub mod legalize_functions;
pub mod remove_dead_functions;

use nvpass_core::ir::IrEdit;
use nvpass_core::registry::Registry;

/// Registers the kernel passes, in spec 002's table order.
pub fn register<M: IrEdit + ?Sized>(r: &mut Registry<M>) {
    let entries: [(
        &'static nvpass_core::pass::PassInfo,
        nvpass_core::registry::PassCtor<M>,
    ); 6] = [
        (&kernel_attr::INFO, kernel_attr::ctor::<M>),
        (&kernel_info::INFO, kernel_info::ctor::<M>),
        (&arg_elim::INFO, arg_elim::ctor::<M>),
        (&attr_transplant::INFO, attr_transplant::ctor::<M>),
        (
            &remove_dead_functions::INFO,
            remove_dead_functions::ctor::<M>,
        ),
        (&legalize_functions::INFO, legalize_functions::ctor::<M>),
    ];
    for (info, ctor) in entries {
        // Names are static and distinct; a clash is a build-time bug caught
        // by the registry unit test.
        if r.register(info, ctor).is_err() {
            debug_assert!(false, "pass name {} registered twice", info.name);
        }
    }
}

#[cfg(test)]
mod tests {
    use nvpass_core::ir::{IrView, MdOperand};
    use nvpass_core::kernel::{is_kernel_function, nvvm_annotations, KernelSet};
    use nvpass_core::knob::KnobValues;

    const SRC: &str = r#"
define void @plain() {
  ret void
}
define ptx_kernel void @cc() {
  ret void
}
define void @annotated() {
  ret void
}
define void @zero() {
  ret void
}
@g = addrspace(1) global i32 0
!nvvm.annotations = !{!0, !1, !2, !3, !4}
!0 = !{ptr @annotated, !"maxntidx", i32 64, !"kernel", i32 1}
!1 = !{ptr @zero, !"kernel", i32 0}
!2 = !{ptr addrspace(1) @g, !"managed", i32 1}
!3 = !{ptr @plain, !"kernel"}
!4 = !{!"kernel", i32 1}
"#;

    #[test]
    fn kernel_set_reads_the_predicate_and_legacy_marks() {
        let m = nvpass_ir::parse_module(SRC.as_bytes()).unwrap();
        let f = |n: &str| IrView::func_by_name(&m, n).unwrap();
        let ks = KernelSet::compute(&m);
        assert!(ks.contains(f("cc")) && is_kernel_function(&m, f("cc")));
        assert!(ks.contains(f("annotated")) && ks.has_legacy_mark(f("annotated")));
        assert!(!is_kernel_function(&m, f("annotated")));
        assert!(!ks.contains(f("zero")) && !ks.contains(f("plain")));
        assert_eq!(ks.len(), 2);
    }

    #[test]
    fn annotation_entries_parse_or_are_reported_malformed() {
        let m = nvpass_ir::parse_module(SRC.as_bytes()).unwrap();
        let entries: Vec<_> = nvvm_annotations(&m).collect();
        assert_eq!(entries.len(), 5);
        let first = entries[0].1.as_ref().unwrap();
        assert_eq!(first.target_func(&m), IrView::func_by_name(&m, "annotated"));
        assert_eq!(first.props.len(), 2);
        assert_eq!(first.props[0].0, "maxntidx");
        assert!(matches!(first.props[1].1, MdOperand::Value(_)));
        let global = entries[2].1.as_ref().unwrap();
        assert_eq!(global.target_func(&m), None);
        assert!(entries[3].1.is_none(), "odd key/value count");
        assert!(entries[4].1.is_none(), "no target value");
    }

    #[test]
    fn registry_names_and_knobs() {
        let r = crate::registry::<nvpass_ir::Module>();
        for name in [
            "kernel-attr",
            "KernelAttrPass",
            "kernel-attr-transplant",
            "KernelAttrTransplanter",
            "kernel-info",
            "KernelInfoPrinter",
            "kernel-arg-elim",
            "KernelArgEliminator",
            "remove-dead-functions",
            "RemoveDeadFunctions",
            "legalize-functions",
            "LegalizeFunctions",
        ] {
            assert!(r.lookup(name).is_some(), "{name}");
        }
        let mut v = KnobValues::new();
        for e in r.entries() {
            v.declare(e.info.knobs).unwrap();
            v.declare(e.info.options).unwrap();
        }
    }
}
