//! `inline-must` (`InlineMustPass`): spec 002 "Force-Inline Policy".
//!
//! # Phase 1: marker propagation
//!
//! A defined function gets `alwaysinline` when its body contains a
//! forced-inline trigger. The trigger set is deliberately narrow (spec 002
//! "Marker propagation false positive": "the trigger set should be exactly
//! the opcodes whose ABI requires inlining"):
//!
//! 1. **`__nv_*` math wrappers**: the function's name starts with
//!    [`NV_MATH_WRAPPER_PREFIX`] and its body calls an `llvm.nvvm.*`
//!    intrinsic (spec: "the __nv_* family that wraps NVPTX intrinsics").
//! 2. **Intrinsic wrappers carrying `convergent` or `noreturn`**: the body
//!    is one block of at most [`THIN_WRAPPER_MAX_INSTS`] instructions with
//!    exactly one call, that call is to an `llvm.*` intrinsic, and the call
//!    site or the intrinsic declaration is `convergent` or `noreturn`
//!    (spec: "the intrinsic-wrappers the frontend emits to attach
//!    convergent or noreturn to a callsite").
//! 3. **Intrinsics that cannot cross an ABI boundary**: a call to a
//!    texture/surface intrinsic bound to a texture reference
//!    ([`HANDLE_INTRINSIC_PREFIXES`], not the `.unified` bindless forms)
//!    whose handle operand is a parameter of the function. The back end
//!    must trace such a handle to its `texsurf.handle` global; a `.param`
//!    boundary hides it.
//!
//! The front end's string form of the marker, `"nvvm.always_inline"`
//! (spec 002's example), is honored: such functions get `alwaysinline` too.
//! Kernels, declarations, interposable functions and functions with
//! `noinline` or `optnone` are never marked. Marking is idempotent: a
//! function that has `alwaysinline` is left alone.
//!
//! The triggers are read on the body the pass leaves behind: inlining can
//! make a caller a trigger holder itself (its one call was to a thin
//! convergent wrapper, or it passes its own parameter to a texture helper).
//! So after phase 2, phase 1 looks again at the callers that received
//! code, and phase 2 inlines the calls of those it marks, until no caller
//! is marked (spec 002 is silent on this; a second run would otherwise
//! mark them, and the pass would not be idempotent).
//!
//! # Phase 2: inlining
//!
//! Every call site whose direct callee has `alwaysinline` is inlined with
//! [`IrEdit::inline_call_with_info`], callers in module order, including
//! the calls that inlining copies in (so chains of always-inline helpers
//! collapse in one run). A caller's call sites of those callees come from
//! their use lists, when nothing but instructions uses them, so a caller
//! that only takes a marked function's address (a kernel it launches) is
//! not walked. Within a caller, call sites are taken from last
//! to first, and the calls an inlining copies in are taken right after it,
//! again last first. This is the order in which LLVM's always-inliner
//! meets a callee's uses (the newest use first), so inlined names get the
//! same suffixes (the last call's copies get `.i`). It also keeps inlining
//! linear in the size of a block: inlining a callee of several blocks
//! splits the caller's block after the call and moves what follows, and
//! taking the calls of a block in source order would move the rest of the
//! block once per call. A call is not inlined, and gets the Missed remark
//! `NotAlwaysInline` "`<callee>` not AlwaysInline into `<caller>`
//! (`<reason>`)", when the callee is a declaration, is interposable, is
//! part of a recursive cycle (a call-graph SCC with more than one function
//! or a self-call; a cycle is never inlined, so a second run makes the same
//! decisions and the pass is idempotent), or when the host refuses the
//! edit (`invoke`, variadic callee, ...). Successful inlinings get the
//! Passed remark `AlwaysInline`.
//!
//! A caller that was inlined somewhere earlier in the phase and has no use
//! left is erased on the spot instead of being inlined into: it would be
//! erased at the end of the phase anyway (in clang's output a helper
//! usually follows its callers, and on CUB kernels four inlinings in five
//! went into such dead helpers). LLVM's always-inliner likewise erases a
//! callee once its last call is inlined, so no later inlining goes into
//! it. The callees it would have received count as inlined, so they are
//! erased at the end when nothing else uses them. This is done only when
//! the outcome is sure to be the same for every function that stays: each
//! inlining it would get, and each one those would bring in, is sure to
//! succeed (not a declaration, interposable or cyclic callee, and
//! [`IrEdit::inline_would_succeed`]: for the reference IR, no `invoke`,
//! variadic callee, mismatched call type, or `byval` copy that would
//! declare `llvm.memcpy`), and no always-inline function is named in
//! those bodies other than as such a callee (whose early erasure could
//! decide whether it is erased). Otherwise the caller is inlined into as
//! before. The statistics and remarks then count only the inlinings that
//! remain; debug locations made for the dropped copies are not made.
//!
//! Allocas brought in by inlining are merged ([`super::merge`]) unless
//! `disable-inlined-alloca-merging` is set. Internal callees left without
//! uses are erased ([`super::remove_dead_callees`]).

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use hashbrown::HashSet;
use nvpass_core::diag::RemarkKind;
use nvpass_core::inline_cost::{
    direct_callee, INTRINSIC_NAME_PREFIX, KNOB_DISABLE_INLINED_ALLOCA_MERGING,
};
use nvpass_core::ir::{
    Attr, AttrKey, AttrKind, AttrSlot, FuncId, InstId, IrEdit, IrView, ValueId, ValueKind,
};
use nvpass_core::kernel::is_kernel_function;
use nvpass_core::knob::KnobInfo;
use nvpass_core::names::INLINE_MUST_PASS;
use nvpass_core::pass::{ModulePass, PassContext, PassFailure, PassInfo, PreservedOrChanged};
use nvpass_core::stats::StatInfo;

