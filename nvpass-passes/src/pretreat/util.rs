//! Small queries shared by the Pretreat rules.

use alloc::string::String;
use alloc::vec::Vec;
use hashbrown::HashSet;

use nvpass_core::ir::{
    Callee, FuncId, InstId, IrEdit, IrView, MdId, MdOperand, Opcode, ValueId, ValueKind,
};

/// Every instruction of `f`, in layout order (a snapshot: rules may edit
/// while walking it).
pub(super) fn func_insts<M: IrView + ?Sized>(m: &M, f: FuncId) -> Vec<InstId> {
    // Counted first, so the list is allocated once at its size: collected
    // from the walk alone it would grow by doubling, for every rule that
    // looks at the function.
    let n = m.blocks(f).map(|b| m.insts(b).count()).sum();
    let mut insts = Vec::with_capacity(n);
    insts.extend(m.blocks(f).flat_map(|b| m.insts(b)));
    insts
}

/// Replaces each value operand `v` of `i` for which `f` gives a
/// replacement, in operand order; returns how many were replaced. Operands
/// are read by index as they are visited, so nothing is collected per
/// instruction.
pub(super) fn rewrite_operands<M: IrEdit + ?Sized>(
    m: &mut M,
    i: InstId,
    mut f: impl FnMut(&mut M, ValueId) -> Option<ValueId>,
) -> u64 {
    let mut n = 0;
    for k in 0..m.num_operands(i) {
        let Some(v) = m.operand(i, k) else {
            continue;
        };
        if let Some(x) = f(m, v) {
            if m.set_operand(i, k, x).is_ok() {
                n += 1;
            }
        }
    }
    n
}

/// The name of the function a call site calls directly.
pub(super) fn direct_callee_name<M: IrView + ?Sized>(m: &M, i: InstId) -> Option<&str> {
    match m.callee(i)? {
        Callee::Direct(f) => Some(m.func_name(f)),
        Callee::Indirect(_) => None,
    }
}

/// The function a call site calls directly.
pub(super) fn direct_callee<M: IrView + ?Sized>(m: &M, i: InstId) -> Option<FuncId> {
    match m.callee(i)? {
        Callee::Direct(f) => Some(f),
        Callee::Indirect(_) => None,
    }
}

/// The instruction defining `v`, if `v` is an instruction result.
pub(super) fn def_inst<M: IrView + ?Sized>(m: &M, v: ValueId) -> Option<InstId> {
    match m.value_kind(v) {
        ValueKind::Inst(i) => Some(i),
        _ => None,
    }
}

/// The instruction defining `v` if it has opcode `op`.
pub(super) fn def_with<M: IrView + ?Sized>(m: &M, v: ValueId, op: Opcode) -> Option<InstId> {
    def_inst(m, v).filter(|&i| m.opcode(i) == op)
}

/// Whether a call has operand-bundle operands (`["align"(ptr %p, i64 8)]`).
pub(super) fn has_bundle_operands<M: IrView + ?Sized>(m: &M, i: InstId) -> bool {
    m.num_operands(i) > m.call_args(i).count() + 1
}

/// Replaces every use of `old_inst`'s result with `new` and erases it.
pub(super) fn replace_inst<M: IrEdit + ?Sized>(m: &mut M, old_inst: InstId, new: ValueId) -> bool {
    let Some(old) = m.inst_result(old_inst) else {
        return false;
    };
    m.replace_all_uses(old, new).is_ok() && m.erase_inst(old_inst).is_ok()
}

/// Erases those of `candidates` (instructions without side effects that a
/// rule orphaned) whose results became unused, repeating as erasing one
/// orphans another. Each candidate must be live on entry; a candidate
/// listed again is dropped (its first place counts), so callers push
/// without checking, which would be quadratic in the number of rewrites.
pub(super) fn erase_dead<M: IrEdit + ?Sized>(m: &mut M, mut candidates: Vec<InstId>) {
    let mut seen = HashSet::new();
    candidates.retain(|&i| seen.insert(i));
    loop {
        let before = candidates.len();
        candidates.retain(|&i| {
            let dead = m.inst_result(i).is_some_and(|r| m.has_no_uses(r));
            !(dead && m.erase_inst(i).is_ok())
        });
        if candidates.len() == before {
            return;
        }
    }
}

/// An owned copy of an [`MdOperand`], so a rule can read a node and then
/// build a new one (`MdOperand::String` borrows the module).
#[derive(Clone, PartialEq, Eq, Debug)]
pub(super) enum OwnedMd {
    Node(MdId),
    String(String),
    Value(ValueId),
    Null,
    /// An operand the traits do not model: a node holding one is not rebuilt.
    Other,
}

impl OwnedMd {
    pub(super) fn of(op: MdOperand<'_>) -> OwnedMd {
        match op {
            MdOperand::Node(n) => OwnedMd::Node(n),
            MdOperand::String(s) => OwnedMd::String(String::from(s)),
            MdOperand::Value(v) => OwnedMd::Value(v),
            MdOperand::Null => OwnedMd::Null,
            MdOperand::Other => OwnedMd::Other,
        }
    }

    pub(super) fn as_operand(&self) -> MdOperand<'_> {
        match self {
            OwnedMd::Node(n) => MdOperand::Node(*n),
            OwnedMd::String(s) => MdOperand::String(s),
            OwnedMd::Value(v) => MdOperand::Value(*v),
            OwnedMd::Null => MdOperand::Null,
            OwnedMd::Other => MdOperand::Other,
        }
    }
}

/// The operands of `md`, owned.
pub(super) fn owned_md_operands<M: IrView + ?Sized>(m: &M, md: MdId) -> Vec<OwnedMd> {
    m.md_operands(md).map(OwnedMd::of).collect()
}
