//! The tile IR itself: ids, types, ops, blocks with arguments, functions
//! whose body is one region, and the low-level mutations that keep the
//! use lists right. Nothing here knows about nvpass; `host.rs` maps it onto
//! nvpass-core's traits.
//!
//! # Invariants
//!
//! - Every use of a value is recorded in that value's `uses` list: op
//!   operands ([`Slot::Operand`]) and successor arguments
//!   ([`Slot::SuccArg`]). Calls name their callee by symbol; the call ops
//!   naming a function are listed in its `call_sites`.
//! - The arguments of a function's entry block are the function's
//!   parameters ([`ValueDef::Param`]); arguments of other blocks are
//!   [`ValueDef::BlockArg`] with their position.
//! - The last op of a block is its terminator (`br`, `cond_br`, `ret`,
//!   `unreachable`); only terminators have successors.
//! - Entities are never reused after erasure (they are tombstoned), so ids
//!   held in side tables stay sound.

use cranelift_entity::{entity_impl, PrimaryMap};
use hashbrown::HashMap;
use nvpass_core::datalayout::{DataLayout, NVPTX64_DATA_LAYOUT};
use nvpass_core::ir::{AttrKind, AttrSlot};

/// A function (`tile.func`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Func(u32);
entity_impl!(Func, "func");

/// A block of a function's region.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Block(u32);
entity_impl!(Block, "bb");

/// An operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Op(u32);
entity_impl!(Op, "op");

/// An SSA value: parameter, block argument, op result, constant, or the
/// address of a global or function.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Value(u32);
entity_impl!(Value, "v");

/// An interned type.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Ty(u32);
entity_impl!(Ty, "ty");

/// A module-level variable (`tile.global`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Global(u32);
entity_impl!(Global, "g");

/// A source location (`loc("file":line:col)`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Loc(u32);
entity_impl!(Loc, "loc");

/// A memory space, named the way the tile dialect spells it. The numbers
/// are the NVPTX address spaces they lower to.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum MemSpace {
    /// `generic` (0).
    Generic,
    /// `global` (1).
    Global,
    /// `shared` (3).
    Shared,
    /// `const` (4).
    Const,
    /// `local` (5).
    Local,
    /// Any other numbered space.
    Other(u32),
}

impl MemSpace {
    /// The NVPTX address-space number.
    pub const fn number(self) -> u32 {
        match self {
            MemSpace::Generic => 0,
            MemSpace::Global => 1,
            MemSpace::Shared => 3,
            MemSpace::Const => 4,
            MemSpace::Local => 5,
            MemSpace::Other(n) => n,
        }
    }

    /// The space with NVPTX number `n`.
    pub const fn from_number(n: u32) -> MemSpace {
        match n {
            0 => MemSpace::Generic,
            1 => MemSpace::Global,
            3 => MemSpace::Shared,
            4 => MemSpace::Const,
            5 => MemSpace::Local,
            n => MemSpace::Other(n),
        }
    }
}

/// The shape of a type.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum TypeData {
    /// No value.
    Void,
    /// `iN`.
    Int(u32),
    /// `f16`.
    F16,
    /// `f32`.
    F32,
    /// `f64`.
    F64,
    /// `!tile.ptr<space>`.
    Ptr(MemSpace),
    /// A struct; named structs are uniqued by name.
    Struct {
        /// `!tile.struct<"name", ...>`; `None` for literal structs.
        name: Option<String>,
        /// Field types.
        fields: Vec<Ty>,
    },
    /// `!tile.array<len x elem>`.
    Array {
        /// Element type.
        elem: Ty,
        /// Element count.
        len: u64,
    },
    /// A function signature.
    Func {
        /// Result type (`Void` for none).
        ret: Ty,
        /// Parameter types.
        params: Vec<Ty>,
        /// Takes extra arguments after `params` (only for declarations of
        /// external functions such as `vprintf`).
        vararg: bool,
    },
    /// `!tile.image`: an opaque texture/image handle.
    Image,
    /// `!tile.sampler`: an opaque sampler handle.
    Sampler,
}

