//! Adversarial well-formed modules: shapes that are legal but extreme in
//! one dimension (call depth, fan-in, recursion through `alwaysinline`,
//! switch width, function size, clone pressure, phi webs).
//!
//! Each test builds its module as text, then parses, verifies and prints it
//! (print/parse must be a fixpoint) and runs every registered pass on its
//! own and all of them in a row (see `support/check.rs`: each run either
//! declines with a diagnostic or leaves a module that verifies, round-trips
//! and, for each pass on its own, is unchanged by a second run). Nothing
//! here measures time: each test asserts completion, structural facts and
//! the passes' budgets (inline counts, clone counts, caller sizes against
//! the inline budget), each bound stated in the test's doc comment, which
//! also records the time and peak memory of the whole test in a release
//! build with every pass registered, one test at a time, on a machine with
//! 2 shared cores.
//!
//! With every pass registered, the suite takes minutes even in a release
//! build, so it is compiled only without debug assertions (release builds):
//! `.ci/run` runs all of it, the `#[ignore]`d million-instruction case
//! included, with
//! `cargo test --release -p nvpass-ir --test adversarial -- --include-ignored`.
#![cfg(not(debug_assertions))]

#[path = "support/check.rs"]
mod check;

use nvpass_ir::inst::Opcode;
use nvpass_ir::{Module, Value};
use std::fmt::Write as _;

const HEADER: &str = "target datalayout = \"e-i64:64-i128:128-v16:16-v32:32-n16:32:64\"\ntarget triple = \"nvptx64-nvidia-cuda\"\n\n";

fn registry() -> nvpass_core::registry::Registry<Module> {
    nvpass_passes::registry()
}

