//! The NVVM/NVPTX middle-end passes of nvpass, written against the IR traits
//! of `nvpass-core` only. Any host IR that implements
//! [`IrEdit`] can run them.
//!
//! [`registry`] returns every pass this crate provides, under both its
//! pipeline name (`kernel-attr`) and the spec's class name
//! (`KernelAttrPass`). Each pass lives in its own module, which opens with
//! docs on what it does, the spec section it implements, its knobs, its
//! diagnostics and the choices made where the spec is silent.
#![cfg_attr(not(feature = "std"), no_std)]
#![deny(missing_docs)]
extern crate alloc;

pub mod addrspace;
pub mod cdp;
pub mod inline;
pub mod kernel;
mod layout;
pub mod pretreat;
pub mod restrict;
mod uses;

use nvpass_core::ir::IrEdit;
use nvpass_core::registry::Registry;

/// The registry of every pass in this crate, for host IR `M`.
///
/// Registration order is the order `nvpass-cli list-passes` prints: the
/// order in which the passes usually run.
pub fn registry<M: IrEdit + ?Sized>() -> Registry<M> {
    let mut r = Registry::new();
    // Each pass family registers its passes here (one line per module).
    pretreat::register(&mut r);
    kernel::register(&mut r);
    cdp::register(&mut r);
    inline::register(&mut r);
    addrspace::register(&mut r);
    restrict::register(&mut r);
    r
}
