//! Which values are restricted roots, and the front-end to canonical key
//! rewrite (spec 004, "Matching Predicate" and "Attribute Keys: Frontend vs
//! Canonical").

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use hashbrown::HashMap;
use nvpass_core::ir::{
    Attr, AttrKey, AttrKind, AttrSlot, FuncId, IrEdit, IrView, Opcode, TypeId, TypeKind, ValueId,
};

use super::{CANONICAL_KEYS, FE_KEYWORD, FE_SCOPE, NVVM_KEYWORD, NVVM_SCOPE, SCOPE_NAME_PREFIX};

/// How a parameter came to be restricted.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Origin {
    /// `"user_specified_restrict_*"` / `"nvvm.restrict_*"` on the parameter.
    ParamKey,
    /// The function-level key, which covers every plain pointer parameter
    /// (the spec's before/after example).
    FunctionKey,
    /// Clang's form: a `noalias` pointer parameter without any key.
    NoAlias,
}

/// One restricted pointer family: a parameter, or one pointer field of a
/// restrict-annotated `byval` struct parameter.
#[derive(Clone, Debug)]
pub struct Root {
    /// The value accesses derive from: the argument, or for a struct field
    /// every load of that field (all loads of one field share the root).
    pub values: Vec<ValueId>,
    /// 0-based parameter index.
    pub param: u32,
    /// Name of the root's scope node (`restrict.scope.<id>.<arg>[.<offset>]`).
    pub scope_name: String,
    /// How the parameter was marked.
    pub origin: Origin,
    /// Whether this is a struct-field root (no `noalias` is added for it).
    pub in_struct: bool,
}

/// A restrict-annotated aggregate parameter (spec 004, "Failure Modes",
/// struct-field restrict).
#[derive(Clone, Debug)]
pub struct StructParam {
    /// 0-based parameter index.
    pub param: u32,
    /// The argument.
    pub value: ValueId,
    /// `true` for `ptr byval(%struct)`; `false` for a first-class
    /// struct passed by value (not propagated even when allowed).
    pub in_memory: bool,
}

/// The name of an argument as LLVM prints it (`a` for `%a`, `0` for `%0`).
pub fn arg_display_name<M: IrView + ?Sized>(m: &M, f: FuncId, index: u32) -> String {
    match m.param(f, index as usize).and_then(|p| m.value_name(p)) {
        Some(n) => n.to_string(),
        None => index.to_string(),
    }
}

fn is_ptr<M: IrView + ?Sized>(m: &M, ty: TypeId) -> bool {
    matches!(m.type_kind(ty), TypeKind::Ptr(_))
}

/// The aggregate a parameter carries in its private memory (`byval(T)`).
fn in_memory_aggregate<M: IrView + ?Sized>(m: &M, f: FuncId, slot: AttrSlot) -> Option<TypeId> {
    m.type_attr(f, slot, AttrKind::ByVal).filter(|&t| {
        matches!(
            m.type_kind(t),
            TypeKind::Struct { .. } | TypeKind::Array { .. }
        )
    })
}

/// The scope ID a parameter (or, failing that, the function) carries, in
/// canonical or front-end spelling.
fn scope_id<M: IrView + ?Sized>(m: &M, f: FuncId, slot: AttrSlot) -> Option<String> {
    m.str_attr(f, slot, NVVM_SCOPE)
        .or_else(|| m.str_attr(f, slot, FE_SCOPE))
        .map(|s| s.to_string())
}

/// Whether list `slot` carries a restrict key in any spelling.
fn has_key<M: IrView + ?Sized>(m: &M, f: FuncId, slot: AttrSlot) -> bool {
    [FE_SCOPE, FE_KEYWORD, NVVM_SCOPE, NVVM_KEYWORD]
        .into_iter()
        .any(|k| m.str_attr(f, slot, k).is_some())
}

/// The result of [`find_roots`].
#[derive(Default, Debug)]
pub struct Found {
    /// Direct pointer roots, in parameter order.
    pub roots: Vec<Root>,
    /// Restrict-annotated aggregate parameters.
    pub structs: Vec<StructParam>,
}

