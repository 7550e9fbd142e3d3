//! A minimal lit: finds `*.ll` tests, extracts their RUN lines, substitutes
//! `%s`/`%S`/`%t`/`%T`/`%%`, and executes them with the shell subset of
//! [`super::shell`]. `nvpass-cli` runs as a process; `FileCheck` runs
//! in-process ([`super::filecheck`]) unless `NVPASS_FILECHECK` names an
//! external binary (e.g. `NVPASS_FILECHECK=FileCheck-19`) to use instead.

use super::filecheck;
use super::shell::{self, Command, Redirect};
use std::fmt::Write as _;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Stdio;

/// Everything a test run needs to know about its environment.
#[derive(Clone, Debug)]
pub struct Config {
    /// Root of the test tree (`tests/lit`); test names are relative to it.
    pub root: PathBuf,
    /// The `nvpass-cli` binary.
    pub nvpass_cli: PathBuf,
    /// Where `%t` paths live.
    pub tmp_dir: PathBuf,
    /// External FileCheck binary, or `None` for the built-in one.
    pub external_filecheck: Option<String>,
}

/// A RUN script: its commands joined as lit joins them, with the line each
/// started on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunLine {
    pub line: usize,
    pub command: String,
}

/// The result of one test file.
#[derive(Debug)]
pub enum Outcome {
    Pass,
    Fail(String),
}

