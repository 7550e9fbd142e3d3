//! Opaque `u32` entity ids through which passes name host IR entities.
//!
//! Core defines the id types; the host decides what each number means (an
//! index into its own arenas, a slot in a side table, ...), exactly like
//! regalloc2's `Inst`/`Block`/`VReg`. Ids are only meaningful together with
//! the [`IrView`](super::IrView) that produced them. A host must not reuse the
//! id of an erased entity for a new entity of the same kind while a pass is
//! running, so that side tables keyed by ids stay sound, unless the pass
//! has since declared that it holds none of them
//! ([`IrEdit::reclaim_erased`](super::IrEdit::reclaim_erased)).

/// Common interface of entity ids: a dense `u32` index.
///
/// Used by generic side-table machinery such as
/// [`Worklist`](crate::worklist::Worklist) and [`BitSet`](crate::worklist::BitSet).
pub trait EntityId: Copy + Eq + core::hash::Hash + core::fmt::Debug {
    /// Wraps a raw index.
    fn from_index(index: usize) -> Self;
    /// The raw index as `usize`.
    fn index(self) -> usize;
}

macro_rules! entity_id {
    ($(#[$doc:meta])* $name:ident, $prefix:literal) => {
        $(#[$doc])*
        #[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(u32);

        impl $name {
            /// Wraps a raw host-chosen number.
            #[inline]
            pub const fn new(raw: u32) -> Self {
                Self(raw)
            }
            /// The raw number.
            #[inline]
            pub const fn as_u32(self) -> u32 {
                self.0
            }
            /// The raw number as a `usize` index.
            #[inline]
            pub const fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl EntityId for $name {
            #[inline]
            fn from_index(index: usize) -> Self {
                Self(index as u32)
            }
            #[inline]
            fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }

        impl core::fmt::Display for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}

entity_id!(
    /// A function (definition or declaration) of the module.
    FuncId,
    "func"
);
entity_id!(
    /// A basic block of a function body.
    BlockId,
    "block"
);
entity_id!(
    /// An instruction.
    InstId,
    "inst"
);
entity_id!(
    /// An SSA value: argument, instruction result, global, function, or constant.
    ValueId,
    "v"
);
entity_id!(
    /// An interned type. Two equal types have equal ids (types are uniqued).
    TypeId,
    "ty"
);
entity_id!(
    /// A global variable (not a function; functions are [`FuncId`]s).
    GlobalId,
    "global"
);
entity_id!(
    /// A metadata node (`!{...}`, `distinct !{...}` or a specialized node such
    /// as `!DILocation(...)`).
    MdId,
    "md"
);
