//! Parameters of the four inliner cost models (spec 001 "Inliner Cost
//! Model"), one named constant each.
//!
//! Spec 001 describes four models that coexist in cicc: A, the NVIDIA
//! custom model (argument-coercion cost against a 20,000 budget); B, LLVM's
//! standard `InlineCostAnalysis` (threshold 225); C, the new-PM CGSCC inliner
//! with its advisor; D, the NVPTX opcode bonus layered on whichever model is
//! active.
//!
//! This module is the cost-model library: the numbers (one named constant
//! each), the knobs ([`KnobInfo`] declarations, shared by every pass that
//! reads them), and the four models as functions over [`IrView`]:
//! [`model_a_cost`], [`model_b_cost`], [`model_c_cost`] and
//! [`model_d_bonus`]. Each returns a [`Verdict`]; the policy around it
//! (which calls to visit, budgets, remarks) is the `inline` pass in
//! `nvpass-passes`.
//!
//! # Choices where spec 001 is silent
//!
//! - **Model A's unit.** The spec says the NVIDIA model "counts the
//!   argument marshaling cost" against a per-caller budget that "caps how
//!   much code can be inlined into a single function", without a formula.
//!   Here a call's cost is the code it adds ([`MODEL_A_INST_COST`] per
//!   callee instruction that survives codegen) minus the `.param` traffic it
//!   removes ([`MODEL_A_PARAM_SLOT_SAVING`] per parameter or return slot,
//!   slots counted by the struct walk), plus [`MODEL_A_COERCION_COST`] per
//!   argument the type-size engine finds widened at the call boundary. The
//!   budget is charged with each inlined call's cost.
//! - **Model A's load/store scan.** The loads and stores that feed the
//!   `loads * stores > 100` bail-out are the callee's argument-copy pattern:
//!   loads through a pointer parameter (or a GEP of one) and stores whose
//!   value or address is a parameter.
//! - **Model A's linkage rule** follows the linkage names spec 001 gives:
//!   only `linkonce_odr` and `weak_odr` callees pass
//!   ([`MODEL_A_INLINABLE_LINKAGES`]). The spec contradicts itself here: it
//!   calls them codes "7" and "8", which in LLVM's `GlobalValue::LinkageTypes`
//!   are `internal` and `private`. Accepting those too lets model A inline
//!   internal helpers, but the `inline` pass's per-run budgets then let a
//!   second run keep expanding a call DAG, so that reading waits until the
//!   pass charges budgets across runs. Functions
//!   the front end marks `alwaysinline` are inlined before any cost model runs
//!   (by `force-inline`/`inline-must`), so this only limits cost-driven
//!   inlining.
//! - **Model B** follows LLVM's `CallAnalyzer` in simplified form: every
//!   instruction costs [`INSTR_COST`] except the ones LLVM treats as free
//!   (debug and lifetime intrinsics, `assume`, no-op casts, constant-index
//!   GEPs, unconditional branches, `ret`, `phi`); each call to a non-intrinsic
//!   adds [`CALL_PENALTY`]; loads and stores add [`MEMACCESS_COST`]; the
//!   removed call is credited (`InstrCost * (1 + args) + CallPenalty`); a
//!   local callee with a single use gets LLVM's last-call-to-static bonus.
//!   Inlining happens when `cost < max(1, threshold)`. The cost-benefit
//!   analysis is off by default in the spec and is not implemented: its
//!   knobs are declared and documented but only `inline-size-allowance` is
//!   read (callees at most this many instructions are treated as cheap when
//!   `inline-enable-cost-benefit-analysis` is set).
//! - **Model D's sign.** The spec writes `inline_cost += 2000` but says the
//!   bonus *encourages* inlining; a larger cost would discourage it. LLVM
//!   expresses encouragement as a threshold bonus, so [`model_d_bonus`] is
//!   added to the threshold (model B/C) or subtracted from the cost
//!   (model A, which has a budget, not a threshold).
//! - **Opcode class 9** (spec: "likely tensor core instructions, warp-level
//!   intrinsics") is defined on the IR as a call to an intrinsic whose name
//!   starts with one of [`GPU_CLASS9_INTRINSIC_PREFIXES`]: warp-matrix and
//!   tensor-core operations (`wmma`, `mma`, `wgmma`, `ldmatrix`, `stmatrix`,
//!   `tcgen05`) and warp-collective operations (`shfl`, `vote`, `match`,
//!   `redux`, `bar.warp.sync`).
//! - **Model C** is model B with the recursion multiplier: a call between two
//!   functions of the same call-graph SCC costs
//!   [`FUNCTION_INLINE_COST_MULTIPLIER`] times more. Its advisor mode
//!   `default` is the heuristic; `development` and `release` need an ML model
//!   nvpass does not ship and are refused with a message.

use alloc::vec::Vec;
use hashbrown::HashMap;

use crate::ir::{
    AttrKey, AttrKind, AttrSlot, Callee, ConstKind, FuncId, InstId, IrView, Linkage, Opcode,
    TypeId, TypeKind, ValueKind,
};
use crate::knob::{KnobInfo, KnobKind};

// ---- Model A: NVIDIA custom inliner ----------------------------------------

/// Default per-caller budget (`inline-budget`).
///
/// Spec 001 "Model A: NVIDIA Custom Inliner", "Knob Inventory":
/// `inline-budget | int | 20,000`.
pub const INLINE_BUDGET: i64 = 20_000;

/// Budget selected by `-aggressive-inline` (2x the default).
///
/// Spec 001 "Knob Inventory", CLI surface mapping:
/// `-aggressive-inline -> -inline-budget=40000`.
pub const AGGRESSIVE_INLINE_BUDGET: i64 = 40_000;