use super::callgraph::{call_sites, Sccs};
use super::merge::CallerInliner;
use super::{is_dead_discardable, remove_dead_callees};

/// Name prefix of the libdevice math wrappers (trigger 1).
///
/// Spec 002 "Force-Inline Marker Propagation": "math-library wrappers (the
/// __nv_* family that wraps NVPTX intrinsics)".
pub const NV_MATH_WRAPPER_PREFIX: &str = "__nv_";

/// Prefix of the NVPTX intrinsics a math wrapper wraps (trigger 1).
///
/// Spec 002 "Force-Inline Marker Propagation": "wraps NVPTX intrinsics".
pub const NVVM_INTRINSIC_PREFIX: &str = "llvm.nvvm.";

/// Largest body, in instructions, of an intrinsic wrapper (trigger 2).
///
/// Spec 002 "Force-Inline Marker Propagation": the spec gives no size;
/// a wrapper is the call plus a few casts and the `ret`.
pub const THIN_WRAPPER_MAX_INSTS: usize = 8;

/// Texture/surface intrinsics whose first operand is a texture-reference
/// handle that must not cross a call boundary (trigger 3); names containing
/// [`BINDLESS_MARKER`] are excluded.
///
/// Spec 002 "Force-Inline Marker Propagation": "any helper whose body
/// contains an NVPTX intrinsic that cannot survive an ABI boundary".
pub const HANDLE_INTRINSIC_PREFIXES: [&str; 7] = [
    "llvm.nvvm.tex.",
    "llvm.nvvm.tld4.",
    "llvm.nvvm.suld.",
    "llvm.nvvm.sust.",
    "llvm.nvvm.txq.",
    "llvm.nvvm.suq.",
    "llvm.nvvm.istypep.",
];

/// Marks the bindless forms of the texture intrinsics, which take an `i64`
/// texture object that is an ordinary value.
///
/// Spec 002 "Force-Inline Marker Propagation" (see
/// [`HANDLE_INTRINSIC_PREFIXES`]).
pub const BINDLESS_MARKER: &str = ".unified.";

