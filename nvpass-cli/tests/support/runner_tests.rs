//! Self-tests of the runner: whole test files run end to end with the
//! built-in FileCheck (no nvpass-cli needed), positive and negative.

use super::lit_runner::{run_test, Config, Outcome};
use std::path::{Path, PathBuf};

/// Writes `text` as a test file in a scratch tree and runs it, with
/// `nvpass_cli` as the CLI binary (default: the real one).
fn run_with(name: &str, text: &str, nvpass_cli: Option<&Path>) -> Outcome {
    let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("lit-selftest");
    let root = base.join("src");
    std::fs::create_dir_all(&root).unwrap();
    let file = root.join(name);
    std::fs::write(&file, text).unwrap();
    let cfg = Config {
        root,
        nvpass_cli: nvpass_cli.map_or_else(
            || PathBuf::from(env!("CARGO_BIN_EXE_nvpass-cli")),
            Path::to_path_buf,
        ),
        tmp_dir: base.join("tmp"),
        external_filecheck: None,
    };
    run_test(&cfg, &file)
}

fn run(name: &str, text: &str) -> Outcome {
    run_with(name, text, None)
}

#[track_caller]
fn pass(name: &str, text: &str) {
    check_pass(run(name, text));
}

#[track_caller]
fn check_pass(outcome: Outcome) {
    if let Outcome::Fail(log) = outcome {
        panic!("expected a pass:\n{log}");
    }
}

#[track_caller]
fn fail(name: &str, text: &str, expect: &[&str]) {
    check_fail(run(name, text), expect);
}

#[track_caller]
fn check_fail(outcome: Outcome, expect: &[&str]) {
    match outcome {
        Outcome::Pass => panic!("expected a failure"),
        Outcome::Fail(log) => {
            for e in expect {
                assert!(log.contains(e), "log lacks {e:?}:\n{log}");
            }
        }
    }
}

#[test]
fn filecheck_on_itself() {
    pass(
        "self.ll",
        "; RUN: FileCheck --input-file %s %s\n; RUN: FileCheck %s < %s\n; CHECK: {{^}}hello\nhello\n",
    );
}

#[test]
fn failing_check_is_reported() {
    fail(
        "fail.ll",
        "; RUN: FileCheck --input-file %s %s\n; CHECK: {{^}}nothere\nhello\n",
        &[
            "RUN at line 1: FileCheck --input-file %s %s",
            "fail.ll:2:10: error: CHECK: expected string not found",
            "exit status 1",
        ],
    );
}

#[test]
fn not_inverts() {
    pass(
        "not.ll",
        "; RUN: not FileCheck --input-file %s %s --check-prefix=BAD\n; BAD: {{^}}nothere\n",
    );
    fail(
        "not2.ll",
        "; RUN: not FileCheck --input-file %s %s\n; CHECK: RUN\n",
        &["exit status 1"],
    );
}

#[test]
fn stderr_redirects_and_sequences() {
    let text = "; RUN: not FileCheck --input-file %s %s --check-prefix=BAD 2>&1 | FileCheck %s --check-prefix=ERR\n\
                ; RUN: not FileCheck --input-file %s %s --check-prefix=BAD 2> %t.err && FileCheck --input-file %t.err %s --check-prefix=ERR\n\
                ; BAD: {{^}}nothere\n\
                ; ERR: {{BA}}D: expected string not found in input\n";
    pass("redirect.ll", text);
}

#[test]
fn stdout_redirect_and_sequence_stops_at_failure() {
    // The first command fails, so the second (which would pass) is not run.
    fail(
        "seq.ll",
        "; RUN: FileCheck --input-file %s %s --check-prefix=BAD && FileCheck --input-file %s %s\n; BAD: {{^}}nothere\n; CHECK: RUN\n",
        &["BAD: expected string not found", "exit status 1"],
    );
}

#[test]
fn pipelines_fail_if_any_command_fails() {
    // The last command passes, but with pipefail the first one's failure counts.
    fail(
        "pipefail.ll",
        "; RUN: FileCheck --input-file %s %s --check-prefix=BAD 2>&1 | FileCheck %s --check-prefix=ERR\n; BAD: {{^}}nothere\n; ERR: error\n",
        &["BAD: expected string not found"],
    );
}

