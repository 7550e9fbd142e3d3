//! The provenance classifier shared by `ipmsp` and `memspace-opt`: which
//! concrete address space a pointer value points into, as an [`AsLattice`]
//! element.
//!
//! # Rules
//!
//! A pointer whose type is `ptr addrspace(N)` is in `N` (a concrete space
//! gives `Known`, `param` and other numbers give `Top`). A generic `ptr`
//! value is classified by its definition:
//!
//! | definition | element |
//! |---|---|
//! | pointer parameter of a kernel ([`is_kernel`]) | `Known(global)` (CUDA semantics: kernel pointer arguments point to global memory; spec 004 "Lattice Propagation Walker" seed) |
//! | `byval` parameter of a kernel | `Top` (spec 004: byval seeds GENERIC) |
//! | kernel parameter with `"nvvm.grid_constant"` | `Known(const)` (spec 004 seed) |
//! | parameter of any other function | `Bottom` (unknown at the boundary) |
//! | `alloca` | `Known(local)` |
//! | `addrspacecast X to ptr` | the space of `X`; for a chain of casts, of its innermost source (what `memspace-opt`'s folder rule (2) turns the chain into) |
//! | `getelementptr`, `bitcast`, `freeze` (instructions and constant expressions) | the space of the base operand |
//! | `phi`, `select` | the meet of the incoming pointers |
//! | `load ptr` from a *promotable slot* | the meet of every pointer stored into the slot (`Top` for a value stored with another type: its bits are no pointer of that space) |
//! | `load ptr` from a field of an *aggregate slot* | the meet of every pointer stored at exactly the loaded bytes; `Top` when any store overlaps them otherwise (another offset, size or type) |
//! | `load ptr` from a kernel's `byval` or grid-constant aggregate parameter (through GEPs, bitcasts and casts) that the kernel only loads from | `Known(global)` (CUDA semantics, the kernel pointer parameter rule above: a pointer the host passes in a kernel parameter, here a field of an aggregate one, points to global memory; the aggregate must not be written, stored, passed on or copied anywhere in the kernel, so what is read is what the host passed) |
//! | a generic global variable | `Known(global)` (NVPTX emits `addrspace(0)` globals in `.global`) |
//! | `null`, `undef`, `poison`, `zeroinitializer` | `Bottom` (compatible with any space) |
//! | function addresses | `Top` |
//! | anything else (other loaded pointers, call results, `inttoptr`) | `Bottom`, or `Top` with [`ProvenanceOptions::conservative`] |
//!
//! A *promotable slot* is an `alloca` (possibly seen through
//! `addrspacecast`s of it) used only as the pointer operand of loads and
//! stores and by `llvm.lifetime.*`: front ends at `-O0` spill every pointer
//! argument into such a slot, and seeing through it is what lets both passes
//! work on unoptimized front-end IR. The meet over all stores is
//! flow-insensitive and therefore sound for a slot that does not escape.
//!
//! An *aggregate slot* is an `alloca` (a `this` object or a struct of
//! pointers at `-O0`, often one that inlining brought into the caller)
//! whose every use, through `getelementptr`s with constant indices,
//! `bitcast`s and `addrspacecast`s, is the pointer operand of a load or
//! store, a `llvm.lifetime.*` operand, or the value stored into a promotable
//! slot that holds nothing else (the spilled `this` pointer: the slot's
//! loads are then followed as further uses). Every access has a constant
//! byte offset, so the loads of one field see exactly the stores that
//! overlap it; a variable index, a call, a `memcpy` or any other use means
//! the memory may change unseen and the alloca is no aggregate slot.
//!
//! # Driver
//!
//! [`analyze`] is spec 003's per-function driver: a worklist over the
//! pointer-producing instructions of one function that re-visits the users
//! of a value whose element changed. Every visit counts against the
//! instruction's block; with [`ProvenanceOptions::budget_cap`] set
//! (`ipmsp` uses spec 003's [`K_BUDGET_CAP`]) the analysis gives up when
//! one block exceeds it, and the caller leaves the function unchanged.
//! Spec 004 says its walker needs no budget (finite height), so
//! `memspace-opt` runs without a cap.

use alloc::vec::Vec;