/// Integer binary operations.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum BinOp {
    /// `tile.addi`
    Add,
    /// `tile.subi`
    Sub,
    /// `tile.muli`
    Mul,
    /// `tile.andi`
    And,
    /// `tile.ori`
    Or,
    /// `tile.xori`
    Xor,
    /// `tile.shli`
    Shl,
    /// `tile.shrui`
    LShr,
    /// `tile.addf`
    FAdd,
    /// `tile.mulf`
    FMul,
}

/// Comparison predicates of `tile.cmpi`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum CmpPred {
    /// `eq`
    Eq,
    /// `ne`
    Ne,
    /// `ult`
    Ult,
    /// `slt`
    Slt,
}

/// What an op does.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum OpKind {
    /// `tile.<binop> a, b`.
    Binary(BinOp),
    /// `tile.cmpi <pred>, a, b`.
    Cmp(CmpPred),
    /// `tile.exti` (`signed`: `tile.extsi`), integer widening.
    Ext {
        /// Sign- rather than zero-extension.
        signed: bool,
    },
    /// `tile.trunci`.
    Trunc,
    /// `tile.select c, a, b`.
    Select,
    /// `tile.alloca <ty>`: a local slot (`!tile.ptr<local>` in the tile
    /// dialect is written generic, as in LLVM's NVPTX lowering).
    Alloca {
        /// The allocated type.
        ty: Ty,
    },
    /// `tile.load ptr`.
    Load {
        /// Volatile access.
        volatile: bool,
    },
    /// `tile.store ptr, value` (note: pointer first).
    Store {
        /// Volatile access.
        volatile: bool,
    },
    /// `tile.atomic_add ptr, value`.
    AtomicAdd,
    /// `tile.ptradd ptr, bytes`: byte offset (the tile IR has no typed GEP).
    PtrAdd,
    /// `tile.cast_space value`: change a pointer's memory space.
    CastSpace,
    /// `tile.ptrtoint`.
    PtrToInt,
    /// `tile.inttoptr`.
    IntToPtr,
    /// `tile.br ^dest(args)`.
    Br,
    /// `tile.cond_br c, ^then(args), ^else(args)`.
    CondBr,
    /// `tile.return [value]`.
    Ret,
    /// `tile.unreachable`.
    Unreachable,
    /// `tile.call @callee(args) : sig` — the callee is a symbol, not an
    /// operand; `sig` is the signature the call was built with.
    Call {
        /// The called function.
        callee: Func,
        /// The signature at the call.
        sig: Ty,
    },
    /// `tile.call_indirect %fn(args) : sig` (callee is operand 0).
    CallIndirect {
        /// The signature at the call.
        sig: Ty,
    },
    /// A dialect op the passes do not know (`tile.mma`, `tile.barrier`, ...).
    Custom(String),
}

impl OpKind {
    /// Whether the op ends a block.
    pub fn is_terminator(&self) -> bool {
        matches!(
            self,
            OpKind::Br | OpKind::CondBr | OpKind::Ret | OpKind::Unreachable
        )
    }

