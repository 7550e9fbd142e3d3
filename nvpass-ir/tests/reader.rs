//! `ModuleReader` (the text handed over in pieces) gives exactly what
//! `parse_module` gives on the whole text: the same module, printed, when
//! the text parses, and no module (so the caller parses the whole text for
//! the error) when it does not, for every piece size; and so it does with
//! the pieces cut by a `PieceCutter` and lexed ahead (`push_lexed`). Every
//! module read, whole or in pieces, has consistent use lists.

use nvpass_ir::verify::verify_use_lists;
use nvpass_ir::{parse_module, print_module, LexedPiece, ModuleReader};
use std::path::{Path, PathBuf};

/// Reads `src` in pieces of `piece` bytes.
fn read_in_pieces(src: &[u8], piece: usize) -> Option<nvpass_ir::Module> {
    read_pieces_into(ModuleReader::new(), src, piece)
}

/// Reads `src` in pieces of `piece` bytes with a reader told its length
/// (`ModuleReader::with_size_hint`), as `nvpass-cli` reads a file.
fn read_sized_pieces(src: &[u8], piece: usize) -> Option<nvpass_ir::Module> {
    read_pieces_into(ModuleReader::with_size_hint(src.len()), src, piece)
}

fn read_pieces_into(mut r: ModuleReader, src: &[u8], piece: usize) -> Option<nvpass_ir::Module> {
    for c in src.chunks(piece) {
        if !r.push(c) {
            return None;
        }
    }
    r.finish()
}

/// Reads `src` in pieces of `piece` bytes written straight into the
/// reader's buffer (`ModuleReader::push_with`), as `nvpass-cli` reads a
/// file; each time the reader offers more room than is written.
fn read_pieces_in_place(src: &[u8], piece: usize) -> Option<nvpass_ir::Module> {
    let mut r = ModuleReader::with_size_hint(src.len());
    let mut rest = src;
    loop {
        let (n, ok) = r
            .push_with(piece + 7, |room| {
                let n = piece.min(rest.len());
                room[..n].copy_from_slice(&rest[..n]);
                Ok::<_, ()>(n)
            })
            .unwrap();
        rest = &rest[n..];
        if !ok {
            return None;
        }
        if n == 0 {
            return r.finish();
        }
    }
}

/// Reads `src` arriving in pieces of `piece` bytes, cut by a
/// `PieceCutter` and lexed ahead, as `nvpass-cli` does on two threads.
fn read_lexed(src: &[u8], piece: usize) -> Option<nvpass_ir::Module> {
    nvpass_ir::parse::read_lexed(src.chunks(piece))
}

/// The module printed, once its use lists are checked: the reader keeps
/// them by construction, which lets `nvpass-cli` verify what it reads
/// with `verify_parsed_module`, which does not check them.
fn printed(name: &str, how: &str, m: &nvpass_ir::Module) -> String {
    if let Err(e) = verify_use_lists(m) {
        panic!("{name}: {how}: the reader left use lists wrong: {e:?}");
    }
    print_module(m)
}