use hashbrown::{HashMap, HashSet};
use nvpass_core::addrspace::{AddrSpace, AsLattice, ConcreteSpace};
use nvpass_core::ir::{
    AttrKey, AttrKind, AttrSlot, BlockId, Callee, ConstKind, FuncId, InstId, IrView, MdOperand,
    Opcode, TypeKind, User, ValueId, ValueKind,
};
use nvpass_core::kernel::{is_kernel_function, KernelSet};
use nvpass_core::worklist::Worklist;

/// Per-block visit cap of the address-space driver: a function whose
/// analysis visits one block more often than this is left unchanged.
///
/// Spec 003 "The Four RB-Trees" / "Driver Pseudocode": `kBudgetCap`
/// defaults to 1024 visits per block.
pub const K_BUDGET_CAP: u32 = 1024;

/// Named metadata holding the legacy kernel annotations
/// (`!{ptr @k, !"kernel", i32 1}`), which clang 19 still emits.
///
/// Spec 002 "Kernel Identity", criterion 3 (the annotations the
/// transplanter migrates).
pub const NVVM_ANNOTATIONS: &str = "nvvm.annotations";

/// The annotation key that marks a kernel in [`NVVM_ANNOTATIONS`].
///
/// Spec 002 "Kernel Identity", criterion 3.
pub const KERNEL_ANNOTATION: &str = "kernel";

/// Kernel parameter string attribute marking a `__grid_constant__`
/// parameter, seeded as constant memory.
///
/// Spec 004 "Lattice Propagation Walker": `GRID_CONSTANT` seeds
/// `AS_CONSTANT`.
pub const GRID_CONSTANT_ATTR: &str = "nvvm.grid_constant";

/// Whether `f` is a kernel for provenance purposes: the one kernel
/// predicate ([`is_kernel_function`], spec 002's four criteria) or, because
/// clang 19 marks kernels only through `!nvvm.annotations`, an
/// `!{ptr @f, !"kernel", i32 1}` annotation that no pass has transplanted
/// yet. Provenance must not depend on whether `kernel-attr-transplant` ran.
///
/// This reads the annotations on every call; passes compute a
/// [`KernelSet`] once per run and use [`analyze_in`].
pub fn is_kernel<M: IrView + ?Sized>(ir: &M, f: FuncId) -> bool {
    is_kernel_function(ir, f) || annotated_kernels(ir).contains(&f)
}

/// The functions marked `!"kernel", i32 1` in `!nvvm.annotations`.
pub fn annotated_kernels<M: IrView + ?Sized>(ir: &M) -> HashSet<FuncId> {
    let mut out = HashSet::new();
    for node in ir.named_md(NVVM_ANNOTATIONS) {
        let ops: Vec<MdOperand<'_>> = ir.md_operands(node).collect();
        if let [MdOperand::Value(fv), MdOperand::String(key), MdOperand::Value(one), ..] = ops[..] {
            if key == KERNEL_ANNOTATION && ir.const_int(one) == Some(1) {
                if let ValueKind::Function(f) = ir.value_kind(fv) {
                    out.insert(f);
                }
            }
        }
    }
    out
}

/// Options of [`analyze`].
#[derive(Copy, Clone, Debug, Default)]
pub struct ProvenanceOptions {
    /// Give up when one block is visited more than this many times.
    pub budget_cap: Option<u32>,
    /// Classify unknown sources as `Top` instead of `Bottom`
    /// (`memspace-opt-conservative`).
    pub conservative: bool,
}

/// The driver exceeded [`ProvenanceOptions::budget_cap`] in some block.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct BudgetExceeded {
    /// The block whose visit count went over the cap.
    pub block: BlockId,
}

/// The converged classification of one function's pointer values.
#[derive(Clone, Debug, Default)]
pub struct Provenance {
    kernel: bool,
    conservative: bool,
    insts: HashMap<ValueId, AsLattice>,
    seeds: HashMap<ValueId, AsLattice>,
    /// For every promotable slot (the `alloca` result): the values stored
    /// into it and the loads reading it.
    slots: HashMap<ValueId, Slot>,
    /// Access pointer (the alloca or a cast of it) to its slot.
    slot_of: HashMap<ValueId, ValueId>,
    /// For every `load ptr` from a field of an aggregate slot: the values
    /// stored at exactly its bytes, or `None` when some store overlaps them
    /// otherwise (another offset, size or type).
    field_loads: HashMap<InstId, Option<Vec<ValueId>>>,
    /// For every store into an aggregate slot: the field loads it feeds.
    field_stores: HashMap<InstId, Vec<InstId>>,
}

