//! [`IrEdit`]: the mutation primitives a transform pass may use.
//!
//! Policy lives in passes, mechanics here (STYLE principle 2): each method is
//! one small, documented IR edit, implemented once per host IR. Non-trivial
//! primitives ([`IrEdit::inline_call`], [`IrEdit::clone_function`]) are only
//! declared by core.

use core::fmt;

use hashbrown::HashMap;

use super::attr::{Attr, AttrKey, AttrSlot};
use super::ids::{BlockId, FuncId, GlobalId, InstId, MdId, TypeId, ValueId};
use super::opcode::Opcode;
use super::view::{CallConv, IrView, Linkage, MdOperand};

/// Old value to new value, as produced by [`IrEdit::clone_function`]: every
/// argument, instruction result and block-local value of the original maps
/// to its counterpart in the clone.
pub type ValueMap = HashMap<ValueId, ValueId>;

/// Why an edit was refused. A refused edit leaves the IR unchanged.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum EditError {
    /// The entity still has uses ([`IrEdit::erase_inst`],
    /// [`IrEdit::erase_function`], [`IrEdit::erase_global`]) or predecessors
    /// ([`IrEdit::erase_block`]).
    HasUses,
    /// The instruction is not a call site.
    NotACall,
    /// The operands or types do not fit the requested instruction.
    TypeMismatch,
    /// A function or global with that name already exists.
    NameTaken,
    /// An index is out of range.
    OutOfRange,
    /// The call site cannot be inlined; the reason is for diagnostics.
    NotInlinable(&'static str),
    /// The host does not support this edit.
    Unsupported(&'static str),
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditError::HasUses => f.write_str("entity still has uses"),
            EditError::NotACall => f.write_str("instruction is not a call site"),
            EditError::TypeMismatch => f.write_str("operand or type mismatch"),
            EditError::NameTaken => f.write_str("name already taken"),
            EditError::OutOfRange => f.write_str("index out of range"),
            EditError::NotInlinable(why) => write!(f, "cannot inline: {why}"),
            EditError::Unsupported(what) => write!(f, "unsupported edit: {what}"),
        }
    }
}

/// Mutations of a host module. A pass that only reads takes [`IrView`].
///
/// Ids of entities not touched by an edit stay valid across it. Every method
/// either performs the whole edit or returns an [`EditError`] and changes
/// nothing.
pub trait IrEdit: IrView {
    // ---- attributes, conventions, linkage ---------------------------------

