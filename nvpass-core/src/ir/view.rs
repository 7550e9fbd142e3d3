//! [`IrView`]: everything a pass may read, and the small enums it answers with.

use super::attr::{Attr, AttrKey, AttrKind, AttrSlot};
use super::ids::{BlockId, FuncId, GlobalId, InstId, MdId, TypeId, ValueId};
use super::opcode::Opcode;
use super::types::{TypeKind, TypeView};
use crate::datalayout::{DataLayout, StructLayout};
use crate::diag::DebugLoc;
use crate::par::SyncIfParallel;

/// Linkage of a function or global, as in LLVM's `GlobalValue::LinkageTypes`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Linkage {
    /// Default linkage (no keyword): visible, not replaceable.
    External,
    /// `available_externally`.
    AvailableExternally,
    /// `linkonce`.
    LinkOnceAny,
    /// `linkonce_odr`.
    LinkOnceOdr,
    /// `weak`.
    WeakAny,
    /// `weak_odr`.
    WeakOdr,
    /// `appending`.
    Appending,
    /// `internal`.
    Internal,
    /// `private`.
    Private,
    /// `extern_weak`.
    ExternWeak,
    /// `common`.
    Common,
}

impl Linkage {
    /// Every linkage, in declaration order.
    pub const ALL: [Linkage; 11] = [
        Linkage::External,
        Linkage::AvailableExternally,
        Linkage::LinkOnceAny,
        Linkage::LinkOnceOdr,
        Linkage::WeakAny,
        Linkage::WeakOdr,
        Linkage::Appending,
        Linkage::Internal,
        Linkage::Private,
        Linkage::ExternWeak,
        Linkage::Common,
    ];

    /// The LLVM keyword; `""` for [`Linkage::External`].
    pub const fn keyword(self) -> &'static str {
        match self {
            Linkage::External => "",
            Linkage::AvailableExternally => "available_externally",
            Linkage::LinkOnceAny => "linkonce",
            Linkage::LinkOnceOdr => "linkonce_odr",
            Linkage::WeakAny => "weak",
            Linkage::WeakOdr => "weak_odr",
            Linkage::Appending => "appending",
            Linkage::Internal => "internal",
            Linkage::Private => "private",
            Linkage::ExternWeak => "extern_weak",
            Linkage::Common => "common",
        }
    }

    /// Parses a keyword (`""` and `"external"` give [`Linkage::External`]).
    pub fn from_keyword(kw: &str) -> Option<Linkage> {
        if kw == "external" {
            return Some(Linkage::External);
        }
        Linkage::ALL.into_iter().find(|l| l.keyword() == kw)
    }

    /// LLVM's `isInterposableLinkage`: the definition seen here may be
    /// replaced at link time by a different one, so its body must not be
    /// inlined or analysed (`weak`, `linkonce`, `common`, `extern_weak`).
    /// The `_odr` forms are not interposable: any replacement is equivalent.
    pub const fn is_interposable(self) -> bool {
        matches!(
            self,
            Linkage::WeakAny | Linkage::LinkOnceAny | Linkage::Common | Linkage::ExternWeak
        )
    }

    /// `internal` or `private`: invisible outside the module.
    pub const fn is_local(self) -> bool {
        matches!(self, Linkage::Internal | Linkage::Private)
    }

    /// LLVM's `isDiscardableIfUnused`: may be deleted when nothing in the
    /// module uses it (`linkonce*`, `internal`, `private`,
    /// `available_externally`).
    pub const fn is_discardable_if_unused(self) -> bool {
        matches!(
            self,
            Linkage::LinkOnceAny
                | Linkage::LinkOnceOdr
                | Linkage::Internal
                | Linkage::Private
                | Linkage::AvailableExternally
        )
    }
}

/// Calling convention of a function or call site.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum CallConv {
    /// `ccc` (the default, LLVM id 0).
    C,
    /// `fastcc` (id 8).
    Fast,
    /// `coldcc` (id 9).
    Cold,
    /// `ptx_kernel` (id 71 = 0x47): a kernel entry point.
    PtxKernel,
    /// `ptx_device` (id 72).
    PtxDevice,
    /// Any other convention, by LLVM numeric id (`cc 42`).
    Other(u32),
}