#[derive(Clone, Debug, Default)]
struct Slot {
    stored: Vec<ValueId>,
    loads: Vec<InstId>,
}

impl Provenance {
    /// Whether the analyzed function is a kernel (its pointer parameters
    /// are then global).
    pub fn in_kernel(&self) -> bool {
        self.kernel
    }

    /// The element of pointer value `v` (an argument, instruction result or
    /// constant of the analyzed function).
    pub fn of<M: IrView + ?Sized>(&self, ir: &M, v: ValueId) -> AsLattice {
        if let Some(&s) = self.seeds.get(&v) {
            return s;
        }
        match ir.type_kind(ir.value_type(v)) {
            TypeKind::Ptr(0) => {}
            TypeKind::Ptr(n) => return AsLattice::from_addr_space(AddrSpace(n)),
            _ => return AsLattice::Top,
        }
        match ir.value_kind(v) {
            ValueKind::Inst(_) => self.insts.get(&v).copied().unwrap_or(AsLattice::Bottom),
            ValueKind::Argument { func, index } => {
                if !self.kernel {
                    return self.unknown();
                }
                let slot = AttrSlot::Param(index);
                if ir.has_attr(func, slot, AttrKey::Str(GRID_CONSTANT_ATTR)) {
                    AsLattice::Known(ConcreteSpace::Const)
                } else if ir.has_attr(func, slot, AttrKey::Kind(AttrKind::ByVal)) {
                    AsLattice::Top
                } else {
                    AsLattice::Known(ConcreteSpace::Global)
                }
            }
            ValueKind::Global(_) => AsLattice::Known(ConcreteSpace::Global),
            ValueKind::Function(_) => AsLattice::Top,
            ValueKind::Constant(kind) => match kind {
                ConstKind::Null | ConstKind::Undef | ConstKind::Poison | ConstKind::ZeroInit => {
                    AsLattice::Bottom
                }
                ConstKind::Expr(Opcode::AddrSpaceCast) => match ir.const_operands(v).next() {
                    Some(base) => self.of(ir, innermost_cast_source(ir, base)),
                    None => self.unknown(),
                },
                ConstKind::Expr(Opcode::GetElementPtr | Opcode::BitCast) => {
                    match ir.const_operands(v).next() {
                        Some(base) => self.of(ir, base),
                        None => self.unknown(),
                    }
                }
                _ => self.unknown(),
            },
            _ => self.unknown(),
        }
    }

    fn unknown(&self) -> AsLattice {
        if self.conservative {
            AsLattice::Top
        } else {
            AsLattice::Bottom
        }
    }

    /// Whether `v` is a promotable slot's access pointer.
    pub fn is_slot_access(&self, v: ValueId) -> bool {
        self.slot_of.contains_key(&v)
    }

    /// The values stored into the slot that load `ld` reads, if `ld` reads
    /// a promotable slot.
    pub fn slot_stores<M: IrView + ?Sized>(&self, ir: &M, ld: InstId) -> Option<&[ValueId]> {
        if let Some(Some(stored)) = self.field_loads.get(&ld) {
            return Some(stored);
        }
        let p = ir.mem_ptr(ld)?;
        let slot = self.slot_of.get(&p)?;
        Some(&self.slots[slot].stored)
    }

    fn transfer<M: IrView + ?Sized>(&self, ir: &M, i: InstId) -> AsLattice {
        let op = |k: usize| ir.operand(i, k).map(|v| self.of(ir, v));
        match ir.opcode(i) {
            Opcode::Alloca => AsLattice::Known(ConcreteSpace::Local),
            Opcode::AddrSpaceCast => match ir.operand(i, 0) {
                Some(src) => self.of(ir, innermost_cast_source(ir, src)),
                None => AsLattice::Top,
            },
            Opcode::GetElementPtr | Opcode::BitCast | Opcode::Freeze => {
                op(0).unwrap_or(AsLattice::Top)
            }
            Opcode::Phi => ir
                .operands(i)
                .fold(AsLattice::Bottom, |acc, v| acc.meet(self.of(ir, v))),
            Opcode::Select => match (op(1), op(2)) {
                (Some(a), Some(b)) => a.meet(b),
                _ => AsLattice::Top,
            },
            Opcode::Load if self.field_loads.get(&i) == Some(&None) => AsLattice::Top,
            Opcode::Load => match self.slot_stores(ir, i) {
                Some(stored) => {
                    let ty = ir.inst_result(i).map(|r| ir.value_type(r));
                    stored.iter().fold(AsLattice::Bottom, |acc, &v| {
                        // A pointer is only read back as itself when it was
                        // stored with the loaded type (no reinterpretation of
                        // another space's or an integer's bits).
                        if Some(ir.value_type(v)) == ty {
                            acc.meet(self.of(ir, v))
                        } else {
                            AsLattice::Top
                        }
                    })
                }
                None if self.kernel && loads_from_readonly_kernel_aggregate(ir, i) => {
                    AsLattice::Known(ConcreteSpace::Global)
                }
                None => self.unknown(),
            },
            _ => self.unknown(),
        }
    }