/// The front end's string spelling of the always-inline marker.
///
/// Spec 002 "Input and Output IR Shape": `define internal float
/// @sqrt_approx(float %x) "nvvm.always_inline"`.
pub const NVVM_ALWAYS_INLINE_ATTR: &str = "nvvm.always_inline";

/// The remark text after the callee, followed by the caller's name.
///
/// Spec 002 "Force-Inline Policy": `emit_remark(&caller, "not AlwaysInline
/// into ", caller.getName())`.
pub const NOT_ALWAYS_INLINE_INTO: &str = "not AlwaysInline into ";

/// Knobs read by InlineMustPass.
pub const INLINE_MUST_KNOBS: &[KnobInfo] = &[KNOB_DISABLE_INLINED_ALLOCA_MERGING];

/// `inline-must`.
pub const INLINE_MUST_INFO: PassInfo = PassInfo {
    name: "inline-must",
    class_name: INLINE_MUST_PASS,
    description:
        "Propagate alwaysinline to forced-inline helpers and inline every alwaysinline callee",
    knobs: INLINE_MUST_KNOBS,
    options: &[],
};

/// Statistic: functions marked by phase 1.
pub const NUM_MARKED: StatInfo = StatInfo {
    name: "NumMarked",
    description: "Number of functions marked alwaysinline by marker propagation",
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

/// Which trigger of phase 1 fires for `f`, if any (for the remark).
pub fn forced_inline_trigger<M: IrView + ?Sized>(m: &M, f: FuncId) -> Option<&'static str> {
    if m.str_attr(f, AttrSlot::Function, NVVM_ALWAYS_INLINE_ATTR)
        .is_some()
    {
        return Some("nvvm.always_inline attribute");
    }
    // One walk over the body gathers what the three triggers look at.
    let math_name = m.func_name(f).starts_with(NV_MATH_WRAPPER_PREFIX);
    let (mut blocks, mut insts, mut calls) = (0usize, 0usize, 0usize);
    let mut first_direct: Option<(InstId, FuncId)> = None;
    let (mut math, mut handle) = (false, false);
    for b in m.blocks(f) {
        blocks += 1;
        for i in m.insts(b) {
            insts += 1;
            if !m.opcode(i).is_call() {
                continue;
            }
            calls += 1;
            let Some(g) = direct_callee(m, i) else {
                continue;
            };
            first_direct.get_or_insert((i, g));
            let n = m.func_name(g);
            math |= math_name && n.starts_with(NVVM_INTRINSIC_PREFIX);
            handle = handle
                || (HANDLE_INTRINSIC_PREFIXES.iter().any(|p| n.starts_with(p))
                    && !n.contains(BINDLESS_MARKER)
                    && m.call_args(i).next().is_some_and(|a| {
                        matches!(m.value_kind(a), ValueKind::Argument { func, .. } if func == f)
                    }));
        }
    }
    if math {
        return Some("__nv_ math wrapper");
    }
    if blocks == 1 && insts <= THIN_WRAPPER_MAX_INSTS && calls == 1 {
        if let Some((c, g)) = first_direct {
            let attr_on = |k| {
                m.call_has_attr(c, AttrSlot::Function, AttrKey::Kind(k))
                    || m.has_attr(g, AttrSlot::Function, AttrKey::Kind(k))
            };
            if m.func_name_starts_with(g, INTRINSIC_NAME_PREFIX)
                && (attr_on(AttrKind::Convergent) || attr_on(AttrKind::NoReturn))
            {
                return Some("convergent/noreturn intrinsic wrapper");
            }
        }
    }
    if handle {
        return Some("texture/surface handle parameter");
    }
    None
}