/// Recursively lists `*.ll` files under `dir`, sorted.
pub fn discover(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = fs::read_dir(&d).map_err(|e| format!("cannot read {}: {e}", d.display()))?;
        for entry in entries {
            let path = entry
                .map_err(|e| format!("cannot read {}: {e}", d.display()))?
                .path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "ll") {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Extracts RUN lines, joining `\`-continued ones (as lit does: the
/// backslash is dropped and the next RUN line's text appended).
pub fn extract_run_lines(text: &str) -> Result<Vec<RunLine>, String> {
    let mut runs: Vec<RunLine> = Vec::new();
    let mut continuing = false;
    for (n, line) in text.lines().enumerate() {
        let Some(at) = line.find("RUN:") else {
            if continuing {
                return Err(format!(
                    "line {}: RUN line continued with '\\' but next line has no RUN:",
                    n + 1
                ));
            }
            continue;
        };
        let content = line[at + 4..].trim_end();
        if continuing {
            let last = runs.last_mut().expect("continuing implies a previous line");
            last.command.push_str(content);
        } else {
            runs.push(RunLine {
                line: n + 1,
                command: content.to_string(),
            });
        }
        let last = runs.last_mut().expect("just pushed");
        continuing = last.command.ends_with('\\');
        if continuing {
            last.command.pop();
        }
    }
    if continuing {
        return Err("test has an unterminated RUN line (ends with '\\')".to_string());
    }
    for r in &mut runs {
        r.command = r.command.trim().to_string();
    }
    Ok(runs)
}

/// lit's `%` substitutions for one word.
pub fn substitute(word: &str, file: &Path, tmp: &Path) -> String {
    let mut out = String::with_capacity(word.len());
    let mut chars = word.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.peek() {
            Some('%') => out.push('%'),
            Some('s') => out.push_str(&file.display().to_string()),
            Some('S') | Some('p') => out.push_str(&parent(file).display().to_string()),
            Some('t') => out.push_str(&tmp.display().to_string()),
            Some('T') => out.push_str(&parent(tmp).display().to_string()),
            _ => {
                out.push('%');
                continue;
            }
        }
        chars.next();
    }
    out
}

fn parent(p: &Path) -> &Path {
    p.parent().unwrap_or(Path::new("."))
}

/// The temporary path `%t` for a test (unique per test file).
pub fn temp_path(cfg: &Config, file: &Path) -> PathBuf {
    let rel = file.strip_prefix(&cfg.root).unwrap_or(file);
    let mut name = rel.as_os_str().to_os_string();
    name.push(".tmp");
    cfg.tmp_dir.join(name)
}

/// Whether a test's RUN lines invoke `nvpass-cli`.
pub fn uses_cli(runs: &[RunLine]) -> bool {
    runs.iter().any(|r| r.command.contains("nvpass-cli"))
}

/// Runs one test file.
pub fn run_test(cfg: &Config, file: &Path) -> Outcome {
    let text = match fs::read(file) {
        Ok(t) => String::from_utf8_lossy(&t).into_owned(),
        Err(e) => return Outcome::Fail(format!("cannot read test file: {e}")),
    };
    let runs = match extract_run_lines(&text) {
        Ok(r) if r.is_empty() => return Outcome::Fail("test has no RUN: lines".to_string()),
        Ok(r) => r,
        Err(e) => return Outcome::Fail(e),
    };
    let tmp = temp_path(cfg, file);
    if let Err(e) = fs::create_dir_all(parent(&tmp)) {
        return Outcome::Fail(format!("cannot create {}: {e}", parent(&tmp).display()));
    }
    let mut log = String::new();
    for run in &runs {
        let subst = |w: &str| substitute(w, file, &tmp);
        let script = shell::lex(&run.command, &subst).and_then(|t| shell::parse(&t));
        let script = match script {
            Ok(s) if s.is_empty() => {
                return Outcome::Fail(format!(
                    "{log}RUN at line {}: error: empty RUN line\n",
                    run.line
                ))
            }
            Ok(s) => s,
            Err(e) => {
                return Outcome::Fail(format!(
                    "{log}RUN at line {}: {}\nerror: unsupported or malformed RUN line: {e}\n",
                    run.line, run.command
                ))
            }
        };
        let _ = writeln!(log, "RUN at line {}: {}", run.line, run.command);
        for pipeline in &script {
            match run_pipeline(cfg, pipeline, parent(&tmp)) {
                Ok((0, _)) => {}
                Ok((status, report)) => {
                    let _ = writeln!(
                        log,
                        "{report}error: command failed with exit status {status}"
                    );
                    return Outcome::Fail(log);
                }
                Err(e) => {
                    let _ = writeln!(log, "error: {e}");
                    return Outcome::Fail(log);
                }
            }
        }
    }
    Outcome::Pass
}

/// What a finished command produced.
struct Output {
    status: i32,
    /// Killed by a signal: `not` does not turn that into success.
    crashed: bool,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

/// Runs a pipeline with `pipefail`; returns its status and a report of each
/// command's standard error and status (for failure messages).
fn run_pipeline(cfg: &Config, pipeline: &[Command], cwd: &Path) -> Result<(i32, String), String> {
    let mut input: Vec<u8> = Vec::new();
    let mut status = 0;
    let mut report = String::new();
    for (idx, cmd) in pipeline.iter().enumerate() {
        if let Some(path) = &cmd.stdin {
            input = fs::read(path).map_err(|e| format!("cannot read '{path}': {e}"))?;
        }
        let out = run_command(cfg, cmd, &input, cwd)?;
        let mut st = out.status;
        for _ in 0..cmd.nots {
            st = i32::from(st == 0 || out.crashed);
        }
        let _ = writeln!(
            report,
            "$ {}{}",
            "not ".repeat(cmd.nots),
            quote_argv(&cmd.argv)
        );
        if !out.stderr.is_empty() {
            let _ = writeln!(
                report,
                "# stderr:\n{}",
                String::from_utf8_lossy(&out.stderr).trim_end()
            );
        }
        if out.status != 0 {
            let _ = writeln!(report, "# exit status {}", out.status);
        }
        // Standard output goes to the next command, a file, or the report.
        let mut stdout = out.stdout;
        match &cmd.stdout {
            Some(Redirect::File { path, append }) => {
                write_file(path, &stdout, *append)?;
                stdout.clear();
            }
            _ if idx + 1 == pipeline.len() && !stdout.is_empty() => {
                let _ = writeln!(
                    report,
                    "# stdout:\n{}",
                    String::from_utf8_lossy(&stdout).trim_end()
                );
            }
            // A failing command's piped output may explain the failure.
            _ if out.status != 0 && !stdout.is_empty() => {
                let text = String::from_utf8_lossy(&stdout);
                let mut cut = text.len().min(8000);
                while !text.is_char_boundary(cut) {
                    cut -= 1;
                }
                let more = if cut < text.len() { "\n[...]" } else { "" };
                let _ = writeln!(
                    report,
                    "# stdout (piped on):\n{}{more}",
                    text[..cut].trim_end()
                );
            }
            _ => {}
        }
        input = stdout;
        if st != 0 {
            status = st;
        }
    }
    Ok((status, report))
}

fn write_file(path: &str, data: &[u8], append: bool) -> Result<(), String> {
    let mut f = fs::OpenOptions::new()
        .create(true)
        .write(true)
        .append(append)
        .truncate(!append)
        .open(path)
        .map_err(|e| format!("cannot write '{path}': {e}"))?;
    f.write_all(data)
        .map_err(|e| format!("cannot write '{path}': {e}"))
}

fn quote_argv(argv: &[String]) -> String {
    argv.iter()
        .map(|a| {
            if !a.is_empty()
                && a.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_=./,:@%+".contains(c))
            {
                a.clone()
            } else {
                format!("'{}'", a.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs one command (without its `not`s) on `input`. Standard error is
/// redirected per the command; `2>&1` merges it into standard output.
fn run_command(cfg: &Config, cmd: &Command, input: &[u8], cwd: &Path) -> Result<Output, String> {
    let (program, args) = cmd.argv.split_first().ok_or("empty command")?;
    let mut out = match program.as_str() {
        "FileCheck" => match &cfg.external_filecheck {
            None => {
                let (status, stderr) = filecheck::run(args, input);
                Output {
                    status,
                    crashed: false,
                    stdout: Vec::new(),
                    stderr: stderr.into_bytes(),
                }
            }
            Some(bin) => spawn(
                Path::new(bin),
                args,
                input,
                cwd,
                cmd.stderr == Some(Redirect::ToStdout),
            )?,
        },
        "nvpass-cli" => spawn(
            &cfg.nvpass_cli,
            args,
            input,
            cwd,
            cmd.stderr == Some(Redirect::ToStdout),
        )?,
        other => {
            return Err(format!(
                "unsupported command '{other}' in RUN line (supported: nvpass-cli, FileCheck, not)"
            ))
        }
    };
    match &cmd.stderr {
        Some(Redirect::ToStdout) => {
            // Processes already wrote both streams to one file; the built-in
            // FileCheck only writes standard error.
            let err = std::mem::take(&mut out.stderr);
            out.stdout.extend(err);
        }
        Some(Redirect::File { path, append }) => {
            write_file(path, &out.stderr, *append)?;
            out.stderr.clear();
        }
        None => {}
    }
    Ok(out)
}

/// Spawns a process fed `input`. With `merge`, standard output and error
/// share one file so their interleaving is kept, as with `2>&1`.
fn spawn(
    program: &Path,
    args: &[String],
    input: &[u8],
    cwd: &Path,
    merge: bool,
) -> Result<Output, String> {
    let mut command = std::process::Command::new(program);
    command.args(args).current_dir(cwd).stdin(Stdio::piped());
    let merged_file = if merge {
        let file = tempfile_in(cwd)?;
        let clone = file.0.try_clone().map_err(|e| e.to_string())?;
        command
            .stdout(Stdio::from(file.0))
            .stderr(Stdio::from(clone));
        Some(file.1)
    } else {
        command.stdout(Stdio::piped()).stderr(Stdio::piped());
        None
    };
    let mut attempt = 0;
    let mut child = loop {
        match command.spawn() {
            Ok(c) => break c,
            // ETXTBSY: another thread of this process forked while the
            // executable was open for writing (freshly built or written
            // script); it goes away once that child execs.
            Err(e) if e.raw_os_error() == Some(26) && attempt < 20 => {
                attempt += 1;
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            Err(e) => return Err(format!("cannot run '{}': {e}", program.display())),
        }
    };
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        // A program that does not read its input closes the pipe; that is
        // not an error of the test.
        let _ = stdin.write_all(&input);
    });
    let output = child
        .wait_with_output()
        .map_err(|e| format!("waiting for '{}': {e}", program.display()))?;
    let _ = writer.join();
    let crashed = output.status.code().is_none();
    let status = output.status.code().unwrap_or_else(|| {
        // Killed by a signal: report like a shell (128 + signal).
        #[cfg(unix)]
        {
            use std::os::unix::process::ExitStatusExt;
            128 + output.status.signal().unwrap_or(0)
        }
        #[cfg(not(unix))]
        {
            255
        }
    });
    let stdout = match merged_file {
        Some(path) => {
            let data = fs::read(&path).map_err(|e| e.to_string())?;
            let _ = fs::remove_file(&path);
            data
        }
        None => output.stdout,
    };
    Ok(Output {
        status,
        crashed,
        stdout,
        stderr: output.stderr,
    })
}

/// Creates a fresh file in `dir` for merged process output.
fn tempfile_in(dir: &Path) -> Result<(fs::File, PathBuf), String> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let path = dir.join(format!(".lit-merged-{}-{n}", std::process::id()));
    let file =
        fs::File::create(&path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
    Ok((file, path))
}