impl CallConv {
    /// The LLVM numeric id (`CallingConv::ID`).
    pub const fn id(self) -> u32 {
        match self {
            CallConv::C => 0,
            CallConv::Fast => 8,
            CallConv::Cold => 9,
            CallConv::PtxKernel => 71,
            CallConv::PtxDevice => 72,
            CallConv::Other(id) => id,
        }
    }

    /// The convention with LLVM numeric id `id` (known ids map to their
    /// named variants, so `from_id(c.id()) == c` for canonical values).
    pub const fn from_id(id: u32) -> CallConv {
        match id {
            0 => CallConv::C,
            8 => CallConv::Fast,
            9 => CallConv::Cold,
            71 => CallConv::PtxKernel,
            72 => CallConv::PtxDevice,
            other => CallConv::Other(other),
        }
    }
}

/// Kinds of constants.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum ConstKind {
    /// An integer constant; value through [`IrView::const_int`].
    Int,
    /// A floating-point constant; bits through [`IrView::const_float_bits`].
    Float,
    /// `null` (pointer).
    Null,
    /// `undef`.
    Undef,
    /// `poison`.
    Poison,
    /// `zeroinitializer`.
    ZeroInit,
    /// A struct, array or vector literal; elements through
    /// [`IrView::const_operands`].
    Aggregate,
    /// A constant expression (`addrspacecast (ptr addrspace(1) @g to ptr)`,
    /// `getelementptr (...)`) with the given opcode; operands through
    /// [`IrView::const_operands`].
    Expr(Opcode),
    /// Anything else (`blockaddress`, `dso_local_equivalent`, `none`, ...).
    Other,
}

/// What a [`ValueId`] denotes.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum ValueKind {
    /// Formal parameter `index` (0-based) of `func`.
    Argument {
        /// The function owning the parameter.
        func: FuncId,
        /// 0-based position.
        index: u32,
    },
    /// The result of an instruction.
    Inst(InstId),
    /// The address of a global variable.
    Global(GlobalId),
    /// The address of a function.
    Function(FuncId),
    /// A constant.
    Constant(ConstKind),
    /// Inline assembly (`asm "..."`) used as a callee.
    InlineAsm,
    /// A metadata-as-value operand (`metadata !3` in intrinsic calls).
    Metadata,
    /// Anything else.
    Other,
}

/// The target of a call, `invoke` or `callbr`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Callee {
    /// The called operand is a function of this module (declared or defined).
    Direct(FuncId),
    /// The called operand is any other value (a loaded pointer, a constant
    /// expression, inline asm): this value.
    Indirect(ValueId),
}

/// Something that uses a value. One [`User`] is reported per use.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum User {
    /// An instruction operand (including a call's callee).
    Inst(InstId),
    /// A global variable's initializer.
    Global(GlobalId),
    /// A constant (aggregate or constant expression) that has the value as
    /// an element or operand.
    Const(ValueId),
}

/// One operand of a metadata node.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum MdOperand<'a> {
    /// Another node.
    Node(MdId),
    /// A metadata string `!"text"` (without quotes or escapes).
    String(&'a str),
    /// A value (`ptr @f`, `i32 1`).
    Value(ValueId),
    /// `null`.
    Null,
    /// An operand core does not model (a field of a specialized node such as
    /// `!DILocation`).
    Other,
}