/// Callees whose `loads * stores` exceeds this are not inlined (argument
/// copy pattern too expensive to analyse).
///
/// Spec 001 "Load-Store Combinatorial Bail-Out": `if (num_loads * num_stores > 100) return BAIL_OUT`.
pub const LOAD_STORE_PRODUCT_LIMIT: u64 = 100;

/// Maximum nesting depth of the struct-layout walk that counts fields for
/// coercion cost.
///
/// Spec 001 "Struct Layout Walk": "a hard depth limit of 20 levels".
pub const STRUCT_WALK_DEPTH_LIMIT: u32 = 20;

/// The only linkages model A inlines.
///
/// Spec 001 "Entry and Early Bail-Outs": "values 7 (linkonce_odr) and 8
/// (weak_odr) are eligible for inlining".
pub const MODEL_A_INLINABLE_LINKAGES: [Linkage; 2] = [Linkage::LinkOnceOdr, Linkage::WeakOdr];

/// Callees whose name starts with this prefix (LLVM intrinsics) are never
/// inlined by model A.
///
/// Spec 001 "Entry and Early Bail-Outs", "Intrinsic name check": the LLVM
/// intrinsic prefix followed by `.`.
pub const INTRINSIC_NAME_PREFIX: &str = "llvm.";

/// Initial inline capacity of the loads/stores vectors of the callee scan
/// (a `SmallVec` size, not a semantic limit).
///
/// Spec 001 "Callee Body Scan": "initial inline capacity of 4 elements each".
pub const CALLEE_SCAN_INLINE_CAPACITY: usize = 4;

// ---- Model B: LLVM InlineCostAnalysis ---------------------------------------

/// Base threshold (`inline-threshold`, also `inlinedefault-threshold`).
///
/// Spec 001 "Model B", key upstream knobs: `inline-threshold | 225`.
pub const INLINE_THRESHOLD: i32 = 225;

/// Threshold for callees with the `inlinehint` attribute (`inlinehint-threshold`).
///
/// Spec 001 "Model B": `inlinehint-threshold | 325`.
pub const INLINEHINT_THRESHOLD: i32 = 325;

/// Threshold for cold call sites (`inline-cold-callsite-threshold`).
///
/// Spec 001 "Model B": `inline-cold-callsite-threshold | 45`.
pub const COLD_CALLSITE_THRESHOLD: i32 = 45;

/// Threshold for callees with the `cold` attribute (`inlinecold-threshold`).
///
/// Spec 001 "Model B": `inlinecold-threshold | 45`.
pub const INLINECOLD_THRESHOLD: i32 = 45;

/// Threshold for hot call sites under PGO (`hot-callsite-threshold`).
///
/// Spec 001 "Model B": `hot-callsite-threshold | 3000`.
pub const HOT_CALLSITE_THRESHOLD: i32 = 3000;

/// Threshold for locally hot call sites (`locally-hot-callsite-threshold`).
///
/// Spec 001 "Model B": `locally-hot-callsite-threshold | 525`.
pub const LOCALLY_HOT_CALLSITE_THRESHOLD: i32 = 525;

/// Cost per instruction (`inline-instr-cost`).
///
/// Spec 001 "Model B": `inline-instr-cost | 5`.
pub const INSTR_COST: i32 = 5;

/// Penalty per call site in the callee (`inline-call-penalty`).
///
/// Spec 001 "Model B": `inline-call-penalty | 25`.
pub const CALL_PENALTY: i32 = 25;

/// Cost per load/store (`inline-memaccess-cost`).
///
/// Spec 001 "Model B": `inline-memaccess-cost | 0`.
pub const MEMACCESS_COST: i32 = 0;

/// Multiplier for cycle savings (`inline-savings-multiplier`).
///
/// Spec 001 "Model B": `inline-savings-multiplier | 8`.
pub const SAVINGS_MULTIPLIER: i32 = 8;

/// Multiplier for the profitability check (`inline-savings-profitable-multiplier`).
///
/// Spec 001 "Model B": `inline-savings-profitable-multiplier | 4`.
pub const SAVINGS_PROFITABLE_MULTIPLIER: i32 = 4;

/// Largest callee inlined without a proof of savings (`inline-size-allowance`).
///
/// Spec 001 "Model B": `inline-size-allowance | 100`.
pub const SIZE_ALLOWANCE: i32 = 100;

// ---- Model C: new-PM CGSCC inliner and advisor ------------------------------

/// Pipeline string of the heuristic (default) inline advisor.
///
/// Spec 001 "Model C", advisor modes: `default | "inline-advisor"`.
pub const INLINE_ADVISOR_PIPELINE_NAME: &str = "inline-advisor";

/// Pipeline string of the ML advisor in release (inference) mode.
///
/// Spec 001 "Model C": `release | "inliner-ml-advisor-release"`.
pub const ML_ADVISOR_RELEASE_PIPELINE_NAME: &str = "inliner-ml-advisor-release";

// ---- Model D: NVPTX opcode bonus ---------------------------------------------

/// Cost added for each callee instruction whose opcode tag is
/// [`NVPTX_BONUS_OPCODE_TAG`].
///
/// Spec 001 "NVPTX Opcode Tag 9 Bonus (+2000)": `inline_cost += 2000`.
pub const NVPTX_OPCODE_BONUS: i32 = 2000;

/// The opcode tag that earns [`NVPTX_OPCODE_BONUS`].
///
/// Spec 001 "NVPTX Opcode Tag 9 Bonus": `if ((tag >> 4) & 0x3FF) == 9`.
pub const NVPTX_BONUS_OPCODE_TAG: u32 = 9;

