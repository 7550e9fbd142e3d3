//! `inline` (`InlinerPass`): the cost-driven inliner of spec 001.
//!
//! # Walk: one run reaches a fixed point
//!
//! Functions are visited bottom-up over the SCCs of the direct-call graph
//! ([`Sccs`]): callees are finished before their callers, as in cicc's
//! `Inliner::inlineCallsImpl`. A visit walks the caller's call sites in
//! layout order, followed by the call sites each inlining copies in, and
//! walks them again until a walk inlines nothing. When a visit changes a
//! function, the functions whose decisions read it are visited again: its
//! callers (they priced its old body), the last remaining caller of a
//! local callee (models B and C give it LLVM's last-call bonus), and the
//! functions refused by the module-wide cap once erasures shrink the
//! module. Internal (discardable) callees left without uses are erased
//! right after the visit that inlined them, not at the end.
//!
//! Every decision is a function of the current IR and the knobs; no budget
//! is a counter of the run. So when the run ends, every remaining call is
//! one that the same decision refuses on the output, and a second run
//! changes nothing: `inline` is idempotent for every model (the property
//! tests and `tests/lit/inline/idempotent.ll` check it).
//!
//! # Budgets as caps on the IR (choice)
//!
//! Spec 001 "Two-Budget System" describes `inline-budget` as a per-caller
//! limit that "caps how much code can be inlined into a single function"
//! and `inline-total-budget` as a module-wide limit on "the total amount of
//! inlining"; cicc charges each inlined call's cost to counters that live
//! for one run. A second run would then grant every caller a fresh budget
//! and keep inlining into what the first run expanded, so nvpass reads the
//! budgets as caps on what the IR is now, with the spec's numbers:
//!
//! - a call is inlined only when `size(caller) + cost <= budget`, where the
//!   budget is `inline-budget` (20000; `aggressive-inline` makes the default
//!   40000), or `inline-adj-budget1` for kernels when it is set;
//! - with `inline-total-budget` set, also `size(module) + cost <= total`.
//!
//! A function's size is its instructions that survive code generation (not
//! debug, lifetime or `assume` markers) at the model's instruction cost
//! (model A: [`MODEL_A_INST_COST`]; models B and C: `inline-instr-cost`),
//! the module's size the sum over its definitions. The cost charged is the
//! model's cost, at least 0. Remarks report the room left
//! (`budget - size(caller)`) as the threshold (model A) or `Budget`.
//!
//! # Models (option `model`)
//!
//! - `nvidia` (default): model A ([`model_a_cost`]) with model D
//!   ([`with_model_d`]) on top; a call is inlined when its cost fits the
//!   caps above.
//! - `llvm`: model B ([`model_b_cost`]) + model D; a call is inlined when
//!   `cost < threshold` (LLVM's rule) and it fits the caps.
//! - `cgscc`: model C ([`model_c_cost`]) + model D: model B with calls
//!   inside one SCC multiplied by `function-inline-cost-multiplier`. The
//!   advisor mode comes from `enable-ml-inliner`; only `default` is
//!   available (the ML modes need a model nvpass does not ship, and the pass
//!   is refused at pipeline construction).
//!
//! With `nv-inline-all` every call with a visible body is inlined (model A's
//! force-all mode; recursion is still refused, see below). Callees with
//! `alwaysinline` are always inlined (unless recursive), `noinline` never,
//! in every model; a call site with `noinline` is not inlined unless the
//! callee is `alwaysinline` (LLVM's order).
//!
//! # Recursion (choice)
//!
//! A callee that is recursive (its SCC has more than one function, or it
//! calls itself) is never inlined by models A and B, nor by any model when
//! the caller is outside its SCC; an `alwaysinline` callee in a cycle is
//! refused as `inline-must` refuses it. LLVM unrolls such calls once per
//! run through its inline history, which a second run does not remember, so
//! every run would unroll once more. Model C inlines a call between two
//! functions of one SCC when the callee does not call itself and the
//! multiplied cost passes; the calls this copy brings in that target the
//! caller's SCC get the call-site attribute `noinline`, which records the
//! one unrolling in the IR (as LLVM records its intra-SCC cost multiplier
//! as a call-site attribute), and the SCCs are recomputed.
//!
//! Termination: an inlining outside recursion replaces a call by calls to
//! functions strictly lower in the SCC order, and an inlining inside an SCC
//! removes one unmarked call inside the SCC and adds only marked ones, so
//! the run ends on every input.
//!
//! # Remarks
//!
//! LLVM's inliner remarks: `Passed` `Inlined` ("'callee' inlined into
//! 'caller' with (cost=C, threshold=T)"), `Missed` `TooCostly` (cost over
//! threshold), `Missed` `BudgetExhausted` (with `Budget`), `Missed`
//! `NeverInline` (with the model's reason). Each carries `Callee`, `Caller`,
//! `Cost`, `Threshold` or `Budget`, and `Reason` as arguments. Misses for
//! intrinsics and declarations are not reported (LLVM does not either);
//! `profuseinline` adds them.
//!
//! Missed remarks are those of each function's last visit, emitted at the
//! end of the run (callees first).
//!
//! Allocas are merged after inlining ([`super::merge`]) unless
//! `disable-inlined-alloca-merging` is set.