/// The spec's matching predicate: a pointer parameter is restricted iff it
/// carries a restrict key (front-end or canonical spelling), or the function
/// carries one, or it is `noalias` (clang's `__restrict__`). A key on an
/// aggregate parameter is struct-field restrict.
pub fn find_roots<M: IrView + ?Sized>(m: &M, f: FuncId) -> Found {
    let fn_key = has_key(m, f, AttrSlot::Function);
    let fn_id = scope_id(m, f, AttrSlot::Function);
    let mut found = Found::default();
    for (i, p) in m.params(f).enumerate() {
        let slot = AttrSlot::Param(i as u32);
        let ty = m.value_type(p);
        let param_key = has_key(m, f, slot);
        let aggregate = in_memory_aggregate(m, f, slot);
        if param_key && (aggregate.is_some() || matches!(m.type_kind(ty), TypeKind::Struct { .. }))
        {
            found.structs.push(StructParam {
                param: i as u32,
                value: p,
                in_memory: aggregate.is_some(),
            });
            continue;
        }
        if !is_ptr(m, ty) || aggregate.is_some() {
            continue;
        }
        let origin = if param_key {
            Origin::ParamKey
        } else if fn_key && m.type_attr(f, slot, AttrKind::StructRet).is_none() {
            Origin::FunctionKey
        } else if m.has_attr(f, slot, AttrKey::Kind(AttrKind::NoAlias)) {
            Origin::NoAlias
        } else {
            continue;
        };
        let id = scope_id(m, f, slot)
            .or_else(|| fn_id.clone())
            .unwrap_or_else(|| "noalias".to_string());
        found.roots.push(Root {
            values: alloc::vec![p],
            param: i as u32,
            scope_name: format!(
                "{SCOPE_NAME_PREFIX}{id}.{}",
                arg_display_name(m, f, i as u32)
            ),
            origin,
            in_struct: false,
        });
    }
    found
}

/// Copies every front-end key of list `slot` to its canonical key, keeping
/// the front-end key (spec 004: "The frontend keys stay on the IR after
/// canonicalization"). An existing canonical value is kept.
pub fn canonicalize_keys<M: IrEdit + ?Sized>(m: &mut M, f: FuncId, slot: AttrSlot) {
    for (fe, canon) in CANONICAL_KEYS {
        let Some(v) = m.str_attr(f, slot, fe).map(|s| s.to_string()) else {
            continue;
        };
        if m.str_attr(f, slot, canon).is_none() {
            m.add_attr(f, slot, Attr::Str(canon, &v));
        }
    }
}

/// Why a struct parameter's fields cannot be roots.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum StructRefusal {
    /// The struct is passed as a first-class value, not in memory.
    ByValue,
    /// The struct memory is written, passed on, or otherwise used in a way
    /// that may change a field (`store`, `call`, `ptrtoint`, ...).
    Escapes,
}

/// With `allow-restrict-in-struct`: the pointer fields loaded from a
/// restrict-annotated `byval` struct, one root per field (byte offset), each
/// covering every load of that field. The struct memory must only be read:
/// every transitive user through GEP/bitcast/addrspacecast is a load, so
/// every load of one field yields the same pointer.
pub fn struct_field_roots<M: IrView + ?Sized>(
    m: &M,
    f: FuncId,
    sp: &StructParam,
) -> Result<Vec<Root>, StructRefusal> {
    if !sp.in_memory {
        return Err(StructRefusal::ByValue);
    }
    let id = scope_id(m, f, AttrSlot::Param(sp.param)).unwrap_or_else(|| "0".to_string());
    let arg = arg_display_name(m, f, sp.param);
    // (value, byte offset from the struct start, or None when unknown)
    let mut stack: Vec<(ValueId, Option<i128>)> = alloc::vec![(sp.value, Some(0))];
    let mut fields: Vec<(i128, Vec<ValueId>)> = Vec::new();
    let mut by_offset: HashMap<i128, usize> = HashMap::new();
    while let Some((v, off)) = stack.pop() {
        for u in m.users(v) {
            let nvpass_core::ir::User::Inst(i) = u else {
                return Err(StructRefusal::Escapes);
            };
            match m.opcode(i) {
                Opcode::GetElementPtr if m.operand(i, 0) == Some(v) => {
                    let r = m.inst_result(i).ok_or(StructRefusal::Escapes)?;
                    let o = off.and_then(|o| Some(o + crate::layout::gep_offset(m, i)?));
                    stack.push((r, o));
                }
                Opcode::BitCast | Opcode::AddrSpaceCast => {
                    stack.push((m.inst_result(i).ok_or(StructRefusal::Escapes)?, off));
                }
                Opcode::Load if m.mem_ptr(i) == Some(v) && !m.is_volatile(i) => {
                    let Some(r) = m.inst_result(i) else { continue };
                    if let (Some(o), true) = (off, is_ptr(m, m.value_type(r))) {
                        let k = *by_offset.entry(o).or_insert_with(|| {
                            fields.push((o, Vec::new()));
                            fields.len() - 1
                        });
                        fields[k].1.push(r);
                    }
                }
                _ => return Err(StructRefusal::Escapes),
            }
        }
    }
    fields.sort_by_key(|(o, _)| *o);
    Ok(fields
        .into_iter()
        .map(|(o, values)| Root {
            values,
            param: sp.param,
            scope_name: format!("{SCOPE_NAME_PREFIX}{id}.{arg}.{o}"),
            origin: Origin::ParamKey,
            in_struct: true,
        })
        .collect())
}
