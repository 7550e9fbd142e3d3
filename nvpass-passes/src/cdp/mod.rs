//! CUDA Dynamic Parallelism: `CDPParameterBuffer` and `CDPLaunchExpander`,
//! and the pair `cdp` that runs them in order.
//!
//! Spec 002 "CDP Launch Expansion". Device code launches a child kernel with
//! two runtime calls: `cudaGetParameterBuffer` allocates the argument buffer,
//! `cudaLaunchDevice` launches. These passes rewrite them to the CDP runtime
//! stubs of the call site's variant:
//!
//! | pass (pipeline / class) | rewrites | to |
//! |---|---|---|
//! | `cdp-parameter-buffer` / `CDPParameterBuffer` | `cudaGetParameterBuffer(align, size)`, `cudaGetParameterBufferV2(kernel, grid, block, smem)` | `__cudaCDP{1,2}GetParameterBufferV2(kernel, grid, block, smem)` |
//! | `cdp-launch-expander` / `CDPLaunchExpander` | `cudaLaunchDevice(kernel, buf, grid, block, smem, stream)`, `cudaLaunchDeviceV2(buf, stream)` | `__cudaCDP{1,2}LaunchDeviceV2` with the same operands |
//! | `cdp` / `CDPExpansion` | both, parameter buffers first | |
//!
//! The stub names come from the two tables of [`nvpass_core::cdp`], indexed
//! by the variant; a new variant is new table rows, not new code here.
//! Entry points are recognized by their C names and by the C++-mangled
//! names clang emits (`_Z22cudaGetParameterBuffermm`,
//! `_Z16cudaLaunchDevicePvS_4dim3S0_jP10cudaStream`), both listed in
//! [`nvpass_core::cdp::CDP_ENTRY_POINTS`].
//!
//! # Matching (spec 002 "Matching Predicate")
//! A call is rewritten when (1) it is a direct `call` of an entry point
//! (with at least the arguments its layout names); (2) the child it
//! launches, if it resolves to a function, is a kernel; (3) its variant
//! flag selects the stub; (4) its function is lowered to PTX: a definition
//! of this module that is not `available_externally`. See `matching`.
//!
//! - **Variant flag.** The spec leaves the IR spelling open. nvpass uses the
//!   call-site string attribute `"nvvm.cdp.variant"="1"|"2"`
//!   ([`nvpass_core::cdp::CDP_VARIANT_ATTR`]). A call without its own flag
//!   takes its partner's (the buffer a launch launches, or the one launch
//!   that consumes a buffer, including the variant of a stub it was already
//!   rewritten to), so a pair tagged on one side stays on one ABI; with no
//!   flag on either side the variant is CDP-1, the spec's default. An
//!   unreadable flag (`"7"`) counts as missing and draws a warning
//!   (`UnreadableVariantFlag`).
//! - **Kernel identity.** The one predicate,
//!   [`nvpass_core::kernel::is_kernel_function`], plus a legacy
//!   `!nvvm.annotations` kernel mark (`!{ptr @k, !"kernel", i32 1}`), which
//!   is how clang 19 marks kernels before KernelAttrTransplanter has run;
//!   see `matching::Kernels`. A child that does not resolve to a function
//!   (a pointer loaded from memory) is not checked, as in the spec.
//!
//! # The V2 parameter buffer
//! `__cudaCDP*GetParameterBufferV2` takes the child kernel and the launch
//! geometry. For a legacy `cudaGetParameterBuffer` call these are threaded
//! back from its matching launch: the one launch whose buffer operand is the
//! allocation's result, possibly through casts. The new call is
//! `__cudaCDPnGetParameterBufferV2(kernel, grid, block, smem)` with the
//! launch's operands and their parameter attributes (so clang's
//! `ptr byval(%struct.dim3)` geometry stays `byval`); its declaration, when
//! absent, is created with the types of those operands (the spec's
//! `declare ptr @__cudaCDP1GetParameterBufferV2(ptr, %struct.dim3,
//! %struct.dim3, i32)` for by-value `dim3`). The allocation's own call
//! attributes (including the flag) and `!dbg` carry over; the result name
//! does not (no trait primitive renames values).
//!
//! Threading needs the geometry to exist where the buffer is allocated.
//! When it does not, spec 002 "Failure Modes" applies ("falls back to the
//! legacy cudaGetParameterBuffer ABI and emits a diagnostic"): the call is
//! kept and a warning `LegacyParameterBuffer` names the function and the
//! reason. The matching launch counts as unreachable when
//! - no launch in the function uses the buffer;
//! - several launches use it, or its launch is `cudaLaunchDeviceV2`, which
//!   carries no geometry;
//! - an operand (kernel, grid, block, smem) is an instruction that does not
//!   dominate the allocation; or a grid/block passed in memory (a pointer,
//!   clang's `byval` form) may be written after the allocation. Memory is
//!   accepted when it is a `constant` global, or an `alloca` or `byval`
//!   parameter whose every writer (store or call, other than lifetime
//!   markers and the launch) dominates the allocation, and whose address is
//!   not stored anywhere. Calls that initialize it are assumed not to keep
//!   its address;
//! - and in the last case the code computing it cannot move above the
//!   allocation (next section).
//!
//! ## Moving clang's launch configuration (`hoist`)
//! Clang's own device-side launch (clang 20+, CGCUDARuntime) allocates the
//! buffer, branches on `buffer != null`, and only then, in the branch,
//! stores the kernel arguments and evaluates `<<<grid, block, smem,
//! stream>>>` into `dim3` temporaries passed `ptr byval`. When the geometry
//! is not available at the allocation, the code that computes it moves, in
//! program order, to just before the allocation
//! ([`IrEdit::move_inst_before`]), and the buffer is threaded as above. It
//! moves only when all of these hold (otherwise the fallback and its
//! warning, which then says why nothing moved):
//! - **Straight line.** The launch's block is the allocation's, or is reached
//!   from it through blocks that each have one predecessor; "the region" is
//!   the instructions strictly between the two on that path. Every path to
//!   the launch runs through it.
//! - **Temporaries.** A grid or block in memory that is not ready (above) is
//!   an `alloca` dominating the allocation that does not escape: its only
//!   users (through casts and GEPs) are its writers, lifetime markers (a
//!   start dominates the allocation or moves too; no end in the region),
//!   the launch, loads dominated by the launch, and debug intrinsics.
//! - **Writers.** Each writer of a temporary dominates the allocation or is
//!   in the region and moves: a non-volatile store (not of the address
//!   itself); an `llvm.memcpy` with the temporary as destination, a
//!   constant `false` volatile flag, and a source (a `constant` global, an
//!   `alloca` or a `byval` parameter) whose writers all dominate the
//!   allocation and whose address is not stored; or a direct call, all of
//!   whose pointer arguments point into the temporaries, of a function
//!   that only writes through its pointer arguments and its own allocas
//!   (`hoist::init_only`: a non-interposable definition of one block ending
//!   in `ret`, with allocas, speculatable arithmetic, non-volatile loads of
//!   its own allocas, non-volatile stores through its pointer arguments or
//!   into its own allocas, a pointer stored only when it is an argument
//!   spilled to an own alloca, debug and lifetime intrinsics, and calls of
//!   functions passing the same test, at most
//!   `hoist::MAX_INITIALIZER_DEPTH` deep: clang -O0's `C1` -> `C2` `dim3`
//!   constructors).
//! - **Operands.** Every operand of a moved instruction, and the launch's
//!   kernel and shared-memory size, dominates the allocation or is computed
//!   in the region by an instruction that moves too: speculatable
//!   arithmetic, comparisons, casts, GEPs, `select`, aggregate and vector
//!   element operations (no integer division or remainder: a zero divisor
//!   the original never divided by), or a non-volatile load straight from
//!   an `alloca` whose writers all dominate the allocation and whose address
//!   is not stored (clang -O0's reload of a spilled `n`).
//!
//! Why this is sound: what moves writes only the non-escaping temporaries,
//! which nothing in the region (nor the allocation) can read or write; it
//! reads only memory nothing after the allocation writes; it cannot trap,
//! loop or unwind, so running it also when the allocation fails changes
//! nothing observable (the temporaries are read only after the launch).
//! Everything else stays where it was, so `<<<f(), 1>>>`, a load of memory
//! written in the region, a volatile access or a division keeps the legacy
//! ABI. The IR does not expose atomic orderings; an atomic access of a
//! non-escaping temporary is invisible to other threads, so it is treated
//! as a plain one. The stream is not threaded to the buffer, so its code
//! never moves. Instructions move upwards only (to a point dominating where
//! they were), and one that already dominates the allocation (moved for
//! another launch) stays; the geometry is checked again before the
//! rewrite. Moved instructions keep their names and `!dbg`, so the line
//! table shows the configuration before the allocation, where it now runs.
//!
//! # Launches
//! A `cudaLaunchDevice(kernel, buf, grid, block, smem, stream)` is rewritten
//! by swapping its callee to the stub and keeping every operand, attribute
//! and metadata ("rewrite_call_to_stub"); the stub's declaration, when
//! absent, takes the call's function type and parameter attributes.
//!
//! A `cudaLaunchDeviceV2(buf, stream)` carries no child or geometry, and a
//! stub called both with six and with two operands gets two signatures,
//! which LLVM accepts but ptxas rejects ("Call has wrong number of
//! parameters"). The six-operand form is the canonical one (the spec's
//! output shape), so a V2 launch becomes `stub(kernel, buf, grid, block,
//! smem, stream)` when its buffer (through casts) is a
//! `cudaGetParameterBufferV2(kernel, grid, block, smem)` or the buffer stub
//! it was rewritten to: the kernel, grid, block and shared-memory size are
//! that call's operands (with their parameter attributes), the buffer and
//! stream the launch's own; the launch's function and return attributes and
//! `!dbg` carry over, its result name does not. Threading needs the buffer
//! call to dominate the launch and, for a grid or block passed in memory,
//! the same contents at both (every writer dominates the buffer call, the
//! address is not stored). A V2 launch that cannot be threaded (a legacy
//! buffer, a buffer from memory) is retargeted with its two operands when
//! that keeps its stub at one signature (no other call or declaration of
//! the stub has another type); otherwise it is left unrewritten with the
//! warning `UnthreadedLaunchV2` ([`UNTHREADED_LAUNCH_V2`]): an entry point
//! left in place is a link-time question the user can see, a stub with two
//! prototypes is an assembler error. Two six-operand forms of different
//! types (a `dim3` by value and `ptr byval`) in one module are not
//! reconciled.
//!
//! # Diagnostics
//! - error `CDPTargetNotKernel` "CDP target is not a kernel: 'f' launched
//!   from 'g'" for each launch (or unconsumed `cudaGetParameterBufferV2`)
//!   whose child is a function that is not a kernel. The check runs over the
//!   whole module before any rewrite, and when it fails the pass changes
//!   nothing (spec: "emits a diagnostic and leaves the IR unchanged"); the
//!   CLI then writes no output.
//! - warning `LegacyParameterBuffer` (see above; when the configuration
//!   could not move, the reason follows "and cannot be moved there:"),
//!   warning `UnreadableVariantFlag`, warning `UnthreadedLaunchV2` (see
//!   "Launches").
//!
//! No knobs. Statistics: `NumBuffersRewritten`, `NumBuffersLegacy`,
//! `NumLaunchesExpanded`.
//!
//! # Why `cdp` is a composite pass
//! The registry maps one name to one pass, and the spec requires the
//! parameter-buffer rewrite before the launch expansion ("or visit them as
//! a pair"). `cdp` is therefore its own registered pass, class name
//! `CDPExpansion` (not one of spec 002's ten names), that checks targets once
//! and runs both rewrites in order. Run in the other order the passes still
//! pair up, because `matching` recognizes launches already rewritten to
//! stubs.
//!
//! # Idempotence
//! Only entry points are rewritten, so a second run finds only stubs and
//! what was deliberately left (a legacy buffer, an unthreaded V2 launch),
//! and makes the same decisions about those: running `cdp` twice equals
//! running it once.
//!
//! # Threads
//! Finding the CDP calls (function by function, `matching::sites_on`) and
//! planning every parameter-buffer rewrite (each function's calls with one
//! dominator tree) read the module only, so with several threads
//! ([`PassContext::threads`], the CLI's `-j`) the functions are shared
//! among them ([`nvpass_core::par::par_map_funcs`]). The results keep the
//! functions' order, and every edit, warning and statistic happens after,
//! on the calling thread, in the order of the calls: the output does not
//! depend on the thread count.
//!
//! [`IrEdit::move_inst_before`]: nvpass_core::ir::IrEdit::move_inst_before