use alloc::collections::VecDeque;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use hashbrown::{HashMap, HashSet};

use nvpass_core::diag::{Diagnostic, RemarkKind};
use nvpass_core::inline_cost::{
    cost_below_threshold, direct_callee, is_free_marker, model_a_cost, model_b_cost, model_c_cost,
    with_model_d, AdvisorMode, ModelAParams, ModelBParams, Verdict, AGGRESSIVE_INLINE_BUDGET,
    INLINER_KNOBS, INTRINSIC_NAME_PREFIX, KNOB_AGGRESSIVE_INLINE,
    KNOB_DISABLE_INLINED_ALLOCA_MERGING, KNOB_ENABLE_ML_INLINER,
    KNOB_FUNCTION_INLINE_COST_MULTIPLIER, KNOB_INLINECOLD_THRESHOLD, KNOB_INLINEHINT_THRESHOLD,
    KNOB_INLINE_ADJ_BUDGET1, KNOB_INLINE_BUDGET, KNOB_INLINE_CALL_PENALTY,
    KNOB_INLINE_COLD_CALLSITE_THRESHOLD, KNOB_INLINE_INSTR_COST, KNOB_INLINE_MAXSWITCHCASES,
    KNOB_INLINE_MEMACCESS_COST, KNOB_INLINE_NUMSWITCHFUNC, KNOB_INLINE_SWITCHCTRL,
    KNOB_INLINE_THRESHOLD, KNOB_INLINE_TOTAL_BUDGET, KNOB_NV_INLINE_ALL, KNOB_PROFUSEINLINE,
    MODEL_A_INST_COST,
};
use nvpass_core::ir::{Attr, AttrKey, AttrKind, AttrSlot, FuncId, InstId, IrEdit, IrView, User};
use nvpass_core::kernel::is_kernel_function;
use nvpass_core::knob::{KnobInfo, KnobKind};
use nvpass_core::pass::{
    ModulePass, PassContext, PassFailure, PassInfo, PassOptions, PreservedOrChanged,
};
use nvpass_core::stats::StatInfo;
use nvpass_core::worklist::OrderedQueue;

use super::callgraph::{call_sites, Sccs};
use super::is_dead_discardable;
use super::merge::CallerInliner;

/// Option `model`: `nvidia` (model A, default), `llvm` (model B) or `cgscc`
/// (model C); model D applies to all three.
///
/// Spec 001 "Why Four Inliner Models".
pub const OPT_MODEL: KnobInfo = KnobInfo {
    name: "model",
    kind: KnobKind::Str,
    default: "nvidia",
    description: "Cost model: nvidia, llvm or cgscc",
};

