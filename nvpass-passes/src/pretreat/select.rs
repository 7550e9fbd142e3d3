//! Rule 12: `select` of constants.

use alloc::vec::Vec;

use nvpass_core::ir::{FuncId, InstId, IrEdit, IrView, Opcode, TypeKind, ValueId, ValueKind};

use super::util::{def_with, erase_dead, func_insts};

/// The `c` of `xor i1 c, true` (either operand order).
fn negated<M: IrView + ?Sized>(m: &M, cond: ValueId) -> Option<ValueId> {
    if m.type_kind(m.value_type(cond)) != TypeKind::Int(1) {
        return None;
    }
    let x = def_with(m, cond, Opcode::Xor)?;
    let (a, b) = (m.operand(x, 0)?, m.operand(x, 1)?);
    match (m.const_int(a), m.const_int(b)) {
        (_, Some(-1)) => Some(a),
        (Some(-1), _) => Some(b),
        _ => None,
    }
}

/// Whether rule 12 may rewrite `select` instruction `i`: its condition is
/// a negation (`xor i1 c, true`). Every other `select` it leaves alone.
pub(super) fn may_flip_select<M: IrView + ?Sized>(m: &M, i: InstId) -> bool {
    m.operand(i, 0).is_some_and(|c| negated(m, c).is_some())
}

/// Rule 12 (`canonicalize_select_constants`): `select (xor i1 c, true),
/// C1, C2` with constant arms becomes `select c, C2, C1`: the arm chosen
/// when `c` holds comes first and the negation goes (erased once unused).
/// Operands are only reordered; no instruction is added. A select with
/// `!prof` branch weights is left alone (its weights would need swapping
/// too), as are vector conditions.
pub fn canonicalize_select_constants<M: IrEdit + ?Sized>(m: &mut M, f: FuncId) -> u64 {
    let is_const = |m: &M, v: ValueId| matches!(m.value_kind(v), ValueKind::Constant(_));
    let mut changed = 0;
    let mut orphans = Vec::new();
    for i in func_insts(m, f) {
        if m.opcode(i) != Opcode::Select || m.inst_md(i, "prof").is_some() {
            continue;
        }
        let (Some(cond), Some(t), Some(e)) = (m.operand(i, 0), m.operand(i, 1), m.operand(i, 2))
        else {
            continue;
        };
        if !(is_const(m, t) && is_const(m, e)) {
            continue;
        }
        let Some(c) = negated(m, cond) else { continue };
        // Same types pairwise, so these cannot fail on a conforming host;
        // set the condition last so a refusal leaves the select unchanged.
        if m.set_operand(i, 1, e).is_ok() && m.set_operand(i, 2, t).is_ok() {
            if m.set_operand(i, 0, c).is_ok() {
                changed += 1;
                if let Some(x) = def_with(m, cond, Opcode::Xor) {
                    orphans.push(x);
                }
            } else {
                let _ = m.set_operand(i, 1, t);
                let _ = m.set_operand(i, 2, e);
            }
        }
    }
    erase_dead(m, orphans);
    changed
}
