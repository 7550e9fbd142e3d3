//! Rules 2, 3, 6, 7 and 8: pointer casts, constant casts, zero-index GEPs and
//! integer extensions. None adds an instruction that computes anything new:
//! each replaces a cast or GEP by a value it provably equals.

use alloc::vec::Vec;

use hashbrown::HashSet;

use nvpass_core::ir::{
    ConstKind, FuncId, InstId, IrEdit, IrView, Opcode, TypeId, TypeKind, ValueId, ValueKind,
};

use super::util::{def_with, erase_dead, func_insts, replace_inst, rewrite_operands};

/// Rule 2 (`canonicalize_bitcast_chains`): a `bitcast` whose operand is a
/// `bitcast` instruction (transitively) is rewritten to cast the chain's
/// root directly: to the root itself when the types agree (`i32 -> float ->
/// i32`, or opaque `ptr -> ptr` chains), otherwise to one `bitcast` of the
/// root (keeping the old cast's `!dbg`). The one-link chain `bitcast T %x
/// to T` (a no-op cast) is `%x` too. Intermediate casts left unused are
/// erased.
pub fn canonicalize_bitcast_chains<M: IrEdit + ?Sized>(m: &mut M, f: FuncId) -> u64 {
    let mut changed = 0;
    let mut erased: HashSet<InstId> = HashSet::new();
    let mut links: Vec<InstId> = Vec::new();
    for i in func_insts(m, f) {
        if m.opcode(i) != Opcode::BitCast {
            continue;
        }
        let (Some(src), Some(res)) = (m.operand(i, 0), m.inst_result(i)) else {
            continue;
        };
        let mut root = src;
        let mut chain = Vec::new();
        while let Some(j) = def_with(m, root, Opcode::BitCast) {
            match m.operand(j, 0) {
                Some(v) => {
                    chain.push(j);
                    root = v;
                }
                None => break,
            }
        }
        let ty = m.value_type(res);
        let replacement = if m.value_type(root) == ty {
            root
        } else if chain.is_empty() {
            continue;
        } else {
            match m.build_cast(i, Opcode::BitCast, root, ty) {
                Ok(v) => {
                    if let (Some(dbg), ValueKind::Inst(new)) =
                        (m.inst_md(i, "dbg"), m.value_kind(v))
                    {
                        m.set_inst_md(new, "dbg", Some(dbg));
                    }
                    v
                }
                Err(_) => continue,
            }
        };
        if replace_inst(m, i, replacement) {
            changed += 1;
            erased.insert(i);
            links.extend(chain);
        }
    }
    links.retain(|j| !erased.contains(j));
    erase_dead(m, links);
    changed
}

/// Whether rule 2 may rewrite `bitcast` instruction `i`: its source is
/// itself a `bitcast` (a chain), or has the result's type (a no-op cast).
/// Every other `bitcast` it leaves alone.
pub(super) fn may_shorten_bitcast<M: IrView + ?Sized>(m: &M, i: InstId) -> bool {
    let (Some(src), Some(res)) = (m.operand(i, 0), m.inst_result(i)) else {
        return false;
    };
    def_with(m, src, Opcode::BitCast).is_some() || m.value_type(src) == m.value_type(res)
}

/// Whether rule 6 may fold `bitcast` instruction `i`: its source is a
/// constant ([`constant_fold_casts`] leaves every other one alone, operands
/// included).
pub(super) fn may_fold_bitcast<M: IrView + ?Sized>(m: &M, i: InstId) -> bool {
    m.operand(i, 0).is_some_and(|c| is_constant(m, c))
}

/// The operand of `v` if `v` is an `addrspacecast` (instruction or
/// constant expression).
fn addrspacecast_source<M: IrView + ?Sized>(m: &M, v: ValueId) -> Option<ValueId> {
    match m.value_kind(v) {
        ValueKind::Inst(i) if m.opcode(i) == Opcode::AddrSpaceCast => m.operand(i, 0),
        ValueKind::Constant(ConstKind::Expr(Opcode::AddrSpaceCast)) => m.const_operands(v).next(),
        _ => None,
    }
}

/// Rule 3's shape on an `addrspacecast` instruction `i` (result `res`,
/// source `src`): the `x` it collapses to when `src` casts `x` from the
/// result's own type.
pub(super) fn noop_addrspace_cast_inst<M: IrView + ?Sized>(
    m: &M,
    i: InstId,
) -> Option<(ValueId, ValueId, ValueId)> {
    let res = m.inst_result(i)?;
    let src = m.operand(i, 0)?;
    let x = addrspacecast_source(m, src)?;
    (m.value_type(x) == m.value_type(res)).then_some((res, src, x))
}

