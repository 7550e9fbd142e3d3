//! `inline` (`InlinerPass`): the cost-driven inliner of spec 001.
//!
//! # Walk
//!
//! Bottom-up over the SCCs of the direct-call graph ([`Sccs`]): callees are
//! finished before their callers, as in cicc's `Inliner::inlineCallsImpl`.
//! Within an SCC, each function's call sites are visited in layout order,
//! followed by the call sites each inlining copies in.
//!
//! # Models (option `model`)
//!
//! - `nvidia` (default): model A ([`model_a_cost`]) with model D
//!   ([`with_model_d`]) on top. A call is inlined when its cost fits in the
//!   caller's remaining budget: `inline-budget` (20000;
//!   `aggressive-inline` makes the default 40000), or for kernels
//!   `inline-adj-budget1` when it is set. The module-wide
//!   `inline-total-budget` (unlimited by default) caps the sum over all
//!   callers. Each inlined call's cost is charged to both.
//! - `llvm`: model B ([`model_b_cost`]) + model D; a call is inlined when
//!   `cost < threshold` (LLVM's rule), and the budgets above also apply.
//! - `cgscc`: model C ([`model_c_cost`]) + model D: model B with calls
//!   inside one SCC multiplied by `function-inline-cost-multiplier`. The
//!   advisor mode comes from `enable-ml-inliner`; only `default` is
//!   available (the ML modes need a model nvpass does not ship, and the pass
//!   is refused at pipeline construction).
//!
//! With `nv-inline-all` every call with a visible body is inlined (model A's
//! force-all mode; recursion is still broken). Callees with `alwaysinline`
//! are always inlined, `noinline` never, in every model.
//!
//! Recursive calls (callee in the caller's SCC) are never inlined by models
//! A and B; model C prices them with its multiplier, and the inline
//! history ([`CallerInliner::in_history`]) stops any cycle after one
//! unrolling.
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
//! Allocas are merged after inlining ([`super::merge`]) unless
//! `disable-inlined-alloca-merging` is set; internal callees left without
//! uses are erased.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use nvpass_core::diag::RemarkKind;
use nvpass_core::inline_cost::{
    cost_below_threshold, direct_callee, model_a_cost, model_b_cost, model_c_cost, with_model_d,
    AdvisorMode, ModelAParams, ModelBParams, Verdict, AGGRESSIVE_INLINE_BUDGET, INLINER_KNOBS,
    INTRINSIC_NAME_PREFIX, KNOB_AGGRESSIVE_INLINE, KNOB_DISABLE_INLINED_ALLOCA_MERGING,
    KNOB_ENABLE_ML_INLINER, KNOB_FUNCTION_INLINE_COST_MULTIPLIER, KNOB_INLINECOLD_THRESHOLD,
    KNOB_INLINEHINT_THRESHOLD, KNOB_INLINE_ADJ_BUDGET1, KNOB_INLINE_BUDGET,
    KNOB_INLINE_CALL_PENALTY, KNOB_INLINE_COLD_CALLSITE_THRESHOLD, KNOB_INLINE_INSTR_COST,
    KNOB_INLINE_MAXSWITCHCASES, KNOB_INLINE_MEMACCESS_COST, KNOB_INLINE_NUMSWITCHFUNC,
    KNOB_INLINE_SWITCHCTRL, KNOB_INLINE_THRESHOLD, KNOB_INLINE_TOTAL_BUDGET, KNOB_NV_INLINE_ALL,
    KNOB_PROFUSEINLINE,
};
use nvpass_core::ir::{AttrKey, AttrKind, AttrSlot, FuncId, InstId, IrEdit, IrView};
use nvpass_core::kernel::is_kernel_function;
use nvpass_core::knob::{KnobInfo, KnobKind};
use nvpass_core::pass::{
    ModulePass, PassContext, PassFailure, PassInfo, PassOptions, PreservedOrChanged,
};
use nvpass_core::stats::StatInfo;

