//! lit-style pass tests.
//!
//! Every `*.ll` file under the workspace's `tests/lit/` directory is one test
//! case. Its `RUN:` lines are executed with a small built-in shell (see
//! `support/shell.rs`): `nvpass-cli` is this crate's binary, `FileCheck` is
//! the built-in implementation in `support/filecheck.rs`, so no LLVM
//! installation is needed. All files are run and every failure is reported
//! at the end, each with the failing command, its diagnostics and exit
//! status. Run just these with `cargo test -p nvpass-cli --test lit`.
//!
//! A test looks like this:
//!
//! ```llvm
//! ; RUN: nvpass-cli run --pipeline 'some-pass' %s | FileCheck %s
//! ; RUN: not nvpass-cli run --pipeline 'bad' %s 2>&1 | FileCheck %s --check-prefix=ERR
//! ; RUN: nvpass-cli run --pipeline 'some-pass' -o %t %s && FileCheck --input-file %t %s
//!
//! ; CHECK-LABEL: define void @f(
//! ; CHECK-NEXT:  entry:
//! ; ERR: error: unknown pass
//! define void @f() { ... }
//! ```
//!
//! RUN lines: a line ending in `\` continues on the next RUN line; lines are
//! run in order and the test stops at the first failure. Substitutions:
//! `%s` (the test file), `%S` (its directory), `%t` (a per-test temporary
//! path under `target/tmp/lit/`), `%T` (the directory of `%t`, also the
//! working directory), `%%`. Commands: `nvpass-cli`, `FileCheck`, `not`;
//! shell syntax: quoting, `|` (with pipefail), `&&`, `<`, `>`, `>>`, `2>`,
//! `2>&1`. Anything else fails the test with a message naming it.
//!
//! Environment variables:
//! * `NVPASS_LIT_FILTER=SUBSTR` runs only tests whose path (relative to
//!   `tests/lit/`) contains `SUBSTR`.
//! * `NVPASS_FILECHECK=FileCheck-19` runs that FileCheck binary instead of
//!   the built-in one (to cross-check the two on the whole corpus); it also
//!   makes every FileCheck self-test compare its verdict with that binary.
//!
//! Self-tests of the FileCheck engine, the RUN-line shell and the runner live
//! in `support/filecheck_tests.rs`, `support/shell_tests.rs` and
//! `support/runner_tests.rs` and run as part of this test binary.

mod support;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use support::lit_runner::{self, Config, Outcome};

/// Whether `nvpass-cli` is implemented far enough to run tests.
///
/// TEMPORARY: while `nvpass-cli` is still a stub, tests that invoke it are
/// skipped (with a note on standard error) instead of failing. The check is:
/// `nvpass-cli --version` must succeed and print something. Once the CLI
/// implements `--version` and `run`, this function, its call in
/// `lit_suite`, and the `skipped` bookkeeping can be removed.
fn cli_available(cli: &Path) -> bool {
    std::process::Command::new(cli)
        .arg("--version")
        .output()
        .map(|o| o.status.success() && !o.stdout.trim_ascii().is_empty())
        .unwrap_or(false)
}

/// Writes straight to the process's standard error so that notes are shown
/// even though the test harness captures `eprintln!` output of passing tests.
fn note(msg: &str) {
    let _ = std::io::stderr().write_all(format!("\n{msg}").as_bytes());
}

#[test]
fn lit_suite() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = manifest.join("../tests/lit");
    let root = root.canonicalize().unwrap_or(root);
    let cfg = Config {
        root: root.clone(),
        nvpass_cli: PathBuf::from(env!("CARGO_BIN_EXE_nvpass-cli")),
        tmp_dir: Path::new(env!("CARGO_TARGET_TMPDIR")).join("lit"),
        external_filecheck: std::env::var("NVPASS_FILECHECK")
            .ok()
            .filter(|s| !s.is_empty()),
    };
    let filter = std::env::var("NVPASS_LIT_FILTER").unwrap_or_default();

    let files = lit_runner::discover(&root).unwrap_or_else(|e| panic!("lit: {e}"));
    let rel = |f: &Path| f.strip_prefix(&root).unwrap_or(f).display().to_string();
    let files: Vec<PathBuf> = files
        .into_iter()
        .filter(|f| rel(f).contains(&filter))
        .collect();

    // See `cli_available`: skip tests needing the CLI while it is a stub.
    let cli_ok = cli_available(&cfg.nvpass_cli);
    let mut skipped = Vec::new();
    let mut to_run = Vec::new();
    for f in files {
        let needs_cli = std::fs::read_to_string(&f)
            .ok()
            .and_then(|t| lit_runner::extract_run_lines(&t).ok())
            .is_some_and(|r| lit_runner::uses_cli(&r));
        if needs_cli && !cli_ok {
            skipped.push(f);
        } else {
            to_run.push(f);
        }
    }

    // Run on a few threads; results keep discovery order.
    let results: Mutex<Vec<Option<Outcome>>> =
        Mutex::new((0..to_run.len()).map(|_| None).collect());
    let next = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(4);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(file) = to_run.get(i) else { break };
                let outcome = lit_runner::run_test(&cfg, file);
                results.lock().unwrap()[i] = Some(outcome);
            });
        }
    });
    let results = results.into_inner().unwrap();

    let mut failures = String::new();
    let mut failed = 0;
    for (file, outcome) in to_run.iter().zip(results) {
        if let Some(Outcome::Fail(log)) = outcome {
            failed += 1;
            failures.push_str(&format!(
                "\n******************** FAIL: {}\n{log}",
                rel(file)
            ));
        }
    }
    let passed = to_run.len() - failed;
    if !skipped.is_empty() {
        let mut msg = format!(
            "lit: note: nvpass-cli is not implemented yet (`nvpass-cli --version` failed or printed \
             nothing); skipping {} test(s) that run it:\n",
            skipped.len()
        );
        for f in &skipped {
            msg.push_str(&format!("  SKIPPED: {}\n", rel(f)));
        }
        note(&msg);
    }
    let summary = format!(
        "lit: {passed} test files passed, {failed} failed, {} skipped",
        skipped.len()
    );
    note(&format!("{summary}\n"));
    if failed > 0 {
        panic!("{failures}\n{summary}\n");
    }
}
