//! Rule 11: `llvm.dbg.declare` to `llvm.dbg.value`.

use nvpass_core::ir::{ConstKind, FuncId, IrEdit, Opcode, ValueKind};

use super::util::{direct_callee, func_insts};

/// Rule 11 (`normalize_dbg_declare`): a `llvm.dbg.declare(metadata ptr A,
/// metadata !var, metadata !expr)` call whose address `A` is `undef` or
/// `poison` (the variable's storage is gone: its `alloca` was deleted)
/// becomes `llvm.dbg.value` with the same operands: "the variable's value
/// is unavailable", which is what a declare of no address means, in the
/// form value-tracking passes read. The call keeps its `!dbg`.
///
/// A declare of a live `alloca` is *not* converted: that is only correct
/// together with promoting the alloca to SSA (mem2reg/SROA), which
/// Pretreat does not do; describing the alloca's contents by a value
/// would lose every later store. `#dbg_declare` records are not visible
/// through the IR traits and are left as they are.
pub fn normalize_dbg_declare<M: IrEdit + ?Sized>(m: &mut M, f: FuncId) -> u64 {
    let mut changed = 0;
    for i in func_insts(m, f) {
        if m.opcode(i) != Opcode::Call {
            continue;
        }
        let Some(decl) = direct_callee(m, i) else {
            continue;
        };
        if m.func_name(decl) != "llvm.dbg.declare" {
            continue;
        }
        let dead_address = m
            .call_args(i)
            .next()
            .and_then(|a| m.metadata_value_operand(a))
            .is_some_and(|a| {
                matches!(
                    m.value_kind(a),
                    ValueKind::Constant(ConstKind::Undef | ConstKind::Poison)
                )
            });
        if !dead_address {
            continue;
        }
        let fty = m.func_type(decl);
        let target = match m.func_by_name("llvm.dbg.value") {
            Some(t) if m.func_type(t) == fty => t,
            Some(_) => continue,
            None => match m.declare_function("llvm.dbg.value", fty) {
                Ok(t) => t,
                Err(_) => continue,
            },
        };
        let v = m.func_value(target);
        if m.set_callee(i, v, fty).is_ok() {
            changed += 1;
        }
    }
    changed
}