/// Shift applied to an opcode word before masking out its tag.
///
/// Spec 001 "NVPTX Opcode Tag 9 Bonus": `(tag >> 4) & 0x3FF`.
pub const NVPTX_OPCODE_TAG_SHIFT: u32 = 4;

/// Mask applied after [`NVPTX_OPCODE_TAG_SHIFT`] to get the opcode tag.
///
/// Spec 001 "NVPTX Opcode Tag 9 Bonus": `(tag >> 4) & 0x3FF`.
pub const NVPTX_OPCODE_TAG_MASK: u32 = 0x3FF;

// ---- Constants of the models where spec 001 gives no number ------------------

/// Model A cost of one callee instruction that survives code generation.
///
/// Spec 001 "Model A" gives no per-instruction unit ("the NVIDIA cost model
/// does not count instructions"); nvpass charges the code an inlining adds
/// with one unit per instruction so that `inline-budget` ("caps how much code
/// can be inlined into a single function", "Two-Budget System") has
/// something to cap. See the module docs.
pub const MODEL_A_INST_COST: i64 = 1;

/// Model A credit per `.param` slot a call no longer marshals: one
/// `st.param` in the caller plus one `ld.param` in the callee.
///
/// Spec 001 "The .param Address Space Problem": "Each function call
/// therefore generates O(n) st.param + O(n) ld.param instructions".
pub const MODEL_A_PARAM_SLOT_SAVING: i64 = 2;

/// Model A cost of one argument widened at the call boundary (callee
/// argument size > formal size: an extra `st.param` + `ld.param`).
///
/// Spec 001 "Type-Size Computation Engine": "Argument is being widened at
/// the call boundary. This costs extra st.param + ld.param instructions".
pub const MODEL_A_COERCION_COST: i64 = 2;

/// Lanes moved by one vector `st.param`/`ld.param` (`.v4`), used to count
/// the slots of a vector value.
///
/// Spec 001 "The .param Address Space Problem": "st.param instructions
/// (opcodes 571-573 for StoreV1/V2/V4)".
pub const PARAM_VECTOR_LANES: u64 = 4;

/// LLVM's bonus for inlining the last call to a local function (upstream
/// `LastCallToStaticBonus`), used by model B.
///
/// Spec 001 "Model B": the model "is upstream LLVM's
/// InlineCostAnalysis::analyzeCall, compiled into CICC essentially
/// unmodified"; this is upstream's value.
pub const LAST_CALL_TO_STATIC_BONUS: i32 = 15_000;

/// Cost multiplier for calls inside one call-graph SCC (recursion), model C
/// (`function-inline-cost-multiplier`, upstream default 6).
///
/// Spec 001 "Model C": "the function-inline-cost-multiplier knob that
/// penalizes recursive function inlining".
pub const FUNCTION_INLINE_COST_MULTIPLIER: i64 = 6;

/// Intrinsic name prefixes whose calls are opcode class 9 (model D).
///
/// Spec 001 "NVPTX Opcode Tag 9 Bonus": "likely tensor core instructions,
/// warp-level intrinsics, or other operations that benefit significantly
/// from being visible to the register allocator and instruction scheduler".
pub const GPU_CLASS9_INTRINSIC_PREFIXES: [&str; 11] = [
    "llvm.nvvm.wmma.",
    "llvm.nvvm.mma.",
    "llvm.nvvm.wgmma.",
    "llvm.nvvm.ldmatrix.",
    "llvm.nvvm.stmatrix.",
    "llvm.nvvm.tcgen05.",
    "llvm.nvvm.shfl.",
    "llvm.nvvm.vote.",
    "llvm.nvvm.match.",
    "llvm.nvvm.redux.",
    "llvm.nvvm.bar.warp.sync",
];

// ---- Knobs ---------------------------------------------------------------------

const fn knob(
    name: &'static str,
    kind: KnobKind,
    default: &'static str,
    description: &'static str,
) -> KnobInfo {
    KnobInfo {
        name,
        kind,
        default,
        description,
    }
}

/// `inline-budget`: per-caller budget of model A.
///
/// Spec 001 "Knob Inventory": `inline-budget | int | 20,000`.
pub const KNOB_INLINE_BUDGET: KnobInfo = knob(
    "inline-budget",
    KnobKind::Int,
    "20000",
    "Per-caller inlining cost budget",
);

/// `inline-total-budget`: module-wide budget; `-1` (the default, the spec's
/// "(none)") means unlimited.
///
/// Spec 001 "Knob Inventory": `inline-total-budget | int | (none)`.
pub const KNOB_INLINE_TOTAL_BUDGET: KnobInfo = knob(
    "inline-total-budget",
    KnobKind::Int,
    "-1",
    "Module-wide inlining cost budget (-1: unlimited)",
);

/// `inline-adj-budget1`: per-caller budget for kernels; `-1` (the default)
/// means kernels use `inline-budget` like other callers.
///
/// Spec 001 "Two-Budget System": "kernel entry points (__global__ functions)
/// may receive a higher adjusted budget".
pub const KNOB_INLINE_ADJ_BUDGET1: KnobInfo = knob(
    "inline-adj-budget1",
    KnobKind::Int,
    "-1",
    "Per-caller inlining budget for kernels (-1: inline-budget)",
);

/// `nv-inline-all`: inline every call with a visible body.
///
/// Spec 001 "nv-inline-all: Force-All Mode".
pub const KNOB_NV_INLINE_ALL: KnobInfo = knob(
    "nv-inline-all",
    KnobKind::Bool,
    "false",
    "Force inline every function call unconditionally",
);