#[test]
fn malformed_test_files_are_reported() {
    fail(
        "norun.ll",
        "define void @f() {\n  ret void\n}\n",
        &["no RUN: lines"],
    );
    fail(
        "or.ll",
        "; RUN: FileCheck %s || true\n",
        &[
            "unsupported or malformed RUN line",
            "unsupported shell operator '||'",
        ],
    );
    fail(
        "cat.ll",
        "; RUN: cat %s | FileCheck %s\n; CHECK: x\n",
        &["unsupported command 'cat'"],
    );
    fail(
        "quote.ll",
        "; RUN: FileCheck '%s\n",
        &["unterminated single quote"],
    );
    fail(
        "cont.ll",
        "; RUN: FileCheck %s \\\n",
        &["unterminated RUN line"],
    );
    fail("empty.ll", "; RUN:\n", &["empty RUN line"]);
    fail(
        "badcheck.ll",
        "; RUN: FileCheck --input-file %s %s\n; CHECK-NEXT: x\n",
        &[
            "found 'CHECK-NEXT' without previous 'CHECK: line",
            "exit status 2",
        ],
    );
    fail(
        "badopt.ll",
        "; RUN: FileCheck --frobnicate %s\n",
        &["unsupported FileCheck option '--frobnicate'"],
    );
    fail(
        "missing.ll",
        "; RUN: FileCheck %s < %S/does-not-exist\n",
        &["cannot read"],
    );
}

/// A stand-in for `nvpass-cli run --pipeline P [-o OUT] [INPUT|-]`: echoes
/// its input, or fails like a parser on input containing `BROKEN`.
#[cfg(unix)]
fn fake_cli() -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    static ONCE: std::sync::Once = std::sync::Once::new();
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("lit-selftest/fake-nvpass-cli");
    ONCE.call_once(|| {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let script = r#"#!/bin/sh
[ "$1" = run ] || exit 2
shift
out=""; in="-"
while [ $# -gt 0 ]; do
  case "$1" in
    --pipeline) shift ;;
    -o) shift; out="$1" ;;
    *) in="$1" ;;
  esac
  shift
done
if [ "$in" = "-" ]; then text=$(cat); else text=$(cat "$in"); fi
case "$text" in
  *BROKEN*) echo "warning: first" >&2; echo "text on stdout"; echo "error: expected something" >&2; exit 1 ;;
esac
if [ -n "$out" ]; then printf '%s\n' "$text" > "$out"; else printf '%s\n' "$text"; fi
"#;
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, script).unwrap();
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::rename(&tmp, &path).unwrap();
    });
    path
}

#[cfg(unix)]
#[test]
fn cli_pipelines() {
    let cli = fake_cli();
    let cli = Some(cli.as_path());
    let ok = "; RUN: nvpass-cli run --pipeline '' %s | FileCheck %s\n\
              ; RUN: nvpass-cli run --pipeline '' < %s | FileCheck %s\n\
              ; RUN: nvpass-cli run --pipeline 'a,b' - < %s | FileCheck %s\n\
              ; RUN: nvpass-cli run --pipeline x -o %t %s && FileCheck --input-file %t %s\n\
              ; CHECK: {{^}}define void @f(\n\
              define void @f() {\n  ret void\n}\n";
    check_pass(run_with("cli-ok.ll", ok, cli));
    // Standard error and output interleave as written with 2>&1.
    let bad = "; RUN: not nvpass-cli run --pipeline '' %s 2>&1 | FileCheck %s\n\
               ; CHECK: {{^}}warning: first\n\
               ; CHECK-NEXT: {{^}}text on stdout\n\
               ; CHECK-NEXT: {{^}}error: expected\n\
               BROKEN\n";
    check_pass(run_with("cli-bad.ll", bad, cli));
}

#[cfg(unix)]
#[test]
fn cli_failures_are_reported() {
    let cli = fake_cli();
    let cli = Some(cli.as_path());
    // The CLI fails: its standard error and status are in the report.
    check_fail(
        run_with(
            "cli-fail.ll",
            "; RUN: nvpass-cli run --pipeline '' %s | FileCheck %s\n; CHECK: BROKEN\n",
            cli,
        ),
        &[
            "# stderr:\nwarning: first\nerror: expected something",
            "# exit status 1",
            "command failed with exit status 1",
        ],
    );
    // `not` on a command that succeeds fails.
    check_fail(
        run_with("cli-not.ll", "; RUN: not nvpass-cli run --pipeline '' %s 2>&1 | FileCheck %s\n; CHECK: define\ndefine\n", cli),
        &["command failed with exit status 1"],
    );
    // FileCheck's diagnostics about the CLI's output.
    check_fail(
        run_with("cli-check.ll", "; RUN: nvpass-cli run --pipeline '' %s | FileCheck %s\n; CHECK: {{^}}declare\ndefine\n", cli),
        &["cli-check.ll:2:10: error: CHECK: expected string not found in input", "<stdin>:1:1: note: scanning from here"],
    );
}
