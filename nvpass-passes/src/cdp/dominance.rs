//! Dominators of one function, for "is this value computed before that
//! call?" questions.
//!
//! The parameter-buffer rewrite may only pass a launch's geometry to the
//! buffer allocation when that geometry is already computed where the
//! allocation runs; that is a dominance question. Computed with the
//! Cooper-Harvey-Kennedy iterative algorithm over reverse post-order.
//!
//! Two instructions of one block are ordered by a short walk when one of
//! them is near the block's start or they are near each other (the usual
//! questions), and otherwise by position keys, numbered for a block the
//! first time a question needs them, with gaps between them.
//! The rewrite tells the tree what it moves ([`Dominators::moved`]) and
//! what replaces what ([`Dominators::replaced`]); a moved instruction gets a
//! key between its new neighbours', so a block of thousands of launches,
//! each asking about a value computed at the top of the block, is numbered
//! once, not walked per question. When no key fits between two, the block
//! is numbered again at its next question.

use alloc::vec;
use alloc::vec::Vec;
use core::cell::RefCell;

use hashbrown::hash_map::Entry;
use hashbrown::{HashMap, HashSet};
use nvpass_core::ir::{BlockId, FuncId, InstId, IrView};
use smallvec::SmallVec;

/// Sentinel for "no immediate dominator" (unreachable blocks, the entry).
const NONE: u32 = u32::MAX;

/// The dominator tree of one function's reachable blocks.
pub(super) struct Dominators {
    /// Reverse post-order number of each reachable block.
    rpo: HashMap<BlockId, u32>,
    /// Immediate dominator of each block, by RPO number (the entry's is
    /// itself).
    idom: Vec<u32>,
    /// Position keys of the instructions of the blocks asked about.
    order: RefCell<Order>,
}

/// Distance between the keys of neighbours in a freshly numbered block:
/// room for 32 moves, each halving a gap, before the block is renumbered.
const GAP: u64 = 1 << 32;

/// Position keys: within a numbered block, an instruction's key is larger
/// than every key before it.
#[derive(Default)]
struct Order {
    /// Key of each instruction of the numbered blocks.
    keys: HashMap<InstId, u64>,
    /// The blocks whose instructions all have keys.
    numbered: HashSet<BlockId>,
}

impl Order {
    /// Gives every instruction of `b` a key, in layout order.
    fn number<M: IrView + ?Sized>(&mut self, m: &M, b: BlockId) {
        for (k, i) in m.insts(b).enumerate() {
            self.keys.insert(i, (k as u64 + 1) * GAP);
        }
        self.numbered.insert(b);
    }

    /// The keys of `a` and `b`, two instructions of block `blk`, numbering
    /// it first when needed.
    fn keys<M: IrView + ?Sized>(
        &mut self,
        m: &M,
        blk: BlockId,
        a: InstId,
        b: InstId,
    ) -> (u64, u64) {
        if !self.numbered.contains(&blk) {
            self.number(m, blk);
        }
        if let (Some(&x), Some(&y)) = (self.keys.get(&a), self.keys.get(&b)) {
            return (x, y);
        }
        // One of them came in unannounced: the keys may be stale.
        self.number(m, blk);
        let key = |i: InstId| self.keys.get(&i).copied().unwrap_or(0);
        (key(a), key(b))
    }
}

impl Dominators {
    /// Computes the dominators of `f` (empty for declarations).
    pub(super) fn compute<M: IrView + ?Sized>(m: &M, f: FuncId) -> Dominators {
        let mut order: Vec<BlockId> = Vec::new();
        // Until the numbers are known, `rpo` is the set of visited blocks.
        let mut rpo: HashMap<BlockId, u32> = HashMap::new();
        if let Some(entry) = m.entry_block(f) {
            // Iterative depth-first search producing post-order.
            let mut stack: Vec<(BlockId, SmallVec<[BlockId; 2]>)> = Vec::new();
            rpo.insert(entry, NONE);
            stack.push((entry, m.successors(entry).collect()));
            while let Some((b, succs)) = stack.last_mut() {
                if let Some(s) = succs.pop() {
                    if let Entry::Vacant(e) = rpo.entry(s) {
                        e.insert(NONE);
                        let next = m.successors(s).collect();
                        stack.push((s, next));
                    }
                } else {
                    order.push(*b);
                    stack.pop();
                }
            }
            order.reverse();
            // Every visited block is in `order`: each gets its number.
            for (i, &b) in order.iter().enumerate() {
                rpo.insert(b, i as u32);
            }
        }
        let n = order.len();
        let mut idom = vec![NONE; n];
        if n > 0 {
            idom[0] = 0;
        }
        let preds: Vec<SmallVec<[u32; 2]>> = order
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
        Dominators {
            rpo,
            idom,
            order: RefCell::default(),
        }
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
            if a == b || !self.rpo.contains_key(&ba) {
                return false;
            }
            if let Some(before) = near_order(m, a, b) {
                return before;
            }
            let (x, y) = self.order.borrow_mut().keys(m, ba, a, b);
            x < y
        } else {
            self.block_dominates(ba, bb)
        }
    }

    /// Records that `i` was just moved to right before `before`
    /// ([`IrEdit::move_inst_before`](nvpass_core::ir::IrEdit::move_inst_before)).
    pub(super) fn moved<M: IrView + ?Sized>(&self, m: &M, i: InstId, before: InstId) {
        let mut o = self.order.borrow_mut();
        o.keys.remove(&i);
        let blk = m.inst_block(before);
        if !o.numbered.contains(&blk) {
            return;
        }
        let hi = o.keys.get(&before).copied();
        let lo = match m.prev_inst(i) {
            Some(p) => o.keys.get(&p).copied(),
            None => Some(0),
        };
        match (lo, hi) {
            (Some(lo), Some(hi)) if hi > lo + 1 => {
                o.keys.insert(i, lo + (hi - lo) / 2);
            }
            // No room, or a neighbour without a key: number the block
            // again when it is next asked about.
            _ => {
                o.numbered.remove(&blk);
            }
        }
    }

    /// Whether `a` comes before `b`, two distinct instructions of one
    /// block, by their position keys alone (no walk).
    #[cfg(test)]
    fn key_order<M: IrView + ?Sized>(&self, m: &M, a: InstId, b: InstId) -> bool {
        let (x, y) = self.order.borrow_mut().keys(m, m.inst_block(a), a, b);
        x < y
    }

    /// Records that `new` now stands where `old` stood, and `old` is gone.
    pub(super) fn replaced(&self, old: InstId, new: InstId) {
        let mut o = self.order.borrow_mut();
        if let Some(k) = o.keys.remove(&old) {
            o.keys.insert(new, k);
        }
    }
}

