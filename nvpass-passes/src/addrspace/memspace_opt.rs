//! `memspace-opt` (`MemorySpaceOptPass`): intra-procedural address-space
//! inference and retagging.
//!
//! Spec 004 "MemorySpaceOpt": "Lattice Propagation Walker", "Diagnostic
//! Rewriter and Catalog", "WMMA Forces Global", "Addrspacecast Folder",
//! "Tunables".
//!
//! # What it does
//!
//! For every defined function:
//!
//! 1. **Walker.** The shared classifier ([`super::provenance`]) computes an
//!    element of the spec-004 lattice (BOTTOM / concrete / GENERIC) for
//!    every pointer: seeds are kernel pointer parameters (global), grid
//!    constant parameters (constant), byval parameters (generic), allocas
//!    (local) and typed pointers (their space); propagation goes through
//!    GEP, bitcast, phi, select, addrspacecast, promotable spill slots,
//!    the pointer fields of local aggregates that do not escape, and the
//!    pointer fields of read-only kernel aggregate parameters (global; see
//!    the rule table of [`super::provenance`]).
//!    Calls and returns are typed: once `ipmsp` has specialized a callee the
//!    call's operands and result carry concrete spaces, which is how the
//!    walker crosses calls (spec 004: "inter-procedural across calls and
//!    returns" is the callee-specialization part, done by `ipmsp`).
//! 2. **WMMA constraint.** At calls of `llvm.nvvm.wmma.*` and
//!    `llvm.nvvm.cp.async.bulk.*`, each generic pointer operand is refined
//!    with GLOBAL backwards: roots no seed reached are assumed global (the
//!    intrinsic is only defined on global memory) and the warning
//!    [`DIAG_ASSUMING_GLOBAL`] is emitted; an operand already proved to be in
//!    another space is a contradiction: it stays generic and the same
//!    warning is emitted. The intrinsic call itself is not changed (its
//!    name mangles the pointer type).
//! 3. **Rewriter.** Generic `getelementptr`, `phi`, `select`, `bitcast` and
//!    `freeze` results with a concrete element are retyped to
//!    `ptr addrspace(N)`; loads, stores, `atomicrmw` and `cmpxchg` whose
//!    pointer is concrete get a pointer in that space (reusing the source of
//!    an `addrspacecast`, else one `addrspacecast` placed right after the
//!    definition); users that need a generic pointer (calls, stores of the
//!    pointer, compares, returns) get one cast back.
//! 4. **Folder** (to a fixed point, each cast once per round): (1) a cast to
//!    the space its operand already has is dropped; (2) a cast of a cast is
//!    collapsed into one cast from the innermost source (dropped when that
//!    source is already in the target space); (3) a cast of a generic kernel
//!    pointer parameter to global is replaced by the function's single
//!    entry-block global view of that parameter. The generic-typed kernel
//!    parameter cannot itself be "dropped" into a global one without
//!    changing the kernel's signature, so rule (3) deduplicates instead.
//!
//! # Threads
//!
//! Steps 1 and 2 and the classification of step 3 (which pointers are
//! retyped, which accesses retagged, which users need a cast back, the
//! diagnostics) only read the IR, and take about two thirds of the pass's
//! time (`perf` on a generated module). They run for a window of functions
//! at once on [`PassContext::threads`] threads ([`plan_and_apply`]), each
//! into a plan; the plans are then applied (rewriter, folder, diagnostics,
//! verbose note) one function at a time in module order, so the output
//! does not depend on the thread count.
//!
//! Analyzing a whole window before rewriting any of it gives the plans a
//! plain loop would: the analysis of `f` reads only `f`'s body and
//! attributes, the kernel set and the WMMA/bulk-async intrinsics (both
//! found once before), global variables' types and constant expressions;
//! rewriting another function `g` edits only `g`'s instructions (retyped
//! results, casts inserted in `g`, folded casts erased from `g`), adds uses
//! of globals by `g`'s instructions and interns pointer types. No value,
//! user list or attribute that the analysis of `f` reads changes, and no
//! function is declared.
//!
//! # Diagnostics
//!
//! | text | severity | when |
//! |---|---|---|
//! | [`DIAG_ATOMIC_LOCAL`] | error | an `atomicrmw`/`cmpxchg` whose pointer is inferred local (the atomic is left as is and the pipeline fails) |
//! | [`DIAG_ASSUMING_GLOBAL`] | warning | a WMMA/bulk-async operand not proved global (assumed global, or contradiction) |
//! | [`DIAG_CANNOT_TELL`] | warning | a dereferenced pointer that stays at BOTTOM (no seed reaches it), once per pointer |
//!
//! A dereferenced pointer at GENERIC (conflicting spaces, byval) is silent:
//! spec 004's "assuming global" fallback is applied only where global is
//! implied by the operation (WMMA), because assuming global for a pointer
//! that may be shared would miscompile.
//!
//! # Knobs
//!
//! [`MEMSPACE_OPT_ENABLE`], [`MEMSPACE_OPT_VERBOSE`] (one note per changed
//! function with counts), [`MEMSPACE_OPT_CONSERVATIVE`] (unknown sources
//! are GENERIC on first contact, so no BOTTOM warnings and nothing assumed),
//! [`MEMSPACE_OPT_ALIAS_MERGE`] (`none`, `per-AS`, `unified`; validated and
//! recorded; nvpass builds no alias sets, the per-AS rule is
//! [`nvvm_alias`](nvpass_core::addrspace::nvvm_alias)).

