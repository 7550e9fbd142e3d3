//! Scaling series: generates modules of 1x, 2x, 4x, 8x and 16x a base size
//! and reports, per stage (parse, print, verify, each registered pass), the
//! time and the peak heap growth, with the ratio to the 1x row normalized by
//! the size ratio (1.00 = perfectly linear). Each size step runs in its own
//! process, and each pass run gets a freshly parsed module, as in
//! `nvpass-cli` (a clone's arenas have no spare capacity, so the first
//! instruction a pass adds would copy a whole arena).
//!
//! ```text
//! scale [--base-mb N] [--steps K] [--seed S] [--chain N] [--fan-in N] [--scc N] [--block-calls N] [--cdp-block N] [--dead N] [--inline-chain N] [--only a,b,...] [--cold] [--runs N] [--rounds N]
//! ```
//! (`--step K` runs the single step K in this process; the series uses it
//! for each step.)
//! `--only` keeps the passes whose name contains one of the given words
//! (parse, print and verify are always measured; `--only none` skips every
//! pass).
//! Passes run without remarks, as `nvpass-cli` does when no `-pass-remarks*`
//! option is given, except `kernel-info`, whose remarks are its output.
//! Heap is measured with a counting global allocator, so the numbers are
//! exact and do not depend on the machine's load; times are the best of
//! three runs (`--runs N` for another number: on a busy machine more runs
//! make the best one closer to the undisturbed time).
//!
//! `--rounds N` runs the whole series N times, the steps in turn (1x, 2x,
//! ..., 16x, then 1x again), and keeps each stage's best time at each step
//! over the rounds ([`merge`]). A series takes minutes, and the machine's
//! speed can drift meanwhile: with one round, a slow spell falls on a few
//! neighbouring steps only and tilts their ratios; with several, every
//! step is measured early and late.
//!
//! `--cold` evicts the processor caches before every timed run by writing
//! over a buffer twice the size of the largest cache ([`evict_bytes`]).
//! Without it a small module is still cached from the parse that just
//! built it when the stage starts, and a large one is not, so the warm
//! series charges the cache's size to the larger steps; the cold series
//! starts every step from memory. It also
//! hands the memory freed by the previous run back to the kernel (glibc's
//! `malloc_trim`), so that every run pays for its page faults as a fresh
//! `nvpass-cli` process does: otherwise the allocator recycles a small
//! step's pages and only the larger steps fault theirs in.
use nvpass_benches::gen::{generate, Config};
use nvpass_benches::heap::{self, CountingAlloc};
use nvpass_core::pass::Session;
use nvpass_core::registry::Registry;
use nvpass_ir::Module;
use std::time::Instant;

#[global_allocator]
static A: CountingAlloc = CountingAlloc;

/// Bytes written before each timed run under `--cold` when the size of the
/// processor's caches is not known: four times a 32 MiB last-level cache.
const EVICT_BYTES: usize = 128 << 20;

/// How many times the largest cache [`evict_bytes`] writes over.
const EVICT_CACHE_MULTIPLE: usize = 2;

/// Bytes written before each timed run under `--cold`: on Linux,
/// [`EVICT_CACHE_MULTIPLE`] times the largest cache the kernel reports for
/// the first processor, so that nothing of the module survives it however
/// large the last-level cache is (some servers have hundreds of MiB);
/// at least [`EVICT_BYTES`].
fn evict_bytes() -> usize {
    let largest = (0..8)
        .filter_map(|i| {
            let path = format!("/sys/devices/system/cpu/cpu0/cache/index{i}/size");
            parse_cache_size(std::fs::read_to_string(path).ok()?.trim())
        })
        .max()
        .unwrap_or(0);
    (largest * EVICT_CACHE_MULTIPLE).max(EVICT_BYTES)
}