    /// Overrides the element of root `v` (used by `memspace-opt`'s WMMA
    /// constraint, which assumes global at roots no seed reached).
    pub fn seed(&mut self, v: ValueId, l: AsLattice) {
        self.seeds.insert(v, l);
    }
}

/// The source of a chain of `addrspacecast`s ending in `v` (`v` itself
/// when it is no cast). The element of a cast of a cast is the element of
/// the innermost source, because that is what the folder's rule (2) turns
/// the chain into: classifying by the middle space instead would change
/// the element once the folder ran, and a second run would retag further.
fn innermost_cast_source<M: IrView + ?Sized>(ir: &M, v: ValueId) -> ValueId {
    let mut cur = v;
    // A cast chain is acyclic; the bound only guards malformed input.
    for _ in 0..64 {
        match super::rewrite::cast_source(ir, cur) {
            Some(src) => cur = src,
            None => break,
        }
    }
    cur
}

/// Whether load `ld` reads (through `getelementptr`s, `bitcast`s and
/// `addrspacecast`s) the `byval` or grid-constant aggregate parameter of a
/// kernel that the kernel only ever loads from: the pointer it reads is
/// then a kernel argument as the host passed it (see the module docs).
/// The caller has established that the load's function is a kernel.
fn loads_from_readonly_kernel_aggregate<M: IrView + ?Sized>(ir: &M, ld: InstId) -> bool {
    let Some(mut p) = ir.mem_ptr(ld) else {
        return false;
    };
    loop {
        match ir.value_kind(p) {
            ValueKind::Inst(i)
                if matches!(
                    ir.opcode(i),
                    Opcode::GetElementPtr | Opcode::BitCast | Opcode::AddrSpaceCast
                ) =>
            {
                match ir.operand(i, 0) {
                    Some(b) => p = b,
                    None => return false,
                }
            }
            ValueKind::Argument { func, index } => {
                let slot = AttrSlot::Param(index);
                let aggregate = ir.has_attr(func, slot, AttrKey::Kind(AttrKind::ByVal))
                    || ir.has_attr(func, slot, AttrKey::Str(GRID_CONSTANT_ATTR));
                return aggregate && only_loaded(ir, p);
            }
            _ => return false,
        }
    }
}

/// Whether every use of pointer `root`, through `getelementptr`s,
/// `bitcast`s and `addrspacecast`s, is the pointer operand of a load.
fn only_loaded<M: IrView + ?Sized>(ir: &M, root: ValueId) -> bool {
    super::every_derived_use(ir, root, |u, v, _| {
        ir.opcode(u) == Opcode::Load && ir.mem_ptr(u) == Some(v)
    })
}

/// Whether `v` is a generic (`addrspace(0)`) pointer: the values the
/// analysis gives an element.
pub(super) fn is_generic_ptr<M: IrView + ?Sized>(ir: &M, v: ValueId) -> bool {
    ir.type_kind(ir.value_type(v)) == TypeKind::Ptr(0)
}

fn is_lifetime_call<M: IrView + ?Sized>(ir: &M, i: InstId) -> bool {
    match ir.callee(i) {
        Some(Callee::Direct(f)) => ir.func_name(f).starts_with("llvm.lifetime."),
        _ => false,
    }
}

