//! `CDPParameterBuffer` (`cdp-parameter-buffer`): parameter-buffer
//! allocations become `__cudaCDP{1,2}GetParameterBufferV2(kernel, grid,
//! block, smem)`.
//!
//! Spec 002 "CDP Launch Expansion": "The parameter-buffer rewrite is not
//! merely a name swap": the legacy `cudaGetParameterBuffer(align, size)`
//! gets the child kernel and geometry of its matching launch. When there is
//! no usable matching launch it stays on the legacy ABI with a warning
//! (spec "Failure Modes"). `cudaGetParameterBufferV2` already carries them
//! and is only retargeted. Details on the parent module.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use hashbrown::{HashMap, HashSet};
use nvpass_core::cdp::{CdpEntryKind, CdpVariant};
use nvpass_core::ir::{
    AttrKind, AttrSlot, Callee, ConstKind, FuncId, InstId, IrEdit, IrView, Opcode, TypeKind,
    ValueId, ValueKind,
};
use nvpass_core::names::CDP_PARAMETER_BUFFER;
use nvpass_core::par::par_map_funcs;
use nvpass_core::pass::{ModulePass, PassContext, PassFailure, PassInfo, PreservedOrChanged};

use super::dominance::Dominators;
use super::hoist;
use super::matching::{self, Layout, Origin, Site, Sites, KERNEL, LAUNCH_GEOMETRY};
use super::{
    call_attrs, callee_name, replace_with_stub_call, retarget_to_stub, warn_unreadable_flag,
    OwnedAttr, NUM_BUFFERS_LEGACY, NUM_BUFFERS_REWRITTEN,
};

/// `cdp-parameter-buffer` / `CDPParameterBuffer`.
pub const PARAMETER_BUFFER_INFO: PassInfo = PassInfo {
    name: "cdp-parameter-buffer",
    class_name: CDP_PARAMETER_BUFFER,
    description: "wire up __cudaCDP*GetParameterBufferV2",
    knobs: &[],
    options: &[],
};

/// Rewrites parameter-buffer entry points to the buffer stubs.
#[derive(Copy, Clone, Default, Debug)]
pub struct CdpParameterBuffer;

impl<M: IrEdit + ?Sized> ModulePass<M> for CdpParameterBuffer {
    fn info(&self) -> &'static PassInfo {
        &PARAMETER_BUFFER_INFO
    }

    fn run(
        &mut self,
        m: &mut M,
        cx: &mut PassContext<'_>,
    ) -> Result<PreservedOrChanged, PassFailure> {
        super::run(m, cx, &[CdpEntryKind::ParameterBuffer])
    }
}