/// `fallback`: a text that parses may still be read as "parse it whole"
/// (fuzz inputs whose entities run over lines that look like entity
/// starts); never for real modules.
fn check(name: &str, src: &[u8], pieces: &[usize], fallback: bool) {
    let whole = parse_module(src).map(|m| printed(name, "whole text", &m));
    for &n in pieces {
        for (how, read) in [
            ("pieces", read_in_pieces as fn(&[u8], usize) -> _),
            ("sized pieces", read_sized_pieces),
            ("pieces in place", read_pieces_in_place),
            ("lexed pieces", read_lexed),
        ] {
            let got = read(src, n).map(|m| printed(name, how, &m));
            match (&whole, got) {
                (Ok(w), Some(g)) => {
                    assert!(*w == g, "{name}: {how} of {n} bytes print differently")
                }
                (Ok(_), None) => assert!(fallback, "{name}: {how} of {n} bytes gave no module"),
                (Err(e), Some(_)) => panic!("{name}: {how} of {n} bytes parsed; whole text: {e}"),
                (Err(_), None) => {}
            }
        }
    }
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.filter_map(|e| e.ok()) {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn tree(rel: &str) -> Vec<PathBuf> {
    let mut v = Vec::new();
    files(&Path::new(env!("CARGO_MANIFEST_DIR")).join(rel), &mut v);
    v.sort();
    v
}

#[test]
fn pieces_of_every_size_read_the_test_modules() {
    let mut n = 0;
    for dir in ["../tests/lit", "tests/parse_data", "tests/malformed"] {
        for p in tree(dir) {
            if p.extension().is_some_and(|e| e == "ll") {
                let src = std::fs::read(&p).unwrap();
                check(
                    &p.display().to_string(),
                    &src,
                    &[1, 2, 3, 5, 8, 64, 4096],
                    false,
                );
                n += 1;
            }
        }
    }
    assert!(n > 100, "only {n} test modules found");
}

#[test]
fn pieces_read_the_fuzz_corpora() {
    let mut n = 0;
    for dir in ["../fuzz/corpus/parse", "../fuzz/corpus/roundtrip"] {
        for p in tree(dir) {
            let src = std::fs::read(&p).unwrap();
            check(&p.display().to_string(), &src, &[7, 1000], true);
            n += 1;
        }
    }
    println!("{n} fuzz inputs");
}

#[test]
fn pieces_read_the_corpus() {
    for p in tree("/root/.cache/nvpass-corpus/ll") {
        let src = std::fs::read(&p).unwrap();
        check(&p.display().to_string(), &src, &[4096, 1 << 16], false);
    }
}

/// Lines that look like the start of a top-level entity but sit inside a
/// string, a multi-line list, or a function header continued on the next
/// line: a cut there leaves an incomplete entity, which must not be
/// mistaken for a complete one.
#[test]
fn cut_points_inside_entities() {
    let src = b"@s = global [20 x i8] c\"a\n@t = global i32 1\n\"\n\
                !0 = !{!\"x\n!1 = !{}\n\"}\n\
                !named = !{!0,\n!1}\n\
                !1 = !{}\n\
                @p = global ptr\n@q\n\
                @q = global i32 0\n\
                declare void @d()\n!dbg !1\n\
                define void @f()\n!dbg !1 {\n\
                entry:\n  ret void\n}\n\
                define void @g() {\n\
                define:\n  ret void\n}\n";
    let whole = parse_module(src);
    assert!(whole.is_ok(), "{:?}", whole.err());
    check(
        "inline",
        src,
        &[1, 2, 3, 4, 5, 7, 11, 16, 64, src.len()],
        true,
    );
}

/// A bad entity after a cut point is found in its piece; the error then
/// comes from parsing the whole text.
#[test]
fn an_error_in_a_later_piece_gives_no_module() {
    let mut src = Vec::new();
    for i in 0..2000 {
        src.extend_from_slice(format!("@g{i} = global i32 {i}\n").as_bytes());
    }
    src.extend_from_slice(b"@bad = global i32 x\n@h = global i32 0\n");
    assert!(parse_module(&src).is_err());
    check("late error", &src, &[1, 100, 4096], false);
    let mut src =
        b"define void @f() {\nentry:\n  call void @undefined_later()\n  ret void\n}\n".to_vec();
    src.extend_from_slice(b"@x = global i32 0\n");
    assert!(parse_module(&src).is_err());
    check("undefined", &src, &[1, 16, 4096], false);
}

/// Instructions nvpass keeps verbatim are skipped to the end of their
/// line, away from the tokens lexed ahead (a comment and a string on the
/// line hold text that does not lex as the line's tokens); the tokens after
/// the line are found again.
#[test]
fn verbatim_lines_in_lexed_pieces() {
    let src = b"define void @f() personality ptr null {\nentry:\n  invoke void @f() to label %ok unwind label %cs\n\
                cs:\n  %t = catchswitch within none [label %h] unwind to caller ; \"x\n\
                h:\n  %p = catchpad within %t [ptr null, ptr @\"q;\"]\n  catchret from %p to label %ok\n\
                ok:\n  ret void\n  uselistorder ptr @f, { 1, 0 }\n}\n\
                uselistorder_bb @f, %ok, { 1, 0 }\n\
                @\"q;\" = global i32 0\n";
    let whole = parse_module(src);
    assert!(whole.is_ok(), "{:?}", whole.err());
    check("verbatim", src, &[1, 3, 17, 64, src.len()], false);
}

/// The two-thread reader gives what the one-thread readers give, for every
/// test module and piece size; a read error or a text that does not parse
/// gives no module.
#[cfg(feature = "parallel")]
#[test]
fn lexed_ahead_on_another_thread() {
    use nvpass_ir::parse::{read_lexed_ahead, read_lexed_ahead_into};
    let mut n = 0;
    for dir in ["../tests/lit", "tests/parse_data", "tests/malformed"] {
        for p in tree(dir) {
            if p.extension().is_none_or(|e| e != "ll") {
                continue;
            }
            let src = std::fs::read(&p).unwrap();
            let name = p.display().to_string();
            let whole = parse_module(&src).map(|m| printed(&name, "whole text", &m));
            for piece in [1, 7, 4096] {
                let got =
                    read_lexed_ahead(&src[..], piece).map(|m| printed(&name, "lexed ahead", &m));
                match (&whole, got) {
                    (Ok(w), Some(g)) => assert!(*w == g, "{}: {piece}", p.display()),
                    (Ok(_), None) => panic!("{}: {piece}: no module", p.display()),
                    (Err(e), Some(_)) => panic!("{}: {piece}: parsed; whole: {e}", p.display()),
                    (Err(_), None) => {}
                }
            }
            // Told the text's length, as nvpass-cli reads a file.
            let sized = ModuleReader::with_size_hint(src.len());
            let got = read_lexed_ahead_into(sized, &src[..], 4096)
                .map(|m| printed(&name, "lexed ahead, sized", &m));
            assert_eq!(whole.as_ref().ok(), got.as_ref(), "{}: sized", p.display());
            n += 1;
        }
    }
    assert!(n > 100, "only {n} test modules found");
    /// Gives `good` bytes, then fails.
    struct Failing(usize);
    impl std::io::Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.0 == 0 {
                return Err(std::io::Error::other("disk on fire"));
            }
            let n = buf.len().min(self.0);
            buf[..n].fill(b'\n');
            self.0 -= n;
            Ok(n)
        }
    }
    assert!(read_lexed_ahead(Failing(100_000), 64).is_none());
    assert!(read_lexed_ahead(&b"\n\n"[..], 64).is_some());
    /// Gives a module's text one global at a time, then panics.
    struct Panicking(usize);
    impl std::io::Read for Panicking {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            assert!(self.0 > 0, "reader panics");
            self.0 -= 1;
            let line = format!("@g{} = global i32 0\n", self.0);
            buf[..line.len()].copy_from_slice(line.as_bytes());
            Ok(line.len())
        }
    }
    // The reading thread unwinds after queueing more pieces than may wait:
    // the parser is not left waiting for the rest.
    assert!(read_lexed_ahead(Panicking(40), 32).is_none());
}

/// Text handed to `push` and not parsed yet is not skipped by a lexed
/// piece: mixing the two gives no module.
#[test]
fn pushed_text_and_lexed_pieces_do_not_mix() {
    let mut r = ModuleReader::new();
    // No cut point yet: the text waits.
    assert!(r.push(b"@a = global i32 1"));
    let mut piece = LexedPiece::new();
    piece.lex(b"\n@b = global i32 2\n");
    assert!(!r.push_lexed(&piece));
    assert!(r.finish().is_none());
}