/// `aggressive-inline`: the default `inline-budget` becomes
/// [`AGGRESSIVE_INLINE_BUDGET`] (an explicit `inline-budget` wins).
///
/// Spec 001 "Knob Inventory", CLI surface mapping.
pub const KNOB_AGGRESSIVE_INLINE: KnobInfo = knob(
    "aggressive-inline",
    KnobKind::Bool,
    "false",
    "Use inline-budget=40000",
);

/// `profuseinline`: also report every call that was not inlined because
/// of its cost (verbose diagnostics).
///
/// Spec 001 "Knob Inventory": `profuseinline | bool | off`.
pub const KNOB_PROFUSEINLINE: KnobInfo = knob(
    "profuseinline",
    KnobKind::Bool,
    "false",
    "Verbose inlining diagnostics",
);

/// `inline-switchctrl`: `0` (default) disables the switch heuristics; any
/// other value enables `inline-numswitchfunc` and `inline-maxswitchcases`.
///
/// Spec 001 "Switch Statement Heuristics".
pub const KNOB_INLINE_SWITCHCTRL: KnobInfo = knob(
    "inline-switchctrl",
    KnobKind::Int,
    "0",
    "Switch-statement inlining heuristic (0: off)",
);

/// `inline-numswitchfunc`: cost added per `switch` in the callee when the
/// switch heuristics are on.
///
/// Spec 001 "Switch Statement Heuristics": "penalizes functions containing
/// many switch statements".
pub const KNOB_INLINE_NUMSWITCHFUNC: KnobInfo = knob(
    "inline-numswitchfunc",
    KnobKind::Int,
    "0",
    "Cost added per switch statement in the callee",
);

/// `inline-maxswitchcases`: a callee with a `switch` of more cases is not
/// inlined when the switch heuristics are on (`-1`, the default: no limit).
///
/// Spec 001 "Switch Statement Heuristics": "a case-count ceiling beyond
/// which a switch-heavy callee is considered too expensive to inline".
pub const KNOB_INLINE_MAXSWITCHCASES: KnobInfo = knob(
    "inline-maxswitchcases",
    KnobKind::Int,
    "-1",
    "Maximum switch cases in an inlined callee (-1: no limit)",
);

/// `disable-inlined-alloca-merging`: keep every alloca an inlining brings in.
///
/// Spec 001 "Alloca Merging": "The default is to enable merging."
pub const KNOB_DISABLE_INLINED_ALLOCA_MERGING: KnobInfo = knob(
    "disable-inlined-alloca-merging",
    KnobKind::Bool,
    "false",
    "Disable post-inline alloca merging",
);

/// `inline-threshold` (model B). Spec 001 "Model B": default 225.
pub const KNOB_INLINE_THRESHOLD: KnobInfo = knob(
    "inline-threshold",
    KnobKind::Int,
    "225",
    "Base inlining threshold (LLVM model)",
);

/// `inlinehint-threshold` (model B). Spec 001 "Model B": default 325.
pub const KNOB_INLINEHINT_THRESHOLD: KnobInfo = knob(
    "inlinehint-threshold",
    KnobKind::Int,
    "325",
    "Threshold for inlinehint callees (LLVM model)",
);

/// `inline-cold-callsite-threshold` (model B). Spec 001 "Model B": 45.
pub const KNOB_INLINE_COLD_CALLSITE_THRESHOLD: KnobInfo = knob(
    "inline-cold-callsite-threshold",
    KnobKind::Int,
    "45",
    "Threshold for cold call sites (LLVM model)",
);

/// `inlinecold-threshold` (model B). Spec 001 "Model B": 45.
pub const KNOB_INLINECOLD_THRESHOLD: KnobInfo = knob(
    "inlinecold-threshold",
    KnobKind::Int,
    "45",
    "Threshold for cold callees (LLVM model)",
);

/// `inline-instr-cost` (model B). Spec 001 "Model B": 5.
pub const KNOB_INLINE_INSTR_COST: KnobInfo = knob(
    "inline-instr-cost",
    KnobKind::Int,
    "5",
    "Cost per instruction (LLVM model)",
);

/// `inline-call-penalty` (model B). Spec 001 "Model B": 25.
pub const KNOB_INLINE_CALL_PENALTY: KnobInfo = knob(
    "inline-call-penalty",
    KnobKind::Int,
    "25",
    "Penalty per call site in the callee (LLVM model)",
);

/// `inline-memaccess-cost` (model B). Spec 001 "Model B": 0.
pub const KNOB_INLINE_MEMACCESS_COST: KnobInfo = knob(
    "inline-memaccess-cost",
    KnobKind::Int,
    "0",
    "Cost per load/store (LLVM model)",
);

/// `inline-size-allowance` (model B). Spec 001 "Model B": 100.
pub const KNOB_INLINE_SIZE_ALLOWANCE: KnobInfo = knob(
    "inline-size-allowance",
    KnobKind::Int,
    "100",
    "Max callee size inlined without savings proof (LLVM model)",
);

/// `inline-enable-cost-benefit-analysis` (model B). Spec 001 "Model B": false.
pub const KNOB_INLINE_ENABLE_COST_BENEFIT: KnobInfo = knob(
    "inline-enable-cost-benefit-analysis",
    KnobKind::Bool,
    "false",
    "Enable cost-benefit analysis (LLVM model)",
);

/// `function-inline-cost-multiplier` (model C).
///
/// Spec 001 "Model C"; default [`FUNCTION_INLINE_COST_MULTIPLIER`].
pub const KNOB_FUNCTION_INLINE_COST_MULTIPLIER: KnobInfo = knob(
    "function-inline-cost-multiplier",
    KnobKind::Int,
    "6",
    "Cost multiplier for calls inside one SCC (CGSCC model)",
);