/// Read-only view of a host module. Every `&self` query a pass may make.
///
/// # Conventions
/// - Ids passed in must come from this view; an id of the wrong kind or an
///   erased entity is a caller bug, and hosts may panic on it. Queries that
///   ask for a facet an entity does not have (the callee of a `store`)
///   return `None` or an empty iterator instead.
/// - "Layout order" is the order in which blocks and instructions are
///   printed in LLVM textual IR.
/// - Strings borrow from the host; names are given without the `@`/`%`
///   sigil and unescaped.
/// - Methods with a default body are optional capabilities: a host may
///   override them for speed or precision.
/// - The view is LLVM-shaped, the storage need not be: a host whose blocks
///   take arguments presents each argument of a non-entry block as a `phi`
///   (incoming values = the branch arguments, one per CFG edge), and a host
///   whose calls name callees by symbol reports those calls among the
///   users of the callee's [`IrView::func_value`]. `docs/embedding.md`
///   and `examples/tile-ir` show the mapping.
///
/// # Operand order
/// [`IrView::operands`] lists the *value* operands of an instruction in LLVM's
/// `User::operands()` order with basic-block operands left out: `store`
/// gives (value, pointer); `br` gives its condition (if any); `switch` the
/// condition then the case values; `phi` its incoming values (blocks through
/// [`IrView::phi_incoming`]); `call`/`invoke`/`callbr` give the arguments,
/// then operand-bundle operands, then the callee last. Indices into this
/// list are what [`IrEdit::set_operand`](super::IrEdit::set_operand) takes.
///
/// # Threads
/// With nvpass-core's `parallel` feature, [`SyncIfParallel`] is `Sync`, so
/// a view must answer queries from several threads at once (function-local
/// passes analyze functions in parallel through
/// [`par_map_funcs`](crate::par::par_map_funcs)); without the feature it
/// asks nothing. See [`crate::par`] for why the bound sits here.
pub trait IrView: TypeView + SyncIfParallel {
    // ---- module ------------------------------------------------------------

    /// The module's data layout (parsed from `target datalayout = "..."`, or
    /// the default layout if the module has none).
    fn data_layout(&self) -> &DataLayout;

    /// The module's `target triple`, if any.
    fn target_triple(&self) -> Option<&str> {
        None
    }

    // ---- functions ---------------------------------------------------------

    /// All functions (definitions and declarations) in module order.
    fn funcs(&self) -> impl Iterator<Item = FuncId> + '_;

    /// The function's name (`"foo"` for `@foo`).
    fn func_name(&self, f: FuncId) -> &str;

    /// Whether the function's name starts with `prefix` (`"llvm."` for
    /// intrinsics). Passes ask this of every call they look at; a host that
    /// stores names as bytes should compare the bytes, without checking
    /// that the whole name is UTF-8 as [`IrView::func_name`] must (a name
    /// that is not is then judged by its bytes, not as `""`).
    fn func_name_starts_with(&self, f: FuncId, prefix: &str) -> bool {
        self.func_name(f).starts_with(prefix)
    }

    /// Looks a function up by name.
    fn func_by_name(&self, name: &str) -> Option<FuncId> {
        self.funcs().find(|&f| self.func_name(f) == name)
    }

    /// The function's linkage.
    fn func_linkage(&self, f: FuncId) -> Linkage;

    /// `true` for a `declare` (no body), `false` for a `define`.
    fn func_is_declaration(&self, f: FuncId) -> bool;

    /// The function's calling convention.
    fn func_call_conv(&self, f: FuncId) -> CallConv;

    /// The function's type (a [`TypeKind::Func`]).
    fn func_type(&self, f: FuncId) -> TypeId;

    /// The value that denotes the function's address (its callee operand in
    /// direct calls).
    fn func_value(&self, f: FuncId) -> ValueId;

    /// The function's formal parameters as values ([`ValueKind::Argument`]),
    /// in order.
    fn params(&self, f: FuncId) -> impl Iterator<Item = ValueId> + '_;

    /// Parameter `index` of `f`; `None` if out of range.
    fn param(&self, f: FuncId, index: usize) -> Option<ValueId> {
        self.params(f).nth(index)
    }

    /// Number of formal parameters of `f`.
    fn num_params(&self, f: FuncId) -> usize {
        self.params(f).count()
    }

    /// The return type of `f` (`void` included).
    fn ret_type(&self, f: FuncId) -> TypeId {
        let fty = self.func_type(f);
        // A function's type is always a function type; fall back to the
        // function type itself only if a host breaks that invariant.
        self.func_type_ret(fty).unwrap_or(fty)
    }

