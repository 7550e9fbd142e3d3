//! The same CUDA-like program twice: written with the tile builder, and as
//! LLVM IR parsed by `nvpass_ir`. `kernel-attr`, the force-inline
//! decision, the inliner cost models, `ipmsp` and `memspace-opt` run
//! unchanged on both, and must decide the same things: which functions
//! become kernels and `alwaysinline`, the cost of every call site, which
//! helpers are specialized or cloned for which address space, and the
//! address space of every pointer afterwards. The comparison is text for
//! text on a canonical dump made through the traits only
//! ([`common::canonical`]).

mod common;

use common::program::{tile, LL};
use common::{attrs, canonical, diag_keys, parse_ll, registered, run, signatures};
use nvpass_core::ir::{AttrSlot, IrView};
use nvpass_example_tile_ir::{print_module, InlinePolicy, Module};

/// The tile program printed on failure.
fn show(t: &Module) -> String {
    format!("tile IR:\n{}", print_module(t))
}

#[test]
fn same_program() {
    assert_eq!(canonical(&tile()), canonical(&parse_ll(LL)));
}

fn pipeline_same(pipeline: &str) -> (Module, nvpass_ir::Module) {
    let (mut t, mut r) = (tile(), parse_ll(LL));
    let dt = run(&mut t, pipeline);
    let dr = run(&mut r, pipeline);
    assert_eq!(signatures(&t), signatures(&r), "{}", show(&t));
    assert_eq!(canonical(&t), canonical(&r), "{}", show(&t));
    assert_eq!(diag_keys(&dt), diag_keys(&dr));
    (t, r)
}

fn fattrs<M: IrView>(m: &M, name: &str) -> Vec<String> {
    attrs(m, m.func_by_name(name).unwrap(), AttrSlot::Function)
}

#[test]
fn kernel_attr() {
    if !registered(&["kernel-attr"]) {
        return;
    }
    let (t, _) = pipeline_same("kernel-attr");
    assert_eq!(fattrs(&t, "k"), ["\"nvvm.kernel\""]);
    assert!(fattrs(&t, "scale").is_empty());
}

#[test]
fn force_inline_decision() {
    if !registered(&["force-inline"]) {
        return;
    }
    let (t, _) = pipeline_same("force-inline<mark-only>");
    // Kernel, large parameters, large return, image handle (over noinline).
    for f in ["k", "big_params", "big_ret", "sample"] {
        assert_eq!(fattrs(&t, f), ["alwaysinline"], "{f}");
        let tf = t.func_named(f).unwrap();
        assert_eq!(t.funcs[tf].inline, InlinePolicy::Always, "{f}");
    }
    assert_eq!(fattrs(&t, "big_noinline"), ["noinline"]);
    for f in ["load_elem", "scale", "mixed", "twice"] {
        assert!(fattrs(&t, f).is_empty(), "{f}");
    }
}

#[test]
fn address_spaces() {
    if !registered(&["ipmsp", "memspace-opt"]) {
        return;
    }
    let (t, _) = pipeline_same("ipmsp,memspace-opt");
    let sigs = signatures(&t).join("\n");
    // load_elem: internal, only called with shared memory: rewritten in place.
    assert!(sigs.contains("@load_elem(ptr addrspace(3), i64)"), "{sigs}");
    // scale: public, called with a kernel (global) pointer: cloned.
    assert!(sigs.contains("@scale(ptr, float)"), "{sigs}");
    assert!(
        sigs.contains("@scale.global(ptr addrspace(1), float)"),
        "{sigs}"
    );
    // mixed: shared and global callers: poisoned, unchanged.
    assert!(sigs.contains("@mixed(ptr)"), "{sigs}");
    // In the kernel, the loop's pointer block argument became shared and
    // the local slot is accessed as local memory.
    let text = print_module(&t);
    assert!(text.contains("^loop(%"), "{text}");
    assert!(
        text.contains(": !tile.ptr<shared>, %") || text.contains("!tile.ptr<shared>, "),
        "{text}"
    );
    assert!(text.contains("!tile.ptr<local>"), "{text}");
}

#[test]
fn whole_pipeline() {
    if !registered(&["kernel-attr", "force-inline", "ipmsp", "memspace-opt"]) {
        return;
    }
    pipeline_same("kernel-attr,force-inline<mark-only>,ipmsp,memspace-opt");
}
