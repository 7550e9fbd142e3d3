//! Reader, printer and verifier throughput on corpus and generated modules.
//!
//! `cargo bench -p nvpass-benches --bench ir` (filter with a trailing
//! argument, e.g. `-- parse/libdevice`). Measurement is kept short because
//! the build machines are shared; compare runs with `--save-baseline` and
//! `--baseline`.
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use nvpass_benches::{corpus_modules, gen};
use std::time::Duration;

/// Corpus modules plus generated ones of 256 KiB and 4 MiB.
fn inputs() -> Vec<(String, Vec<u8>)> {
    let mut v = corpus_modules();
    for kb in [256usize, 4096] {
        let text = gen::generate(&gen::Config::sized(1, kb << 10));
        v.push((format!("gen{kb}k"), text.into_bytes()));
    }
    v
}

fn ir(c: &mut Criterion) {
    let inputs = inputs();
    for (stage, f) in [
        ("lex", stage_lex as fn(&[u8], &nvpass_ir::Module)),
        ("parse", stage_parse),
        ("parse-lexed-ahead", stage_parse_lexed_ahead),
        ("print", stage_print),
        ("verify", stage_verify),
        ("verify-parsed", stage_verify_parsed),
    ] {
        let mut g = c.benchmark_group(stage);
        g.sample_size(10)
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_secs(1));
        for (name, src) in &inputs {
            let m = nvpass_ir::parse_module(src).expect("benchmark input parses");
            g.throughput(Throughput::Bytes(src.len() as u64));
            g.bench_with_input(BenchmarkId::from_parameter(name), src, |b, src| {
                b.iter(|| f(src, &m))
            });
        }
        g.finish();
    }
}

fn stage_lex(src: &[u8], _: &nvpass_ir::Module) {
    std::hint::black_box(nvpass_ir::parse::count_tokens(src).unwrap());
}

fn stage_parse(src: &[u8], _: &nvpass_ir::Module) {
    std::hint::black_box(nvpass_ir::parse_module(src).unwrap());
}

/// The reader `nvpass-cli` uses with two or more threads.
fn stage_parse_lexed_ahead(src: &[u8], _: &nvpass_ir::Module) {
    std::hint::black_box(nvpass_ir::parse::read_lexed_ahead(src, 64 << 10).unwrap());
}

fn stage_print(_: &[u8], m: &nvpass_ir::Module) {
    std::hint::black_box(nvpass_ir::print_module(m));
}

fn stage_verify(_: &[u8], m: &nvpass_ir::Module) {
    std::hint::black_box(nvpass_ir::verify_module(m).is_ok());
}

/// The checks `nvpass-cli` makes of the module it reads: all but the use
/// lists' (see `verify_parsed_module`).
fn stage_verify_parsed(_: &[u8], m: &nvpass_ir::Module) {
    std::hint::black_box(nvpass_ir::verify::verify_parsed_module(m).is_ok());
}

criterion_group!(benches, ir);
criterion_main!(benches);