use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use hashbrown::{HashMap, HashSet};
use nvpass_core::addrspace::{AsLattice, ConcreteSpace};
use nvpass_core::diag::{Diagnostic, Severity};
use nvpass_core::ir::{
    AttrKey, AttrKind, AttrSlot, Callee, EditError, FuncId, InstId, IrEdit, IrView, Opcode,
    TypeKind, ValueId, ValueKind,
};
use nvpass_core::kernel::KernelSet;
use nvpass_core::knob::{KnobInfo, KnobKind};
use nvpass_core::par::plan_and_apply;
use nvpass_core::pass::{
    AnyPass, ModulePass, PassContext, PassFailure, PassInfo, PassOptions, PreservedOrChanged,
};
use nvpass_core::stats::StatInfo;

use super::provenance::{self, Provenance, ProvenanceOptions};
use super::rewrite::{cast_source, mem_ptr_index, space_of, Converter};

/// Error text for an atomic on local memory.
///
/// Spec 004 "Diagnostic Rewriter and Catalog", severity error.
pub const DIAG_ATOMIC_LOCAL: &str = "Cannot do atomic on local memory";
/// Warning text for a dereference assumed to be global.
///
/// Spec 004 "Diagnostic Rewriter and Catalog", severity warning.
pub const DIAG_ASSUMING_GLOBAL: &str = "assuming global memory space";
/// Warning text for a pointer that stays at BOTTOM.
///
/// Spec 004 "Diagnostic Rewriter and Catalog", severity warning.
pub const DIAG_CANNOT_TELL: &str = "Cannot tell what pointer points to";

/// Master enable. Spec 004 "Tunables": `memspace-opt-enable`, default 1.
pub const MEMSPACE_OPT_ENABLE: KnobInfo = KnobInfo {
    name: "memspace-opt-enable",
    kind: KnobKind::Bool,
    default: "true",
    description: "Enable MemorySpaceOpt",
};
/// Verbose trace. Spec 004 "Tunables": `memspace-opt-verbose`, default 0.
pub const MEMSPACE_OPT_VERBOSE: KnobInfo = KnobInfo {
    name: "memspace-opt-verbose",
    kind: KnobKind::Bool,
    default: "false",
    description: "Emit a verbose MemorySpaceOpt trace",
};
/// Conservative inference. Spec 004 "Tunables":
/// `memspace-opt-conservative`, default 0.
pub const MEMSPACE_OPT_CONSERVATIVE: KnobInfo = KnobInfo {
    name: "memspace-opt-conservative",
    kind: KnobKind::Bool,
    default: "false",
    description: "Treat unknown pointers as generic on first contact",
};
/// Alias-set merging policy. Spec 004 "Tunables":
/// `memspace-opt-alias-merge` (enum none / per-AS / unified; the spec gives
/// no default, nvpass uses `per-AS`, the NVVM alias rule).
pub const MEMSPACE_OPT_ALIAS_MERGE: KnobInfo = KnobInfo {
    name: "memspace-opt-alias-merge",
    kind: KnobKind::Str,
    default: "per-AS",
    description: "Alias-set merging policy: none, per-AS or unified",
};
/// The accepted values of [`MEMSPACE_OPT_ALIAS_MERGE`] (spec 004
/// "Tunables").
pub const ALIAS_MERGE_POLICIES: [&str; 3] = ["none", "per-AS", "unified"];

