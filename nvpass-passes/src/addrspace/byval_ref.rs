//! `byval-ref` (`ByvalToRefPass`): pass read-only by-value aggregates by
//! reference.
//!
//! Not in specs 000, 003 or 004: an nvpass extension (issue 7, "Beyond the
//! spec"). llc-19 lowers every `ptr byval(%T)` call argument to a copy read
//! through the generic stack pointer (`ld.u8 %rs1, [%SP+0]` then
//! `st.param`), even when the argument is a local object; those copies are
//! most of the generic accesses left after `ipmsp,memspace-opt` on front-end
//! modules. Where the copy is provably unobservable this pass drops `byval`
//! so that the callee reads the caller's object; `ipmsp` then sees a plain
//! pointer parameter with a local vote and specializes it.
//!
//! # What it does
//!
//! For every defined function `F` that is not a kernel, not an intrinsic
//! and not interposable (`weak`, `linkonce`: its body may be replaced at
//! link time; the `_odr` forms are fine), in module order:
//!
//! 1. **Qualifying parameters.** A `byval` parameter qualifies when `F`
//!    never uses it, or when every use of it and of what is derived from it
//!    ([`param_is_read_only`]: `getelementptr`, `bitcast`, `addrspacecast`
//!    chains) is a non-volatile `load`, the source of a non-volatile
//!    `llvm.memcpy`/`llvm.memmove`, a `llvm.lifetime.*` marker, a `byval`
//!    argument of another call (which copies, i.e. reads), or an argument of
//!    a parameter of a callee with a final body (defined, not interposable)
//!    that satisfies this same rule, followed at most [`MAX_CALL_DEPTH`]
//!    calls deep (CUB's functors pass `this` to `operator()`), or a store
//!    into a spill slot (an `alloca` only loaded from, stored to and marked
//!    with lifetimes, as `-O0` code spills every parameter), whose loads are
//!    then followed as derived values. Anything else
//!    (stores, `atomicrmw`, `cmpxchg`, `memset`, other calls, `ptrtoint`,
//!    compares, `phi`/`select`, returns) disqualifies it: it may write the
//!    object or capture its address, and the address of a copy differs from
//!    the original's.
//! 2. **Qualifying call sites.** At a direct `call` of `F` (through `F`'s
//!    own function type) that carries `byval` on the same argument, the
//!    parameter is dropped when `F` never uses it (any argument will do), or
//!    when the argument is a caller `alloca` (through casts and all-zero
//!    `getelementptr`s) that does not escape ([`alloca_escapes`]: its uses
//!    are loads, stores to it, `llvm.lifetime.*`, `llvm.mem{cpy,move,set}`,
//!    casts/GEPs of it, `byval` arguments, and arguments of parameters that
//!    qualify by rule 1) and is at least as aligned as the copy would have
//!    been (the `align` of the call-site or parameter attribute, else the
//!    ABI alignment of the `byval` type). Soundness: nothing but the caller
//!    can reach a non-escaping object (an `alloca` is private to its
//!    thread), the caller is suspended during the call, and `F` only reads it and never observes its address, so
//!    reading the original instead of a copy is unobservable.
//! 3. **Rewrite.** The set of dropped parameters of a call site is its
//!    *key*. When `F` is `internal`/`private`, every use of `F` is such a
//!    call site, and all sites have the same non-empty key, `F` is rewritten
//!    in place: `byval` and the attributes that only make sense on the copy
//!    ([`DROPPED_PARAM_ATTRS`]) are removed from its parameters and from its
//!    call sites. Otherwise each distinct non-empty key gets one private
//!    clone `F.byref` (`F.byref.1`, ... when taken; the clone keeps `F`'s
//!    attributes and, like `ipmsp`'s clones, is made `alwaysinline` unless
//!    `F` is `noinline`), the attributes are dropped on the clone and on the
//!    call sites of that key, which are retargeted to it. Sites with an
//!    empty key keep calling `F`.
//! 4. An `F` that is discardable when unused (`linkonce_odr`, `internal`,
//!    ...) and lost its last use to clones is deleted, as `ipmsp` does: llc
//!    would otherwise still emit its body and the copies in it.
//!
//! Clones are not revisited in the same run (their call sites were keyed
//! on the original's qualifying parameters); a second run changes nothing,
//! unless the clone bound below stopped the first one (the second then
//! continues with a fresh bound).
//!
//! # Knobs
//!
//! [`OPT_MAX_CLONES`] (`byval-ref<max-clones=N>`, default
//! [`DEFAULT_MAX_CLONES`]): at most N clones per run; -1 unlimited, 0
//! in-place rewrites only. A key that would need a clone beyond the bound
//! keeps its call sites on the original.
//!
//! The depth to which rule 1 follows a pointer into callees is the constant
//! [`MAX_CALL_DEPTH`].
//!
//! # Diagnostics
//!
//! A missed remark `ByvalCloneLimit` ("clone limit reached, not cloned:
//! `<function>`") for each clone the bound suppressed.
//!
//! # Choices made
//!
//! * Only `call`s count as call sites; when `F` is also used otherwise
//!   (`invoke`, address taken), `F` itself is kept for those uses and the
//!   qualifying calls go to clones.
//! * `align` is dropped with `byval`: on a plain pointer parameter it would
//!   be a promise about every argument, and an unused parameter accepts any
//!   argument. `writable` and `dead_on_unwind` go too: they describe the
//!   callee-owned copy.
//! * Phis and selects of the parameter disqualify it (conservative; the
//!   front-end code this targets does not produce them).