    /// The tile dialect's op name.
    pub fn mnemonic(&self) -> &str {
        match self {
            OpKind::Binary(b) => match b {
                BinOp::Add => "tile.addi",
                BinOp::Sub => "tile.subi",
                BinOp::Mul => "tile.muli",
                BinOp::And => "tile.andi",
                BinOp::Or => "tile.ori",
                BinOp::Xor => "tile.xori",
                BinOp::Shl => "tile.shli",
                BinOp::LShr => "tile.shrui",
                BinOp::FAdd => "tile.addf",
                BinOp::FMul => "tile.mulf",
            },
            OpKind::Cmp(_) => "tile.cmpi",
            OpKind::Ext { signed: true } => "tile.extsi",
            OpKind::Ext { signed: false } => "tile.extui",
            OpKind::Trunc => "tile.trunci",
            OpKind::Select => "tile.select",
            OpKind::Alloca { .. } => "tile.alloca",
            OpKind::Load { .. } => "tile.load",
            OpKind::Store { .. } => "tile.store",
            OpKind::AtomicAdd => "tile.atomic_add",
            OpKind::PtrAdd => "tile.ptradd",
            OpKind::CastSpace => "tile.cast_space",
            OpKind::PtrToInt => "tile.ptrtoint",
            OpKind::IntToPtr => "tile.inttoptr",
            OpKind::Br => "tile.br",
            OpKind::CondBr => "tile.cond_br",
            OpKind::Ret => "tile.return",
            OpKind::Unreachable => "tile.unreachable",
            OpKind::Call { .. } => "tile.call",
            OpKind::CallIndirect { .. } => "tile.call_indirect",
            OpKind::Custom(name) => name,
        }
    }
}

/// A module-level constant (the tile IR has no constant expressions).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Const {
    /// An integer (sign-extended from its type's width).
    Int(i128),
    /// A float, by IEEE bits.
    Float(u128),
    /// The null pointer.
    Null,
    /// An undefined value.
    Undef,
    /// All zero bytes of an aggregate.
    Zero,
}

/// Where a value comes from.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum ValueDef {
    /// Parameter `index` of `func` (= argument `index` of its entry block).
    Param {
        /// The function.
        func: Func,
        /// 0-based position.
        index: u32,
    },
    /// Argument `index` of a non-entry block.
    BlockArg {
        /// The block.
        block: Block,
        /// 0-based position.
        index: u32,
    },
    /// The result of an op.
    Result(Op),
    /// A constant.
    Const(Const),
    /// The address of a global.
    GlobalAddr(Global),
    /// The address of a function.
    FuncAddr(Func),
    /// A placeholder for something the tile IR does not have (metadata
    /// wrapped as a value); never used by ops.
    Placeholder,
}

/// One use of a value.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Use {
    /// The using op.
    pub op: Op,
    /// Where in the op.
    pub slot: Slot,
}

/// A position in an op that holds a value.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Slot {
    /// Operand `n`.
    Operand(u32),
    /// Argument `arg` passed to successor `succ`.
    SuccArg {
        /// Successor index.
        succ: u32,
        /// Argument index.
        arg: u32,
    },
}

/// A value's definition, type, optional name and uses.
#[derive(Clone, Debug)]
pub struct ValueData {
    /// Definition.
    pub def: ValueDef,
    /// Type.
    pub ty: Ty,
    /// Name (for printing only).
    pub name: Option<String>,
    /// Uses, in insertion order.
    pub uses: Vec<Use>,
}

/// A branch target with the arguments passed to its block arguments.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Successor {
    /// Target block.
    pub block: Block,
    /// Arguments, one per block argument of `block`.
    pub args: Vec<Value>,
}

/// An attribute in a function's or call's discardable attribute
/// dictionary. The dedicated fields of [`FuncData`] (`kind`, `inline`)
/// hold what the tile dialect models natively.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum AttrEntry {
    /// A known unit attribute (`noalias`).
    Flag(AttrKind),
    /// A known attribute with an integer (`align = 16`).
    Int(AttrKind, u64),
    /// A known attribute with a type (`byval = !tile.struct<...>`).
    Type(AttrKind, Ty),
    /// `"key" = "value"`.
    Str(String, String),
    /// Anything else, verbatim.
    Opaque(String),
}

/// An operation.
#[derive(Clone, Debug)]
pub struct OpData {
    /// What it does.
    pub kind: OpKind,
    /// Value operands in tile order.
    pub operands: Vec<Value>,
    /// The result, if the op produces one.
    pub result: Option<Value>,
    /// Branch targets (terminators only).
    pub succs: Vec<Successor>,
    /// The containing block; `None` once erased.
    pub block: Option<Block>,
    /// Call-site attributes (calls only).
    pub attrs: Vec<(AttrSlot, AttrEntry)>,
    /// Source location.
    pub loc: Option<Loc>,
}

