//! Call relations: which functions can contain a call of a given set of
//! functions (read from the use lists instead of a walk over every
//! instruction), and a function's direct callees.

use alloc::vec::Vec;
use hashbrown::HashSet;
use nvpass_core::ir::{Callee, FuncId, IrView, User};

/// The functions whose instructions use one of `funcs` (a superset of the
/// functions calling one directly). `None` when one of `funcs` is also used
/// other than by an instruction (a constant expression, a global's
/// initializer): a host whose `callee` looks through casts could then see a
/// direct call in any function, so the caller must walk them all.
pub(crate) fn functions_using<M: IrView + ?Sized>(
    m: &M,
    funcs: impl IntoIterator<Item = FuncId>,
) -> Option<HashSet<FuncId>> {
    let mut out = HashSet::new();
    for f in funcs {
        for u in m.users(m.func_value(f)) {
            match u {
                User::Inst(i) => {
                    out.insert(m.inst_func(i));
                }
                User::Global(_) | User::Const(_) => return None,
            }
        }
    }
    Some(out)
}

/// The functions `f` calls directly, each once, in the order of their first
/// call.
pub(crate) fn direct_callees<M: IrView + ?Sized>(m: &M, f: FuncId) -> Vec<FuncId> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for b in m.blocks(f) {
        for i in m.insts(b) {
            if let Some(Callee::Direct(c)) = m.callee(i) {
                if seen.insert(c) {
                    out.push(c);
                }
            }
        }
    }
    out
}