/// `inline`.
pub const INLINER_INFO: PassInfo = PassInfo {
    name: "inline",
    class_name: "InlinerPass",
    description: "Cost-driven inliner over call-graph SCCs (spec 001 cost models)",
    knobs: INLINER_KNOBS,
    options: &[OPT_MODEL],
};

/// Statistic: call sites inlined.
pub const NUM_INLINED: StatInfo = StatInfo {
    name: "NumInlined",
    description: "Number of call sites inlined",
};
/// Statistic: allocas merged.
pub const NUM_MERGED_ALLOCAS: StatInfo = StatInfo {
    name: "NumMergedAllocas",
    description: "Number of inlined allocas merged into earlier ones",
};
/// Statistic: functions deleted.
pub const NUM_DELETED: StatInfo = StatInfo {
    name: "NumDeleted",
    description: "Number of internal callees deleted after inlining",
};

/// The cost model selected by option `model`.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Model {
    /// Model A.
    Nvidia,
    /// Model B.
    Llvm,
    /// Model C.
    Cgscc,
}

impl Model {
    /// Parses the option value.
    pub fn parse(s: &str) -> Option<Model> {
        match s {
            "nvidia" => Some(Model::Nvidia),
            "llvm" => Some(Model::Llvm),
            "cgscc" => Some(Model::Cgscc),
            _ => None,
        }
    }
}

/// The `inline` pass.
#[derive(Clone, Debug)]
pub struct Inliner {
    model: Model,
}

impl Inliner {
    /// From pipeline options; refuses unknown models.
    pub fn new(opts: &PassOptions) -> Result<Inliner, String> {
        let s = opts.str(&OPT_MODEL);
        let model = Model::parse(&s)
            .ok_or_else(|| format!("unknown model '{s}'; valid models: nvidia, llvm, cgscc"))?;
        Ok(Inliner { model })
    }
}

struct Knobs {
    a: ModelAParams,
    b: ModelBParams,
    budget: i64,
    kernel_budget: i64,
    total_budget: Option<i64>,
    multiplier: i64,
    merge: bool,
    profuse: bool,
}

fn read_knobs(cx: &PassContext<'_>) -> Result<Knobs, PassFailure> {
    let explicit_budget = cx.knobs().explicit(KNOB_INLINE_BUDGET.name).is_some();
    let budget = if cx.knob_bool(&KNOB_AGGRESSIVE_INLINE) && !explicit_budget {
        AGGRESSIVE_INLINE_BUDGET
    } else {
        cx.knob_int(&KNOB_INLINE_BUDGET)
    };
    let adj = cx.knob_int(&KNOB_INLINE_ADJ_BUDGET1);
    let total = cx.knob_int(&KNOB_INLINE_TOTAL_BUDGET);
    let mode = cx.knob_str(&KNOB_ENABLE_ML_INLINER);
    match AdvisorMode::parse(&mode) {
        Some(AdvisorMode::Default) => {}
        Some(_) => {
            return Err(PassFailure::new(format!(
                "enable-ml-inliner={mode}: the ML inline advisor needs a model that nvpass does not provide"
            )))
        }
        None => {
            return Err(PassFailure::new(format!(
                "enable-ml-inliner={mode}: expected default, development or release"
            )))
        }
    }
    Ok(Knobs {
        a: ModelAParams {
            budget,
            inline_all: cx.knob_bool(&KNOB_NV_INLINE_ALL),
            switch_ctrl: cx.knob_int(&KNOB_INLINE_SWITCHCTRL),
            num_switch_func: cx.knob_int(&KNOB_INLINE_NUMSWITCHFUNC),
            max_switch_cases: cx.knob_int(&KNOB_INLINE_MAXSWITCHCASES),
        },
        b: ModelBParams {
            threshold: cx.knob_int(&KNOB_INLINE_THRESHOLD),
            hint_threshold: cx.knob_int(&KNOB_INLINEHINT_THRESHOLD),
            cold_callsite_threshold: cx.knob_int(&KNOB_INLINE_COLD_CALLSITE_THRESHOLD),
            cold_threshold: cx.knob_int(&KNOB_INLINECOLD_THRESHOLD),
            instr_cost: cx.knob_int(&KNOB_INLINE_INSTR_COST),
            call_penalty: cx.knob_int(&KNOB_INLINE_CALL_PENALTY),
            memaccess_cost: cx.knob_int(&KNOB_INLINE_MEMACCESS_COST),
        },
        budget,
        kernel_budget: if adj >= 0 { adj } else { budget },
        total_budget: (total >= 0).then_some(total),
        multiplier: cx.knob_int(&KNOB_FUNCTION_INLINE_COST_MULTIPLIER),
        merge: !cx.knob_bool(&KNOB_DISABLE_INLINED_ALLOCA_MERGING),
        profuse: cx.knob_bool(&KNOB_PROFUSEINLINE),
    })
}