/// A cache size as sysfs writes it (`48K`, `2048K`, `480M`), in bytes.
fn parse_cache_size(s: &str) -> Option<usize> {
    let (digits, unit) = match s.as_bytes().last()? {
        b'K' => (&s[..s.len() - 1], 1 << 10),
        b'M' => (&s[..s.len() - 1], 1 << 20),
        b'G' => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    digits.parse::<usize>().ok()?.checked_mul(unit)
}

/// Writes one byte in every cache line of `buf`, pushing whatever the
/// caches held out to memory.
fn evict(buf: &mut [u8]) {
    for line in buf.chunks_mut(64) {
        line[0] = line[0].wrapping_add(1);
    }
    std::hint::black_box(&buf[..]);
}

/// The allocator tuning `nvpass-cli` applies first thing. Applied here
/// too, the stages allocate as they do in the driver: left to itself, glibc
/// raises its mmap threshold to the largest block freed so far, and in this
/// long-lived process, after one run's module is dropped, the next run's
/// tables of a few MiB would come from the heap instead of fresh mappings,
/// which `nvpass-cli` never sees.
#[path = "../../../nvpass-cli/src/malloc_tuning.rs"]
mod malloc_tuning;

/// Runs `f` `runs` times; returns the best time in seconds and the peak
/// heap growth in bytes over the heap in use before the call. With `cold`,
/// freed memory goes back to the kernel and the caches are evicted
/// (through the buffer) before each run.
fn measure<T>(
    runs: usize,
    cold: &mut Option<Vec<u8>>,
    mut f: impl FnMut() -> T,
) -> (f64, usize, T) {
    let mut best = f64::MAX;
    let mut peak = 0;
    let mut out = None;
    for _ in 0..runs {
        drop(out.take());
        if let Some(buf) = cold.as_mut() {
            // Freed memory goes back to the kernel, so that the next
            // allocations fault their pages in again.
            malloc_tuning::release_free_memory();
            evict(buf);
        }
        let base = heap::reset_peak();
        let t = Instant::now();
        let r = f();
        best = best.min(t.elapsed().as_secs_f64());
        peak = peak.max(heap::peak() - base);
        out = Some(r);
    }
    (best, peak, out.unwrap())
}

/// Pipelines measured besides each registered pass with its defaults: the
/// inliner under its other two cost models (spec 001 models B and C).
const EXTRA_PIPELINES: &[&str] = &["inline<model=llvm>", "inline<model=cgscc>"];

/// One stage's measurements: its name and, per size step, (input bytes,
/// seconds, heap bytes).
type StageRow = (String, Vec<(usize, f64, usize)>);

/// Adds one measurement of `stage` on an input of `bytes` to `rows`: a new
/// row or step in the order first seen, or, for a step measured in an
/// earlier round, the better time and the larger heap of the two.
fn merge(rows: &mut Vec<StageRow>, stage: &str, bytes: usize, secs: f64, heap: usize) {
    let row = match rows.iter().position(|r| r.0 == stage) {
        Some(k) => &mut rows[k].1,
        None => {
            rows.push((stage.to_string(), Vec::new()));
            &mut rows.last_mut().expect("just pushed").1
        }
    };
    match row.iter_mut().find(|p| p.0 == bytes) {
        Some(p) => {
            p.1 = p.1.min(secs);
            p.2 = p.2.max(heap);
        }
        None => row.push((bytes, secs, heap)),
    }
}

fn main() {
    malloc_tuning::fix_mmap_threshold();
    let mut base_mb = 2usize;
    let mut steps = 5u32;
    let mut cfg = Config::sized(1, 0);
    let mut only: Vec<String> = Vec::new();
    let mut step: Option<u32> = None;
    let mut cold = false;
    let mut runs = 3usize;
    let mut rounds = 1usize;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--cold" {
            cold = true;
            i += 1;
            continue;
        }
        let v = || -> usize {
            args.get(i + 1)
                .and_then(|v| v.parse().ok())
                .expect("numeric argument")
        };
        match args[i].as_str() {
            "--base-mb" => base_mb = v(),
            "--steps" => steps = v() as u32,
            "--seed" => cfg.seed = v() as u64,
            "--chain" => cfg.chain = v(),
            "--fan-in" => cfg.fan_in = v(),
            "--scc" => cfg.scc = v(),
            "--block-calls" => cfg.block_calls = v(),
            "--cdp-block" => cfg.cdp_block = v(),
            "--dead" => cfg.dead = v(),
            "--inline-chain" => cfg.inline_chain = v(),
            "--step" => step = Some(v() as u32),
            "--runs" => runs = v().max(1),
            "--rounds" => rounds = v().max(1),
            "--only" => {
                only = args
                    .get(i + 1)
                    .map(|a| a.split(',').map(str::to_string).collect())
                    .unwrap_or_default()
            }
            a => {
                eprintln!("usage: scale [--base-mb N] [--steps K] [--seed S] [--chain N] [--fan-in N] [--scc N] [--block-calls N] [--cdp-block N] [--dead N] [--inline-chain N] [--only a,b] [--cold] [--runs N] [--rounds N]; unknown '{a}'");
                std::process::exit(2);
            }
        }
        i += 2;
    }
    let registry: Registry<Module> = nvpass_passes::registry();
    let knobs = registry.knob_values().expect("knobs");
    let mut rows: Vec<StageRow> = Vec::new();
    let wanted = |stage: &str| only.is_empty() || only.iter().any(|w| stage.contains(w.as_str()));
    if let Some(k) = step {
        // One size step, in this process: rows go to standard output for
        // the parent to collect.
        let mult = 1usize << k;
        let c = Config {
            target_bytes: (base_mb << 20) * mult,
            chain: cfg.chain * mult,
            fan_in: cfg.fan_in * mult,
            scc: cfg.scc * mult,
            block_calls: cfg.block_calls * mult,
            cdp_block: cfg.cdp_block * mult,
            dead: cfg.dead * mult,
            inline_chain: cfg.inline_chain * mult,
            ..cfg.clone()
        };
        let src = generate(&c).into_bytes();
        // Allocated before any measurement, so it is not part of a stage's
        // heap growth.
        let mut cold = cold.then(|| vec![0u8; evict_bytes()]);
        let n = src.len();
        eprintln!("{}x: {} bytes", mult, n);
        let row = |stage: &str, t: f64, h: usize| println!("{stage}\t{n}\t{t}\t{h}");
        let (t, h, m) = measure(runs, &mut cold, || {
            nvpass_ir::parse_module(&src).expect("parses")
        });
        row("parse", t, h);
        // In 64 KiB pieces, as the CLI writes a file: the text is counted,
        // not kept.
        let (t, h, _) = measure(runs, &mut cold, || {
            let mut bytes = 0usize;
            nvpass_ir::print::print_module_chunked(&m, &mut |c: &[u8]| bytes += c.len());
            bytes
        });
        row("print", t, h);
        let (t, h, _) = measure(runs, &mut cold, || nvpass_ir::verify_module(&m).is_ok());
        row("verify", t, h);
        // Every registered pass with its defaults, and the inliner's other
        // cost models.
        let pipelines = registry
            .entries()
            .iter()
            .map(|e| e.info.name)
            .chain(EXTRA_PIPELINES.iter().copied());
        for name in pipelines {
            if !wanted(&format!("pass {name}")) {
                continue;
            }
            let mut pm = registry.build_text(name).expect("pass builds");
            let mut copies: Vec<Module> = (0..runs)
                .map(|_| nvpass_ir::parse_module(&src).expect("parses"))
                .collect();
            let (t, h, _) = measure(runs, &mut cold, || {
                let mut mm = copies.pop().unwrap();
                // Without remarks, as the CLI runs when none is asked for;
                // kernel-info's remarks are its whole output, so it keeps
                // them, as with `-pass-remarks-analysis=kernel-info`.
                let keep = name == "kernel-info";
                let mut s = Session::new(knobs.clone()).with_remarks(keep);
                let _ = pm.run(&mut mm, &mut s, &mut []);
                mm
            });
            row(&format!("pass {name}"), t, h);
        }
        return;
    }
    // Each size step runs in a fresh process, so that no step inherits the
    // heap the previous, smaller ones left behind.
    let exe = std::env::current_exe().expect("own executable");
    for k in (0..rounds).flat_map(|_| 0..steps) {
        let out = std::process::Command::new(&exe)
            .args(&args)
            .args(["--step", &k.to_string()])
            .stderr(std::process::Stdio::inherit())
            .output()
            .expect("size step runs");
        assert!(out.status.success(), "size step {k} failed");
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            let f: Vec<&str> = line.split('\t').collect();
            let [stage, n, t, h] = f[..] else {
                panic!("bad row from size step {k}: {line}");
            };
            let num = |x: &str| x.parse::<f64>().expect("numeric field");
            merge(&mut rows, stage, num(n) as usize, num(t), num(h) as usize);
        }
    }
    println!(
        "{:<22} {:>6} {:>10} {:>10} {:>10} {:>8} {:>8}",
        "stage", "size", "MB", "time_ms", "heap_MB", "t/lin", "mem/lin"
    );
    for (stage, pts) in &rows {
        let (b0, t0, h0) = pts[0];
        for &(b, t, h) in pts {
            let r = b as f64 / b0 as f64;
            println!(
                "{:<22} {:>5.0}x {:>10.1} {:>10.2} {:>10.1} {:>8.2} {:>8.2}",
                stage,
                r,
                b as f64 / 1048576.0,
                t * 1e3,
                h as f64 / 1048576.0,
                (t / t0) / r,
                (h as f64 / h0.max(1) as f64) / r
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A later round keeps a step's better time and larger heap, and the
    /// steps and stages stay in the order first seen.
    #[test]
    fn rounds_keep_the_best_time_per_step() {
        let mut rows = Vec::new();
        merge(&mut rows, "parse", 100, 2.0, 10);
        merge(&mut rows, "parse", 200, 5.0, 20);
        merge(&mut rows, "print", 100, 1.0, 3);
        merge(&mut rows, "parse", 100, 1.5, 9);
        merge(&mut rows, "parse", 200, 6.0, 21);
        merge(&mut rows, "print", 100, 1.2, 3);
        assert_eq!(
            rows,
            vec![
                ("parse".to_string(), vec![(100, 1.5, 10), (200, 5.0, 21)]),
                ("print".to_string(), vec![(100, 1.0, 3)]),
            ]
        );
    }

    #[test]
    fn cache_sizes_read_as_sysfs_writes_them() {
        assert_eq!(parse_cache_size("48K"), Some(48 << 10));
        assert_eq!(parse_cache_size("491520K"), Some(480 << 20));
        assert_eq!(parse_cache_size("32M"), Some(32 << 20));
        assert_eq!(parse_cache_size("1G"), Some(1 << 30));
        assert_eq!(parse_cache_size("4096"), Some(4096));
        assert_eq!(parse_cache_size(""), None);
        assert_eq!(parse_cache_size("K"), None);
        assert_eq!(parse_cache_size("12Q"), None);
    }
}
