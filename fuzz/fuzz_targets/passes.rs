//! Every registered pass on well-formed modules built from the fuzz input
//! by the structured generator: the generated module parses, verifies and
//! round-trips; each pass (and all of them in a row) either declines with
//! a diagnostic or leaves a module the verifier accepts, that round-trips,
//! and that a second run leaves unchanged (each pass on its own) or that
//! still verifies or is declined with error diagnostics on a second run
//! (all of them in a row; see `support/check.rs`). Each input also checks
//! one pass option or knob set away from its default (`check::CONFIGS`),
//! chosen by its last byte, and a pipeline of two or three steps, each a
//! registered pass or a configuration, chosen by the bytes before it
//! (`check::check_sequence`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use nvpass_ir::Module;

#[path = "../../nvpass-ir/tests/support/check.rs"]
mod check;
#[path = "../../nvpass-ir/tests/support/gen.rs"]
mod gen;

fuzz_target!(|data: &[u8]| {
    let limits = gen::Limits {
        funcs: 5,
        kernels: 3,
        insts: 50,
        depth: 3,
    };
    let src = gen::module(&mut gen::Bytes::new(data), limits);
    let m = check::load(src.as_bytes()).unwrap_or_else(|e| panic!("{e}\n--- generated ---\n{src}"));
    let registry = nvpass_passes::registry::<Module>();
    if let Err(e) = check::check_all(&registry, &m) {
        panic!("{e}\n--- generated ---\n{src}");
    }
    // One pass option or knob away from its default, picked by the last
    // byte (the generator reads the input from the front).
    let k = data.last().map_or(0, |&b| b as usize) % check::CONFIGS.len();
    if let Err(e) = check::check_config(&registry, &check::CONFIGS[k], &m) {
        panic!("{e}\n--- generated ---\n{src}");
    }
    // A pipeline in an order of the input's choosing, read from the end
    // like the configuration: the byte before the last gives its length,
    // the bytes before that its steps.
    let names: Vec<&str> = registry.names().collect();
    let tail: Vec<usize> = data.iter().rev().skip(1).take(4).map(|&b| b as usize).collect();
    let len = 2 + tail.first().map_or(0, |b| b % 2);
    let steps: Vec<check::Step<'_>> = (0..len)
        .map(|i| check::nth_step(&names, tail.get(1 + i).copied().unwrap_or(i)))
        .collect();
    if let Err(e) = check::check_sequence(&registry, &steps, &m) {
        panic!("{steps:?}: {e}\n--- generated ---\n{src}");
    }
});