/// Intrinsic name prefixes whose pointer operands must be global.
///
/// Spec 004 "WMMA Forces Global": "the WMMA load/store and the related
/// async-bulk family".
pub const GLOBAL_ONLY_INTRINSIC_PREFIXES: [&str; 2] =
    ["llvm.nvvm.wmma.", "llvm.nvvm.cp.async.bulk."];

/// Pass description.
pub const INFO: PassInfo = PassInfo {
    name: "memspace-opt",
    class_name: "MemorySpaceOptPass",
    description: "Infer concrete address spaces of generic pointers and retag memory accesses",
    knobs: &[
        MEMSPACE_OPT_ENABLE,
        MEMSPACE_OPT_VERBOSE,
        MEMSPACE_OPT_CONSERVATIVE,
        MEMSPACE_OPT_ALIAS_MERGE,
    ],
    options: &[],
};

const NUM_RETYPED: StatInfo = StatInfo {
    name: "NumRetyped",
    description: "Number of pointer instructions retagged to a concrete space",
};
const NUM_ACCESSES: StatInfo = StatInfo {
    name: "NumAccessesRetagged",
    description: "Number of loads, stores and atomics given a concrete pointer",
};
const NUM_FOLDED: StatInfo = StatInfo {
    name: "NumCastsFolded",
    description: "Number of addrspacecasts removed or collapsed by the folder",
};

/// The pass; see the module docs.
#[derive(Clone, Debug, Default)]
pub struct MemSpaceOpt;

/// Builds the pass.
pub fn construct<M: IrEdit + ?Sized>(_: &PassOptions) -> Result<AnyPass<M>, String> {
    Ok(AnyPass::Transform(Box::new(MemSpaceOpt)))
}

fn edit_err(e: EditError) -> PassFailure {
    PassFailure::new(format!("memspace-opt: {e}"))
}

/// The functions named by one of [`GLOBAL_ONLY_INTRINSIC_PREFIXES`], found
/// once per run: reading every call's callee name instead (a scattered
/// read of the callee's record and of its name, per call of every
/// analyzed body) was a tenth of the pass's time. The pass declares no
/// function, so the set stays exact while it runs.
fn global_only_intrinsics<M: IrView + ?Sized>(ir: &M) -> Vec<FuncId> {
    ir.funcs()
        .filter(|&f| {
            let name = ir.func_name(f);
            GLOBAL_ONLY_INTRINSIC_PREFIXES
                .iter()
                .any(|p| name.starts_with(p))
        })
        .collect()
}

fn is_global_only_call<M: IrView + ?Sized>(ir: &M, i: InstId, global_only: &[FuncId]) -> bool {
    matches!(ir.callee(i), Some(Callee::Direct(f)) if global_only.contains(&f))
}

/// Pointer operand positions of an instruction that is retyped with its
/// result.
fn ptr_operand_positions<M: IrView + ?Sized>(ir: &M, i: InstId) -> Vec<usize> {
    match ir.opcode(i) {
        Opcode::GetElementPtr | Opcode::BitCast | Opcode::Freeze => alloc::vec![0],
        Opcode::Select => alloc::vec![1, 2],
        Opcode::Phi => (0..ir.num_operands(i)).collect(),
        _ => Vec::new(),
    }
}

