//! Print/parse fixpoint: whatever parses prints to text that parses back
//! and prints to the same bytes; the verifier never panics and judges the
//! reprinted module as it judged the original.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nvpass_ir::verify::verify_module;
use nvpass_ir::{parse_module, print_module};

fuzz_target!(|data: &[u8]| {
    let Ok(m) = parse_module(data) else {
        return;
    };
    let valid = verify_module(&m).is_ok();
    let once = print_module(&m);
    let again = match parse_module(once.as_bytes()) {
        Ok(m) => m,
        Err(e) => panic!(
            "printed module does not parse:\n{}\n--- printed ---\n{once}",
            e.render("printed.ll", once.as_bytes())
        ),
    };
    let twice = print_module(&again);
    assert_eq!(once, twice, "print/parse is not a fixpoint");
    assert_eq!(
        valid,
        verify_module(&again).is_ok(),
        "the verifier judges the reprinted module differently:\n{once}"
    );
});