    /// Adds `attr` to list `slot` of `f`, replacing an attribute with the
    /// same [`key`](Attr::key) if present.
    fn add_attr(&mut self, f: FuncId, slot: AttrSlot, attr: Attr<'_>);

    /// Removes the attribute with key `key` from list `slot` of `f`; returns
    /// whether one was present.
    fn remove_attr(&mut self, f: FuncId, slot: AttrSlot, key: AttrKey<'_>) -> bool;

    /// [`IrEdit::remove_attr`] of `old` then [`IrEdit::add_attr`] of `new`
    /// on list `slot` of `f` (`noinline` giving way to `alwaysinline`), in
    /// one edit of the list where the host can; the default makes the two.
    fn replace_attr(&mut self, f: FuncId, slot: AttrSlot, old: AttrKey<'_>, new: Attr<'_>) {
        self.remove_attr(f, slot, old);
        self.add_attr(f, slot, new);
    }

    /// Adds `attr` to list `slot` of call site `call`, replacing one with the
    /// same key.
    fn add_call_attr(
        &mut self,
        call: InstId,
        slot: AttrSlot,
        attr: Attr<'_>,
    ) -> Result<(), EditError>;

    /// Removes the attribute with key `key` from list `slot` of call site
    /// `call`; returns whether one was present.
    fn remove_call_attr(&mut self, call: InstId, slot: AttrSlot, key: AttrKey<'_>) -> bool;

    /// Sets the calling convention of `f` (call sites are not changed).
    fn set_call_conv(&mut self, f: FuncId, cc: CallConv);

    /// Sets the linkage of `f`.
    fn set_linkage(&mut self, f: FuncId, linkage: Linkage);

    /// Sets the linkage of global `g`.
    fn set_global_linkage(&mut self, g: GlobalId, linkage: Linkage);

    // ---- values and instructions ------------------------------------------

    /// Makes every use of `old` (instruction operands, initializers,
    /// constants, and metadata references to it) use `new` instead. The
    /// types must be equal.
    fn replace_all_uses(&mut self, old: ValueId, new: ValueId) -> Result<(), EditError>;

    /// Sets value operand `index` of `inst` (see "Operand order" on
    /// [`IrView`]) to `value`. Setting a call's callee this way does not
    /// change the call's function type.
    fn set_operand(&mut self, inst: InstId, index: usize, value: ValueId) -> Result<(), EditError>;

    /// Removes `inst` from its block and deletes it. Its result must have no
    /// uses ([`EditError::HasUses`] otherwise).
    fn erase_inst(&mut self, inst: InstId) -> Result<(), EditError>;

    /// Inserts before `before` a `call` of `callee` through function type
    /// `fn_ty` with arguments `args`, using the C calling convention and no
    /// attributes; returns the new instruction (its value, if not `void`,
    /// through [`IrView::inst_result`]). The argument types must match
    /// `fn_ty`'s parameters.
    fn build_call(
        &mut self,
        before: InstId,
        fn_ty: TypeId,
        callee: ValueId,
        args: &[ValueId],
    ) -> Result<InstId, EditError>;

    /// Inserts before `before` the cast `op value to dest_ty` (`op` must be
    /// a cast opcode valid for the types) and returns its result.
    fn build_cast(
        &mut self,
        before: InstId,
        op: Opcode,
        value: ValueId,
        dest_ty: TypeId,
    ) -> Result<ValueId, EditError>;

    /// Makes call site `call` call `callee` through function type `fn_ty`,
    /// keeping its arguments, attributes and metadata. The arguments must
    /// match `fn_ty`'s parameters.
    fn set_callee(&mut self, call: InstId, callee: ValueId, fn_ty: TypeId)
        -> Result<(), EditError>;

    /// Sets (`Some`) or removes (`None`) the metadata attachment `kind`
    /// (without `!`) of `inst`.
    fn set_inst_md(&mut self, inst: InstId, kind: &str, md: Option<MdId>);

    // ---- functions ---------------------------------------------------------

    /// Copies `f` into a new function named `new_name`, inserted right after
    /// `f` with the same linkage, convention, attributes and metadata. Returns
    /// the clone and the map from every argument, instruction result and
    /// block-local value of `f` to the clone's counterpart. Calls are not
    /// retargeted.
    fn clone_function(
        &mut self,
        f: FuncId,
        new_name: &str,
    ) -> Result<(FuncId, ValueMap), EditError>;

    /// Changes the type of parameter `index` of `f` in place (and so `f`'s
    /// function type). Uses of the argument inside `f` are left as they are
    /// and call sites are not updated: the caller of this primitive restores
    /// type correctness (for example by building an `addrspacecast` of the
    /// argument in the entry block and redirecting the other uses to it, and
    /// by retargeting calls with [`IrEdit::set_callee`]).
    fn set_param_type(&mut self, f: FuncId, index: usize, ty: TypeId) -> Result<(), EditError>;

    /// Changes the return type of `f` in place; like
    /// [`IrEdit::set_param_type`], `ret` operands and call sites are the
    /// caller's responsibility.
    fn set_ret_type(&mut self, f: FuncId, ty: TypeId) -> Result<(), EditError>;

    /// Inlines the direct call `call` into its function.
    ///
    /// Semantics: the callee's body is copied into the caller in place of
    /// the call; callee arguments are replaced by the call's actual
    /// arguments; the block holding the call is split after it; each callee
    /// `ret` becomes a branch to the split point and, for non-`void` callees,
    /// the returned values are merged by a `phi` there (or used directly if
    /// there is one `ret`) which replaces all uses of the call's result. A
    /// host may instead put the body of a one-block callee in the call's
    /// place without splitting (as LLVM and the reference IR do), its `ret`
    /// value replacing the call's result;
    /// static `alloca`s of the callee's entry block are moved to the caller's
    /// entry block; `!dbg` locations of copied instructions are kept.
    /// Refused with [`EditError::NotInlinable`] for indirect calls,
    /// declarations, `invoke`/`callbr` sites the host cannot handle, and
    /// recursive calls (callee == caller). The call is erased on success.
    fn inline_call(&mut self, call: InstId) -> Result<(), EditError>;

    /// Removes parameter `index` of `f` (from its function type, its
    /// argument list and its parameter attributes); later parameters shift
    /// down by one. Refused with [`EditError::HasUses`] if the argument has
    /// uses or if a call instruction calls `f` directly (its argument list
    /// would no longer match); other uses of `f` (initializers, metadata)
    /// are unaffected.
    fn remove_param(&mut self, f: FuncId, index: usize) -> Result<(), EditError>;

    /// Deletes `f` and its body. `f` must have no uses ([`EditError::HasUses`]).
    fn erase_function(&mut self, f: FuncId) -> Result<(), EditError>;

    /// Declares that the calling pass holds no id of an instruction, block
    /// or value of a function erased so far, so that the host may reuse
    /// those ids for new entities from now on (the one exception to the
    /// rule of [`ids`](super::ids)). A pass that erases and creates many
    /// bodies (an inliner consuming a chain of helpers) calls it at points
    /// where it holds no such id, and the host's tables then stay as large
    /// as the live module. Hosts that never reuse ids keep the default,
    /// which does nothing.
    fn reclaim_erased(&mut self) {}

    /// Adds the external declaration `declare <fn_ty> @name(...)`.
    fn declare_function(&mut self, name: &str, fn_ty: TypeId) -> Result<FuncId, EditError>;

    /// Deletes block `b` and its instructions. `b` must have no predecessors
    /// and must not be the entry block; its instructions' results must not be
    /// used outside `b`. Incoming `phi` entries for `b` in its successors are
    /// removed.
    fn erase_block(&mut self, b: BlockId) -> Result<(), EditError>;

    /// Deletes global variable `g`; it must have no uses.
    fn erase_global(&mut self, g: GlobalId) -> Result<(), EditError>;

    /// Sets (`Some`) or removes (`None`, making `g` an external declaration)
    /// the initializer of `g`. The value must be a constant of `g`'s value
    /// type.
    fn set_global_initializer(
        &mut self,
        g: GlobalId,
        init: Option<ValueId>,
    ) -> Result<(), EditError>;

    // ---- types and constants ------------------------------------------------

    /// The interned `ptr addrspace(addr_space)` type.
    fn ptr_type(&mut self, addr_space: u32) -> TypeId;

    /// The interned `iN` type.
    fn int_type(&mut self, bits: u32) -> TypeId;

    /// The interned `void` type.
    fn void_type(&mut self) -> TypeId;

    /// The interned function type `ret (params..., ...)`.
    fn func_type_of(&mut self, ret: TypeId, params: &[TypeId], vararg: bool) -> TypeId;

    /// The integer constant `value` of integer type `ty` (truncated to its
    /// width).
    fn const_int_of(&mut self, ty: TypeId, value: i128) -> ValueId;

    /// The `null` constant of pointer type `ty`.
    fn const_null(&mut self, ty: TypeId) -> ValueId;

    /// The floating-point constant of type `ty` with IEEE bit pattern `bits`
    /// (in the low bits).
    fn const_float_of(&mut self, ty: TypeId, bits: u128) -> Result<ValueId, EditError>;

    /// The struct, array or vector constant of type `ty` with elements
    /// `elems` (each a constant of the matching element type).
    fn const_aggregate(&mut self, ty: TypeId, elems: &[ValueId]) -> Result<ValueId, EditError>;

    // ---- metadata ----------------------------------------------------------

    /// Creates a metadata tuple `!{ops...}` (`distinct` if asked). Uniqued
    /// (non-distinct) tuples with equal operands may be returned as the same
    /// node. `MdOperand::Other` operands are refused.
    fn create_md_node(&mut self, ops: &[MdOperand<'_>], distinct: bool) -> Result<MdId, EditError>;

    /// Creates `distinct !{!self, ops...}`: a distinct node whose first
    /// operand is itself, the form of LLVM's anonymous alias-scope domains
    /// and scopes (`MDBuilder::createAnonymousAARoot`).
    fn create_self_ref_md_node(&mut self, ops: &[MdOperand<'_>]) -> Result<MdId, EditError>;

    /// The value `metadata !N` wrapping node `md`, for passing metadata to
    /// intrinsic calls (`call void @llvm.dbg.value(metadata ..., ...)`).
    fn md_value(&mut self, md: MdId) -> ValueId;

    /// Replaces the operand list of named metadata `name`, creating it if
    /// absent; an empty list deletes the named metadata.
    fn set_named_md(&mut self, name: &str, ops: &[MdId]);

    /// Appends `md` to named metadata `name`, creating it if absent.
    fn add_named_md_operand(&mut self, name: &str, md: MdId) {
        let mut ops: alloc::vec::Vec<MdId> = self.named_md(name).collect();
        ops.push(md);
        self.set_named_md(name, &ops);
    }

    /// Removes every occurrence of `md` from named metadata `name`; returns
    /// whether any was removed. The named metadata is deleted if it becomes
    /// empty.
    fn remove_named_md_operand(&mut self, name: &str, md: MdId) -> bool {
        let old: alloc::vec::Vec<MdId> = self.named_md(name).collect();
        let kept: alloc::vec::Vec<MdId> = old.iter().copied().filter(|&m| m != md).collect();
        if kept.len() == old.len() {
            return false;
        }
        self.set_named_md(name, &kept);
        true
    }

    // ---- additions for Pretreat (spec 002) -----------------------------------

    /// Changes the opcode of cast instruction `inst` to the cast `op`,
    /// keeping its operand, result (name, uses), and metadata. The new
    /// opcode must be valid for the operand and result types (`sext` to
    /// `zext` between the same integer types, say); otherwise
    /// [`EditError::TypeMismatch`] and nothing changes. Flags of the old
    /// opcode (`nneg`, `nuw`, ...) are dropped.
    fn set_cast_opcode(&mut self, _inst: InstId, _op: Opcode) -> Result<(), EditError> {
        Err(EditError::Unsupported("set_cast_opcode"))
    }

    /// Deletes the blocks `blocks` (of one function) together with their
    /// instructions. None may be the entry block, no block outside the set
    /// may branch to one inside it, and results defined in the set may be
    /// used outside it only by `phi` entries whose incoming block is in the
    /// set ([`EditError::HasUses`] otherwise, changing nothing). Incoming
    /// `phi` entries for the deleted blocks are removed from their
    /// successors; debug-info references to deleted results become `poison`.
    /// Unlike [`IrEdit::erase_block`], the blocks may branch to each other
    /// (an unreachable loop).
    fn erase_blocks(&mut self, _blocks: &[BlockId]) -> Result<(), EditError> {
        Err(EditError::Unsupported("erase_blocks"))
    }

    /// The interned array type `[len x elem]`.
    fn array_type_of(&mut self, _elem: TypeId, _len: u64) -> Result<TypeId, EditError> {
        Err(EditError::Unsupported("array_type_of"))
    }

    /// Replaces the initializer of global `g` by the constant `init` and
    /// makes `g`'s value type the type of `init` (its address, and so every
    /// use of `g`, is unchanged). For shrinking appending arrays such as
    /// `@llvm.global_ctors`.
    fn retype_global_initializer(&mut self, _g: GlobalId, _init: ValueId) -> Result<(), EditError> {
        Err(EditError::Unsupported("retype_global_initializer"))
    }

    // ---- inlining with results ------------------------------------------------

    /// [`IrEdit::inline_call`], also reporting what the inlined copy
    /// contains (LLVM's `InlineFunctionInfo`): the static `alloca`s now in
    /// the caller's entry block and the call sites copied from the callee
    /// body. Policy code uses them to keep inlining into the copied calls
    /// and to merge allocas of different inlined call sites.
    ///
    /// The default runs [`IrEdit::inline_call`] and reports nothing, which
    /// is always sound (callers then skip what needs the information).
    fn inline_call_with_info(&mut self, call: InstId) -> Result<InlineInfo, EditError> {
        self.inline_call(call).map(|()| InlineInfo::default())
    }

    /// Whether [`IrEdit::inline_call_with_info`] would certainly inline
    /// `call` without declaring a function, asked without editing. `false`
    /// means "refused, or cannot tell without trying", the default; policy
    /// code then does the inlining to find out.
    fn inline_would_succeed(&self, _call: InstId) -> bool {
        false
    }

    // ---- address-space retagging (appended for address-space inference) ----

    /// Changes the type of `inst`'s result from one pointer type to another
    /// (`ptr` to `ptr addrspace(3)`), as LLVM's `Value::mutateType` does for
    /// address-space inference. Operands and users are not touched: the
    /// caller restores type correctness (with
    /// [`IrEdit::set_pointer_operand`] on the instruction and on its users).
    /// Refused with [`EditError::TypeMismatch`] unless both the old and the
    /// new type are scalar pointer types.
    fn set_result_ptr_type(&mut self, _inst: InstId, _ty: TypeId) -> Result<(), EditError> {
        Err(EditError::Unsupported("set_result_ptr_type"))
    }

    /// Like [`IrEdit::set_operand`], but the old and the new operand may be
    /// pointers in different address spaces (any other type difference is
    /// refused with [`EditError::TypeMismatch`]). Nothing else changes: the
    /// caller keeps the instruction valid (a load, store or atomic accepts a
    /// pointer in any space; a `getelementptr`, `phi` or `select` needs its
    /// result retyped with [`IrEdit::set_result_ptr_type`]).
    fn set_pointer_operand(
        &mut self,
        _inst: InstId,
        _index: usize,
        _value: ValueId,
    ) -> Result<(), EditError> {
        Err(EditError::Unsupported("set_pointer_operand"))
    }

    // ---- code motion (appended for CDP parameter-buffer hoisting) ---------

    /// Moves `inst` from where it is to just before `before`, which may be
    /// in another block of the same function. The instruction keeps its
    /// identity, operands, result (name, uses), attributes and metadata;
    /// nothing else changes. The caller keeps the IR valid: every operand of
    /// `inst` must dominate its new place and its new place must dominate
    /// every use of its result.
    ///
    /// Refused with [`EditError::OutOfRange`] when `inst == before` or the
    /// two are not in one function, and with [`EditError::TypeMismatch`]
    /// when `inst` is a `phi` or a terminator or `before` is a `phi` (the
    /// instruction would land among the phis).
    fn move_inst_before(&mut self, _inst: InstId, _before: InstId) -> Result<(), EditError> {
        Err(EditError::Unsupported("move_inst_before"))
    }
}

/// What [`IrEdit::inline_call_with_info`] brought into the caller.
#[derive(Clone, Default, PartialEq, Eq, Debug)]
pub struct InlineInfo {
    /// Static `alloca`s copied from the callee's entry block, now in the
    /// caller's entry block (including the copies that carry `byval`
    /// arguments), in callee order.
    pub static_allocas: alloc::vec::Vec<InstId>,
    /// Call sites (`call`, `invoke`, `callbr`) copied from the callee body,
    /// in callee layout order.
    pub inlined_calls: alloc::vec::Vec<InstId>,
    /// Every instruction the inlining added to the caller, in no particular
    /// order: the copied body (without the returns it replaced), the
    /// branches and `phi` that join it to the caller, and the copies of
    /// `byval` arguments. With the call gone, the caller holds exactly its
    /// old instructions minus the call plus these, so policy code that
    /// keeps function sizes can update them without a recount. `None` when
    /// the host does not report them (sizes are then recounted).
    pub added_insts: Option<alloc::vec::Vec<InstId>>,
}
