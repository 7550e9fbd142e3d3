//! Byte layout questions several passes ask of constant address
//! arithmetic.

use nvpass_core::ir::{InstId, IrView, TypeKind};

/// Offset in bytes of a `getelementptr` with constant indices from its base;
/// `None` when an index is not a constant or steps into a type without a
/// layout.
pub(crate) fn gep_offset<M: IrView + ?Sized>(m: &M, gep: InstId) -> Option<i128> {
    let mut ty = m.gep_source_type(gep)?;
    let mut ops = m.operands(gep).skip(1);
    let first = m.const_int(ops.next()?)?;
    let mut off = first.checked_mul(m.alloc_size(ty)? as i128)?;
    for idx in ops {
        let c = m.const_int(idx)?;
        match m.type_kind(ty) {
            TypeKind::Struct { .. } => {
                let layout = m.struct_layout(ty)?;
                let k = usize::try_from(c).ok()?;
                off = off.checked_add(*layout.offsets.get(k)? as i128)?;
                ty = m.struct_field(ty, k)?;
            }
            TypeKind::Array { elem, .. } | TypeKind::Vector { elem, .. } => {
                off = off.checked_add(c.checked_mul(m.alloc_size(elem)? as i128)?)?;
                ty = elem;
            }
            _ => return None,
        }
    }
    Some(off)
}
