//! `nvpass-cli`: run nvpass passes on LLVM textual IR, following `opt`'s
//! conventions.
//!
//! ```text
//! nvpass-cli run --pipeline pretreat,kernel-attr in.ll -o out.ll
//! nvpass-cli list-passes
//! nvpass-cli verify in.ll
//! ```
//!
//! Exit status is 0 on success and 1 on bad input, a bad pipeline or a
//! failing pass; in those cases the message goes to standard error and no
//! output file is written.
//!
//! The process starts at the C `main` below, not at Rust's runtime entry
//! (`#![no_main]`): that entry reads `/proc/self/maps` to find the main
//! thread's stack and installs a stack-overflow handler on an alternate
//! signal stack, a dozen system calls and a tenth of a millisecond on
//! every run (an empty input: 1.41 against 1.30 ms), which is a sixtieth
//! of reading and printing `cub_kernels.fe`. What the driver relies on
//! is kept: `SIGPIPE` is ignored (a closed output is a write error, exit
//! status 1), a panic still ends the run with status 101 after its
//! message, and standard output is flushed on exit
//! ([`std::process::exit`]). Two things are given up. The overflow
//! handler's message: nothing recurses without a bound (the reader limits
//! nesting, [`nvpass_ir::parse::MAX_DEPTH`]). And the runtime's opening
//! of `/dev/null` on a standard stream the process was started without,
//! which guards against a file opened later taking its descriptor and
//! receiving what is written to the stream: the driver writes to the
//! standard streams only while no file of its own is open (the input is
//! closed once read; diagnostics and reports are written before the
//! output file is created or after it is in place), and Rust's standard
//! streams treat a closed descriptor as a sink.

#![cfg_attr(not(test), no_main)]

mod io;
mod malloc_tuning;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use nvpass_core::diag::{Diagnostic, RemarkKind, Severity};
use nvpass_core::instrument::{
    DebugPassManager, PassInstrumentation, PrintAfter, PrintFilter, StdClock, TimePasses,
    VerifyEach,
};
use nvpass_core::knob::{KnobKind, KnobValues};
use nvpass_core::pass::Session;
use nvpass_core::registry::Registry;
use nvpass_ir::Module;
use regex::Regex;
use std::fmt::Write as _;

const EXAMPLES: &str = "\
Examples:
  nvpass-cli run --pipeline pretreat,kernel-attr,cdp,force-inline in.ll -o out.ll
  nvpass-cli run --pipeline '' in.ll            # parse and print (round trip)
  nvpass-cli run -p kernel-attr --debug-pass-manager --pass-remarks=.* in.ll
  nvpass-cli list-passes
  nvpass-cli verify in.ll";

/// Run NVVM/NVPTX middle-end passes on LLVM textual IR.
#[derive(Parser, Debug)]
#[command(name = "nvpass-cli", version, about, after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Read a module, run a pipeline on it, and write the result.
    Run(RunArgs),
    /// List every registered pass: pipeline name, class name, description.
    ListPasses,
    /// Parse and verify a module; print nothing when it is valid.
    Verify {
        /// Input file (`-` for standard input).
        input: String,
    },
}

#[derive(Args, Debug)]
struct RunArgs {
    /// Comma-separated passes, each optionally with `<key=value;...>`
    /// options; both pipeline names and class names are accepted.
    #[arg(long, short = 'p', visible_alias = "passes")]
    pipeline: String,
    /// Output file; standard output when absent or `-`.
    #[arg(short = 'o', long = "output")]
    output: Option<String>,
    /// Input file; standard input when absent or `-`.
    input: Option<String>,
    /// Verify the module after every pass.
    #[arg(long)]
    verify_each: bool,
    /// Print each pass as it runs, by its registered class name.
    #[arg(long)]
    debug_pass_manager: bool,
    /// Print the module after every pass (to standard error).
    #[arg(long)]
    print_after_all: bool,
    /// Print the module after the named pass (repeatable).
    #[arg(long, value_name = "NAME")]
    print_after: Vec<String>,
    /// Report the time each pass took.
    #[arg(long)]
    time_passes: bool,
    /// Report pass statistics.
    #[arg(long)]
    stats: bool,
    /// Show applied-optimization remarks of passes matching REGEX.
    #[arg(long, value_name = "REGEX")]
    pass_remarks: Option<String>,
    /// Show missed-optimization remarks of passes matching REGEX.
    #[arg(long, value_name = "REGEX")]
    pass_remarks_missed: Option<String>,
    /// Show analysis remarks of passes matching REGEX.
    #[arg(long, value_name = "REGEX")]
    pass_remarks_analysis: Option<String>,
    /// Write every remark to FILE as LLVM remark YAML.
    #[arg(long, value_name = "FILE")]
    pass_remarks_output: Option<String>,
    /// Skip verifying the input before running the pipeline.
    #[arg(long)]
    disable_verify: bool,
    /// Threads reading the input (with two or more, one lexes ahead of the
    /// parser), verifying it, running the per-function analyses of
    /// memspace-opt, process-restrict and kernel-info, pretreat's first
    /// census and cdp's finding and planning, and printing function bodies
    /// (0: one per hardware thread, or one for an input file under 1 MiB; a
    /// file under 3 MiB is read and printed on one). The output does not
    /// depend on it.
    #[arg(long, short = 'j', value_name = "N", default_value_t = 0)]
    threads: usize,
}