/// Parses, verifies and round-trips `src`, then checks every registered
/// pipeline on it; returns the parsed module.
fn exercise(src: &str) -> Module {
    let m = check::load(src.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    let registry = registry();
    for p in check::pipelines(&registry) {
        match check::check(&registry, &p, &m) {
            Ok(check::Outcome::Held) => {}
            Ok(check::Outcome::Declined(why)) => println!("note: '{p}' declined: {why}"),
            Err(e) => panic!("{e}"),
        }
    }
    m
}

/// Runs `pipeline` (with global knobs) on a copy of `m`; returns the result
/// and the pipeline's `NumInlined` statistic (summed over its passes).
fn run_counting_inlines(pipeline: &str, m: &Module, knobs: &[(&str, &str)]) -> (Module, u64) {
    let registry = registry();
    let mut pm = registry.build_text(pipeline).expect("pipeline builds");
    let mut values = registry.knob_values().expect("knobs declare");
    for (k, v) in knobs {
        values.set(k, v).expect("knob value");
    }
    let mut session = nvpass_core::pass::Session::new(values);
    let mut out = m.clone();
    pm.run(&mut out, &mut session, &mut [])
        .unwrap_or_else(|e| panic!("'{pipeline}': {e}"));
    let inlined = session
        .stats
        .entries()
        .iter()
        .filter(|e| e.stat.name == "NumInlined")
        .map(|e| e.value)
        .sum();
    (out, inlined)
}

/// Instructions with opcode `op` in the bodies of the module's functions
/// (walking the layout, so the instructions of erased functions do not
/// count).
fn count_live(m: &Module, op: Opcode) -> usize {
    m.func_ids()
        .flat_map(|f| m.func_blocks(f))
        .flat_map(|b| m.block_insts(b))
        .filter(|&i| m.insts[i].opcode == op)
        .count()
}

/// Instructions in the body of function `name`.
fn body_size(m: &Module, name: &str) -> usize {
    let f = m.func_by_name(name).unwrap();
    m.func_blocks(f).map(|b| m.block_insts(b).count()).sum()
}

fn value(m: &Module, name: &str) -> Value {
    m.lookup(name).unwrap_or_else(|| panic!("no symbol {name}"))
}

fn count_opcode(m: &Module, op: Opcode) -> usize {
    m.insts
        .values()
        .filter(|d| d.opcode == op && d.seg.is_some())
        .count()
}

/// A 10,000-deep call chain from a kernel: `@k -> @f0 -> ... -> @f9999`.
/// Every other link is `alwaysinline`, so an inliner that recursed per
/// call level, or re-walked the chain per function, would show here.
///
/// Measured (whole test): 5.1 s; peak RSS 94 MB.
#[test]
fn call_chain_10000_deep() {
    const N: usize = 10_000;
    let mut s = String::from(HEADER);
    s.push_str("define ptx_kernel void @k(ptr addrspace(1) %p) {\n  call void @f0(ptr addrspace(1) %p, i32 0)\n  ret void\n}\n\n");
    for i in 0..N {
        let attr = if i % 2 == 0 { " alwaysinline" } else { "" };
        let _ = writeln!(
            s,
            "define internal void @f{i}(ptr addrspace(1) %p, i32 %x){attr} {{\n  %y = add i32 %x, {i}"
        );
        if i + 1 < N {
            let _ = writeln!(s, "  call void @f{}(ptr addrspace(1) %p, i32 %y)", i + 1);
        } else {
            s.push_str("  store i32 %y, ptr addrspace(1) %p, align 4\n");
        }
        s.push_str("  ret void\n}\n\n");
    }
    s.push_str("!nvvm.annotations = !{!0}\n!0 = !{ptr @k, !\"kernel\", i32 1}\n");
    let m = exercise(&s);
    assert_eq!(m.func_ids().count(), N + 1);
    assert_eq!(count_opcode(&m, Opcode::Call), N);
    // Each link is called exactly once.
    assert_eq!(m.users(value(&m, "f0")).len(), 1);
    assert_eq!(m.users(value(&m, "f9999")).len(), 1);
    // Budget: the inliners inline each `alwaysinline` link exactly once
    // (5,000 inlinings, no re-walk), leave the internal links (model A does
    // not inline internal callees) and erase the inlined ones.
    for p in ["inline-must", "force-inline", "inline"] {
        let (out, inlined) = run_counting_inlines(p, &m, &[]);
        assert_eq!(inlined, (N / 2) as u64, "'{p}'");
        assert_eq!(out.func_ids().count(), N / 2 + 1, "'{p}'");
        assert_eq!(count_live(&out, Opcode::Call), N / 2, "'{p}'");
    }
}

/// Appends a function `head(ptr addrspace(1) %p, i32 %x)` whose body is a
/// chain of `calls` calls `%cN = call i32 @helper(...)`, each passing the
/// previous result, and stores the last one to `%p`.
fn kernel_calling_helper(s: &mut String, head: &str, calls: usize) {
    let _ = writeln!(s, "{head}(ptr addrspace(1) %p, i32 %x) {{");
    let mut prev = "%x".to_string();
    for c in 0..calls {
        let _ = writeln!(s, "  %c{c} = call i32 @helper(i32 {prev})");
        prev = format!("%c{c}");
    }
    let _ = writeln!(
        s,
        "  store i32 {prev}, ptr addrspace(1) %p, align 4\n  ret void\n}}\n"
    );
}

/// 100,000 call sites of one small helper, spread over 100 kernels of
/// 1,000 calls each (and the helper is `alwaysinline`, so an inliner
/// inlines all of them). Use lists keep erasing or rewriting each call
/// O(1).
///
/// Measured (whole test, release): 7.1 s; peak RSS 483 MB. The host renames
/// each inlined `%y` to the next free `%y.iN`; the search resumes where the
/// previous one in the same kernel stopped (it took 69 s when every copy
/// probed from `%y.i` up), against a record of the kernel's `x.iN` names
/// kept from one inline to the next (28 s when the kernel's names were
/// collected again for every inlined call).
#[test]
fn helper_with_100000_call_sites() {
    const KERNELS: usize = 100;
    const CALLS: usize = 1_000;
    let mut s = String::from(HEADER);
    s.push_str("define internal i32 @helper(i32 %x) alwaysinline {\n  %y = mul i32 %x, 3\n  ret i32 %y\n}\n\n");
    let mut ann = String::new();
    for k in 0..KERNELS {
        kernel_calling_helper(&mut s, &format!("define void @k{k}"), CALLS);
        let _ = write!(ann, "{}!{k}", if k > 0 { ", " } else { "" });
    }
    let _ = writeln!(s, "!nvvm.annotations = !{{{ann}}}");
    for k in 0..KERNELS {
        let _ = writeln!(s, "!{k} = !{{ptr @k{k}, !\"kernel\", i32 1}}");
    }
    let m = exercise(&s);
    assert_eq!(m.users(value(&m, "helper")).len(), KERNELS * CALLS);
    assert_eq!(count_opcode(&m, Opcode::Call), KERNELS * CALLS);
    // `alwaysinline` is not subject to the budgets: every site is inlined
    // once, and the helper goes.
    let (out, inlined) = run_counting_inlines("inline", &m, &[]);
    assert_eq!(inlined, (KERNELS * CALLS) as u64);
    assert_eq!(count_live(&out, Opcode::Call), 0);
    assert!(out.func_by_name("helper").is_none());
}

/// 20,000 call sites of one `linkonce_odr` helper of 100 instructions that
/// is not `alwaysinline` (10 kernels of 2,000 calls), so the cost-driven
/// inliner decides each: the per-caller budget (`inline-budget`, 20,000 by
/// default) caps each kernel's size, so each kernel inlines until its size
/// plus the helper's cost would pass the budget and keeps the other calls.
/// Bounds asserted: each kernel ends at most one helper body over the
/// budget, the inline count matches the calls left, and a second run
/// inlines nothing (`exercise`). Each inlining re-measures the caller (the
/// caps are read on the current IR), so the work per caller is bounded by
/// (budget / helper cost) x budget.
///
/// Measured (whole test): 2.6 s; peak RSS 196 MB.
#[test]
fn cost_driven_helper_against_the_caller_budget() {
    const KERNELS: usize = 10;
    const CALLS: usize = 2_000;
    const BUDGET: usize = 20_000;
    const HELPER_INSTS: usize = 100;
    let mut s = String::from(HEADER);
    // The helper's values are unnamed, so inlining it costs the host no
    // renaming (see `helper_with_100000_call_sites` for named copies).
    // (%0 is the unnamed entry block.)
    s.push_str("define linkonce_odr i32 @helper(i32 %x) {\n  %1 = mul i32 %x, 3\n");
    for i in 2..=HELPER_INSTS {
        let _ = writeln!(s, "  %{i} = mul i32 %{}, {}", i - 1, i + 3);
    }
    let _ = writeln!(s, "  ret i32 %{HELPER_INSTS}\n}}\n");
    for k in 0..KERNELS {
        kernel_calling_helper(&mut s, &format!("define ptx_kernel void @k{k}"), CALLS);
    }
    let m = exercise(&s);
    let helper = body_size(&m, "helper");
    let (out, inlined) = run_counting_inlines("inline", &m, &[]);
    for k in 0..KERNELS {
        let size = body_size(&out, &format!("k{k}"));
        assert!(size > CALLS + 1, "k{k} inlined nothing");
        assert!(size <= BUDGET + helper, "k{k}: {size} instructions");
    }
    assert!(
        inlined > 0 && inlined < (KERNELS * CALLS) as u64,
        "{inlined}"
    );
    assert_eq!(
        count_live(&out, Opcode::Call) as u64,
        (KERNELS * CALLS) as u64 - inlined
    );
}

/// A `linkonce_odr` callee of 100,000 instructions called three times from
/// a kernel: model A prices it at about 100,000, over the default budget
/// of 20,000, so nothing is inlined; with `--inline-budget=250000` the
/// kernel's size cap admits exactly two copies.
///
/// Measured (whole test): 2.6 s; peak RSS 144 MB.
#[test]
fn huge_callee_against_the_budget() {
    const N: usize = 100_000;
    let mut s = String::from(HEADER);
    s.push_str("define linkonce_odr i32 @big(i32 %x) {\n  %v0 = add i32 %x, 1\n");
    for i in 1..N {
        let _ = writeln!(s, "  %v{i} = xor i32 %v{}, {}", i - 1, i % 89);
    }
    let _ = writeln!(s, "  ret i32 %v{}\n}}\n", N - 1);
    s.push_str("define ptx_kernel void @k(ptr addrspace(1) %p, i32 %x) {\n  %a = call i32 @big(i32 %x)\n  %b = call i32 @big(i32 %a)\n  %c = call i32 @big(i32 %b)\n  store i32 %c, ptr addrspace(1) %p, align 4\n  ret void\n}\n");
    let m = exercise(&s);
    let (_, inlined) = run_counting_inlines("inline", &m, &[]);
    assert_eq!(inlined, 0);
    let (out, inlined) = run_counting_inlines("inline", &m, &[("inline-budget", "250000")]);
    assert_eq!(inlined, 2);
    assert_eq!(m.users(value(&m, "big")).len(), 3);
    assert_eq!(out.users(value(&out, "big")).len(), 1);
}

/// Cycles of `alwaysinline` functions: a self-recursive one, a pair, and a
/// ring of 64, each entered from a kernel, plus a ring that is also
/// reachable from itself only (dead). An inliner must stop (LLVM leaves
/// recursive always-inline calls alone) rather than unroll forever.
///
/// Measured (whole test): 0.01 s; peak RSS 5 MB.
#[test]
fn mutually_recursive_always_inline_cycles() {
    let mut s = String::from(HEADER);
    // Self recursion.
    s.push_str("define internal i32 @self(i32 %n) alwaysinline {\nentry:\n  %z = icmp eq i32 %n, 0\n  br i1 %z, label %done, label %again\nagain:\n  %m = sub i32 %n, 1\n  %r = call i32 @self(i32 %m)\n  ret i32 %r\ndone:\n  ret i32 0\n}\n\n");
    // A pair.
    s.push_str("define internal i32 @even(i32 %n) alwaysinline {\n  %m = sub i32 %n, 1\n  %r = call i32 @odd(i32 %m)\n  ret i32 %r\n}\n\n");
    s.push_str("define internal i32 @odd(i32 %n) alwaysinline {\n  %m = sub i32 %n, 1\n  %r = call i32 @even(i32 %m)\n  ret i32 %r\n}\n\n");
    // Rings of 64: @r0 -> @r1 -> ... -> @r63 -> @r0, and a dead ring @d*.
    for (prefix, n) in [("r", 64), ("d", 16)] {
        for i in 0..n {
            let _ = writeln!(
                s,
                "define internal void @{prefix}{i}(ptr %p) alwaysinline {{\n  store i32 {i}, ptr %p, align 4\n  call void @{prefix}{}(ptr %p)\n  ret void\n}}\n",
                (i + 1) % n
            );
        }
    }
    s.push_str("define ptx_kernel void @k(ptr %p, i32 %n) {\n  %a = call i32 @self(i32 %n)\n  %b = call i32 @even(i32 %a)\n  store i32 %b, ptr %p, align 4\n  call void @r0(ptr %p)\n  call void @r32(ptr %p)\n  ret void\n}\n");
    let m = exercise(&s);
    assert_eq!(m.func_ids().count(), 3 + 64 + 16 + 1);
    assert_eq!(m.users(value(&m, "r0")).len(), 2);
    assert_eq!(m.users(value(&m, "self")).len(), 2);
    // Budget: no inliner unrolls a cycle, so nothing is inlined at all and
    // the module keeps its functions and calls.
    for p in ["inline-must", "force-inline", "inline"] {
        let (out, inlined) = run_counting_inlines(p, &m, &[]);
        assert_eq!(inlined, 0, "'{p}'");
        assert_eq!(out.func_ids().count(), m.func_ids().count(), "'{p}'");
        assert_eq!(
            count_live(&out, Opcode::Call),
            count_live(&m, Opcode::Call),
            "'{p}'"
        );
    }
}

/// A switch with 10,000 cases to 10,000 blocks joined by a 10,001-entry
/// phi, and a second switch whose 10,000 cases all go to one block (10,000
/// parallel edges, so its phi lists that block 10,000 times).
///
/// Measured (whole test): 0.8 s; peak RSS 27 MB.
#[test]
fn switch_with_10000_cases() {
    const N: usize = 10_000;
    let mut s = String::from(HEADER);
    s.push_str("define i32 @wide(i32 %x) {\nentry:\n  switch i32 %x, label %join [\n");
    for i in 0..N {
        let _ = writeln!(s, "    i32 {i}, label %c{i}");
    }
    s.push_str("  ]\n");
    for i in 0..N {
        let _ = writeln!(s, "c{i}:\n  br label %join");
    }
    s.push_str("join:\n  %r = phi i32 [ -1, %entry ]");
    for i in 0..N {
        let _ = write!(s, ", [ {i}, %c{i} ]");
    }
    s.push_str("\n  ret i32 %r\n}\n\n");
    s.push_str("define ptr @parallel(i32 %x) {\nentry:\n  switch i32 %x, label %other [\n");
    for i in 0..N {
        let _ = writeln!(s, "    i32 {i}, label %join");
    }
    s.push_str("  ]\nother:\n  br label %join\njoin:\n  %r = phi ptr [ null, %other ]");
    for _ in 0..N {
        s.push_str(", [ addrspacecast (ptr addrspace(3) @sh to ptr), %entry ]");
    }
    s.push_str("\n  ret ptr %r\n}\n\n@sh = internal addrspace(3) global i32 undef, align 4\n");
    let m = exercise(&s);
    let switches: Vec<_> = m
        .insts
        .values()
        .filter(|d| d.opcode == Opcode::Switch)
        .collect();
    assert_eq!(switches.len(), 2);
    for sw in switches {
        // Default plus one block per case.
        assert_eq!(sw.blocks.len(), N + 1);
    }
    let wide = m.func_by_name("wide").unwrap();
    assert_eq!(m.func_blocks(wide).count(), N + 2);
}

fn million_inst_module() -> String {
    const N: usize = 1_000_000;
    let mut s = String::with_capacity(N * 32);
    s.push_str(HEADER);
    s.push_str("define ptx_kernel void @huge(ptr addrspace(1) %p, i32 %x) {\n");
    let _ = writeln!(s, "  %v0 = add i32 %x, 1");
    for i in 1..N - 2 {
        // Mix of opcodes; every value feeds the next.
        let op = ["add", "mul", "xor", "sub"][i % 4];
        let _ = writeln!(s, "  %v{i} = {op} i32 %v{}, {}", i - 1, i % 97);
    }
    let _ = writeln!(
        s,
        "  store i32 %v{}, ptr addrspace(1) %p, align 4\n  ret void\n}}",
        N - 3
    );
    s
}

/// One function of 1,000,000 instructions (a dependent chain of integer
/// operations): the text is 26 MB.
///
/// Measured in release: parse 3.3 s, verify 0.24 s, print 0.27 s (two
/// parses, two prints: 7.4 s and 1.05 GB before any pass was registered).
/// With every pass registered the whole test takes 36 s with a peak RSS of
/// 905 MB (361 s and 1.5 GB once, while another test suite shared the 2
/// cores and before later speed-ups); one pass at a time
/// through `nvpass-cli` (parse and print included, about 2.2 s), every
/// pass takes under 3.4 s (`kernel-info`: 0.5 s, once 13.9 s when its
/// live-value count was recounted per instruction). Hence `#[ignore]`
/// (it is far slower in a debug build): `.ci/run` runs it with
/// `--release`.
#[test]
#[ignore = "over 10 s in a debug build; .ci/run runs it with --release"]
fn function_with_1000000_instructions() {
    let s = million_inst_module();
    let m = exercise(&s);
    let f = m.func_by_name("huge").unwrap();
    let b = m.func_blocks(f).next().unwrap();
    assert_eq!(m.block_insts(b).count(), 1_000_000);
}

/// Clone pressure for address-space specialization: a helper with eight
/// generic pointer parameters is called from 256 sites, each passing a
/// different mix of global and shared pointers cast to generic, so a
/// specializer could want 256 clones. Whatever the passes do, they must
/// not add more functions than there are distinct call-site shapes; and a
/// registered pass with a clone-budget knob or option (a name containing
/// "clone") set to N adds at most N functions.
///
/// Measured (whole test): 0.09 s; peak RSS 7 MB.
#[test]
fn clone_budget_storm() {
    const PARAMS: usize = 8;
    let mut s = String::from(HEADER);
    s.push_str("@g = internal addrspace(1) global [8 x i32] zeroinitializer, align 4\n");
    s.push_str("@s = internal addrspace(3) global [8 x i32] undef, align 4\n\n");
    s.push_str("define internal void @helper(");
    for i in 0..PARAMS {
        let _ = write!(s, "{}ptr %p{i}", if i > 0 { ", " } else { "" });
    }
    s.push_str(") noinline {\n");
    for i in 0..PARAMS {
        let _ = writeln!(s, "  %l{i} = load i32, ptr %p{i}, align 4");
        let _ = writeln!(s, "  store i32 %l{i}, ptr %p{}, align 4", (i + 1) % PARAMS);
    }
    s.push_str("  ret void\n}\n\n");
    s.push_str("define ptx_kernel void @k() {\n");
    for shape in 0..(1usize << PARAMS) {
        let args: Vec<String> = (0..PARAMS)
            .map(|i| {
                let (space, g) = if shape >> i & 1 == 1 { (3, "s") } else { (1, "g") };
                format!(
                    "ptr addrspacecast (ptr addrspace({space}) getelementptr inbounds (i32, ptr addrspace({space}) @{g}, i64 {i}) to ptr)"
                )
            })
            .collect();
        let _ = writeln!(s, "  call void @helper({})", args.join(", "));
    }
    s.push_str("  ret void\n}\n");
    let m = exercise(&s);
    let before = m.func_ids().count();
    let shapes = 1usize << PARAMS;
    let registry = registry();
    for p in check::pipelines(&registry) {
        if let Ok(out) = check::run(&registry, &p, &m) {
            let after = out.func_ids().count();
            assert!(
                after <= before + shapes,
                "'{p}': {after} functions from {before} and {shapes} call-site shapes"
            );
        }
    }
    let mut budgets_checked = 0;
    for e in registry.entries() {
        let name = e.info.name;
        let clone_knobs = e
            .info
            .knobs
            .iter()
            .filter(|k| k.name.to_ascii_lowercase().contains("clone"));
        for k in clone_knobs {
            for budget in ["0", "3"] {
                if let Ok(out) = check::run_with(&registry, name, &m, &[(k.name, budget)]) {
                    let after = out.func_ids().count();
                    let n: usize = budget.parse().unwrap();
                    assert!(
                        after <= before + n,
                        "'{name}' with --{}={budget}: {after} functions from {before}",
                        k.name
                    );
                    budgets_checked += 1;
                }
            }
        }
        for o in e
            .info
            .options
            .iter()
            .filter(|o| o.name.to_ascii_lowercase().contains("clone"))
        {
            for budget in ["0", "3"] {
                let pipeline = format!("{name}<{}={budget}>", o.name);
                if let Ok(out) = check::run(&registry, &pipeline, &m) {
                    let after = out.func_ids().count();
                    let n: usize = budget.parse().unwrap();
                    assert!(
                        after <= before + n,
                        "'{pipeline}': {after} functions from {before}"
                    );
                    budgets_checked += 1;
                }
            }
        }
    }
    println!("clone budgets checked: {budgets_checked}");
}

/// A loop header with 2,000 pointer phis, each fed around the back edge by
/// the next one and by `select`s mixing address spaces: a lattice solver
/// revisits every phi many times per block, which is what a per-block
/// visit cap (ipmsp's kBudgetCap) bounds.
///
/// Measured (whole test): 0.17 s; peak RSS 9 MB.
#[test]
fn pointer_phi_web() {
    const N: usize = 2_000;
    let mut s = String::from(HEADER);
    s.push_str("@g = internal addrspace(1) global i32 0, align 4\n@s = internal addrspace(3) global i32 undef, align 4\n\n");
    s.push_str("define ptx_kernel void @k(i32 %n, i1 %c) {\nentry:\n  br label %loop\nloop:\n  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]\n");
    for j in 0..N {
        let init = if j % 2 == 0 {
            "addrspacecast (ptr addrspace(1) @g to ptr)"
        } else {
            "addrspacecast (ptr addrspace(3) @s to ptr)"
        };
        let _ = writeln!(s, "  %p{j} = phi ptr [ {init}, %entry ], [ %q{j}, %loop ]");
    }
    for j in 0..N {
        let _ = writeln!(
            s,
            "  %q{j} = select i1 %c, ptr %p{}, ptr %p{}",
            (j + 1) % N,
            (j + 7) % N
        );
    }
    s.push_str("  %v = load i32, ptr %p0, align 4\n  store i32 %v, ptr %p1, align 4\n  %i1 = add i32 %i, 1\n  %d = icmp slt i32 %i1, %n\n  br i1 %d, label %loop, label %exit\nexit:\n  ret void\n}\n");
    let m = exercise(&s);
    assert_eq!(count_opcode(&m, Opcode::Phi), N + 1);
    assert_eq!(count_opcode(&m, Opcode::Select), N);
}