/// A block: arguments and ops in order.
#[derive(Clone, Debug)]
pub struct BlockData {
    /// The owning function.
    pub func: Func,
    /// Label (`^loop`).
    pub name: Option<String>,
    /// Block arguments (for the entry block: the function parameters).
    pub args: Vec<Value>,
    /// Ops in order; the last is the terminator.
    pub ops: Vec<Op>,
    /// Erased.
    pub dead: bool,
}

/// Whether a function is a kernel entry point or a device function.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum FuncKind {
    /// `tile.func ... device`.
    Device,
    /// `tile.func ... kernel`: launched from the host.
    Kernel,
}

/// The tile dialect's inlining policy of a function.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum InlinePolicy {
    /// No request.
    Default,
    /// `inline = always`.
    Always,
    /// `inline = never`.
    Never,
}

/// Symbol visibility and ODR-ness of a function or global.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Visibility {
    /// Visible to other modules, unique definition.
    Public,
    /// Visible only in this module.
    Private,
    /// One of several equivalent definitions across modules (templates).
    Odr,
    /// Like [`Visibility::Odr`] but the definition must be kept.
    WeakOdr,
}

/// A function: signature, attributes, and a body region (a list of
/// blocks; the first is the entry) unless it is a declaration.
#[derive(Clone, Debug)]
pub struct FuncData {
    /// Symbol name.
    pub name: String,
    /// Signature ([`TypeData::Func`]).
    pub sig: Ty,
    /// Kernel or device function.
    pub kind: FuncKind,
    /// Symbol visibility.
    pub visibility: Visibility,
    /// Inlining policy.
    pub inline: InlinePolicy,
    /// Parameter values.
    pub params: Vec<Value>,
    /// Discardable function attributes.
    pub attrs: Vec<AttrEntry>,
    /// Per-parameter attributes.
    pub param_attrs: Vec<Vec<AttrEntry>>,
    /// Result attributes.
    pub ret_attrs: Vec<AttrEntry>,
    /// The body region; `None` for declarations.
    pub body: Option<Vec<Block>>,
    /// The value naming the function's address.
    pub addr: Value,
    /// `tile.call` ops naming this function.
    pub call_sites: Vec<Op>,
    /// Erased.
    pub dead: bool,
}

/// A module-level variable.
#[derive(Clone, Debug)]
pub struct GlobalData {
    /// Symbol name.
    pub name: String,
    /// Contents type.
    pub ty: Ty,
    /// Memory space.
    pub space: MemSpace,
    /// Read-only.
    pub constant: bool,
    /// Initializer constant.
    pub init: Option<Value>,
    /// Visibility.
    pub visibility: Visibility,
    /// Address value.
    pub addr: Value,
    /// Erased.
    pub dead: bool,
}

/// Source location data.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct LocData {
    /// File name.
    pub file: String,
    /// Line.
    pub line: u32,
    /// Column.
    pub col: u32,
}

/// A tile IR module.
#[derive(Clone, Debug)]
pub struct Module {
    /// Functions.
    pub funcs: PrimaryMap<Func, FuncData>,
    /// Module order of functions.
    pub func_order: Vec<Func>,
    /// Globals (module order = id order).
    pub globals: PrimaryMap<Global, GlobalData>,
    /// Blocks.
    pub blocks: PrimaryMap<Block, BlockData>,
    /// Ops.
    pub ops: PrimaryMap<Op, OpData>,
    /// Values.
    pub values: PrimaryMap<Value, ValueData>,
    /// Types.
    pub types: PrimaryMap<Ty, TypeData>,
    /// Locations.
    pub locs: PrimaryMap<Loc, LocData>,
    type_index: HashMap<TypeData, Ty>,
    const_index: HashMap<(Const, Ty), Value>,
    loc_index: HashMap<LocData, Loc>,
    symbols: HashMap<String, Func>,
    /// Named lists of location ids (the only metadata the tile IR has).
    pub named_lists: Vec<(String, Vec<u32>)>,
    /// The `i8` type (byte offsets of `tile.ptradd`).
    pub i8_ty: Ty,
    /// The `void` type.
    pub void_ty: Ty,
    /// Data layout (always 64-bit NVPTX).
    pub layout: DataLayout,
}

