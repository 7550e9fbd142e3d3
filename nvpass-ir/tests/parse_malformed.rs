//! Malformed inputs: each `tests/malformed/NAME.ll` starts with
//! `; ERROR: LINE:COL: message`, the exact error the parser must report.

use nvpass_ir::parse_module;
use std::path::Path;

fn expect_error(name: &str, src: &[u8], line: u32, col: u32, msg: &str) {
    match parse_module(src) {
        Ok(_) => panic!("{name}: parsed successfully, expected {line}:{col}: {msg}"),
        Err(e) => {
            let got = format!("{}:{}: {}", e.line, e.col, e.message);
            let want = format!("{line}:{col}: {msg}");
            assert_eq!(got, want, "{name}:\n{}", e.render(name, src));
            // Rendering never panics and points at the column.
            let r = e.render(name, src);
            assert!(r.starts_with(&format!("{name}:{line}:{col}: error: {msg}\n")));
            assert!(r.ends_with('^'));
        }
    }
}

#[test]
fn malformed_directory() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/malformed");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ll"))
        .collect();
    files.sort();
    assert!(files.len() >= 60, "only {} malformed inputs", files.len());
    for path in &files {
        let src = std::fs::read(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let first = src.split(|&c| c == b'\n').next().unwrap();
        let first = std::str::from_utf8(first).unwrap();
        let spec = first
            .strip_prefix("; ERROR: ")
            .unwrap_or_else(|| panic!("{name}: missing '; ERROR:' header"));
        let mut it = spec.splitn(3, ':');
        let line: u32 = it.next().unwrap().trim().parse().unwrap();
        let col: u32 = it.next().unwrap().trim().parse().unwrap();
        let msg = it.next().unwrap().trim();
        expect_error(&name, &src, line, col, msg);
    }
}

/// Parses on a thread with a 1 MiB stack (half the default test-thread
/// stack), so the depth limit is known to leave a safety margin.
fn parse_small_stack(src: &[u8]) -> Result<(), nvpass_ir::ParseError> {
    let src = src.to_vec();
    std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || parse_module(&src).map(|_| ()))
        .unwrap()
        .join()
        .unwrap()
}

fn must_fail(src: &[u8]) -> nvpass_ir::ParseError {
    match parse_small_stack(src) {
        Ok(_) => panic!("parsed successfully"),
        Err(e) => e,
    }
}

fn deep(prefix: &str, open: &str, mid: &str, close: &str, suffix: &str, n: usize) -> Vec<u8> {
    let mut s = String::from(prefix);
    for _ in 0..n {
        s.push_str(open);
    }
    s.push_str(mid);
    for _ in 0..n {
        s.push_str(close);
    }
    s.push_str(suffix);
    s.into_bytes()
}

/// Column of the first token that exceeds the depth limit.
fn col_of_nth(prefix: &str, open: &str, n: usize) -> u32 {
    (prefix.len() + open.len() * n + 1) as u32
}

#[test]
fn deep_struct_type() {
    let src = deep("%T = type ", "{", "i32", "}", "\n", 100_000);
    let lim = nvpass_ir::parse::MAX_DEPTH as usize;
    // The struct body itself is depth 1; each nested literal struct adds one.
    let e = must_fail(&src);
    assert_eq!(e.message, "nesting too deep");
    assert_eq!(e.line, 1);
    assert_eq!(e.col, col_of_nth("%T = type ", "{", lim));
}

#[test]
fn deep_array_type() {
    let src = deep(
        "@g = global ",
        "[1 x ",
        "i8",
        "]",
        " zeroinitializer\n",
        100_000,
    );
    let e = must_fail(&src);
    assert_eq!(e.message, "nesting too deep");
    assert_eq!(e.line, 1);
}

#[test]
fn deep_function_type() {
    let src = deep(
        "@g = global ptr null\ndeclare void @f(",
        "void (",
        "i32",
        ")",
        ")\n",
        100_000,
    );
    let e = must_fail(&src);
    assert_eq!(e.message, "nesting too deep");
    assert_eq!(e.line, 2);
}

#[test]
fn deep_struct_constant() {
    // { { { ... i32 0 ... } } } with a matching nested type is too deep for
    // the type already; use a constant nesting with shallow types instead:
    // nested constant expressions.
    let src = deep(
        "@g = global i64 ",
        "add (i64 ",
        "1",
        ", i64 1)",
        "\n",
        100_000,
    );
    let e = must_fail(&src);
    assert_eq!(e.message, "nesting too deep");
    assert_eq!(e.line, 1);
}