mod dominance;
mod hoist;
mod launch_expander;
mod matching;
mod parameter_buffer;

use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use nvpass_core::cdp::CdpEntryKind;
use nvpass_core::ir::{
    Attr, AttrKind, AttrSlot, EditError, FuncId, InstId, IrEdit, IrView, TypeId, ValueId,
};
use nvpass_core::pass::{
    AnyPass, ModulePass, PassContext, PassFailure, PassInfo, PreservedOrChanged,
};
use nvpass_core::registry::{PassCtor, Registry};
use nvpass_core::stats::StatInfo;

pub use launch_expander::{CdpLaunchExpander, LAUNCH_EXPANDER_INFO, UNTHREADED_LAUNCH_V2};
pub use parameter_buffer::{CdpParameterBuffer, PARAMETER_BUFFER_INFO};

/// Class name of the `cdp` pair. Not one of spec 002's ten short names: it
/// names the pair the spec asks for ("visit them as a pair").
pub const CDP_EXPANSION: &str = "CDPExpansion";

/// `cdp`: [`CdpParameterBuffer`] then [`CdpLaunchExpander`].
pub const EXPANSION_INFO: PassInfo = PassInfo {
    name: "cdp",
    class_name: CDP_EXPANSION,
    description: "run CDPParameterBuffer then CDPLaunchExpander",
    knobs: &[],
    options: &[],
};

