//! Dominators of one function, for "is this value computed before that
//! call?" questions.
//!
//! The parameter-buffer rewrite may only pass a launch's geometry to the
//! buffer allocation when that geometry is already computed where the
//! allocation runs; that is a dominance question. Computed with the
//! Cooper-Harvey-Kennedy iterative algorithm over reverse post-order.

use alloc::vec;
use alloc::vec::Vec;

use hashbrown::HashMap;
use nvpass_core::ir::{BlockId, FuncId, InstId, IrView};

/// Sentinel for "no immediate dominator" (unreachable blocks, the entry).
const NONE: u32 = u32::MAX;

/// The dominator tree of one function's reachable blocks.
pub(super) struct Dominators {
    /// Reverse post-order number of each reachable block.
    rpo: HashMap<BlockId, u32>,
    /// Immediate dominator of each block, by RPO number (the entry's is
    /// itself).
    idom: Vec<u32>,
}

impl Dominators {
    /// Computes the dominators of `f` (empty for declarations).
    pub(super) fn compute<M: IrView + ?Sized>(m: &M, f: FuncId) -> Dominators {
        let mut order: Vec<BlockId> = Vec::new();
        let mut rpo: HashMap<BlockId, u32> = HashMap::new();
        if let Some(entry) = m.entry_block(f) {
            // Iterative depth-first search producing post-order.
            let mut visited: HashMap<BlockId, ()> = HashMap::new();
            let mut stack: Vec<(BlockId, Vec<BlockId>)> = Vec::new();
            visited.insert(entry, ());
            stack.push((entry, m.successors(entry).collect()));
            while let Some((b, succs)) = stack.last_mut() {
                if let Some(s) = succs.pop() {
                    if visited.insert(s, ()).is_none() {
                        let next = m.successors(s).collect();
                        stack.push((s, next));
                    }
                } else {
                    order.push(*b);
                    stack.pop();
                }
            }
            order.reverse();
            for (i, &b) in order.iter().enumerate() {
                rpo.insert(b, i as u32);
            }
        }
        let n = order.len();
        let mut idom = vec![NONE; n];
        if n > 0 {
            idom[0] = 0;
        }
        let preds: Vec<Vec<u32>> = order
            .iter()
            .map(|&b| {
                m.predecessors(b)
                    .filter_map(|p| rpo.get(&p).copied())
                    .collect()
            })
            .collect();
        let mut changed = true;
        while changed {
            changed = false;
            for b in 1..n {
                let mut new = NONE;
                for &p in &preds[b] {
                    if idom[p as usize] == NONE {
                        continue;
                    }
                    new = if new == NONE {
                        p
                    } else {
                        intersect(&idom, p, new)
                    };
                }
                if new != NONE && idom[b] != new {
                    idom[b] = new;
                    changed = true;
                }
            }
        }
        Dominators { rpo, idom }
    }

    /// Whether block `a` dominates block `b` (reflexive). `false` when either
    /// is unreachable.
    pub(super) fn block_dominates(&self, a: BlockId, b: BlockId) -> bool {
        let (Some(&a), Some(&b)) = (self.rpo.get(&a), self.rpo.get(&b)) else {
            return false;
        };
        let mut b = b;
        loop {
            if a == b {
                return true;
            }
            // Dominators have smaller RPO numbers; stop at the entry.
            if b == 0 || b < a {
                return false;
            }
            b = self.idom[b as usize];
        }
    }

    /// Whether instruction `a` executes before `b` on every path to `b`:
    /// `a` strictly precedes `b` in the same block, or `a`'s block strictly
    /// dominates `b`'s.
    pub(super) fn inst_dominates<M: IrView + ?Sized>(&self, m: &M, a: InstId, b: InstId) -> bool {
        let (ba, bb) = (m.inst_block(a), m.inst_block(b));
        if ba == bb {
            self.rpo.contains_key(&ba) && precedes(m, a, b)
        } else {
            self.block_dominates(ba, bb)
        }
    }
}

/// Whether `a` comes strictly before `b`, two instructions of one block.
///
/// Walks outward from `a` in both directions at once, one step each way
/// per round, so the cost is bounded by the distance between the two, not
/// by the block's length: a block holding thousands of launches, each
/// asking about the allocation just before it, stays linear.
fn precedes<M: IrView + ?Sized>(m: &M, a: InstId, b: InstId) -> bool {
    if a == b {
        return false;
    }
    let (mut next, mut prev) = (m.next_inst(a), m.prev_inst(a));
    while next.is_some() || prev.is_some() {
        if let Some(n) = next {
            if n == b {
                return true;
            }
            next = m.next_inst(n);
        }
        if let Some(p) = prev {
            if p == b {
                return false;
            }
            prev = m.prev_inst(p);
        }
    }
    false
}

/// The nearest common dominator of RPO numbers `a` and `b`.
fn intersect(idom: &[u32], mut a: u32, mut b: u32) -> u32 {
    while a != b {
        while a > b {
            a = idom[a as usize];
        }
        while b > a {
            b = idom[b as usize];
        }
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use nvpass_ir::parse_module;

    /// Within a block an instruction dominates exactly the ones after it;
    /// across blocks, the entry's dominate the rest and the two arms of a
    /// branch do not dominate each other.
    #[test]
    fn instruction_dominance_follows_block_order_and_the_tree() {
        let m = parse_module(
            b"define void @f(i1 %c) {\n\
              entry:\n  %a = add i32 1, 2\n  %b = add i32 %a, 3\n  %x = add i32 %b, 4\n  \
              %y = add i32 %x, 5\n  %z = add i32 %y, 6\n  br i1 %c, label %l, label %r\n\
              l:\n  %p = add i32 %z, 1\n  ret void\n\
              r:\n  %q = add i32 %z, 2\n  ret void\n}\n",
        )
        .unwrap();
        let f = IrView::func_by_name(&m, "f").unwrap();
        let dom = Dominators::compute(&m, f);
        let blocks: Vec<BlockId> = m.blocks(f).collect();
        let entry: Vec<InstId> = m.insts(blocks[0]).collect();
        for (i, &a) in entry.iter().enumerate() {
            for (j, &b) in entry.iter().enumerate() {
                assert_eq!(dom.inst_dominates(&m, a, b), i < j, "{i} before {j}");
            }
        }
        let l = m.insts(blocks[1]).next().unwrap();
        let r = m.insts(blocks[2]).next().unwrap();
        assert!(dom.inst_dominates(&m, entry[0], l));
        assert!(!dom.inst_dominates(&m, l, entry[0]));
        assert!(!dom.inst_dominates(&m, l, r));
        assert!(!dom.inst_dominates(&m, r, l));
    }
}
