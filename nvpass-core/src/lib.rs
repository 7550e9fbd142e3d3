//! # nvpass-core
//!
//! The traits, pass machinery and NVVM/NVPTX knowledge shared by every nvpass
//! pass. It stores no IR: a host compiler plugs its own IR in by implementing
//! the IR traits, and every pass (in `nvpass-passes`) is written once against
//! them.
//!
//! ## Architecture
//!
//! ```text
//!  host IR ──implements──▶ ir::IrView (read, &self) ◀── ModuleAnalysis<M> (printers, lints)
//!                          ir::IrEdit (mutate)      ◀── ModulePass<M>     (transforms)
//!                                   ▲
//!  "--passes=a,b<k=v>" ─▶ pipeline::Pipeline ─▶ registry::Registry ─▶ manager::PassManager
//!                                                       runs passes, calls instrument hooks
//!  passes report through pass::PassContext: diag::Diagnostic, knob::KnobValues, stats::Statistics
//! ```
//!
//! - [`ir`]: opaque `u32` ids ([`ir::FuncId`], [`ir::InstId`], [`ir::ValueId`],
//!   ...) in the style of regalloc2's `Function` trait, and the trait split:
//!   [`ir::TypeView`] (types) ⊂ [`ir::IrView`] (every query) ⊂ [`ir::IrEdit`]
//!   (mutation primitives). A pass that only reads takes `&impl IrView`, so
//!   its signature says it cannot change the IR.
//! - [`pass`], [`manager`], [`pipeline`], [`registry`], [`instrument`]: the
//!   pass traits, textual pipelines, the registry that resolves names (both
//!   the pipeline name `kernel-attr` and the spec's `KernelAttrPass`), and a
//!   pass manager with MLIR-style instrumentation on which
//!   `-debug-pass-manager`, `-print-after`, `-verify-each` and
//!   `-time-passes` are built.
//! - [`diag`], [`knob`], [`stats`]: diagnostics as data (with LLVM remark
//!   YAML output), typed `cl::opt`-style knobs, `-stats` counters.
//! - The NVVM facts the spec defines once: [`kernel::is_kernel_function`],
//!   the address-space lattice and alias rule ([`addrspace`]), the CDP stub
//!   tables ([`cdp`]), the spec's pass names ([`names`]), the inliner
//!   cost-model parameters ([`inline_cost`]), the Pretreat rule table
//!   ([`pretreat`]), and a [`datalayout`] size calculator.
//! - [`worklist`]: a deduplicating FIFO worklist over ids, and a queue of
//!   places in a walk order, popped lowest first.
//! - [`par`]: running a read-only per-function analysis on several threads
//!   (feature `parallel`) with results in function order, and the
//!   analyze-then-apply shape function-local passes build on it.
//!
//! ## A pass against the traits
//!
//! ```
//! use nvpass_core::ir::{Attr, AttrSlot, IrEdit};
//! use nvpass_core::kernel::{is_kernel_function, NVVM_KERNEL_ATTR};
//! use nvpass_core::pass::{ModulePass, PassContext, PassFailure, PassInfo, PreservedOrChanged};
//! use nvpass_core::stats::StatInfo;
//!
//! /// Stamps `"nvvm.kernel"` on every kernel that lacks it.
//! pub struct StampKernels;
//!
//! pub const INFO: PassInfo = PassInfo {
//!     name: "stamp-kernels",
//!     class_name: "StampKernelsPass",
//!     description: "add nvvm.kernel to kernels",
//!     knobs: &[],
//!     options: &[],
//! };
//! const NUM_STAMPED: StatInfo = StatInfo {
//!     name: "NumStamped",
//!     description: "Number of kernels stamped",
//! };
//!
//! impl<M: IrEdit + ?Sized> ModulePass<M> for StampKernels {
//!     fn info(&self) -> &'static PassInfo {
//!         &INFO
//!     }
//!     fn run(&mut self, m: &mut M, cx: &mut PassContext<'_>) -> Result<PreservedOrChanged, PassFailure> {
//!         let todo: Vec<_> = m
//!             .funcs()
//!             .filter(|&f| is_kernel_function(m, f))
//!             .filter(|&f| m.str_attr(f, AttrSlot::Function, NVVM_KERNEL_ATTR).is_none())
//!             .collect();
//!         for &f in &todo {
//!             m.add_attr(f, AttrSlot::Function, Attr::Str(NVVM_KERNEL_ATTR, ""));
//!         }
//!         cx.add_stat(&NUM_STAMPED, todo.len() as u64);
//!         Ok(PreservedOrChanged::from_changed(!todo.is_empty()))
//!     }
//! }
//! ```
//!
//! The crate is `no_std` + `alloc`; the `std` feature (default) only adds
//! [`instrument::StdClock`]. The `parallel` feature (off by default, implies
//! `std`) lets [`par::par_map_funcs`] use several threads and makes
//! [`ir::IrView`] require `Sync` (see [`par`]).
#![cfg_attr(not(feature = "std"), no_std)]
#![deny(missing_docs)]
extern crate alloc;

pub mod addrspace;
pub mod cdp;
pub mod datalayout;
pub mod diag;
pub mod inline_cost;
pub mod instrument;
pub mod ir;
pub mod kernel;
pub mod knob;
pub mod manager;
pub mod names;
pub mod par;
pub mod pass;
pub mod pipeline;
pub mod pretreat;
pub mod registry;
pub mod stats;
pub mod worklist;

#[cfg(test)]
mod testing;