use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use hashbrown::HashSet;

use nvpass_core::diag::RemarkKind;
use nvpass_core::ir::{
    Attr, AttrKey, AttrKind, AttrSlot, Callee, FuncId, InstId, IrEdit, IrView, Linkage, Opcode,
    User, ValueId,
};
use nvpass_core::kernel::KernelSet;
use nvpass_core::knob::{KnobInfo, KnobKind};
use nvpass_core::pass::{
    AnyPass, ModulePass, PassContext, PassFailure, PassInfo, PassOptions, PreservedOrChanged,
};
use nvpass_core::stats::StatInfo;

use super::{call_sites, every_derived_use, unique_name};

/// Default of [`OPT_MAX_CLONES`]: clones one run may create.
///
/// Not in the specs (issue 7, "Beyond the spec"): large enough for the
/// corpus' CUB module, small enough to bound code growth on pathological
/// template-heavy input.
pub const DEFAULT_MAX_CLONES: i64 = 256;

/// Pipeline option `byval-ref<max-clones=N>`: the clone bound (-1
/// unlimited, 0 in-place rewrites only).
///
/// Not in the specs (issue 7, "Beyond the spec").
pub const OPT_MAX_CLONES: KnobInfo = KnobInfo {
    name: "max-clones",
    kind: KnobKind::Int,
    default: "256",
    description: "Maximal number of by-reference clones per run (-1 unlimited, 0 none)",
};

/// Suffix of by-reference clone names (`helper.byref`).
///
/// Not in the specs (issue 7, "Beyond the spec").
pub const CLONE_SUFFIX: &str = ".byref";

/// Parameter and call-site attributes removed together with `byval`: they
/// describe the callee-owned copy (see "Choices made" in the module docs).
pub const DROPPED_PARAM_ATTRS: [AttrKey<'static>; 4] = [
    AttrKey::Kind(AttrKind::ByVal),
    AttrKey::Kind(AttrKind::Align),
    AttrKey::Other("writable"),
    AttrKey::Other("dead_on_unwind"),
];

/// Pass description.
pub const INFO: PassInfo = PassInfo {
    name: "byval-ref",
    class_name: "ByvalToRefPass",
    description: "Pass read-only byval aggregates of non-escaping locals by reference",
    knobs: &[],
    options: &[OPT_MAX_CLONES],
};

