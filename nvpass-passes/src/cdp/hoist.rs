//! Moving a launch's configuration above its parameter-buffer allocation.
//!
//! Clang's device-side launch (CGCUDARuntime, clang 20+) allocates the
//! buffer first and evaluates `<<<grid, block, smem, stream>>>` inside the
//! `buffer != null` branch, just before the launch. The V2 buffer stub needs
//! that configuration at the allocation, so [`plan`] looks for a sound way
//! to move the code that computes it there; the parent module lists the
//! conditions. The plan is a list of instructions, in program order, that
//! the caller moves (with [`IrEdit::move_inst_before`]) to just before the
//! allocation.
//!
//! [`IrEdit::move_inst_before`]: nvpass_core::ir::IrEdit::move_inst_before

use alloc::vec::Vec;

use hashbrown::HashSet;
use nvpass_core::ir::{
    Callee, FuncId, InstId, IrView, Linkage, Opcode, TypeKind, ValueId, ValueKind,
};

use super::dominance::Dominators;
use super::matching::{KERNEL, LAUNCH_GEOMETRY};
use super::parameter_buffer::{
    is_lifetime_marker, memory_ready, strip_address_arith, value_available,
};

/// How deep [`init_only`] follows calls from a configuration initializer
/// (clang -O0's `dim3` constructors are two deep: the complete-object
/// constructor `C1` calls the base-object constructor `C2`). Not a spec
/// value: a bound that keeps the check cheap and terminating on recursive
/// input.
pub(super) const MAX_INITIALIZER_DEPTH: u32 = 4;

/// Most blocks [`region`] walks up from the launch to the allocation.
const MAX_REGION_BLOCKS: usize = 64;

/// Why no hoist exists, completing the `LegacyParameterBuffer` warning.
pub(super) type Refusal = &'static str;

/// The instructions to move, in order, to just before allocation `alloc`
/// so that `launch`'s kernel, grid, block and shared-memory operands are
/// available there with their final contents; `Err` with the reason when
/// there is no sound way to do so.
pub(super) fn plan<M: IrView + ?Sized>(
    m: &M,
    dom: &Dominators,
    alloc: InstId,
    launch: InstId,
) -> Result<Vec<InstId>, Refusal> {
    let region = region(m, alloc, launch).ok_or(
        "the code between the allocation and the launch is not straight-line (a block on the way has several predecessors)",
    )?;
    let mut p = Planner {
        m,
        dom,
        alloc,
        launch,
        in_region: region.iter().copied().collect(),
        hoist: HashSet::new(),
        temps: Vec::new(),
    };
    // The operands themselves.
    for k in core::iter::once(KERNEL).chain(LAUNCH_GEOMETRY) {
        let v = m
            .operand(launch, k)
            .ok_or("the launch has no geometry operands")?;
        p.need_value(v)?;
    }
    // Grid and block passed in memory: either ready already, or temporaries
    // whose initialization moves.
    for k in LAUNCH_GEOMETRY {
        let Some(v) = m.operand(launch, k) else {
            continue;
        };
        if !matches!(m.type_kind(m.value_type(v)), TypeKind::Ptr(_))
            || memory_ready(m, dom, v, alloc, &[launch])
        {
            continue;
        }
        let base = strip_address_arith(m, v);
        match m.value_kind(base) {
            ValueKind::Inst(i)
                if m.opcode(i) == Opcode::Alloca && dom.inst_dominates(m, i, alloc) =>
            {
                if !p.temps.contains(&base) {
                    p.temps.push(base);
                }
            }
            _ => {
                return Err(
                    "a grid or block in memory is not a local temporary allocated before the allocation",
                )
            }
        }
    }
    for t in p.temps.clone() {
        p.temp_uses(t)?;
    }
    Ok(region.into_iter().filter(|i| p.hoist.contains(i)).collect())
}

/// The instructions strictly between `alloc` and `launch`, in program
/// order, terminators excluded, when every path to `launch` runs through
/// them: `launch`'s block is `alloc`'s, or reached from it through a chain
/// of blocks each with `alloc`'s side as its only predecessor.
fn region<M: IrView + ?Sized>(m: &M, alloc: InstId, launch: InstId) -> Option<Vec<InstId>> {
    let (ba, bl) = (m.inst_block(alloc), m.inst_block(launch));
    let mut chain = alloc::vec![bl];
    let mut cur = bl;
    while cur != ba {
        if chain.len() > MAX_REGION_BLOCKS {
            return None;
        }
        let mut preds: Vec<_> = Vec::new();
        for p in m.predecessors(cur) {
            if !preds.contains(&p) {
                preds.push(p);
            }
        }
        let [p] = preds.as_slice() else {
            return None;
        };
        if chain.contains(p) {
            return None;
        }
        chain.push(*p);
        cur = *p;
    }
    chain.reverse();
    let mut out = Vec::new();
    for (n, &b) in chain.iter().enumerate() {
        // From just after `alloc` in its block (not from the block's start:
        // a block of many launches would make that quadratic).
        let mut next = if n == 0 {
            m.next_inst(alloc)
        } else {
            m.insts(b).next()
        };
        while let Some(i) = next {
            if i == launch {
                return Some(out);
            }
            if !m.opcode(i).is_terminator() {
                out.push(i);
            }
            next = m.next_inst(i);
        }
    }
    // `launch` precedes `alloc` in their one block.
    None
}

