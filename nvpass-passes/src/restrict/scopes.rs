//! LLVM alias-scope metadata: one anonymous domain per function, one scope
//! per restricted root, and the `!alias.scope`/`!noalias` lists on accesses.
//!
//! Shapes (LLVM LangRef, "'noalias' and 'alias.scope' Metadata"; the form
//! `MDBuilder::createAnonymousAARoot` builds):
//!
//! ```text
//! !d = distinct !{!d, !"restrict.domain.k"}            ; domain
//! !a = distinct !{!a, !d, !"restrict.scope.1.a"}       ; scope of %a
//! !la = !{!a}                                          ; scope list
//! ```
//!
//! The spec's example writes uniqued string-named nodes (`!{!"name", !d}`);
//! those are equal across modules with equal names, so linking two modules
//! would merge unrelated scopes. Self-referential distinct nodes cannot
//! merge, and LLVM's scoped-noalias AA reads both shapes the same way.
//!
//! Lists keep the scopes of other domains they already hold (from LLVM's
//! inliner or another function's restrict scopes inlined here) and replace
//! only the scopes of this function's domain, so re-stamping is idempotent
//! and never drops a fact another producer wrote.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use hashbrown::HashMap;
use nvpass_core::ir::{EditError, FuncId, InstId, IrEdit, IrView, MdId, MdOperand};
use smallvec::SmallVec;

use super::propagate::RootSet;
use super::{MD_ALIAS_SCOPE, MD_NOALIAS};

type Ops = SmallVec<[MdId; 4]>;

/// The domain of scope node `s` (`distinct !{!s, !domain, ...}`).
pub fn scope_domain<M: IrView + ?Sized>(m: &M, s: MdId) -> Option<MdId> {
    if !m.md_is_distinct(s) {
        return None;
    }
    let mut ops = m.md_operands(s);
    match (ops.next(), ops.next()) {
        (Some(MdOperand::Node(me)), Some(MdOperand::Node(d))) if me == s => Some(d),
        _ => None,
    }
}

/// The name string of a self-referential node (`!"name"`, the last operand).
pub fn node_name<M: IrView + ?Sized>(m: &M, n: MdId) -> Option<&str> {
    match m.md_operands(n).last() {
        Some(MdOperand::String(s)) => Some(s),
        _ => None,
    }
}

/// The operands of a scope list, if it is a plain tuple of nodes.
fn list_ops<M: IrView + ?Sized>(m: &M, l: MdId) -> Option<Ops> {
    if m.md_is_distinct(l) || m.md_specialized_name(l).is_some() {
        return None;
    }
    m.md_operands(l)
        .map(|o| match o {
            MdOperand::Node(n) => Some(n),
            _ => None,
        })
        .collect()
}

/// Restrict metadata already present in a function.
#[derive(Default, Debug)]
pub struct Existing {
    /// This function's domain (named `restrict.domain.<function>`).
    pub domain: Option<MdId>,
    /// Scopes of that domain by name.
    pub scopes: HashMap<String, MdId>,
    /// Scope lists seen on the function's instructions, by operands.
    pub lists: HashMap<Ops, MdId>,
}

/// Finds the function's own domain, its scopes, and the scope lists in use.
pub fn scan<M: IrView + ?Sized>(m: &M, f: FuncId, domain_name: &str) -> Existing {
    let mut ex = Existing::default();
    for b in m.blocks(f) {
        for i in m.insts(b) {
            for kind in [MD_ALIAS_SCOPE, MD_NOALIAS] {
                let Some(l) = m.inst_md(i, kind) else {
                    continue;
                };
                let Some(ops) = list_ops(m, l) else { continue };
                for &s in &ops {
                    let Some(d) = scope_domain(m, s) else {
                        continue;
                    };
                    if node_name(m, d) != Some(domain_name) {
                        continue;
                    }
                    ex.domain.get_or_insert(d);
                    if ex.domain == Some(d) {
                        if let Some(n) = node_name(m, s) {
                            ex.scopes.entry(n.to_string()).or_insert(s);
                        }
                    }
                }
                ex.lists.entry(ops).or_insert(l);
            }
        }
    }
    ex
}

/// Creates `distinct !{!self, !"name"}`.
pub fn create_domain<M: IrEdit + ?Sized>(m: &mut M, name: &str) -> Result<MdId, EditError> {
    m.create_self_ref_md_node(&[MdOperand::String(name)])
}

/// Creates `distinct !{!self, !domain, !"name"}`.
pub fn create_scope<M: IrEdit + ?Sized>(
    m: &mut M,
    domain: MdId,
    name: &str,
) -> Result<MdId, EditError> {
    m.create_self_ref_md_node(&[MdOperand::Node(domain), MdOperand::String(name)])
}

/// Writes scope lists for one function's domain.
pub struct Stamper {
    /// The function's domain.
    pub domain: MdId,
    /// One scope per root, indexed like the root list.
    pub scopes: Vec<MdId>,
    lists: HashMap<Ops, MdId>,
}

impl Stamper {
    /// A stamper reusing the scope lists in `existing`.
    pub fn new(domain: MdId, scopes: Vec<MdId>, existing: Existing) -> Stamper {
        Stamper {
            domain,
            scopes,
            lists: existing.lists,
        }
    }

    fn list<M: IrEdit + ?Sized>(&mut self, m: &mut M, ops: &Ops) -> Result<MdId, EditError> {
        if let Some(&l) = self.lists.get(ops) {
            return Ok(l);
        }
        let md: Vec<MdOperand<'_>> = ops.iter().map(|&n| MdOperand::Node(n)).collect();
        let l = m.create_md_node(&md, false)?;
        self.lists.insert(ops.clone(), l);
        Ok(l)
    }

    /// Gives access `inst`, derived from the roots in `set`, the lists
    /// `!alias.scope !{scopes of set}` and `!noalias !{every other scope}`,
    /// merged into what it already carries. Returns whether it changed.
    pub fn stamp<M: IrEdit + ?Sized>(
        &mut self,
        m: &mut M,
        inst: InstId,
        set: &RootSet,
    ) -> Result<bool, EditError> {
        let own: Ops = set.iter().map(|&k| self.scopes[k as usize]).collect();
        let others: Ops = (0..self.scopes.len() as u32)
            .filter(|k| set.binary_search(k).is_err())
            .map(|k| self.scopes[k as usize])
            .collect();
        let mut changed = false;
        for (kind, ours) in [(MD_ALIAS_SCOPE, own), (MD_NOALIAS, others)] {
            let existing = m.inst_md(inst, kind);
            let old = existing.and_then(|l| list_ops(m, l));
            let mut ops: Ops = old
                .iter()
                .flatten()
                .copied()
                .filter(|&s| scope_domain(m, s) != Some(self.domain))
                .collect();
            ops.extend(ours);
            if old.as_ref() == Some(&ops) || (existing.is_none() && ops.is_empty()) {
                continue;
            }
            let new = if ops.is_empty() {
                None
            } else {
                Some(self.list(m, &ops)?)
            };
            m.set_inst_md(inst, kind, new);
            changed = true;
        }
        Ok(changed)
    }
}
