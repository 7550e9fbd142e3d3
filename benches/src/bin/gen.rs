//! Writes a synthetic NVVM module to standard output.
//!
//! ```text
//! gen [--size-mb N | --size-kb N] [--seed S] [--chain N] [--fan-in N] [--scc N] [--block-calls N] [--cdp-block N] [--dead N] [--inline-chain N]
//! ```
use nvpass_benches::gen::{generate, Config};
use std::io::Write;

fn main() {
    let mut cfg = Config::sized(1, 1 << 20);
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let val = |i: usize| -> usize {
            args.get(i + 1)
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| usage(&format!("{} needs a number", args[i])))
        };
        match args[i].as_str() {
            "--size-mb" => cfg.target_bytes = val(i) << 20,
            "--size-kb" => cfg.target_bytes = val(i) << 10,
            "--seed" => cfg.seed = val(i) as u64,
            "--chain" => cfg.chain = val(i),
            "--fan-in" => cfg.fan_in = val(i),
            "--scc" => cfg.scc = val(i),
            "--block-calls" => cfg.block_calls = val(i),
            "--cdp-block" => cfg.cdp_block = val(i),
            "--dead" => cfg.dead = val(i),
            "--inline-chain" => cfg.inline_chain = val(i),
            "-h" | "--help" => usage(""),
            a => usage(&format!("unknown argument '{a}'")),
        }
        i += 2;
    }
    let text = generate(&cfg);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if out.write_all(text.as_bytes()).is_err() {
        std::process::exit(1);
    }
}

fn usage(msg: &str) -> ! {
    if !msg.is_empty() {
        eprintln!("gen: error: {msg}");
    }
    eprintln!(
        "usage: gen [--size-mb N | --size-kb N] [--seed S] [--chain N] [--fan-in N] [--scc N] [--block-calls N] [--cdp-block N] [--dead N] [--inline-chain N]"
    );
    std::process::exit(if msg.is_empty() { 0 } else { 2 });
}