enum Decision {
    Inline {
        cost: i64,
        threshold: i64,
        why: &'static str,
        intra_scc: bool,
    },
    TooCostly {
        cost: i64,
        threshold: i64,
    },
    Budget {
        cost: i64,
        budget: i64,
        module_wide: bool,
    },
    Never(&'static str),
}

/// The state of one run: the call graph, the queue of functions to
/// (re)visit, cached sizes, and the Missed remarks of each function's last
/// visit.
struct Run<'k> {
    k: &'k Knobs,
    model: Model,
    sccs: Sccs,
    /// The places in `sccs.members()` of the functions to (re)visit.
    queue: OrderedQueue,
    erased: HashSet<FuncId>,
    /// Exact size of each measured function, in instructions that survive
    /// code generation; kept up to date as calls are inlined into it.
    sizes: HashMap<FuncId, usize>,
    /// [`Run::module_weight`] while it is known: kept up to date as calls
    /// are inlined and functions erased, so that the module-wide cap,
    /// asked at every call it judges, does not sum every function each
    /// time (quadratic in a module of many inlined helpers).
    module_size: Option<i64>,
    /// By function index: whether the function's name starts with
    /// [`INTRINSIC_NAME_PREFIX`] (0: not asked yet, 1: no, 2: yes). The
    /// inliner renames no function, so an answer holds for the run, and
    /// a call site asks one byte instead of reading the name (see
    /// [`Run::is_intrinsic`]).
    intrinsic: Vec<u8>,
    /// Functions whose last visit hit the module-wide cap, with the module
    /// size at that visit.
    capped_by_module: HashMap<FuncId, i64>,
    missed: HashMap<FuncId, Vec<Diagnostic>>,
    changed: bool,
}

