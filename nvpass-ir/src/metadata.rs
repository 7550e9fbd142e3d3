//! Metadata: numbered nodes, specialized (`!DILocation(...)`) nodes, named
//! metadata and attachments.
//!
//! Generic tuples `!{...}` are structured, because passes read and build them
//! (`!nvvm.annotations`, alias scopes). Specialized nodes keep their field
//! names and the verbatim text of each field value, with references to other
//! nodes resolved, so unknown node kinds and fields round-trip unchanged.
//! `DILocation`s, the most common node by far, are the exception when written
//! as LLVM writes them: they are held as plain numbers and node ids
//! ([`DiLocation`]), which prints back to the same text.

use crate::entity::{Md, Sym, Type, Value};
use alloc::boxed::Box;
use alloc::vec::Vec;

/// An operand of a metadata tuple, or a metadata reference anywhere.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum MdRef {
    /// `null`.
    Null,
    /// `!N` or an inline node.
    Node(Md),
    /// `!"string"`.
    String(Sym),
    /// `<type> <value>`: a value wrapped as metadata.
    Value(Type, Value),
}

/// A field value of a specialized node.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum MdField {
    /// A metadata reference (`!5`, `null`, `!"x"`, inline node).
    Ref(MdRef),
    /// Verbatim text: integers, `DW_TAG_*`, `DIFlagA | DIFlagB`, `"str"`,
    /// `true`, ...
    Raw(Sym),
}

/// The structure of a metadata node.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MdKind {
    /// A generic tuple `!{ ... }`.
    Tuple(Box<[MdRef]>),
    /// A specialized node `!Name(field: value, ...)`.
    Specialized {
        /// The node class, e.g. `DILocation`.
        class: Sym,
        /// Fields in source order (a boxed slice: nodes are rarely edited,
        /// and an inline list would size every node for the longest).
        fields: Box<[(Sym, MdField)]>,
    },
    /// `!DIArgList(...)` and other argument-list forms: operands only.
    ArgList(Box<[MdRef]>),
    /// A `DILocation` written as LLVM writes one (see [`DiLocation`]):
    /// the most common node by far, held without a field list.
    Location(DiLocation),
}

/// `!DILocation(line: L, column: C, scope: !S, inlinedAt: !I,
/// isImplicitCode: true)`, all but `line` and `scope` optional (LLVM leaves
/// out a zero column, no `inlinedAt` and a false `isImplicitCode`). The
/// reader keeps a
/// location in this form only when its text is exactly what the printer
/// writes back: these fields in this order, decimal numbers without
/// leading zeros, node references, and `isImplicitCode` only as `true`.
/// Anything else (another order, `isImplicitCode: false`, a field added by
/// a newer LLVM) stays [`MdKind::Specialized`], so its text round-trips.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct DiLocation {
    /// `line:`.
    pub line: u32,
    /// `column:`, when written (LLVM writes none for column 0, so a
    /// written column in this form is never 0).
    pub column: Option<core::num::NonZeroU32>,
    /// `scope:`.
    pub scope: Md,
    /// `inlinedAt:`, when present.
    pub inlined_at: Option<Md>,
    /// `isImplicitCode: true`.
    pub implicit_code: bool,
}

/// A metadata node.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MdNode {
    /// `distinct`.
    pub distinct: bool,
    /// Printed inline where used rather than as `!N = ...` (nodes like
    /// `!DIExpression()` written inline in the input).
    pub inline: bool,
    /// The node's content.
    pub kind: MdKind,
}

/// An instruction, function or global metadata attachment `!kind !N`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Attachment {
    /// The kind name without `!` (e.g. `dbg`, `tbaa`, `llvm.loop`).
    pub kind: Sym,
    /// The attached node (LLVM attaches nodes only: the reader rejects
    /// strings, `null` and values here).
    pub node: Md,
}

/// A named metadata `!name = !{!0, !1}`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NamedMd {
    /// The name without `!`.
    pub name: Sym,
    /// The operand nodes.
    pub ops: Vec<Md>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::mem::size_of;

    /// A large module holds about one node per four instructions, most of
    /// them locations: this bound keeps a node from growing unnoticed.
    #[test]
    fn node_size_stays_bounded() {
        assert!(
            size_of::<DiLocation>() <= 24,
            "DiLocation: {}",
            size_of::<DiLocation>()
        );
        assert!(size_of::<MdNode>() <= 32, "MdNode: {}", size_of::<MdNode>());
    }
}
