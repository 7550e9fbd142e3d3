//! Unit tests of the classifier: one test per row of the rule table in the
//! module docs, each with a case the rule must not cover.

use alloc::format;
use alloc::string::String;

use nvpass_core::addrspace::{AsLattice, ConcreteSpace};
use nvpass_core::ir::{FuncId, IrView, ValueId};
use nvpass_ir::{parse_module, Module};

use super::{analyze, is_kernel, ProvenanceOptions};

const GLOBAL: AsLattice = AsLattice::Known(ConcreteSpace::Global);
const SHARED: AsLattice = AsLattice::Known(ConcreteSpace::Shared);
const LOCAL: AsLattice = AsLattice::Known(ConcreteSpace::Local);
const CONST: AsLattice = AsLattice::Known(ConcreteSpace::Const);

fn parse(src: &str) -> Module {
    parse_module(src.as_bytes()).unwrap_or_else(|e| panic!("test module: {e:?}\n{src}"))
}

fn fid(m: &Module, name: &str) -> FuncId {
    IrView::func_by_name(m, name).unwrap_or_else(|| panic!("no @{name}"))
}

/// The value named `name` (a parameter or an instruction result) in `f`.
fn named(m: &Module, f: &str, name: &str) -> ValueId {
    let fid = fid(m, f);
    for k in 0..m.num_params(fid) {
        let p = m.param(fid, k).unwrap();
        if IrView::value_name(m, p) == Some(name) {
            return p;
        }
    }
    for b in m.blocks(fid) {
        for i in m.insts(b) {
            if let Some(r) = IrView::inst_result(m, i) {
                if IrView::value_name(m, r) == Some(name) {
                    return r;
                }
            }
        }
    }
    panic!("no %{name} in @{f}")
}

/// The element of `%name` in `@f` of `src`, with `opts`.
fn element_with(src: &str, f: &str, name: &str, opts: ProvenanceOptions) -> AsLattice {
    let m = parse(src);
    let fid = fid(&m, f);
    let p = analyze(&m, fid, opts).expect("no budget");
    p.of(&m, named(&m, f, name))
}

fn element(src: &str, f: &str, name: &str) -> AsLattice {
    element_with(src, f, name, ProvenanceOptions::default())
}

/// A one-function module: `define <head> { <body> }`.
fn func(head: &str, body: &str) -> String {
    format!("@gs = addrspace(3) global i32 0\n@g = global i32 0\ndeclare ptr @get()\ndeclare void @use(ptr)\ndefine {head} {{\n{body}\n}}\n")
}

#[test]
fn kernel_pointer_parameters_are_global() {
    let src = func("ptx_kernel void @k(ptr %p)", "ret void");
    assert_eq!(element(&src, "k", "p"), GLOBAL);
    // Marked only by the legacy annotation clang 19 emits.
    let src = "define void @k(ptr %p) {\n ret void\n}\n!nvvm.annotations = !{!0}\n!0 = !{ptr @k, !\"kernel\", i32 1}\n";
    let m = parse(src);
    assert!(is_kernel(&m, fid(&m, "k")));
    assert_eq!(element(src, "k", "p"), GLOBAL);
    // An annotation other than "kernel" does not make a kernel.
    let src = "define void @k(ptr %p) {\n ret void\n}\n!nvvm.annotations = !{!0}\n!0 = !{ptr @k, !\"maxntidx\", i32 1}\n";
    assert_eq!(element(src, "k", "p"), AsLattice::Bottom);
}

#[test]
fn kernel_byval_is_generic_and_grid_constant_is_const() {
    let src = func(
        "ptx_kernel void @k(ptr byval(i32) %b, ptr byval(i32) \"nvvm.grid_constant\" %c)",
        "ret void",
    );
    assert_eq!(element(&src, "k", "b"), AsLattice::Top);
    assert_eq!(element(&src, "k", "c"), CONST);
}

