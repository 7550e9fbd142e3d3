//! The pass traits and what a pass sees while it runs.
//!
//! - [`ModulePass`] may mutate: it takes `&mut M` with `M: IrEdit`.
//! - [`ModuleAnalysis`] may only read (analyses, printers, lints): it takes
//!   `&M` with `M: IrView`. The signature says what a pass may do.
//!
//! Both describe themselves with a `&'static` [`PassInfo`] and report through
//! a [`PassContext`]: diagnostics, knob values, statistics.

use alloc::boxed::Box;
use alloc::string::String;
use core::fmt;

use crate::diag::{Diagnostic, DiagnosticSink, RemarkKind, Severity};
use crate::ir::{IrEdit, IrView};
use crate::knob::{KnobError, KnobInfo, KnobKind, KnobValues};
use crate::stats::{StatInfo, Statistics};

/// Static description of a pass.
#[derive(Copy, Clone, Debug)]
pub struct PassInfo {
    /// Pipeline name used in `--passes=` text and as the remark `Pass:`
    /// (`"kernel-attr"`).
    pub name: &'static str,
    /// The spec's short name (`"KernelAttrPass"`), also accepted in pipeline
    /// text and printed by `-debug-pass-manager` and `-time-passes`.
    pub class_name: &'static str,
    /// One-line description.
    pub description: &'static str,
    /// Global knobs (`--name=value`) the pass reads.
    pub knobs: &'static [KnobInfo],
    /// Options accepted in pipeline text (`name<key=value;flag>`).
    pub options: &'static [KnobInfo],
}

/// What a successful pass run did to the IR.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum PreservedOrChanged {
    /// The IR is unchanged.
    Preserved,
    /// The IR may have changed.
    Changed,
}

impl PreservedOrChanged {
    /// `Changed` if `changed`, else `Preserved`.
    pub const fn from_changed(changed: bool) -> PreservedOrChanged {
        if changed {
            PreservedOrChanged::Changed
        } else {
            PreservedOrChanged::Preserved
        }
    }

    /// Whether the IR may have changed.
    pub const fn changed(self) -> bool {
        matches!(self, PreservedOrChanged::Changed)
    }

    /// `Changed` if either is.
    pub const fn or(self, other: PreservedOrChanged) -> PreservedOrChanged {
        PreservedOrChanged::from_changed(self.changed() || other.changed())
    }
}

/// A pass could not complete. Details were emitted as diagnostics; the
/// message summarizes. The pipeline stops; the IR may be partly changed.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PassFailure {
    /// Summary.
    pub message: String,
}

impl PassFailure {
    /// A failure with message `message`.
    pub fn new(message: impl Into<String>) -> PassFailure {
        PassFailure {
            message: message.into(),
        }
    }
}

impl fmt::Display for PassFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// State shared by all passes of one run: diagnostics, knob values and
/// statistics. The CLI owns it and reads it back after the run.
#[derive(Clone, Debug)]
pub struct Session {
    /// Diagnostics emitted so far.
    pub diags: DiagnosticSink,
    /// Knob declarations and values.
    pub knobs: KnobValues,
    /// Statistic counters.
    pub stats: Statistics,
    /// Threads a function-local pass may use for its per-function analyses
    /// ([`crate::par`]); `0` and `1` both mean the calling thread only. The
    /// output of every pass does not depend on it.
    pub threads: usize,
    /// Whether remarks are kept. A driver that shows and writes none (no
    /// `-pass-remarks*` option) clears it: remarks are then dropped as they
    /// are emitted, and passes may skip building them
    /// ([`PassContext::remarks_enabled`]). Errors, warnings and notes are
    /// always kept.
    pub remarks: bool,
}

impl Default for Session {
    /// [`Session::new`] without knobs: one thread, remarks kept.
    fn default() -> Session {
        Session::new(KnobValues::new())
    }
}

impl Session {
    /// A session with the given knob values and nothing emitted yet.
    pub fn new(knobs: KnobValues) -> Session {
        Session {
            diags: DiagnosticSink::new(),
            knobs,
            stats: Statistics::new(),
            threads: 1,
            remarks: true,
        }
    }

    /// The session with [`Session::remarks`] set to `keep` (a new or
    /// default session keeps them).
    pub fn with_remarks(mut self, keep: bool) -> Session {
        self.remarks = keep;
        self
    }