#[test]
fn deep_metadata_tuple() {
    let src = deep("!0 = ", "!{", "", "}", "\n", 100_000);
    let e = must_fail(&src);
    assert_eq!(e.message, "nesting too deep");
    assert_eq!(e.line, 1);
}

#[test]
fn deep_metadata_specialized() {
    let src = deep("!0 = ", "!DIFoo(a: ", "1", ")", "\n", 100_000);
    let e = must_fail(&src);
    assert_eq!(e.message, "nesting too deep");
}

#[test]
fn deep_vector_in_call() {
    let src = deep(
        "define void @f() {\n  call void @g(",
        "{",
        "i32",
        "}",
        " zeroinitializer)\n  ret void\n}\ndeclare void @g()\n",
        100_000,
    );
    let e = must_fail(&src);
    assert_eq!(e.message, "nesting too deep");
    assert_eq!(e.line, 2);
}

#[test]
fn nesting_within_limit_parses() {
    let lim = nvpass_ir::parse::MAX_DEPTH as usize;
    let src = deep(
        "%T = type ",
        "{",
        "i32",
        "}",
        "\n@g = global ptr null\n",
        lim - 2,
    );
    parse_small_stack(&src).unwrap();
    let src = deep("!0 = ", "!{", "", "}", "\n", lim - 1);
    parse_small_stack(&src).unwrap();
    let src = deep(
        "@g = global i64 ",
        "add (i64 ",
        "1",
        ", i64 1)",
        "\n",
        lim - 1,
    );
    parse_small_stack(&src).unwrap();
    let src = deep(
        "@g = global ",
        "[1 x ",
        "i8",
        "]",
        " zeroinitializer\n",
        lim - 2,
    );
    parse_small_stack(&src).unwrap();
}

#[test]
fn garbage_never_panics() {
    // Deterministic pseudo-random byte soup and truncations of a valid module.
    let valid = b"; m\n%T = type { i32, [4 x float] }\n@g = internal global %T zeroinitializer, align 4\ndefine i32 @f(i32 %a, ptr %p) #0 {\nentry:\n  %x = add nsw i32 %a, 1\n  %c = icmp eq i32 %x, 0\n  br i1 %c, label %t, label %e\nt:\n  store i32 %x, ptr %p, align 4, !tbaa !1\n  ret i32 %x\ne:\n  %y = phi i32 [ %x, %entry ]\n  ret i32 %y\n}\nattributes #0 = { nounwind \"k\"=\"v\" }\n!1 = !{!\"int\", !2, i64 0}\n!2 = distinct !DICompileUnit(language: DW_LANG_C99, file: !3)\n!3 = !DIFile(filename: \"a.c\", directory: \"/\")\n";
    parse_module(valid).unwrap();
    for cut in 0..valid.len() {
        let _ = parse_module(&valid[..cut]);
    }
    let mut x: u64 = 0x9E3779B97F4A7C15;
    for _ in 0..2000 {
        let mut buf = valid.to_vec();
        for _ in 0..4 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let i = (x as usize) % buf.len();
            buf[i] = (x >> 32) as u8;
        }
        let _ = parse_module(&buf);
    }
}

/// Types the reader reads without hashing (`i32`, `ptr`, `float`, `void`,
/// once interned) hit the depth limit exactly where a type read the long
/// way does (`fp128`): the same error at the same column, or none.
#[test]
fn depth_limit_is_the_same_for_common_and_rare_scalar_types() {
    let lim = nvpass_ir::parse::MAX_DEPTH as usize;
    let outcome = |src: &[u8]| parse_small_stack(src).map_err(|e| (e.message, e.line, e.col));
    for inner in ["i32", "ptr", "float"] {
        for n in lim - 3..=lim + 1 {
            let interned = format!("@a = global {inner} zeroinitializer\n%T = type ");
            let common = deep(&interned, "{", inner, "}", "\n", n);
            let rare = deep(&interned, "{", "fp128", "}", "\n", n);
            assert_eq!(outcome(&common), outcome(&rare), "{inner} in {n} structs");
        }
        // Well within the limit, it parses.
        let ok = deep(
            "@a = global i32 0\n%T = type ",
            "{",
            inner,
            "}",
            "\n",
            lim - 2,
        );
        assert!(parse_small_stack(&ok).is_ok(), "{inner}");
    }
}
