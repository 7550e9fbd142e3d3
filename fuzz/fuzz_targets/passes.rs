//! Every registered pass on well-formed modules built from the fuzz input
//! by the structured generator: the generated module parses, verifies and
//! round-trips; each pass (and all of them in a row) either declines with
//! a diagnostic or leaves a module the verifier accepts, that round-trips,
//! and that a second run leaves unchanged (each pass on its own) or that
//! still verifies or is declined with error diagnostics on a second run
//! (all of them in a row; see `support/check.rs`). Each input also checks
//! one pass option or knob set away from its default (`check::CONFIGS`),
//! chosen by its last byte.
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
});