/// Writes `core::fmt` output straight to standard error.
struct Stderr;

impl std::fmt::Write for Stderr {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        eprint!("{s}");
        Ok(())
    }
}

/// A failure that ends the run with status 1; the message is already
/// complete (`file:line:col: error: ...` or `nvpass-cli: error: ...`).
struct Failure(String);

fn fail(msg: impl Into<String>) -> Failure {
    Failure(msg.into())
}

/// The process entry point (see the crate docs): ignores `SIGPIPE` as
/// Rust's runtime does, runs [`run_main`], and exits with its status, or
/// with 101 when it panicked.
#[cfg(not(test))]
#[no_mangle]
pub extern "C" fn main(_argc: libc::c_int, _argv: *const *const libc::c_char) -> libc::c_int {
    // SAFETY: setting a signal's disposition to "ignore" runs no code of
    // ours in a signal handler; nothing else has started yet.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) };
    let status = std::panic::catch_unwind(run_main).map_or(101, i32::from);
    std::process::exit(status)
}

/// The entry point of the unit-test build, which has the test harness's
/// own `main` and keeps Rust's runtime entry.
#[cfg(test)]
fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(run_main())
}

/// The driver: parses the command line and runs the command; returns the
/// exit status.
fn run_main() -> u8 {
    malloc_tuning::fix_mmap_threshold();
    let registry: Registry<Module> = nvpass_passes::registry();
    let (args, knob_args) = split_knob_args(std::env::args().collect(), &registry);
    let matches = match cli_command(&registry).try_get_matches_from(args) {
        Ok(m) => m,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 1 } else { 0 };
        }
    };
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return 1;
        }
    };
    let result = match cli.command {
        Command::Run(args) => run(args, &knob_args, &registry),
        Command::ListPasses => {
            print!("{}", list_passes(&registry));
            Ok(())
        }
        Command::Verify { input } => verify(&input),
    };
    match result {
        Ok(()) => 0,
        Err(Failure(msg)) => {
            eprintln!("{}", msg.trim_end());
            1
        }
    }
}

/// The clap command, with every declared knob listed in `run --help`.
fn cli_command(registry: &Registry<Module>) -> clap::Command {
    let mut knobs = String::from("Pass knobs (--NAME=VALUE):\n");
    if let Ok(values) = registry.knob_values() {
        for k in values.declared() {
            let kind = match k.kind {
                KnobKind::Bool => "bool",
                KnobKind::Int => "int",
                KnobKind::UInt => "uint",
                KnobKind::Str => "string",
            };
            let _ = writeln!(
                knobs,
                "  --{}=<{kind}>  {} (default: {})",
                k.name, k.description, k.default
            );
        }
    }
    Cli::command().mut_subcommand("run", |c| c.after_help(knobs))
}

/// Separates `--KNOB[=VALUE]` arguments naming declared pass knobs from the
/// arguments clap parses.
fn split_knob_args(args: Vec<String>, registry: &Registry<Module>) -> (Vec<String>, Vec<String>) {
    let Ok(values) = registry.knob_values() else {
        return (args, Vec::new());
    };
    let mut rest = Vec::with_capacity(args.len());
    let mut knobs = Vec::new();
    for a in args {
        let name = a
            .strip_prefix("--")
            .map(|s| s.split_once('=').map_or(s, |(n, _)| n));
        match name {
            Some(n) if values.is_declared(n) => knobs.push(a),
            _ => rest.push(a),
        }
    }
    (rest, knobs)
}