const NUM_BUFFERS_REWRITTEN: StatInfo = StatInfo {
    name: "NumBuffersRewritten",
    description: "Number of parameter-buffer calls rewritten to __cudaCDP*GetParameterBufferV2",
};
const NUM_BUFFERS_LEGACY: StatInfo = StatInfo {
    name: "NumBuffersLegacy",
    description: "Number of parameter-buffer calls kept on the legacy ABI",
};
const NUM_LAUNCHES_EXPANDED: StatInfo = StatInfo {
    name: "NumLaunchesExpanded",
    description: "Number of launches rewritten to __cudaCDP*LaunchDeviceV2",
};

/// Registers `cdp`, `cdp-parameter-buffer` and `cdp-launch-expander`.
pub fn register<M: IrEdit + ?Sized>(r: &mut Registry<M>) {
    let entries: [(&'static PassInfo, PassCtor<M>); 3] = [
        (&EXPANSION_INFO, |_| {
            Ok(AnyPass::Transform(Box::new(CdpExpansion)))
        }),
        (&PARAMETER_BUFFER_INFO, |_| {
            Ok(AnyPass::Transform(Box::new(CdpParameterBuffer)))
        }),
        (&LAUNCH_EXPANDER_INFO, |_| {
            Ok(AnyPass::Transform(Box::new(CdpLaunchExpander)))
        }),
    ];
    for (info, ctor) in entries {
        // The three names are fixed and distinct from every other family's.
        r.register(info, ctor)
            .expect("CDP pass names are registered once");
    }
}

/// The `cdp` pair: checks launch targets once, then rewrites parameter
/// buffers, then launches.
#[derive(Copy, Clone, Default, Debug)]
pub struct CdpExpansion;

impl<M: IrEdit + ?Sized> ModulePass<M> for CdpExpansion {
    fn info(&self) -> &'static PassInfo {
        &EXPANSION_INFO
    }

    fn run(
        &mut self,
        m: &mut M,
        cx: &mut PassContext<'_>,
    ) -> Result<PreservedOrChanged, PassFailure> {
        run(
            m,
            cx,
            &[CdpEntryKind::ParameterBuffer, CdpEntryKind::Launch],
        )
    }
}