/// Opcodes that compute a value from their operands only, cannot trap and
/// so may run earlier and more often: what may move besides memory
/// initialization. Integer division and remainder are excluded (undefined
/// for a zero divisor the original path might never have divided by).
fn is_speculatable(op: Opcode) -> bool {
    (op.is_binary()
        && !matches!(
            op,
            Opcode::UDiv | Opcode::SDiv | Opcode::URem | Opcode::SRem
        ))
        || op.is_cast()
        || matches!(
            op,
            Opcode::GetElementPtr
                | Opcode::ICmp
                | Opcode::FCmp
                | Opcode::Select
                | Opcode::FNeg
                | Opcode::Freeze
                | Opcode::ExtractValue
                | Opcode::InsertValue
                | Opcode::ExtractElement
                | Opcode::InsertElement
                | Opcode::ShuffleVector
        )
}

/// The search state of [`plan`].
struct Planner<'a, M: IrView + ?Sized> {
    m: &'a M,
    dom: &'a Dominators,
    alloc: InstId,
    launch: InstId,
    in_region: HashSet<InstId>,
    hoist: HashSet<InstId>,
    /// The `alloca`s of grid and block being initialized in the region.
    temps: Vec<ValueId>,
}

impl<M: IrView + ?Sized> Planner<'_, M> {
    /// Makes `v` available at the allocation: it already is, or it is
    /// computed in the region by code that may move.
    fn need_value(&mut self, v: ValueId) -> Result<(), Refusal> {
        let m = self.m;
        if value_available(m, self.dom, v, self.alloc) {
            return Ok(());
        }
        let ValueKind::Inst(i) = m.value_kind(v) else {
            return Err("an operand is not a value that can be computed earlier");
        };
        if self.hoist.contains(&i) {
            return Ok(());
        }
        if !self.in_region.contains(&i) {
            return Err(
                "an operand is computed outside the code between the allocation and the launch",
            );
        }
        let op = m.opcode(i);
        if op == Opcode::Load {
            // A load moves only from memory nothing writes after the
            // allocation, and whose address does not escape (so the
            // allocation itself cannot write it either).
            let ptr = m.mem_ptr(i).ok_or("malformed load")?;
            if m.is_volatile(i) {
                return Err("the configuration reads volatile memory");
            }
            let direct = matches!(m.value_kind(super::matching::strip_casts(m, ptr)), ValueKind::Inst(a) if m.opcode(a) == Opcode::Alloca);
            if !direct || !memory_ready(m, self.dom, ptr, self.alloc, &[self.launch]) {
                return Err("the configuration reads memory that the allocation or the code after it may write");
            }
        } else if !is_speculatable(op) {
            return Err(
                "the configuration is computed by a call or a division, which cannot run earlier",
            );
        }
        self.hoist.insert(i);
        // `m` is borrowed apart from `self`: no copy of the operands.
        for o in m.operands(i) {
            self.need_value(o)?;
        }
        Ok(())
    }

    /// Checks every use of temporary `t` (through casts and GEPs) and
    /// schedules its writers in the region.
    fn temp_uses(&mut self, t: ValueId) -> Result<(), Refusal> {
        const ESCAPES: Refusal =
            "a grid or block temporary is used other than by its initializers and the launch";
        let m = self.m;
        let mut seen: HashSet<ValueId> = HashSet::new();
        let mut todo = alloc::vec![t];
        while let Some(v) = todo.pop() {
            if !seen.insert(v) {
                continue;
            }
            for u in m.inst_users(v) {
                if u == self.launch {
                    continue;
                }
                let op = m.opcode(u);
                if op.is_cast() || op == Opcode::GetElementPtr {
                    todo.extend(m.inst_result(u));
                    continue;
                }
                if op == Opcode::Call && is_debug_intrinsic(m, u) {
                    continue;
                }
                let before = self.dom.inst_dominates(m, u, self.alloc);
                let in_region = self.in_region.contains(&u);
                match op {
                    Opcode::Load => {
                        if !self.dom.inst_dominates(m, self.launch, u) {
                            return Err(ESCAPES);
                        }
                    }
                    Opcode::Store => {
                        if m.operand(u, 0) == Some(v) || m.is_volatile(u) {
                            return Err(ESCAPES);
                        }
                        if !before {
                            self.schedule(u, in_region)?;
                        }
                    }
                    Opcode::Call if is_lifetime_marker(m, u) => {
                        let is_end = matches!(m.callee(u), Some(Callee::Direct(f)) if m.func_name(f).starts_with("llvm.lifetime.end"));
                        if in_region && is_end {
                            return Err(ESCAPES);
                        }
                        if in_region {
                            self.schedule(u, true)?;
                        } else if !is_end && !before {
                            return Err("a grid or block temporary's lifetime starts neither before the allocation nor before its initialization");
                        }
                    }
                    Opcode::Call if is_memcpy(m, u) => {
                        // Only as the destination, from a source that is
                        // fully written before the allocation.
                        if m.operand(u, 0) != Some(v) || m.operand(u, 1) == Some(v) {
                            return Err(ESCAPES);
                        }
                        if !before {
                            let volatile = m.operand(u, 3).and_then(|f| m.const_int(f));
                            let src = m.operand(u, 1).ok_or(ESCAPES)?;
                            if volatile != Some(0) {
                                return Err("the configuration is copied with a volatile memcpy");
                            }
                            if !self.source_ready(src) {
                                return Err("a dim3 copied into the launch configuration may be written after the allocation");
                            }
                            self.schedule(u, in_region)?;
                        }
                    }
                    Opcode::Call => {
                        if before {
                            continue;
                        }
                        let Some(Callee::Direct(f)) = m.callee(u) else {
                            return Err(ESCAPES);
                        };
                        if !init_only(m, f, MAX_INITIALIZER_DEPTH) {
                            return Err(
                                "a call initializing the configuration may have other side effects",
                            );
                        }
                        // It may write through its pointer arguments: they
                        // must all point into the temporaries.
                        for a in m.call_args(u) {
                            if matches!(m.type_kind(m.value_type(a)), TypeKind::Ptr(_))
                                && !self.temps.contains(&strip_address_arith(m, a))
                            {
                                return Err(
                                    "a call initializing the configuration writes other memory",
                                );
                            }
                        }
                        self.schedule(u, in_region)?;
                    }
                    _ => return Err(ESCAPES),
                }
            }
        }
        Ok(())
    }

    /// Adds writer `u` of a temporary, and what its operands need, to the
    /// instructions that move. Refused for writers outside the region.
    fn schedule(&mut self, u: InstId, in_region: bool) -> Result<(), Refusal> {
        if !in_region {
            return Err("a grid or block temporary is written outside the code between the allocation and the launch");
        }
        if !self.hoist.insert(u) {
            return Ok(());
        }
        let m = self.m;
        for o in m.operands(u) {
            if !matches!(m.value_kind(o), ValueKind::Function(_)) {
                self.need_value(o)?;
            }
        }
        Ok(())
    }

    /// Whether the memory `src` points to, read by a moved `memcpy`, is
    /// fully written before the allocation and does not escape: a
    /// `constant` global, or a local (`alloca`, `byval` parameter) whose
    /// writers all dominate the allocation. Other copies out of it and loads
    /// are reads and may be anywhere.
    fn source_ready(&self, src: ValueId) -> bool {
        let m = self.m;
        let base = strip_address_arith(m, src);
        match m.value_kind(base) {
            ValueKind::Global(g) => return m.global_is_constant(g),
            ValueKind::Inst(i) if m.opcode(i) == Opcode::Alloca => {}
            ValueKind::Argument { .. } => {}
            _ => return false,
        }
        if !is_local_copy(m, base) {
            return false;
        }
        let mut seen: HashSet<ValueId> = HashSet::new();
        let mut todo = alloc::vec![base];
        while let Some(v) = todo.pop() {
            if !seen.insert(v) {
                continue;
            }
            for u in m.inst_users(v) {
                let op = m.opcode(u);
                if op == Opcode::Load {
                    continue;
                }
                if op.is_cast() || op == Opcode::GetElementPtr {
                    todo.extend(m.inst_result(u));
                    continue;
                }
                if is_memcpy(m, u) && m.operand(u, 1) == Some(v) && m.operand(u, 0) != Some(v) {
                    continue;
                }
                let ok = match op {
                    Opcode::Store => m.operand(u, 0) != Some(v),
                    Opcode::Call => true,
                    _ => false,
                };
                if !ok || !self.dom.inst_dominates(m, u, self.alloc) {
                    return false;
                }
            }
        }
        true
    }
}

