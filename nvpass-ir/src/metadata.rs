//! Metadata: numbered nodes, specialized (`!DILocation(...)`) nodes, named
//! metadata and attachments.
//!
//! Generic tuples `!{...}` are structured, because passes read and build them
//! (`!nvvm.annotations`, alias scopes). Specialized nodes keep their field
//! names and the verbatim text of each field value, with references to other
//! nodes resolved, so unknown node kinds and fields round-trip unchanged.

use crate::entity::{Md, Sym, Type, Value};
use alloc::vec::Vec;
use smallvec::SmallVec;

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
    Tuple(Vec<MdRef>),
    /// A specialized node `!Name(field: value, ...)`.
    Specialized {
        /// The node class, e.g. `DILocation`.
        class: Sym,
        /// Fields in source order.
        fields: SmallVec<[(Sym, MdField); 4]>,
    },
    /// `!DIArgList(...)` and other argument-list forms: operands only.
    ArgList(Vec<MdRef>),
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