/// Checks every CDP call's target, then runs the rewrites of `kinds` in
/// order. Unchanged IR when a target is not a kernel.
fn run<M: IrEdit + ?Sized>(
    m: &mut M,
    cx: &mut PassContext<'_>,
    kinds: &[CdpEntryKind],
) -> Result<PreservedOrChanged, PassFailure> {
    let sites = matching::sites_on(m, cx.threads());
    if sites.is_empty() {
        return Ok(PreservedOrChanged::Preserved);
    }
    let kernels = matching::Kernels::new();
    let bad = matching::bad_targets(m, &sites, &kernels);
    if !bad.is_empty() {
        for b in bad {
            let caller = String::from(m.func_name(b.caller));
            let callee = String::from(m.func_name(b.callee));
            let d = cx
                .error("CDPTargetNotKernel")
                .in_function(caller.clone())
                .at(m.debug_loc(b.call))
                .text("CDP target is not a kernel: '")
                .arg("Callee", callee)
                .text("' launched from '")
                .arg("Caller", caller)
                .text("'");
            cx.emit(d);
        }
        return Ok(PreservedOrChanged::Preserved);
    }
    let mut changed = false;
    // One list serves every rewrite: each rewrites only the entry points of
    // its own kind, and leaves the calls of the other kind in place and
    // unchanged (a buffer rewrite moves only what the buffer call reads,
    // which a launch never is; a launch rewrite touches launches only). The
    // entries of the kind already rewritten go stale, and the next rewrite
    // does not read them. Debug builds check the claim with a fresh walk.
    for kind in kinds {
        debug_assert!(
            matching::sites(m)
                .iter()
                .filter(|s| s.kind == *kind)
                .eq(sites.iter().filter(|s| s.kind == *kind)),
            "an earlier CDP rewrite changed the {kind:?} calls"
        );
        changed |= match kind {
            CdpEntryKind::ParameterBuffer => parameter_buffer::rewrite(m, cx, &sites)?,
            CdpEntryKind::Launch => launch_expander::rewrite(m, cx, &sites)?,
        };
    }
    Ok(PreservedOrChanged::from_changed(changed))
}