    /// The attributes in one attribute list of `f` (function, return, or a
    /// parameter), in source order. Attribute groups (`#0`) are expanded.
    fn attrs(&self, f: FuncId, slot: AttrSlot) -> impl Iterator<Item = Attr<'_>> + '_;

    /// The types of the type attributes (`byval(T)`, `sret(T)`,
    /// `elementtype(T)`, ...) in the list `slot` of `f`, in the order of
    /// [`IrView::attrs`]. A host should answer without converting the
    /// other attributes, which [`IrView::attrs`] must.
    fn attr_types(&self, f: FuncId, slot: AttrSlot) -> impl Iterator<Item = TypeId> + '_ {
        self.attrs(f, slot).filter_map(|a| match a {
            Attr::Type(_, t) => Some(t),
            _ => None,
        })
    }

    /// Whether the list `slot` of `f` has an attribute with key `key`.
    fn has_attr(&self, f: FuncId, slot: AttrSlot, key: AttrKey<'_>) -> bool {
        self.attrs(f, slot).any(|a| key.matches(&a))
    }

    /// The attribute with key `key` in list `slot` of `f`, if present.
    fn attr(&self, f: FuncId, slot: AttrSlot, key: AttrKey<'_>) -> Option<Attr<'_>> {
        self.attrs(f, slot).find(|a| key.matches(a))
    }

    /// The value of string attribute `"key"="value"` on list `slot` of `f`
    /// (`""` for a bare `"key"`).
    fn str_attr(&self, f: FuncId, slot: AttrSlot, key: &str) -> Option<&str> {
        self.attrs(f, slot).find_map(|a| match a {
            Attr::Str(k, v) if k == key => Some(v),
            _ => None,
        })
    }

    /// The integer of an integer attribute (`align 8` gives 8).
    fn int_attr(&self, f: FuncId, slot: AttrSlot, kind: AttrKind) -> Option<u64> {
        self.attrs(f, slot).find_map(|a| match a {
            Attr::Int(k, v) if k == kind => Some(v),
            _ => None,
        })
    }

    /// The type of a type attribute (`byval(%T)` gives `%T`).
    fn type_attr(&self, f: FuncId, slot: AttrSlot, kind: AttrKind) -> Option<TypeId> {
        self.attrs(f, slot).find_map(|a| match a {
            Attr::Type(k, t) if k == kind => Some(t),
            _ => None,
        })
    }

    /// The blocks of `f` in layout order; the first is the entry block.
    /// Empty for declarations.
    fn blocks(&self, f: FuncId) -> impl Iterator<Item = BlockId> + '_;

    /// The entry block of `f`; `None` for declarations.
    fn entry_block(&self, f: FuncId) -> Option<BlockId> {
        self.blocks(f).next()
    }

    /// A function-level metadata attachment (`define ... !dbg !7`) by kind
    /// name without `!` (`"dbg"`).
    fn func_md(&self, _f: FuncId, _kind: &str) -> Option<MdId> {
        None
    }

    // ---- blocks ------------------------------------------------------------

    /// The function containing block `b`.
    fn block_func(&self, b: BlockId) -> FuncId;

    /// The block's label without `%`; `None` for unnamed (numbered) blocks.
    fn block_name(&self, b: BlockId) -> Option<&str>;

    /// The instructions of `b` in layout order (phis first, terminator last).
    fn insts(&self, b: BlockId) -> impl Iterator<Item = InstId> + '_;

    /// The terminator of `b`: its last instruction if that is a terminator.
    fn terminator(&self, b: BlockId) -> Option<InstId> {
        self.insts(b)
            .last()
            .filter(|&i| self.opcode(i).is_terminator())
    }

    /// The successor blocks of `b`, in the order the terminator names them,
    /// one entry per CFG edge (a `switch` naming a block twice yields it twice).
    fn successors(&self, b: BlockId) -> impl Iterator<Item = BlockId> + '_;

    /// The predecessor blocks of `b`, one entry per CFG edge, in an order
    /// that is deterministic for a given module but otherwise unspecified.
    fn predecessors(&self, b: BlockId) -> impl Iterator<Item = BlockId> + '_;

    // ---- instructions ------------------------------------------------------

    /// The block containing instruction `i`.
    fn inst_block(&self, i: InstId) -> BlockId;

    /// The instruction after `i` in its block (`None` after the last). The
    /// default walks the block; a host with linked instructions answers
    /// in constant time.
    fn next_inst(&self, i: InstId) -> Option<InstId> {
        let mut it = self.insts(self.inst_block(i));
        it.find(|&j| j == i)?;
        it.next()
    }

    /// The instruction before `i` in its block (`None` before the first).
    /// The default walks the block; a host with linked instructions
    /// answers in constant time.
    fn prev_inst(&self, i: InstId) -> Option<InstId> {
        let mut prev = None;
        for j in self.insts(self.inst_block(i)) {
            if j == i {
                return prev;
            }
            prev = Some(j);
        }
        None
    }

    /// The function containing instruction `i`.
    fn inst_func(&self, i: InstId) -> FuncId {
        self.block_func(self.inst_block(i))
    }

    /// The opcode of `i`.
    fn opcode(&self, i: InstId) -> Opcode;

    /// The value `i` defines; `None` for instructions of type `void`
    /// (`store`, `br`, calls returning `void`, ...).
    fn inst_result(&self, i: InstId) -> Option<ValueId>;

    /// The value operands of `i` (see "Operand order" on [`IrView`]).
    fn operands(&self, i: InstId) -> impl Iterator<Item = ValueId> + '_;

    /// Operand `index` of `i`; `None` if out of range.
    fn operand(&self, i: InstId, index: usize) -> Option<ValueId> {
        self.operands(i).nth(index)
    }

    /// Number of value operands of `i`.
    fn num_operands(&self, i: InstId) -> usize {
        self.operands(i).count()
    }

    /// The callee of a `call`/`invoke`/`callbr`; `None` for other opcodes.
    fn callee(&self, i: InstId) -> Option<Callee>;

    /// The function type a call site calls through (`call i32 (ptr, ...) @f`
    /// has `i32 (ptr, ...)`); `None` for non-calls.
    fn call_func_type(&self, i: InstId) -> Option<TypeId>;

    /// The actual arguments of a call site, in order (no bundle operands, no
    /// callee); empty for non-calls.
    fn call_args(&self, i: InstId) -> impl Iterator<Item = ValueId> + '_;

    /// The attributes of a call site's list `slot` (`call void @f() #3`,
    /// `call void @f(ptr noalias %p)`).
    fn call_attrs(&self, _i: InstId, _slot: AttrSlot) -> impl Iterator<Item = Attr<'_>> + '_ {
        core::iter::empty()
    }

    /// Whether the list `slot` of call site `i` has an attribute with key
    /// `key` (as [`IrView::has_attr`] for a function's lists).
    fn call_has_attr(&self, i: InstId, slot: AttrSlot, key: AttrKey<'_>) -> bool {
        self.call_attrs(i, slot).any(|a| key.matches(&a))
    }

    /// The calling convention of a call site (`call ptx_kernel void ...`);
    /// `None` for non-calls.
    fn call_conv(&self, _i: InstId) -> Option<CallConv> {
        None
    }

    /// The incoming (value, predecessor block) pairs of a `phi`, in order;
    /// empty for other opcodes.
    fn phi_incoming(&self, i: InstId) -> impl Iterator<Item = (ValueId, BlockId)> + '_;

    /// The allocated type of an `alloca` (`alloca [4 x i32]` gives
    /// `[4 x i32]`); `None` for other opcodes.
    fn alloca_type(&self, i: InstId) -> Option<TypeId>;

    /// The pointer operand of `load`, `store`, `atomicrmw` and `cmpxchg`;
    /// `None` for other opcodes.
    fn mem_ptr(&self, i: InstId) -> Option<ValueId>;

    /// Whether a `load`, `store`, `atomicrmw` or `cmpxchg` is `volatile`
    /// (`false` for other opcodes).
    fn is_volatile(&self, i: InstId) -> bool;

    /// The source element type of a `getelementptr` (`getelementptr i8, ...`
    /// gives `i8`); `None` for other opcodes.
    fn gep_source_type(&self, i: InstId) -> Option<TypeId>;

    /// The destination type of a cast instruction: the type of its result.
    fn cast_dest_type(&self, i: InstId) -> Option<TypeId> {
        if self.opcode(i).is_cast() {
            self.inst_result(i).map(|v| self.value_type(v))
        } else {
            None
        }
    }

    /// A metadata attachment of `i` by kind name without `!` (`"dbg"`,
    /// `"alias.scope"`, `"llvm.loop"`).
    fn inst_md(&self, i: InstId, kind: &str) -> Option<MdId>;

    /// The source location of `i` from its `!dbg` attachment, resolved to
    /// file/line/column. `None` when absent or when the host cannot resolve it.
    fn debug_loc(&self, _i: InstId) -> Option<DebugLoc> {
        None
    }

    // ---- values ------------------------------------------------------------

    /// What `v` denotes.
    fn value_kind(&self, v: ValueId) -> ValueKind;

    /// The type of `v` (for globals and functions: `ptr addrspace(N)`).
    fn value_type(&self, v: ValueId) -> TypeId;

    /// The name of `v` without sigil; `None` for unnamed values and constants.
    fn value_name(&self, v: ValueId) -> Option<&str>;

    /// Every use of `v`, one [`User`] per use (an instruction using `v` twice
    /// appears twice), from maintained def-use lists (no scanning).
    /// References from metadata (`!{ptr @f}`) are not uses.
    fn users(&self, v: ValueId) -> impl Iterator<Item = User> + '_;

    /// The instructions using `v`, one entry per use.
    fn inst_users(&self, v: ValueId) -> impl Iterator<Item = InstId> + '_ {
        self.users(v).filter_map(|u| match u {
            User::Inst(i) => Some(i),
            _ => None,
        })
    }

    /// The instructions that call `f` directly: those of
    /// [`IrView::inst_users`] of `f`'s value whose [`IrView::callee`] is
    /// `f`, one entry per use of `f` as [`IrView::inst_users`] gives them
    /// (a call passing `f` to itself as well appears twice).
    ///
    /// Call-graph walks ask this of every function, so a host that knows
    /// which operand a use is can answer without reading each user's
    /// callee operand; the answer must be the same.
    fn direct_calls_of(&self, f: FuncId) -> impl Iterator<Item = InstId> + '_ {
        self.inst_users(self.func_value(f))
            .filter(move |&c| self.callee(c) == Some(Callee::Direct(f)))
    }

    /// Whether `v` has no uses at all.
    fn has_no_uses(&self, v: ValueId) -> bool {
        self.users(v).next().is_none()
    }

    /// The value of an integer constant, sign-extended from its bit width;
    /// `None` if `v` is not an integer constant or is wider than 128 bits.
    fn const_int(&self, v: ValueId) -> Option<i128>;

    /// The value of an integer constant, zero-extended from its bit width.
    fn const_uint(&self, v: ValueId) -> Option<u128> {
        let value = self.const_int(v)?;
        match self.type_kind(self.value_type(v)) {
            TypeKind::Int(bits) if bits < 128 => Some((value as u128) & ((1u128 << bits) - 1)),
            _ => Some(value as u128),
        }
    }

    /// The IEEE bit pattern of a floating-point constant (in the low bits).
    fn const_float_bits(&self, _v: ValueId) -> Option<u128> {
        None
    }

    /// Elements of an aggregate constant, or operands of a constant
    /// expression, in order; empty for other values.
    fn const_operands(&self, _v: ValueId) -> impl Iterator<Item = ValueId> + '_ {
        core::iter::empty()
    }

    // ---- globals -----------------------------------------------------------

    /// All global variables in module order (functions excluded).
    fn globals(&self) -> impl Iterator<Item = GlobalId> + '_;

    /// The global's name (`"g"` for `@g`).
    fn global_name(&self, g: GlobalId) -> &str;

    /// Looks a global variable up by name.
    fn global_by_name(&self, name: &str) -> Option<GlobalId> {
        self.globals().find(|&g| self.global_name(g) == name)
    }

    /// The type of the global's contents (`@g = global [4 x i32] ...` gives
    /// `[4 x i32]`).
    fn global_value_type(&self, g: GlobalId) -> TypeId;

    /// The global's address space (`addrspace(3)` gives 3).
    fn global_addr_space(&self, g: GlobalId) -> u32;

    /// `constant` rather than `global`.
    fn global_is_constant(&self, g: GlobalId) -> bool;

    /// The initializer; `None` for external declarations.
    fn global_initializer(&self, g: GlobalId) -> Option<ValueId>;

    /// The global's linkage.
    fn global_linkage(&self, g: GlobalId) -> Linkage;

    /// The value that denotes the global's address.
    fn global_value(&self, g: GlobalId) -> ValueId;

    // ---- metadata ----------------------------------------------------------

    /// Names of all named metadata (`!nvvm.annotations` gives
    /// `"nvvm.annotations"`), in module order.
    fn named_md_names(&self) -> impl Iterator<Item = &str> + '_;

    /// The operands of named metadata `name`; empty if absent.
    fn named_md(&self, name: &str) -> impl Iterator<Item = MdId> + '_;

    /// The operands of a metadata node, in order.
    fn md_operands(&self, md: MdId) -> impl Iterator<Item = MdOperand<'_>> + '_;

    /// Whether the node is `distinct`.
    fn md_is_distinct(&self, md: MdId) -> bool;

    /// For a specialized node, its class name (`"DILocation"`); `None` for
    /// plain tuples `!{...}`.
    fn md_specialized_name(&self, _md: MdId) -> Option<&str> {
        None
    }

    // ---- layout ------------------------------------------------------------

    /// Bytes between consecutive elements of type `ty` in an array (LLVM
    /// `getTypeAllocSize`); `None` for unsized types.
    fn alloc_size(&self, ty: TypeId) -> Option<u64> {
        self.data_layout().alloc_size(self, ty)
    }

    /// Bytes written by a store of `ty` (LLVM `getTypeStoreSize`).
    fn store_size(&self, ty: TypeId) -> Option<u64> {
        self.data_layout().store_size(self, ty)
    }

    /// ABI alignment of `ty` in bytes (LLVM `getABITypeAlign`).
    fn abi_align(&self, ty: TypeId) -> Option<u64> {
        self.data_layout().abi_align(self, ty)
    }

    /// Size of a pointer in address space `addr_space`, in bytes.
    fn pointer_size(&self, addr_space: u32) -> u64 {
        self.data_layout().pointer_size(addr_space)
    }

    /// Field offsets, size and alignment of a struct type.
    fn struct_layout(&self, ty: TypeId) -> Option<StructLayout> {
        self.data_layout().struct_layout(self, ty)
    }

    // ---- debug-info operands -------------------------------------------------

    /// The value wrapped by a metadata-as-value operand `metadata <ty> %v`
    /// (as passed to `llvm.dbg.declare` / `llvm.dbg.value`): `%v`. `None`
    /// when `v` is not such a wrapper (including `metadata !N` node
    /// wrappers). The wrapped use is not reported by [`IrView::users`].
    fn metadata_value_operand(&self, _v: ValueId) -> Option<ValueId> {
        None
    }

    // ---- inlining support ----------------------------------------------------

    /// The explicit `align N` of an `alloca`, in bytes; `None` for other
    /// opcodes and for allocas without `align` (whose alignment is then the
    /// ABI alignment of [`IrView::alloca_type`]).
    fn alloca_align(&self, _i: InstId) -> Option<u64> {
        None
    }
}