impl Default for Module {
    fn default() -> Self {
        Self::new()
    }
}

impl Module {
    /// An empty module with the 64-bit NVPTX data layout.
    pub fn new() -> Module {
        let mut m = Module {
            funcs: PrimaryMap::new(),
            func_order: Vec::new(),
            globals: PrimaryMap::new(),
            blocks: PrimaryMap::new(),
            ops: PrimaryMap::new(),
            values: PrimaryMap::new(),
            types: PrimaryMap::new(),
            locs: PrimaryMap::new(),
            type_index: HashMap::new(),
            const_index: HashMap::new(),
            loc_index: HashMap::new(),
            symbols: HashMap::new(),
            named_lists: Vec::new(),
            i8_ty: Ty::from_u32(0),
            void_ty: Ty::from_u32(0),
            layout: DataLayout::parse(NVPTX64_DATA_LAYOUT).unwrap_or_default(),
        };
        m.void_ty = m.ty(TypeData::Void);
        m.i8_ty = m.ty(TypeData::Int(8));
        m
    }

    // ---- types -------------------------------------------------------------

    /// Interns a type.
    pub fn ty(&mut self, data: TypeData) -> Ty {
        if let Some(&t) = self.type_index.get(&data) {
            return t;
        }
        let t = self.types.push(data.clone());
        self.type_index.insert(data, t);
        t
    }

    /// `iN`.
    pub fn int_ty(&mut self, bits: u32) -> Ty {
        self.ty(TypeData::Int(bits))
    }

    /// `!tile.ptr<space>`.
    pub fn ptr_ty(&mut self, space: MemSpace) -> Ty {
        self.ty(TypeData::Ptr(space))
    }

    /// A signature.
    pub fn func_ty(&mut self, ret: Ty, params: &[Ty]) -> Ty {
        self.ty(TypeData::Func {
            ret,
            params: params.to_vec(),
            vararg: false,
        })
    }

    /// A named struct.
    pub fn struct_ty(&mut self, name: &str, fields: &[Ty]) -> Ty {
        self.ty(TypeData::Struct {
            name: Some(name.to_string()),
            fields: fields.to_vec(),
        })
    }

    /// An array.
    pub fn array_ty(&mut self, elem: Ty, len: u64) -> Ty {
        self.ty(TypeData::Array { elem, len })
    }

    /// The memory space of a pointer type.
    pub fn ptr_space(&self, t: Ty) -> Option<MemSpace> {
        match self.types[t] {
            TypeData::Ptr(s) => Some(s),
            _ => None,
        }
    }

    /// Parameter types and result of a signature.
    pub fn sig_parts(&self, sig: Ty) -> Option<(Ty, &[Ty])> {
        match &self.types[sig] {
            TypeData::Func { ret, params, .. } => Some((*ret, params)),
            _ => None,
        }
    }

    // ---- values ------------------------------------------------------------

    pub(crate) fn new_value(&mut self, def: ValueDef, ty: Ty) -> Value {
        self.values.push(ValueData {
            def,
            ty,
            name: None,
            uses: Vec::new(),
        })
    }

    /// The uniqued constant `c` of type `ty`.
    pub fn constant(&mut self, c: Const, ty: Ty) -> Value {
        if let Some(&v) = self.const_index.get(&(c, ty)) {
            return v;
        }
        let v = self.new_value(ValueDef::Const(c), ty);
        self.const_index.insert((c, ty), v);
        v
    }