/// `enable-ml-inliner` (model C advisor): `default`, `development` or
/// `release`.
///
/// Spec 001 "Model C": "registered as an enum: {default, development, release}".
pub const KNOB_ENABLE_ML_INLINER: KnobInfo = knob(
    "enable-ml-inliner",
    KnobKind::Str,
    "default",
    "Inline advisor mode: default, development or release",
);

/// Every knob of the four models, for a pass's [`PassInfo::knobs`](crate::pass::PassInfo).
pub const INLINER_KNOBS: &[KnobInfo] = &[
    KNOB_INLINE_BUDGET,
    KNOB_INLINE_TOTAL_BUDGET,
    KNOB_INLINE_ADJ_BUDGET1,
    KNOB_NV_INLINE_ALL,
    KNOB_AGGRESSIVE_INLINE,
    KNOB_PROFUSEINLINE,
    KNOB_INLINE_SWITCHCTRL,
    KNOB_INLINE_NUMSWITCHFUNC,
    KNOB_INLINE_MAXSWITCHCASES,
    KNOB_DISABLE_INLINED_ALLOCA_MERGING,
    KNOB_INLINE_THRESHOLD,
    KNOB_INLINEHINT_THRESHOLD,
    KNOB_INLINE_COLD_CALLSITE_THRESHOLD,
    KNOB_INLINECOLD_THRESHOLD,
    KNOB_INLINE_INSTR_COST,
    KNOB_INLINE_CALL_PENALTY,
    KNOB_INLINE_MEMACCESS_COST,
    KNOB_INLINE_SIZE_ALLOWANCE,
    KNOB_INLINE_ENABLE_COST_BENEFIT,
    KNOB_FUNCTION_INLINE_COST_MULTIPLIER,
    KNOB_ENABLE_ML_INLINER,
];

// ---- Verdicts ------------------------------------------------------------------

/// A cost model's answer for one call site.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Verdict {
    /// Inline regardless of cost (the reason, for remarks).
    Always(&'static str),
    /// Never inline (the reason, for remarks).
    Never(&'static str),
    /// Inline when `cost` fits: below `threshold` (models B, C), or within
    /// the remaining budget (model A, whose `threshold` is the budget).
    Cost {
        /// The call's cost.
        cost: i64,
        /// The threshold or budget it is compared against.
        threshold: i64,
    },
}

/// The direct callee of call site `call`, if any.
pub fn direct_callee<M: IrView + ?Sized>(m: &M, call: InstId) -> Option<FuncId> {
    match m.callee(call)? {
        Callee::Direct(f) => Some(f),
        Callee::Indirect(_) => None,
    }
}

fn is_intrinsic<M: IrView + ?Sized>(m: &M, f: FuncId) -> bool {
    m.func_name_starts_with(f, INTRINSIC_NAME_PREFIX)
}

/// Instructions that produce no machine code: debug records and debug,
/// lifetime and `assume` intrinsic calls.
pub fn is_free_marker<M: IrView + ?Sized>(m: &M, i: InstId) -> bool {
    if m.opcode(i) == Opcode::Call {
        if let Some(f) = direct_callee(m, i) {
            if !is_intrinsic(m, f) {
                return false;
            }
            let n = m.func_name(f);
            return n.starts_with("llvm.dbg.")
                || n.starts_with("llvm.lifetime.")
                || n == "llvm.assume"
                || n.starts_with("llvm.experimental.noalias.scope.decl");
        }
    }
    false
}

fn callee_insts<M: IrView + ?Sized>(m: &M, f: FuncId) -> impl Iterator<Item = InstId> + '_ {
    m.blocks(f).flat_map(move |b| m.insts(b))
}

fn has_fn_attr<M: IrView + ?Sized>(m: &M, f: FuncId, k: AttrKind) -> bool {
    m.has_attr(f, AttrSlot::Function, AttrKey::Kind(k))
}

// ---- Model A ---------------------------------------------------------------------

/// Parameters of model A (spec 001 "Model A: NVIDIA Custom Inliner").
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct ModelAParams {
    /// The budget reported as the verdict's threshold.
    pub budget: i64,
    /// `nv-inline-all`.
    pub inline_all: bool,
    /// `inline-switchctrl` (0: switch heuristics off).
    pub switch_ctrl: i64,
    /// `inline-numswitchfunc`: cost per switch.
    pub num_switch_func: i64,
    /// `inline-maxswitchcases` (-1: no limit).
    pub max_switch_cases: i64,
}

impl Default for ModelAParams {
    fn default() -> Self {
        ModelAParams {
            budget: INLINE_BUDGET,
            inline_all: false,
            switch_ctrl: 0,
            num_switch_func: 0,
            max_switch_cases: -1,
        }
    }
}

/// Model A's type-size engine: the byte size of `ty` as
/// `(multiplier * bit_width + 7) >> 3`, where arrays and vectors multiply
/// their element's multiplier by their length, pointers have the target
/// pointer width, and structs their data-layout size (spec 001
/// "Type-Size Computation Engine"). `None` for unsized types.
pub fn model_a_type_bytes<M: IrView + ?Sized>(m: &M, ty: TypeId) -> Option<u64> {
    let (mult, bits) = type_mult_bits(m, ty, 0)?;
    Some((mult.saturating_mul(bits).saturating_add(7)) >> 3)
}