fn has_fn_attr<M: IrView + ?Sized>(m: &M, f: FuncId, k: AttrKind) -> bool {
    m.has_attr(f, AttrSlot::Function, AttrKey::Kind(k))
}

/// Phase 1; returns whether a function was marked.
pub fn propagate_markers<M: IrEdit + ?Sized>(m: &mut M, cx: &mut PassContext<'_>) -> bool {
    !mark(m, cx, None).is_empty()
}

/// Marks the functions that phase 1's triggers select, in module order:
/// every function, or with `only`, those in it. Returns the marked ones.
fn mark<M: IrEdit + ?Sized>(
    m: &mut M,
    cx: &mut PassContext<'_>,
    only: Option<&HashSet<FuncId>>,
) -> Vec<FuncId> {
    let todo: Vec<(FuncId, &'static str)> = m
        .funcs()
        .filter(|f| only.is_none_or(|o| o.contains(f)))
        .filter(|&f| {
            !m.func_is_declaration(f)
                && !has_fn_attr(m, f, AttrKind::AlwaysInline)
                && !has_fn_attr(m, f, AttrKind::NoInline)
                && !has_fn_attr(m, f, AttrKind::OptNone)
                && !m.func_linkage(f).is_interposable()
                && !is_kernel_function(m, f)
        })
        .filter_map(|f| forced_inline_trigger(m, f).map(|t| (f, t)))
        .collect();
    for &(f, trigger) in &todo {
        m.add_attr(f, AttrSlot::Function, Attr::Enum(AttrKind::AlwaysInline));
        cx.add_stat(&NUM_MARKED, 1);
        let name = m.func_name(f).to_string();
        let d = cx
            .remark(RemarkKind::Analysis, "ForceInlineMarker")
            .in_function(name.clone())
            .arg("Callee", name)
            .text(" marked alwaysinline: ")
            .arg("Trigger", trigger);
        cx.emit(d);
    }
    todo.into_iter().map(|(f, _)| f).collect()
}

/// Functions that are part of a recursive cycle: an SCC of more than one
/// function, or a function that calls itself.
pub fn cyclic_functions<M: IrView + ?Sized>(m: &M) -> HashSet<FuncId> {
    let sccs = Sccs::compute(m);
    m.funcs().filter(|&f| sccs.is_recursive(f)).collect()
}

fn missed<M: IrView + ?Sized>(
    m: &M,
    cx: &mut PassContext<'_>,
    call: InstId,
    callee: &str,
    caller: &str,
    reason: &str,
) {
    let d = cx
        .remark(RemarkKind::Missed, "NotAlwaysInline")
        .in_function(String::from(caller))
        .at(m.debug_loc(call))
        .arg("Callee", callee.to_string())
        .text(" ")
        .text(NOT_ALWAYS_INLINE_INTO)
        .arg("Caller", caller.to_string())
        .text(" (")
        .arg("Reason", reason.to_string())
        .text(")");
    cx.emit(d);
}

/// Phase 2: inlines the calls of `alwaysinline` functions, of every one or,
/// with `only`, of those in it (and, either way, the calls the inlined
/// bodies bring in). Returns whether anything was inlined or deleted, and
/// the callers that received inlined code.
fn inline_calls<M: IrEdit + ?Sized>(
    m: &mut M,
    cx: &mut PassContext<'_>,
    only: Option<&HashSet<FuncId>>,
) -> (bool, HashSet<FuncId>) {
    let merge = !cx.knob_bool(&KNOB_DISABLE_INLINED_ALLOCA_MERGING);
    let mut grown: HashSet<FuncId> = HashSet::new();
    // Only calls of `alwaysinline` functions are looked at, so only their
    // callers are visited (every definition when one is used other than
    // by an instruction), and a module without one costs one pass over the
    // function list.
    // Every `alwaysinline` function, asked once: inlining changes no
    // function's attributes, so the set holds for the whole phase.
    let marked: HashSet<FuncId> = m
        .funcs()
        .filter(|&f| has_fn_attr(m, f, AttrKind::AlwaysInline))
        .collect();
    let always: Vec<FuncId> = match only {
        Some(o) => m.funcs().filter(|f| o.contains(f)).collect(),
        None => m.funcs().filter(|f| marked.contains(f)).collect(),
    };
    if always.is_empty() {
        return (false, grown);
    }
    let calling = crate::uses::functions_using(m, always.iter().copied());
    // When every use of those functions is an instruction's, the calls of
    // them are among their uses: each caller's are gathered there, and its
    // body is not walked for calls. The loop skips every other call, so a
    // caller's list of these, in layout order, gives it the work its whole
    // body would.
    let mut gathered = calling
        .as_ref()
        .map(|_| crate::uses::direct_calls_by_caller(m, &always, |_| true));
    // Computed at the first call that needs it: a whole-module walk, which
    // modules whose marked functions are never called (kernels) skip.
    let mut cyclic: Option<HashSet<FuncId>> = None;
    let callers: Vec<FuncId> = m
        .funcs()
        .filter(|&f| !m.func_is_declaration(f))
        .filter(|f| calling.as_ref().is_none_or(|c| c.contains(f)))
        .collect();
    // The callees inlined somewhere in this phase: the functions erased at
    // its end if nothing uses them any more.
    let mut inlined_set: HashSet<FuncId> = HashSet::new();
    // Functions whose inlining closure `sure_closure` has vouched for.
    let mut closed: HashSet<FuncId> = HashSet::new();
    let mut erased_early = 0;
    let mut changed = false;
    for caller in callers {
        // A caller already inlined somewhere in this phase and left without
        // a use is erased instead of being inlined into (see the module
        // docs), when every inlining it would get is sure to succeed.
        if only.is_none() && inlined_set.contains(&caller) && is_dead_discardable(m, caller) {
            let cyclic = cyclic.get_or_insert_with(|| cyclic_functions(m));
            if let Some(reached) = sure_closure(m, caller, &marked, cyclic, &closed) {
                if m.erase_function(caller).is_ok() {
                    erased_early += 1;
                    closed.extend(reached.iter().copied());
                    inlined_set.extend(reached);
                    continue;
                }
            }
        }
        let mut st = CallerInliner::new(merge);
        // A stack: the last call site first, and the calls an inlining
        // copies in right after it (see the module docs).
        let mut work: Vec<InstId> = match gathered.as_mut() {
            Some(calls) => {
                crate::uses::in_layout_order(m, caller, calls.remove(&caller).unwrap_or_default())
            }
            None => call_sites(m, caller),
        };
        if let Some(o) = only {
            // Calls of other functions were decided (and any refusal
            // reported) when they were first met.
            work.retain(|&c| direct_callee(m, c).is_some_and(|g| o.contains(&g)));
        }
        while let Some(call) = work.pop() {
            let Some(callee) = direct_callee(m, call) else {
                continue;
            };
            if !marked.contains(&callee) {
                continue;
            }
            // Names for the remarks, when any are kept.
            let remarks = cx.remarks_enabled();
            let name_of = |f: FuncId| {
                if remarks {
                    m.func_name(f).to_string()
                } else {
                    String::new()
                }
            };
            let caller_name = name_of(caller);
            let callee_name = name_of(callee);
            let refusal = if m.func_is_declaration(callee) {
                Some(String::from("callee is a declaration"))
            } else if m.func_linkage(callee).is_interposable() {
                Some(String::from("callee is interposable"))
            } else if callee == caller
                || cyclic
                    .get_or_insert_with(|| cyclic_functions(m))
                    .contains(&callee)
                || st.in_history(call, callee)
            {
                Some(String::from("recursive cycle"))
            } else {
                match st.inline(m, call, callee) {
                    Ok(done) => {
                        changed = true;
                        grown.insert(caller);
                        inlined_set.insert(callee);
                        cx.add_stat(&NUM_INLINED, 1);
                        cx.add_stat(&NUM_MERGED_ALLOCAS, done.merged_allocas);
                        work.extend(done.new_calls);
                        if remarks {
                            let d = cx
                                .remark(RemarkKind::Passed, "AlwaysInline")
                                .in_function(caller_name.clone())
                                .text("'")
                                .arg("Callee", callee_name.clone())
                                .text("' inlined into '")
                                .arg("Caller", caller_name.clone())
                                .text("' with (cost=always): always inline attribute");
                            cx.emit(d);
                        }
                        None
                    }
                    Err(e) => Some(e.to_string()),
                }
            };
            if let (Some(reason), true) = (refusal, remarks) {
                missed(m, cx, call, &callee_name, &caller_name, &reason);
            }
        }
    }
    let inlined_from: Vec<FuncId> = inlined_set.into_iter().collect();
    let deleted = erased_early + remove_dead_callees(m, &inlined_from);
    cx.add_stat(&NUM_DELETED, deleted);
    (changed || deleted > 0, grown)
}

/// The callees the inlining loop would inline into `root` (the calls of
/// `marked` functions in its body, then those in the copies, and so on),
/// when every one of those inlinings is sure to succeed and no function
/// of `marked` is referenced otherwise than as such a callee; `None` when
/// one is refused or may be (a declaration, an interposable or cyclic
/// callee, or one [`IrEdit::inline_would_succeed`] is not sure of) or such
/// a reference exists. Functions of `closed` were vouched for earlier with
/// everything they reach, so the walk does not enter them again.
///
/// The walk reads the bodies as they are: an inlining copies the callee's
/// body as it is, so the calls it would meet are those.
fn sure_closure<M: IrEdit + ?Sized>(
    m: &M,
    root: FuncId,
    marked: &HashSet<FuncId>,
    cyclic: &HashSet<FuncId>,
    closed: &HashSet<FuncId>,
) -> Option<Vec<FuncId>> {
    let mut reached: Vec<FuncId> = Vec::new();
    let mut seen: HashSet<FuncId> = HashSet::new();
    let mut stack = alloc::vec![root];
    while let Some(f) = stack.pop() {
        for b in m.blocks(f) {
            for i in m.insts(b) {
                let callee = if m.opcode(i).is_call() {
                    direct_callee(m, i).filter(|g| marked.contains(g))
                } else {
                    None
                };
                // Every mention of a marked function must be this callee
                // operand, once.
                let mut mentions = 0;
                for v in m.operands(i) {
                    mentions += marked_mentions(m, v, marked, 0)?;
                }
                let Some(g) = callee else {
                    if mentions > 0 {
                        return None;
                    }
                    continue;
                };
                let sure = mentions == 1
                    && g != root
                    && !cyclic.contains(&g)
                    && !m.func_is_declaration(g)
                    && !m.func_linkage(g).is_interposable()
                    && m.inline_would_succeed(i);
                if !sure {
                    return None;
                }
                if seen.insert(g) {
                    reached.push(g);
                    if !closed.contains(&g) {
                        stack.push(g);
                    }
                }
            }
        }
    }
    Some(reached)
}

/// How many times value `v` names a function of `marked`, looking through
/// constant expressions and aggregates and metadata wrappers; `None` past
/// [`MENTION_DEPTH`] levels of constants.
fn marked_mentions<M: IrView + ?Sized>(
    m: &M,
    v: ValueId,
    marked: &HashSet<FuncId>,
    depth: u32,
) -> Option<u32> {
    match m.value_kind(v) {
        ValueKind::Function(f) => Some(u32::from(marked.contains(&f))),
        ValueKind::Constant(_) => {
            if depth >= MENTION_DEPTH {
                return None;
            }
            let mut n = 0;
            for o in m.const_operands(v) {
                n += marked_mentions(m, o, marked, depth + 1)?;
            }
            Some(n)
        }
        ValueKind::Metadata => match m.metadata_value_operand(v) {
            Some(o) => marked_mentions(m, o, marked, depth + 1),
            None => Some(0),
        },
        _ => Some(0),
    }
}

/// How deep [`marked_mentions`] looks into nested constants before giving
/// up (and keeping the caller): real constant expressions nest a few
/// levels.
const MENTION_DEPTH: u32 = 8;

/// Both phases; returns whether anything changed.
///
/// Inlining can make a caller a forced-inline helper itself: a function
/// whose only call was to a thin convergent wrapper is such a wrapper once
/// the wrapper's body is in it. Phase 1 then looks again at the callers
/// that received code, and phase 2 inlines the calls of those it marks,
/// until no caller is marked. A second run therefore finds nothing to do.
pub fn run_inline_must<M: IrEdit + ?Sized>(m: &mut M, cx: &mut PassContext<'_>) -> bool {
    let marked = propagate_markers(m, cx);
    let (inlined, mut grown) = inline_calls(m, cx, None);
    let mut changed = marked || inlined;
    loop {
        let newly = mark(m, cx, Some(&grown));
        if newly.is_empty() {
            return changed;
        }
        changed = true;
        let only: HashSet<FuncId> = newly.into_iter().collect();
        grown = inline_calls(m, cx, Some(&only)).1;
    }
}

/// The `inline-must` pass.
#[derive(Copy, Clone, Debug, Default)]
pub struct InlineMust;

impl<M: IrEdit + ?Sized> ModulePass<M> for InlineMust {
    fn info(&self) -> &'static PassInfo {
        &INLINE_MUST_INFO
    }

    fn run(
        &mut self,
        m: &mut M,
        cx: &mut PassContext<'_>,
    ) -> Result<PreservedOrChanged, PassFailure> {
        Ok(PreservedOrChanged::from_changed(run_inline_must(m, cx)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uses::{direct_calls_by_caller, in_layout_order};

    /// The calls gathered from the use lists, put in layout order, are the
    /// calls of the same functions a walk over the body lists, in its
    /// order: across blocks, two in one block around other calls, and a
    /// call passing its callee as an argument (two uses, one call); a call
    /// passing a marked function to another is not one.
    #[test]
    fn gathered_calls_match_the_body_walk() {
        let m = nvpass_ir::parse_module(
            b"declare void @h(ptr)\n\
              define void @g(ptr %p) {\n  ret void\n}\n\
              define void @k() {\n  ret void\n}\n\
              define void @f(i1 %c) {\n\
              entry:\n  call void @g(ptr null)\n  call void @h(ptr @g)\n  br i1 %c, label %a, label %b\n\
              a:\n  call void @k()\n  call void @g(ptr @g)\n  call void @h(ptr null)\n  call void @k()\n  br label %b\n\
              b:\n  call void @g(ptr null)\n  ret void\n}\n\
              define void @other() {\n  call void @k()\n  ret void\n}\n",
        )
        .unwrap();
        let func = |name: &str| IrView::func_by_name(&m, name).unwrap();
        let (f, g, k) = (func("f"), func("g"), func("k"));
        let mut gathered = direct_calls_by_caller(&m, &[g, k], |_| true);
        for caller in [f, func("other"), g] {
            let walked: Vec<InstId> = call_sites(&m, caller)
                .into_iter()
                .filter(|&c| direct_callee(&m, c).is_some_and(|x| x == g || x == k))
                .collect();
            let got = in_layout_order(&m, caller, gathered.remove(&caller).unwrap_or_default());
            assert_eq!(got, walked);
        }
        assert!(gathered.is_empty());
        let g_calls = direct_calls_by_caller(&m, &[g], |_| true)
            .remove(&f)
            .unwrap();
        assert_eq!(in_layout_order(&m, f, g_calls).len(), 3);
    }
}
