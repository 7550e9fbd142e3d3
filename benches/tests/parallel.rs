//! The parallel printer writes exactly the bytes of the single-threaded one,
//! and the parallel verifier reports exactly the single-threaded errors, for
//! every thread count and batch size, on the lit-test modules, the real
//! corpus (when present), generated modules and broken modules.
use nvpass_benches::gen::{generate, Config};
use nvpass_ir::print::{print_module, print_module_parallel, ParallelPrint};
use nvpass_ir::verify::{
    verify_module, verify_module_parallel, verify_parsed_module, verify_parsed_module_parallel,
};
use nvpass_ir::Module;
use std::path::Path;

/// Prints `m` in parallel with `opts`, collecting the chunks.
fn parallel(m: &Module, opts: ParallelPrint) -> (Vec<u8>, usize) {
    let mut out = Vec::new();
    let mut chunks = 0;
    print_module_parallel(m, opts, &mut |c: &[u8]| {
        out.extend_from_slice(c);
        chunks += 1;
    });
    (out, chunks)
}

/// Asserts identical output under several thread counts and batch sizes,
/// and identical verifier results.
fn check(name: &str, m: &Module) {
    check_verify(name, m);
    let want = print_module(m);
    for threads in [1, 2, 3, 4] {
        for batch_insts in [1, 7, 4096] {
            let (got, _) = parallel(
                m,
                ParallelPrint {
                    threads,
                    batch_insts,
                },
            );
            assert!(
                got == want.as_bytes(),
                "{name}: {threads} threads, batches of {batch_insts} instructions: output differs"
            );
        }
    }
}

fn lit_modules() -> Vec<(String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/lit");
    let mut out = Vec::new();
    let mut dirs = vec![root];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "ll") {
                out.push((p.display().to_string(), std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn lit_and_corpus_modules_print_identically() {
    let mut parsed = 0;
    let mut inputs = lit_modules();
    inputs.extend(nvpass_benches::corpus_modules());
    for (name, src) in &inputs {
        // Some lit inputs are deliberately malformed.
        if let Ok(m) = nvpass_ir::parse_module(src) {
            check(name, &m);
            parsed += 1;
        }
    }
    assert!(parsed > 50, "only {parsed} modules parsed");
}

#[test]
fn generated_modules_print_identically() {
    for (seed, kb, chain, fan_in, scc) in [(1, 64, 0, 0, 0), (2, 400, 40, 300, 12)] {
        let cfg = Config {
            chain,
            fan_in,
            scc,
            ..Config::sized(seed, kb << 10)
        };
        let m = nvpass_ir::parse_module(generate(&cfg).as_bytes()).unwrap();
        check(&format!("gen seed {seed}, {kb} KiB"), &m);
        // Small batches on several threads really do cut the module up.
        let (_, chunks) = parallel(
            &m,
            ParallelPrint {
                threads: 2,
                batch_insts: 1,
            },
        );
        assert!(chunks > 10, "only {chunks} chunks");
    }
}

/// The numbered metadata of the tail is printed in batches too: a module
/// with several batches of nodes numbered in its text and more the printer
/// numbers (nodes added since reading), each in module order.
#[test]
fn metadata_batches_print_identically() {
    use nvpass_ir::metadata::{MdKind, MdNode, MdRef};
    let cfg = Config::sized(4, 700 << 10);
    let mut m = nvpass_ir::parse_module(generate(&cfg).as_bytes()).unwrap();
    let numbered = m.md_numbered.len();
    assert!(
        numbered > nvpass_ir::print::MD_BATCH,
        "only {numbered} numbered nodes"
    );
    let targets: Vec<_> = m.md_numbered.iter().map(|&(_, md)| md).collect();
    for (k, &t) in targets
        .iter()
        .enumerate()
        .take(2 * nvpass_ir::print::MD_BATCH + 5)
    {
        let s = m.strings.intern(format!("added {k}").as_bytes());
        m.mds.push(MdNode {
            distinct: k % 2 == 0,
            inline: false,
            kind: MdKind::Tuple(vec![MdRef::Node(t), MdRef::String(s)].into()),
        });
    }
    let text = print_module(&m);
    assert!(
        text.contains("!\"added 7\"}"),
        "the added nodes are printed"
    );
    check("generated module with added nodes", &m);
}

/// Asserts the parallel verifier's result equals the sequential one, for
/// every check and for those of a parsed module (every check but the use
/// lists', whose errors are then all that is missing).
fn check_verify(name: &str, m: &Module) {
    let want = verify_module(m);
    let want_parsed = verify_parsed_module(m);
    let others: Vec<_> = want
        .clone()
        .err()
        .unwrap_or_default()
        .into_iter()
        .filter(|e| !e.message.starts_with("[use-list]"))
        .collect();
    assert_eq!(
        want_parsed,
        if others.is_empty() {
            Ok(())
        } else {
            Err(others)
        },
        "{name}: a parsed module's checks"
    );
    for threads in [1, 2, 3, 5] {
        assert_eq!(
            verify_module_parallel(m, threads),
            want,
            "{name}: verifier on {threads} threads"
        );
        assert_eq!(
            verify_parsed_module_parallel(m, threads),
            want_parsed,
            "{name}: parsed module's verifier on {threads} threads"
        );
    }
}

#[test]
fn broken_modules_get_the_same_errors_in_the_same_order() {
    let cfg = Config::sized(3, 96 << 10);
    let mut m = nvpass_ir::parse_module(generate(&cfg).as_bytes()).unwrap();
    // Break instructions spread over the whole module: a wrong use-list
    // position, a dropped terminator and swapped operands of stores.
    let insts: Vec<_> = m.insts.keys().collect();
    let mut broken = 0;
    for (k, &i) in insts.iter().enumerate().step_by(37) {
        let (n, terminator) = (m.insts[i].ops.len(), m.insts[i].opcode.is_terminator());
        match k % 3 {
            0 if n > 0 => m.inst_ops_mut(i)[0].pos += 1000,
            1 if terminator => {
                m.detach_inst(i);
            }
            _ if n == 2 => m.inst_ops_mut(i).swap(0, 1),
            _ => continue,
        }
        broken += 1;
    }
    assert!(broken > 10, "only {broken} instructions broken");
    // And some globals, whose errors come between the use lists' and the
    // functions'.
    let globals: Vec<_> = m.globals.keys().collect();
    for &g in globals.iter().step_by(5) {
        m.globals[g].addrspace += 7;
    }
    let errs = verify_module(&m).expect_err("the broken module is invalid");
    let kinds = ["[use-list]", "[global]"];
    for kind in kinds {
        assert!(
            errs.iter().any(|e| e.to_string().contains(kind)),
            "no {kind} error"
        );
    }
    let funcs: std::collections::HashSet<_> = errs.iter().filter_map(|e| e.func).collect();
    assert!(funcs.len() > 3, "errors in only {} functions", funcs.len());
    check_verify("broken generated module", &m);
}
