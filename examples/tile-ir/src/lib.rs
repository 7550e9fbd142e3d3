//! `tile-ir`: an example host compiler IR that runs nvpass passes.
//!
//! nvpass's passes are written against `nvpass-core`'s traits
//! ([`TypeView`](nvpass_core::ir::TypeView),
//! [`IrView`](nvpass_core::ir::IrView), [`IrEdit`](nvpass_core::ir::IrEdit)),
//! not against LLVM IR. This crate is the proof: a small IR written the way a
//! GPU compiler team would write theirs, deliberately unlike LLVM IR, that
//! implements those traits (`host.rs`) and runs `kernel-attr`, the
//! force-inline decision, the inliner cost models, `ipmsp`, `memspace-opt`,
//! `pretreat` and `inline-must` unchanged; the tests compare the results
//! with the reference IR's on the same program. `docs/embedding.md` walks
//! through it.
//!
//! # The IR
//!
//! MLIR-flavoured: a module of `tile.func` ops whose body is one region (a
//! list of blocks); blocks take **arguments** instead of having phis; the
//! entry block's arguments are the function's parameters; branches pass
//! values to their targets' arguments.
//!
//! ```text
//! tile.func public @k(%out: !tile.ptr<generic>, %n: i64) -> () kernel {
//! ^entry:
//!   tile.br ^loop(0 : i64)
//! ^loop(%i: i64):
//!   %q = tile.ptradd %out, %i : !tile.ptr<generic>
//!   tile.store %q, 0x0 : f32
//!   %next = tile.addi %i, 4 : i64
//!   %c = tile.cmpi ult %next, %n : i1
//!   tile.cond_br %c ^loop(%next) ^exit
//! ^exit:
//!   tile.return
//! }
//! ```
//!
//! - Its own `u32` ids ([`Func`], [`Block`], [`Op`], [`Value`], [`Ty`],
//!   [`Global`]) in `cranelift_entity` arenas.
//! - Its own types: `!tile.ptr<shared>` names memory spaces, structs,
//!   arrays, signatures, opaque `!tile.image`/`!tile.sampler` handles.
//! - Its own ops: `tile.ptradd` is a byte offset (no typed GEP),
//!   `tile.store` takes the pointer first, `tile.call` names its callee by
//!   symbol, constants are module-level values (no constant expressions).
//! - Function kind (`kernel`/`device`) and inline policy
//!   (`inline = always`/`never`) are dedicated fields; other attributes sit
//!   in a dictionary.
//! - Locations (`loc("file":line:col)`) instead of debug metadata; no other
//!   metadata.
//!
//! [`FuncBuilder`] writes programs; [`print_module`] prints them.

#![deny(missing_docs)]

mod builder;
mod host;
mod inline;
mod ir;
mod print;

pub use builder::FuncBuilder;
pub use host::PHI_TAG;
pub use inline::Inlined;
pub use ir::{
    sign_extend, AttrEntry, BinOp, Block, BlockData, CmpPred, Const, Func, FuncData, FuncKind,
    Global, GlobalData, InlinePolicy, Loc, LocData, MemSpace, Module, Op, OpData, OpKind, Slot,
    Successor, Ty, TypeData, Use, Value, ValueData, ValueDef, Visibility,
};
pub use print::{print_func, print_module, type_text};