/// Warns about an unreadable variant flag on `call`.
fn warn_unreadable_flag<M: IrView + ?Sized>(
    m: &M,
    cx: &mut PassContext<'_>,
    call: InstId,
    value: &str,
) {
    let func = String::from(m.func_name(m.inst_func(call)));
    let callee = callee_name(m, call);
    let d = cx
        .warning("UnreadableVariantFlag")
        .in_function(func.clone())
        .at(m.debug_loc(call))
        .text("call to '")
        .arg("Callee", callee)
        .text("' in '")
        .arg("Function", func)
        .text("' has an unreadable CDP variant flag \"")
        .arg("Flag", value.to_string())
        .text("\"; using CDP-1");
    cx.emit(d);
}

/// The name of a direct call's callee (`""` otherwise).
fn callee_name<M: IrView + ?Sized>(m: &M, call: InstId) -> String {
    match m.callee(call) {
        Some(nvpass_core::ir::Callee::Direct(f)) => String::from(m.func_name(f)),
        _ => String::new(),
    }
}

/// An attribute copied out of the IR, so it can be re-added after edits.
#[derive(Clone, Debug)]
enum OwnedAttr {
    Enum(AttrKind),
    Int(AttrKind, u64),
    Type(AttrKind, TypeId),
    Str(String, String),
    Unknown(String),
}

impl OwnedAttr {
    fn of(a: Attr<'_>) -> OwnedAttr {
        match a {
            Attr::Enum(k) => OwnedAttr::Enum(k),
            Attr::Int(k, n) => OwnedAttr::Int(k, n),
            Attr::Type(k, t) => OwnedAttr::Type(k, t),
            Attr::Str(k, v) => OwnedAttr::Str(k.into(), v.into()),
            Attr::Unknown(t) => OwnedAttr::Unknown(t.into()),
        }
    }

    fn as_attr(&self) -> Attr<'_> {
        match self {
            OwnedAttr::Enum(k) => Attr::Enum(*k),
            OwnedAttr::Int(k, n) => Attr::Int(*k, *n),
            OwnedAttr::Type(k, t) => Attr::Type(*k, *t),
            OwnedAttr::Str(k, v) => Attr::Str(k, v),
            OwnedAttr::Unknown(t) => Attr::Unknown(t),
        }
    }
}

