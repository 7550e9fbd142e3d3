//! Every registered pass, and the card pipeline, on corpus and generated
//! modules (`gen1m` of the default shapes, `gen-blocks` of long blocks). The pass list comes from `nvpass_passes::registry`, so passes
//! added later are benchmarked without editing this file.
//!
//! Each iteration runs on a fresh clone of the parsed module (the clone is
//! outside the measured time).
//!
//! The passes whose per-function analyses run on several threads
//! ([`THREADED`]) are also measured with 2 and 4 threads
//! (`pass-threads/<name>/j<N>`); `pass/<name>` is the one-thread run.
//!
//! Passes run without remarks, as `nvpass-cli` runs them when no
//! `-pass-remarks*` option is given (except `kernel-info`, whose remarks
//! are its whole output); `pipeline/card-remarks` is the card
//! pipeline with every remark kept, so the cost of building them stays
//! visible too.
use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use nvpass_benches::{corpus_modules, gen};
use nvpass_core::pass::Session;
use nvpass_core::registry::Registry;
use nvpass_ir::Module;
use std::time::Duration;

/// The card pipeline, in order; passes not registered yet are left out.
const CARD: [&str; 4] = ["pretreat", "kernel-attr", "cdp", "force-inline"];

/// Passes that analyze functions on `Session::threads` threads (pretreat
/// takes its first census of every function on them, cdp finds its calls
/// and plans its parameter buffers on them).
const THREADED: [&str; 5] = [
    "memspace-opt",
    "process-restrict",
    "kernel-info",
    "pretreat",
    "cdp",
];

/// Thread counts of the `pass-threads` groups.
const THREAD_COUNTS: [usize; 2] = [2, 4];

fn inputs() -> Vec<(String, Module)> {
    let mut v: Vec<(String, Vec<u8>)> = corpus_modules();
    let cfg = gen::Config {
        chain: 200,
        fan_in: 1000,
        scc: 20,
        ..gen::Config::sized(1, 1 << 20)
    };
    v.push(("gen1m".into(), gen::generate(&cfg).into_bytes()));
    // Long blocks: 2,000 calls of two helpers and 2,000 CDP launches of
    // each form, each set in one block, where a per-call scan of the block
    // would be quadratic.
    let blocks = gen::Config {
        block_calls: 2000,
        cdp_block: 2000,
        ..gen::Config::sized(1, 0)
    };
    v.push(("gen-blocks".into(), gen::generate(&blocks).into_bytes()));
    v.into_iter()
        .map(|(n, src)| {
            (
                n,
                nvpass_ir::parse_module(&src).expect("benchmark input parses"),
            )
        })
        .collect()
}

fn bench_pipeline(
    c: &mut Criterion,
    registry: &Registry<Module>,
    group: &str,
    text: &str,
    inputs: &[(String, Module)],
    threads: usize,
    remarks: bool,
) {
    let knobs = registry.knob_values().expect("registry knobs");
    let mut g = c.benchmark_group(group);
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_secs(1));
    for (name, m) in inputs {
        let mut pm = match registry.build_text(text) {
            Ok(pm) => pm,
            Err(e) => {
                eprintln!("skipping pipeline '{text}': {e}");
                return;
            }
        };
        g.throughput(Throughput::Elements(m.insts.len() as u64));
        g.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter_batched(
                || {
                    let s = Session::new(knobs.clone())
                        .with_threads(threads)
                        .with_remarks(remarks);
                    (m.clone(), s)
                },
                |(mut m, mut s)| {
                    let _ = std::hint::black_box(pm.run(&mut m, &mut s, &mut []));
                    (m, s)
                },
                BatchSize::LargeInput,
            )
        });
    }
    g.finish();
}

fn passes(c: &mut Criterion) {
    let registry: Registry<Module> = nvpass_passes::registry();
    let inputs = inputs();
    for e in registry.entries() {
        let name = e.info.name;
        // kernel-info's remarks are its whole output: it keeps them.
        let remarks = name == "kernel-info";
        let group = format!("pass/{name}");
        bench_pipeline(c, &registry, &group, name, &inputs, 1, remarks);
    }
    for name in THREADED.iter().filter(|p| registry.lookup(p).is_some()) {
        for threads in THREAD_COUNTS {
            let group = format!("pass-threads/{name}/j{threads}");
            let remarks = *name == "kernel-info";
            bench_pipeline(c, &registry, &group, name, &inputs, threads, remarks);
        }
    }
    let card: Vec<&str> = CARD
        .iter()
        .copied()
        .filter(|p| registry.lookup(p).is_some())
        .collect();
    if !card.is_empty() {
        let card = card.join(",");
        bench_pipeline(c, &registry, "pipeline/card", &card, &inputs, 1, false);
        bench_pipeline(
            c,
            &registry,
            "pipeline/card-remarks",
            &card,
            &inputs,
            1,
            true,
        );
    }
    // The empty pipeline: the pass manager's own overhead.
    bench_pipeline(c, &registry, "pipeline/empty", "", &inputs, 1, false);
}

criterion_group!(benches, passes);
criterion_main!(benches);
