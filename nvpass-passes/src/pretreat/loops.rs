//! Rule 16: `!llvm.loop` properties the NVPTX back end ignores.

use alloc::vec::Vec;

use hashbrown::HashMap;
use nvpass_core::ir::{FuncId, InstId, IrEdit, IrView, MdId, MdOperand};

use super::util::{owned_md_operands, OwnedMd};

/// Loop-property name prefixes rule 16 discards: hints for the loop
/// vectorizer, interleaver, distribution, software pipelining and LICM
/// versioning, none of which the NVPTX pipeline acts on. Kept: everything
/// else, notably `llvm.loop.mustprogress` (semantic: it licenses removing
/// side-effect-free infinite loops), `llvm.loop.unroll.*` (the NVPTX asm
/// printer emits `.pragma "nounroll"` from it) and
/// `llvm.loop.unroll_and_jam.*`, debug locations, and unknown properties.
pub const DISCARDED_LOOP_PROPERTIES: &[&str] = &[
    "llvm.loop.vectorize.",
    "llvm.loop.interleave.",
    "llvm.loop.isvectorized",
    "llvm.loop.distribute.",
    "llvm.loop.pipeline.",
    "llvm.loop.licm_versioning.",
];

fn discarded<M: IrView + ?Sized>(m: &M, prop: &OwnedMd) -> bool {
    let OwnedMd::Node(p) = *prop else {
        return false;
    };
    is_discarded_property(m, p)
}

/// Whether property node `p` (`!{!"name", ...}`) is one rule 16 discards.
fn is_discarded_property<M: IrView + ?Sized>(m: &M, p: MdId) -> bool {
    match m.md_operands(p).next() {
        Some(MdOperand::String(name)) => DISCARDED_LOOP_PROPERTIES
            .iter()
            .any(|d| name.starts_with(d)),
        _ => false,
    }
}

/// Whether loop node `id` lists a property rule 16 discards: without one,
/// the rule leaves the latch carrying it as it is (the census asks this).
pub(super) fn has_discarded_property<M: IrView + ?Sized>(m: &M, id: MdId) -> bool {
    m.md_operands(id)
        .any(|op| matches!(op, MdOperand::Node(p) if is_discarded_property(m, p)))
}

/// Rule 16 (`strip_discarded_loop_metadata`): rebuilds each `!llvm.loop`
/// node `distinct !{!self, props...}` attached in `f` without the
/// [`DISCARDED_LOOP_PROPERTIES`]; a node left with no property is
/// detached. Latches sharing one loop node share the rebuilt node.
pub fn strip_discarded_loop_metadata<M: IrEdit + ?Sized>(m: &mut M, f: FuncId) -> u64 {
    let mut rebuilt: HashMap<MdId, Option<MdId>> = HashMap::new();
    let mut changed = 0;
    // Only the latches: no rewrite changes another instruction's
    // attachment, so listing them first sees what a walk would.
    let latches: Vec<(InstId, MdId)> = m
        .blocks(f)
        .flat_map(|b| m.insts(b))
        .filter_map(|i| Some((i, m.inst_md(i, "llvm.loop")?)))
        .collect();
    for (i, id) in latches {
        let new = match rebuilt.get(&id) {
            Some(&n) => n,
            None => {
                let ops = owned_md_operands(m, id);
                if !ops.iter().any(|p| discarded(m, p)) {
                    continue;
                }
                let kept: Vec<MdOperand<'_>> = ops
                    .iter()
                    .skip(usize::from(ops.first() == Some(&OwnedMd::Node(id))))
                    .filter(|p| !discarded(m, p))
                    .map(OwnedMd::as_operand)
                    .collect();
                let n = if kept.is_empty() {
                    None
                } else {
                    match m.create_self_ref_md_node(&kept) {
                        Ok(n) => Some(n),
                        Err(_) => continue,
                    }
                };
                rebuilt.insert(id, n);
                n
            }
        };
        m.set_inst_md(i, "llvm.loop", new);
        changed += 1;
    }
    changed
}