/// Whether `base`, when it is a parameter, is `byval` (a local copy);
/// other bases pass.
fn is_local_copy<M: IrView + ?Sized>(m: &M, base: ValueId) -> bool {
    match m.value_kind(base) {
        ValueKind::Argument { func, index } => m
            .attrs(func, nvpass_core::ir::AttrSlot::Param(index))
            .any(|a| a.key() == nvpass_core::ir::AttrKey::Kind(nvpass_core::ir::AttrKind::ByVal)),
        _ => true,
    }
}

/// `llvm.memcpy.*`, `llvm.memcpy.inline.*` included: `(dest, src, len,
/// volatile)`. `memmove` and `memset` are not copies of a `dim3` clang
/// emits, and stay unrecognized (the configuration then does not move).
fn is_memcpy<M: IrView + ?Sized>(m: &M, call: InstId) -> bool {
    matches!(m.callee(call), Some(Callee::Direct(f)) if m.func_name(f).starts_with("llvm.memcpy."))
        && m.num_operands(call) >= 5
}

/// Debug-info intrinsics: no effect on the program.
fn is_debug_intrinsic<M: IrView + ?Sized>(m: &M, call: InstId) -> bool {
    matches!(m.callee(call), Some(Callee::Direct(f)) if m.func_name(f).starts_with("llvm.dbg."))
}