const NUM_CLONED: StatInfo = StatInfo {
    name: "NumCloned",
    description: "Number of by-reference clones created",
};
const NUM_IN_PLACE: StatInfo = StatInfo {
    name: "NumRewrittenInPlace",
    description: "Number of functions whose byval parameters were dropped in place",
};
const NUM_ARGS: StatInfo = StatInfo {
    name: "NumByvalArgsDropped",
    description: "Number of call-site byval arguments now passed by reference",
};

/// The pass; see the module docs.
#[derive(Clone, Debug)]
pub struct ByvalToRef {
    /// Clone bound from `byval-ref<max-clones=N>`.
    pub max_clones: i64,
}

impl Default for ByvalToRef {
    fn default() -> Self {
        ByvalToRef {
            max_clones: DEFAULT_MAX_CLONES,
        }
    }
}

/// Builds the pass from its pipeline options.
pub fn construct<M: IrEdit + ?Sized>(opts: &PassOptions) -> Result<AnyPass<M>, String> {
    Ok(AnyPass::Transform(Box::new(ByvalToRef {
        max_clones: opts.int(&OPT_MAX_CLONES),
    })))
}

fn callee_name<M: IrView + ?Sized>(ir: &M, i: InstId) -> Option<&str> {
    match ir.callee(i) {
        Some(Callee::Direct(f)) => Some(ir.func_name(f)),
        _ => None,
    }
}

/// Whether `v` occurs among `call`'s operands only as arguments (not as the
/// callee or a bundle operand); the argument positions where it occurs.
fn arg_positions<M: IrView + ?Sized>(ir: &M, call: InstId, v: ValueId) -> Option<Vec<usize>> {
    let pos: Vec<usize> = ir
        .call_args(call)
        .enumerate()
        .filter_map(|(k, a)| (a == v).then_some(k))
        .collect();
    let total = ir.operands(call).filter(|&o| o == v).count();
    (total == pos.len()).then_some(pos)
}

fn call_has_byval<M: IrView + ?Sized>(ir: &M, call: InstId, k: usize) -> bool {
    ir.call_attrs(call, AttrSlot::Param(k as u32))
        .any(|a| a.key() == AttrKey::Kind(AttrKind::ByVal))
}

fn is_false<M: IrView + ?Sized>(ir: &M, v: Option<ValueId>) -> bool {
    v.and_then(|v| ir.const_int(v)) == Some(0)
}

/// How deep [`param_is_read_only`] follows a pointer into the parameters
/// of callees (`F` passes it to `G`, which passes it to `H`, ...); deeper
/// chains are treated as writes.
///
/// Not in the specs (issue 7, "Beyond the spec"): CUB's functors pass
/// `this` down two or three levels (`ThreadReduce` to `plus::operator()`).
pub const MAX_CALL_DEPTH: u32 = 4;

/// Whether `f`'s parameter `k` is only read and its address never observed
/// (rule 1 of the module docs, without the `byval` requirement). An unused
/// parameter qualifies.
pub fn param_is_read_only<M: IrView + ?Sized>(ir: &M, f: FuncId, k: usize) -> bool {
    read_only_within(ir, f, k, 0)
}

/// The callee of `call` when its body is final and the call matches its
/// type: a function whose parameters may be analysed.
fn analysable_callee<M: IrView + ?Sized>(ir: &M, call: InstId) -> Option<FuncId> {
    match ir.callee(call) {
        Some(Callee::Direct(g))
            if !ir.func_is_declaration(g)
                && !ir.func_linkage(g).is_interposable()
                && ir.call_func_type(call) == Some(ir.func_type(g)) =>
        {
            Some(g)
        }
        _ => None,
    }
}