/// Rule 3's shape on a constant-expression operand `v`: the `x` a round
/// trip `addrspacecast (addrspacecast x to A) to typeof(x)` collapses to.
pub(super) fn noop_addrspace_cast_const<M: IrView + ?Sized>(m: &M, v: ValueId) -> Option<ValueId> {
    if !matches!(
        m.value_kind(v),
        ValueKind::Constant(ConstKind::Expr(Opcode::AddrSpaceCast))
    ) {
        return None;
    }
    let x = addrspacecast_source(m, m.const_operands(v).next()?)?;
    (m.value_type(x) == m.value_type(v)).then_some(x)
}

/// Rule 3 (`drop_noop_addrspace_casts`): `addrspacecast (addrspacecast x to
/// A) to typeof(x)` is `x` (LLVM's own cast-pair rule: a round trip through
/// another space is the identity). Applies to `addrspacecast` instructions
/// and to round-trip constant expressions used as instruction operands.
/// Casts between two different spaces (`A -> B -> C`) are left alone, and
/// same-space `addrspacecast`s cannot occur (the verifier rejects them).
pub fn drop_noop_addrspace_casts<M: IrEdit + ?Sized>(m: &mut M, f: FuncId) -> u64 {
    let mut changed = 0;
    let mut erased: HashSet<InstId> = HashSet::new();
    let mut orphans = Vec::new();
    for i in func_insts(m, f) {
        if m.opcode(i) == Opcode::AddrSpaceCast {
            let Some((_, src, x)) = noop_addrspace_cast_inst(m, i) else {
                continue;
            };
            if replace_inst(m, i, x) {
                changed += 1;
                erased.insert(i);
                if let Some(j) = def_with(m, src, Opcode::AddrSpaceCast) {
                    orphans.push(j);
                }
            }
            continue;
        }
        changed += rewrite_operands(m, i, |m, v| noop_addrspace_cast_const(m, v));
    }
    orphans.retain(|j| !erased.contains(j));
    erase_dead(m, orphans);
    changed
}

/// `bitcast c to ty` for a constant `c`, when it folds without computing:
/// `c` itself for a same-type cast, or the same bits reinterpreted between
/// an integer and a floating-point type of one width.
fn fold_bitcast<M: IrEdit + ?Sized>(m: &mut M, c: ValueId, ty: TypeId) -> Option<ValueId> {
    let from = m.value_type(c);
    if from == ty {
        return Some(c);
    }
    let width = |k: TypeKind| match k {
        TypeKind::Half | TypeKind::BFloat => Some(16),
        TypeKind::Float => Some(32),
        TypeKind::Double => Some(64),
        TypeKind::Fp128 => Some(128),
        _ => None,
    };
    match (m.type_kind(from), m.type_kind(ty)) {
        (TypeKind::Int(a), to) if width(to) == Some(a) => {
            let bits = m.const_uint(c)?;
            m.const_float_of(ty, bits).ok()
        }
        (from_k, TypeKind::Int(b)) if width(from_k) == Some(b) => {
            let bits = m.const_float_bits(c)?;
            Some(m.const_int_of(ty, bits as i128))
        }
        _ => None,
    }
}

/// Whether `v` is a constant a cast may be folded into (not a global's or
/// function's address: `bitcast ptr @g to ptr` folds by type equality only,
/// which [`fold_bitcast`] checks first).
fn is_constant<M: IrView + ?Sized>(m: &M, v: ValueId) -> bool {
    matches!(
        m.value_kind(v),
        ValueKind::Constant(_) | ValueKind::Global(_) | ValueKind::Function(_)
    )
}

/// Rule 6 (`constant_fold_casts`): a `bitcast` of a constant folds into the
/// constant: same-type casts (`bitcast ptr @g to ptr`) become the operand,
/// and integer/floating-point casts of one width (`bitcast i32 1065353216
/// to float`) become the reinterpreted literal. Both the instruction and
/// the constant-expression form (as an instruction operand) are folded.
/// Vector and aggregate bit reinterpretations are left alone.
pub fn constant_fold_casts<M: IrEdit + ?Sized>(m: &mut M, f: FuncId) -> u64 {
    let mut changed = 0;
    for i in func_insts(m, f) {
        if m.opcode(i) == Opcode::BitCast {
            let (Some(c), Some(res)) = (m.operand(i, 0), m.inst_result(i)) else {
                continue;
            };
            if !is_constant(m, c) {
                continue;
            }
            let ty = m.value_type(res);
            if let Some(folded) = fold_bitcast(m, c, ty) {
                if replace_inst(m, i, folded) {
                    changed += 1;
                }
            }
            continue;
        }
        changed += rewrite_operands(m, i, |m, v| {
            if m.value_kind(v) != ValueKind::Constant(ConstKind::Expr(Opcode::BitCast)) {
                return None;
            }
            let c = m.const_operands(v).next()?;
            let ty = m.value_type(v);
            fold_bitcast(m, c, ty)
        });
    }
    changed
}