/// Steps [`near_order`] takes each way before giving up.
const NEAR: usize = 16;

/// Whether `a` comes before `b`, two distinct instructions of one block,
/// when one of them is among the block's first [`NEAR`] instructions or
/// `b` is within [`NEAR`] steps of `a`: these walks cost less than key
/// lookups for the usual questions (about a short block, or a launch about
/// its allocation a few instructions up). `None` otherwise.
fn near_order<M: IrView + ?Sized>(m: &M, a: InstId, b: InstId) -> Option<bool> {
    // A short block, or two instructions near its start: the walk from the
    // start answers (and costs least: it needs no links looked up).
    for i in m.insts(m.inst_block(a)).take(NEAR) {
        if i == b {
            return Some(false);
        }
        if i == a {
            return Some(true);
        }
    }
    let (mut next, mut prev) = (m.next_inst(a), m.prev_inst(a));
    for _ in 0..NEAR {
        if next.is_none() && prev.is_none() {
            // The whole block is walked and `b` is not in it.
            return Some(false);
        }
        if let Some(n) = next {
            if n == b {
                return Some(true);
            }
            next = m.next_inst(n);
        }
        if let Some(p) = prev {
            if p == b {
                return Some(false);
            }
            prev = m.prev_inst(p);
        }
    }
    None
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

    /// In a block too long for the walk, the position keys answer; moves
    /// and replacements reported to the tree keep them right, also after
    /// so many moves into one spot that its keys run out of room.
    #[test]
    fn position_keys_follow_moves_and_replacements() {
        use alloc::format;
        use alloc::string::String;
        use nvpass_core::ir::{IrEdit, Opcode, ValueKind};

        let mut src = String::from("define void @f(i32 %n) {\n");
        for k in 0..80 {
            src += &format!("  %v{k} = add i32 %n, {k}\n");
        }
        src += "  ret void\n}\n";
        let mut m = parse_module(src.as_bytes()).unwrap();
        let f = IrView::func_by_name(&m, "f").unwrap();
        let dom = Dominators::compute(&m, f);
        let b = m.blocks(f).next().unwrap();
        let check = |m: &nvpass_ir::Module, dom: &Dominators| {
            let layout: Vec<InstId> = m.insts(b).collect();
            for (i, &x) in layout.iter().enumerate() {
                for (j, &y) in layout.iter().enumerate() {
                    assert_eq!(dom.inst_dominates(m, x, y), i < j, "{i} before {j}");
                    if i != j {
                        assert_eq!(dom.key_order(m, x, y), i < j, "keys: {i} before {j}");
                    }
                }
            }
        };
        check(&m, &dom);
        // Forty moves to the same spot: each halves the gap there, until
        // the block must be numbered again.
        for _ in 0..40 {
            let layout: Vec<InstId> = m.insts(b).collect();
            let (moving, before) = (layout[70], layout[5]);
            m.move_inst_before(moving, before).unwrap();
            dom.moved(&m, moving, before);
            assert!(dom.inst_dominates(&m, layout[4], moving));
            assert!(dom.inst_dominates(&m, moving, before));
            assert!(!dom.inst_dominates(&m, moving, layout[4]));
        }
        check(&m, &dom);
        // A new instruction in an old one's place.
        let layout: Vec<InstId> = m.insts(b).collect();
        let old = layout[60];
        let n = IrView::param(&m, f, 0).unwrap();
        let ty = m.int_type(64);
        let v = m.build_cast(old, Opcode::SExt, n, ty).unwrap();
        let ValueKind::Inst(new) = IrView::value_kind(&m, v) else {
            panic!("a cast instruction");
        };
        IrEdit::erase_inst(&mut m, old).unwrap();
        dom.replaced(old, new);
        assert!(dom.inst_dominates(&m, layout[10], new));
        assert!(dom.inst_dominates(&m, new, layout[75]));
        check(&m, &dom);
    }
}