/// Where a pointer inside an initializer body points.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Points {
    /// Into memory the caller passed (a pointer argument).
    Arg,
    /// Into the function's own `alloca`s.
    Local,
}

/// Whether calling `f` only writes through its pointer arguments and its
/// own `alloca`s and always returns: a definition that cannot be replaced
/// at link time, one block ending in `ret`, whose instructions are
/// `alloca`s, speculatable arithmetic, non-volatile loads from its own
/// `alloca`s, non-volatile stores through its arguments or into its own
/// `alloca`s (a pointer may only be stored when it is an argument pointer
/// spilled to an own `alloca`, clang -O0's `this.addr`), debug and
/// lifetime intrinsics, and calls of functions passing the same test with
/// `depth - 1`, given only such pointers.
pub(super) fn init_only<M: IrView + ?Sized>(m: &M, f: FuncId, depth: u32) -> bool {
    if depth == 0 || m.func_is_declaration(f) {
        return false;
    }
    if matches!(
        m.func_linkage(f),
        Linkage::LinkOnceAny | Linkage::WeakAny | Linkage::ExternWeak | Linkage::Common
    ) {
        return false;
    }
    let blocks: Vec<_> = m.blocks(f).collect();
    let [b] = blocks.as_slice() else {
        return false;
    };
    let is_ptr = |v: ValueId| matches!(m.type_kind(m.value_type(v)), TypeKind::Ptr(_));
    // Casts are peeled off (`inttoptr` included), so the base must itself
    // be a pointer argument: an integer turned into a pointer points
    // anywhere.
    let points = |v: ValueId| -> Option<Points> {
        let base = strip_address_arith(m, v);
        match m.value_kind(base) {
            ValueKind::Argument { func, .. } if func == f && is_ptr(base) => Some(Points::Arg),
            ValueKind::Inst(i) if m.opcode(i) == Opcode::Alloca => Some(Points::Local),
            // A pointer reloaded from an own alloca: only argument pointers
            // are ever stored (checked below).
            ValueKind::Inst(i)
                if m.opcode(i) == Opcode::Load
                    && m.mem_ptr(i).is_some_and(|p| {
                        matches!(m.value_kind(strip_address_arith(m, p)), ValueKind::Inst(a) if m.opcode(a) == Opcode::Alloca)
                    }) =>
            {
                Some(Points::Arg)
            }
            _ => None,
        }
    };
    for i in m.insts(*b) {
        let op = m.opcode(i);
        let ok = match op {
            Opcode::Alloca | Opcode::Ret => true,
            _ if is_speculatable(op) => true,
            Opcode::Load => {
                !m.is_volatile(i) && m.mem_ptr(i).and_then(points) == Some(Points::Local)
            }
            Opcode::Store => {
                let (Some(val), Some(ptr)) = (m.operand(i, 0), m.mem_ptr(i)) else {
                    return false;
                };
                let dest = points(ptr);
                !m.is_volatile(i)
                    && dest.is_some()
                    && (!is_ptr(val)
                        || (dest == Some(Points::Local) && points(val) == Some(Points::Arg)))
            }
            Opcode::Call if is_lifetime_marker(m, i) || is_debug_intrinsic(m, i) => true,
            Opcode::Call => match m.callee(i) {
                Some(Callee::Direct(g)) if g != f => {
                    m.call_args(i).all(|a| !is_ptr(a) || points(a).is_some())
                        && init_only(m, g, depth - 1)
                }
                _ => false,
            },
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    true
}