#[test]
fn other_parameters_are_unknown() {
    let src = func("void @f(ptr %p)", "ret void");
    assert_eq!(element(&src, "f", "p"), AsLattice::Bottom);
    let conservative = ProvenanceOptions {
        conservative: true,
        ..ProvenanceOptions::default()
    };
    assert_eq!(element_with(&src, "f", "p", conservative), AsLattice::Top);
}

#[test]
fn allocas_are_local() {
    let src = func("void @f()", "%a = alloca i32\n ret void");
    assert_eq!(element(&src, "f", "a"), LOCAL);
}

#[test]
fn casts_to_generic_have_the_source_space() {
    let src = func(
        "void @f(ptr addrspace(3) %s, ptr addrspace(101) %q)",
        "%g = addrspacecast ptr addrspace(3) %s to ptr\n %h = addrspacecast ptr addrspace(101) %q to ptr\n ret void",
    );
    assert_eq!(element(&src, "f", "g"), SHARED);
    // The param space is no concrete space of the lattice.
    assert_eq!(element(&src, "f", "h"), AsLattice::Top);
    assert_eq!(element(&src, "f", "s"), SHARED);
}

#[test]
fn a_cast_chain_has_the_innermost_element() {
    // What the folder's rule (2) makes of the chain: the alloca itself.
    let src = func(
        "void @f()",
        "%a = alloca i32\n %m = addrspacecast ptr %a to ptr addrspace(1)\n %g = addrspacecast ptr addrspace(1) %m to ptr\n ret void",
    );
    assert_eq!(element(&src, "f", "g"), LOCAL);
    // A single cast keeps the space it casts from.
    let src = func(
        "void @f(ptr addrspace(1) %p)",
        "%g = addrspacecast ptr addrspace(1) %p to ptr\n ret void",
    );
    assert_eq!(element(&src, "f", "g"), GLOBAL);
}

#[test]
fn gep_bitcast_freeze_follow_the_base() {
    let src = func(
        "void @f(ptr %u)",
        "%a = alloca [4 x i32]\n %e = getelementptr [4 x i32], ptr %a, i64 0, i64 2\n %b = bitcast ptr %e to ptr\n %z = freeze ptr %b\n %x = getelementptr i8, ptr %u, i64 4\n %c = getelementptr i8, ptr addrspacecast (ptr addrspace(3) @gs to ptr), i64 4\n ret void",
    );
    assert_eq!(element(&src, "f", "e"), LOCAL);
    assert_eq!(element(&src, "f", "b"), LOCAL);
    assert_eq!(element(&src, "f", "z"), LOCAL);
    assert_eq!(element(&src, "f", "x"), AsLattice::Bottom);
    assert_eq!(element(&src, "f", "c"), SHARED);
}

#[test]
fn phi_and_select_meet_their_inputs() {
    let src = func(
        "ptx_kernel void @k(ptr %p, ptr %q, i1 %c)",
        "entry:\n %a = alloca i32\n br i1 %c, label %l, label %r\nl:\n br label %j\nr:\n br label %j\nj:\n %same = phi ptr [ %p, %l ], [ %q, %r ]\n %mixed = phi ptr [ %p, %l ], [ %a, %r ]\n %withnull = phi ptr [ %p, %l ], [ null, %r ]\n %s1 = select i1 %c, ptr %p, ptr %q\n %s2 = select i1 %c, ptr %a, ptr %q\n ret void",
    );
    assert_eq!(element(&src, "k", "same"), GLOBAL);
    assert_eq!(element(&src, "k", "mixed"), AsLattice::Top);
    assert_eq!(element(&src, "k", "withnull"), GLOBAL);
    assert_eq!(element(&src, "k", "s1"), GLOBAL);
    assert_eq!(element(&src, "k", "s2"), AsLattice::Top);
}

