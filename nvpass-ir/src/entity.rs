//! Entity ids of the reference IR.
//!
//! Every IR object lives in an arena of its [`Module`](crate::Module) and is
//! named by a `u32` newtype. Side tables are `cranelift_entity` maps keyed by
//! these ids, so analyses never hash pointers.
//!
//! An id stores its index plus one in a `NonZeroU32`, so `Option<Sym>`,
//! `Option<Type>` and the like take four bytes, not eight: optional names
//! and types are everywhere in the instruction and value tables. Order,
//! equality and hashing follow the index as before; the reserved value of
//! `PackedOption` is still `u32::MAX`, so the largest usable index is
//! `u32::MAX - 2`.

use core::num::NonZeroU32;

/// Declares a `u32` entity id with a niche (see the module docs): the
/// `cranelift_entity` traits, `from_u32`/`as_u32`, and `Display`/`Debug` as
/// `prefixN`.
macro_rules! entity {
    ($(#[$doc:meta])* $name:ident, $prefix:literal) => {
        $(#[$doc])*
        #[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(NonZeroU32);

        impl $name {
            /// Creates an id from its index (`u32::MAX` gives the reserved
            /// value).
            #[inline]
            pub const fn from_u32(x: u32) -> Self {
                $name(match NonZeroU32::new(x.wrapping_add(1)) {
                    Some(n) => n,
                    None => NonZeroU32::MAX,
                })
            }

            /// The index (`u32::MAX` for the reserved value).
            #[inline]
            pub fn as_u32(self) -> u32 {
                match self.0.get() {
                    u32::MAX => u32::MAX,
                    n => n - 1,
                }
            }
        }

        impl cranelift_entity::EntityRef for $name {
            #[inline]
            fn new(index: usize) -> Self {
                debug_assert!(index < (u32::MAX - 1) as usize);
                Self::from_u32(index as u32)
            }

            /// The index; past any table for the reserved value
            /// (`u32::MAX - 1`, where [`as_u32`](Self::as_u32) gives
            /// `u32::MAX`): one subtraction, where telling the reserved
            /// value apart costs a comparison and a conditional move on
            /// every table access.
            #[inline]
            fn index(self) -> usize {
                (self.0.get() - 1) as usize
            }
        }

        impl cranelift_entity::packed_option::ReservedValue for $name {
            #[inline]
            fn reserved_value() -> Self {
                $name(NonZeroU32::MAX)
            }

            #[inline]
            fn is_reserved_value(&self) -> bool {
                self.0 == NonZeroU32::MAX
            }
        }

        impl core::fmt::Display for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                write!(f, concat!($prefix, "{}"), self.as_u32())
            }
        }

        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                core::fmt::Display::fmt(self, f)
            }
        }
    };
}

entity! {
    /// A function (definition or declaration).
    Func,
    "func"
}

entity! {
    /// A basic block.
    Block,
    "block"
}

entity! {
    /// An instruction.
    Inst,
    "inst"
}

entity! {
    /// The label through which instructions name their block
    /// ([`Module::block_of`](crate::Module::block_of)): each block has one,
    /// and splitting a block relabels whichever side is shorter, handing
    /// the old label to the other block when the head is relabeled.
    Seg,
    "seg"
}

entity! {
    /// Any SSA value: argument, instruction result, global, function, constant
    /// or metadata wrapped as a value.
    Value,
    "v"
}

entity! {
    /// The payload of a constant value (see
    /// [`Module::constant`](crate::Module::constant)).
    ConstId,
    "const"
}

entity! {
    /// An interned type.
    Type,
    "ty"
}

entity! {
    /// A global variable.
    Global,
    "global"
}

entity! {
    /// A global alias or ifunc.
    Alias,
    "alias"
}

entity! {
    /// A metadata node (numbered, or an inline specialized node).
    Md,
    "md"
}

entity! {
    /// An interned string (names, attribute keys, verbatim text).
    Sym,
    "sym"
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::mem::size_of;
    use cranelift_entity::packed_option::{PackedOption, ReservedValue};
    use cranelift_entity::EntityRef;

    #[test]
    fn optional_ids_take_four_bytes() {
        assert_eq!(size_of::<Option<Sym>>(), 4);
        assert_eq!(size_of::<Option<Type>>(), 4);
        assert_eq!(size_of::<Option<Value>>(), 4);
        assert_eq!(size_of::<PackedOption<Inst>>(), 4);
    }

    #[test]
    fn index_order_and_reserved_value_are_kept() {
        for i in [0usize, 1, 7, 1 << 20, (u32::MAX - 2) as usize] {
            assert_eq!(Value::new(i).index(), i);
            assert_eq!(Value::from_u32(i as u32).as_u32(), i as u32);
        }
        assert!(Inst::new(3) < Inst::new(4));
        assert!(Sym::new(0) < Sym::new(1 << 31));
        assert!(Block::reserved_value().is_reserved_value());
        assert!(!Block::new(0).is_reserved_value());
        assert_eq!(Block::reserved_value().as_u32(), u32::MAX);
        assert_eq!(Block::from_u32(u32::MAX), Block::reserved_value());
        // Past the largest usable index, so past any table.
        assert_eq!(Block::reserved_value().index(), (u32::MAX - 1) as usize);
        let table: cranelift_entity::PrimaryMap<Block, u8> = (0..4).collect();
        assert_eq!(table.get(Block::reserved_value()), None);
        let none: PackedOption<Block> = None.into();
        assert_eq!(none.expand(), None);
        assert_eq!(
            PackedOption::from(Block::new(5)).expand(),
            Some(Block::new(5))
        );
        assert_eq!(alloc::format!("{:?}", Md::new(12)), "md12");
    }
}
