//! Rule 15: NaN literals.

use nvpass_core::ir::{FuncId, IrEdit, IrView, Opcode, TypeKind, ValueId};

use super::util::{func_insts, rewrite_operands};

/// (exponent bits, mantissa bits) of the IEEE formats rule 15 handles.
fn ieee_format(k: TypeKind) -> Option<(u32, u32)> {
    match k {
        TypeKind::Half => Some((5, 10)),
        TypeKind::BFloat => Some((8, 7)),
        TypeKind::Float => Some((8, 23)),
        TypeKind::Double => Some((11, 52)),
        TypeKind::Fp128 => Some((15, 112)),
        _ => None,
    }
}

/// The canonical quiet NaN of a format: sign 0, exponent all ones, only
/// the quiet bit (the mantissa's top bit) set (`0x7FC00000` for `float`).
pub fn canonical_nan(exp: u32, man: u32) -> u128 {
    (((1u128 << exp) - 1) << man) | (1u128 << (man - 1))
}

fn is_nan(bits: u128, exp: u32, man: u32) -> bool {
    let e = (bits >> man) & ((1u128 << exp) - 1);
    let mantissa = bits & ((1u128 << man) - 1);
    e == (1u128 << exp) - 1 && mantissa != 0
}

/// The opcodes whose NaN operands rule 15 canonicalizes.
pub(super) fn nan_blind(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::FAdd | Opcode::FSub | Opcode::FMul | Opcode::FDiv | Opcode::FRem | Opcode::FCmp
    )
}

/// Rule 15's shape: the canonical NaN bits that replace `v`, when `v` is a
/// scalar NaN literal of an IEEE type with any other bit pattern.
pub(super) fn noncanonical_nan<M: IrView + ?Sized>(m: &M, v: ValueId) -> Option<u128> {
    let bits = m.const_float_bits(v)?;
    let (exp, man) = ieee_format(m.type_kind(m.value_type(v)))?;
    let canon = canonical_nan(exp, man);
    (is_nan(bits, exp, man) && bits != canon).then_some(canon)
}

/// Rule 15 (`canonicalize_fp_specials`): a NaN literal with a non-canonical
/// bit pattern (a payload, a sign, or signalling) becomes the canonical
/// quiet NaN of its type, where it is an operand of `fadd`, `fsub`, `fmul`,
/// `fdiv`, `frem` or `fcmp`. For those, LLVM already leaves the payload and
/// sign of a NaN result unspecified (LangRef, "Behavior of Floating-Point
/// NaN values") and comparisons see any NaN alike, so the change is a
/// refinement. NaN literals stored, bitcast, selected, passed to calls or
/// fed to `fneg` keep their exact bits: there the payload is observable.
/// Infinities have one encoding per sign, so there is nothing to
/// canonicalize; vector literals and `x86_fp80`/`ppc_fp128` are left alone.
pub fn canonicalize_fp_specials<M: IrEdit + ?Sized>(m: &mut M, f: FuncId) -> u64 {
    let mut changed = 0;
    for i in func_insts(m, f) {
        if !nan_blind(m.opcode(i)) {
            continue;
        }
        changed += rewrite_operands(m, i, |m, v| {
            let canon = noncanonical_nan(m, v)?;
            m.const_float_of(m.value_type(v), canon).ok()
        });
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_patterns() {
        assert_eq!(canonical_nan(8, 23), 0x7FC0_0000);
        assert_eq!(canonical_nan(11, 52), 0x7FF8_0000_0000_0000);
        assert_eq!(canonical_nan(5, 10), 0x7E00);
        assert_eq!(canonical_nan(8, 7), 0x7FC0);
        assert_eq!(canonical_nan(15, 112), 0x7FFF_8000u128 << 96);
        assert!(is_nan(0x7FC0_0001, 8, 23));
        assert!(is_nan(0xFFC0_0000, 8, 23));
        assert!(!is_nan(0x7F80_0000, 8, 23)); // +inf
        assert!(!is_nan(0x3F80_0000, 8, 23)); // 1.0
    }
}
