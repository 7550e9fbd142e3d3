//! `CDPLaunchExpander` (`cdp-launch-expander`): `cudaLaunchDevice` and
//! `cudaLaunchDeviceV2` become `__cudaCDP{1,2}LaunchDeviceV2`.
//!
//! Spec 002 "CDP Launch Expansion", "Algorithm": for each launch entry
//! point, check the child kernel, read the variant flag, and swap the callee
//! for the launch stub of that variant; operands are kept. The shared
//! behaviour (matching, flags, diagnostics) is documented on the parent
//! module.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use hashbrown::HashMap;
use nvpass_core::cdp::{CdpEntryKind, CdpVariant};
use nvpass_core::ir::{
    AttrSlot, Callee, FuncId, InstId, IrEdit, IrView, TypeId, TypeKind, ValueId,
};
use nvpass_core::names::CDP_LAUNCH_EXPANDER;
use nvpass_core::pass::{ModulePass, PassContext, PassFailure, PassInfo, PreservedOrChanged};

use super::dominance::Dominators;
use super::matching::{
    self, Layout, Origin, Site, Sites, KERNEL, V2_LAUNCH_BUFFER, V2_LAUNCH_STREAM,
};
use super::parameter_buffer::memory_ready;
use super::{
    call_attrs, callee_name, replace_with_stub_call, retarget_to_stub, warn_unreadable_flag,
    OwnedAttr, NUM_LAUNCHES_EXPANDED,
};

/// `cdp-launch-expander` / `CDPLaunchExpander`.
pub const LAUNCH_EXPANDER_INFO: PassInfo = PassInfo {
    name: "cdp-launch-expander",
    class_name: CDP_LAUNCH_EXPANDER,
    description: "expand cudaLaunchDevice to __cudaCDP*LaunchDeviceV2",
    knobs: &[],
    options: &[],
};

/// Rewrites launch entry points to the launch stubs.
#[derive(Copy, Clone, Default, Debug)]
pub struct CdpLaunchExpander;

impl<M: IrEdit + ?Sized> ModulePass<M> for CdpLaunchExpander {
    fn info(&self) -> &'static PassInfo {
        &LAUNCH_EXPANDER_INFO
    }

    fn run(
        &mut self,
        m: &mut M,
        cx: &mut PassContext<'_>,
    ) -> Result<PreservedOrChanged, PassFailure> {
        super::run(m, cx, &[CdpEntryKind::Launch])
    }
}

/// The `UnthreadedLaunchV2` warning: a `cudaLaunchDeviceV2(buffer,
/// stream)` whose child and geometry cannot be threaded forward, left as it
/// is because the stub of its variant is also called in the canonical
/// six-operand form in this module, and one stub must keep one signature
/// (ptxas rejects two prototypes of one function). Not a spec string: spec
/// 002 names the stubs but not this conflict.
pub const UNTHREADED_LAUNCH_V2: &str = "UnthreadedLaunchV2";

