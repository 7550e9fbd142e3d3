//! Pass instrumentation hooks and the built-in instrumentations.
//!
//! Modeled on MLIR's `PassInstrumentation`: the
//! [`PassManager`](crate::manager::PassManager) calls
//! [`before_pass`](PassInstrumentation::before_pass) on every instrumentation in
//! the order given, runs the pass, then calls
//! [`after_pass`](PassInstrumentation::after_pass) (or
//! [`after_pass_failed`](PassInstrumentation::after_pass_failed)) in *reverse*
//! order, so instrumentations nest like scopes (a timer registered first
//! measures everything the others do).
//!
//! Built-ins, each mirroring the LLVM `opt` option users know:
//!
//! | type | `opt` option | output |
//! |---|---|---|
//! | [`DebugPassManager`] | `-debug-pass-manager` | `Running pass: <ClassName> on [module]` |
//! | [`PrintAfter`] | `-print-after-all`, `-print-after=<pass>` | `; *** IR Dump After <ClassName> on [module] ***` + host printout |
//! | [`VerifyEach`] | `-verify-each` | stops the pipeline when the host verifier fails |
//! | [`TimePasses`] | `-time-passes` | LLVM's "Pass execution timing report" |
//!
//! Statistics (`-stats`) need no hook: passes bump counters through their
//! [`PassContext`](crate::pass::PassContext) and the session prints them with
//! [`Statistics::write_report`](crate::stats::Statistics::write_report).

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::{self, Write};

use crate::pass::{PassFailure, PassInfo, PreservedOrChanged};

/// An instrumentation asked to stop the pipeline (e.g. the verifier failed).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct InstrumentationError {
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for InstrumentationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

fn write_failed(_: fmt::Error) -> InstrumentationError {
    InstrumentationError {
        message: "instrumentation output could not be written".into(),
    }
}

/// Hooks around each pass of a pipeline. All methods default to doing
/// nothing. `M` is the host module type; hooks see it read-only.
pub trait PassInstrumentation<M: ?Sized> {
    /// Called before `pass` runs. An error stops the pipeline before the pass.
    fn before_pass(
        &mut self,
        _pass: &'static PassInfo,
        _module: &M,
    ) -> Result<(), InstrumentationError> {
        Ok(())
    }

    /// Called after `pass` succeeded with `result`. An error stops the
    /// pipeline after the pass.
    fn after_pass(
        &mut self,
        _pass: &'static PassInfo,
        _module: &M,
        _result: PreservedOrChanged,
    ) -> Result<(), InstrumentationError> {
        Ok(())
    }

    /// Called after `pass` failed; the pipeline stops afterwards.
    fn after_pass_failed(&mut self, _pass: &'static PassInfo, _module: &M, _failure: &PassFailure) {
    }
}

/// `-debug-pass-manager`: writes `Running pass: <ClassName> on [module]`
/// before each pass, LLVM's exact line for module passes.
pub struct DebugPassManager<'w> {
    out: &'w mut dyn Write,
}

impl<'w> DebugPassManager<'w> {
    /// Logs to `out`.
    pub fn new(out: &'w mut dyn Write) -> Self {
        DebugPassManager { out }
    }
}

impl<M: ?Sized> PassInstrumentation<M> for DebugPassManager<'_> {
    fn before_pass(&mut self, pass: &'static PassInfo, _: &M) -> Result<(), InstrumentationError> {
        writeln!(self.out, "Running pass: {} on [module]", pass.class_name).map_err(write_failed)
    }
}

/// Which passes [`PrintAfter`] prints after.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PrintFilter {
    /// After every pass (`-print-after-all`).
    All,
    /// After the passes with these names (pipeline or class spelling).
    Passes(Vec<String>),
}

impl PrintFilter {
    fn matches(&self, pass: &PassInfo) -> bool {
        match self {
            PrintFilter::All => true,
            PrintFilter::Passes(names) => {
                names.iter().any(|n| n == pass.name || n == pass.class_name)
            }
        }
    }
}

/// A host callback that prints the module as text.
pub type ModulePrinter<'p, M> = Box<dyn FnMut(&M, &mut dyn Write) -> fmt::Result + 'p>;

/// `-print-after-all` / `-print-after=<pass>`: after each selected pass,
/// writes `; *** IR Dump After <ClassName> on [module] ***` and a newline,
/// then the module through the host's printer callback.
pub struct PrintAfter<'w, M: ?Sized> {
    filter: PrintFilter,
    printer: ModulePrinter<'w, M>,
    out: &'w mut dyn Write,
}

impl<'w, M: ?Sized> PrintAfter<'w, M> {
    /// Prints after the passes `filter` selects, with `printer`, to `out`.
    pub fn new(filter: PrintFilter, printer: ModulePrinter<'w, M>, out: &'w mut dyn Write) -> Self {
        PrintAfter {
            filter,
            printer,
            out,
        }
    }
}

impl<M: ?Sized> PassInstrumentation<M> for PrintAfter<'_, M> {
    fn after_pass(
        &mut self,
        pass: &'static PassInfo,
        module: &M,
        _: PreservedOrChanged,
    ) -> Result<(), InstrumentationError> {
        if !self.filter.matches(pass) {
            return Ok(());
        }
        writeln!(
            self.out,
            "; *** IR Dump After {} on [module] ***",
            pass.class_name
        )
        .map_err(write_failed)?;
        (self.printer)(module, &mut *self.out).map_err(write_failed)
    }
}

/// A host callback that checks the module's invariants.
pub type ModuleVerifier<'v, M> = Box<dyn FnMut(&M) -> Result<(), String> + 'v>;