fn read_only_within<M: IrView + ?Sized>(ir: &M, f: FuncId, k: usize, depth: u32) -> bool {
    let Some(p) = ir.param(f, k) else {
        return false;
    };
    every_derived_use(ir, p, |u, v, follow| match ir.opcode(u) {
        Opcode::Load => ir.mem_ptr(u) == Some(v) && !ir.is_volatile(u),
        // Spilled to a private slot: every load of the slot may give it
        // back, and is followed as derived from it.
        Opcode::Store if ir.operand(u, 0) == Some(v) && ir.mem_ptr(u) != Some(v) => {
            match ir.mem_ptr(u).and_then(|a| spill_slot_loads(ir, a)) {
                Some(loads) => {
                    follow.extend(loads);
                    true
                }
                None => false,
            }
        }
        Opcode::Call => {
            let Some(pos) = arg_positions(ir, u, v) else {
                return false;
            };
            let name = callee_name(ir, u).unwrap_or("");
            if name.starts_with("llvm.lifetime.") {
                true
            } else if name.starts_with("llvm.memcpy.") || name.starts_with("llvm.memmove.") {
                pos == [1] && is_false(ir, ir.call_args(u).nth(3))
            } else {
                let g = analysable_callee(ir, u).filter(|_| depth < MAX_CALL_DEPTH);
                !name.starts_with("llvm.")
                    && pos.iter().all(|&j| {
                        call_has_byval(ir, u, j)
                            || g.is_some_and(|g| read_only_within(ir, g, j, depth + 1))
                    })
            }
        }
        _ => false,
    })
}

/// The results of the loads of `slot` when it is an `alloca` used only
/// directly by loads, stores to it (of other values than itself) and
/// `llvm.lifetime.*` markers: a spill slot no other pointer can reach.
fn spill_slot_loads<M: IrView + ?Sized>(ir: &M, slot: ValueId) -> Option<Vec<ValueId>> {
    let nvpass_core::ir::ValueKind::Inst(a) = ir.value_kind(slot) else {
        return None;
    };
    if ir.opcode(a) != Opcode::Alloca {
        return None;
    }
    let mut loads = Vec::new();
    for u in ir.users(slot) {
        let User::Inst(u) = u else {
            return None;
        };
        match ir.opcode(u) {
            Opcode::Load if ir.mem_ptr(u) == Some(slot) => loads.push(ir.inst_result(u)?),
            Opcode::Store if ir.mem_ptr(u) == Some(slot) && ir.operand(u, 0) != Some(slot) => {}
            Opcode::Call if callee_name(ir, u).is_some_and(|n| n.starts_with("llvm.lifetime.")) => {
            }
            _ => return None,
        }
    }
    Some(loads)
}

/// The `alloca` that `v` is the address of, through `bitcast`,
/// `addrspacecast` and all-zero `getelementptr`.
fn alloca_root<M: IrView + ?Sized>(ir: &M, mut v: ValueId) -> Option<InstId> {
    for _ in 0..64 {
        let nvpass_core::ir::ValueKind::Inst(i) = ir.value_kind(v) else {
            return None;
        };
        match ir.opcode(i) {
            Opcode::Alloca => return Some(i),
            Opcode::BitCast | Opcode::AddrSpaceCast => v = ir.operand(i, 0)?,
            Opcode::GetElementPtr if ir.operands(i).skip(1).all(|o| ir.const_int(o) == Some(0)) => {
                v = ir.operand(i, 0)?
            }
            _ => return None,
        }
    }
    None
}

/// Whether the object of `alloca` may be reached by anything but its own
/// function's direct accesses (rule 2 of the module docs).
pub fn alloca_escapes<M: IrView + ?Sized>(ir: &M, alloca: InstId) -> bool {
    let Some(root) = ir.inst_result(alloca) else {
        return true;
    };
    !every_derived_use(ir, root, |u, v, _| match ir.opcode(u) {
        Opcode::Load => ir.mem_ptr(u) == Some(v),
        Opcode::Store => ir.mem_ptr(u) == Some(v) && ir.operand(u, 0) != Some(v),
        Opcode::Call => call_use_is_local(ir, u, v),
        _ => false,
    })
}