/// The attributes of list `slot` of call site `call`.
fn call_attrs<M: IrView + ?Sized>(m: &M, call: InstId, slot: AttrSlot) -> Vec<OwnedAttr> {
    m.call_attrs(call, slot).map(OwnedAttr::of).collect()
}

/// The stub function `name`: the existing function of that name, or a new
/// declaration of type `fn_ty` whose parameter `k` gets `param_attrs(m)[k]`
/// (asked only then: every call but the first of a stub finds it).
/// An existing stub is used whatever its declared type; calls name their
/// own function type.
fn stub_func<M: IrEdit + ?Sized>(
    m: &mut M,
    name: &str,
    fn_ty: TypeId,
    param_attrs: impl FnOnce(&M) -> Vec<Vec<OwnedAttr>>,
) -> Result<FuncId, PassFailure> {
    if let Some(f) = m.func_by_name(name) {
        return Ok(f);
    }
    let param_attrs = param_attrs(m);
    let f = m
        .declare_function(name, fn_ty)
        .map_err(|e| PassFailure::new(format!("cannot declare CDP stub '{name}': {e}")))?;
    for (k, attrs) in param_attrs.iter().enumerate() {
        for a in attrs {
            m.add_attr(f, AttrSlot::Param(k as u32), a.as_attr());
        }
    }
    Ok(f)
}

/// Replaces call `old` by a call of stub `name` (declared with `fn_ty` and
/// `param_attrs` when absent) with `args`: the new call gets `param_attrs`,
/// `old`'s function and return attributes and its `!dbg`, and takes over
/// `old`'s uses; `old` is erased. Returns the new call. `what` names the
/// rewrite in errors.
fn replace_with_stub_call<M: IrEdit + ?Sized>(
    m: &mut M,
    old: InstId,
    name: &str,
    fn_ty: TypeId,
    args: &[ValueId],
    param_attrs: &[Vec<OwnedAttr>],
    what: &str,
) -> Result<InstId, PassFailure> {
    let fail = |e: EditError| PassFailure::new(format!("cannot rewrite {what} to '{name}': {e}"));
    let fn_attrs = call_attrs(m, old, AttrSlot::Function);
    let ret_attrs = call_attrs(m, old, AttrSlot::Return);
    let dbg = m.inst_md(old, "dbg");
    let stub_f = stub_func(m, name, fn_ty, |_| param_attrs.to_vec())?;
    let callee = m.func_value(stub_f);
    let new = m.build_call(old, fn_ty, callee, args).map_err(fail)?;
    let lists = [
        (AttrSlot::Function, &fn_attrs),
        (AttrSlot::Return, &ret_attrs),
    ];
    let params = param_attrs
        .iter()
        .enumerate()
        .map(|(k, attrs)| (AttrSlot::Param(k as u32), attrs));
    for (slot, attrs) in lists.into_iter().chain(params) {
        for a in attrs {
            m.add_call_attr(new, slot, a.as_attr()).map_err(fail)?;
        }
    }
    if dbg.is_some() {
        m.set_inst_md(new, "dbg", dbg);
    }
    if let Some(old_v) = m.inst_result(old) {
        let new_v = m
            .inst_result(new)
            .ok_or_else(|| PassFailure::new(format!("'{name}' call without a result")))?;
        m.replace_all_uses(old_v, new_v).map_err(fail)?;
    }
    m.erase_inst(old).map_err(fail)?;
    Ok(new)
}

/// Makes `call` call stub `name` with its own operands and function type
/// (spec 002's `rewrite_call_to_stub`).
fn retarget_to_stub<M: IrEdit + ?Sized>(
    m: &mut M,
    call: InstId,
    name: &str,
) -> Result<(), PassFailure> {
    let fn_ty = m
        .call_func_type(call)
        .ok_or_else(|| PassFailure::new("CDP call without a function type"))?;
    let stub = stub_func(m, name, fn_ty, |m| {
        (0..m.call_args(call).count())
            .map(|k| call_attrs(m, call, AttrSlot::Param(k as u32)))
            .collect()
    })?;
    let callee = m.func_value(stub);
    m.set_callee(call, callee, fn_ty)
        .map_err(|e| PassFailure::new(format!("cannot retarget call to '{name}': {e}")))
}

#[cfg(test)]
mod tests;