    /// The session with [`Session::threads`] set to `threads`.
    pub fn with_threads(mut self, threads: usize) -> Session {
        self.threads = threads;
        self
    }
}

/// What a running pass can reach besides the IR.
pub struct PassContext<'a> {
    pass: &'static PassInfo,
    session: &'a mut Session,
}

impl<'a> PassContext<'a> {
    /// A context for running `pass` within `session`.
    pub fn new(pass: &'static PassInfo, session: &'a mut Session) -> PassContext<'a> {
        PassContext { pass, session }
    }

    /// The running pass.
    pub fn pass(&self) -> &'static PassInfo {
        self.pass
    }

    /// Records a diagnostic (a remark only when [`Session::remarks`] is on).
    pub fn emit(&mut self, diag: Diagnostic) {
        if self.session.remarks || !matches!(diag.severity, Severity::Remark(_)) {
            self.session.diags.emit(diag);
        }
    }

    /// Whether remarks are kept; when not, a pass may skip building them
    /// ([`PassContext::emit`] would drop them anyway).
    pub fn remarks_enabled(&self) -> bool {
        self.session.remarks
    }

    /// Starts a remark attributed to the running pass.
    pub fn remark(&self, kind: RemarkKind, name: &str) -> Diagnostic {
        Diagnostic::remark(kind, self.pass.name, name)
    }

    /// Starts an error attributed to the running pass.
    pub fn error(&self, name: &str) -> Diagnostic {
        Diagnostic::error(self.pass.name, name)
    }

    /// Starts a warning attributed to the running pass.
    pub fn warning(&self, name: &str) -> Diagnostic {
        Diagnostic::warning(self.pass.name, name)
    }

    /// All knob values.
    pub fn knobs(&self) -> &KnobValues {
        &self.session.knobs
    }

    /// A boolean knob's value (set or default).
    pub fn knob_bool(&self, knob: &KnobInfo) -> bool {
        self.session.knobs.bool(knob)
    }

    /// A signed knob's value (set or default).
    pub fn knob_int(&self, knob: &KnobInfo) -> i64 {
        self.session.knobs.int(knob)
    }

    /// An unsigned knob's value (set or default).
    pub fn knob_uint(&self, knob: &KnobInfo) -> u64 {
        self.session.knobs.uint(knob)
    }

    /// A string knob's value (set or default).
    pub fn knob_str(&self, knob: &KnobInfo) -> String {
        self.session.knobs.str(knob)
    }

    /// Threads the pass may use for per-function analyses
    /// ([`Session::threads`], at least 1); pass it to
    /// [`par_map_funcs`](crate::par::par_map_funcs) or
    /// [`plan_and_apply`](crate::par::plan_and_apply).
    pub fn threads(&self) -> usize {
        self.session.threads.max(1)
    }

    /// Adds `n` to the running pass's counter `stat`.
    pub fn add_stat(&mut self, stat: &StatInfo, n: u64) {
        self.session.stats.add(self.pass.name, stat, n);
    }
}

/// A transform: may read and mutate the module.
///
/// Implement it generically (`impl<M: IrEdit + ?Sized> ModulePass<M> for P`)
/// so one pass serves every host IR.
pub trait ModulePass<M: IrEdit + ?Sized> {
    /// The pass's static description.
    fn info(&self) -> &'static PassInfo;

    /// Pipeline name (`info().name`).
    fn name(&self) -> &'static str {
        self.info().name
    }

    /// Runs over the whole module.
    fn run(
        &mut self,
        module: &mut M,
        cx: &mut PassContext<'_>,
    ) -> Result<PreservedOrChanged, PassFailure>;
}

/// A read-only pass (analysis printer, lint): sees the module through `&M`.
pub trait ModuleAnalysis<M: IrView + ?Sized> {
    /// The pass's static description.
    fn info(&self) -> &'static PassInfo;

    /// Pipeline name (`info().name`).
    fn name(&self) -> &'static str {
        self.info().name
    }

    /// Runs over the whole module.
    fn run(&mut self, module: &M, cx: &mut PassContext<'_>) -> Result<(), PassFailure>;
}

/// A pass of either kind, as held by a pipeline.
pub enum AnyPass<M: IrEdit + ?Sized> {
    /// A mutating pass.
    Transform(Box<dyn ModulePass<M>>),
    /// A read-only pass.
    Analysis(Box<dyn ModuleAnalysis<M>>),
}

