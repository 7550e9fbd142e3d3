//! Rules 1 and 17: the legacy `!nvvm.annotations` kernel marks.
//!
//! An entry is `!{ptr @f, !"key", i32 value, !"key2", i32 value2, ...}`.

use alloc::vec::Vec;
use hashbrown::HashSet;

use nvpass_core::ir::{
    Attr, AttrKey, AttrSlot, CallConv, FuncId, IrEdit, IrView, MdId, MdOperand, ValueKind,
};
use nvpass_core::kernel::{NVVM_ANNOTATIONS_TRANSPLANTED_ATTR, NVVM_KERNEL_ATTR};
use nvpass_core::pretreat::{KERNEL_ANNOTATION_KEY, NVVM_ANNOTATIONS};

use super::util::{owned_md_operands, OwnedMd};

/// The `(key, value)` pairs of annotation entry `md` if it names `f`.
fn entry_pairs<M: IrView + ?Sized>(m: &M, md: MdId, f: FuncId) -> Option<Vec<(OwnedMd, OwnedMd)>> {
    // Reject entries naming another function before copying any operand.
    match m.md_operands(md).next() {
        Some(MdOperand::Value(v)) if v == m.func_value(f) => {}
        _ => return None,
    }
    let ops = owned_md_operands(m, md);
    match ops.first() {
        Some(&OwnedMd::Value(v)) if v == m.func_value(f) => {}
        _ => return None,
    }
    Some(
        ops[1..]
            .chunks(2)
            .map(|c| (c[0].clone(), c.get(1).cloned().unwrap_or(OwnedMd::Null)))
            .collect(),
    )
}

/// Whether `(key, value)` is the kernel mark `!"kernel", i32 1`.
fn is_kernel_mark<M: IrView + ?Sized>(m: &M, key: &OwnedMd, value: &OwnedMd) -> bool {
    matches!(key, OwnedMd::String(k) if k == KERNEL_ANNOTATION_KEY)
        && matches!(*value, OwnedMd::Value(v) if m.const_int(v) == Some(1))
}

/// Rule 1 (`strip_consumed_annotations`): removes the `!"kernel", i32 1`
/// pair naming `f` from `!nvvm.annotations` when the mark was already
/// migrated *and* is carried in a form the back end still reads: `f` has
/// the `"nvvm.annotations_transplanted"` marker and the `ptx_kernel`
/// calling convention. Other keys (`maxntidx`, `minctasm`, ...) are kept:
/// LLVM 19's NVPTX back end reads them from the metadata only. An entry
/// left with no pairs is dropped; otherwise it is rebuilt without the pair.
pub fn strip_consumed_annotations<M: IrEdit + ?Sized>(m: &mut M, f: FuncId) -> u64 {
    if !m.has_attr(
        f,
        AttrSlot::Function,
        AttrKey::Str(NVVM_ANNOTATIONS_TRANSPLANTED_ATTR),
    ) || m.func_call_conv(f) != CallConv::PtxKernel
    {
        return 0;
    }
    let entries: Vec<MdId> = m.named_md(NVVM_ANNOTATIONS).collect();
    let mut changed = 0;
    let mut new_entries = Vec::with_capacity(entries.len());
    for md in entries {
        let Some(pairs) = entry_pairs(m, md, f) else {
            new_entries.push(md);
            continue;
        };
        let kept: Vec<&(OwnedMd, OwnedMd)> = pairs
            .iter()
            .filter(|(k, v)| !is_kernel_mark(m, k, v))
            .collect();
        if kept.len() == pairs.len() {
            new_entries.push(md);
            continue;
        }
        changed += 1;
        if kept.is_empty() {
            continue;
        }
        let mut ops = Vec::with_capacity(1 + 2 * kept.len());
        ops.push(MdOperand::Value(m.func_value(f)));
        for (k, v) in kept {
            ops.push(k.as_operand());
            ops.push(v.as_operand());
        }
        // Operands come from an existing tuple, so creation cannot fail on
        // `MdOperand::Other`; if a host refuses anyway, keep the entry.
        let distinct = m.md_is_distinct(md);
        match m.create_md_node(&ops, distinct) {
            Ok(n) => new_entries.push(n),
            Err(_) => {
                new_entries.push(md);
                changed -= 1;
            }
        }
    }
    if changed > 0 {
        m.set_named_md(NVVM_ANNOTATIONS, &new_entries);
    }
    changed
}

/// Rule 17 (`lift_kernel_metadata_to_attr`): when `f` has a
/// `!"kernel", i32 1` annotation but neither `"nvvm.kernel"` nor the
/// transplanter's `"nvvm.annotations_transplanted"` marker (the
/// transplanter has not run), stamps `"nvvm.kernel"` so that criterion 2 of
/// the kernel predicate sees it. The metadata stays (the back end needs it)
/// and the transplanted marker is not stamped: it records that the
/// transplanter ran, which is not true here, and stamping it would let a
/// later rule 1 strip metadata this run kept.
pub fn lift_kernel_metadata_to_attr<M: IrEdit + ?Sized>(m: &mut M, f: FuncId) -> u64 {
    let marked = m
        .named_md(NVVM_ANNOTATIONS)
        .any(|md| marks_as_kernel(m, md) == Some(f));
    lift_if_marked(m, f, marked)
}