fn type_mult_bits<M: IrView + ?Sized>(m: &M, ty: TypeId, depth: u32) -> Option<(u64, u64)> {
    if depth > STRUCT_WALK_DEPTH_LIMIT {
        return None;
    }
    Some(match m.type_kind(ty) {
        TypeKind::Half | TypeKind::BFloat => (1, 16),
        TypeKind::Float => (1, 32),
        TypeKind::Double => (1, 64),
        TypeKind::X86Fp80 => (1, 80),
        TypeKind::Fp128 | TypeKind::PpcFp128 => (1, 128),
        TypeKind::Int(n) => (1, u64::from(n)),
        TypeKind::Ptr(a) => (1, m.pointer_size(a) * 8),
        TypeKind::Array { len, elem } => {
            let (em, eb) = type_mult_bits(m, elem, depth + 1)?;
            (em.saturating_mul(len), eb)
        }
        TypeKind::Vector { len, elem, .. } => {
            let (em, eb) = type_mult_bits(m, elem, depth + 1)?;
            (em.saturating_mul(u64::from(len)), eb)
        }
        TypeKind::Struct { .. } => (1, m.alloc_size(ty)? * 8),
        _ => return None,
    })
}

/// Model A's struct layout walk: the number of `.param` slots (scalar
/// fields; vectors per [`PARAM_VECTOR_LANES`] lanes) a value of type `ty`
/// is marshaled in. Nesting deeper than [`STRUCT_WALK_DEPTH_LIMIT`] counts
/// as one slot (spec 001 "Struct Layout Walk").
pub fn param_slots<M: IrView + ?Sized>(m: &M, ty: TypeId) -> u64 {
    slots_at(m, ty, 0, &mut HashMap::new())
}

/// `memo` keeps the count of each nested struct by type and depth for one
/// query: a struct whose fields repeat one struct type, nested, would
/// otherwise be walked once per path (2^depth for two fields per level).
fn slots_at<M: IrView + ?Sized>(
    m: &M,
    ty: TypeId,
    depth: u32,
    memo: &mut HashMap<(TypeId, u32), u64>,
) -> u64 {
    if depth >= STRUCT_WALK_DEPTH_LIMIT {
        return 1;
    }
    match m.type_kind(ty) {
        TypeKind::Void => 0,
        TypeKind::Struct { opaque: false, .. } => {
            // The outermost struct is never met again in its own query.
            let keep = depth > 0;
            if let Some(&n) = memo.get(&(ty, depth)).filter(|_| keep) {
                return n;
            }
            let n = m
                .struct_fields(ty)
                .map(|f| slots_at(m, f, depth + 1, memo))
                .fold(0u64, u64::saturating_add);
            if keep {
                memo.insert((ty, depth), n);
            }
            n
        }
        TypeKind::Array { len, elem } => len.saturating_mul(slots_at(m, elem, depth + 1, memo)),
        TypeKind::Vector { len, .. } => u64::from(len).div_ceil(PARAM_VECTOR_LANES).max(1),
        _ => 1,
    }
}

/// The `.param` slots of `f`'s signature: every parameter (a `byval`
/// parameter by its pointee type) plus the return value.
pub fn signature_slots<M: IrView + ?Sized>(m: &M, f: FuncId) -> u64 {
    let mut n = 0u64;
    for (k, p) in m.params(f).enumerate() {
        let slot = AttrSlot::Param(k as u32);
        let ty = m
            .type_attr(f, slot, AttrKind::ByVal)
            .unwrap_or_else(|| m.value_type(p));
        n = n.saturating_add(param_slots(m, ty));
    }
    n.saturating_add(param_slots(m, m.ret_type(f)))
}

/// `(loads, stores)` of `f`'s argument-copy pattern (see the module docs).
pub fn argument_loads_stores<M: IrView + ?Sized>(m: &M, f: FuncId) -> (u64, u64) {
    let params: Vec<_> = m.params(f).collect();
    let is_param = |v| params.contains(&v);
    let derived = |v| {
        is_param(v)
            || matches!(m.value_kind(v), ValueKind::Inst(i)
                if m.opcode(i) == Opcode::GetElementPtr
                    && m.operand(i, 0).is_some_and(is_param))
    };
    let (mut loads, mut stores) = (0u64, 0u64);
    for i in callee_insts(m, f) {
        match m.opcode(i) {
            Opcode::Load if m.mem_ptr(i).is_some_and(derived) => loads += 1,
            Opcode::Store
                if m.operand(i, 0).is_some_and(is_param) || m.mem_ptr(i).is_some_and(derived) =>
            {
                stores += 1
            }
            _ => {}
        }
    }
    (loads, stores)
}

