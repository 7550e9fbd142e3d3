//! [`PassManager`]: runs a sequence of passes with instrumentation.

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::fmt;

use crate::instrument::{InstrumentationError, PassInstrumentation};
use crate::ir::IrEdit;
use crate::pass::{
    AnyPass, ModuleAnalysis, ModulePass, PassContext, PassFailure, PreservedOrChanged, Session,
};

/// Why a pipeline run stopped early.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum RunError {
    /// Pass `pass` (pipeline name) failed.
    PassFailed {
        /// The failing pass.
        pass: &'static str,
        /// Its failure.
        failure: PassFailure,
    },
    /// An instrumentation stopped the run around pass `pass`.
    Instrumentation {
        /// The pass being instrumented.
        pass: &'static str,
        /// The instrumentation's error.
        error: InstrumentationError,
    },
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::PassFailed { pass, failure } => write!(f, "pass '{pass}' failed: {failure}"),
            RunError::Instrumentation { error, .. } => write!(f, "{error}"),
        }
    }
}

/// An ordered list of passes over host module type `M`.
pub struct PassManager<M: IrEdit + ?Sized> {
    passes: Vec<AnyPass<M>>,
}

impl<M: IrEdit + ?Sized> Default for PassManager<M> {
    fn default() -> Self {
        PassManager { passes: Vec::new() }
    }
}

impl<M: IrEdit + ?Sized> fmt::Debug for PassManager<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(&self.passes).finish()
    }
}

impl<M: IrEdit + ?Sized> PassManager<M> {
    /// An empty pipeline.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends a pass of either kind.
    pub fn push(&mut self, pass: AnyPass<M>) {
        self.passes.push(pass);
    }

    /// Appends a transform.
    pub fn add_pass(&mut self, pass: impl ModulePass<M> + 'static) {
        self.passes.push(AnyPass::Transform(Box::new(pass)));
    }

    /// Appends a read-only pass.
    pub fn add_analysis(&mut self, pass: impl ModuleAnalysis<M> + 'static) {
        self.passes.push(AnyPass::Analysis(Box::new(pass)));
    }

    /// The passes in run order.
    pub fn passes(&self) -> &[AnyPass<M>] {
        &self.passes
    }

    /// Number of passes.
    pub fn len(&self) -> usize {
        self.passes.len()
    }

    /// Whether there are no passes.
    pub fn is_empty(&self) -> bool {
        self.passes.is_empty()
    }

    /// Runs every pass in order over `module`.
    ///
    /// For each pass: `before_pass` on each instrumentation in slice order,
    /// the pass, then `after_pass` (or `after_pass_failed`) in reverse slice
    /// order. The run stops at the first pass failure or instrumentation
    /// error. Returns whether any pass changed the IR.
    pub fn run(
        &mut self,
        module: &mut M,
        session: &mut Session,
        instrumentations: &mut [&mut dyn PassInstrumentation<M>],
    ) -> Result<PreservedOrChanged, RunError> {
        let mut overall = PreservedOrChanged::Preserved;
        for pass in &mut self.passes {
            let info = pass.info();
            let stop = |error| RunError::Instrumentation {
                pass: info.name,
                error,
            };
            for inst in instrumentations.iter_mut() {
                inst.before_pass(info, module).map_err(stop)?;
            }
            let result = pass.run(module, &mut PassContext::new(info, session));
            match result {
                Ok(r) => {
                    overall = overall.or(r);
                    for inst in instrumentations.iter_mut().rev() {
                        inst.after_pass(info, module, r).map_err(stop)?;
                    }
                }
                Err(failure) => {
                    for inst in instrumentations.iter_mut().rev() {
                        inst.after_pass_failed(info, module, &failure);
                    }
                    return Err(RunError::PassFailed {
                        pass: info.name,
                        failure,
                    });
                }
            }
        }
        Ok(overall)
    }
}