/// Parses the module at `path` (standard input for `-`), on `threads`
/// threads (see [`io::parse_file_in_pieces`]).
fn parse_input(path: &str, threads: usize) -> Result<Module, Failure> {
    if path != "-" {
        if let Some(m) = io::parse_file_in_pieces(path, threads) {
            return Ok(m);
        }
    }
    let src = io::read_input(path).map_err(fail)?;
    nvpass_ir::parse_module(&src).map_err(|e| fail(e.render(io::display_name(path), &src)))
}

fn verify_failure(file: &str, errors: &[nvpass_ir::verify::VerifyError]) -> Failure {
    let mut msg = String::new();
    for e in errors {
        let _ = writeln!(msg, "{file}: error: {e}");
    }
    fail(msg)
}

fn verify(input: &str) -> Result<(), Failure> {
    let size = io::input_size(input);
    let threads = io::threads_for(0, size, nvpass_ir::print::hardware_threads);
    let m = parse_input(input, io::text_threads_for(0, size, threads))?;
    let r = nvpass_ir::verify::verify_parsed_module_parallel(&m, threads)
        .map_err(|errs| verify_failure(io::display_name(input), &errs));
    // As in `run`: the process ends next, so the module is not freed.
    std::mem::forget(m);
    r
}

fn compile_regex(flag: &str, re: &Option<String>) -> Result<Option<Regex>, Failure> {
    re.as_deref()
        .map(|r| {
            Regex::new(r).map_err(|e| fail(format!("nvpass-cli: error: invalid --{flag}: {e}")))
        })
        .transpose()
}

fn run(args: RunArgs, knob_args: &[String], registry: &Registry<Module>) -> Result<(), Failure> {
    let input = args.input.as_deref().unwrap_or("-");
    let file = io::display_name(input).to_string();
    let remark_filters = [
        (
            RemarkKind::Passed,
            compile_regex("pass-remarks", &args.pass_remarks)?,
        ),
        (
            RemarkKind::Missed,
            compile_regex("pass-remarks-missed", &args.pass_remarks_missed)?,
        ),
        (
            RemarkKind::Analysis,
            compile_regex("pass-remarks-analysis", &args.pass_remarks_analysis)?,
        ),
    ];

    let mut knobs: KnobValues = registry
        .knob_values()
        .map_err(|e| fail(format!("nvpass-cli: error: {e}")))?;
    for k in knob_args {
        knobs
            .set_from_arg(k)
            .map_err(|e| fail(format!("nvpass-cli: error: {e}")))?;
    }
    let mut pm = registry.build_text(&args.pipeline).map_err(|e| {
        fail(format!(
            "nvpass-cli: error: invalid pipeline '{}': {e}",
            args.pipeline
        ))
    })?;

    let size = io::input_size(input);
    let threads = io::threads_for(args.threads, size, nvpass_ir::print::hardware_threads);
    // The module's text is read and printed on these; the rest of the
    // run uses `threads`.
    let text_opts = nvpass_ir::print::ParallelPrint::with_threads(io::text_threads_for(
        args.threads,
        size,
        threads,
    ));
    let mut module = parse_input(input, text_opts.threads)?;
    // With no pass to run and nothing reported along the way, the input is
    // verified (on a thread of its own) while it is printed, and the output
    // is kept only if it verifies (see `io::write_output_accepted`): the
    // run fails exactly as it would have failed before printing.
    let verify_aside = !args.disable_verify
        && threads > 1
        && pm.is_empty()
        && !args.stats
        && !args.time_passes
        && !args.debug_pass_manager
        && !args.print_after_all
        && args.print_after.is_empty()
        && !args.verify_each
        && args.pass_remarks_output.is_none();
    if !args.disable_verify && !verify_aside {
        nvpass_ir::verify::verify_parsed_module_parallel(&module, threads)
            .map_err(|errs| verify_failure(&file, &errs))?;
    }

    // Remarks nobody asked for are neither kept nor, where passes check,
    // built.
    let wants_remarks =
        remark_filters.iter().any(|(_, re)| re.is_some()) || args.pass_remarks_output.is_some();
    let mut session = Session::new(knobs)
        .with_threads(threads)
        .with_remarks(wants_remarks);
    let mut dbg_out = Stderr;
    let mut print_out = Stderr;
    let mut debug_pm = DebugPassManager::new(&mut dbg_out);
    let filter = if args.print_after_all {
        Some(PrintFilter::All)
    } else if !args.print_after.is_empty() {
        Some(PrintFilter::Passes(args.print_after.clone()))
    } else {
        None
    };
    let mut print_after = filter.map(|f| {
        PrintAfter::new(
            f,
            Box::new(|m: &Module, out: &mut dyn std::fmt::Write| {
                out.write_str(&nvpass_ir::print_module(m))
            }),
            &mut print_out,
        )
    });
    let mut verify_each = VerifyEach::new(Box::new(|m: &Module| {
        nvpass_ir::verify::verify_module(m).map_err(|errs| {
            errs.iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        })
    }));
    let mut timer = TimePasses::new(StdClock::default());
    let mut instruments: Vec<&mut dyn PassInstrumentation<Module>> = Vec::new();
    if args.time_passes {
        instruments.push(&mut timer);
    }
    if args.debug_pass_manager {
        instruments.push(&mut debug_pm);
    }
    if let Some(p) = print_after.as_mut() {
        instruments.push(p);
    }
    if args.verify_each {
        instruments.push(&mut verify_each);
    }
    let outcome = pm.run(&mut module, &mut session, &mut instruments);
    drop(instruments);

    report_diagnostics(&file, session.diags.diagnostics(), &remark_filters);
    if let Some(path) = &args.pass_remarks_output {
        let mut yaml = String::new();
        let _ = session.diags.write_remarks_yaml(&mut yaml);
        io::write_output(Some(path), yaml.as_bytes()).map_err(fail)?;
    }
    if args.time_passes {
        let mut report = String::new();
        let _ = timer.write_report(&mut report);
        eprint!("{report}");
    }
    if args.stats {
        let mut report = String::new();
        let _ = session.stats.write_report(&mut report);
        eprint!("{report}");
    }
    if let Err(e) = outcome {
        return Err(fail(format!("{file}: error: {e}")));
    }
    if session.diags.has_errors() {
        return Err(fail(format!(
            "{file}: error: pipeline reported errors; no output written"
        )));
    }
    if !pm.is_empty() {
        // What the passes freed is reused by printing or given back, not
        // kept beside it.
        malloc_tuning::release_free_memory();
    }
    let printed = std::thread::scope(|s| {
        let module = &module;
        let check = verify_aside.then(|| {
            s.spawn(move || nvpass_ir::verify::verify_parsed_module_parallel(module, threads))
        });
        io::write_output_accepted(
            args.output.as_deref(),
            |sink| nvpass_ir::print::print_module_parallel(module, text_opts, sink),
            || match check {
                None => Ok(()),
                Some(h) => h
                    .join()
                    .unwrap_or_else(|p| std::panic::resume_unwind(p))
                    .map_err(|errs| verify_failure(&file, &errs)),
            },
        )
    });
    let written = match printed {
        Ok(written) => written.map_err(fail),
        Err(not_verified) => Err(not_verified),
    };
    // The process ends right after this; freeing every node of a large
    // module one by one would only cost time.
    std::mem::forget(module);
    written
}

