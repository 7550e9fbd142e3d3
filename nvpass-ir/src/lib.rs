//! The reference IR of nvpass: an arena representation of LLVM IR with a
//! reader and printer for LLVM's textual form and a verifier.
//!
//! * [`parse`]: the `.ll` reader ([`parse_module`]).
//! * [`entity`]: `u32` ids for every IR object.
//! * [`types`], [`value`], [`inst`], [`attr`], [`metadata`], [`module`]:
//!   the data model. Use lists are maintained on every mutation, so the
//!   users of a value are found without scanning.
//! * [`pool`]: the instructions' operand, block and attachment lists and
//!   the values' use lists live in module-wide pools, not one allocation
//!   per record: an instruction is 64 bytes, a value 32.
//! * [`print`](mod@print): writes a module as LLVM 19 textual IR.
//! * [`verify`]: the verifier, usable between passes.
//! * [`host`]: the implementation of the `nvpass-core` IR traits.
//!
//! Features: `std` (default) adds file-oriented helpers; `parallel` (off by
//! default, implies `std`) adds `print::print_module_parallel`,
//! `verify::verify_module_parallel` and `parse::read_lexed_ahead`, which
//! use several threads and give exactly the single-threaded result.
#![cfg_attr(not(feature = "std"), no_std)]
#![deny(missing_docs)]
extern crate alloc;

pub mod attr;
mod direct;
pub mod entity;
pub mod host;
pub mod inst;
pub mod intern;
pub mod metadata;
pub mod module;
pub mod parse;
pub mod pool;
mod prefetch;
pub mod print;
pub mod short;
pub mod types;
pub mod value;
pub mod verify;

pub use entity::{Alias, Block, ConstId, Func, Global, Inst, Md, Seg, Sym, Type, Value};
pub use module::Module;
pub use parse::{parse_module, LexedPiece, ModuleReader, ParseError, PieceCutter};
pub use print::print_module;
pub use verify::{verify_module, VerifyError};
