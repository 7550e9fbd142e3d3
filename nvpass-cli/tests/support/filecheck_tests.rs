//! Self-tests of the FileCheck implementation: every directive, positive and
//! negative.
//!
//! Cross-checking against LLVM's FileCheck: with `NVPASS_FILECHECK=FileCheck-19`
//! set, every case here also runs through that binary and must get the same
//! exit status and the same first error line; comments saying "FileCheck-19"
//! quote what it prints. `differential_random` (ignored by default) compares
//! the two on thousands of generated cases:
//!
//! ```text
//! NVPASS_FILECHECK=FileCheck-19 cargo test -p nvpass-cli --test lit -- --include-ignored filecheck
//! ```

use super::filecheck::{self, EXIT_CHECK_FAILED, EXIT_USAGE};

/// Runs FileCheck with `check` as the check file text on `input`.
///
/// With `NVPASS_FILECHECK=FileCheck-19` (or another FileCheck binary) in the
/// environment, every case also runs through that binary, and the test fails
/// unless both agree on the exit status and on the first `error:` line.
fn fc(check: &str, input: &str, args: &[&str]) -> Result<(), (i32, String)> {
    let ours = fc_builtin(check, input, args);
    if let Some(bin) = std::env::var("NVPASS_FILECHECK")
        .ok()
        .filter(|s| !s.is_empty())
    {
        let (status, stderr) = fc_external(&bin, check, input, args);
        let ours_status = ours.as_ref().map_or_else(|e| e.0, |_| 0);
        let ours_text = ours.as_ref().err().map_or("", |e| e.1.as_str());
        // The first error line; regex error wording differs between the
        // regex engines, so only "invalid regex" itself is compared.
        let first_error = |t: &str| {
            let line = t.lines().find(|l| l.contains("error"))?;
            Some(match line.find("invalid regex") {
                Some(at) => line[..at].to_string(),
                None => line.to_string(),
            })
        };
        assert!(
            status == ours_status && first_error(&stderr) == first_error(ours_text),
            "{bin} disagrees (exit {status} vs {ours_status} here)\n--- {bin}:\n{stderr}\n--- built-in:\n{ours_text}"
        );
    }
    ours
}

fn fc_builtin(check: &str, input: &str, args: &[&str]) -> Result<(), (i32, String)> {
    let mut argv: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    argv.push("check.txt".to_string());
    let opts = filecheck::parse_args(&argv).map_err(|e| (EXIT_USAGE, e))?;
    filecheck::check("check.txt", check, "<stdin>", input, &opts).map_err(|f| (f.status, f.message))
}