impl<'k> Run<'k> {
    fn new<M: IrView + ?Sized>(m: &M, k: &'k Knobs, model: Model) -> Run<'k> {
        let mut run = Run {
            k,
            model,
            sccs: Sccs::default(),
            queue: OrderedQueue::default(),
            erased: HashSet::new(),
            sizes: HashMap::new(),
            module_size: None,
            intrinsic: Vec::new(),
            capped_by_module: HashMap::new(),
            missed: HashMap::new(),
            changed: false,
        };
        run.recompute_sccs(m);
        run
    }

    /// Recomputes the SCCs and queues every function.
    fn recompute_sccs<M: IrView + ?Sized>(&mut self, m: &M) {
        self.sccs = Sccs::compute(m);
        self.queue = OrderedQueue::full(self.sccs.members().len());
    }

    /// Whether `f` is an intrinsic by name, asked of `m` once per
    /// function.
    fn is_intrinsic<M: IrView + ?Sized>(&mut self, m: &M, f: FuncId) -> bool {
        let i = f.index();
        if i >= self.intrinsic.len() {
            self.intrinsic.resize(i + 1, 0);
        }
        if self.intrinsic[i] == 0 {
            self.intrinsic[i] = 1 + u8::from(m.func_name_starts_with(f, INTRINSIC_NAME_PREFIX));
        }
        self.intrinsic[i] == 2
    }

    fn requeue(&mut self, f: FuncId) {
        if let Some(p) = self.sccs.position(f) {
            self.queue.insert(p);
        }
    }

    /// The size of `f`: its instructions that survive code generation
    /// (not [`is_free_marker`]), each at the model's instruction cost.
    fn weight<M: IrView + ?Sized>(&mut self, m: &M, f: FuncId) -> i64 {
        let unit = self.inst_unit();
        let n = *self.sizes.entry(f).or_insert_with(|| surviving_insts(m, f));
        (n as i64).saturating_mul(unit)
    }

    /// The size of the module: the sum of [`Run::weight`] over its
    /// definitions.
    fn module_weight<M: IrView + ?Sized>(&mut self, m: &M) -> i64 {
        if let Some(w) = self.module_size {
            return w;
        }
        let funcs: Vec<FuncId> = m.funcs().filter(|&f| !m.func_is_declaration(f)).collect();
        let w = funcs
            .into_iter()
            .map(|f| self.weight(m, f))
            .fold(0i64, i64::saturating_add);
        // A saturated sum could not follow the changes exactly.
        if w < i64::MAX {
            self.module_size = Some(w);
        }
        w
    }

    /// The model's cost of one instruction, the unit of [`Run::weight`].
    fn inst_unit(&self) -> i64 {
        match self.model {
            Model::Nvidia => MODEL_A_INST_COST,
            Model::Llvm | Model::Cgscc => self.k.b.instr_cost,
        }
    }

    fn go<M: IrEdit + ?Sized>(&mut self, m: &mut M, cx: &mut PassContext<'_>) {
        loop {
            while let Some(p) = self.queue.pop_first() {
                let f = self.sccs.members()[p];
                if !self.erased.contains(&f) {
                    self.visit(m, cx, f);
                    // Between visits the run holds functions and no
                    // instruction or value: the bodies erased by the
                    // visit can be reused by the next one.
                    m.reclaim_erased();
                }
            }
            // The module-wide cap: a function refused by it may fit after
            // erasures shrank the module.
            if self.k.total_budget.is_some() {
                let now = self.module_weight(m);
                let again: Vec<FuncId> = self
                    .capped_by_module
                    .iter()
                    .filter(|&(_, &w)| now < w)
                    .map(|(&f, _)| f)
                    .collect();
                for f in again {
                    self.requeue(f);
                }
            }
            if self.queue.is_empty() {
                break;
            }
        }
        for f in self.sccs.members() {
            for d in self.missed.remove(f).unwrap_or_default() {
                cx.emit(d);
            }
        }
    }

    /// Inlines into `caller` until none of its calls is accepted, then
    /// erases callees left dead and queues the functions whose decisions
    /// may have changed.
    fn visit<M: IrEdit + ?Sized>(&mut self, m: &mut M, cx: &mut PassContext<'_>, caller: FuncId) {
        // Without a call of a defined function every call is skipped
        // below, so the body is not walked. Inlining adds calls only to a
        // function that had one, and the SCCs are recomputed whenever
        // they change otherwise, so the set stays exact for this purpose.
        if !self.k.profuse && !self.sccs.has_callees(caller) {
            self.missed.remove(&caller);
            self.capped_by_module.remove(&caller);
            return;
        }
        let cap = if is_kernel_function(m, caller) {
            self.k.kernel_budget
        } else {
            self.k.budget
        };
        // Made at the first inlining: most visits inline nothing.
        let mut st: Option<CallerInliner> = None;
        let mut inlined_from: Vec<FuncId> = Vec::new();
        loop {
            let mut missed: Vec<Diagnostic> = Vec::new();
            let mut module_capped: Option<i64> = None;
            let mut inlined = false;
            let mut work: VecDeque<InstId> = call_sites(m, caller).into();
            while let Some(call) = work.pop_front() {
                let Some(callee) = direct_callee(m, call) else {
                    continue;
                };
                let quiet = m.func_is_declaration(callee) || self.is_intrinsic(m, callee);
                if quiet && !self.k.profuse {
                    continue;
                }
                let decision = self.decide(m, cap, caller, call, callee);
                // Remarks are built only when they are kept.
                let keep = cx.remarks_enabled();
                let (caller_name, callee_name) = if keep {
                    (
                        m.func_name(caller).to_string(),
                        m.func_name(callee).to_string(),
                    )
                } else {
                    (String::new(), String::new())
                };
                let missed_remark = |kind: &'static str, text: String| {
                    cx.remark(RemarkKind::Missed, kind)
                        .in_function(caller_name.clone())
                        .at(m.debug_loc(call))
                        .text("'")
                        .arg("Callee", callee_name.clone())
                        .text("' not inlined into '")
                        .arg("Caller", caller_name.clone())
                        .text(text)
                };
                match decision {
                    Decision::Inline {
                        cost,
                        threshold,
                        why,
                        intra_scc,
                    } => {
                        // Calls the copy brings in that stay inside the
                        // caller's component (recursion).
                        let call_counted = !is_free_marker(m, call);
                        let st = st.get_or_insert_with(|| {
                            CallerInliner::new(self.k.merge).counting_sizes()
                        });
                        match st.inline(m, call, callee) {
                            Ok(done) => {
                                inlined = true;
                                self.changed = true;
                                // The caller lost the call and gained the
                                // copy: its size follows without a recount
                                // (which, per inlined call, would make
                                // inlining quadratic in the caller's size).
                                let unit = self.inst_unit();
                                match (done.added_size, self.sizes.get_mut(&caller)) {
                                    (Some(added), Some(n)) => {
                                        *n = *n - usize::from(call_counted) + added;
                                        debug_assert_eq!(*n, surviving_insts(m, caller));
                                        if let Some(w) = self.module_size.as_mut() {
                                            let grown = added as i64 - i64::from(call_counted);
                                            *w = w.saturating_add(grown.saturating_mul(unit));
                                        }
                                    }
                                    _ => {
                                        self.sizes.remove(&caller);
                                        self.module_size = None;
                                    }
                                }
                                inlined_from.push(callee);
                                cx.add_stat(&NUM_INLINED, 1);
                                cx.add_stat(&NUM_MERGED_ALLOCAS, done.merged_allocas);
                                if intra_scc {
                                    self.stop_recursion(m, caller, &done.new_calls);
                                }
                                work.extend(done.new_calls);
                                if keep {
                                    let d = cx
                                        .remark(RemarkKind::Passed, "Inlined")
                                        .in_function(caller_name.clone())
                                        .text("'")
                                        .arg("Callee", callee_name)
                                        .text("' inlined into '")
                                        .arg("Caller", caller_name)
                                        .text("' with (cost=")
                                        .arg("Cost", cost.to_string())
                                        .text(", threshold=")
                                        .arg("Threshold", threshold.to_string())
                                        .text("): ")
                                        .arg("Reason", why);
                                    cx.emit(d);
                                }
                                if intra_scc {
                                    self.recompute_sccs(m);
                                }
                            }
                            Err(e) if keep => {
                                let d = cx
                                    .remark(RemarkKind::Missed, "NotInlined")
                                    .in_function(caller_name.clone())
                                    .text("'")
                                    .arg("Callee", callee_name)
                                    .text("' not inlined into '")
                                    .arg("Caller", caller_name)
                                    .text("' because ")
                                    .arg("Reason", e.to_string());
                                missed.push(d);
                            }
                            Err(_) => {}
                        }
                    }
                    Decision::TooCostly { cost, threshold } if keep => {
                        let d = missed_remark(
                            "TooCostly",
                            String::from("' because too costly to inline (cost="),
                        )
                        .arg("Cost", cost.to_string())
                        .text(", threshold=")
                        .arg("Threshold", threshold.to_string())
                        .text(")");
                        missed.push(d);
                    }
                    Decision::Budget {
                        cost,
                        budget,
                        module_wide,
                    } => {
                        if module_wide {
                            module_capped = Some(self.module_weight(m));
                        }
                        if !keep {
                            continue;
                        }
                        let d = missed_remark(
                            "BudgetExhausted",
                            String::from("' because the inline budget is exhausted (cost="),
                        )
                        .arg("Cost", cost.to_string())
                        .text(", budget=")
                        .arg("Budget", budget.to_string())
                        .text(")");
                        missed.push(d);
                    }
                    Decision::Never(reason) if keep => {
                        let d = missed_remark(
                            "NeverInline",
                            String::from("' because it should never be inlined (cost=never): "),
                        )
                        .arg("Reason", reason);
                        missed.push(d);
                    }
                    Decision::TooCostly { .. } | Decision::Never(_) => {}
                }
            }
            self.missed.insert(caller, missed);
            match module_capped {
                Some(w) => self.capped_by_module.insert(caller, w),
                None => self.capped_by_module.remove(&caller),
            };
            if !inlined {
                break;
            }
        }
        if inlined_from.is_empty() {
            return;
        }
        // The callers of `caller` priced its old body.
        let users: Vec<InstId> = m.direct_calls_of(caller).collect();
        for u in users {
            self.requeue(m.inst_func(u));
        }
        // Callees left dead go now, so that the next visits see the module
        // a second run would see.
        inlined_from.sort_unstable();
        inlined_from.dedup();
        let mut fewer_users = inlined_from.clone();
        for f in inlined_from {
            if self.erased.contains(&f) || f == caller || !is_dead_discardable(m, f) {
                continue;
            }
            let callees: Vec<FuncId> = call_sites(m, f)
                .into_iter()
                .filter_map(|c| direct_callee(m, c))
                .collect();
            // Measured only for a running total (a function inlined
            // everywhere need not have been measured).
            let w = self.module_size.is_some().then(|| self.weight(m, f));
            if m.erase_function(f).is_ok() {
                self.erased.insert(f);
                self.sizes.remove(&f);
                if let (Some(total), Some(w)) = (self.module_size.as_mut(), w) {
                    *total = total.saturating_sub(w);
                }
                // An erased function is not visited again, so its entry
                // would never be refreshed: the module-wide cap would then
                // requeue it after every round, forever.
                self.capped_by_module.remove(&f);
                cx.add_stat(&NUM_DELETED, 1);
                fewer_users.extend(callees);
            }
        }
        // Models B and C give the last call to a local function a bonus.
        if self.model != Model::Nvidia {
            fewer_users.sort_unstable();
            fewer_users.dedup();
            for g in fewer_users {
                if self.erased.contains(&g) || !m.func_linkage(g).is_local() {
                    continue;
                }
                let mut users = m.users(m.func_value(g));
                if let (Some(User::Inst(u)), None) = (users.next(), users.next()) {
                    self.requeue(m.inst_func(u));
                }
            }
        }
    }