/// Model A (spec 001 "Model A"): the eligibility chain in the spec's order,
/// the `loads * stores` bail-out, then the cost described in the module
/// docs, reported against `p.budget`.
pub fn model_a_cost<M: IrView + ?Sized>(m: &M, call: InstId, p: &ModelAParams) -> Verdict {
    let Some(callee) = direct_callee(m, call) else {
        return Verdict::Never("indirect call");
    };
    if p.inline_all && !m.func_is_declaration(callee) {
        return Verdict::Always("nv-inline-all");
    }
    // 1. Intrinsic name check.
    if is_intrinsic(m, callee) {
        return Verdict::Never("intrinsic");
    }
    // 2. Pre-analysis: a body we can walk, not variadic.
    let vararg = matches!(
        m.type_kind(m.func_type(callee)),
        TypeKind::Func { vararg: true }
    );
    if m.func_is_declaration(callee) || vararg {
        return Verdict::Never("callee not analyzable");
    }
    // 3. Linkage.
    if !MODEL_A_INLINABLE_LINKAGES.contains(&m.func_linkage(callee)) {
        return Verdict::Never("linkage not linkonce_odr/weak_odr");
    }
    // 4. noinline, optnone.
    if has_fn_attr(m, callee, AttrKind::NoInline) {
        return Verdict::Never("noinline function attribute");
    }
    if has_fn_attr(m, callee, AttrKind::OptNone) {
        return Verdict::Never("optnone function attribute");
    }
    // Load-store combinatorial bail-out.
    let (loads, stores) = argument_loads_stores(m, callee);
    if loads.saturating_mul(stores) > LOAD_STORE_PRODUCT_LIMIT {
        return Verdict::Never("loads x stores over 100");
    }
    // Switch heuristics.
    let mut cost: i64 = 0;
    let mut insts: i64 = 0;
    for i in callee_insts(m, callee) {
        if is_free_marker(m, i) {
            continue;
        }
        insts += 1;
        if m.opcode(i) == Opcode::Switch && p.switch_ctrl != 0 {
            let cases = m.num_operands(i).saturating_sub(1) as i64;
            if p.max_switch_cases >= 0 && cases > p.max_switch_cases {
                return Verdict::Never("too many switch cases");
            }
            cost = cost.saturating_add(p.num_switch_func);
        }
    }
    cost = cost.saturating_add(insts.saturating_mul(MODEL_A_INST_COST));
    // Argument coercion: actual wider than formal.
    let formals: Vec<TypeId> = m.func_type_params(m.func_type(callee)).collect();
    let coerced = m
        .call_args(call)
        .zip(formals.iter())
        .filter(|&(a, &f)| {
            match (
                model_a_type_bytes(m, m.value_type(a)),
                model_a_type_bytes(m, f),
            ) {
                (Some(x), Some(y)) => x > y,
                _ => false,
            }
        })
        .count() as i64;
    cost = cost.saturating_add(coerced.saturating_mul(MODEL_A_COERCION_COST));
    let slots = signature_slots(m, callee).min(i64::MAX as u64) as i64;
    cost = cost.saturating_sub(slots.saturating_mul(MODEL_A_PARAM_SLOT_SAVING));
    Verdict::Cost {
        cost: cost.max(0),
        threshold: p.budget,
    }
}

// ---- Model B --------------------------------------------------------------------

/// Parameters of model B (spec 001 "Model B"), defaults from its table.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct ModelBParams {
    /// `inline-threshold`.
    pub threshold: i64,
    /// `inlinehint-threshold`.
    pub hint_threshold: i64,
    /// `inline-cold-callsite-threshold`.
    pub cold_callsite_threshold: i64,
    /// `inlinecold-threshold`.
    pub cold_threshold: i64,
    /// `inline-instr-cost`.
    pub instr_cost: i64,
    /// `inline-call-penalty`.
    pub call_penalty: i64,
    /// `inline-memaccess-cost`.
    pub memaccess_cost: i64,
}

impl Default for ModelBParams {
    fn default() -> Self {
        ModelBParams {
            threshold: INLINE_THRESHOLD as i64,
            hint_threshold: INLINEHINT_THRESHOLD as i64,
            cold_callsite_threshold: COLD_CALLSITE_THRESHOLD as i64,
            cold_threshold: INLINECOLD_THRESHOLD as i64,
            instr_cost: INSTR_COST as i64,
            call_penalty: CALL_PENALTY as i64,
            memaccess_cost: MEMACCESS_COST as i64,
        }
    }
}

fn is_free_for_model_b<M: IrView + ?Sized>(m: &M, i: InstId) -> bool {
    if is_free_marker(m, i) {
        return true;
    }
    match m.opcode(i) {
        Opcode::Phi | Opcode::Ret => true,
        Opcode::Br => m.num_operands(i) == 0,
        Opcode::BitCast | Opcode::AddrSpaceCast | Opcode::PtrToInt | Opcode::IntToPtr => true,
        Opcode::GetElementPtr => m.operands(i).skip(1).all(|v| {
            matches!(
                m.value_kind(v),
                ValueKind::Constant(ConstKind::Int | ConstKind::ZeroInit)
            )
        }),
        _ => false,
    }
}

/// Model B's threshold for this call: `inlinehint` callee, `cold` callee, or
/// `cold` call site adjust the base threshold (spec 001 "Model B" table).
pub fn model_b_threshold<M: IrView + ?Sized>(m: &M, call: InstId, p: &ModelBParams) -> i64 {
    let Some(callee) = direct_callee(m, call) else {
        return p.threshold;
    };
    let cold_site = m
        .call_attrs(call, AttrSlot::Function)
        .any(|a| AttrKey::Kind(AttrKind::Cold).matches(&a));
    if cold_site {
        p.cold_callsite_threshold
    } else if has_fn_attr(m, callee, AttrKind::Cold) {
        p.cold_threshold
    } else if has_fn_attr(m, callee, AttrKind::InlineHint) {
        p.hint_threshold.max(p.threshold)
    } else {
        p.threshold
    }
}

