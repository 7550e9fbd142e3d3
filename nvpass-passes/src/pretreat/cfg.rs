//! Rule 18: unreachable blocks.

use alloc::vec::Vec;

use hashbrown::HashSet;
use nvpass_core::ir::{BlockId, FuncId, IrEdit, IrView};

/// Rule 18 (`remove_unreachable_blocks`): deletes every block not reachable
/// from the entry block along CFG edges, all at once, so unreachable loops
/// and chains go in one step. Incoming `phi` entries for deleted blocks
/// are removed; debug-info references to their values become `poison`.
pub fn remove_unreachable_blocks<M: IrEdit + ?Sized>(m: &mut M, f: FuncId) -> u64 {
    let Some(seen) = reachable_blocks(m, f, m.blocks(f).count()) else {
        return 0;
    };
    let dead: Vec<BlockId> = m.blocks(f).filter(|b| !seen.contains(b)).collect();
    if dead.is_empty() || m.erase_blocks(&dead).is_err() {
        return 0;
    }
    dead.len() as u64
}

/// Whether some block of `f`, which has `blocks` blocks, is not reachable
/// from its entry block: what rule 18 deletes. The census asks it, so that
/// the rule itself runs only on the few bodies that have such a block.
pub fn has_unreachable_block<M: IrView + ?Sized>(m: &M, f: FuncId, blocks: usize) -> bool {
    reachable_blocks(m, f, blocks).is_some_and(|seen| seen.len() < blocks)
}

/// The blocks of `f`, which has `blocks` blocks, reachable from its entry
/// block (`None` for a body without blocks).
fn reachable_blocks<M: IrView + ?Sized>(
    m: &M,
    f: FuncId,
    blocks: usize,
) -> Option<HashSet<BlockId>> {
    let entry = m.entry_block(f)?;
    // Sized once for every block: grown from empty, the set would be
    // rehashed several times in each function with a few dozen blocks.
    let mut seen: HashSet<BlockId> = HashSet::with_capacity(blocks);
    let mut stack = alloc::vec![entry];
    seen.insert(entry);
    while let Some(b) = stack.pop() {
        for s in m.successors(b) {
            if seen.insert(s) {
                stack.push(s);
            }
        }
    }
    Some(seen)
}
