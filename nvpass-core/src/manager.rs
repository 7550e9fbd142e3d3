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
    ///
    /// After each pass that succeeds, once its instrumentation has run, the
    /// host may reuse the records of what the pass erased
    /// ([`IrEdit::reclaim_erased`]): between passes no pass holds an id.
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
                    module.reclaim_erased();
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::diag::RemarkKind;
    use crate::instrument::{DebugPassManager, PrintAfter, PrintFilter, TimePasses, VerifyEach};
    use crate::ir::{Attr, AttrKey, AttrSlot, CallConv, IrView};
    use crate::knob::{KnobInfo, KnobKind, KnobValues};
    use crate::pass::{PassInfo, PassOptions};
    use crate::stats::StatInfo;
    use crate::testing::MockModule;
    use alloc::string::{String, ToString};
    use alloc::vec;
    use core::cell::RefCell;
    use core::fmt::Write;

    pub const VERBOSE: KnobInfo = KnobInfo {
        name: "touch-verbose",
        kind: KnobKind::Bool,
        default: "false",
        description: "remark on every touch",
    };
    pub const TAG: KnobInfo = KnobInfo {
        name: "tag",
        kind: KnobKind::Str,
        default: "touched",
        description: "attribute to add",
    };
    const TOUCHED: StatInfo = StatInfo {
        name: "NumTouched",
        description: "Number of functions touched",
    };
    pub static TOUCH: PassInfo = PassInfo {
        name: "touch",
        class_name: "TouchPass",
        description: "adds a string attribute to every function",
        knobs: &[VERBOSE],
        options: &[TAG],
    };
    pub static COUNT: PassInfo = PassInfo {
        name: "count",
        class_name: "CountPrinter",
        description: "remarks the number of functions",
        knobs: &[],
        options: &[],
    };
    pub static FAIL: PassInfo = PassInfo {
        name: "fail",
        class_name: "FailPass",
        description: "always fails",
        knobs: &[],
        options: &[],
    };

    /// Adds attribute `"<tag>"` to every function lacking it.
    pub struct Touch {
        pub tag: String,
    }

    impl Touch {
        pub fn create<M: IrEdit + ?Sized>(o: &PassOptions) -> Result<AnyPass<M>, String> {
            let tag = o.str(&TAG);
            if tag.is_empty() {
                return Err("option 'tag' must not be empty".into());
            }
            Ok(AnyPass::Transform(Box::new(Touch { tag })))
        }
    }

    impl<M: IrEdit + ?Sized> ModulePass<M> for Touch {
        fn info(&self) -> &'static PassInfo {
            &TOUCH
        }
        fn run(
            &mut self,
            m: &mut M,
            cx: &mut PassContext<'_>,
        ) -> Result<PreservedOrChanged, PassFailure> {
            let todo: Vec<_> = m
                .funcs()
                .filter(|&f| !m.has_attr(f, AttrSlot::Function, AttrKey::Str(&self.tag)))
                .collect();
            for &f in &todo {
                m.add_attr(f, AttrSlot::Function, Attr::Str(&self.tag, ""));
                if cx.knob_bool(&VERBOSE) {
                    let d = cx
                        .remark(RemarkKind::Passed, "Touched")
                        .in_function(m.func_name(f))
                        .text("touched");
                    cx.emit(d);
                }
            }
            cx.add_stat(&TOUCHED, todo.len() as u64);
            Ok(PreservedOrChanged::from_changed(!todo.is_empty()))
        }
    }

    /// Remarks the number of functions.
    pub struct Count;

    impl Count {
        pub fn create<M: IrEdit + ?Sized>(_: &PassOptions) -> Result<AnyPass<M>, String> {
            Ok(AnyPass::Analysis(Box::new(Count)))
        }
    }

    impl<M: IrView + ?Sized> ModuleAnalysis<M> for Count {
        fn info(&self) -> &'static PassInfo {
            &COUNT
        }
        fn run(&mut self, m: &M, cx: &mut PassContext<'_>) -> Result<(), PassFailure> {
            let d = cx
                .remark(RemarkKind::Analysis, "Functions")
                .arg("NumFunctions", m.funcs().count().to_string());
            cx.emit(d);
            Ok(())
        }
    }

    /// Fails with an error diagnostic.
    pub struct Fail;

    impl Fail {
        pub fn create<M: IrEdit + ?Sized>(_: &PassOptions) -> Result<AnyPass<M>, String> {
            Ok(AnyPass::Transform(Box::new(Fail)))
        }
    }

    impl<M: IrEdit + ?Sized> ModulePass<M> for Fail {
        fn info(&self) -> &'static PassInfo {
            &FAIL
        }
        fn run(
            &mut self,
            _: &mut M,
            cx: &mut PassContext<'_>,
        ) -> Result<PreservedOrChanged, PassFailure> {
            let d = cx.error("Broken").text("cannot continue");
            cx.emit(d);
            Err(PassFailure::new("cannot continue"))
        }
    }

    /// Records every hook call as `<id>:<hook>:<pass>[:<detail>]`.
    struct Recorder<'l> {
        id: &'static str,
        log: &'l RefCell<Vec<String>>,
    }

    impl<M: ?Sized> PassInstrumentation<M> for Recorder<'_> {
        fn before_pass(&mut self, p: &'static PassInfo, _: &M) -> Result<(), InstrumentationError> {
            self.log
                .borrow_mut()
                .push(alloc::format!("{}:before:{}", self.id, p.name));
            Ok(())
        }
        fn after_pass(
            &mut self,
            p: &'static PassInfo,
            _: &M,
            r: PreservedOrChanged,
        ) -> Result<(), InstrumentationError> {
            self.log
                .borrow_mut()
                .push(alloc::format!("{}:after:{}:{r:?}", self.id, p.name));
            Ok(())
        }
        fn after_pass_failed(&mut self, p: &'static PassInfo, _: &M, f: &PassFailure) {
            self.log.borrow_mut().push(alloc::format!(
                "{}:failed:{}:{}",
                self.id,
                p.name,
                f.message
            ));
        }
    }

    fn module() -> MockModule {
        let mut m = MockModule::default();
        m.add_func("k", CallConv::PtxKernel, &[]);
        m.add_func("d", CallConv::C, &[]);
        m
    }

    fn manager(passes: &[crate::registry::PassCtor<MockModule>]) -> PassManager<MockModule> {
        let mut pm = PassManager::new();
        for ctor in passes {
            pm.push(ctor(&PassOptions::none()).unwrap());
        }
        pm
    }

    #[test]
    fn instrumentation_order() {
        let log = RefCell::new(Vec::new());
        let mut a = Recorder { id: "A", log: &log };
        let mut b = Recorder { id: "B", log: &log };
        let mut pm = manager(&[
            Touch::create,
            Count::create,
            Touch::create,
            Fail::create,
            Count::create,
        ]);
        let mut m = module();
        let mut session = Session::default();
        let result = pm.run(&mut m, &mut session, &mut [&mut a, &mut b]);
        assert_eq!(
            result,
            Err(RunError::PassFailed {
                pass: "fail",
                failure: PassFailure::new("cannot continue"),
            })
        );
        let expected = [
            "A:before:touch",
            "B:before:touch",
            "B:after:touch:Changed",
            "A:after:touch:Changed",
            "A:before:count",
            "B:before:count",
            "B:after:count:Preserved",
            "A:after:count:Preserved",
            "A:before:touch",
            "B:before:touch",
            "B:after:touch:Preserved",
            "A:after:touch:Preserved",
            "A:before:fail",
            "B:before:fail",
            "B:failed:fail:cannot continue",
            "A:failed:fail:cannot continue",
        ];
        assert_eq!(log.borrow().as_slice(), expected);
        // The failing pass's error diagnostic is in the session; the count
        // pass after it never ran.
        let names: Vec<_> = session
            .diags
            .diagnostics()
            .iter()
            .map(|d| d.name.as_str())
            .collect();
        assert_eq!(names, ["Functions", "Broken"]);
        assert!(session.diags.has_errors());
    }

    #[test]
    fn passes_see_knobs_and_bump_stats() {
        let mut knobs = KnobValues::new();
        knobs.declare(TOUCH.knobs).unwrap();
        knobs.set_from_arg("--touch-verbose").unwrap();
        let mut session = Session::new(knobs);
        let mut m = module();
        let mut pm = manager(&[Touch::create, Touch::create]);
        assert_eq!(
            pm.run(&mut m, &mut session, &mut []),
            Ok(PreservedOrChanged::Changed)
        );
        assert_eq!(session.stats.get("touch", &TOUCHED), 2);
        let remarks: Vec<_> = session
            .diags
            .diagnostics()
            .iter()
            .map(|d| d.render_text())
            .collect();
        assert_eq!(
            remarks,
            [
                "remark: touched [-Rpass=touch]",
                "remark: touched [-Rpass=touch]"
            ]
        );
        assert!(m.has_attr(
            crate::ir::FuncId::new(1),
            AttrSlot::Function,
            AttrKey::Str("touched")
        ));
        // Nothing left to do: the whole run preserves.
        let mut pm = manager(&[Touch::create, Count::create]);
        assert_eq!(
            pm.run(&mut m, &mut session, &mut []),
            Ok(PreservedOrChanged::Preserved)
        );
    }

    #[test]
    fn debug_pass_manager_lines() {
        let mut out = String::new();
        {
            let mut dbg = DebugPassManager::new(&mut out);
            let mut pm = manager(&[Touch::create, Count::create]);
            pm.run(&mut module(), &mut Session::default(), &mut [&mut dbg])
                .unwrap();
        }
        assert_eq!(
            out,
            "Running pass: TouchPass on [module]\nRunning pass: CountPrinter on [module]\n"
        );
    }

    #[test]
    fn print_after_selected_passes() {
        let printer = |m: &MockModule, out: &mut dyn Write| -> core::fmt::Result {
            for (name, _, attrs) in &m.funcs {
                writeln!(out, "define @{name} ; {} attrs", attrs.len())?;
            }
            Ok(())
        };
        let mut out = String::new();
        {
            let filter = PrintFilter::Passes(vec!["CountPrinter".into(), "touch".into()]);
            let mut pa = PrintAfter::new(filter, Box::new(printer), &mut out);
            let mut pm = manager(&[Touch::create, Count::create]);
            pm.run(&mut module(), &mut Session::default(), &mut [&mut pa])
                .unwrap();
        }
        let dump = "define @k ; 1 attrs\ndefine @d ; 1 attrs\n";
        assert_eq!(
            out,
            alloc::format!(
                "; *** IR Dump After TouchPass on [module] ***\n{dump}\
                 ; *** IR Dump After CountPrinter on [module] ***\n{dump}"
            )
        );
        let mut out = String::new();
        {
            let filter = PrintFilter::Passes(vec!["count".into()]);
            let mut pa = PrintAfter::new(filter, Box::new(printer), &mut out);
            let mut pm = manager(&[Touch::create, Count::create]);
            pm.run(&mut module(), &mut Session::default(), &mut [&mut pa])
                .unwrap();
        }
        assert!(out.starts_with("; *** IR Dump After CountPrinter on [module] ***\n"));
        assert_eq!(out.matches("IR Dump").count(), 1);
    }

    #[test]
    fn verify_each_stops_the_pipeline() {
        let log = RefCell::new(Vec::new());
        let mut rec = Recorder { id: "R", log: &log };
        // The "verifier" rejects any function carrying the attribute.
        let mut verify = VerifyEach::new(Box::new(|m: &MockModule| {
            match m
                .funcs()
                .find(|&f| m.has_attr(f, AttrSlot::Function, AttrKey::Str("touched")))
            {
                Some(f) => Err(alloc::format!("@{} is touched", m.func_name(f))),
                None => Ok(()),
            }
        }));
        let mut pm = manager(&[Count::create, Touch::create, Count::create]);
        let err = pm
            .run(
                &mut module(),
                &mut Session::default(),
                &mut [&mut rec, &mut verify],
            )
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "verification failed after TouchPass: @k is touched"
        );
        assert_eq!(
            log.borrow().as_slice(),
            [
                "R:before:count",
                "R:after:count:Preserved",
                "R:before:touch"
            ]
        );
    }

    struct FakeClock {
        now: u64,
        step: u64,
    }

    impl crate::instrument::Clock for FakeClock {
        fn now_nanos(&mut self) -> u64 {
            self.now += self.step;
            self.step *= 2;
            self.now
        }
    }

    #[test]
    fn time_passes_report() {
        let mut timer = TimePasses::new(FakeClock {
            now: 0,
            step: 100_000,
        });
        let mut pm = manager(&[Touch::create, Count::create, Touch::create]);
        pm.run(&mut module(), &mut Session::default(), &mut [&mut timer])
            .unwrap();
        // Steps: 0.1 ms, 0.2 (touch = 0.2), 0.4, 0.8 (count = 0.8), 1.6, 3.2 (touch #2 = 3.2).
        let recs: Vec<_> = timer
            .records()
            .iter()
            .map(|(d, ns)| (d.as_str(), *ns))
            .collect();
        assert_eq!(
            recs,
            [
                ("TouchPass", 200_000),
                ("CountPrinter", 800_000),
                ("TouchPass #2", 3_200_000)
            ]
        );
        let mut out = String::new();
        timer.write_report(&mut out).unwrap();
        let expected = "\
===-------------------------------------------------------------------------===
                          Pass execution timing report
===-------------------------------------------------------------------------===
  Total Execution Time: 0.0042 seconds (0.0042 wall clock)

   ---Wall Time---  --- Name ---
   0.0032 ( 76.2%)  TouchPass #2
   0.0008 ( 19.0%)  CountPrinter
   0.0002 (  4.8%)  TouchPass
   0.0042 (100.0%)  Total

";
        assert_eq!(out, expected);
    }
}