fn retypable(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::GetElementPtr | Opcode::BitCast | Opcode::Freeze | Opcode::Select | Opcode::Phi
    )
}

/// The roots (values with no pointer operand to follow) of pointer `v`'s
/// BOTTOM part, for the WMMA backward constraint.
fn bottom_roots<M: IrView + ?Sized>(ir: &M, prov: &Provenance, v: ValueId) -> Vec<ValueId> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut stack = alloc::vec![v];
    while let Some(x) = stack.pop() {
        if !seen.insert(x) || prov.of(ir, x) != AsLattice::Bottom {
            continue;
        }
        match ir.value_kind(x) {
            ValueKind::Inst(i) => match ir.opcode(i) {
                Opcode::GetElementPtr
                | Opcode::BitCast
                | Opcode::Freeze
                | Opcode::AddrSpaceCast => stack.extend(ir.operand(i, 0)),
                Opcode::Phi => stack.extend(ir.operands(i)),
                Opcode::Select => {
                    stack.extend(ir.operand(i, 1).into_iter().chain(ir.operand(i, 2)))
                }
                Opcode::Load if prov.slot_stores(ir, i).is_some() => {
                    stack.extend(prov.slot_stores(ir, i).unwrap_or(&[]).iter().copied())
                }
                _ => out.push(x),
            },
            ValueKind::Argument { .. } => out.push(x),
            _ => {}
        }
    }
    out
}

struct FnStats {
    retyped: u64,
    accesses: u64,
    folded: u64,
}

/// What the read-only analysis of one function decided (steps 1-2 and the
/// classification of step 3); [`apply_plan`] carries it out.
struct Plan {
    prov: Provenance,
    /// The new space of each retyped result.
    retype: HashMap<ValueId, u32>,
    /// Retyped instructions, results and spaces, in layout order.
    order: Vec<(InstId, ValueId, u32)>,
    /// Accesses given a concrete pointer: instruction, pointer operand
    /// position, space.
    accesses: Vec<(InstId, usize, u32)>,
    /// Users of retyped values, with their operand positions.
    fixups: Vec<(ValueId, InstId, usize)>,
}

fn diag(sev: Severity, name: &str, text: &str, f: &str) -> Diagnostic {
    let d = match sev {
        Severity::Error => Diagnostic::error(INFO.name, name),
        _ => Diagnostic::warning(INFO.name, name),
    };
    d.text(text.to_string()).in_function(f)
}

/// The analysis of one function: its diagnostics (in instruction order,
/// emitted before the plan is applied or the failure reported), and the
/// plan, `None` when the walker gave up (never, without a budget cap).
type Analyzed = (Vec<Diagnostic>, Result<Option<Plan>, PassFailure>);

