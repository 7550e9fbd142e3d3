//! The direct-call graph of a module and its strongly connected components
//! in bottom-up order (callees before callers), as the CGSCC inliners of
//! spec 001 walk it ("Inliner::inlineCallsImpl (CGSCC SCC walk)").
//!
//! Only direct calls to functions of the module are edges; indirect calls
//! and calls to declarations do not constrain the order.
//!
//! Everything is kept in flat arrays indexed by the function's id (the
//! ids of a module's functions are dense) or by its place in the walk: the
//! graph is computed once per run of an inliner over modules of a hundred
//! thousand functions, where a map and a list per function cost more than
//! the walk itself.

use alloc::vec::Vec;

use nvpass_core::ir::{FuncId, InstId, IrView};

/// The call sites in `f`, in layout order.
pub fn call_sites<M: IrView + ?Sized>(m: &M, f: FuncId) -> Vec<InstId> {
    m.blocks(f)
        .flat_map(|b| m.insts(b))
        .filter(|&i| m.opcode(i).is_call())
        .collect()
}

/// No position: the function is not a definition of the module.
const NONE: u32 = u32::MAX;
/// [`Sccs::flags`]: the function calls itself directly.
const SELF_CALL: u8 = 1;
/// [`Sccs::flags`]: the function calls a defined function (itself
/// included).
const HAS_CALLEES: u8 = 2;

/// SCCs of the direct-call graph among defined functions, bottom-up
/// (Tarjan's algorithm emits an SCC only after every SCC it reaches).
/// Each SCC lists its functions in module order.
#[derive(Clone, Debug, Default)]
pub struct Sccs {
    /// The functions of every component, components callees first.
    members: Vec<FuncId>,
    /// Where each component starts in `members`, then `members.len()`.
    starts: Vec<u32>,
    /// By function id: the function's place in `members`, or [`NONE`].
    pos: Vec<u32>,
    /// By function id: the index of the function's component.
    comp: Vec<u32>,
    /// By function id: [`SELF_CALL`] and [`HAS_CALLEES`].
    flags: Vec<u8>,
}

impl Sccs {
    /// Computes the SCCs of `m`.
    pub fn compute<M: IrView + ?Sized>(m: &M) -> Sccs {
        let funcs: Vec<FuncId> = m.funcs().filter(|&f| !m.func_is_declaration(f)).collect();
        let n = funcs.len();
        let ids = funcs.iter().map(|f| f.index() + 1).max().unwrap_or(0);
        // By function id: the function's index in `funcs`.
        let mut slot = alloc::vec![NONE; ids];
        for (k, &f) in funcs.iter().enumerate() {
            slot[f.index()] = k as u32;
        }
        let slot_of = |f: FuncId| slot.get(f.index()).copied().unwrap_or(NONE);
        // Edges come from each function's direct calls, found from its
        // users ([`IrView::direct_calls_of`]), not from scanning every
        // instruction for calls: a module has far fewer calls than
        // instructions, and the scan would read all of them from memory.
        // Callees are visited in increasing order, so after a counting
        // sort by caller each caller's callees are sorted already.
        let mut edges: Vec<(u32, u32)> = Vec::new();
        for (kg, &g) in funcs.iter().enumerate() {
            for c in m.direct_calls_of(g) {
                let kf = slot_of(m.inst_func(c));
                if kf != NONE {
                    edges.push((kf, kg as u32));
                }
            }
        }
        let (mut first, mut succ) = crate::uses::group_edges(n, &edges);
        drop(edges);
        // Duplicates (several calls of one callee) are adjacent: squeeze
        // them out in place, moving each range down.
        let mut end = 0usize;
        for k in 0..n {
            let (lo, hi) = (first[k] as usize, first[k + 1] as usize);
            first[k] = end as u32;
            let mut last = NONE;
            for e in lo..hi {
                let kg = succ[e];
                if kg != last {
                    succ[end] = kg;
                    end += 1;
                    last = kg;
                }
            }
        }
        first[n] = end as u32;
        succ.truncate(end);
        let callees = |v: usize| &succ[first[v] as usize..first[v + 1] as usize];

        let mut out = Sccs {
            members: Vec::with_capacity(n),
            starts: Vec::new(),
            pos: alloc::vec![NONE; ids],
            comp: alloc::vec![NONE; ids],
            flags: alloc::vec![0; ids],
        };
        for (k, &f) in funcs.iter().enumerate() {
            let s = callees(k);
            let mut fl = 0;
            if s.binary_search(&(k as u32)).is_ok() {
                fl |= SELF_CALL;
            }
            if !s.is_empty() {
                fl |= HAS_CALLEES;
            }
            out.flags[f.index()] = fl;
        }
        // Iterative Tarjan.
        let mut index = alloc::vec![NONE; n];
        let mut low = alloc::vec![0u32; n];
        let mut on_stack = alloc::vec![false; n];
        let mut stack: Vec<u32> = Vec::new();
        let mut frames: Vec<(u32, u32)> = Vec::new();
        let mut comp: Vec<u32> = Vec::new();
        let mut next = 0u32;
        for root in 0..n {
            if index[root] != NONE {
                continue;
            }
            frames.push((root as u32, first[root]));
            index[root] = next;
            low[root] = next;
            next += 1;
            stack.push(root as u32);
            on_stack[root] = true;
            while let Some(&mut (v, ref mut e)) = frames.last_mut() {
                let v = v as usize;
                if *e < first[v + 1] {
                    let w = succ[*e as usize] as usize;
                    *e += 1;
                    if index[w] == NONE {
                        index[w] = next;
                        low[w] = next;
                        next += 1;
                        stack.push(w as u32);
                        on_stack[w] = true;
                        frames.push((w as u32, first[w]));
                    } else if on_stack[w] {
                        low[v] = low[v].min(index[w]);
                    }
                    continue;
                }
                frames.pop();
                if let Some(&(parent, _)) = frames.last() {
                    let p = parent as usize;
                    low[p] = low[p].min(low[v]);
                }
                if low[v] == index[v] {
                    comp.clear();
                    while let Some(w) = stack.pop() {
                        on_stack[w as usize] = false;
                        comp.push(w);
                        if w as usize == v {
                            break;
                        }
                    }
                    comp.sort_unstable();
                    let id = out.starts.len() as u32;
                    out.starts.push(out.members.len() as u32);
                    for &w in &comp {
                        let f = funcs[w as usize];
                        out.pos[f.index()] = out.members.len() as u32;
                        out.comp[f.index()] = id;
                        out.members.push(f);
                    }
                }
            }
        }
        out.starts.push(out.members.len() as u32);
        out
    }

