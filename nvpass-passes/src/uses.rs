//! Call relations: which functions can contain a call of a given set of
//! functions, and the calls themselves in layout order (read from the use
//! lists instead of a walk over every instruction), a function's direct
//! callees, and edge lists grouped by their source.

use alloc::vec::Vec;
use hashbrown::{HashMap, HashSet};
use nvpass_core::ir::{BlockId, Callee, FuncId, InstId, IrView, User};

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

/// The direct calls of `funcs` that `keep` accepts, by the function holding
/// them, in no particular order: the users of each of `funcs` that call it
/// directly (once each, though a call may also pass its callee as an
/// argument). Complete when no function of `funcs` is used other than by an
/// instruction ([`functions_using`] gives `Some`): a direct call's called
/// operand is then the function itself, so the call is one of its uses.
pub(crate) fn direct_calls_by_caller<M: IrView + ?Sized>(
    m: &M,
    funcs: &[FuncId],
    keep: impl Fn(InstId) -> bool,
) -> HashMap<FuncId, Vec<InstId>> {
    let mut by_caller: HashMap<FuncId, Vec<InstId>> = HashMap::new();
    let mut seen: HashSet<InstId> = HashSet::new();
    for &g in funcs {
        for i in m.inst_users(m.func_value(g)) {
            if m.callee(i) == Some(Callee::Direct(g)) && keep(i) && seen.insert(i) {
                by_caller.entry(m.inst_func(i)).or_default().push(i);
            }
        }
    }
    by_caller
}

/// `insts`, instructions of `f`, in layout order: a block holding one of
/// them gives it without a walk, only a block holding several is walked
/// (use lists keep the order the uses were made in, which edits change).
pub(crate) fn in_layout_order<M: IrView + ?Sized>(
    m: &M,
    f: FuncId,
    insts: Vec<InstId>,
) -> Vec<InstId> {
    if insts.len() < 2 {
        return insts;
    }
    let mut per_block: HashMap<BlockId, (InstId, usize)> = HashMap::new();
    for &i in &insts {
        per_block.entry(m.inst_block(i)).or_insert((i, 0)).1 += 1;
    }
    let set: HashSet<InstId> = insts.iter().copied().collect();
    let mut out = Vec::with_capacity(insts.len());
    for b in m.blocks(f) {
        match per_block.get(&b) {
            None => {}
            Some(&(one, 1)) => out.push(one),
            Some(_) => out.extend(m.insts(b).filter(|i| set.contains(i))),
        }
    }
    out
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

/// Edges `(from, to)` with `from` in `0..n`, grouped by `from`: returns
/// `first` (n + 1 offsets) and the targets, those of `v` being
/// `targets[first[v]..first[v + 1]]` in the order their edges came. A
/// counting sort: O(n + edges), and one array instead of a list or a hash
/// table entry per node.
pub(crate) fn group_edges(n: usize, edges: &[(u32, u32)]) -> (Vec<u32>, Vec<u32>) {
    let mut first = alloc::vec![0u32; n + 1];
    for &(from, _) in edges {
        first[from as usize + 1] += 1;
    }
    for k in 0..n {
        first[k + 1] += first[k];
    }
    let mut fill = first.clone();
    let mut targets = alloc::vec![0u32; edges.len()];
    for &(from, to) in edges {
        let at = &mut fill[from as usize];
        targets[*at as usize] = to;
        *at += 1;
    }
    (first, targets)
}

#[cfg(test)]
mod tests {
    use super::group_edges;

    /// Each node's targets come out together, in the order of their edges;
    /// nodes without edges get empty ranges.
    #[test]
    fn edges_are_grouped_by_source_in_order() {
        let (first, targets) = group_edges(4, &[(2, 7), (0, 5), (2, 1), (0, 5), (3, 0)]);
        let of = |v: usize| &targets[first[v] as usize..first[v + 1] as usize];
        assert_eq!(of(0), [5, 5]);
        assert!(of(1).is_empty());
        assert_eq!(of(2), [7, 1]);
        assert_eq!(of(3), [0]);
        assert_eq!(first, [0, 2, 2, 4, 5]);
    }
}
