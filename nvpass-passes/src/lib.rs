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

mod pretreat;

use nvpass_core::ir::IrEdit;
use nvpass_core::registry::Registry;

mod cdp;

/// The registry of every pass in this crate, for host IR `M`.
///
/// Registration order is the order `nvpass-cli list-passes` prints.
pub fn registry<M: IrEdit + ?Sized>() -> Registry<M> {
    #[allow(unused_mut)]
    let mut r = Registry::new();
    // Each pass family registers its passes here (one line per module).
    pretreat::register(&mut r);
    cdp::register(&mut r);
    r
}
