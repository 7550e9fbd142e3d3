//! Rule 19: `llvm.global_ctors` / `llvm.global_dtors` entries.

use alloc::vec::Vec;

use nvpass_core::ir::{ConstKind, IrEdit, IrView, ValueId, ValueKind};

/// The appending arrays rule 19 cleans.
pub const CTOR_DTOR_GLOBALS: [&str; 2] = ["llvm.global_ctors", "llvm.global_dtors"];

fn is_null_like<M: IrView + ?Sized>(m: &M, v: ValueId) -> bool {
    matches!(
        m.value_kind(v),
        ValueKind::Constant(ConstKind::Null | ConstKind::ZeroInit)
    )
}

/// Whether a `{ i32 prio, ptr fn, ptr data }` entry names no function.
fn is_empty_entry<M: IrView + ?Sized>(m: &M, e: ValueId) -> bool {
    match m.value_kind(e) {
        ValueKind::Constant(ConstKind::ZeroInit) => true,
        ValueKind::Constant(ConstKind::Aggregate) => m
            .const_operands(e)
            .nth(1)
            .is_some_and(|f| is_null_like(m, f)),
        _ => false,
    }
}

/// Rule 19 (`drop_empty_ctor_dtor_entries`): removes the entries of
/// `@llvm.global_ctors` / `@llvm.global_dtors` whose function is `null`
/// (a `zeroinitializer` array is all such entries), shrinking the array;
/// a global left with no entry and no uses is deleted. This matters for
/// NVPTX: LLVM 19's NVPTX back end rejects any non-empty ctor/dtor array,
/// null entries included.
pub fn drop_empty_ctor_dtor_entries<M: IrEdit + ?Sized>(m: &mut M) -> u64 {
    let mut changed = 0;
    for name in CTOR_DTOR_GLOBALS {
        let Some(g) = m.global_by_name(name) else {
            continue;
        };
        let Some(init) = m.global_initializer(g) else {
            continue;
        };
        let (entries, all_empty) = match m.value_kind(init) {
            ValueKind::Constant(ConstKind::ZeroInit) => (Vec::new(), true),
            ValueKind::Constant(ConstKind::Aggregate) => {
                let all: Vec<ValueId> = m.const_operands(init).collect();
                let kept: Vec<ValueId> = all
                    .iter()
                    .copied()
                    .filter(|&e| !is_empty_entry(m, e))
                    .collect();
                if kept.len() == all.len() {
                    continue;
                }
                let empty = kept.is_empty();
                (kept, empty)
            }
            _ => continue,
        };
        if all_empty {
            if m.has_no_uses(m.global_value(g)) && m.erase_global(g).is_ok() {
                changed += 1;
            }
            continue;
        }
        let elem_ty = m.value_type(entries[0]);
        let Ok(arr) = m.array_type_of(elem_ty, entries.len() as u64) else {
            continue;
        };
        let Ok(new) = m.const_aggregate(arr, &entries) else {
            continue;
        };
        if m.retype_global_initializer(g, new).is_ok() {
            changed += 1;
        }
    }
    changed
}