    /// After an inlining inside one component (model C), the copied calls
    /// that target the caller's component get the call-site `noinline`
    /// attribute: the recursion is unrolled once, and the mark keeps it so
    /// for later visits and later runs.
    fn stop_recursion<M: IrEdit + ?Sized>(&mut self, m: &mut M, caller: FuncId, calls: &[InstId]) {
        for &c in calls {
            if direct_callee(m, c).is_some_and(|g| self.sccs.same_scc(g, caller)) {
                let _ = m.add_call_attr(c, AttrSlot::Function, Attr::Enum(AttrKind::NoInline));
            }
        }
    }

    fn decide<M: IrView + ?Sized>(
        &mut self,
        m: &M,
        cap: i64,
        caller: FuncId,
        call: InstId,
        callee: FuncId,
    ) -> Decision {
        let k = self.k;
        if m.func_is_declaration(callee) {
            return Decision::Never("no definition");
        }
        if callee == caller {
            return Decision::Never("recursive call");
        }
        let has = |kd| m.has_attr(callee, AttrSlot::Function, AttrKey::Kind(kd));
        if m.func_linkage(callee).is_interposable() {
            return Decision::Never("interposable");
        }
        if has(AttrKind::NoInline) {
            return Decision::Never("noinline function attribute");
        }
        let recursive = self.sccs.is_recursive(callee);
        if has(AttrKind::AlwaysInline) {
            if recursive {
                return Decision::Never("recursive cycle");
            }
            return Decision::Inline {
                cost: 0,
                threshold: 0,
                why: "always inline attribute",
                intra_scc: false,
            };
        }
        if m.call_has_attr(call, AttrSlot::Function, AttrKey::Kind(AttrKind::NoInline)) {
            return Decision::Never("noinline call site attribute");
        }
        let intra_scc = recursive
            && self.model == Model::Cgscc
            && self.sccs.same_scc(callee, caller)
            && !self.sccs.calls_itself(callee);
        if recursive && !intra_scc {
            return Decision::Never("recursive call");
        }
        let verdict = match self.model {
            Model::Nvidia => with_model_d(m, callee, model_a_cost(m, call, &k.a), true),
            Model::Llvm => with_model_d(m, callee, model_b_cost(m, call, &k.b), false),
            Model::Cgscc => with_model_d(
                m,
                callee,
                model_c_cost(m, call, &k.b, intra_scc, k.multiplier),
                false,
            ),
        };
        let (cost, threshold) = match verdict {
            Verdict::Always(why) => {
                return Decision::Inline {
                    cost: 0,
                    threshold: 0,
                    why,
                    intra_scc,
                }
            }
            Verdict::Never(why) => return Decision::Never(why),
            Verdict::Cost { cost, threshold } => (cost, threshold),
        };
        if self.model != Model::Nvidia && !cost_below_threshold(cost, threshold) {
            return Decision::TooCostly { cost, threshold };
        }
        let charged = cost.max(0);
        let left = cap.saturating_sub(self.weight(m, caller));
        if charged > left {
            return Decision::Budget {
                cost,
                budget: left,
                module_wide: false,
            };
        }
        if let Some(total) = k.total_budget {
            let used = self.module_weight(m);
            if used.saturating_add(charged) > total {
                return Decision::Budget {
                    cost,
                    budget: total.saturating_sub(used),
                    module_wide: true,
                };
            }
        }
        Decision::Inline {
            cost,
            threshold: if self.model == Model::Nvidia {
                left
            } else {
                threshold
            },
            why: "cost within threshold and budget",
            intra_scc,
        }
    }
}

/// The instructions of `f` that survive code generation.
fn surviving_insts<M: IrView + ?Sized>(m: &M, f: FuncId) -> usize {
    m.blocks(f)
        .flat_map(|b| m.insts(b))
        .filter(|&i| !is_free_marker(m, i))
        .count()
}

impl<M: IrEdit + ?Sized> ModulePass<M> for Inliner {
    fn info(&self) -> &'static PassInfo {
        &INLINER_INFO
    }

    fn run(
        &mut self,
        m: &mut M,
        cx: &mut PassContext<'_>,
    ) -> Result<PreservedOrChanged, PassFailure> {
        let k = read_knobs(cx)?;
        let mut run = Run::new(m, &k, self.model);
        run.go(m, cx);
        Ok(PreservedOrChanged::from_changed(run.changed))
    }
}