/// Finds the promotable slots of `f` (see the module docs).
fn find_slots<M: IrView + ?Sized>(ir: &M, f: FuncId, p: &mut Provenance) {
    let mut aggregates = Vec::new();
    for b in ir.blocks(f) {
        for a in ir.insts(b) {
            if ir.opcode(a) != Opcode::Alloca {
                continue;
            }
            let Some(av) = ir.inst_result(a) else {
                continue;
            };
            let mut access = alloc::vec![av];
            let mut slot = Slot::default();
            let mut ok = true;
            let mut k = 0;
            while k < access.len() && ok {
                let ap = access[k];
                k += 1;
                for u in ir.users(ap) {
                    let User::Inst(u) = u else {
                        ok = false;
                        break;
                    };
                    match ir.opcode(u) {
                        Opcode::Load if ir.mem_ptr(u) == Some(ap) => slot.loads.push(u),
                        Opcode::Store
                            if ir.mem_ptr(u) == Some(ap) && ir.operand(u, 0) != Some(ap) =>
                        {
                            if let Some(v) = ir.operand(u, 0) {
                                slot.stored.push(v);
                            }
                        }
                        Opcode::AddrSpaceCast => match ir.inst_result(u) {
                            Some(c) => access.push(c),
                            None => ok = false,
                        },
                        Opcode::Call if is_lifetime_call(ir, u) => {}
                        _ => ok = false,
                    }
                }
            }
            if ok {
                for &ap in &access {
                    p.slot_of.insert(ap, av);
                }
                p.slots.insert(av, slot);
            } else {
                aggregates.push(av);
            }
        }
    }
    // After the plain slots: an aggregate's address may pass through them.
    for av in aggregates {
        find_field_slot(ir, av, p);
    }
}

/// Records alloca `av` as an *aggregate slot* if every use of it, through
/// `getelementptr`s with constant indices, `bitcast`s and `addrspacecast`s,
/// is the pointer operand of a load or store or a `llvm.lifetime.*`
/// operand (see the module docs).
fn find_field_slot<M: IrView + ?Sized>(ir: &M, av: ValueId, p: &mut Provenance) {
    // (access pointer, byte offset from the alloca)
    let mut stack: Vec<(ValueId, i128)> = alloc::vec![(av, 0)];
    let mut seen: HashSet<ValueId> = HashSet::new();
    // (store, offset, size) and (load, offset, size) of every access.
    let mut stores: Vec<(InstId, i128, u64)> = Vec::new();
    let mut loads: Vec<(InstId, i128, u64)> = Vec::new();
    let size_of = |v: ValueId| ir.store_size(ir.value_type(v));
    while let Some((v, off)) = stack.pop() {
        if !seen.insert(v) {
            continue;
        }
        for u in ir.users(v) {
            let User::Inst(u) = u else {
                return;
            };
            match ir.opcode(u) {
                Opcode::Load if ir.mem_ptr(u) == Some(v) => {
                    let Some(sz) = ir.inst_result(u).and_then(size_of) else {
                        return;
                    };
                    loads.push((u, off, sz));
                }
                Opcode::Store if ir.mem_ptr(u) == Some(v) && ir.operand(u, 0) != Some(v) => {
                    let Some(sz) = ir.operand(u, 0).and_then(size_of) else {
                        return;
                    };
                    stores.push((u, off, sz));
                }
                Opcode::GetElementPtr if ir.operand(u, 0) == Some(v) => {
                    let (Some(d), Some(r)) = (crate::layout::gep_offset(ir, u), ir.inst_result(u))
                    else {
                        return;
                    };
                    let Some(o) = off.checked_add(d) else { return };
                    stack.push((r, o));
                }
                Opcode::BitCast | Opcode::AddrSpaceCast if ir.operand(u, 0) == Some(v) => {
                    match ir.inst_result(u) {
                        Some(r) => stack.push((r, off)),
                        None => return,
                    }
                }
                Opcode::Store if ir.operand(u, 0) == Some(v) => {
                    // The address spilled into a plain slot that holds
                    // nothing else: every load of the slot is the address.
                    let slot = ir.mem_ptr(u).and_then(|sp| p.slot_of.get(&sp));
                    let Some(slot) = slot.and_then(|sl| p.slots.get(sl)) else {
                        return;
                    };
                    if slot.stored.iter().any(|&x| x != v) {
                        return;
                    }
                    for &ld in &slot.loads {
                        match ir.inst_result(ld) {
                            Some(r) => stack.push((r, off)),
                            None => return,
                        }
                    }
                }
                Opcode::Call if is_lifetime_call(ir, u) => {}
                _ => return,
            }
        }
    }
    for &(ld, lo, lsz) in &loads {
        if !ir.inst_result(ld).is_some_and(|r| is_generic_ptr(ir, r)) {
            continue;
        }
        let mut stored = Some(Vec::new());
        for &(st, so, ssz) in &stores {
            let overlaps = so < lo + lsz as i128 && lo < so + ssz as i128;
            if !overlaps {
                continue;
            }
            p.field_stores.entry(st).or_default().push(ld);
            match (&mut stored, ir.operand(st, 0)) {
                (Some(vals), Some(val)) if so == lo && ssz == lsz => vals.push(val),
                _ => stored = None,
            }
        }
        p.field_loads.insert(ld, stored);
    }
}