    /// The number of components.
    pub fn len(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// Whether there is no component (the module defines no function).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The functions of component `c`, in module order.
    pub fn component(&self, c: usize) -> &[FuncId] {
        &self.members[self.starts[c] as usize..self.starts[c + 1] as usize]
    }

    /// The components, callees first.
    pub fn components(&self) -> impl Iterator<Item = &[FuncId]> + '_ {
        (0..self.len()).map(|c| self.component(c))
    }

    /// Every defined function in walk order: the components callees first,
    /// each in module order.
    pub fn members(&self) -> &[FuncId] {
        &self.members
    }

    /// The place of `f` in [`Sccs::members`], if it is a definition.
    pub fn position(&self, f: FuncId) -> Option<usize> {
        match self.pos.get(f.index()) {
            Some(&p) if p != NONE => Some(p as usize),
            _ => None,
        }
    }

    /// The index of the component of `f`, if it is a definition.
    pub fn scc_of(&self, f: FuncId) -> Option<usize> {
        match self.comp.get(f.index()) {
            Some(&c) if c != NONE => Some(c as usize),
            _ => None,
        }
    }

    fn flag(&self, f: FuncId, bit: u8) -> bool {
        self.flags.get(f.index()).is_some_and(|&fl| fl & bit != 0)
    }

    /// Whether `f` has a direct call to itself.
    pub fn calls_itself(&self, f: FuncId) -> bool {
        self.flag(f, SELF_CALL)
    }

    /// Whether `f` has a direct call to a defined function (itself
    /// included): the others have nothing an inliner could inline.
    pub fn has_callees(&self, f: FuncId) -> bool {
        self.flag(f, HAS_CALLEES)
    }

    /// Whether `f` is recursive: its component has more than one function,
    /// or it calls itself.
    pub fn is_recursive(&self, f: FuncId) -> bool {
        self.calls_itself(f) || self.scc_of(f).is_some_and(|c| self.component(c).len() > 1)
    }

    /// Whether `a` and `b` are in the same component.
    pub fn same_scc(&self, a: FuncId, b: FuncId) -> bool {
        match (self.scc_of(a), self.scc_of(b)) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        }
    }
}