    /// The integer constant `n` of type `iBITS`.
    pub fn const_int(&mut self, bits: u32, n: i128) -> Value {
        let ty = self.int_ty(bits);
        self.constant(Const::Int(sign_extend(n, bits)), ty)
    }

    /// Names a value (for printing).
    pub fn set_name(&mut self, v: Value, name: &str) {
        self.values[v].name = Some(name.to_string());
    }

    /// An interned source location.
    pub fn loc(&mut self, file: &str, line: u32, col: u32) -> Loc {
        let d = LocData {
            file: file.to_string(),
            line,
            col,
        };
        if let Some(&l) = self.loc_index.get(&d) {
            return l;
        }
        let l = self.locs.push(d.clone());
        self.loc_index.insert(d, l);
        l
    }

    // ---- symbols -----------------------------------------------------------

    /// Looks a live function up by name.
    pub fn func_named(&self, name: &str) -> Option<Func> {
        self.symbols.get(name).copied()
    }

    /// Whether `name` names a live function or global.
    pub fn symbol_taken(&self, name: &str) -> bool {
        self.symbols.contains_key(name) || self.globals.values().any(|g| !g.dead && g.name == name)
    }

    /// Adds a function (a declaration until [`Module::define`]) at the end
    /// of the module, or right after `after` when given.
    pub fn add_func_after(
        &mut self,
        name: &str,
        sig: Ty,
        kind: FuncKind,
        visibility: Visibility,
        after: Option<Func>,
    ) -> Func {
        let params_tys: Vec<Ty> = self
            .sig_parts(sig)
            .map(|(_, p)| p.to_vec())
            .unwrap_or_default();
        let addr_ty = self.ptr_ty(MemSpace::Generic);
        let addr = self.new_value(ValueDef::Placeholder, addr_ty);
        let f = self.funcs.push(FuncData {
            name: name.to_string(),
            sig,
            kind,
            visibility,
            inline: InlinePolicy::Default,
            params: Vec::new(),
            attrs: Vec::new(),
            param_attrs: vec![Vec::new(); params_tys.len()],
            ret_attrs: Vec::new(),
            body: None,
            addr,
            call_sites: Vec::new(),
            dead: false,
        });
        self.values[addr].def = ValueDef::FuncAddr(f);
        let params = params_tys
            .iter()
            .enumerate()
            .map(|(i, &t)| {
                self.new_value(
                    ValueDef::Param {
                        func: f,
                        index: i as u32,
                    },
                    t,
                )
            })
            .collect();
        self.funcs[f].params = params;
        self.symbols.insert(name.to_string(), f);
        match after.and_then(|a| self.func_order.iter().position(|&g| g == a)) {
            Some(pos) => self.func_order.insert(pos + 1, f),
            None => self.func_order.push(f),
        }
        f
    }

    /// Adds a function at the end of the module.
    pub fn add_func(&mut self, name: &str, sig: Ty, kind: FuncKind, vis: Visibility) -> Func {
        self.add_func_after(name, sig, kind, vis, None)
    }

    /// Gives `f` a body: an entry block whose arguments are `f`'s
    /// parameters. Returns the entry block.
    pub fn define(&mut self, f: Func) -> Block {
        let args = self.funcs[f].params.clone();
        let entry = self.blocks.push(BlockData {
            func: f,
            name: Some("entry".to_string()),
            args,
            ops: Vec::new(),
            dead: false,
        });
        self.funcs[f].body = Some(vec![entry]);
        entry
    }

    /// Appends a block with arguments of types `arg_tys` to `f`'s region.
    pub fn add_block(&mut self, f: Func, name: &str, arg_tys: &[Ty]) -> Block {
        let b = self.blocks.push(BlockData {
            func: f,
            name: Some(name.to_string()),
            args: Vec::new(),
            ops: Vec::new(),
            dead: false,
        });
        let args = arg_tys
            .iter()
            .enumerate()
            .map(|(i, &t)| {
                self.new_value(
                    ValueDef::BlockArg {
                        block: b,
                        index: i as u32,
                    },
                    t,
                )
            })
            .collect();
        self.blocks[b].args = args;
        if let Some(body) = self.funcs[f].body.as_mut() {
            body.push(b);
        }
        b
    }