/// Steps 1 and 2 and the classification of step 3 for `f`, reading only
/// `f`'s body and attributes, global variables and constants (see "Threads"
/// in the module docs).
fn analyze_function<M: IrView + ?Sized>(
    ir: &M,
    f: FuncId,
    opts: ProvenanceOptions,
    kernels: &KernelSet,
    global_only: &[FuncId],
) -> Analyzed {
    let fname = ir.func_name(f);
    let mut diags = Vec::new();
    let Ok(mut prov) = provenance::analyze_in(ir, f, opts, kernels) else {
        return (diags, Ok(None));
    };
    let insts: Vec<InstId> = ir.blocks(f).flat_map(|b| ir.insts(b)).collect();

    // WMMA / bulk-async backward GLOBAL constraint.
    let mut reseed = false;
    // Most modules call none of these intrinsics: then no call is looked at.
    let calls_of_interest = if global_only.is_empty() {
        &[][..]
    } else {
        &insts[..]
    };
    for &i in calls_of_interest {
        if !is_global_only_call(ir, i, global_only) {
            continue;
        }
        for a in ir.call_args(i) {
            if ir.type_kind(ir.value_type(a)) != TypeKind::Ptr(0) {
                continue;
            }
            match prov.of(ir, a) {
                AsLattice::Known(ConcreteSpace::Global) => {}
                AsLattice::Bottom => {
                    for r in bottom_roots(ir, &prov, a) {
                        prov.seed(r, AsLattice::Known(ConcreteSpace::Global));
                    }
                    reseed = true;
                    diags.push(
                        diag(
                            Severity::Warning,
                            "AssumingGlobal",
                            DIAG_ASSUMING_GLOBAL,
                            fname,
                        )
                        .at(ir.debug_loc(i)),
                    );
                }
                _ => diags.push(
                    diag(
                        Severity::Warning,
                        "WmmaNotGlobal",
                        DIAG_ASSUMING_GLOBAL,
                        fname,
                    )
                    .at(ir.debug_loc(i)),
                ),
            }
        }
    }
    if reseed && prov.reanalyze(ir, f, opts).is_err() {
        let failure = PassFailure::new("memspace-opt: walker did not converge");
        return (diags, Err(failure));
    }

    // Classify: retyped instructions, accesses, diagnostics.
    let mut retype: HashMap<ValueId, u32> = HashMap::new();
    let mut order: Vec<(InstId, ValueId, u32)> = Vec::new();
    for &i in &insts {
        let Some(r) = ir.inst_result(i) else { continue };
        if ir.type_kind(ir.value_type(r)) != TypeKind::Ptr(0) || !retypable(ir.opcode(i)) {
            continue;
        }
        if let AsLattice::Known(s) = prov.of(ir, r) {
            retype.insert(r, s.addr_space().0);
            order.push((i, r, s.addr_space().0));
        }
    }
    let mut accesses: Vec<(InstId, usize, u32)> = Vec::new();
    let mut warned: HashSet<ValueId> = HashSet::new();
    for &i in &insts {
        let Some(idx) = mem_ptr_index(ir, i) else {
            continue;
        };
        let Some(p) = ir.operand(i, idx) else {
            continue;
        };
        if ir.type_kind(ir.value_type(p)) != TypeKind::Ptr(0) || retype.contains_key(&p) {
            continue;
        }
        match prov.of(ir, p) {
            AsLattice::Known(ConcreteSpace::Local)
                if matches!(ir.opcode(i), Opcode::AtomicRmw | Opcode::AtomicCmpXchg) =>
            {
                diags.push(
                    diag(Severity::Error, "AtomicOnLocal", DIAG_ATOMIC_LOCAL, fname)
                        .at(ir.debug_loc(i)),
                );
            }
            AsLattice::Known(s) => accesses.push((i, idx, s.addr_space().0)),
            AsLattice::Bottom => {
                if !prov.is_slot_access(p) && warned.insert(p) {
                    diags.push(
                        diag(Severity::Warning, "CannotTell", DIAG_CANNOT_TELL, fname)
                            .at(ir.debug_loc(i)),
                    );
                }
            }
            AsLattice::Top => {}
        }
    }
    // Users of retyped values, with their operand positions.
    let mut fixups: Vec<(ValueId, InstId, usize)> = Vec::new();
    for &(_, r, _) in &order {
        for u in ir.inst_users(r) {
            for (k, o) in ir.operands(u).enumerate() {
                if o != r || fixups.contains(&(r, u, k)) {
                    continue;
                }
                let handled = (ir.inst_result(u).is_some_and(|x| retype.contains_key(&x))
                    && ptr_operand_positions(ir, u).contains(&k))
                    || mem_ptr_index(ir, u) == Some(k)
                    || matches!(ir.opcode(u), Opcode::PtrToInt);
                if !handled {
                    fixups.push((r, u, k));
                }
            }
        }
    }
    let plan = Plan {
        prov,
        retype,
        order,
        accesses,
        fixups,
    };
    (diags, Ok(Some(plan)))
}

