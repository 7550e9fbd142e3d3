//! The reference IR of nvpass: an arena representation of LLVM IR with a
//! reader and printer for LLVM's textual form and a verifier.
//!
//! * [`entity`]: `u32` ids for every IR object.
//! * [`types`], [`value`], [`inst`], [`attr`], [`metadata`], [`module`]:
//!   the data model. Use lists are maintained on every mutation, so the
//!   users of a value are found without scanning.
//! * [`print`]: writes a module as LLVM 19 textual IR.
//! * [`verify`]: checks a module's invariants.
#![cfg_attr(not(feature = "std"), no_std)]
#![deny(missing_docs)]
extern crate alloc;

pub mod attr;
pub mod entity;
pub mod inst;
pub mod intern;
pub mod metadata;
pub mod module;
pub mod print;
pub mod types;
pub mod value;
pub mod verify;

pub use entity::{Alias, Block, Func, Global, Inst, Md, Sym, Type, Value};
pub use module::Module;
pub use print::print_module;
pub use verify::{verify_module, VerifyError};