/// Prints errors and warnings always, and remarks whose pass matches the
/// filter for their kind (as `opt -pass-remarks*` does). The lines are
/// rendered into one buffer and written to standard error in large pieces,
/// not one system call per line (a kernel-info run on a large module
/// prints hundreds of thousands of remarks).
fn report_diagnostics(file: &str, diags: &[Diagnostic], filters: &[(RemarkKind, Option<Regex>)]) {
    use std::io::Write as _;
    let mut err = std::io::BufWriter::with_capacity(64 << 10, std::io::stderr().lock());
    let mut line = String::new();
    for d in diags {
        let show = match d.severity {
            Severity::Remark(kind) => filters
                .iter()
                .any(|(k, re)| *k == kind && re.as_ref().is_some_and(|r| r.is_match(d.pass))),
            _ => true,
        };
        if show {
            line.clear();
            if d.location.is_none() {
                line.push_str(file);
                line.push_str(": ");
            }
            let _ = d.write_text(&mut line);
            line.push('\n');
            // A closed standard error is not worth failing the run over.
            let _ = err.write_all(line.as_bytes());
        }
    }
    let _ = err.flush();
}

fn list_passes(registry: &Registry<Module>) -> String {
    let entries = registry.entries();
    let w0 = entries
        .iter()
        .map(|e| e.info.name.len())
        .max()
        .unwrap_or(0)
        .max(8);
    let w1 = entries
        .iter()
        .map(|e| e.info.class_name.len())
        .max()
        .unwrap_or(0)
        .max(5);
    let mut out = String::new();
    let _ = writeln!(out, "{:w0$}  {:w1$}  description", "pipeline", "class");
    for e in entries {
        let _ = writeln!(
            out,
            "{:w0$}  {:w1$}  {}",
            e.info.name, e.info.class_name, e.info.description
        );
    }
    out
}
