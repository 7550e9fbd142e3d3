//! Values, constants and use lists.
//!
//! Every operand slot in the module is an [`Operand`]: the value it reads and
//! the slot's position in that value's user list. Keeping that position makes
//! removing a use O(1) (swap-remove plus one back-pointer fix), so erasing any
//! of 100,000 calls to one helper costs the same as erasing one.
//!
//! Scalar constants (integers, floats, `null`, `undef`, `poison`,
//! `zeroinitializer`, `none`) are uniqued per type. Aggregate constants,
//! constant expressions and metadata wrapped as values are not uniqued: each
//! occurrence is its own value with its own operands, so replacing a use
//! inside one never disturbs another.

use crate::entity::{Alias, Block, ConstId, Func, Global, Inst, Sym, Type, Value};
use crate::inst::{InstFlags, Opcode, Pred};
use crate::metadata::MdRef;
use crate::pool::PoolRange;

/// Who holds a use.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum User {
    /// An instruction operand.
    Inst(Inst),
    /// An operand of a constant aggregate, constant expression or
    /// metadata-as-value.
    Value(Value),
    /// The initializer of a global variable.
    GlobalInit(Global),
    /// The aliasee / resolver of an alias or ifunc.
    Alias(Alias),
    /// A function's personality (0), prefix (1) or prologue (2).
    Func(Func),
}

/// One use: the user and the operand index inside it, packed in eight
/// bytes (the user's kind in the top three bits of the index word), so that
/// a value's user list holds two of them inline.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Use {
    /// The user's id.
    id: u32,
    /// The user's kind (top three bits) and the operand index.
    word: u32,
}

impl Use {
    /// The largest operand index a use can name: 2^29 - 1. The reader
    /// rejects an instruction or constant with more operands (`too many
    /// operands`).
    pub const MAX_INDEX: u32 = (1 << 29) - 1;

    /// The use of operand `index` of `user`.
    ///
    /// # Panics
    /// When `index` is above [`Use::MAX_INDEX`].
    #[inline]
    pub fn new(user: User, index: u32) -> Use {
        assert!(
            index <= Self::MAX_INDEX,
            "operand index {index} out of range"
        );
        let (kind, id) = match user {
            User::Inst(i) => (0, i.as_u32()),
            User::Value(v) => (1, v.as_u32()),
            User::GlobalInit(g) => (2, g.as_u32()),
            User::Alias(a) => (3, a.as_u32()),
            User::Func(f) => (4, f.as_u32()),
        };
        Use {
            id,
            word: kind << 29 | index,
        }
    }

    /// The user.
    #[inline]
    pub fn user(self) -> User {
        match self.word >> 29 {
            0 => User::Inst(Inst::from_u32(self.id)),
            1 => User::Value(Value::from_u32(self.id)),
            2 => User::GlobalInit(Global::from_u32(self.id)),
            3 => User::Alias(Alias::from_u32(self.id)),
            _ => User::Func(Func::from_u32(self.id)),
        }
    }

    /// The operand index within the user.
    #[inline]
    pub fn index(self) -> u32 {
        self.word & Self::MAX_INDEX
    }

    /// Sets the operand index (the user stays).
    ///
    /// # Panics
    /// When `index` is above [`Use::MAX_INDEX`].
    #[inline]
    pub fn set_index(&mut self, index: u32) {
        assert!(
            index <= Self::MAX_INDEX,
            "operand index {index} out of range"
        );
        self.word = (self.word & !Self::MAX_INDEX) | index;
    }
}

impl core::fmt::Debug for Use {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Use")
            .field("user", &self.user())
            .field("index", &self.index())
            .finish()
    }
}

/// An operand slot: the value read and this slot's position in the value's
/// user list.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Operand {
    /// The value read.
    pub value: Value,
    /// Position of this use in `value`'s user list.
    pub pos: u32,
}

/// Inline assembly used as a callee.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct InlineAsm {
    /// `sideeffect`.
    pub side_effect: bool,
    /// `alignstack`.
    pub align_stack: bool,
    /// `inteldialect`.
    pub intel_dialect: bool,
    /// `unwind`.
    pub unwind: bool,
    /// The assembly string (decoded bytes).
    pub asm: Sym,
    /// The constraint string (decoded bytes).
    pub constraints: Sym,
}

/// A 128-bit constant payload (`i128` or `u128`) stored with 8-byte
/// alignment. A bare `i128` is 16-byte aligned, which would pad every
/// [`ValueData`] (most of which are not constants) to a multiple of 16.
/// Read the number with `.0` (a copy; the field cannot be borrowed).
#[repr(C, packed(8))]
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Wide<T: Copy>(pub T);