/// What happens to one buffer allocation.
enum Action {
    /// `cudaGetParameterBufferV2`: swap the callee.
    Retarget,
    /// `cudaGetParameterBuffer`: a new V2 call with this launch's kernel and
    /// geometry.
    Thread {
        /// The matching launch.
        launch: InstId,
        /// What moves, in order, to just before the allocation first.
        hoist: Vec<InstId>,
    },
    /// Stays legacy; the reason completes the warning.
    Legacy(&'static str),
    /// Stays legacy: the configuration is computed after the allocation
    /// and cannot move there, for this reason.
    NotComputed(hoist::Refusal),
}

/// The `LegacyParameterBuffer` reason when the launch configuration is
/// computed after the allocation (spec 002 "Failure Modes", "the
/// corresponding launch is unreachable"); the hoist's refusal follows it.
const NOT_COMPUTED: &str = "the launch's kernel or geometry is not computed before the allocation";

/// Rewrites every parameter-buffer entry point of `sites`; returns whether
/// anything changed. Targets were checked by the caller.
pub(super) fn rewrite<M: IrEdit + ?Sized>(
    m: &mut M,
    cx: &mut PassContext<'_>,
    sites: &Sites,
) -> Result<bool, PassFailure> {
    // Plan every call before the first edit, so that one rewrite cannot
    // change what another sees.
    let entries: Vec<(FuncId, Vec<&Site>)> = sites
        .by_caller()
        .map(|(f, calls)| {
            let own = calls
                .iter()
                .filter(|s| s.kind == CdpEntryKind::ParameterBuffer && s.origin == Origin::Entry);
            (f, own.collect::<Vec<_>>())
        })
        .filter(|(_, own)| !own.is_empty())
        .collect();
    let mut doms: HashMap<FuncId, Dominators> = HashMap::new();
    let plan: Vec<(FuncId, Plan)> = if cx.threads() > 1 {
        plan_on_threads(m, &entries, cx.threads(), &mut doms)
    } else {
        let mut plan = Vec::new();
        for (f, own) in &entries {
            plan.extend(own.iter().map(|s| (*f, plan_call(m, *f, s, &mut doms))));
        }
        plan
    };

    let (mut rewritten, mut legacy) = (0u64, 0u64);
    for (f, (call, variant, unreadable, action)) in plan {
        if let Some(value) = unreadable {
            warn_unreadable_flag(m, cx, call, &value);
        }
        let stub = CdpEntryKind::ParameterBuffer.stub(variant);
        match action {
            Action::Retarget => {
                retarget_to_stub(m, call, stub)?;
                rewritten += 1;
            }
            Action::Thread { launch, hoist } => {
                // Moving never changes the CFG, so the dominator trees
                // computed while planning stay valid.
                let dom = doms.entry(f).or_insert_with(|| Dominators::compute(m, f));
                for i in hoist {
                    // Another allocation's configuration may already have
                    // moved it higher (a value both launches use).
                    if dom.inst_dominates(m, i, call) {
                        continue;
                    }
                    m.move_inst_before(i, call).map_err(|e| {
                        PassFailure::new(format!("cannot move launch configuration: {e}"))
                    })?;
                    dom.moved(m, i, call);
                }
                // The plan is checked again on the edited IR, so that a
                // rewrite never uses a value where it is not defined.
                if !geometry_available(m, dom, call, launch) {
                    warn_legacy(m, cx, call, NOT_COMPUTED, "");
                    legacy += 1;
                    continue;
                }
                let new = thread_geometry(m, call, launch, stub)?;
                dom.replaced(call, new);
                rewritten += 1;
            }
            Action::Legacy(reason) => {
                warn_legacy(m, cx, call, reason, "");
                legacy += 1;
            }
            Action::NotComputed(why) => {
                warn_legacy(m, cx, call, NOT_COMPUTED, why);
                legacy += 1;
            }
        }
    }
    cx.add_stat(&NUM_BUFFERS_REWRITTEN, rewritten);
    cx.add_stat(&NUM_BUFFERS_LEGACY, legacy);
    Ok(rewritten > 0)
}

/// What to do with one buffer allocation: the call, its variant, an
/// unreadable flag's value, the action.
type Plan = (InstId, CdpVariant, Option<String>, Action);

/// The plans of `entries` (each caller's allocations), in their order,
/// each with its function, made on `threads` threads: a plan reads only
/// the unedited module, so each function's allocations are planned on one
/// of them with its own dominator tree, which goes to `doms`.
fn plan_on_threads<M: IrView + ?Sized>(
    m: &M,
    entries: &[(FuncId, Vec<&Site>)],
    threads: usize,
    doms: &mut HashMap<FuncId, Dominators>,
) -> Vec<(FuncId, Plan)> {
    let funcs: Vec<FuncId> = entries.iter().map(|(f, _)| *f).collect();
    let own_of: HashMap<FuncId, &[&Site]> = entries.iter().map(|(f, own)| (*f, &own[..])).collect();
    let planned = par_map_funcs(m, &funcs, threads, |m, f| {
        let mut own_doms = HashMap::new();
        let plans: Vec<Plan> = own_of[&f]
            .iter()
            .map(|s| plan_call(m, f, s, &mut own_doms))
            .collect();
        (own_doms, plans)
    });
    let mut plan = Vec::new();
    for (&f, (own_doms, plans)) in funcs.iter().zip(planned) {
        doms.extend(own_doms);
        plan.extend(plans.into_iter().map(|p| (f, p)));
    }
    plan
}

/// The plan for allocation `s`, a call in `f`; `doms` keeps the dominator
/// tree of each function one was needed for.
fn plan_call<M: IrView + ?Sized>(
    m: &M,
    f: FuncId,
    s: &Site,
    doms: &mut HashMap<FuncId, Dominators>,
) -> Plan {
    let (variant, unreadable) = matching::variant(m, s);
    let action = match s.layout {
        Layout::LegacyBuffer => match matching::launches_of_buffer(m, s.call).as_slice() {
            [] => Action::Legacy("no launch in the function uses the buffer"),
            [one] if one.layout == Layout::LaunchBufferOnly => Action::Legacy(
                "it is launched by cudaLaunchDeviceV2, which carries no launch geometry",
            ),
            [one] => {
                let dom = doms.entry(f).or_insert_with(|| Dominators::compute(m, f));
                if geometry_available(m, dom, s.call, one.call) {
                    Action::Thread {
                        launch: one.call,
                        hoist: Vec::new(),
                    }
                } else {
                    match hoist::plan(m, dom, s.call, one.call) {
                        Ok(hoist) => Action::Thread {
                            launch: one.call,
                            hoist,
                        },
                        Err(why) => Action::NotComputed(why),
                    }
                }
            }
            _ => Action::Legacy("several launches use the buffer"),
        },
        _ => Action::Retarget,
    };
    (s.call, variant, unreadable, action)
}

/// Spec 002 "Failure Modes", "Parameter-buffer / launch mismatch".
fn warn_legacy<M: IrView + ?Sized>(
    m: &M,
    cx: &mut PassContext<'_>,
    call: InstId,
    reason: &str,
    detail: &str,
) {
    let func = String::from(m.func_name(m.inst_func(call)));
    let d = cx
        .warning("LegacyParameterBuffer")
        .in_function(func.clone())
        .at(m.debug_loc(call))
        .text("'")
        .arg("Callee", callee_name(m, call))
        .text("' in '")
        .arg("Function", func)
        .text("' keeps the legacy parameter-buffer ABI: ")
        .arg("Reason", reason.to_string());
    let d = if detail.is_empty() {
        d
    } else {
        d.text(" and cannot be moved there: ")
            .arg("Detail", detail.to_string())
    };
    cx.emit(d);
}

/// Replaces legacy allocation `call` with
/// `stub(kernel, grid, block, smem)` built from `launch`'s operands;
/// returns the new call.
fn thread_geometry<M: IrEdit + ?Sized>(
    m: &mut M,
    call: InstId,
    launch: InstId,
    stub: &str,
) -> Result<InstId, PassFailure> {
    let old = m
        .inst_result(call)
        .ok_or_else(|| PassFailure::new("parameter-buffer call without a result"))?;
    let ret_ty = m.value_type(old);
    let mut args: Vec<ValueId> = Vec::new();
    let mut param_attrs: Vec<Vec<OwnedAttr>> = Vec::new();
    for k in core::iter::once(KERNEL).chain(LAUNCH_GEOMETRY) {
        let v = m
            .operand(launch, k)
            .ok_or_else(|| PassFailure::new("launch without geometry operands"))?;
        args.push(v);
        param_attrs.push(call_attrs(m, launch, AttrSlot::Param(k as u32)));
    }
    let param_tys: Vec<_> = args.iter().map(|&v| m.value_type(v)).collect();
    let fn_ty = m.func_type_of(ret_ty, &param_tys, false);
    replace_with_stub_call(
        m,
        call,
        stub,
        fn_ty,
        &args,
        &param_attrs,
        "parameter buffer",
    )
}

/// Whether `launch`'s kernel, grid, block and shared-memory operands exist
/// with their final contents where allocation `at` runs.
fn geometry_available<M: IrView + ?Sized>(
    m: &M,
    dom: &Dominators,
    at: InstId,
    launch: InstId,
) -> bool {
    core::iter::once(KERNEL)
        .chain(LAUNCH_GEOMETRY)
        .all(|k| match m.operand(launch, k) {
            None => false,
            Some(v) => {
                value_available(m, dom, v, at)
                    && (!matches!(m.type_kind(m.value_type(v)), TypeKind::Ptr(_))
                        || k == KERNEL
                        || memory_ready(m, dom, v, at, &[launch]))
            }
        })
}

/// Whether `v` is defined where `at` runs.
pub(super) fn value_available<M: IrView + ?Sized>(
    m: &M,
    dom: &Dominators,
    v: ValueId,
    at: InstId,
) -> bool {
    match m.value_kind(v) {
        ValueKind::Argument { .. }
        | ValueKind::Global(_)
        | ValueKind::Function(_)
        | ValueKind::Constant(_) => true,
        ValueKind::Inst(i) => dom.inst_dominates(m, i, at),
        ValueKind::InlineAsm | ValueKind::Metadata | ValueKind::Other => false,
    }
}

/// Whether the memory `ptr` points to (a grid or block passed in memory)
/// holds its final contents where `at` runs: see the parent module's
/// rules. The users in `skip` (the launch) are not counted as writers.
pub(super) fn memory_ready<M: IrView + ?Sized>(
    m: &M,
    dom: &Dominators,
    ptr: ValueId,
    at: InstId,
    skip: &[InstId],
) -> bool {
    let base = strip_address_arith(m, ptr);
    let local = match m.value_kind(base) {
        ValueKind::Global(g) => return m.global_is_constant(g),
        ValueKind::Inst(i) => m.opcode(i) == Opcode::Alloca,
        ValueKind::Argument { func, index } => m
            .attrs(func, AttrSlot::Param(index))
            .any(|a| a.key() == nvpass_core::ir::AttrKey::Kind(AttrKind::ByVal)),
        _ => false,
    };
    if !local {
        return false;
    }
    // Every use of the object, through casts and GEPs.
    let mut seen: HashSet<ValueId> = HashSet::new();
    let mut todo = alloc::vec![base];
    while let Some(v) = todo.pop() {
        if !seen.insert(v) {
            continue;
        }
        for u in m.inst_users(v) {
            if skip.contains(&u) {
                continue;
            }
            let op = m.opcode(u);
            if op == Opcode::Load {
                continue;
            }
            if op.is_cast() || op == Opcode::GetElementPtr {
                todo.extend(m.inst_result(u));
                continue;
            }
            let writer_ok = match op {
                // Storing the address itself lets it escape.
                Opcode::Store => m.operand(u, 0) != Some(v),
                Opcode::Call => {
                    if is_lifetime_marker(m, u) {
                        continue;
                    }
                    true
                }
                _ => false,
            };
            if !writer_ok || !dom.inst_dominates(m, u, at) {
                return false;
            }
        }
    }
    true
}

/// `v` with casts and `getelementptr`s (instructions or constant
/// expressions) peeled off: the object it points into.
pub(super) fn strip_address_arith<M: IrView + ?Sized>(m: &M, mut v: ValueId) -> ValueId {
    for _ in 0..64 {
        let next = match m.value_kind(v) {
            ValueKind::Inst(i) if m.opcode(i).is_cast() || m.opcode(i) == Opcode::GetElementPtr => {
                m.operand(i, 0)
            }
            ValueKind::Constant(ConstKind::Expr(op))
                if op.is_cast() || op == Opcode::GetElementPtr =>
            {
                m.const_operands(v).next()
            }
            _ => None,
        };
        match next {
            Some(n) => v = n,
            None => break,
        }
    }
    v
}

/// `llvm.lifetime.start` / `llvm.lifetime.end`: not writes.
pub(super) fn is_lifetime_marker<M: IrView + ?Sized>(m: &M, call: InstId) -> bool {
    matches!(m.callee(call), Some(Callee::Direct(f)) if m.func_name(f).starts_with("llvm.lifetime."))
}
