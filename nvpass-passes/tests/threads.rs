//! The thread count does not change what a pass does.
//!
//! `memspace-opt`, `process-restrict`, `kernel-info`, `pretreat` (its first
//! censuses) and `cdp` (finding and planning its calls) analyze functions
//! on [`Session::threads`] threads (`nvpass_core::par`). For every lit input
//! that parses and verifies (`tests/lit/**/*.ll`), the real-input corpus
//! when it is installed (`/root/.cache/nvpass-corpus/ll`, or
//! `NVPASS_CORPUS_DIR`), and generated modules (`nvpass-ir/tests/support/
//! gen.rs`, small ones and ones larger than one analysis window of four
//! threads), each pass alone, with its trace knobs, the first three in a
//! row and the card pipeline run with 1 and with 4 threads; the printed IR, every diagnostic (text
//! and remark YAML, in emission order), the statistics and the outcome
//! must be byte-identical.

#[path = "../../nvpass-ir/tests/support/gen.rs"]
mod gen;

use nvpass_core::par::{PARALLEL, WINDOW_PER_THREAD};
use nvpass_core::pass::Session;
use nvpass_core::registry::Registry;
use nvpass_ir::{parse_module, print_module, verify::verify_module, Module};
use std::path::{Path, PathBuf};

/// The threads compared with one thread.
const THREADS: usize = 4;

/// Pipelines and global knobs (`name=value`) run on every input.
const RUNS: &[(&str, &[&str])] = &[
    ("memspace-opt", &[]),
    ("memspace-opt", &["memspace-opt-verbose=1"]),
    ("process-restrict", &[]),
    (
        "process-restrict",
        &["dump-process-restrict=1", "allow-restrict-in-struct=1"],
    ),
    (
        "process-restrict",
        &["dump-process-restrict=1", "apply-multi-level-restrict=1"],
    ),
    ("kernel-info", &[]),
    (
        "process-restrict,memspace-opt,kernel-info,process-restrict<propagate-only>",
        &["memspace-opt-verbose=1"],
    ),
    ("pretreat", &[]),
    ("cdp", &[]),
    ("pretreat,kernel-attr,cdp,force-inline", &[]),
];

// The reference IR must be shareable between threads (the passes' `&M`
// crosses threads with the `parallel` feature).
const _: () = {
    const fn assert_sync<T: Sync + ?Sized>() {}
    assert_sync::<Module>();
};

/// Everything observable about one run.
#[derive(PartialEq, Eq, Debug)]
struct Observed {
    outcome: String,
    ir: String,
    diagnostics: String,
    yaml: String,
    stats: String,
}

fn observe(
    registry: &Registry<Module>,
    pipeline: &str,
    knobs: &[&str],
    m: &Module,
    threads: usize,
) -> Observed {
    let mut pm = registry
        .build_text(pipeline)
        .unwrap_or_else(|e| panic!("pipeline '{pipeline}': {e}"));
    let mut values = registry.knob_values().expect("knobs declare");
    for k in knobs {
        values
            .set_from_arg(&format!("--{k}"))
            .unwrap_or_else(|e| panic!("knob {k}: {e}"));
    }
    let mut session = Session::new(values).with_threads(threads);
    let mut out = m.clone();
    let outcome = match pm.run(&mut out, &mut session, &mut []) {
        Ok(r) => format!("{r:?}"),
        Err(e) => e.to_string(),
    };
    let mut diagnostics = String::new();
    for d in session.diags.diagnostics() {
        diagnostics.push_str(&d.render_text());
        diagnostics.push('\n');
    }
    let mut yaml = String::new();
    session.diags.write_remarks_yaml(&mut yaml).unwrap();
    let mut stats = String::new();
    session.stats.write_report(&mut stats).unwrap();
    Observed {
        outcome,
        ir: print_module(&out),
        diagnostics,
        yaml,
        stats,
    }
}

/// The passes alone, for the large modules.
const RUNS_LARGE: &[(&str, &[&str])] = &[
    ("memspace-opt", &["memspace-opt-verbose=1"]),
    ("process-restrict", &["dump-process-restrict=1"]),
    ("kernel-info", &[]),
    ("pretreat,kernel-attr,cdp,force-inline", &[]),
];