/// What happens to one launch.
enum Action {
    /// Swap the callee, keeping the operands.
    Retarget,
    /// `cudaLaunchDeviceV2(buf, stream)` becomes the six-operand
    /// `stub(kernel, buf, grid, block, smem, stream)` with the child and
    /// geometry of this `cudaGetParameterBufferV2` (or its stub).
    Thread { buffer: InstId },
    /// Left as it is, with a warning completed by the reason.
    Keep(&'static str),
}

/// Rewrites every launch entry point of `sites`; returns whether anything
/// changed. Targets were checked by the caller.
pub(super) fn rewrite<M: IrEdit + ?Sized>(
    m: &mut M,
    cx: &mut PassContext<'_>,
    sites: &Sites,
) -> Result<bool, PassFailure> {
    // Decide every call before the first edit.
    let mut doms: HashMap<FuncId, Dominators> = HashMap::new();
    let mut plan: Vec<(InstId, CdpVariant, Option<String>, Action)> = Vec::new();
    // Unthreaded two-operand launches, by plan index (ascending).
    let mut two_operand: Vec<usize> = Vec::new();
    let launches = sites.by_caller().flat_map(|(f, calls)| {
        let own = calls
            .iter()
            .filter(|s| s.kind == CdpEntryKind::Launch && s.origin == Origin::Entry);
        own.map(move |s| (f, s))
    });
    for (f, s) in launches {
        let (variant, unreadable) = matching::variant(m, s);
        let mut action = Action::Retarget;
        if s.layout == Layout::LaunchBufferOnly {
            let dom = doms.entry(f).or_insert_with(|| Dominators::compute(m, f));
            match threadable(m, dom, s) {
                Some(buffer) => action = Action::Thread { buffer },
                None => two_operand.push(plan.len()),
            }
        }
        plan.push((s.call, variant, unreadable, action));
    }
    // The signatures each stub has apart from the unthreaded two-operand
    // launches: the six-operand calls planned here (threaded ones with the
    // type they will be built with), the stub's declaration and its
    // existing calls. A two-operand launch whose stub has another one stays.
    let mut sigs: HashMap<&'static str, Vec<TypeId>> = HashMap::new();
    for (k, (call, variant, _, action)) in plan.iter().enumerate() {
        let stub = CdpEntryKind::Launch.stub(*variant);
        let ty = match action {
            Action::Thread { buffer } => Some(threaded_type(m, *call, *buffer)),
            _ if two_operand.binary_search(&k).is_ok() => None,
            _ => m.call_func_type(*call),
        };
        sigs.entry(stub).or_default().extend(ty);
    }
    for &k in &two_operand {
        let stub = CdpEntryKind::Launch.stub(plan[k].1);
        sigs.entry(stub).or_default();
    }
    for (stub, tys) in sigs.iter_mut() {
        if let Some(f) = m.func_by_name(stub) {
            tys.push(m.func_type(f));
            let fv = m.func_value(f);
            let calls = m
                .inst_users(fv)
                .filter(|&u| matches!(m.callee(u), Some(Callee::Direct(g)) if g == f));
            tys.extend(calls.filter_map(|u| m.call_func_type(u)));
        }
    }
    for &k in &two_operand {
        let (call, variant, _, _) = plan[k];
        let own = m.call_func_type(call);
        let stub = CdpEntryKind::Launch.stub(variant);
        if sigs
            .get(stub)
            .is_some_and(|t| t.iter().any(|&t| Some(t) != own))
        {
            plan[k].3 = Action::Keep(
                "its child and geometry cannot be threaded from a dominating cudaGetParameterBufferV2",
            );
        }
    }

    let mut expanded = 0u64;
    for (call, variant, unreadable, action) in plan {
        if let Some(value) = unreadable {
            warn_unreadable_flag(m, cx, call, &value);
        }
        let stub = CdpEntryKind::Launch.stub(variant);
        match action {
            Action::Retarget => retarget_to_stub(m, call, stub)?,
            Action::Thread { buffer } => thread_launch(m, call, buffer, stub)?,
            Action::Keep(reason) => {
                warn_unthreaded(m, cx, call, stub, reason);
                continue;
            }
        }
        expanded += 1;
    }
    cx.add_stat(&NUM_LAUNCHES_EXPANDED, expanded);
    Ok(expanded > 0)
}

/// Operands of the six-operand launch, by where they come from: the
/// buffer call's operand or the V2 launch's.
#[derive(Copy, Clone)]
enum From {
    Buffer(usize),
    Launch(usize),
}

/// `stub(kernel, buf, grid, block, smem, stream)` from
/// `cudaGetParameterBufferV2(kernel, grid, block, smem)` and
/// `cudaLaunchDeviceV2(buf, stream)`.
const THREADED: [From; 6] = [
    From::Buffer(KERNEL),
    From::Launch(V2_LAUNCH_BUFFER),
    From::Buffer(1),
    From::Buffer(2),
    From::Buffer(3),
    From::Launch(V2_LAUNCH_STREAM),
];

/// The buffer call whose child and geometry `launch`, a
/// `cudaLaunchDeviceV2(buf, stream)`, can take: a
/// `cudaGetParameterBufferV2` (or its stub) whose result is the launch's
/// buffer (through casts), that dominates the launch, and whose grid and
/// block, when passed in memory, hold the same contents at the launch (no
/// writer after the buffer call, address not escaping).
fn threadable<M: IrView + ?Sized>(m: &M, dom: &Dominators, launch: &Site) -> Option<InstId> {
    let buffer = matching::buffer_of_launch(m, launch)?;
    if buffer.layout != Layout::BufferWithGeometry
        || m.call_args(launch.call).count() < 2
        || !dom.inst_dominates(m, buffer.call, launch.call)
    {
        return None;
    }
    for k in [1, 2] {
        let v = m.operand(buffer.call, k)?;
        if matches!(m.type_kind(m.value_type(v)), TypeKind::Ptr(_))
            && !memory_ready(m, dom, v, buffer.call, &[buffer.call, launch.call])
        {
            return None;
        }
    }
    Some(buffer.call)
}

/// One threaded operand of `launch` / `buffer`.
fn threaded_operand<M: IrView + ?Sized>(
    m: &M,
    launch: InstId,
    buffer: InstId,
    from: From,
) -> (Option<ValueId>, Vec<OwnedAttr>) {
    let (i, k) = match from {
        From::Buffer(k) => (buffer, k),
        From::Launch(k) => (launch, k),
    };
    (m.operand(i, k), call_attrs(m, i, AttrSlot::Param(k as u32)))
}

/// The function type of the threaded six-operand launch.
fn threaded_type<M: IrEdit + ?Sized>(m: &mut M, launch: InstId, buffer: InstId) -> TypeId {
    let ret = m
        .inst_result(launch)
        .map(|v| m.value_type(v))
        .unwrap_or_else(|| m.void_type());
    let params: Vec<TypeId> = THREADED
        .iter()
        .filter_map(|&f| threaded_operand(m, launch, buffer, f).0)
        .map(|v| m.value_type(v))
        .collect();
    m.func_type_of(ret, &params, false)
}

/// Replaces `launch` by the six-operand call of `stub` threaded from
/// `buffer`, with the launch's attributes and `!dbg`.
fn thread_launch<M: IrEdit + ?Sized>(
    m: &mut M,
    launch: InstId,
    buffer: InstId,
    stub: &str,
) -> Result<(), PassFailure> {
    let mut args: Vec<ValueId> = Vec::new();
    let mut param_attrs: Vec<Vec<OwnedAttr>> = Vec::new();
    for &f in &THREADED {
        let (v, attrs) = threaded_operand(m, launch, buffer, f);
        args.push(v.ok_or_else(|| PassFailure::new("CDP call without its operands"))?);
        param_attrs.push(attrs);
    }
    let fn_ty = threaded_type(m, launch, buffer);
    replace_with_stub_call(m, launch, stub, fn_ty, &args, &param_attrs, "launch")?;
    Ok(())
}

/// Warns that `call` stays a `cudaLaunchDeviceV2` entry point.
fn warn_unthreaded<M: IrView + ?Sized>(
    m: &M,
    cx: &mut PassContext<'_>,
    call: InstId,
    stub: &str,
    reason: &str,
) {
    let func = String::from(m.func_name(m.inst_func(call)));
    let d = cx
        .warning(UNTHREADED_LAUNCH_V2)
        .in_function(func.clone())
        .at(m.debug_loc(call))
        .text("'")
        .arg("Callee", callee_name(m, call))
        .text("' in '")
        .arg("Function", func)
        .text("' is not rewritten: ")
        .arg("Reason", reason.to_string())
        .text(", and '")
        .arg("Stub", stub.to_string())
        .text("' is called with launch geometry in this module");
    cx.emit(d);
}