/// Carries out `f`'s plan: the rewriter (step 3) and the folder (step 4).
fn apply_plan<M: IrEdit + ?Sized>(
    ir: &mut M,
    f: FuncId,
    plan: Plan,
) -> Result<FnStats, PassFailure> {
    let Plan {
        prov,
        retype,
        order,
        accesses,
        fixups,
    } = plan;
    let mut st = FnStats {
        retyped: order.len() as u64,
        accesses: accesses.len() as u64,
        folded: 0,
    };
    let mut conv = Converter::default();
    for &(i, _, n) in &order {
        let ty = ir.ptr_type(n);
        ir.set_result_ptr_type(i, ty).map_err(edit_err)?;
    }
    for &(i, _, n) in &order {
        let incoming: Vec<_> = ir.phi_incoming(i).map(|(_, b)| b).collect();
        for k in ptr_operand_positions(ir, i) {
            let Some(o) = ir.operand(i, k) else { continue };
            if space_of(ir, o) == Some(n) {
                continue;
            }
            let site = match incoming.get(k) {
                Some(&b) if ir.opcode(i) == Opcode::Phi => ir.terminator(b).unwrap_or(i),
                _ => i,
            };
            let nv = conv.view_in(ir, o, n, site).map_err(edit_err)?;
            ir.set_pointer_operand(i, k, nv).map_err(edit_err)?;
        }
    }
    for &(i, idx, n) in &accesses {
        let Some(p) = ir.operand(i, idx) else {
            continue;
        };
        if space_of(ir, p) != Some(0) {
            continue;
        }
        let nv = conv.view_in(ir, p, n, i).map_err(edit_err)?;
        ir.set_pointer_operand(i, idx, nv).map_err(edit_err)?;
    }
    for &(r, u, k) in &fixups {
        if ir.operand(u, k) != Some(r) {
            continue;
        }
        let n = retype[&r];
        if ir.opcode(u) == Opcode::AddrSpaceCast {
            // Folder rule (1): a cast to the space the operand now has.
            if let Some(c) = ir.inst_result(u) {
                if space_of(ir, c) == Some(n) {
                    ir.replace_all_uses(c, r).map_err(edit_err)?;
                    ir.erase_inst(u).map_err(edit_err)?;
                    st.folded += 1;
                }
            }
            continue;
        }
        let back = conv.view_in(ir, r, 0, u).map_err(edit_err)?;
        ir.set_pointer_operand(u, k, back).map_err(edit_err)?;
    }
    st.folded += fold_casts(ir, f, &prov, &mut conv)?;
    Ok(st)
}

/// Spec 004 "Addrspacecast Folder": applies the three rules until no cast
/// changes, each cast at most once per round.
fn fold_casts<M: IrEdit + ?Sized>(
    ir: &mut M,
    f: FuncId,
    prov: &Provenance,
    conv: &mut Converter,
) -> Result<u64, PassFailure> {
    let mut folded = 0;
    loop {
        let casts: Vec<InstId> = ir
            .blocks(f)
            .collect::<Vec<_>>()
            .into_iter()
            .flat_map(|b| ir.insts(b).collect::<Vec<_>>())
            .filter(|&i| ir.opcode(i) == Opcode::AddrSpaceCast)
            .collect();
        let mut changed = false;
        let mut erased: HashSet<InstId> = HashSet::new();
        for c in casts {
            if erased.contains(&c) {
                continue;
            }
            let (Some(src), Some(res)) = (ir.operand(c, 0), ir.inst_result(c)) else {
                continue;
            };
            let Some(d) = space_of(ir, res) else { continue };
            // Rule (1): the operand already is in the target space.
            let mut replacement = (space_of(ir, src) == Some(d)).then_some(src);
            // Rule (2): a cast of a cast collapses to one cast.
            if replacement.is_none() {
                if let Some(inner) = cast_source(ir, src) {
                    if space_of(ir, inner) == Some(d) {
                        replacement = Some(inner);
                    } else if space_of(ir, inner) != space_of(ir, src) {
                        let ty = ir.value_type(res);
                        replacement = Some(
                            ir.build_cast(c, Opcode::AddrSpaceCast, inner, ty)
                                .map_err(edit_err)?,
                        );
                    }
                }
            }
            // Rule (3): a kernel pointer parameter cast to global uses the
            // single entry-block global view.
            if replacement.is_none() && d == 1 {
                if let ValueKind::Argument { func, index } = ir.value_kind(src) {
                    let kernel_ptr = prov.in_kernel()
                        && prov.of(ir, src) == AsLattice::Known(ConcreteSpace::Global)
                        && !ir.has_attr(
                            func,
                            AttrSlot::Param(index),
                            AttrKey::Kind(AttrKind::ByVal),
                        );
                    if kernel_ptr {
                        let entry = ir.entry_block(func);
                        let canonical = conv.view_in(ir, src, 1, c).map_err(edit_err)?;
                        if canonical != res
                            && entry.is_some()
                            && ir.value_kind(canonical) != ValueKind::Inst(c)
                        {
                            replacement = Some(canonical);
                        }
                    }
                }
            }
            if let Some(r) = replacement {
                if r == res {
                    continue;
                }
                ir.replace_all_uses(res, r).map_err(edit_err)?;
                ir.erase_inst(c).map_err(edit_err)?;
                erased.insert(c);
                if let ValueKind::Inst(inner) = ir.value_kind(src) {
                    if ir.opcode(inner) == Opcode::AddrSpaceCast && ir.has_no_uses(src) {
                        ir.erase_inst(inner).map_err(edit_err)?;
                        erased.insert(inner);
                    }
                }
                folded += 1;
                changed = true;
            }
        }
        if !changed {
            return Ok(folded);
        }
        conv.clear();
    }
}