/// Rule 7's shape on a `getelementptr` instruction `i`: its base, when every
/// index is the integer 0 and the result has the base's type.
pub(super) fn zero_index_gep_inst<M: IrView + ?Sized>(m: &M, i: InstId) -> Option<ValueId> {
    let res = m.inst_result(i)?;
    let mut ops = m.operands(i);
    let base = ops.next()?;
    (ops.all(|x| m.const_int(x) == Some(0)) && m.value_type(base) == m.value_type(res))
        .then_some(base)
}

/// Rule 7's shape on a constant-expression operand `v`: the base of a
/// `getelementptr` expression with all-zero indices and the base's type.
pub(super) fn zero_index_gep_const<M: IrView + ?Sized>(m: &M, v: ValueId) -> Option<ValueId> {
    if m.value_kind(v) != ValueKind::Constant(ConstKind::Expr(Opcode::GetElementPtr)) {
        return None;
    }
    let mut ops = m.const_operands(v);
    let base = ops.next()?;
    (ops.all(|x| m.const_int(x) == Some(0)) && m.value_type(base) == m.value_type(v))
        .then_some(base)
}

/// Rule 7 (`collapse_zero_index_geps`): a `getelementptr` (instruction, or
/// constant expression used as an instruction operand) whose indices are
/// all the integer 0 and whose result type is its base's type is its base
/// pointer. Vector-index GEPs (whose result is a vector of pointers from a
/// scalar base) keep their GEP.
pub fn collapse_zero_index_geps<M: IrEdit + ?Sized>(m: &mut M, f: FuncId) -> u64 {
    let mut changed = 0;
    for i in func_insts(m, f) {
        if m.opcode(i) == Opcode::GetElementPtr {
            if zero_index_gep_inst(m, i).is_some_and(|base| replace_inst(m, i, base)) {
                changed += 1;
            }
            continue;
        }
        changed += rewrite_operands(m, i, |m, v| zero_index_gep_const(m, v));
    }
    changed
}

/// Whether the integer `v` is known to have its sign bit clear, by one of
/// four local facts (no recursion, no analysis):
/// - a constant `>= 0`;
/// - a `zext` (it widens, so its top bit is 0);
/// - an `and` with a constant operand `>= 0` (the mask clears the sign bit);
/// - an `lshr` by a constant amount `>= 1` (a zero is shifted in; an
///   amount past the width gives poison, for which `sext` and `zext` agree).
fn known_non_negative<M: IrView + ?Sized>(m: &M, v: ValueId) -> bool {
    if let Some(c) = m.const_int(v) {
        return c >= 0;
    }
    let ValueKind::Inst(i) = m.value_kind(v) else {
        return false;
    };
    let op = |k| m.operand(i, k).and_then(|x| m.const_int(x));
    match m.opcode(i) {
        Opcode::ZExt => true,
        Opcode::And => op(0).is_some_and(|c| c >= 0) || op(1).is_some_and(|c| c >= 0),
        Opcode::LShr => op(1).is_some_and(|c| c >= 1),
        _ => false,
    }
}

/// Rule 8 (`canonicalize_int_extensions`): `sext x` becomes `zext x` (in
/// place: name, uses and metadata kept) when `x` is known non-negative by
/// the local test of `known_non_negative`. For such `x` both extensions
/// give the same value, and both give poison for poison.
pub fn canonicalize_int_extensions<M: IrEdit + ?Sized>(m: &mut M, f: FuncId) -> u64 {
    let mut changed = 0;
    for i in func_insts(m, f) {
        if widenable_sext(m, i) && m.set_cast_opcode(i, Opcode::ZExt).is_ok() {
            changed += 1;
        }
    }
    changed
}

/// Rule 8's shape: `i` is a `sext` of a known non-negative value.
pub(super) fn widenable_sext<M: IrView + ?Sized>(m: &M, i: InstId) -> bool {
    m.opcode(i) == Opcode::SExt
        && m.operand(i, 0)
            .is_some_and(|src| known_non_negative(m, src))
}