/// `-verify-each`: runs the host's verifier after every successful pass and
/// stops the pipeline with `verification failed after <ClassName>: <msg>`
/// when it reports a problem.
pub struct VerifyEach<'v, M: ?Sized> {
    verifier: ModuleVerifier<'v, M>,
}

impl<'v, M: ?Sized> VerifyEach<'v, M> {
    /// Verifies with `verifier`.
    pub fn new(verifier: ModuleVerifier<'v, M>) -> Self {
        VerifyEach { verifier }
    }
}

impl<M: ?Sized> PassInstrumentation<M> for VerifyEach<'_, M> {
    fn after_pass(
        &mut self,
        pass: &'static PassInfo,
        module: &M,
        _: PreservedOrChanged,
    ) -> Result<(), InstrumentationError> {
        (self.verifier)(module).map_err(|msg| InstrumentationError {
            message: alloc::format!("verification failed after {}: {msg}", pass.class_name),
        })
    }
}

/// A monotonic clock, injected so timing works without `std`.
pub trait Clock {
    /// Current time in nanoseconds since an arbitrary fixed origin.
    fn now_nanos(&mut self) -> u64;
}

/// [`Clock`] backed by `std::time::Instant`.
#[cfg(feature = "std")]
#[derive(Debug)]
pub struct StdClock {
    origin: std::time::Instant,
}

#[cfg(feature = "std")]
impl Default for StdClock {
    fn default() -> Self {
        StdClock {
            origin: std::time::Instant::now(),
        }
    }
}

#[cfg(feature = "std")]
impl Clock for StdClock {
    fn now_nanos(&mut self) -> u64 {
        u64::try_from(self.origin.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }
}

/// `-time-passes`: wall-clock time per pass run, reported in LLVM's format.
///
/// Repeated runs of a pass are timed separately as `<ClassName> #2`, ... as
/// in LLVM's new pass manager. Only wall time is measured (no user/system
/// split), so only the `---Wall Time---` column is printed.
pub struct TimePasses<C: Clock> {
    clock: C,
    started: Option<u64>,
    records: Vec<(String, u64)>,
    runs: Vec<(&'static str, u32)>,
}

impl<C: Clock> TimePasses<C> {
    /// Times with `clock`.
    pub fn new(clock: C) -> Self {
        TimePasses {
            clock,
            started: None,
            records: Vec::new(),
            runs: Vec::new(),
        }
    }

    /// (description, nanoseconds) per pass run, in run order.
    pub fn records(&self) -> &[(String, u64)] {
        &self.records
    }

    fn stop(&mut self, pass: &PassInfo) {
        let Some(start) = self.started.take() else {
            return;
        };
        let elapsed = self.clock.now_nanos().saturating_sub(start);
        let runs = match self.runs.iter_mut().find(|(n, _)| *n == pass.class_name) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                self.runs.push((pass.class_name, 1));
                1
            }
        };
        let desc = if runs == 1 {
            String::from(pass.class_name)
        } else {
            alloc::format!("{} #{runs}", pass.class_name)
        };
        self.records.push((desc, elapsed));
    }

    /// Writes LLVM's "Pass execution timing report" (entries sorted by
    /// decreasing time, then a `Total` line). Writes nothing if no pass ran.
    pub fn write_report(&self, out: &mut dyn Write) -> fmt::Result {
        if self.records.is_empty() {
            return Ok(());
        }
        const TITLE: &str = "Pass execution timing report";
        let rule =
            "===-------------------------------------------------------------------------===\n";
        let secs = |ns: u64| ns as f64 / 1e9;
        let total: u64 = self.records.iter().map(|r| r.1).sum();
        out.write_str(rule)?;
        for _ in 0..(80 - TITLE.len()) / 2 {
            out.write_char(' ')?;
        }
        writeln!(out, "{TITLE}")?;
        out.write_str(rule)?;
        writeln!(
            out,
            "  Total Execution Time: {:5.4} seconds ({:5.4} wall clock)\n",
            secs(total),
            secs(total)
        )?;
        out.write_str("   ---Wall Time---  --- Name ---\n")?;
        let mut sorted: Vec<&(String, u64)> = self.records.iter().collect();
        // Stable: equal times keep run order reversed, as LLVM's reverse walk
        // of a sorted list does.
        sorted.reverse();
        sorted.sort_by_key(|r| core::cmp::Reverse(r.1));
        let val = |out: &mut dyn Write, ns: u64| -> fmt::Result {
            if secs(total) < 1e-7 {
                out.write_str("        -----     ")
            } else {
                write!(
                    out,
                    "  {:7.4} ({:5.1}%)",
                    secs(ns),
                    secs(ns) * 100.0 / secs(total)
                )
            }
        };
        for (desc, ns) in sorted {
            val(out, *ns)?;
            writeln!(out, "  {desc}")?;
        }
        val(out, total)?;
        out.write_str("  Total\n\n")
    }
}

impl<M: ?Sized, C: Clock> PassInstrumentation<M> for TimePasses<C> {
    fn before_pass(&mut self, _: &'static PassInfo, _: &M) -> Result<(), InstrumentationError> {
        self.started = Some(self.clock.now_nanos());
        Ok(())
    }

    fn after_pass(
        &mut self,
        pass: &'static PassInfo,
        _: &M,
        _: PreservedOrChanged,
    ) -> Result<(), InstrumentationError> {
        self.stop(pass);
        Ok(())
    }

    fn after_pass_failed(&mut self, pass: &'static PassInfo, _: &M, _: &PassFailure) {
        self.stop(pass);
    }
}