#[test]
fn promotable_slots_meet_their_stores() {
    let src = func(
        "ptx_kernel void @k(ptr %p, ptr %q, i1 %c)",
        "%slot = alloca ptr\n %s5 = addrspacecast ptr %slot to ptr addrspace(5)\n store ptr %p, ptr addrspace(5) %s5\n store ptr %q, ptr %slot\n %v = load ptr, ptr addrspace(5) %s5\n %mix = alloca ptr\n %a = alloca i32\n store ptr %p, ptr %mix\n store ptr %a, ptr %mix\n %w = load ptr, ptr %mix\n ret void",
    );
    assert_eq!(element(&src, "k", "v"), GLOBAL);
    assert_eq!(element(&src, "k", "w"), AsLattice::Top);
    let m = parse(&src);
    let k = fid(&m, "k");
    let p = analyze(&m, k, ProvenanceOptions::default()).unwrap();
    assert!(p.is_slot_access(named(&m, "k", "s5")));
}

#[test]
fn escaping_slots_are_not_promotable() {
    // The slot's address is passed to a call, which may store anything.
    let src = func(
        "ptx_kernel void @k(ptr %p)",
        "%slot = alloca ptr\n store ptr %p, ptr %slot\n call void @use(ptr %slot)\n %v = load ptr, ptr %slot\n %fld = alloca {ptr, ptr}\n %f1 = getelementptr {ptr, ptr}, ptr %fld, i32 0, i32 1\n store ptr %p, ptr %f1\n %w = load ptr, ptr %f1\n ret void",
    );
    assert_eq!(element(&src, "k", "v"), AsLattice::Bottom);
    // A GEP into the alloca makes it an aggregate slot, not a plain one.
    assert_eq!(element(&src, "k", "w"), GLOBAL);
    let m = parse(&src);
    let p = analyze(&m, fid(&m, "k"), ProvenanceOptions::default()).unwrap();
    assert!(!p.is_slot_access(named(&m, "k", "f1")));
}

#[test]
fn loads_from_readonly_kernel_aggregates_are_global() {
    let src = func(
        "ptx_kernel void @k(ptr byval({ptr, i32}) %a, ptr byval({ptr, i32}) %w, ptr byval({ptr, i32}) \"nvvm.grid_constant\" %gc)",
        "%f = getelementptr {ptr, i32}, ptr %a, i32 0, i32 0\n %p = load ptr, ptr %f\n %l = alloca i32\n store ptr %l, ptr %w\n %q = load ptr, ptr %w\n %r = load ptr, ptr %gc\n ret void",
    );
    assert_eq!(element(&src, "k", "p"), GLOBAL);
    // %w is written by the kernel: what it holds is no kernel argument.
    assert_eq!(element(&src, "k", "q"), AsLattice::Bottom);
    assert_eq!(element(&src, "k", "r"), GLOBAL);
    // The aggregate of a device function is the caller's copy.
    let src = func(
        "void @f(ptr byval({ptr, i32}) %a)",
        "%p = load ptr, ptr %a\n ret void",
    );
    assert_eq!(element(&src, "f", "p"), AsLattice::Bottom);
}

#[test]
fn constants_and_globals() {
    let src = func(
        "void @f(i1 %c)",
        "%n = select i1 %c, ptr null, ptr undef\n %gl = select i1 %c, ptr @g, ptr @g\n %fp = select i1 %c, ptr @get, ptr @get\n ret void",
    );
    assert_eq!(element(&src, "f", "n"), AsLattice::Bottom);
    assert_eq!(element(&src, "f", "gl"), GLOBAL);
    assert_eq!(element(&src, "f", "fp"), AsLattice::Top);
}

#[test]
fn other_sources_are_unknown_or_generic_when_conservative() {
    let src = func(
        "void @f(i64 %i, ptr %pp)",
        "%r = call ptr @get()\n %x = inttoptr i64 %i to ptr\n %l = load ptr, ptr %pp\n ret void",
    );
    let conservative = ProvenanceOptions {
        conservative: true,
        ..ProvenanceOptions::default()
    };
    for v in ["r", "x", "l"] {
        assert_eq!(element(&src, "f", v), AsLattice::Bottom, "%{v}");
        assert_eq!(
            element_with(&src, "f", v, conservative),
            AsLattice::Top,
            "%{v}"
        );
    }
}

