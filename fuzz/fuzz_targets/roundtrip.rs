//! Print/parse fixpoint: whatever parses prints to text that parses back
//! and prints to the same bytes; the verifier never panics and judges the
//! reprinted module as it judged the original. Read in pieces
//! (`ModuleReader`), directly or cut and lexed ahead (`push_lexed`), the
//! input gives the same module or none (the caller then parses it whole),
//! never another one, and no module when it does not parse.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nvpass_ir::verify::verify_module;
use nvpass_ir::{parse_module, print_module, Module, ModuleReader};

fn read_in_pieces(data: &[u8], piece: usize) -> Option<Module> {
    let mut r = ModuleReader::new();
    for c in data.chunks(piece) {
        if !r.push(c) {
            return None;
        }
    }
    r.finish()
}

fn read_lexed(data: &[u8], piece: usize) -> Option<Module> {
    nvpass_ir::parse::read_lexed(data.chunks(piece))
}

fuzz_target!(|data: &[u8]| {
    let piece = 1 + data.len() % 13;
    let Ok(m) = parse_module(data) else {
        assert!(
            read_in_pieces(data, piece).is_none(),
            "read in pieces of {piece} bytes, text that does not parse gave a module"
        );
        assert!(
            read_lexed(data, piece).is_none(),
            "lexed in pieces of {piece} bytes, text that does not parse gave a module"
        );
        return;
    };
    let valid = verify_module(&m).is_ok();
    let once = print_module(&m);
    if let Some(p) = read_in_pieces(data, piece) {
        assert_eq!(
            print_module(&p),
            once,
            "read in pieces of {piece} bytes, the module differs"
        );
    }
    if let Some(p) = read_lexed(data, piece) {
        assert_eq!(
            print_module(&p),
            once,
            "lexed in pieces of {piece} bytes, the module differs"
        );
    }
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