    /// Adds a global.
    pub fn add_global(
        &mut self,
        name: &str,
        ty: Ty,
        space: MemSpace,
        init: Option<Value>,
        visibility: Visibility,
    ) -> Global {
        let addr_ty = self.ptr_ty(space);
        let addr = self.new_value(ValueDef::Placeholder, addr_ty);
        let g = self.globals.push(GlobalData {
            name: name.to_string(),
            ty,
            space,
            constant: false,
            init,
            visibility,
            addr,
            dead: false,
        });
        self.values[addr].def = ValueDef::GlobalAddr(g);
        g
    }

    // ---- ops ---------------------------------------------------------------

    /// Creates an op (with a result of type `result_ty` unless `None` or
    /// void) and inserts it into `block` at position `pos`.
    pub fn insert_op(
        &mut self,
        block: Block,
        pos: usize,
        kind: OpKind,
        operands: Vec<Value>,
        result_ty: Option<Ty>,
        succs: Vec<Successor>,
    ) -> Op {
        let callee = match kind {
            OpKind::Call { callee, .. } => Some(callee),
            _ => None,
        };
        let op = self.ops.push(OpData {
            kind,
            operands: Vec::new(),
            result: None,
            succs: Vec::new(),
            block: Some(block),
            attrs: Vec::new(),
            loc: None,
        });
        for (i, v) in operands.iter().enumerate() {
            self.values[*v].uses.push(Use {
                op,
                slot: Slot::Operand(i as u32),
            });
        }
        for (s, succ) in succs.iter().enumerate() {
            for (a, v) in succ.args.iter().enumerate() {
                self.values[*v].uses.push(Use {
                    op,
                    slot: Slot::SuccArg {
                        succ: s as u32,
                        arg: a as u32,
                    },
                });
            }
        }
        self.ops[op].operands = operands;
        self.ops[op].succs = succs;
        if let Some(t) = result_ty.filter(|&t| t != self.void_ty) {
            let r = self.new_value(ValueDef::Result(op), t);
            self.ops[op].result = Some(r);
        }
        if let Some(c) = callee {
            self.funcs[c].call_sites.push(op);
        }
        let ops = &mut self.blocks[block].ops;
        ops.insert(pos.min(ops.len()), op);
        op
    }

    /// The value in `slot` of `op`.
    pub fn slot_value(&self, op: Op, slot: Slot) -> Option<Value> {
        let d = &self.ops[op];
        match slot {
            Slot::Operand(i) => d.operands.get(i as usize).copied(),
            Slot::SuccArg { succ, arg } => d
                .succs
                .get(succ as usize)
                .and_then(|s| s.args.get(arg as usize))
                .copied(),
        }
    }

    /// Makes `slot` of `op` hold `new`, maintaining use lists (no type check).
    pub fn set_slot(&mut self, op: Op, slot: Slot, new: Value) {
        let Some(old) = self.slot_value(op, slot) else {
            return;
        };
        remove_use(&mut self.values[old].uses, Use { op, slot });
        self.values[new].uses.push(Use { op, slot });
        let d = &mut self.ops[op];
        match slot {
            Slot::Operand(i) => d.operands[i as usize] = new,
            Slot::SuccArg { succ, arg } => d.succs[succ as usize].args[arg as usize] = new,
        }
    }