impl<M: IrEdit + ?Sized> ModulePass<M> for MemSpaceOpt {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(
        &mut self,
        ir: &mut M,
        cx: &mut PassContext<'_>,
    ) -> Result<PreservedOrChanged, PassFailure> {
        if !cx.knob_bool(&MEMSPACE_OPT_ENABLE) {
            return Ok(PreservedOrChanged::Preserved);
        }
        let policy = cx.knob_str(&MEMSPACE_OPT_ALIAS_MERGE);
        if !ALIAS_MERGE_POLICIES.contains(&policy.as_str()) {
            return Err(PassFailure::new(format!(
                "memspace-opt: unknown --{} value '{policy}' (expected none, per-AS or unified)",
                MEMSPACE_OPT_ALIAS_MERGE.name
            )));
        }
        let verbose = cx.knob_bool(&MEMSPACE_OPT_VERBOSE);
        let opts = ProvenanceOptions {
            budget_cap: None,
            conservative: cx.knob_bool(&MEMSPACE_OPT_CONSERVATIVE),
        };
        let funcs: Vec<FuncId> = ir.funcs().filter(|&f| !ir.func_is_declaration(f)).collect();
        let kernels = KernelSet::compute(ir);
        let (mut retyped, mut accesses, mut folded) = (0, 0, 0);
        let threads = cx.threads();
        let global_only = global_only_intrinsics(ir);
        let analyze = |ir: &M, f| analyze_function(ir, f, opts, &kernels, &global_only);
        plan_and_apply(ir, &funcs, threads, analyze, |ir, f, (diags, plan)| {
            for d in diags {
                cx.emit(d);
            }
            let st = match plan? {
                Some(plan) => apply_plan(ir, f, plan)?,
                None => FnStats {
                    retyped: 0,
                    accesses: 0,
                    folded: 0,
                },
            };
            if verbose && st.retyped + st.accesses + st.folded > 0 {
                let d = Diagnostic::new(Severity::Note, INFO.name, "Trace").text(format!(
                    "{}: {} pointers retagged, {} accesses retagged, {} casts folded",
                    ir.func_name(f),
                    st.retyped,
                    st.accesses,
                    st.folded
                ));
                cx.emit(d);
            }
            retyped += st.retyped;
            accesses += st.accesses;
            folded += st.folded;
            Ok(())
        })?;
        cx.add_stat(&NUM_RETYPED, retyped);
        cx.add_stat(&NUM_ACCESSES, accesses);
        cx.add_stat(&NUM_FOLDED, folded);
        Ok(PreservedOrChanged::from_changed(
            retyped + accesses + folded > 0,
        ))
    }
}
