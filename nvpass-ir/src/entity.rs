//! Entity ids of the reference IR.
//!
//! Every IR object lives in an arena of its [`Module`](crate::Module) and is
//! named by a `u32` newtype. Side tables are `cranelift_entity` maps keyed by
//! these ids, so analyses never hash pointers.

use cranelift_entity::entity_impl;

/// A function (definition or declaration).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Func(u32);
entity_impl!(Func, "func");

/// A basic block.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Block(u32);
entity_impl!(Block, "block");

/// An instruction.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Inst(u32);
entity_impl!(Inst, "inst");

/// Any SSA value: argument, instruction result, global, function, constant
/// or metadata wrapped as a value.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Value(u32);
entity_impl!(Value, "v");

/// An interned type.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Type(u32);
entity_impl!(Type, "ty");

/// A global variable.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Global(u32);
entity_impl!(Global, "global");

/// A global alias or ifunc.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Alias(u32);
entity_impl!(Alias, "alias");

/// A metadata node (numbered, or an inline specialized node).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Md(u32);
entity_impl!(Md, "md");

/// An interned string (names, attribute keys, verbatim text).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sym(u32);
entity_impl!(Sym, "sym");