/// Whether passing `v` to call `u` keeps the object local: intrinsics that
/// only access it, `byval` arguments, and read-only parameters of a direct
/// callee whose body is final.
fn call_use_is_local<M: IrView + ?Sized>(ir: &M, u: InstId, v: ValueId) -> bool {
    let Some(pos) = arg_positions(ir, u, v) else {
        return false;
    };
    let name = callee_name(ir, u).unwrap_or("");
    if name.starts_with("llvm.lifetime.") {
        return true;
    }
    if ["llvm.memcpy.", "llvm.memmove.", "llvm.memset."]
        .iter()
        .any(|p| name.starts_with(p))
    {
        return pos.iter().all(|&k| k <= 1);
    }
    if name.starts_with("llvm.") {
        return false;
    }
    let direct = analysable_callee(ir, u);
    pos.iter()
        .all(|&k| call_has_byval(ir, u, k) || direct.is_some_and(|g| param_is_read_only(ir, g, k)))
}

/// Alignment the `byval` copy of argument `k` of `call` would have had.
fn copy_align<M: IrView + ?Sized>(ir: &M, f: FuncId, call: InstId, k: usize) -> Option<u64> {
    let slot = AttrSlot::Param(k as u32);
    for a in ir.call_attrs(call, slot) {
        if let Attr::Int(AttrKind::Align, n) = a {
            return Some(n);
        }
    }
    if let Some(n) = ir.int_attr(f, slot, AttrKind::Align) {
        return Some(n);
    }
    let ty = ir.type_attr(f, slot, AttrKind::ByVal)?;
    ir.abi_align(ty)
}

fn alloca_alignment<M: IrView + ?Sized>(ir: &M, a: InstId) -> Option<u64> {
    ir.alloca_align(a)
        .or_else(|| ir.alloca_type(a).and_then(|t| ir.abi_align(t)))
}

/// Whether `f` is a function this pass may change or clone (`kernels`:
/// the module's kernels, computed once per run).
fn is_candidate<M: IrView + ?Sized>(ir: &M, f: FuncId, kernels: &KernelSet) -> bool {
    !ir.func_is_declaration(f)
        && !ir.func_name(f).starts_with("llvm.")
        && !kernels.contains(f)
        && !ir.func_linkage(f).is_interposable()
}

fn is_byval_param<M: IrView + ?Sized>(ir: &M, f: FuncId, k: usize) -> bool {
    ir.has_attr(f, AttrSlot::Param(k as u32), AttrKey::Kind(AttrKind::ByVal))
}

/// The parameters of `f` in `qual` that call site `site` may pass by
/// reference (rule 2 of the module docs).
fn site_key<M: IrView + ?Sized>(ir: &M, f: FuncId, site: InstId, qual: &[usize]) -> Vec<usize> {
    let args: Vec<ValueId> = ir.call_args(site).collect();
    qual.iter()
        .copied()
        .filter(|&k| {
            if !call_has_byval(ir, site, k) {
                return false;
            }
            let unused = ir.param(f, k).is_some_and(|p| ir.has_no_uses(p));
            if unused {
                return true;
            }
            let Some(root) = args.get(k).and_then(|&a| alloca_root(ir, a)) else {
                return false;
            };
            let aligned = match (copy_align(ir, f, site, k), alloca_alignment(ir, root)) {
                (Some(need), Some(have)) => have >= need,
                _ => false,
            };
            aligned && !alloca_escapes(ir, root)
        })
        .collect()
}

fn drop_param_attrs<M: IrEdit + ?Sized>(ir: &mut M, f: FuncId, key: &[usize]) {
    for &k in key {
        for a in DROPPED_PARAM_ATTRS {
            ir.remove_attr(f, AttrSlot::Param(k as u32), a);
        }
    }
}

fn drop_call_attrs<M: IrEdit + ?Sized>(ir: &mut M, call: InstId, key: &[usize]) {
    for &k in key {
        for a in DROPPED_PARAM_ATTRS {
            ir.remove_call_attr(call, AttrSlot::Param(k as u32), a);
        }
    }
}

