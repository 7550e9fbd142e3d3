//! The direct-call graph of a module and its strongly connected components
//! in bottom-up order (callees before callers), as the CGSCC inliners of
//! spec 001 walk it ("Inliner::inlineCallsImpl (CGSCC SCC walk)").
//!
//! Only direct calls to functions of the module are edges; indirect calls
//! and calls to declarations do not constrain the order.

use alloc::vec::Vec;

use hashbrown::{HashMap, HashSet};
use nvpass_core::inline_cost::direct_callee;
use nvpass_core::ir::{FuncId, InstId, IrView, User};

/// The call sites in `f`, in layout order.
pub fn call_sites<M: IrView + ?Sized>(m: &M, f: FuncId) -> Vec<InstId> {
    m.blocks(f)
        .flat_map(|b| m.insts(b))
        .filter(|&i| m.opcode(i).is_call())
        .collect()
}

/// SCCs of the direct-call graph among defined functions, bottom-up
/// (Tarjan's algorithm emits an SCC only after every SCC it reaches).
/// Each SCC lists its functions in module order.
#[derive(Clone, Debug, Default)]
pub struct Sccs {
    /// The components, callees first.
    pub order: Vec<Vec<FuncId>>,
    /// Index into `order` of each function's component.
    pub scc_of: HashMap<FuncId, usize>,
    /// Functions with a direct call to themselves.
    pub self_calls: HashSet<FuncId>,
    /// Functions with a direct call to a defined function (themselves
    /// included): the others have nothing an inliner could inline.
    pub has_callees: HashSet<FuncId>,
}

impl Sccs {
    /// Computes the SCCs of `m`.
    pub fn compute<M: IrView + ?Sized>(m: &M) -> Sccs {
        let funcs: Vec<FuncId> = m.funcs().filter(|&f| !m.func_is_declaration(f)).collect();
        let index_of: HashMap<FuncId, usize> =
            funcs.iter().enumerate().map(|(k, &f)| (f, k)).collect();
        // Edges come from each function's users, not from scanning every
        // instruction for calls: a module has far fewer calls than
        // instructions, and the scan would read all of them from memory.
        let mut succ: Vec<Vec<usize>> = alloc::vec![Vec::new(); funcs.len()];
        for (kg, &g) in funcs.iter().enumerate() {
            for u in m.users(m.func_value(g)) {
                let User::Inst(c) = u else { continue };
                if direct_callee(m, c) != Some(g) {
                    continue;
                }
                if let Some(&kf) = index_of.get(&m.inst_func(c)) {
                    succ[kf].push(kg);
                }
            }
        }
        for s in &mut succ {
            s.sort_unstable();
            s.dedup();
        }
        let mut out = Sccs::default();
        for (k, s) in succ.iter().enumerate() {
            if s.binary_search(&k).is_ok() {
                out.self_calls.insert(funcs[k]);
            }
            if !s.is_empty() {
                out.has_callees.insert(funcs[k]);
            }
        }
        // Iterative Tarjan.
        let n = funcs.len();
        let mut index = alloc::vec![usize::MAX; n];
        let mut low = alloc::vec![0usize; n];
        let mut on_stack = alloc::vec![false; n];
        let mut stack: Vec<usize> = Vec::new();
        let mut next = 0usize;
        for root in 0..n {
            if index[root] != usize::MAX {
                continue;
            }
            let mut frames: Vec<(usize, usize)> = alloc::vec![(root, 0)];
            index[root] = next;
            low[root] = next;
            next += 1;
            stack.push(root);
            on_stack[root] = true;
            while let Some(&mut (v, ref mut k)) = frames.last_mut() {
                if let Some(&w) = succ[v].get(*k) {
                    *k += 1;
                    if index[w] == usize::MAX {
                        index[w] = next;
                        low[w] = next;
                        next += 1;
                        stack.push(w);
                        on_stack[w] = true;
                        frames.push((w, 0));
                    } else if on_stack[w] {
                        low[v] = low[v].min(index[w]);
                    }
                    continue;
                }
                frames.pop();
                if let Some(&(parent, _)) = frames.last() {
                    low[parent] = low[parent].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut comp = Vec::new();
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        comp.push(w);
                        if w == v {
                            break;
                        }
                    }
                    comp.sort_unstable();
                    let id = out.order.len();
                    let comp: Vec<FuncId> = comp.into_iter().map(|k| funcs[k]).collect();
                    for &f in &comp {
                        out.scc_of.insert(f, id);
                    }
                    out.order.push(comp);
                }
            }
        }
        out
    }

    /// Whether `f` is recursive: its component has more than one function,
    /// or it calls itself.
    pub fn is_recursive(&self, f: FuncId) -> bool {
        self.self_calls.contains(&f)
            || self
                .scc_of
                .get(&f)
                .is_some_and(|&k| self.order[k].len() > 1)
    }

    /// Whether `a` and `b` are in the same component.
    pub fn same_scc(&self, a: FuncId, b: FuncId) -> bool {
        match (self.scc_of.get(&a), self.scc_of.get(&b)) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        }
    }
}