/// Model B (spec 001 "Model B", LLVM's `analyzeCall` simplified as described
/// in the module docs).
pub fn model_b_cost<M: IrView + ?Sized>(m: &M, call: InstId, p: &ModelBParams) -> Verdict {
    let Some(callee) = direct_callee(m, call) else {
        return Verdict::Never("indirect call");
    };
    if m.func_is_declaration(callee) {
        return Verdict::Never("no definition");
    }
    if has_fn_attr(m, callee, AttrKind::AlwaysInline) {
        return Verdict::Always("always inline attribute");
    }
    if has_fn_attr(m, callee, AttrKind::NoInline) {
        return Verdict::Never("noinline function attribute");
    }
    if has_fn_attr(m, callee, AttrKind::OptNone) {
        return Verdict::Never("optnone function attribute");
    }
    if m.func_linkage(callee).is_interposable() {
        return Verdict::Never("interposable");
    }
    let mut cost: i64 = 0;
    for i in callee_insts(m, callee) {
        if is_free_for_model_b(m, i) {
            continue;
        }
        cost += p.instr_cost;
        match m.opcode(i) {
            Opcode::Load | Opcode::Store => cost += p.memaccess_cost,
            Opcode::Call | Opcode::Invoke => {
                let intrinsic = direct_callee(m, i).is_some_and(|f| is_intrinsic(m, f));
                if !intrinsic {
                    cost += p.call_penalty;
                }
            }
            _ => {}
        }
    }
    // Credit for the call instruction and its argument set-up.
    let nargs = m.call_args(call).count() as i64;
    cost -= p.instr_cost * (1 + nargs) + p.call_penalty;
    let fv = m.func_value(callee);
    // One use exactly: looking at two is enough (counting them all would
    // cost, for each of a helper's N call sites, all N of its uses).
    if m.func_linkage(callee).is_local() && m.users(fv).take(2).count() == 1 {
        cost -= i64::from(LAST_CALL_TO_STATIC_BONUS);
    }
    Verdict::Cost {
        cost,
        threshold: model_b_threshold(m, call, p),
    }
}

/// Whether model B/C inline at this verdict: `cost < max(1, threshold)`
/// (LLVM's `InlineCost::isVariable` rule).
pub const fn cost_below_threshold(cost: i64, threshold: i64) -> bool {
    let t = if threshold < 1 { 1 } else { threshold };
    cost < t
}

// ---- Model C ---------------------------------------------------------------------

/// Inline-advisor mode of model C (spec 001 "Model C", advisor table).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum AdvisorMode {
    /// Heuristic advisor (model B's cost analysis).
    Default,
    /// Feature extraction for ML training.
    Development,
    /// ML model inference.
    Release,
}

impl AdvisorMode {
    /// Parses an `enable-ml-inliner` value.
    pub fn parse(s: &str) -> Option<AdvisorMode> {
        match s {
            "default" => Some(AdvisorMode::Default),
            "development" => Some(AdvisorMode::Development),
            "release" => Some(AdvisorMode::Release),
            _ => None,
        }
    }

    /// The pipeline string the spec registers for this mode, if any.
    pub const fn pipeline_name(self) -> Option<&'static str> {
        match self {
            AdvisorMode::Default => Some(INLINE_ADVISOR_PIPELINE_NAME),
            AdvisorMode::Development => None,
            AdvisorMode::Release => Some(ML_ADVISOR_RELEASE_PIPELINE_NAME),
        }
    }
}

/// Model C: model B, with the cost of a call between two functions of one
/// SCC (`intra_scc`) multiplied by `multiplier`
/// (`function-inline-cost-multiplier`).
pub fn model_c_cost<M: IrView + ?Sized>(
    m: &M,
    call: InstId,
    p: &ModelBParams,
    intra_scc: bool,
    multiplier: i64,
) -> Verdict {
    match model_b_cost(m, call, p) {
        Verdict::Cost { cost, threshold } if intra_scc => Verdict::Cost {
            cost: if cost > 0 {
                cost.saturating_mul(multiplier)
            } else {
                cost
            },
            threshold,
        },
        v => v,
    }
}

// ---- Model D ---------------------------------------------------------------------

/// Whether intrinsic `name` is opcode class 9 (see the module docs).
pub fn is_gpu_class9_intrinsic(name: &str) -> bool {
    GPU_CLASS9_INTRINSIC_PREFIXES
        .iter()
        .any(|p| name.starts_with(p))
}

/// The opcode tag of a cicc opcode word: `(word >> 4) & 0x3FF` (spec 001
/// "NVPTX Opcode Tag 9 Bonus").
pub const fn opcode_tag(word: u32) -> u32 {
    (word >> NVPTX_OPCODE_TAG_SHIFT) & NVPTX_OPCODE_TAG_MASK
}

/// Model D: [`NVPTX_OPCODE_BONUS`] for every class-9 instruction of `f`.
pub fn model_d_bonus<M: IrView + ?Sized>(m: &M, f: FuncId) -> i64 {
    let n = callee_insts(m, f)
        .filter(|&i| {
            m.opcode(i) == Opcode::Call
                && direct_callee(m, i).is_some_and(|g| is_gpu_class9_intrinsic(m.func_name(g)))
        })
        .count() as i64;
    n * i64::from(NVPTX_OPCODE_BONUS)
}

/// Applies model D to a verdict of the model for `callee`: the bonus raises
/// a threshold (`as_budget == false`, models B and C) or lowers a cost
/// charged to a budget (`as_budget == true`, model A).
pub fn with_model_d<M: IrView + ?Sized>(
    m: &M,
    callee: FuncId,
    v: Verdict,
    as_budget: bool,
) -> Verdict {
    match v {
        Verdict::Cost { cost, threshold } => {
            let bonus = model_d_bonus(m, callee);
            if as_budget {
                Verdict::Cost {
                    cost: (cost - bonus).max(0),
                    threshold,
                }
            } else {
                Verdict::Cost {
                    cost,
                    threshold: threshold + bonus,
                }
            }
        }
        v => v,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_stated_by_the_spec() {
        // "a 20,000-unit budget that is 89x the upstream LLVM default of 225".
        assert_eq!(
            (INLINE_BUDGET as f64 / f64::from(INLINE_THRESHOLD)).round(),
            89.0
        );
        assert_eq!(AGGRESSIVE_INLINE_BUDGET, 2 * INLINE_BUDGET);
        // "equivalent to inlining ~400 regular LLVM instructions at cost 5 each".
        assert_eq!(NVPTX_OPCODE_BONUS / INSTR_COST, 400);
        for l in MODEL_A_INLINABLE_LINKAGES {
            assert!(!l.is_interposable());
        }
    }
}