/// Runs every entry of `runs` on `m` with 1 and [`THREADS`] threads;
/// returns how many runs emitted diagnostics.
fn same_with_threads(
    registry: &Registry<Module>,
    runs: &[(&str, &[&str])],
    what: &str,
    m: &Module,
) -> usize {
    let mut with_diags = 0;
    for (pipeline, knobs) in runs {
        let one = observe(registry, pipeline, knobs, m, 1);
        let many = observe(registry, pipeline, knobs, m, THREADS);
        if one != many {
            let field = |a: &str, b: &str, name: &str| {
                if a != b {
                    let at = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
                    let start = a[..at].rfind('\n').map_or(0, |i| i + 1);
                    panic!(
                        "{what}: '{pipeline}' {knobs:?}: {name} differs with {THREADS} threads \
                         at byte {at}:\n 1: {}\n {THREADS}: {}",
                        a[start..].lines().next().unwrap_or(""),
                        b[start..].lines().next().unwrap_or("")
                    );
                }
            };
            field(&one.outcome, &many.outcome, "outcome");
            field(&one.ir, &many.ir, "printed IR");
            field(&one.diagnostics, &many.diagnostics, "diagnostics");
            field(&one.yaml, &many.yaml, "remark YAML");
            field(&one.stats, &many.stats, "statistics");
        }
        with_diags += usize::from(!one.diagnostics.is_empty());
    }
    with_diags
}

fn load(src: &[u8]) -> Option<Module> {
    let m = parse_module(src).ok()?;
    verify_module(&m).ok()?;
    Some(m)
}

fn ll_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            ll_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "ll") {
            out.push(p);
        }
    }
}

// Without the threaded mapper every comparison below would compare one
// thread with one thread.
const _: () = assert!(PARALLEL, "nvpass-core's `parallel` feature is off in tests");

#[test]
fn lit_inputs_and_corpus_same_with_four_threads() {
    let registry = nvpass_passes::registry::<Module>();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    ll_files(&root.join("tests/lit"), &mut files);
    let lit = files.len();
    let corpus = std::env::var_os("NVPASS_CORPUS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/root/.cache/nvpass-corpus/ll"));
    ll_files(&corpus, &mut files);
    let (mut checked, mut with_diags) = (0, 0);
    for path in &files {
        let src = std::fs::read(path).unwrap();
        // Inputs meant to be rejected (malformed IR) are no pass input.
        let Some(m) = load(&src) else { continue };
        with_diags += same_with_threads(&registry, RUNS, &path.display().to_string(), &m);
        checked += 1;
    }
    println!(
        "{checked} of {} files checked ({lit} lit), {with_diags} runs with diagnostics",
        files.len()
    );
    // The lit directories of the three passes alone hold more than 25
    // inputs, and several of them emit diagnostics.
    assert!(checked >= 25, "only {checked} inputs checked");
    assert!(
        with_diags >= 10,
        "only {with_diags} runs emitted diagnostics"
    );
}

#[test]
fn generated_modules_same_with_four_threads() {
    let registry = nvpass_passes::registry::<Module>();
    for seed in 0..60 {
        let src = gen::module(&mut gen::XorShift::new(seed), gen::Limits::default());
        let m = load(src.as_bytes()).unwrap_or_else(|| panic!("seed {seed} does not load"));
        same_with_threads(&registry, RUNS, &format!("seed {seed}"), &m);
    }
}

/// A module with more functions than one window of [`THREADS`] threads, so
/// plans of a later window are computed after an earlier window is applied.
#[test]
fn module_larger_than_one_window_same_with_four_threads() {
    let registry = nvpass_passes::registry::<Module>();
    let window = THREADS * WINDOW_PER_THREAD;
    // The generator draws the function count below `funcs`.
    let limits = gen::Limits {
        funcs: 2 * window as u32,
        kernels: 100,
        insts: 10,
        depth: 2,
    };
    for seed in 0..20 {
        let src = gen::module(&mut gen::XorShift::new(seed), limits);
        if src.matches("\ndefine ").count() <= window {
            continue;
        }
        let m = load(src.as_bytes()).unwrap_or_else(|| panic!("seed {seed} does not load"));
        let with_diags =
            same_with_threads(&registry, RUNS_LARGE, &format!("large seed {seed}"), &m);
        assert!(with_diags > 0, "large seed {seed}: no diagnostics compared");
        return;
    }
    panic!("none of 20 seeds gives more than {window} definitions");
}