/// Constant payloads.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Const {
    /// An integer of width <= 128, sign-extended from its width.
    Int(Wide<i128>),
    /// An integer wider than 128 bits, as its decimal text.
    BigInt(Sym),
    /// A floating-point constant: the raw bits of the type's format.
    Float(Wide<u128>),
    /// `null`.
    Null,
    /// `undef`.
    Undef,
    /// `poison`.
    Poison,
    /// `zeroinitializer`.
    Zero,
    /// `none` (token).
    NoneToken,
    /// `c"..."`: the bytes of a character array.
    Str(Sym),
    /// `[...]`, `{...}`, `<{...}>` or `<...>`: elements are the operands.
    Aggregate,
    /// `splat (T v)`: the operand is the element.
    Splat,
    /// A constant expression; operands are the value's operands.
    Expr {
        /// Opcode (cast, getelementptr, binary op, icmp, ...).
        opcode: Opcode,
        /// Flags (`inbounds`, `nuw`, ...).
        flags: InstFlags,
        /// GEP source element type; cast operand types are the operands'.
        source_ty: Option<Type>,
        /// Compare predicate.
        pred: Option<Pred>,
        /// `inrange(lo, hi)` of a GEP expression, verbatim.
        inrange: Option<Sym>,
    },
    /// `blockaddress(@f, %bb)`.
    BlockAddress(Func, Block),
    /// `dso_local_equivalent @f`: the operand is the function.
    DsoLocalEquivalent,
    /// `no_cfi @f`: the operand is the function.
    NoCfi,
    /// Inline assembly.
    InlineAsm(alloc::boxed::Box<InlineAsm>),
}

/// What a value is.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ValueKind {
    /// Parameter `index` of `func`.
    Arg {
        /// The function.
        func: Func,
        /// The parameter index.
        index: u32,
    },
    /// The result of an instruction.
    Inst(Inst),
    /// A global variable's address.
    Global(Global),
    /// A function's address.
    Func(Func),
    /// An alias or ifunc.
    Alias(Alias),
    /// A constant, held in the module's constant table
    /// ([`Module::constant`](crate::Module::constant)): almost no value is
    /// a constant (scalars are uniqued), and a payload inline would size
    /// every value for an `i128`.
    Const(ConstId),
    /// Metadata used as an operand (`metadata !5`, `metadata i32 %x`).
    /// A value wrapped this way is operand 0; a node is held here.
    Metadata(MdRef),
    /// A function-local forward reference not yet defined (parser only).
    Placeholder,
}

/// A value in the module's value arena.
#[derive(Clone, Debug)]
pub struct ValueData {
    /// The value's type (`metadata` for metadata-as-value).
    pub ty: Type,
    /// What the value is.
    pub kind: ValueKind,
    /// The name (`%x`, `@f`); `None` for unnamed values, which the printer
    /// numbers as LLVM does.
    pub name: Option<Sym>,
    /// Every use of this value: read them with
    /// [`Module::users`](crate::Module::users).
    pub users: UseList,
}

/// Where the uses of a value are: most values have one, held inline; a
/// value with more keeps them in the module's use pool (see
/// [`crate::pool`]). Twelve bytes, so a [`ValueData`] is 32.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum UseList {
    /// No use.
    #[default]
    Empty,
    /// Exactly one use.
    One(Use),
    /// Any number of uses, in the use pool. A list that shrinks stays
    /// here until it is empty.
    Pooled(PoolRange),
}

/// Key under which scalar constants are uniqued.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) struct ConstKey {
    pub(crate) ty: Type,
    pub(crate) c: Const,
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::mem::{align_of, size_of};

    /// Every kind of user and the extreme indices survive the packing.
    #[test]
    fn uses_pack_user_and_index() {
        let users = [
            User::Inst(Inst::from_u32(7)),
            User::Value(Value::from_u32(u32::MAX - 2)),
            User::GlobalInit(Global::from_u32(0)),
            User::Alias(Alias::from_u32(3)),
            User::Func(Func::from_u32(1 << 31)),
        ];
        for user in users {
            for index in [0, 1, 2, 1000, Use::MAX_INDEX] {
                let u = Use::new(user, index);
                assert_eq!((u.user(), u.index()), (user, index));
                let mut v = u;
                v.set_index(5);
                assert_eq!((v.user(), v.index()), (user, 5));
            }
        }
        assert_eq!(core::mem::size_of::<Use>(), 8);
    }

    #[test]
    #[should_panic(expected = "out of range")]
    fn an_index_past_the_packing_panics() {
        let _ = Use::new(User::Inst(Inst::from_u32(0)), Use::MAX_INDEX + 1);
    }

    #[test]
    fn value_sizes_stay_bounded() {
        assert_eq!(align_of::<Const>(), 8);
        assert!(size_of::<Const>() <= 24, "Const: {}", size_of::<Const>());
        assert!(
            size_of::<ValueData>() <= 32,
            "ValueData: {}",
            size_of::<ValueData>()
        );
    }

    #[test]
    fn wide_payloads_keep_every_bit() {
        for v in [0i128, -1, i128::MIN, i128::MAX, 1 << 100] {
            assert_eq!(Const::Int(Wide(v)), Const::Int(Wide(v)));
            let Const::Int(w) = Const::Int(Wide(v)) else {
                unreachable!()
            };
            assert_eq!({ w.0 }, v);
        }
        assert_ne!(Const::Float(Wide(1)), Const::Float(Wide(1 << 64)));
    }
}