/// Runs an external FileCheck on the same case, from a scratch directory so
/// that the check file is called `check.txt` in its diagnostics too.
fn fc_external(bin: &str, check: &str, input: &str, args: &[&str]) -> (i32, String) {
    use std::io::Write as _;
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "nvpass-fc-cross-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("check.txt"), check).unwrap();
    let mut child = std::process::Command::new(bin)
        .args(args)
        .args(["check.txt", "--dump-input=never"])
        .current_dir(&dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {bin}: {e}"));
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let out = child.wait_with_output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[track_caller]
fn pass(check: &str, input: &str) {
    pass_with(check, input, &[]);
}

#[track_caller]
fn pass_with(check: &str, input: &str, args: &[&str]) {
    if let Err((status, msg)) = fc(check, input, args) {
        panic!("expected a pass, got exit {status}:\n{msg}");
    }
}

/// Expects a check failure whose diagnostics contain every string in `expect`.
#[track_caller]
fn fail(check: &str, input: &str, expect: &[&str]) -> String {
    fail_with(check, input, &[], EXIT_CHECK_FAILED, expect)
}

#[track_caller]
fn fail_with(check: &str, input: &str, args: &[&str], status: i32, expect: &[&str]) -> String {
    match fc(check, input, args) {
        Ok(()) => panic!("expected a failure, but the checks passed"),
        Err((st, msg)) => {
            assert_eq!(st, status, "wrong exit status; diagnostics:\n{msg}");
            for e in expect {
                assert!(msg.contains(e), "diagnostics lack {e:?}:\n{msg}");
            }
            msg
        }
    }
}

// ----- CHECK -----------------------------------------------------------------

#[test]
fn check_in_order() {
    pass("; CHECK: foo\n; CHECK: baz\n", "foo\nbar\nbaz\n");
    pass("; CHECK: a\n; CHECK: a\n", "a a\n");
}

#[test]
fn check_missing_line_fails() {
    // FileCheck-19: same message, location and notes.
    fail(
        "; CHECK: foo\n; CHECK: qux\n",
        "foo\nbar\nbaz\n",
        &[
            "check.txt:2:10: error: CHECK: expected string not found in input",
            "; CHECK: qux",
            "<stdin>:1:4: note: scanning from here",
        ],
    );
}

#[test]
fn check_out_of_order_fails() {
    fail(
        "; CHECK: baz\n; CHECK: foo\n",
        "foo\nbar\nbaz\n",
        &["check.txt:2:10: error: CHECK: expected string not found"],
    );
}

#[test]
fn possible_intended_match() {
    // FileCheck-19 points at line 3 ("baz") for "bzz".
    fail(
        "; CHECK: foo\n; CHECK-NEXT: bzz\n",
        "foo\nbar\nbaz\n",
        &[
            "error: CHECK-NEXT: expected string not found in input",
            "<stdin>:3:1: note: possible intended match here\nbaz\n^",
        ],
    );
}

#[test]
fn diagnostics_include_input_excerpt() {
    let msg = fail("; CHECK: nope\n", "line one\nline two\n", &[]);
    assert!(msg.contains("1: line one"), "{msg}");
}

// ----- CHECK-NEXT / CHECK-SAME / CHECK-EMPTY ------------------------------------

#[test]
fn next() {
    pass(
        "; CHECK: foo\n; CHECK-NEXT: bar\n; CHECK-NEXT: baz\n",
        "foo\nbar\nbaz\n",
    );
}

#[test]
fn next_not_on_next_line_fails() {
    // FileCheck-19: identical message and notes.
    fail(
        "; CHECK: foo\n; CHECK-NEXT: baz\n",
        "foo\nbar\nbaz\n",
        &[
            "check.txt:2:15: error: CHECK-NEXT: is not on the line after the previous match",
            "<stdin>:3:1: note: 'next' match was here",
            "<stdin>:1:4: note: previous match ended here",
            "<stdin>:2:1: note: non-matching line after previous match is here",
        ],
    );
}

#[test]
fn next_on_same_line_fails() {
    fail(
        "; CHECK: foo\n; CHECK-NEXT: bar\n",
        "foo bar\n",
        &["CHECK-NEXT: is on the same line as previous match"],
    );
}

#[test]
fn next_without_previous_check_is_an_error() {
    // FileCheck-19: "found 'FOO-NEXT' without previous 'FOO: line", exit 2.
    fail_with(
        "; FOO-NEXT: x\n",
        "x\n",
        &["--check-prefix=FOO"],
        EXIT_USAGE,
        &["check.txt:1:3: error: found 'FOO-NEXT' without previous 'FOO: line"],
    );
}

#[test]
fn same() {
    pass(
        "; CHECK: define\n; CHECK-SAME: @f(\n; CHECK-SAME: i32\n",
        "define void @f(i32 %x) {\n",
    );
    fail(
        "; CHECK: define\n; CHECK-SAME: ret\n",
        "define void @f() {\n  ret void\n",
        &["CHECK-SAME: is not on the same line as the previous match"],
    );
}

#[test]
fn empty() {
    pass(
        "; CHECK: foo\n; CHECK-EMPTY:\n; CHECK-NEXT: bar\n",
        "foo\n\nbar\n",
    );
    // The line after the final newline counts as empty (FileCheck-19 agrees).
    pass("; CHECK: foo\n; CHECK-EMPTY:\n", "foo\n");
    // FileCheck-19: "CHECK-EMPTY: is not on the line after the previous match".
    fail(
        "; CHECK: foo\n; CHECK-EMPTY:\n",
        "foo\nbar\n",
        &["check.txt:2:15: error: CHECK-EMPTY: is not on the line after the previous match"],
    );
    fail(
        "; CHECK: foo\n; CHECK-EMPTY:\n",
        "foo\n  \nbar\n",
        &["CHECK-EMPTY"],
    );
    fail_with(
        "; CHECK: a\n; CHECK-EMPTY: x\n",
        "a\n",
        &[],
        EXIT_USAGE,
        &["found non-empty check string for empty check"],
    );
}

// ----- CHECK-NOT -------------------------------------------------------------------

#[test]
fn not() {
    pass(
        "; CHECK: foo\n; CHECK-NOT: bar\n; CHECK: baz\n",
        "foo\nqux\nbaz\nbar\n",
    );
    pass("; CHECK-NOT: bar\n; CHECK: foo\n", "foo\nbar\n");
}

#[test]
fn not_matching_fails() {
    // FileCheck-19: identical.
    fail(
        "; CHECK: foo\n; CHECK-NOT: bar\n",
        "foo\nbar\n",
        &[
            "check.txt:2:14: error: CHECK-NOT: excluded string found in input",
            "<stdin>:2:1: note: found here\nbar\n^~~",
        ],
    );
    fail(
        "; CHECK: foo\n; CHECK-NOT: bar\n; CHECK: baz\n",
        "foo\nbar\nbaz\n",
        &["CHECK-NOT: excluded string found"],
    );
    fail(
        "; CHECK-NOT: bar\n; CHECK: foo\n",
        "bar\nfoo\n",
        &["CHECK-NOT: excluded string found"],
    );
}

#[test]
fn implicit_check_not() {
    pass_with(
        "; CHECK: foo\n",
        "foo\nbaz\n",
        &["--implicit-check-not=bar"],
    );
    // FileCheck-19: same first line.
    fail_with(
        "; CHECK: foo\n",
        "foo\nbar\n",
        &["--implicit-check-not=bar"],
        EXIT_CHECK_FAILED,
        &[
            "command line:1:22: error: IMPLICIT-CHECK-NOT: excluded string found in input",
            "<stdin>:2:1: note: found here",
        ],
    );
    // Also between checks.
    fail_with(
        "; CHECK: a\n; CHECK: c\n",
        "a\nb\nc\n",
        &["--implicit-check-not", "b"],
        EXIT_CHECK_FAILED,
        &["IMPLICIT-CHECK-NOT"],
    );
    // The checked line itself may contain the pattern.
    pass_with("; CHECK: a b\n", "a b\n", &["--implicit-check-not=b"]);
}

// ----- CHECK-LABEL -------------------------------------------------------------

const TWO_FUNCS: &str =
    "define void @f() {\n  call void @g()\n  ret void\n}\ndefine void @h() {\n  ret void\n}\n";

#[test]
fn label() {
    pass(
        "; CHECK-LABEL: define void @f(\n; CHECK: call\n; CHECK-LABEL: define void @h(\n; CHECK: ret\n",
        TWO_FUNCS,
    );
}

#[test]
fn label_partitions_input() {
    // Without the label the CHECK would find the call in @f; with labels
    // the CHECK is confined to @h's region.
    pass("; CHECK: call\n", TWO_FUNCS);
    fail(
        "; CHECK-LABEL: define void @h(\n; CHECK: call\n",
        TWO_FUNCS,
        &["check.txt:2:10: error: CHECK: expected string not found in input"],
    );
    // A check in the first region may not run into the second.
    fail(
        "; CHECK-LABEL: define void @h(\n; CHECK: ret\n; CHECK-LABEL: define void @f(\n; CHECK: call\n",
        TWO_FUNCS,
        &["CHECK-LABEL: expected string not found in input"],
    );
    fail(
        "; CHECK-LABEL: @f(\n; CHECK-NOT: ret\n; CHECK-LABEL: @h(\n",
        TWO_FUNCS,
        &[
            "CHECK-NOT: excluded string found in input",
            "<stdin>:3:2: note: found here",
        ],
    );
}

#[test]
fn label_failure_continues_other_regions() {
    // A failure in one region is reported; later regions still get checked
    // against their labels (the label scan happens first).
    let msg = fail(
        "; CHECK-LABEL: @f(\n; CHECK: nothere\n; CHECK-LABEL: @h(\n; CHECK: ret\n",
        TWO_FUNCS,
        &["CHECK: expected string not found"],
    );
    assert_eq!(msg.matches("error:").count(), 1, "{msg}");
}

#[test]
fn label_with_variable_is_an_error() {
    // FileCheck-19: identical.
    fail_with(
        "; CHECK-LABEL: [[X:foo]]\n",
        "foo\n",
        &[],
        EXIT_USAGE,
        &["check.txt:1:3: error: found 'CHECK-LABEL:' with variable definition or use"],
    );
}

// ----- CHECK-DAG ---------------------------------------------------------------

#[test]
fn dag_any_order() {
    pass("; CHECK-DAG: b\n; CHECK-DAG: a\n; CHECK: c\n", "a\nb\nc\n");
    pass("; CHECK: x\n; CHECK-DAG: 2\n; CHECK-DAG: 1\n", "x\n1\n2\n");
}

#[test]
fn dag_must_precede_next_check() {
    // FileCheck-19: "CHECK: expected string not found" for c (the DAG group
    // matched "b" after "c").
    fail(
        "; CHECK-DAG: a\n; CHECK-DAG: b\n; CHECK: c\n",
        "a\nc\nb\n",
        &["check.txt:3:10: error: CHECK: expected string not found in input"],
    );
}

#[test]
fn dag_matches_do_not_overlap() {
    pass("; CHECK-DAG: a\n; CHECK-DAG: a\n", "a\na\n");
    fail(
        "; CHECK-DAG: a\n; CHECK-DAG: a\n",
        "a\nb\n",
        &["CHECK-DAG: expected string not found in input"],
    );
}

#[test]
fn dag_groups_are_separated_by_not() {
    pass(
        "; CHECK-DAG: a\n; CHECK-DAG: b\n; CHECK-NOT: x\n; CHECK-DAG: c\n",
        "b\na\nc\n",
    );
    // The NOT applies between the groups.
    fail(
        "; CHECK-DAG: a\n; CHECK-DAG: b\n; CHECK-NOT: x\n; CHECK-DAG: c\n",
        "b\na\nx\nc\n",
        &["CHECK-NOT: excluded string found"],
    );
    // The second group starts after the end of the first: "a" before "b"
    // cannot satisfy a DAG of the second group.
    fail(
        "; CHECK-DAG: b\n; CHECK-NOT: x\n; CHECK-DAG: a\n",
        "a\nb\n",
        &["check.txt:3:14: error: CHECK-DAG: expected string not found"],
    );
}

#[test]
fn trailing_dag_and_not_check_to_end() {
    pass("; CHECK: a\n; CHECK-DAG: c\n; CHECK-DAG: b\n", "a\nb\nc\n");
    fail(
        "; CHECK: a\n; CHECK-NOT: z\n",
        "a\nb\nz\n",
        &["CHECK-NOT: excluded string found"],
    );
}

// ----- CHECK-COUNT ---------------------------------------------------------------

#[test]
fn count() {
    pass("; CHECK-COUNT-3: ret\n", "ret\nret\nret\n");
    pass("; CHECK-COUNT-2: o\n; CHECK-NEXT: bar\n", "foo\nbar\n");
    // FileCheck-19: identical first line.
    fail(
        "; CHECK-COUNT-3: o\n",
        "foo\nbar\n",
        &["check.txt:1:18: error: CHECK-COUNT: expected string not found in input (3 out of 3)"],
    );
    fail_with(
        "; CHECK-COUNT-0: x\n",
        "x\n",
        &[],
        EXIT_USAGE,
        &["check.txt:1:16: error: invalid count in -COUNT specification on prefix 'CHECK'"],
    );
}

// ----- Prefixes and comments --------------------------------------------------------

#[test]
fn custom_prefixes() {
    pass_with(
        "; FOO: a\n; BAR: b\n; CHECK: nothere\n",
        "a\nb\n",
        &["--check-prefixes=FOO,BAR"],
    );
    pass_with(
        "; FOO: a\n; BAR: b\n",
        "a\nb\n",
        &["--check-prefix=FOO", "--check-prefix", "BAR"],
    );
    // Only the selected prefix is active.
    fail_with(
        "; FOO: a\n; BAR: nothere\n",
        "a\n",
        &["-check-prefix=BAR"],
        EXIT_CHECK_FAILED,
        &["BAR: expected string not found"],
    );
}

#[test]
fn prefix_must_be_a_whole_word() {
    // "XCHECK:" and "CHECKS:" are not directives.
    pass("; XCHECK: nothere\n; CHECKS: nothere\n; CHECK: a\n", "a\n");
}

#[test]
fn unused_prefixes_are_errors() {
    // FileCheck-19: identical.
    fail_with(
        "; FOO: a\n",
        "a\n",
        &["--check-prefixes=FOO,BAR"],
        EXIT_USAGE,
        &["error: no check strings found with prefix 'BAR:'"],
    );
    fail_with(
        "; FOO: a\n",
        "a\n",
        &["--check-prefixes=BAZ,QUX"],
        EXIT_USAGE,
        &["error: no check strings found with prefixes 'BAZ:', 'QUX:'"],
    );
    pass_with(
        "; FOO: a\n",
        "a\n",
        &["--check-prefixes=FOO,BAR", "--allow-unused-prefixes"],
    );
}

#[test]
fn comments_and_run_lines_are_ignored() {
    pass(
        "; RUN: nvpass-cli %s | FileCheck %s --check-prefix=CHECK: x\n; COM: CHECK: nothere\n; CHECK: a\n",
        "a\n",
    );
}

#[test]
fn invalid_prefix() {
    fail_with(
        "; CHECK: a\n",
        "a\n",
        &["--check-prefix=X.Y"],
        EXIT_USAGE,
        &["supplied check prefix must start with a letter"],
    );
    fail_with(
        "; CHECK: a\n",
        "a\n",
        &["--check-prefixes=A,A"],
        EXIT_USAGE,
        &["must be unique"],
    );
}

#[test]
fn malformed_directives() {
    // FileCheck-19: identical.
    fail_with(
        "; CHECK:\n",
        "a\n",
        &[],
        EXIT_USAGE,
        &["check.txt:1:9: error: found empty check string with prefix 'CHECK:'"],
    );
    fail_with(
        "; CHECK-NEXT-NOT: x\n",
        "a\n",
        &[],
        EXIT_USAGE,
        &["check.txt:1:9: error: unsupported -NOT combo on prefix 'CHECK'"],
    );
    fail_with(
        "; CHECK: {{abc\n",
        "a\n",
        &[],
        EXIT_USAGE,
        &["found start of regex string with no end '}}'"],
    );
    fail_with(
        "; CHECK: [[X:abc\n",
        "a\n",
        &[],
        EXIT_USAGE,
        &["Invalid substitution block, no ]] found"],
    );
    fail_with(
        "; CHECK: {{(}}\n",
        "a\n",
        &[],
        EXIT_USAGE,
        &["invalid regex"],
    );
}

#[test]
fn empty_input() {
    // FileCheck-19: "FileCheck error: '<stdin>' is empty.", exit 2.
    fail_with(
        "; CHECK-NOT: a\n",
        "",
        &[],
        EXIT_USAGE,
        &["FileCheck error: '<stdin>' is empty."],
    );
    pass_with("; CHECK-NOT: a\n", "", &["--allow-empty"]);
}

// ----- Regexes and whitespace ------------------------------------------------------

#[test]
fn regex_blocks() {
    pass(
        "; CHECK: %{{[0-9]+}} = add i32 %{{.*}}, 1\n",
        "  %12 = add i32 %x, 1\n",
    );
    pass("; CHECK: a{{x|y}}b\n", "ayb\n");
    // Fixed text around a regex block is literal.
    pass("; CHECK: a.{{b}}\n", "a.b\n");
    fail(
        "; CHECK: a.{{b}}\n",
        "axb\n",
        &["CHECK: expected string not found"],
    );
    // `.` does not cross lines, nor do negated classes (POSIX REG_NEWLINE).
    fail(
        "; CHECK: a{{.*}}b\n",
        "a\nb\n",
        &["expected string not found"],
    );
    fail(
        "; CHECK: a{{[^x]*}}b\n",
        "a\nb\n",
        &["expected string not found"],
    );
    pass("; CHECK: a{{[[:space:]]}}b\n", "a b\n");
    pass("; CHECK: {{^}}b\n", "a\nb\n");
    pass("; CHECK: a{{$}}\n", "xa\n");
    fail("; CHECK: a{{$}}\n", "ab\n", &["expected string not found"]);
}

#[test]
fn whitespace_is_canonicalized() {
    pass("; CHECK: a b\n", "a\t \tb\n");
    pass("; CHECK: a    b\n", "a b\n");
    // Leading/trailing pattern whitespace is ignored.
    pass("; CHECK:     a   \n", "a\n");
    // But a space still requires some whitespace.
    fail("; CHECK: a b\n", "ab\n", &["expected string not found"]);
}

#[test]
fn strict_whitespace() {
    fail_with(
        "; CHECK: a b\n",
        "a  b\n",
        &["--strict-whitespace"],
        EXIT_CHECK_FAILED,
        &["expected string not found"],
    );
    pass_with("; CHECK: a  b\n", "a  b\n", &["--strict-whitespace"]);
}

#[test]
fn match_full_lines() {
    pass_with(
        "; CHECK: ret void\n",
        "  ret void\n",
        &["--match-full-lines"],
    );
    fail_with(
        "; CHECK: ret\n",
        "  ret void\n",
        &["--match-full-lines"],
        EXIT_CHECK_FAILED,
        &["expected string not found"],
    );
}

#[test]
fn ignore_case() {
    pass_with(
        "; CHECK: DEFINE\n; CHECK: {{VOID}}\n",
        "define void\n",
        &["--ignore-case"],
    );
}

#[test]
fn literal_modifier() {
    pass("; CHECK{LITERAL}: [[x]] {{y}}\n", "[[x]] {{y}}\n");
}

// ----- Variables --------------------------------------------------------------------

#[test]
fn variables() {
    pass(
        "; CHECK: [[REG:%[a-z0-9]+]] = load\n; CHECK: store i32 [[REG]], ptr\n",
        "  %v1 = load i32, ptr %p\n  store i32 %v1, ptr %q\n",
    );
    // A later definition replaces the earlier.
    pass(
        "; CHECK: [[X:[a-z]]]1\n; CHECK: [[X:[a-z]]]2\n; CHECK: [[X]]3\n",
        "a1 b2 b3\n",
    );
}

#[test]
fn variable_mismatch_fails() {
    let msg = fail(
        "; CHECK: [[REG:%[a-z0-9]+]] = load\n; CHECK: store i32 [[REG]], ptr\n",
        "  %v1 = load i32, ptr %p\n  store i32 %v2, ptr %q\n",
        &[
            "check.txt:2:10: error: CHECK: expected string not found in input",
            "note: with \"REG\" equal to \"%v1\"",
        ],
    );
    assert!(msg.contains("; CHECK: store i32 [[REG]], ptr"), "{msg}");
}

#[test]
fn undefined_variable_fails() {
    // FileCheck-19: "check.txt:2:12: error: undefined variable: Y", exit 1.
    fail(
        "; CHECK: [[X:f]]oo\n; CHECK: [[Y]]\n",
        "foo\n",
        &["check.txt:2:12: error: undefined variable: Y"],
    );
}

#[test]
fn variables_in_dag_and_not() {
    pass(
        "; CHECK-DAG: [[A:%[0-9]+]] = x\n; CHECK-DAG: use [[A]]\n",
        "use %1\n%1 = x\n",
    );
    fail(
        "; CHECK: [[A:[0-9]+]]:\n; CHECK-NOT: [[A]]\n",
        "7:\n9\n7\n",
        &["CHECK-NOT: excluded string found"],
    );
}

#[test]
fn command_line_variables() {
    pass_with("; CHECK: [[FN]]\n", "define @main\n", &["-DFN=@main"]);
    pass_with(
        "; CHECK: [[FN]] [[$G]]\n",
        "define @main 1\n",
        &["-DFN=@main", "-D$G=1"],
    );
}

#[test]
fn var_scope() {
    let check = "; CHECK-LABEL: f:\n; CHECK: [[X:[0-9]]]\n; CHECK-LABEL: g:\n; CHECK: [[X]]\n";
    pass(check, "f:\n1\ng:\n1\n");
    fail_with(
        check,
        "f:\n1\ng:\n1\n",
        &["--enable-var-scope"],
        EXIT_CHECK_FAILED,
        &["undefined variable: X"],
    );
}

#[test]
fn line_expressions() {
    pass(
        "; CHECK: line [[@LINE]]\n; CHECK: line [[@LINE-1]] [[#@LINE]]\n",
        "line 1\nline 1 2\n",
    );
}

#[test]
fn unsupported_features_are_reported() {
    // Built-in only: LLVM's FileCheck supports these.
    for (check, input) in [
        ("; CHECK: [[#X:]]\n", "1\n"),
        ("; CHECK: [[X:a]][[X]]\n", "aa\n"),
    ] {
        match fc_builtin(check, input, &[]) {
            Err((EXIT_USAGE, msg)) => assert!(msg.contains("not supported"), "{msg}"),
            other => panic!("expected a usage error, got {other:?}"),
        }
    }
    assert!(filecheck::parse_args(&["--bogus".into(), "f".into()]).is_err());
}

// ----- Command-line driver ------------------------------------------------------------

#[test]
fn run_reads_files() {
    let dir = std::env::temp_dir().join(format!("nvpass-fc-selftest-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let check = dir.join("c.ll");
    let input = dir.join("in.txt");
    std::fs::write(&check, "; CHECK: hello\n").unwrap();
    std::fs::write(&input, "say hello\n").unwrap();
    let c = check.display().to_string();
    let (st, err) = filecheck::run(std::slice::from_ref(&c), b"hello world\n");
    assert_eq!((st, err.as_str()), (0, ""));
    let (st, _) = filecheck::run(
        &[
            "--input-file".into(),
            input.display().to_string(),
            c.clone(),
        ],
        b"",
    );
    assert_eq!(st, 0);
    let (st, err) = filecheck::run(std::slice::from_ref(&c), b"bye\n");
    assert_eq!(st, EXIT_CHECK_FAILED);
    assert!(
        err.contains(&format!(
            "{c}:1:10: error: CHECK: expected string not found"
        )),
        "{err}"
    );
    let (st, _) = filecheck::run(&[dir.join("missing").display().to_string()], b"x\n");
    assert_eq!(st, EXIT_USAGE);
    let _ = std::fs::remove_dir_all(&dir);
}

// ----- Differential testing against an external FileCheck ---------------------------

/// Generates random check files and inputs and compares verdicts with
/// `$NVPASS_FILECHECK`. Ignored by default: it needs LLVM's FileCheck.
/// `NVPASS_FILECHECK_CASES` (default 1500) and `NVPASS_FILECHECK_SEED`
/// (default 1) vary the run.
#[test]
#[ignore = "needs NVPASS_FILECHECK=FileCheck-19 (LLVM); run with --include-ignored"]
fn differential_random() {
    let Some(_) = std::env::var("NVPASS_FILECHECK")
        .ok()
        .filter(|s| !s.is_empty())
    else {
        panic!("set NVPASS_FILECHECK to a FileCheck binary to run this test");
    };
    let cases: usize = std::env::var("NVPASS_FILECHECK_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1500);
    // xorshift64*: deterministic, dependency-free.
    let seed: u64 = std::env::var("NVPASS_FILECHECK_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15 ^ seed.wrapping_mul(0x1000_0000_01B3);
    let mut rnd = |n: usize| {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        (state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    };
    const LINES: &[&str] = &[
        "a", "b", "c", "a b", "b a", "", "ab", "c a", "x", "\ta  b", "a b c",
    ];
    const KINDS: &[&str] = &[
        "", "", "", "-NEXT", "-SAME", "-NOT", "-DAG", "-DAG", "-LABEL", "-EMPTY", "-COUNT-2",
    ];
    const PATS: &[&str] = &[
        "a",
        "b",
        "c",
        "a b",
        "{{a|b}}",
        "{{^}}a",
        "b{{$}}",
        "[[V:[abc]]]",
        "[[V]]",
        "{{[^a]}}",
        "x",
        "a{{.*}}c",
        "[[W:a|b]] [[V]]",
        "{{a}}  b",
        "{{[[:alpha:]]}} [[V]]",
        "[[X:[^ ]+]] a",
        "[[X]]",
        "a\tb",
        "{{a|b c}}",
        "A",
    ];
    const OPTS: &[&[&str]] = &[
        &[],
        &[],
        &[],
        &["--implicit-check-not=x"],
        &["--match-full-lines"],
        &["--strict-whitespace"],
        &["--enable-var-scope"],
        &["--ignore-case"],
    ];
    let mut verdicts = [0usize; 3]; // pass, check failure, usage error
    for case in 0..cases {
        let input: Vec<&str> = (0..1 + rnd(6)).map(|_| LINES[rnd(LINES.len())]).collect();
        let input = input.join("\n") + "\n";
        let mut check = String::new();
        for i in 0..1 + rnd(5) {
            // Mostly valid files: NEXT/SAME/EMPTY need a previous check,
            // and labels may not use variables.
            let kind = if i == 0 {
                ["", "", "-DAG", "-NOT", "-LABEL"][rnd(5)]
            } else {
                KINDS[rnd(KINDS.len())]
            };
            let pat = match kind {
                "-EMPTY" => "",
                "-LABEL" => PATS[rnd(7)],
                _ => PATS[rnd(PATS.len())],
            };
            check.push_str(&format!("; CHECK{kind}: {pat}\n"));
        }
        let args = OPTS[rnd(OPTS.len())];
        // `fc` asserts agreement.
        match std::panic::catch_unwind(|| fc(&check, &input, args)) {
            Ok(Ok(())) => verdicts[0] += 1,
            Ok(Err((st, _))) => verdicts[if st == EXIT_CHECK_FAILED { 1 } else { 2 }] += 1,
            Err(e) => {
                let msg = e.downcast_ref::<String>().cloned().unwrap_or_default();
                panic!("case {case} disagrees:\n--- check:\n{check}--- input:\n{input}---\n{msg}");
            }
        }
    }
    // The generator must exercise all outcomes for the comparison to mean much.
    let [passed, failed, usage] = verdicts;
    eprintln!("differential_random: {passed} passed, {failed} check failures, {usage} usage errors; all agree");
    assert!(passed > cases / 20 && failed > cases / 20, "{verdicts:?}");
}
