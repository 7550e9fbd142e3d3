//! The IR traits through which passes see a host compiler's IR.
//!
//! - [`ids`]: opaque `u32` ids ([`FuncId`], [`InstId`], [`ValueId`], ...).
//! - [`TypeView`]: type queries (split out so type-only machinery such as
//!   [`DataLayout`](crate::datalayout::DataLayout) needs no module).
//! - [`IrView`]: every read-only query (`&self`).
//! - [`IrEdit`]: the mutation primitives (`&mut self`).
//!
//! A read-only pass is written against [`IrView`] only, so its signature
//! shows it cannot change the IR.

pub mod attr;
pub mod edit;
pub mod ids;
pub mod opcode;
pub mod types;
pub mod view;

pub use attr::{Attr, AttrKey, AttrKind, AttrShape, AttrSlot};
pub use edit::{EditError, InlineInfo, IrEdit, ValueMap};
pub use ids::{BlockId, EntityId, FuncId, GlobalId, InstId, MdId, TypeId, ValueId};
pub use opcode::Opcode;
pub use types::{TypeKind, TypeView};
pub use view::{CallConv, Callee, ConstKind, IrView, Linkage, MdOperand, User, ValueKind};