/// Runs the driver on `f` to a fixed point (see the module docs).
///
/// Computes the module's kernels first; a pass analyzing many functions
/// computes them once and calls [`analyze_in`].
pub fn analyze<M: IrView + ?Sized>(
    ir: &M,
    f: FuncId,
    opts: ProvenanceOptions,
) -> Result<Provenance, BudgetExceeded> {
    analyze_in(ir, f, opts, &KernelSet::compute(ir))
}

/// [`analyze`] with the module's kernels already computed (the one kernel
/// predicate plus legacy annotations, as [`is_kernel`]).
pub fn analyze_in<M: IrView + ?Sized>(
    ir: &M,
    f: FuncId,
    opts: ProvenanceOptions,
    kernels: &KernelSet,
) -> Result<Provenance, BudgetExceeded> {
    let mut p = Provenance {
        kernel: kernels.contains(f),
        conservative: opts.conservative,
        ..Provenance::default()
    };
    find_slots(ir, f, &mut p);
    p.reanalyze(ir, f, opts)?;
    Ok(p)
}

impl Provenance {
    /// Recomputes the instruction elements from scratch (keeping seeds).
    pub fn reanalyze<M: IrView + ?Sized>(
        &mut self,
        ir: &M,
        f: FuncId,
        opts: ProvenanceOptions,
    ) -> Result<(), BudgetExceeded> {
        self.insts.clear();
        let mut wl: Worklist<InstId> = Worklist::new();
        for b in ir.blocks(f) {
            for i in ir.insts(b) {
                if ir.inst_result(i).is_some_and(|r| is_generic_ptr(ir, r)) {
                    wl.push(i);
                }
            }
        }
        let mut visits: HashMap<BlockId, u32> = HashMap::new();
        while let Some(i) = wl.pop() {
            let b = ir.inst_block(i);
            let n = visits.entry(b).or_insert(0);
            *n += 1;
            if opts.budget_cap.is_some_and(|cap| *n > cap) {
                return Err(BudgetExceeded { block: b });
            }
            let Some(r) = ir.inst_result(i) else {
                continue;
            };
            let new = self.transfer(ir, i);
            let old = self.insts.get(&r).copied().unwrap_or(AsLattice::Bottom);
            if new == old {
                continue;
            }
            self.insts.insert(r, new);
            // The generic casts at the end of typed cast chains from `r`
            // read `r`'s element too (see `innermost_cast_source`).
            let mut typed_casts: Vec<ValueId> = Vec::new();
            let mut k = 0;
            for u in ir.inst_users(r) {
                if ir.opcode(u) == Opcode::AddrSpaceCast {
                    typed_casts.extend(ir.inst_result(u).filter(|&x| !is_generic_ptr(ir, x)));
                }
            }
            while k < typed_casts.len() && k < 64 {
                let c = typed_casts[k];
                k += 1;
                for u in ir.inst_users(c) {
                    if ir.opcode(u) != Opcode::AddrSpaceCast {
                        continue;
                    }
                    match ir.inst_result(u) {
                        Some(x) if is_generic_ptr(ir, x) => {
                            wl.push(u);
                        }
                        Some(x) => typed_casts.push(x),
                        None => {}
                    }
                }
            }
            for u in ir.inst_users(r) {
                if ir.inst_result(u).is_some_and(|x| is_generic_ptr(ir, x)) {
                    wl.push(u);
                }
                if let Some(lds) = self.field_stores.get(&u) {
                    if ir.operand(u, 0) == Some(r) {
                        for &ld in lds {
                            wl.push(ld);
                        }
                    }
                }
                if ir.opcode(u) == Opcode::Store && ir.operand(u, 0) == Some(r) {
                    if let Some(slot) = ir.mem_ptr(u).and_then(|sp| self.slot_of.get(&sp)) {
                        for &ld in &self.slots[slot].loads {
                            wl.push(ld);
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
