//! Self-tests of the runner: whole test files run end to end with the
//! built-in FileCheck (no nvpass-cli needed), positive and negative.

use super::lit_runner::{run_test, Config, Outcome};
use std::path::{Path, PathBuf};

/// Writes `text` as a test file in a scratch tree and runs it.
fn run(name: &str, text: &str) -> Outcome {
    let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("lit-selftest");
    let root = base.join("src");
    std::fs::create_dir_all(&root).unwrap();
    let file = root.join(name);
    std::fs::write(&file, text).unwrap();
    let cfg = Config {
        root,
        nvpass_cli: PathBuf::from(env!("CARGO_BIN_EXE_nvpass-cli")),
        tmp_dir: base.join("tmp"),
        external_filecheck: None,
    };
    run_test(&cfg, &file)
}

#[track_caller]
fn pass(name: &str, text: &str) {
    if let Outcome::Fail(log) = run(name, text) {
        panic!("expected a pass:\n{log}");
    }
}

#[track_caller]
fn fail(name: &str, text: &str, expect: &[&str]) {
    match run(name, text) {
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
