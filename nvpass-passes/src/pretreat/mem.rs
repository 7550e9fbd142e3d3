//! Rules 4, 5 and 14: lifetime markers and memory intrinsics.

use nvpass_core::ir::{ConstKind, FuncId, InstId, IrEdit, IrView, Opcode, ValueKind};

use super::util::{def_inst, direct_callee_name, func_insts};

/// Whether `name` is `llvm.memcpy.*`, `llvm.memmove.*` or `llvm.memset.*`
/// (including the `.inline` forms), whose third argument is the byte count.
pub(super) fn is_mem_intrinsic(name: &str) -> bool {
    ["llvm.memcpy.", "llvm.memmove.", "llvm.memset."]
        .iter()
        .any(|p| name.starts_with(p))
}

/// Whether `name` is `llvm.lifetime.start.*` or `llvm.lifetime.end.*`.
pub(super) fn is_lifetime_marker(name: &str) -> bool {
    name.starts_with("llvm.lifetime.start.") || name.starts_with("llvm.lifetime.end.")
}

/// The byte-count argument index of memory intrinsics.
const LEN_ARG: usize = 2;

fn mem_calls<M: IrView + ?Sized>(m: &M, f: FuncId) -> impl Iterator<Item = InstId> + '_ {
    func_insts(m, f).into_iter().filter(move |&i| {
        m.opcode(i) == Opcode::Call && direct_callee_name(m, i).is_some_and(is_mem_intrinsic)
    })
}

/// Rule 4 (`normalize_lifetime_sizes`): in `llvm.lifetime.{start,end}(i64
/// N, ptr %a)` where `%a` is directly an `alloca` (not a pointer into it)
/// and `N` is exactly the allocation's size (type size times a constant
/// element count), `N` becomes `-1`, the whole-object form. Other sizes
/// (a part of the object) are kept.
pub fn normalize_lifetime_sizes<M: IrEdit + ?Sized>(m: &mut M, f: FuncId) -> u64 {
    let mut changed = 0;
    for i in func_insts(m, f) {
        if m.opcode(i) != Opcode::Call {
            continue;
        }
        let is_lifetime = direct_callee_name(m, i).is_some_and(is_lifetime_marker);
        if !is_lifetime {
            continue;
        }
        let (Some(size), Some(ptr)) = (m.operand(i, 0), m.operand(i, 1)) else {
            continue;
        };
        let Some(n) = m.const_int(size) else { continue };
        if n < 0 {
            continue;
        }
        let Some(a) = def_inst(m, ptr).filter(|&a| m.opcode(a) == Opcode::Alloca) else {
            continue;
        };
        let Some(elem) = m.alloca_type(a).and_then(|t| m.alloc_size(t)) else {
            continue;
        };
        let count = match m.operand(a, 0) {
            None => Some(1),
            Some(c) => m.const_uint(c).and_then(|c| u64::try_from(c).ok()),
        };
        let Some(bytes) = count.and_then(|c| elem.checked_mul(c)) else {
            continue;
        };
        if u128::from(bytes) == n as u128 {
            let ty = m.value_type(size);
            let minus_one = m.const_int_of(ty, -1);
            if m.set_operand(i, 0, minus_one).is_ok() {
                changed += 1;
            }
        }
    }
    changed
}

/// Rule 5 (`delete_zero_length_mem_intrinsics`): deletes `llvm.memcpy`,
/// `llvm.memmove` and `llvm.memset` calls (and their `.inline` forms)
/// whose byte count is the constant 0, volatile or not (as LLVM's
/// InstCombine does: zero bytes are no access).
pub fn delete_zero_length_mem_intrinsics<M: IrEdit + ?Sized>(m: &mut M, f: FuncId) -> u64 {
    let dead: alloc::vec::Vec<InstId> = mem_calls(m, f)
        .filter(|&i| m.operand(i, LEN_ARG).and_then(|l| m.const_int(l)) == Some(0))
        .collect();
    dead.into_iter()
        .filter(|&i| m.erase_inst(i).is_ok())
        .count() as u64
}

/// Rule 14 (`normalize_undef_memcpy_lengths`): an `undef` or `poison` byte
/// count of a memory intrinsic becomes the constant 0 (a value `undef` may
/// take, and a refinement of `poison`), so that rule 5 deletes the call.
pub fn normalize_undef_memcpy_lengths<M: IrEdit + ?Sized>(m: &mut M, f: FuncId) -> u64 {
    let todo: alloc::vec::Vec<InstId> = mem_calls(m, f)
        .filter(|&i| {
            m.operand(i, LEN_ARG).is_some_and(|l| {
                matches!(
                    m.value_kind(l),
                    ValueKind::Constant(ConstKind::Undef | ConstKind::Poison)
                )
            })
        })
        .collect();
    let mut changed = 0;
    for i in todo {
        let Some(len) = m.operand(i, LEN_ARG) else {
            continue;
        };
        let ty = m.value_type(len);
        let zero = m.const_int_of(ty, 0);
        if m.set_operand(i, LEN_ARG, zero).is_ok() {
            changed += 1;
        }
    }
    changed
}