/// The function annotation entry `md` marks `!"kernel", i32 1`, if any:
/// what [`entry_pairs`] and [`is_kernel_mark`] find, read off the operands
/// without copying them (rule 17 asks it of every entry of the module).
fn marks_as_kernel<M: IrView + ?Sized>(m: &M, md: MdId) -> Option<FuncId> {
    let mut ops = m.md_operands(md);
    let Some(MdOperand::Value(v)) = ops.next() else {
        return None;
    };
    let ValueKind::Function(f) = m.value_kind(v) else {
        return None;
    };
    if v != m.func_value(f) {
        return None;
    }
    while let Some(key) = ops.next() {
        let value = ops.next();
        if matches!(key, MdOperand::String(k) if k == KERNEL_ANNOTATION_KEY)
            && matches!(value, Some(MdOperand::Value(x)) if m.const_int(x) == Some(1))
        {
            return Some(f);
        }
    }
    None
}

/// The functions that `!nvvm.annotations` marks `!"kernel", i32 1`, found
/// in one walk over the entries. Rule 17 on every function of a module
/// queries this set instead of scanning the entries once per function,
/// which would be quadratic in module size. Pretreat's rules never add a
/// mark, and rule 1 removes marks only of functions rule 17 skips (they
/// carry the transplanted marker), so one computation per run is exact.
pub fn legacy_kernel_marks<M: IrView + ?Sized>(m: &M) -> HashSet<FuncId> {
    m.named_md(NVVM_ANNOTATIONS)
        .filter_map(|md| marks_as_kernel(m, md))
        .collect()
}

/// Rule 17 given whether `f` carries the legacy kernel mark (see
/// [`legacy_kernel_marks`]).
pub fn lift_if_marked<M: IrEdit + ?Sized>(m: &mut M, f: FuncId, marked: bool) -> u64 {
    let has = |m: &M, key| m.has_attr(f, AttrSlot::Function, AttrKey::Str(key));
    if !marked || has(m, NVVM_KERNEL_ATTR) || has(m, NVVM_ANNOTATIONS_TRANSPLANTED_ATTR) {
        return 0;
    }
    m.add_attr(f, AttrSlot::Function, Attr::Str(NVVM_KERNEL_ATTR, ""));
    1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The marks found without copying the operands are those the pairs
    /// give: `!"kernel", i32 1` in any pair of an entry naming a function,
    /// not `i32 0`, not a dangling key, not an entry naming a variable.
    #[test]
    fn marks_read_in_place_match_the_pairs() {
        let m = nvpass_ir::parse_module(
            b"@g = global i32 0\n\
              define void @first() {\n  ret void\n}\n\
              define void @second_pair() {\n  ret void\n}\n\
              define void @zero() {\n  ret void\n}\n\
              define void @dangling() {\n  ret void\n}\n\
              define void @two_entries() {\n  ret void\n}\n\
              define void @none() {\n  ret void\n}\n\
              !nvvm.annotations = !{!0, !1, !2, !3, !4, !5, !6, !7}\n\
              !0 = !{ptr @first, !\"kernel\", i32 1}\n\
              !1 = !{ptr @second_pair, !\"maxntidx\", i32 64, !\"kernel\", i32 1}\n\
              !2 = !{ptr @zero, !\"kernel\", i32 0}\n\
              !3 = !{ptr @dangling, !\"maxntidx\", i32 64, !\"kernel\"}\n\
              !4 = !{ptr @two_entries, !\"maxntidx\", i32 64}\n\
              !5 = !{ptr @two_entries, !\"kernel\", i32 1}\n\
              !6 = !{ptr @g, !\"kernel\", i32 1}\n\
              !7 = !{ptr @none, i32 1, !\"kernel\"}\n",
        )
        .unwrap();
        let marked = legacy_kernel_marks(&m);
        let mut names: Vec<&str> = marked.iter().map(|&f| IrView::func_name(&m, f)).collect();
        names.sort_unstable();
        assert_eq!(names, ["first", "second_pair", "two_entries"]);
        for f in IrView::funcs(&m) {
            let by_pairs = IrView::named_md(&m, NVVM_ANNOTATIONS).any(|md| {
                entry_pairs(&m, md, f)
                    .is_some_and(|pairs| pairs.iter().any(|(k, v)| is_kernel_mark(&m, k, v)))
            });
            assert_eq!(
                by_pairs,
                marked.contains(&f),
                "{}",
                IrView::func_name(&m, f)
            );
        }
    }
}
