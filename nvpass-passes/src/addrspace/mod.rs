//! Address-space inference: callee specialization (`ipmsp`, specs 000 and
//! 003) and intra-procedural retagging (`memspace-opt`, spec 004).
//!
//! | file | pass / role |
//! |---|---|
//! | [`provenance`] | the classifier both passes share: which concrete space a pointer points into (kernel pointer parameters and the pointers in read-only kernel aggregates are global, allocas local, typed pointers their space, through casts, GEPs, phis, selects, spill slots and the fields of local aggregates) |
//! | [`rewrite`] | converting a pointer to another space with as few `addrspacecast`s as possible |
//! | [`byval_ref`] | `byval-ref` / `ByvalToRefPass` (not in the specs: read-only `byval` aggregates of non-escaping locals passed by reference, so that llc makes no generic copies and `ipmsp` sees local pointers) |
//! | [`ipmsp`] | `ipmsp` / `IPMSPPass` |
//! | [`memspace_opt`] | `memspace-opt` / `MemorySpaceOptPass` |
//!
//! The lattice itself (spec 003's votes and spec 004's BOTTOM/GENERIC view
//! of the same flat lattice), the address-space numbers and the NVVM alias
//! rule live in [`nvpass_core::addrspace`].
//!
//! Intended order (spec 004 "Ordering is deliberate"):
//! `ipmsp,memspace-opt`: specialization first makes helper parameters
//! concrete, then the walker retags the chains inside the clones. The
//! extension `byval-ref` goes first when used (`byval-ref,ipmsp,memspace-opt`):
//! the by-reference parameters it makes are what `ipmsp` specializes.

pub mod byval_ref;
pub mod ipmsp;
pub mod memspace_opt;
pub mod provenance;
pub mod rewrite;

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use hashbrown::HashSet;
use nvpass_core::addrspace::ConcreteSpace;
use nvpass_core::ir::{Callee, FuncId, InstId, IrEdit, IrView, Opcode, User, ValueId};
use nvpass_core::registry::Registry;

/// The word naming a concrete space in specialized clone names
/// (`helper.shared`).
pub const fn space_word(s: ConcreteSpace) -> &'static str {
    match s {
        ConcreteSpace::Global => "global",
        ConcreteSpace::Shared => "shared",
        ConcreteSpace::Const => "const",
        ConcreteSpace::Local => "local",
        ConcreteSpace::Tensor => "tensor",
        ConcreteSpace::DistShared => "dist_shared",
    }
}

/// The direct `call` sites of `f` (calls of `f` with its own function
/// type that do not also pass `f` as an argument), and whether every use
/// of `f` is one of them. Both `ipmsp` and `byval-ref` change a function's
/// signature only when they can retarget all of these.
pub fn call_sites<M: IrView + ?Sized>(ir: &M, f: FuncId) -> (Vec<InstId>, bool) {
    let fv = ir.func_value(f);
    let mut sites = Vec::new();
    // A site reading `f` in several operands is one site (a set: a helper
    // may have 100,000 call sites).
    let mut seen = HashSet::new();
    let mut all = true;
    for u in ir.users(fv) {
        match u {
            User::Inst(i)
                if ir.opcode(i) == Opcode::Call
                    && ir.callee(i) == Some(Callee::Direct(f))
                    && ir.call_args(i).all(|a| a != fv)
                    && ir.call_func_type(i) == Some(ir.func_type(f)) =>
            {
                if seen.insert(i) {
                    sites.push(i);
                }
            }
            _ => all = false,
        }
    }
    (sites, all)
}

/// `base` if no function or global has that name, else the first free
/// `base.N` (N = 1, 2, ...): the name of a new clone.
pub fn unique_name<M: IrView + ?Sized>(ir: &M, base: &str) -> String {
    let free = |n: &str| ir.func_by_name(n).is_none() && ir.global_by_name(n).is_none();
    if free(base) {
        return base.to_string();
    }
    let mut n = 1u64;
    loop {
        let name = format!("{base}.{n}");
        if free(&name) {
            return name;
        }
        n += 1;
    }
}

/// Registers `byval-ref`, `ipmsp` and `memspace-opt`, in pipeline order.
pub fn register<M: IrEdit + ?Sized>(r: &mut Registry<M>) {
    r.register(&byval_ref::INFO, byval_ref::construct::<M>)
        .expect("byval-ref registered once");
    // Names are fixed constants that no other family uses.
    r.register(&ipmsp::INFO, ipmsp::construct::<M>)
        .expect("ipmsp registered once");
    r.register(&memspace_opt::INFO, memspace_opt::construct::<M>)
        .expect("memspace-opt registered once");
}

/// Whether every use of `root`, and of every pointer derived from it, is
/// accepted. Address arithmetic (`getelementptr`, `bitcast`,
/// `addrspacecast` with the pointer as its one base operand) is followed
/// here; `use_ok(user, pointer, follow)` judges every other use and may add
/// values to `follow` that count as derived too. A user that is not an
/// instruction is rejected.
pub(super) fn every_derived_use<M: IrView + ?Sized>(
    ir: &M,
    root: ValueId,
    mut use_ok: impl FnMut(InstId, ValueId, &mut Vec<ValueId>) -> bool,
) -> bool {
    let mut stack = alloc::vec![root];
    let mut seen: HashSet<ValueId> = HashSet::new();
    while let Some(v) = stack.pop() {
        if !seen.insert(v) {
            continue;
        }
        for u in ir.users(v) {
            let User::Inst(u) = u else {
                return false;
            };
            let ok = match ir.opcode(u) {
                Opcode::GetElementPtr | Opcode::BitCast | Opcode::AddrSpaceCast
                    if ir.operand(u, 0) == Some(v)
                        && ir.operands(u).filter(|&o| o == v).count() == 1 =>
                {
                    match ir.inst_result(u) {
                        Some(r) => {
                            stack.push(r);
                            true
                        }
                        None => false,
                    }
                }
                _ => use_ok(u, v, &mut stack),
            };
            if !ok {
                return false;
            }
        }
    }
    true
}