impl<M: IrEdit + ?Sized> AnyPass<M> {
    /// The pass's static description.
    pub fn info(&self) -> &'static PassInfo {
        match self {
            AnyPass::Transform(p) => p.info(),
            AnyPass::Analysis(p) => p.info(),
        }
    }

    /// Runs the pass; analyses always report
    /// [`PreservedOrChanged::Preserved`].
    pub fn run(
        &mut self,
        module: &mut M,
        cx: &mut PassContext<'_>,
    ) -> Result<PreservedOrChanged, PassFailure> {
        match self {
            AnyPass::Transform(p) => p.run(module, cx),
            AnyPass::Analysis(p) => p.run(module, cx).map(|()| PreservedOrChanged::Preserved),
        }
    }
}

impl<M: IrEdit + ?Sized> fmt::Debug for AnyPass<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self {
            AnyPass::Transform(_) => "Transform",
            AnyPass::Analysis(_) => "Analysis",
        };
        write!(f, "{kind}({})", self.info().name)
    }
}

/// Typed options given to one pass instance in pipeline text
/// (`name<key=value;flag>`), validated against [`PassInfo::options`].
#[derive(Clone, Default, Debug)]
pub struct PassOptions {
    values: KnobValues,
}

impl PassOptions {
    /// No options: every option reads its default.
    pub fn none() -> PassOptions {
        PassOptions::default()
    }

    /// Validates `(key, value)` pairs against `info.options`. A key without
    /// value is allowed for boolean options only and means `true`. Errors
    /// carry the index of the offending pair.
    pub fn new(
        info: &'static PassInfo,
        pairs: impl IntoIterator<Item = (impl AsRef<str>, Option<impl AsRef<str>>)>,
    ) -> Result<PassOptions, (usize, KnobError)> {
        let mut values = KnobValues::new();
        values.declare(info.options).map_err(|e| (0, e))?;
        for (i, (key, value)) in pairs.into_iter().enumerate() {
            let key = key.as_ref();
            let result = match value {
                Some(v) => values.set(key, v.as_ref()),
                None => match info.options.iter().find(|o| o.name == key) {
                    Some(o) if o.kind == KnobKind::Bool => values.set(key, "true"),
                    Some(_) => Err(KnobError::MissingValue { name: key.into() }),
                    None => Err(KnobError::Unknown { name: key.into() }),
                },
            };
            result.map_err(|e| (i, e))?;
        }
        Ok(PassOptions { values })
    }

    /// The option values.
    pub fn values(&self) -> &KnobValues {
        &self.values
    }

    /// A boolean option (given or default).
    pub fn bool(&self, opt: &KnobInfo) -> bool {
        self.values.bool(opt)
    }

    /// A signed option (given or default).
    pub fn int(&self, opt: &KnobInfo) -> i64 {
        self.values.int(opt)
    }

    /// An unsigned option (given or default).
    pub fn uint(&self, opt: &KnobInfo) -> u64 {
        self.values.uint(opt)
    }

    /// A string option (given or default).
    pub fn str(&self, opt: &KnobInfo) -> String {
        self.values.str(opt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INFO: PassInfo = PassInfo {
        name: "test-pass",
        class_name: "TestPass",
        description: "a pass for tests",
        knobs: &[],
        options: &[],
    };

    /// Without remarks, a remark is dropped at emission; errors and
    /// warnings are kept either way.
    #[test]
    fn remarks_are_kept_only_when_wanted() {
        for keep in [true, false] {
            let mut session = Session::new(KnobValues::new()).with_remarks(keep);
            let mut cx = PassContext::new(&INFO, &mut session);
            assert_eq!(cx.remarks_enabled(), keep);
            let r = cx.remark(RemarkKind::Passed, "Done");
            cx.emit(r);
            let w = cx.warning("Odd");
            cx.emit(w);
            let e = cx.error("Bad");
            cx.emit(e);
            let kinds: alloc::vec::Vec<Severity> = session
                .diags
                .diagnostics()
                .iter()
                .map(|d| d.severity)
                .collect();
            let expected: &[Severity] = if keep {
                &[
                    Severity::Remark(RemarkKind::Passed),
                    Severity::Warning,
                    Severity::Error,
                ]
            } else {
                &[Severity::Warning, Severity::Error]
            };
            assert_eq!(kinds, expected);
        }
        assert!(Session::new(KnobValues::new()).remarks, "kept by default");
        assert!(Session::default().remarks, "kept by default");
    }
}
