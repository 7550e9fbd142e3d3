//! The command-line contract: exit codes, messages on standard error, and
//! no output file left behind on failure.

use std::fs;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

const GOOD: &str = "define i32 @f(i32 %x) {\n  %y = add i32 %x, 1\n  ret i32 %y\n}\n";
const BAD: &str = "define i32 @f(i32 %x) {\n  %y = add i32 %x,\n  ret i32 %y\n}\n";

fn cli() -> Command {
    Command::new(env!("CARGO_BIN_EXE_nvpass-cli"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-tests");
    fs::create_dir_all(&dir).unwrap();
    dir.join(format!("{}-{name}", std::process::id()))
}

fn write(name: &str, text: &str) -> PathBuf {
    let p = scratch(name);
    fs::write(&p, text).unwrap();
    p
}

fn run(args: &[&str]) -> Output {
    cli().args(args).stdin(Stdio::null()).output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn round_trip_to_stdout_exits_zero() {
    let input = write("good.ll", GOOD);
    let o = run(&["run", "--pipeline", "", input.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.contains("define i32 @f(i32 %x)"), "{out}");
    assert!(out.contains("%y = add i32 %x, 1"), "{out}");
}

#[test]
fn reads_standard_input() {
    use std::io::Write;
    let mut child = cli()
        .args(["run", "--pipeline", "", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(GOOD.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("ret i32 %y"));
}

/// A standard output closed by its reader is a write error (exit status
/// 1 and a message), not a `SIGPIPE` that kills the process: the driver
/// ignores the signal as Rust's runtime would.
#[test]
fn a_closed_standard_output_is_a_write_error() {
    // Far more output than a pipe holds, so a write fails once the
    // reading end is closed, whenever the driver gets to it.
    let text: String = (0..4000)
        .map(|k| format!("define i32 @f{k}(i32 %x) {{\n  %y = add i32 %x, {k}\n  ret i32 %y\n}}\n"))
        .collect();
    let input = write("many.ll", &text);
    let mut child = cli()
        .args(["run", "--pipeline", "", input.to_str().unwrap()])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(1), "{:?}: {}", o.status, stderr(&o));
    assert!(
        stderr(&o).contains("<stdout>: error: cannot write"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn bad_input_gives_located_error_exit_one_and_no_output() {
    let input = write("bad.ll", BAD);
    let out = scratch("bad-out.ll");
    let _ = fs::remove_file(&out);
    let o = run(&[
        "run",
        "--pipeline",
        "",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    let file = input.to_str().unwrap();
    // Same location and wording as llvm-as-19 gives for this input.
    assert!(
        err.starts_with(&format!("{file}:3:3: error: expected value token")),
        "{err}"
    );
    // The offending line and a caret under the column follow.
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines[1], "  ret i32 %y");
    assert_eq!(lines[2], "  ^");
    assert!(!out.exists(), "no output file may be written on error");
    assert!(o.stdout.is_empty());
}

#[test]
fn failure_keeps_an_existing_output_file_untouched() {
    let input = write("bad2.ll", BAD);
    let out = write("existing.ll", "previous contents\n");
    let o = run(&[
        "run",
        "--pipeline",
        "",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(fs::read_to_string(&out).unwrap(), "previous contents\n");
    let leftovers = fs::read_dir(out.parent().unwrap())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains("nvpass-tmp"))
        .count();
    assert_eq!(leftovers, 0);
}

#[test]
fn output_file_is_written_on_success() {
    let input = write("good2.ll", GOOD);
    let out = scratch("good2-out.ll");
    let o = run(&[
        "run",
        "--pipeline",
        "",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    assert!(fs::read_to_string(&out).unwrap().contains("define i32 @f"));
}

#[test]
fn missing_input_file_is_an_error() {
    let o = run(&["run", "--pipeline", "", "/nonexistent/in.ll"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("/nonexistent/in.ll: error: cannot read file"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn unknown_pass_lists_valid_names() {
    let input = write("good3.ll", GOOD);
    let o = run(&["run", "--pipeline", "no-such-pass", input.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("no-such-pass"), "{err}");
    assert!(err.contains("error"), "{err}");
    assert!(o.stdout.is_empty());
}

#[test]
fn unknown_flag_is_a_usage_error() {
    let o = run(&["run", "--pipeline", "", "--no-such-flag", "x.ll"]);
    assert_ne!(o.status.code(), Some(0));
    assert!(stderr(&o).contains("--no-such-flag"), "{}", stderr(&o));
}

#[test]
fn version_and_help() {
    let o = run(&["--version"]);
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("nvpass-cli "));
    let o = run(&["--help"]);
    assert!(o.status.success());
    let help = String::from_utf8_lossy(&o.stdout);
    assert!(help.contains("Examples:"), "{help}");
    assert!(help.contains("nvpass-cli run --pipeline"), "{help}");
    let o = run(&["run", "--help"]);
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("--pass-remarks-output"));
}

#[test]
fn list_passes_prints_a_table() {
    let o = run(&["list-passes"]);
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    let header = text.lines().next().unwrap();
    assert!(header.starts_with("pipeline"), "{text}");
    assert!(
        header.contains("class") && header.contains("description"),
        "{text}"
    );
}

#[test]
fn verify_subcommand_accepts_good_and_rejects_bad() {
    let good = write("v-good.ll", GOOD);
    let o = run(&["verify", good.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(o.stdout.is_empty() && o.stderr.is_empty());
    // Parses, but breaks SSA dominance: the verifier must say so.
    let bad = write(
        "v-bad.ll",
        "define i32 @f(i1 %c) {\nentry:\n  br i1 %c, label %a, label %b\na:\n  %x = add i32 1, 2\n  br label %b\nb:\n  ret i32 %x\n}\n",
    );
    let o = run(&["verify", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("error"), "{}", stderr(&o));
}

/// A module that parses but does not verify fails the run the same way
/// whether passes follow or not (with none, it is verified while it is
/// printed): exit status 1, the verifier's message, and the output file
/// neither created nor, when it exists, changed.
#[test]
fn run_rejects_a_module_that_does_not_verify() {
    let bad = write(
        "r-bad.ll",
        "define i32 @f(i1 %c) {\nentry:\n  br i1 %c, label %a, label %b\na:\n  %x = add i32 1, 2\n  br label %b\nb:\n  ret i32 %x\n}\n",
    );
    let out = scratch("r-bad-out.ll");
    let mut messages = Vec::new();
    for pipeline in ["", "pretreat"] {
        for existing in [false, true] {
            if existing {
                fs::write(&out, "old").unwrap();
            } else {
                let _ = fs::remove_file(&out);
            }
            let args = ["run", "--pipeline", pipeline, bad.to_str().unwrap(), "-o"];
            let o = run(&[&args[..], &[out.to_str().unwrap()]].concat());
            assert_eq!(o.status.code(), Some(1), "{pipeline:?}: {}", stderr(&o));
            assert!(stderr(&o).contains("error"), "{}", stderr(&o));
            if existing {
                assert_eq!(fs::read_to_string(&out).unwrap(), "old");
            } else {
                assert!(!out.exists(), "{pipeline:?}: output written");
            }
            messages.push(stderr(&o));
        }
        // To standard output nothing at all is printed.
        let o = run(&["run", "--pipeline", pipeline, bad.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1));
        assert!(o.stdout.is_empty(), "{pipeline:?}: printed to stdout");
    }
    assert!(messages.windows(2).all(|w| w[0] == w[1]), "{messages:?}");
}

#[test]
fn remarks_output_is_written_even_when_empty() {
    let input = write("good4.ll", GOOD);
    let yaml = scratch("remarks.yaml");
    let o = run(&[
        "run",
        "--pipeline",
        "",
        input.to_str().unwrap(),
        "--pass-remarks-output",
        yaml.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(yaml.exists());
}

#[test]
fn invalid_remark_regex_is_an_error() {
    let input = write("good5.ll", GOOD);
    let o = run(&[
        "run",
        "--pipeline",
        "",
        "--pass-remarks=(",
        input.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("invalid --pass-remarks"),
        "{}",
        stderr(&o)
    );
}

/// A module of `n` functions, each calling the previous one; function `bad`
/// (when given) uses a value its definition does not dominate.
fn many_functions(n: usize, bad: &[usize]) -> String {
    let mut s = String::from("declare i32 @f0(i32)\n");
    for i in 1..n {
        s += &format!("\ndefine i32 @f{i}(i32 %x) {{\nentry:\n  %c = icmp sgt i32 %x, {i}\n  br i1 %c, label %a, label %b\na:\n  %y = call i32 @f{}(i32 %x)\n  br label %b\nb:\n", i - 1);
        if bad.contains(&i) {
            s += "  ret i32 %y\n}\n";
        } else {
            s += "  %r = phi i32 [ %y, %a ], [ 0, %entry ]\n  ret i32 %r\n}\n";
        }
    }
    s
}

#[test]
fn thread_count_does_not_change_output_or_errors() {
    let input = write("j-good.ll", &many_functions(3000, &[]));
    let outs: Vec<Vec<u8>> = ["1", "2", "3"]
        .iter()
        .map(|j| {
            let o = run(&["run", "-j", j, "--pipeline", "", input.to_str().unwrap()]);
            assert!(o.status.success(), "-j {j}: {}", stderr(&o));
            o.stdout
        })
        .collect();
    assert!(outs[0].len() > 100_000);
    assert!(outs.iter().all(|o| *o == outs[0]), "output depends on -j");
    // Errors in functions far apart are reported in the same order.
    let errors = |file: &std::path::Path| -> Vec<String> {
        ["1", "2", "3"]
            .iter()
            .map(|j| {
                let o = run(&["run", "-j", j, "--pipeline", "", file.to_str().unwrap()]);
                assert_eq!(o.status.code(), Some(1), "-j {j}");
                stderr(&o)
            })
            .collect()
    };
    let errs = errors(&write("j-bad.ll", &many_functions(3000, &[5, 1500, 2990])));
    for f in ["@f5", "@f1500", "@f2990"] {
        assert!(errs[0].contains(f), "{f} missing: {}", errs[0]);
    }
    assert!(errs.iter().all(|e| *e == errs[0]), "errors depend on -j");
    // So are errors of the reader, found far into the file (read in
    // pieces, lexed on another thread with -j 2 and 3), lexical or not.
    for (name, tail, want) in [
        (
            "j-lex.ll",
            "@s = global i32 ^\n",
            "unexpected character '^'",
        ),
        ("j-parse.ll", "@s = global i32 x\n", "expected value token"),
    ] {
        let errs = errors(&write(name, &(many_functions(3000, &[]) + tail)));
        assert!(errs[0].contains(want), "{name}: {}", errs[0]);
        assert!(
            errs.iter().all(|e| *e == errs[0]),
            "{name}: errors depend on -j"
        );
    }
}

/// On Linux the build script links the executable at a fixed address
/// (`-no-pie`, see `build.rs`): its ELF type is `ET_EXEC`, not the
/// `ET_DYN` of a position-independent one. Builds that keep a PIE on
/// purpose (`NVPASS_CLI_PIE`, or a crt-static build, which links a static
/// PIE) are exempt.
#[test]
fn linux_executable_is_linked_at_a_fixed_address() {
    if !cfg!(target_os = "linux")
        || option_env!("NVPASS_CLI_PIE").is_some()
        || cfg!(target_feature = "crt-static")
    {
        return;
    }
    let exe = fs::read(env!("CARGO_BIN_EXE_nvpass-cli")).unwrap();
    assert_eq!(&exe[..4], b"\x7fELF", "not an ELF file");
    // `e_type`, two bytes at offset 16, in the file's byte order (byte 5:
    // 1 little-endian, 2 big-endian).
    let e_type = match exe[5] {
        1 => u16::from_le_bytes([exe[16], exe[17]]),
        _ => u16::from_be_bytes([exe[16], exe[17]]),
    };
    const ET_EXEC: u16 = 2;
    assert_eq!(
        e_type, ET_EXEC,
        "nvpass-cli is not linked at a fixed address"
    );
}