use super::callgraph::{call_sites, Sccs};
use super::merge::CallerInliner;
use super::remove_dead_callees;

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
    },
    TooCostly {
        cost: i64,
        threshold: i64,
    },
    Budget {
        cost: i64,
        budget: i64,
    },
    Never(&'static str),
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
        let sccs = Sccs::compute(m);
        let mut total_used: i64 = 0;
        let mut inlined_from: Vec<FuncId> = Vec::new();
        let mut changed = false;
        for comp in &sccs.order {
            for &caller in comp {
                let mut budget_left = if is_kernel_function(m, caller) {
                    k.kernel_budget
                } else {
                    k.budget
                };
                let mut st = CallerInliner::new(k.merge);
                let mut work: alloc::collections::VecDeque<InstId> = call_sites(m, caller).into();
                while let Some(call) = work.pop_front() {
                    let Some(callee) = direct_callee(m, call) else {
                        continue;
                    };
                    let quiet = m.func_name(callee).starts_with(INTRINSIC_NAME_PREFIX)
                        || m.func_is_declaration(callee);
                    if quiet && !k.profuse {
                        continue;
                    }
                    let decision = self.decide(
                        m,
                        &k,
                        &sccs,
                        &st,
                        caller,
                        call,
                        callee,
                        budget_left,
                        total_used,
                    );
                    let caller_name = m.func_name(caller).to_string();
                    let callee_name = m.func_name(callee).to_string();
                    match decision {
                        Decision::Inline {
                            cost,
                            threshold,
                            why,
                        } => match st.inline(m, call, callee) {
                            Ok(done) => {
                                changed = true;
                                let charged = cost.max(0);
                                budget_left -= charged;
                                total_used += charged;
                                inlined_from.push(callee);
                                cx.add_stat(&NUM_INLINED, 1);
                                cx.add_stat(&NUM_MERGED_ALLOCAS, done.merged_allocas);
                                work.extend(done.new_calls);
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
                            Err(e) => {
                                let d = cx
                                    .remark(RemarkKind::Missed, "NotInlined")
                                    .in_function(caller_name.clone())
                                    .text("'")
                                    .arg("Callee", callee_name)
                                    .text("' not inlined into '")
                                    .arg("Caller", caller_name)
                                    .text("' because ")
                                    .arg("Reason", e.to_string());
                                cx.emit(d);
                            }
                        },
                        Decision::TooCostly { cost, threshold } => {
                            let d = cx
                                .remark(RemarkKind::Missed, "TooCostly")
                                .in_function(caller_name.clone())
                                .at(m.debug_loc(call))
                                .text("'")
                                .arg("Callee", callee_name)
                                .text("' not inlined into '")
                                .arg("Caller", caller_name)
                                .text("' because too costly to inline (cost=")
                                .arg("Cost", cost.to_string())
                                .text(", threshold=")
                                .arg("Threshold", threshold.to_string())
                                .text(")");
                            cx.emit(d);
                        }
                        Decision::Budget { cost, budget } => {
                            let d = cx
                                .remark(RemarkKind::Missed, "BudgetExhausted")
                                .in_function(caller_name.clone())
                                .at(m.debug_loc(call))
                                .text("'")
                                .arg("Callee", callee_name)
                                .text("' not inlined into '")
                                .arg("Caller", caller_name)
                                .text("' because the inline budget is exhausted (cost=")
                                .arg("Cost", cost.to_string())
                                .text(", budget=")
                                .arg("Budget", budget.to_string())
                                .text(")");
                            cx.emit(d);
                        }
                        Decision::Never(reason) => {
                            let d = cx
                                .remark(RemarkKind::Missed, "NeverInline")
                                .in_function(caller_name.clone())
                                .at(m.debug_loc(call))
                                .text("'")
                                .arg("Callee", callee_name)
                                .text("' not inlined into '")
                                .arg("Caller", caller_name)
                                .text("' because it should never be inlined (cost=never): ")
                                .arg("Reason", reason);
                            cx.emit(d);
                        }
                    }
                }
            }
        }
        let deleted = remove_dead_callees(m, &inlined_from);
        cx.add_stat(&NUM_DELETED, deleted);
        Ok(PreservedOrChanged::from_changed(changed || deleted > 0))
    }
}

impl Inliner {
    #[allow(clippy::too_many_arguments)]
    fn decide<M: IrView + ?Sized>(
        &self,
        m: &M,
        k: &Knobs,
        sccs: &Sccs,
        st: &CallerInliner,
        caller: FuncId,
        call: InstId,
        callee: FuncId,
        budget_left: i64,
        total_used: i64,
    ) -> Decision {
        if m.func_is_declaration(callee) {
            return Decision::Never("no definition");
        }
        let has = |kd| m.has_attr(callee, AttrSlot::Function, AttrKey::Kind(kd));
        let recursive = callee == caller || sccs.same_scc(callee, caller);
        if st.in_history(call, callee) || callee == caller {
            return Decision::Never("recursive call");
        }
        if m.func_linkage(callee).is_interposable() {
            return Decision::Never("interposable");
        }
        if has(AttrKind::NoInline) {
            return Decision::Never("noinline function attribute");
        }
        if has(AttrKind::AlwaysInline) {
            return Decision::Inline {
                cost: 0,
                threshold: 0,
                why: "always inline attribute",
            };
        }
        if recursive && self.model != Model::Cgscc {
            return Decision::Never("recursive call");
        }
        let verdict = match self.model {
            Model::Nvidia => with_model_d(m, callee, model_a_cost(m, call, &k.a), true),
            Model::Llvm => with_model_d(m, callee, model_b_cost(m, call, &k.b), false),
            Model::Cgscc => with_model_d(
                m,
                callee,
                model_c_cost(m, call, &k.b, recursive, k.multiplier),
                false,
            ),
        };
        let (cost, threshold) = match verdict {
            Verdict::Always(why) => {
                return Decision::Inline {
                    cost: 0,
                    threshold: 0,
                    why,
                }
            }
            Verdict::Never(why) => return Decision::Never(why),
            Verdict::Cost { cost, threshold } => (cost, threshold),
        };
        if self.model != Model::Nvidia && !cost_below_threshold(cost, threshold) {
            return Decision::TooCostly { cost, threshold };
        }
        let charged = cost.max(0);
        if charged > budget_left {
            return Decision::Budget {
                cost,
                budget: budget_left,
            };
        }
        if let Some(total) = k.total_budget {
            if total_used + charged > total {
                return Decision::Budget {
                    cost,
                    budget: total - total_used,
                };
            }
        }
        Decision::Inline {
            cost,
            threshold: if self.model == Model::Nvidia {
                budget_left
            } else {
                threshold
            },
            why: "cost within threshold and budget",
        }
    }
}