fn fail(e: nvpass_core::ir::EditError) -> PassFailure {
    PassFailure::new(format!("byval-ref: {e}"))
}

impl<M: IrEdit + ?Sized> ModulePass<M> for ByvalToRef {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(
        &mut self,
        ir: &mut M,
        cx: &mut PassContext<'_>,
    ) -> Result<PreservedOrChanged, PassFailure> {
        let (mut n_cloned, mut n_in_place, mut n_args) = (0u64, 0u64, 0u64);
        let mut changed = false;
        let mut erased: HashSet<FuncId> = HashSet::new();
        let kernels = KernelSet::compute(ir);
        for f in ir.funcs().collect::<Vec<_>>() {
            if erased.contains(&f) || !is_candidate(ir, f, &kernels) {
                continue;
            }
            let qual: Vec<usize> = (0..ir.num_params(f))
                .filter(|&k| is_byval_param(ir, f, k) && param_is_read_only(ir, f, k))
                .collect();
            if qual.is_empty() {
                continue;
            }
            let (sites, all_sites) = call_sites(ir, f);
            let mut groups: Vec<(Vec<usize>, Vec<InstId>)> = Vec::new();
            let mut unkeyed = false;
            for &s in &sites {
                let key = site_key(ir, f, s, &qual);
                if key.is_empty() {
                    unkeyed = true;
                    continue;
                }
                match groups.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, g)) => g.push(s),
                    None => groups.push((key, alloc::vec![s])),
                }
            }
            if groups.is_empty() {
                continue;
            }
            if all_sites && !unkeyed && groups.len() == 1 && ir.func_linkage(f).is_local() {
                let (key, gsites) = &groups[0];
                drop_param_attrs(ir, f, key);
                for &s in gsites {
                    drop_call_attrs(ir, s, key);
                    n_args += key.len() as u64;
                }
                n_in_place += 1;
                changed = true;
                continue;
            }
            let mut retargeted = false;
            for (key, gsites) in &groups {
                if self.max_clones >= 0 && n_cloned as i64 >= self.max_clones {
                    let d = cx
                        .remark(RemarkKind::Missed, "ByvalCloneLimit")
                        .in_function(ir.func_name(f))
                        .text("clone limit reached, not cloned: ")
                        .arg("Callee", ir.func_name(f).to_string());
                    cx.emit(d);
                    continue;
                }
                let name = unique_name(ir, &format!("{}{CLONE_SUFFIX}", ir.func_name(f)));
                let (c, _) = ir.clone_function(f, &name).map_err(fail)?;
                ir.set_linkage(c, Linkage::Private);
                let fa = |k| ir.has_attr(c, AttrSlot::Function, AttrKey::Kind(k));
                if !fa(AttrKind::NoInline) && !fa(AttrKind::OptNone) {
                    ir.add_attr(c, AttrSlot::Function, Attr::Enum(AttrKind::AlwaysInline));
                }
                drop_param_attrs(ir, c, key);
                n_cloned += 1;
                let (fty, cv) = (ir.func_type(c), ir.func_value(c));
                for &s in gsites {
                    ir.set_callee(s, cv, fty).map_err(fail)?;
                    drop_call_attrs(ir, s, key);
                    n_args += key.len() as u64;
                }
                retargeted = true;
                changed = true;
            }
            if retargeted
                && ir.func_linkage(f).is_discardable_if_unused()
                && ir.has_no_uses(ir.func_value(f))
            {
                // Refused (and harmless) if something still refers to it.
                if ir.erase_function(f).is_ok() {
                    erased.insert(f);
                }
            }
        }
        cx.add_stat(&NUM_CLONED, n_cloned);
        cx.add_stat(&NUM_IN_PLACE, n_in_place);
        cx.add_stat(&NUM_ARGS, n_args);
        Ok(PreservedOrChanged::from_changed(changed))
    }
}