#[test]
fn the_budget_cap_counts_visits_per_block() {
    let src = func(
        "void @f()",
        "%a = alloca i32\n %b = getelementptr i8, ptr %a, i64 1\n ret void",
    );
    let m = parse(&src);
    let f = fid(&m, "f");
    let capped = |cap| {
        analyze(
            &m,
            f,
            ProvenanceOptions {
                budget_cap: Some(cap),
                conservative: false,
            },
        )
    };
    // Two pointer instructions in one block: two visits at least.
    assert!(capped(1).is_err());
    assert!(capped(super::K_BUDGET_CAP).is_ok());
    assert!(analyze(&m, f, ProvenanceOptions::default()).is_ok());
}

#[test]
fn slot_values_stored_with_another_type_are_generic() {
    // The bits of a shared pointer or an integer are no generic pointer.
    let src = func(
        "ptx_kernel void @k(ptr %p, i64 %i)",
        "%s1 = alloca ptr\n store ptr addrspace(3) @gs, ptr %s1\n %v = load ptr, ptr %s1\n %s2 = alloca i64\n store i64 %i, ptr %s2\n %w = load ptr, ptr %s2\n %s3 = alloca ptr\n store ptr %p, ptr %s3\n %x = load ptr, ptr %s3\n ret void",
    );
    assert_eq!(element(&src, "k", "v"), AsLattice::Top);
    assert_eq!(element(&src, "k", "w"), AsLattice::Top);
    assert_eq!(element(&src, "k", "x"), GLOBAL);
}

#[test]
fn aggregate_slot_fields_meet_their_exact_stores() {
    let obj = "%o = alloca {ptr, i32, ptr}\n %f0 = getelementptr {ptr, i32, ptr}, ptr %o, i32 0, i32 0\n %f2 = getelementptr {ptr, i32, ptr}, ptr %o, i32 0, i32 2\n %f1 = getelementptr {ptr, i32, ptr}, ptr %o, i32 0, i32 1\n store ptr addrspacecast (ptr addrspace(3) @gs to ptr), ptr %f0\n store ptr %p, ptr %f2\n store i32 0, ptr %f1\n";
    // Fields read directly, and through the spilled object address.
    let src = func(
        "ptx_kernel void @k(ptr %p)",
        &format!("{obj} %this.addr = alloca ptr\n store ptr %o, ptr %this.addr\n %this = load ptr, ptr %this.addr\n %g2 = getelementptr i8, ptr %this, i64 16\n %a = load ptr, ptr %f0\n %b = load ptr, ptr %g2\n ret void"),
    );
    assert_eq!(element(&src, "k", "a"), SHARED);
    assert_eq!(element(&src, "k", "b"), GLOBAL);
    // A store that overlaps the field at another offset.
    let src = func(
        "ptx_kernel void @k(ptr %p)",
        &format!("{obj} %mid = getelementptr i8, ptr %o, i64 4\n store i32 1, ptr %mid\n %a = load ptr, ptr %f0\n %b = load ptr, ptr %f2\n ret void"),
    );
    assert_eq!(element(&src, "k", "a"), AsLattice::Top);
    assert_eq!(element(&src, "k", "b"), GLOBAL);
    // A variable index, or the object passed to a call: no aggregate slot.
    for extra in [
        "%e = getelementptr [2 x ptr], ptr %o, i64 0, i64 %i\n store ptr null, ptr %e\n",
        "call void @use(ptr %o)\n",
        "%pi = ptrtoint ptr %o to i64\n",
    ] {
        let src = func(
            "ptx_kernel void @k(ptr %p, i64 %i)",
            &format!("{obj} {extra} %a = load ptr, ptr %f0\n ret void"),
        );
        assert_eq!(element(&src, "k", "a"), AsLattice::Bottom, "{extra}");
    }
    // The spill slot holds another pointer too: its loads are not the object.
    let src = func(
        "ptx_kernel void @k(ptr %p, ptr %q)",
        &format!("{obj} %s = alloca ptr\n store ptr %o, ptr %s\n store ptr %q, ptr %s\n %t = load ptr, ptr %s\n %a = load ptr, ptr %t\n ret void"),
    );
    assert_eq!(element(&src, "k", "a"), AsLattice::Bottom);
}