    /// Detaches `op` from its block, dropping its uses of other values and
    /// its call-site registration. The result (if any) must be unused.
    pub fn remove_op(&mut self, op: Op) {
        let d = self.ops[op].clone();
        for (i, v) in d.operands.iter().enumerate() {
            remove_use(
                &mut self.values[*v].uses,
                Use {
                    op,
                    slot: Slot::Operand(i as u32),
                },
            );
        }
        for (s, succ) in d.succs.iter().enumerate() {
            for (a, v) in succ.args.iter().enumerate() {
                remove_use(
                    &mut self.values[*v].uses,
                    Use {
                        op,
                        slot: Slot::SuccArg {
                            succ: s as u32,
                            arg: a as u32,
                        },
                    },
                );
            }
        }
        if let OpKind::Call { callee, .. } = d.kind {
            self.funcs[callee].call_sites.retain(|&c| c != op);
        }
        if let Some(b) = d.block {
            self.blocks[b].ops.retain(|&o| o != op);
        }
        self.ops[op].block = None;
    }

    /// Points call `op` at `callee` with signature `sig`.
    pub fn retarget_call(&mut self, op: Op, callee: Func, sig: Ty) {
        if let OpKind::Call { callee: old, .. } = self.ops[op].kind {
            self.funcs[old].call_sites.retain(|&c| c != op);
        }
        self.ops[op].kind = OpKind::Call { callee, sig };
        self.funcs[callee].call_sites.push(op);
    }

    /// Replaces every use of `old` by `new` (no type check); calls naming
    /// `old`'s function are retargeted when both are function addresses.
    pub fn replace_uses(&mut self, old: Value, new: Value) {
        if old == new {
            return;
        }
        for u in self.values[old].uses.clone() {
            self.set_slot(u.op, u.slot, new);
        }
        if let (ValueDef::FuncAddr(f), ValueDef::FuncAddr(g)) =
            (self.values[old].def, self.values[new].def)
        {
            for c in self.funcs[f].call_sites.clone() {
                let sig = match self.ops[c].kind {
                    OpKind::Call { sig, .. } => sig,
                    _ => continue,
                };
                self.retarget_call(c, g, sig);
            }
        }
        for g in self.globals.values_mut() {
            if g.init == Some(old) {
                g.init = Some(new);
            }
        }
    }

    /// Edges into `b`: (predecessor block, terminator, successor index), in
    /// layout order of the predecessors and successor order.
    pub fn edges_into(&self, b: Block) -> Vec<(Block, Op, u32)> {
        let f = self.blocks[b].func;
        let mut out = Vec::new();
        for &p in self.funcs[f].body.iter().flatten() {
            let Some(&t) = self.blocks[p].ops.last() else {
                continue;
            };
            for (s, succ) in self.ops[t].succs.iter().enumerate() {
                if succ.block == b {
                    out.push((p, t, s as u32));
                }
            }
        }
        out
    }

    /// The live functions in module order.
    pub fn live_funcs(&self) -> impl Iterator<Item = Func> + '_ {
        self.func_order
            .iter()
            .copied()
            .filter(|&f| !self.funcs[f].dead)
    }

    /// The blocks of `f`'s region (empty for declarations).
    pub fn func_blocks(&self, f: Func) -> &[Block] {
        self.funcs[f].body.as_deref().unwrap_or(&[])
    }

    /// The function containing `op`, if attached.
    pub fn op_func(&self, op: Op) -> Option<Func> {
        self.ops[op].block.map(|b| self.blocks[b].func)
    }

    /// Removes `f` from the symbol table and the module order.
    pub(crate) fn unlink_func(&mut self, f: Func) {
        self.symbols.remove(&self.funcs[f].name);
        self.func_order.retain(|&g| g != f);
        self.funcs[f].dead = true;
    }
}

/// Removes one occurrence of `u` from a use list.
fn remove_use(uses: &mut Vec<Use>, u: Use) {
    if let Some(pos) = uses.iter().position(|&x| x == u) {
        uses.remove(pos);
    }
}

/// `n` truncated to `bits` and sign-extended back.
pub fn sign_extend(n: i128, bits: u32) -> i128 {
    if bits == 0 || bits >= 128 {
        return n;
    }
    let shift = 128 - bits;
    (n << shift) >> shift
}
