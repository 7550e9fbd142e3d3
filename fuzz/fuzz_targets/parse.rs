//! The lexer and parser on arbitrary bytes: never panic; an error is
//! located inside the input and renders with a caret.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = nvpass_ir::parse_module(data) {
        assert!(e.line >= 1 && e.col >= 1, "{e}");
        let lines = 1 + data.iter().filter(|&&c| c == b'\n').count();
        assert!(
            e.line as usize <= lines,
            "error line {} past the end: {e}",
            e.line
        );
        let r = e.render("fuzz.ll", data);
        assert!(r.ends_with('^'));
    }
});
