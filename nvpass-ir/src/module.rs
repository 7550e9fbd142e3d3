//! The module: arenas for every IR object, the layout (block and instruction
//! order as intrusive doubly linked lists), and the mutation primitives that
//! keep use lists exact.

use crate::attr::{Attr, AttrGroup, AttrList, AttrSet};
use crate::direct::DirectMap;
use crate::entity::{Alias, Block, ConstId, Func, Global, Inst, Md, Seg, Sym, Type, Value};
use crate::inst::{CallConv, CallData, Extra, InstData, InstFlags, Opcode, TailKind};
use crate::intern::Interner;
use crate::metadata::{Attachment, MdNode, NamedMd};
use crate::pool::{Pool, PoolRange};
use crate::short::ShortVec;
use crate::types::TypeTable;
use crate::value::{Const, ConstKey, Operand, Use, UseList, User, ValueData, ValueKind, Wide};
use alloc::boxed::Box;
use alloc::sync::Arc;
use alloc::vec::Vec;
use cranelift_entity::packed_option::PackedOption;
use cranelift_entity::{EntityRef, PrimaryMap, SecondaryMap};
use hashbrown::HashMap;
use smallvec::SmallVec;

/// Linkage types.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum Linkage {
    /// Default external linkage (printed as nothing).
    #[default]
    External,
    /// `private`.
    Private,
    /// `internal`.
    Internal,
    /// `available_externally`.
    AvailableExternally,
    /// `linkonce`.
    LinkOnce,
    /// `weak`.
    Weak,
    /// `common`.
    Common,
    /// `appending`.
    Appending,
    /// `extern_weak`.
    ExternWeak,
    /// `linkonce_odr`.
    LinkOnceOdr,
    /// `weak_odr`.
    WeakOdr,
}

impl Linkage {
    /// Keyword, empty for external.
    pub fn keyword(self) -> &'static str {
        match self {
            Linkage::External => "",
            Linkage::Private => "private",
            Linkage::Internal => "internal",
            Linkage::AvailableExternally => "available_externally",
            Linkage::LinkOnce => "linkonce",
            Linkage::Weak => "weak",
            Linkage::Common => "common",
            Linkage::Appending => "appending",
            Linkage::ExternWeak => "extern_weak",
            Linkage::LinkOnceOdr => "linkonce_odr",
            Linkage::WeakOdr => "weak_odr",
        }
    }

    /// Parses a linkage keyword.
    pub fn from_keyword(kw: &[u8]) -> Option<Linkage> {
        Some(match kw {
            b"private" => Linkage::Private,
            b"internal" => Linkage::Internal,
            b"available_externally" => Linkage::AvailableExternally,
            b"linkonce" => Linkage::LinkOnce,
            b"weak" => Linkage::Weak,
            b"common" => Linkage::Common,
            b"appending" => Linkage::Appending,
            b"extern_weak" => Linkage::ExternWeak,
            b"linkonce_odr" => Linkage::LinkOnceOdr,
            b"weak_odr" => Linkage::WeakOdr,
            b"external" => Linkage::External,
            _ => return None,
        })
    }

    /// True when another definition may replace this one at link time.
    pub fn is_interposable(self) -> bool {
        matches!(
            self,
            Linkage::LinkOnce | Linkage::Weak | Linkage::Common | Linkage::ExternWeak
        )
    }

    /// True for `internal` and `private`.
    pub fn is_local(self) -> bool {
        matches!(self, Linkage::Internal | Linkage::Private)
    }
}

/// Keywords that sit between linkage and type on a global or function and
/// that nvpass does not interpret: preemption, visibility, DLL storage,
/// `thread_local(...)`, `unnamed_addr`, `local_unnamed_addr`,
/// `externally_initialized`. Kept in source order, verbatim.
pub type Keywords = SmallVec<[Sym; 2]>;

/// A function parameter.
#[derive(Clone, Debug)]
pub struct Param {
    /// The argument value (its type and name live there).
    pub value: Value,
    /// Parameter attributes.
    pub attrs: AttrSet,
}

/// A function.
#[derive(Clone, Debug)]
pub struct FuncData {
    /// The function's name without `@` (unnamed functions are numbered by
    /// the printer; their name is `None` in [`ValueData`]).
    pub value: Value,
    /// `define` (true) or `declare` (false).
    pub is_definition: bool,
    /// Linkage.
    pub linkage: Linkage,
    /// Preemption / visibility / DLL / `unnamed_addr` keywords, verbatim,
    /// in source order (printed after the linkage).
    pub keywords: Keywords,
    /// Calling convention.
    pub cc: CallConv,
    /// Return attributes.
    pub ret_attrs: AttrSet,
    /// The function type.
    pub ty: Type,
    /// Parameters.
    pub params: Vec<Param>,
    /// `unnamed_addr` / `local_unnamed_addr` after the parameter list.
    pub unnamed_addr: Option<Sym>,
    /// Function attributes.
    pub fn_attrs: AttrSet,
    /// The header parts most functions leave out; `None` when all are
    /// absent. Read with [`FuncData::extras`], write with
    /// [`FuncData::extras_mut`].
    pub extras: Option<Box<FuncExtras>>,
    /// Function metadata attachments (`!dbg !5`).
    pub md: ShortVec<Attachment, 1>,
    /// First block in layout order.
    pub first_block: PackedOption<Block>,
    /// Last block in layout order.
    pub last_block: PackedOption<Block>,
    /// Removed from the module (kept in the arena so ids stay valid).
    pub erased: bool,
}

/// The parts of a function header that most functions leave out, kept
/// behind one pointer in [`FuncData`]: 80 bytes that almost every function
/// would otherwise carry empty.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FuncExtras {
    /// `addrspace(N)` after the parameter list.
    pub addrspace: Option<u32>,
    /// `section "..."`.
    pub section: Option<Sym>,
    /// `partition "..."`.
    pub partition: Option<Sym>,
    /// `comdat` (`Some(None)`) or `comdat($name)` (`Some(Some(name))`).
    pub comdat: Option<Option<Sym>>,
    /// `align N`.
    pub align: Option<u64>,
    /// `gc "name"`.
    pub gc: Option<Sym>,
    /// Personality (operand 0), prefix (1), prologue (2) values.
    pub extra_ops: [Option<Operand>; 3],
}

/// What [`FuncData::extras`] reads for a function without any.
static NO_EXTRAS: FuncExtras = FuncExtras {
    addrspace: None,
    section: None,
    partition: None,
    comdat: None,
    align: None,
    gc: None,
    extra_ops: [None; 3],
};

impl FuncExtras {
    /// The box for `self`, or `None` when every part is absent.
    pub fn boxed(self) -> Option<Box<FuncExtras>> {
        (self != NO_EXTRAS).then(|| Box::new(self))
    }
}

impl FuncData {
    /// The optional header parts (all absent for most functions).
    #[inline]
    pub fn extras(&self) -> &FuncExtras {
        self.extras.as_deref().unwrap_or(&NO_EXTRAS)
    }

    /// The optional header parts, writable (boxed on first write).
    pub fn extras_mut(&mut self) -> &mut FuncExtras {
        self.extras.get_or_insert_with(Box::default)
    }
}

/// A basic block.
#[derive(Clone, Debug)]
pub struct BlockData {
    /// Label, `None` when unnamed (numbered by the printer).
    pub name: Option<Sym>,
    /// Parent function.
    pub func: Func,
    /// First instruction.
    pub first: PackedOption<Inst>,
    /// Last instruction.
    pub last: PackedOption<Inst>,
    /// Previous block in the function.
    pub prev: PackedOption<Block>,
    /// Next block in the function.
    pub next: PackedOption<Block>,
    /// Detached from its function.
    pub erased: bool,
    /// The label its instructions carry (see [`Module::block_of`]).
    pub seg: Seg,
}

/// A global variable.
#[derive(Clone, Debug)]
pub struct GlobalData {
    /// The global's address (a `ptr addrspace(N)` value).
    pub value: Value,
    /// Linkage.
    pub linkage: Linkage,
    /// Keywords between linkage and `global`/`constant`, verbatim, in order.
    pub keywords: Keywords,
    /// `addrspace(N)`.
    pub addrspace: u32,
    /// `constant` (true) or `global` (false).
    pub is_constant: bool,
    /// The value type.
    pub value_ty: Type,
    /// The initializer (operand 0), if any.
    pub init: Option<Operand>,
    /// Trailing `, key ...` pieces (`section`, `align`, `comdat`,
    /// `partition`, `code_model`, sanitizer flags), verbatim, in order.
    /// `align` is also decoded into [`GlobalData::align`].
    pub tail: SmallVec<[Sym; 2]>,
    /// `align N`, decoded from the tail.
    pub align: Option<u64>,
    /// Attribute groups (`#N`) of the global.
    pub attrs: AttrSet,
    /// Metadata attachments.
    pub md: ShortVec<Attachment, 1>,
    /// Removed from the module.
    pub erased: bool,
}

/// An alias or ifunc.
#[derive(Clone, Debug)]
pub struct AliasData {
    /// The alias's value.
    pub value: Value,
    /// `ifunc` (true) or `alias` (false).
    pub is_ifunc: bool,
    /// Linkage.
    pub linkage: Linkage,
    /// Keywords, verbatim, in order.
    pub keywords: Keywords,
    /// The value type.
    pub value_ty: Type,
    /// Aliasee / resolver (operand 0).
    pub target: Operand,
    /// Trailing `, partition "..."` etc. verbatim.
    pub tail: SmallVec<[Sym; 1]>,
}

/// Top-level entities in source order, so the printer can keep the
/// module's layout.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum TopLevel {
    /// A global variable.
    Global(Global),
    /// A function.
    Func(Func),
    /// An alias or ifunc.
    Alias(Alias),
}

/// The global symbol table: the function, variable or alias each global
/// name denotes, by the name's interned symbol. Symbols are dense indices,
/// so the table is an array indexed by symbol and a lookup is one read
/// (the reader looks up every global operand; a hash table would probe
/// its control bytes and then a bucket, two places a large module does
/// not keep in the processor cache). Names of locals are symbols too and
/// leave holes; the array holds four bytes per symbol.
#[derive(Clone, Default)]
pub struct SymbolTable {
    by_sym: SecondaryMap<Sym, PackedOption<Value>>,
}

impl SymbolTable {
    /// The value named `s`.
    #[inline]
    pub fn get(&self, s: Sym) -> Option<Value> {
        self.by_sym.get(s).and_then(|v| v.expand())
    }

    /// Whether some value is named `s`.
    #[inline]
    pub fn contains(&self, s: Sym) -> bool {
        self.get(s).is_some()
    }

    /// Names `v` by `s`; returns the value `s` named before.
    pub fn insert(&mut self, s: Sym, v: Value) -> Option<Value> {
        self.by_sym.insert(s, v.into()).and_then(|o| o.expand())
    }

    /// Forgets name `s`; returns the value it named.
    pub fn remove(&mut self, s: Sym) -> Option<Value> {
        self.by_sym.get_mut(s)?.take()
    }

    /// Every (name, value) pair, in order of the names' symbols.
    pub fn iter(&self) -> impl Iterator<Item = (Sym, Value)> + '_ {
        self.by_sym
            .iter()
            .filter_map(|(s, v)| Some((s, v.expand()?)))
    }
}

/// A module of LLVM IR.
#[derive(Clone, Default)]
pub struct Module {
    /// Interned strings.
    pub strings: Interner,
    /// Interned types.
    pub types: TypeTable,
    /// `source_filename = "..."`.
    pub source_filename: Option<Sym>,
    /// `target datalayout = "..."`.
    pub datalayout: Option<Sym>,
    /// `target triple = "..."`.
    pub triple: Option<Sym>,
    /// `module asm "..."` lines, in order.
    pub module_asm: Vec<Sym>,
    /// `$name = comdat kind` definitions: (name, kind).
    pub comdats: Vec<(Sym, Sym)>,
    /// All values.
    pub values: PrimaryMap<Value, ValueData>,
    /// The payloads of constant values ([`ValueKind::Const`]).
    pub const_data: PrimaryMap<ConstId, Const>,
    /// All instructions.
    pub insts: PrimaryMap<Inst, InstData>,
    /// All blocks.
    pub blocks: PrimaryMap<Block, BlockData>,
    /// The block of each instruction label (see [`Seg`]).
    pub segs: PrimaryMap<Seg, Block>,
    /// All functions.
    pub funcs: PrimaryMap<Func, FuncData>,
    /// All global variables.
    pub globals: PrimaryMap<Global, GlobalData>,
    /// All aliases and ifuncs.
    pub aliases: PrimaryMap<Alias, AliasData>,
    /// Globals, functions and aliases in module order. Erased functions
    /// and globals (their `erased` flag set) may still be listed until
    /// they make up half of the list, when they are all dropped at once
    /// (removing each one at once would cost a pass over the list per
    /// erasure): [`Module::func_ids`] and [`Module::global_ids`] skip them.
    pub order: Vec<TopLevel>,
    /// Attribute groups in source order.
    pub attr_groups: Vec<AttrGroup>,
    /// Metadata nodes.
    pub mds: PrimaryMap<Md, MdNode>,
    /// The `!N` number of each numbered node, in printing order.
    pub md_numbered: Vec<(u32, Md)>,
    /// Named metadata in source order.
    pub named_md: Vec<NamedMd>,
    /// Lines nvpass does not model (e.g. `uselistorder` directives), kept
    /// verbatim and printed at the end.
    pub verbatim: Vec<Sym>,
    /// Global symbol table: name -> value (functions, globals, aliases).
    pub symbols: SymbolTable,
    pub(crate) consts: HashMap<ConstKey, Value>,
    /// Operands of the values that have them: aggregate constants,
    /// constant expressions and metadata wrapping a value. Read them with
    /// [`Module::value_ops`]. They live here, not in [`ValueData`], because
    /// almost every value is an instruction result or an argument: a slice
    /// in each value would cost 16 bytes of each.
    pub(crate) value_ops: HashMap<Value, Box<[Operand]>>,
    /// The value operand lists of all instructions (see [`crate::pool`]).
    pub(crate) op_pool: Pool<Operand>,
    /// The block operand lists of all instructions.
    pub(crate) block_pool: Pool<Block>,
    /// The metadata attachment lists of all instructions.
    pub(crate) md_pool: Pool<Attachment>,
    /// The user lists of values with more than one use ([`UseList`]).
    pub(crate) use_pool: Pool<Use>,
    /// Every call-site payload made by the reader or stored by an edit:
    /// calls with equal payloads share one (see [`CallData`]). Entries no
    /// call holds any more are dropped whenever the table has doubled
    /// since the last sweep.
    pub(crate) call_data: hashbrown::HashSet<Arc<CallData>>,
    /// The shared payloads of recent plain calls (see [`PlainCall`]), so
    /// that most calls find theirs without hashing a whole payload. Its
    /// entries keep at most [`PLAIN_CALL_SLOTS`] payloads from being swept.
    pub(crate) plain_calls: DirectMap<PlainCall, Arc<CallData>, PLAIN_CALL_SLOTS>,
    /// Recent integer constants that fit in 64 bits, by type and value,
    /// so that the reader finds `i32 0` and the like again without hashing
    /// a [`ConstKey`]. Entries come from `consts`, whose entries never
    /// change, so a hit is what `consts` would answer.
    pub(crate) small_ints: DirectMap<(Type, i64), Value, SMALL_INT_SLOTS>,
    /// Every attribute list made by the reader or stored by an edit,
    /// shared and swept the same way.
    pub(crate) attr_lists: hashbrown::HashSet<AttrList>,
    /// The last few edits of a function's attribute set and their shared
    /// results (see [`SetEdit`]), so that a pass marking thousands of
    /// functions that share one set computes the edited set once.
    pub(crate) set_edits: [Option<SetEdit>; SET_EDIT_SLOTS],
    /// The entry of `set_edits` the next new edit replaces.
    pub(crate) set_edit_next: usize,
    /// Table sizes at which `call_data` and `attr_lists` are next swept.
    pub(crate) shared_sweep_at: (usize, usize),
    /// The parsed data layout, computed on first use.
    pub(crate) layout: LayoutCell,
    /// The next free `!N` number, once computed (see `alloc_md_number`).
    pub(crate) md_next: Option<u32>,
    /// For inlining's renaming (`uniquify_inlined_names`): per function,
    /// then per base name, the first `.iN` suffix number not yet tried.
    /// Only a starting point: a candidate is still checked against the
    /// caller's names, so a stale entry costs a probe, never a clash. A
    /// function's table goes with the function when it is erased, so the
    /// tables in use stay as small as the functions still receiving code.
    pub(crate) inline_suffix: HashMap<Func, HashMap<Sym, u32>>,
    /// Erased functions and globals still listed in `order`.
    pub(crate) order_erased: usize,
    /// Where in `order` the last clone went: the next lookup starts there
    /// (see [`Module::order_position`]).
    pub(crate) order_hint: usize,
    /// For inlining's renaming: per function that has received inlined
    /// code, every name of the form `x.i` or `x.iN` its parameters, blocks
    /// and instructions carry. Created by the first inline into the
    /// function, then kept exact as names enter and leave it (instructions
    /// and blocks attached, detached or erased here, the renaming itself),
    /// so later inlines into it need not walk it. A name written directly
    /// into a `name` field of such a function's value or block is not
    /// seen: call [`Module::forget_inline_names`] after doing that.
    pub(crate) inline_names: HashMap<Func, hashbrown::HashSet<Sym>>,
    /// For replacing a value's references from metadata when a function
    /// or global is replaced or erased: the nodes whose operands name each
    /// value, built on first need and extended by the nodes added since
    /// (see [`MdValueIndex`]). Nodes changed in place to name another
    /// value are not seen: call [`Module::forget_md_value_index`] after
    /// writing operands of existing nodes directly.
    pub(crate) md_value_index: Option<MdValueIndex>,
    /// Records of erased functions and of their instructions, waiting for
    /// [`Module::reclaim_erased`] (see [`Retired`]).
    pub(crate) retired: Retired,
}

/// The records of erased functions' bodies, first retired, then free.
///
/// A function's erasure keeps its blocks', instructions' and results'
/// records where they are, so that ids a pass still holds keep naming
/// what they named. Once the pass says it holds none
/// ([`Module::reclaim_erased`]), the records are free, and new
/// instructions and values take them before growing their tables. A
/// chain of helpers inlined one into the next erases, level after level,
/// a body as large as the one it copies: without reuse the tables would
/// hold every copy ever made.
#[derive(Clone, Debug, Default)]
pub(crate) struct Retired {
    /// Instructions of functions erased since the last reclaim.
    pub(crate) insts: Vec<Inst>,
    /// Blocks of functions erased since the last reclaim.
    pub(crate) blocks: Vec<Block>,
    /// Instruction records free for new instructions.
    pub(crate) free_insts: Vec<Inst>,
    /// Value records free for new values.
    pub(crate) free_values: Vec<Value>,
}

/// Which metadata nodes name a value among their operands (`!{ptr @f}`),
/// so that replacing the references to one value visits those nodes only,
/// not every node of the module (which made erasing `n` functions cost
/// `n` times the module's metadata).
#[derive(Clone, Debug, Default)]
pub(crate) struct MdValueIndex {
    /// Nodes `0..scanned` are indexed.
    pub(crate) scanned: usize,
    /// Value to the nodes naming it (a node may be listed once per
    /// operand; a listed node may no longer name it).
    pub(crate) nodes: HashMap<Value, SmallVec<[Md; 2]>>,
}

/// Bytes of module text per record that [`Module::reserve_for_text`]
/// makes room for: below what the corpus and generated modules hold, so
/// the room usually suffices. Measured, in bytes of text per record
/// (instruction, value, operand slot, pooled use, block operand, metadata
/// attachment): libdevice 72, 88, 38, 34, 126, 22,000; the 50 MB
/// generated module 84, 82, 47, 48, 386, 226.
pub const TEXT_BYTES_PER_RECORD: TextBytesPerRecord = TextBytesPerRecord {
    inst: 48,
    value: 48,
    operand: 24,
    pooled_use: 24,
    block_operand: 96,
    attachment: 192,
};

/// Bytes of module text per record of each kind (see
/// [`TEXT_BYTES_PER_RECORD`]).
#[derive(Copy, Clone, Debug)]
pub struct TextBytesPerRecord {
    /// Per instruction.
    pub inst: usize,
    /// Per value.
    pub value: usize,
    /// Per value operand slot.
    pub operand: usize,
    /// Per slot of the use pool.
    pub pooled_use: usize,
    /// Per block operand slot.
    pub block_operand: usize,
    /// Per metadata attachment slot.
    pub attachment: usize,
}

/// The instruction and value tables keep room for one record per this
/// many once a module is read (see `Module::settle_after_reading`):
/// a quarter, as a large list pool grows
/// ([`QUARTER_GROWTH_FROM`](crate::pool::QUARTER_GROWTH_FROM)). Room is
/// address space until a record is written to it.
pub const TABLE_ROOM_AFTER_READING: usize = 4;

/// How many dead slots per live one a pool must have for a reclaim
/// ([`Module::reclaim_erased`]) to offer it a compaction. A pass may
/// reclaim after every few edits, and a compaction sorts every live list:
/// at two dead slots per live one, a compaction sorts at most half a list
/// per slot it reclaims (at the third of the pool that
/// [`Pool::wants_compact`] asks for, two), and the pool stays within three
/// times its live slots.
const RECLAIM_COMPACT_DEAD_PER_LIVE: usize = 2;

/// Whether a reclaim offers `pool` a compaction (see
/// [`RECLAIM_COMPACT_DEAD_PER_LIVE`]).
fn reclaim_wants_compact<T: Copy>(pool: &Pool<T>) -> bool {
    let (slots, live) = (pool.slot_count(), pool.live_count());
    slots - live >= RECLAIM_COMPACT_DEAD_PER_LIVE * live
}

/// Compacts `pool`, one of the instructions' list pools (`field` picks an
/// instruction's range in it): with `exact` whenever it has dead slots and
/// dropping spare room (see [`Module::compact_pools`]), otherwise only when
/// enough of it is dead ([`Pool::wants_compact`]).
fn compact_inst_pool<T: Copy>(
    pool: &mut Pool<T>,
    insts: &mut PrimaryMap<Inst, InstData>,
    field: fn(&mut InstData) -> &mut PoolRange,
    exact: bool,
) {
    let due = if exact {
        pool.has_dead()
    } else {
        pool.wants_compact(insts.len())
    };
    if !due {
        return;
    }
    compact_records(pool, insts, |d| Some(field(d)), exact);
}

/// Compacts `pool` over the lists its owner keeps in `records`, at most
/// one per record (`range` finds it). The lists are sorted as (start,
/// record) pairs packed in one word each, not as references: sorting
/// references would read a record, spread over the owner's table, at
/// every comparison.
fn compact_records<T: Copy, K: cranelift_entity::EntityRef, R>(
    pool: &mut Pool<T>,
    records: &mut PrimaryMap<K, R>,
    range: impl Fn(&mut R) -> Option<&mut PoolRange>,
    exact: bool,
) {
    // Room for every list at once, as `Pool::compact` reserves: at most
    // one per record, and no more than the pool's bound on its lists.
    let mut order: Vec<u64> = Vec::with_capacity(records.len().min(pool.list_bound()));
    for (k, d) in records.iter_mut() {
        if let Some(start) = range(d).and_then(|r| Pool::<T>::compact_start(r, exact)) {
            order.push(u64::from(start) << 32 | k.index() as u64);
        }
    }
    order.sort_unstable();
    let mut c = pool.compactor(exact);
    for o in order {
        let k = K::new((o & u64::from(u32::MAX)) as usize);
        if let Some(r) = range(&mut records[k]) {
            c.place(r);
        }
    }
}

/// The entry of `table` equal to `key`, or a new one made from it. Before
/// an insertion that finds the table at `sweep_at` entries or more, drops
/// the entries `held` says nothing else holds and sets the next sweep at
/// twice what is left (at least [`SHARED_SWEEP_MIN`]), so sweeping costs
/// amortized O(1) per insertion.
fn share_in<T, Q>(
    table: &mut hashbrown::HashSet<T>,
    sweep_at: &mut usize,
    key: Q,
    make: impl FnOnce(Q) -> T,
    held: impl Fn(&T) -> bool,
) -> T
where
    T: core::hash::Hash + Eq + Clone + core::borrow::Borrow<Q>,
    Q: core::hash::Hash + Eq,
{
    if let Some(shared) = table.get(&key) {
        return shared.clone();
    }
    if table.len() >= *sweep_at {
        table.retain(|e| held(e));
        *sweep_at = (2 * table.len()).max(SHARED_SWEEP_MIN);
    }
    let shared = make(key);
    table.insert(shared.clone());
    shared
}

/// The smallest size at which the tables of shared call payloads and
/// attribute lists are swept of entries nothing else holds.
const SHARED_SWEEP_MIN: usize = 1024;

/// Slots of the integer-constant cache ([`Module::small_ints`]).
const SMALL_INT_SLOTS: usize = 256;

/// Slots of the plain-call cache ([`Module::plain_calls`]).
const PLAIN_CALL_SLOTS: usize = 256;

/// Edits [`Module::set_edits`] remembers: a pass edits functions of a
/// few kinds in turn (kernels and helpers, each kind sharing one set).
pub(crate) const SET_EDIT_SLOTS: usize = 4;

/// An edit of an attribute set and its result: the attributes keyed
/// `removed` and those with `add`'s key taken out of `before` (groups
/// holding one expanded first), then `add` added. Attribute groups never
/// change once read, so the same edit of an equal set always gives an
/// equal set.
#[derive(Clone)]
pub(crate) struct SetEdit {
    pub(crate) before: AttrSet,
    pub(crate) removed: Option<Sym>,
    pub(crate) add: Attr,
    /// Shared ([`Module::share_attr_set`]).
    pub(crate) after: AttrSet,
}

/// What tells apart the payloads of plain calls: those without operand
/// bundles, without return or inline call-site attributes, with no
/// parameter attribute entries (not even empty ones), and with at most two
/// attribute groups (`call float @f(float %x) #3`), which are most calls.
/// Two plain payloads with equal keys are equal.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(crate) struct PlainCall {
    fn_ty: Option<Type>,
    explicit_fn_ty: bool,
    cc: CallConv,
    nargs: u32,
    tail: TailKind,
    addrspace: Option<u32>,
    groups: [u32; 2],
    ngroups: u8,
}

impl PlainCall {
    fn of(cd: &CallData) -> Option<PlainCall> {
        let g = &cd.fn_attrs.groups;
        let plain = cd.ret_attrs.is_empty()
            && cd.fn_attrs.attrs.is_empty()
            && g.len() <= 2
            && cd.param_attrs.is_empty()
            && cd.bundles.is_empty();
        plain.then(|| PlainCall {
            fn_ty: cd.fn_ty,
            explicit_fn_ty: cd.explicit_fn_ty,
            cc: cd.cc,
            nargs: cd.nargs,
            tail: cd.tail,
            addrspace: cd.addrspace,
            groups: [
                g.first().copied().unwrap_or(0),
                g.get(1).copied().unwrap_or(0),
            ],
            ngroups: g.len() as u8,
        })
    }

    /// The slot this key maps to.
    fn slot(&self) -> usize {
        let ty = self.fn_ty.map_or(0, |t| t.as_u32() as u64 + 1);
        let h = (ty << 20)
            ^ (u64::from(self.nargs) << 8)
            ^ u64::from(self.groups[0]).rotate_left(40)
            ^ u64::from(self.groups[1]).rotate_left(52)
            ^ u64::from(self.ngroups);
        DirectMap::<PlainCall, Arc<CallData>, PLAIN_CALL_SLOTS>::slot(h)
    }
}

/// Whether `name` has the form of a name inlining gives a copy: `x.i` or
/// `x.iN` (N decimal digits).
pub(crate) fn is_inline_name(name: &[u8]) -> bool {
    let digits = name.iter().rev().take_while(|c| c.is_ascii_digit()).count();
    name[..name.len() - digits].ends_with(b".i")
}

/// The cell holding the parsed data layout. With `std` it is a `OnceLock`,
/// so a module can be read from several threads (the parallel printer);
/// without `std` it is a `OnceCell`.
#[cfg(feature = "std")]
pub(crate) type LayoutCell = std::sync::OnceLock<nvpass_core::datalayout::DataLayout>;
#[cfg(not(feature = "std"))]
pub(crate) type LayoutCell = core::cell::OnceCell<nvpass_core::datalayout::DataLayout>;

impl Module {
    /// Creates an empty module.
    pub fn new() -> Self {
        Self::default()
    }

    /// Interns a string.
    pub fn sym(&mut self, s: &str) -> Sym {
        self.strings.intern(s.as_bytes())
    }

    /// The text of a symbol.
    pub fn text(&self, s: Sym) -> alloc::borrow::Cow<'_, str> {
        self.strings.text(s)
    }

    // ----- values -----------------------------------------------------

    /// Adds a value with no uses.
    pub fn new_value(&mut self, ty: Type, kind: ValueKind, name: Option<Sym>) -> Value {
        let data = ValueData {
            ty,
            kind,
            name,
            users: UseList::Empty,
        };
        match self.retired.free_values.pop() {
            Some(v) => {
                self.values[v] = data;
                v
            }
            None => self.values.push(data),
        }
    }

    /// A new constant value of type `ty` with payload `c` (not uniqued).
    pub fn new_const(&mut self, ty: Type, c: Const) -> Value {
        let id = self.const_data.push(c);
        self.new_value(ty, ValueKind::Const(id), None)
    }

    /// The constant `v` is, if it is one.
    #[inline]
    pub fn constant(&self, v: Value) -> Option<&Const> {
        self.values.get(v).and_then(|d| self.const_of(d))
    }

    /// The constant payload of `d`, a value record of this module.
    #[inline]
    pub fn const_of(&self, d: &ValueData) -> Option<&Const> {
        match d.kind {
            ValueKind::Const(c) => self.const_data.get(c),
            _ => None,
        }
    }

    /// The uniqued scalar constant `c` of type `ty` (`Int`, `Float`, `Null`,
    /// `Undef`, `Poison`, `Zero`, `NoneToken`, `BigInt`).
    pub fn const_scalar(&mut self, ty: Type, c: Const) -> Value {
        let key = ConstKey { ty, c };
        if let Some(&v) = self.consts.get(&key) {
            return v;
        }
        let v = self.new_const(ty, key.c.clone());
        self.consts.insert(key, v);
        v
    }

    /// An integer constant, truncated and sign-extended to `ty`'s width.
    pub fn const_int(&mut self, ty: Type, v: i128) -> Value {
        let bits = self.types.int_bits(ty).unwrap_or(64);
        let v = if bits >= 128 {
            v
        } else {
            let sh = 128 - bits;
            (v << sh) >> sh
        };
        let Ok(small) = i64::try_from(v) else {
            return self.const_scalar(ty, Const::Int(Wide(v)));
        };
        let key = (ty, small);
        let i = DirectMap::<(Type, i64), Value, SMALL_INT_SLOTS>::slot(
            (small as u64) ^ (cranelift_entity::EntityRef::index(ty) as u64).rotate_right(16),
        );
        if let Some(&c) = self.small_ints.get(i, &key) {
            return c;
        }
        let c = self.const_scalar(ty, Const::Int(Wide(v)));
        self.small_ints.set(i, key, c);
        c
    }

    /// Adds a non-uniqued constant (aggregate, expression, ...) with operands.
    pub fn new_const_with_ops(&mut self, ty: Type, c: Const, ops: &[Value]) -> Value {
        let v = self.new_const(ty, c);
        let mut list = Vec::with_capacity(ops.len());
        for (i, &op) in ops.iter().enumerate() {
            list.push(self.add_use(op, User::Value(v), i as u32));
        }
        if !list.is_empty() {
            self.value_ops.insert(v, list.into_boxed_slice());
        }
        v
    }

    /// Wraps metadata as a value operand (`metadata !5` or, with `inner`,
    /// `metadata i32 %x`).
    pub fn new_md_value(&mut self, md: crate::metadata::MdRef, inner: Option<Value>) -> Value {
        let ty = self.types.intern(crate::types::TypeData::Metadata);
        let v = self.new_value(ty, ValueKind::Metadata(md), None);
        if let Some(i) = inner {
            let o = self.add_use(i, User::Value(v), 0);
            self.value_ops.insert(v, Box::new([o]));
        }
        v
    }

    /// The operands of `v`: the elements of an aggregate constant, the
    /// operands of a constant expression, the value wrapped by a metadata
    /// operand; empty for every other value.
    #[inline]
    pub fn value_ops(&self, v: Value) -> &[Operand] {
        self.value_ops.get(&v).map_or(&[], |o| o)
    }

    /// Replaces the operand list of `v` (the uses must already be
    /// recorded in the operands' user lists).
    pub(crate) fn set_value_ops(&mut self, v: Value, ops: Box<[Operand]>) {
        if ops.is_empty() {
            self.value_ops.remove(&v);
        } else {
            self.value_ops.insert(v, ops);
        }
    }

    /// The type of a value.
    pub fn ty(&self, v: Value) -> Type {
        self.values[v].ty
    }

    /// Records a use of `v` by `user` at operand `index`; returns the operand.
    pub fn add_use(&mut self, v: Value, user: User, index: u32) -> Operand {
        let u = Use::new(user, index);
        let list = &mut self.values[v].users;
        let pos = match list {
            UseList::Empty => {
                *list = UseList::One(u);
                0
            }
            UseList::One(first) => {
                *list = UseList::Pooled(self.use_pool.alloc([*first, u]));
                1
            }
            UseList::Pooled(r) => {
                let pos = r.len() as u32;
                if self.use_pool.push(r, u) && self.use_pool.wants_compact(self.values.len()) {
                    self.compact_use_pool(false);
                }
                pos
            }
        };
        Operand { value: v, pos }
    }

    /// The shared payload equal to `cd`: one a call already holds, or `cd`
    /// itself, remembered for later calls.
    pub fn share_call_data(&mut self, cd: CallData) -> Arc<CallData> {
        let Some(key) = PlainCall::of(&cd) else {
            return self.share_call_data_in_table(cd);
        };
        let i = key.slot();
        if let Some(shared) = self.plain_calls.get(i, &key) {
            return shared.clone();
        }
        let shared = self.share_call_data_in_table(cd);
        self.plain_calls.set(i, key, shared.clone());
        shared
    }

    fn share_call_data_in_table(&mut self, cd: CallData) -> Arc<CallData> {
        share_in(
            &mut self.call_data,
            &mut self.shared_sweep_at.0,
            cd,
            Arc::new,
            |c| Arc::strong_count(c) > 1,
        )
    }

    /// Changes the call-site payload of call `i` with `edit` and stores the
    /// result shared ([`Module::share_call_data`]), so calls edited alike
    /// share their new payload again. Does nothing when `i` is not a call.
    pub fn edit_call_data(&mut self, i: Inst, edit: impl FnOnce(&mut CallData)) {
        let Some(mut c) = self.insts[i].call().cloned() else {
            return;
        };
        edit(&mut c);
        self.insts[i].extra = Extra::Call(self.share_call_data(c));
    }

    /// The shared list equal to `attrs`: one a slot already holds, or
    /// `attrs` itself, remembered for later lists.
    pub fn share_attr_list(&mut self, attrs: AttrList) -> AttrList {
        if attrs.is_empty() {
            return attrs;
        }
        share_in(
            &mut self.attr_lists,
            &mut self.shared_sweep_at.1,
            attrs,
            |l| l,
            |l| l.holders() > 1,
        )
    }

    /// The shared list of the attributes `items`, as
    /// [`Module::share_attr_list`] gives it; a new list is made only when
    /// no slot holds an equal one yet.
    pub fn share_attr_items(&mut self, items: &[Attr]) -> AttrList {
        if items.is_empty() {
            return AttrList::default();
        }
        if let Some(shared) = self.attr_lists.get(items) {
            return shared.clone();
        }
        self.share_attr_list(items.iter().cloned().collect())
    }

    /// [`Module::share_attr_list`] for the attributes of a set.
    pub fn share_attr_set(&mut self, mut set: AttrSet) -> AttrSet {
        set.attrs = self.share_attr_list(core::mem::take(&mut set.attrs));
        set
    }

    /// Makes room in the instruction and value tables and in the list
    /// pools for what a text of `bytes` bytes usually holds, so that they
    /// do not move while a reader fills them (see
    /// [`TEXT_BYTES_PER_RECORD`]). Room that is never filled costs address
    /// space, not memory: the allocator maps blocks this large on demand.
    /// When the allocator refuses, the tables grow as they fill.
    pub fn reserve_for_text(&mut self, bytes: usize) {
        self.reserve_for_text_counted(bytes);
    }

    /// [`Module::reserve_for_text`], returning the room made past the
    /// last instruction and past the last value, in records (0 where the
    /// allocator refused).
    pub(crate) fn reserve_for_text_counted(&mut self, bytes: usize) -> [usize; 2] {
        fn room<K: EntityRef, V>(table: &mut PrimaryMap<K, V>, n: usize) -> usize {
            if table.try_reserve(n).is_ok() {
                n
            } else {
                0
            }
        }
        let per = TEXT_BYTES_PER_RECORD;
        let insts = room(&mut self.insts, bytes / per.inst);
        let values = room(&mut self.values, bytes / per.value);
        self.op_pool.try_reserve(bytes / per.operand);
        self.use_pool.try_reserve(bytes / per.pooled_use);
        self.block_pool.try_reserve(bytes / per.block_operand);
        self.md_pool.try_reserve(bytes / per.attachment);
        [insts, values]
    }

    /// Compacts every list pool that has dead slots (see
    /// [`crate::pool`]) and gives spare room back to the allocator: a host
    /// may call it after large edits.
    /// Positions inside lists do not change.
    pub fn compact_pools(&mut self) {
        self.compact_pools_and_shrink(true);
    }

    /// What the reader does with the list pools and the instruction and
    /// value tables once a module is read. It compacts the pools that
    /// [`Pool::wants_compact`] says a compaction pays for, as an edit
    /// would, and gives their spare room back to the allocator.
    ///
    /// Reading compacts the use pool as it goes under the same rule, so at
    /// most a third of a large one is dead by the end (the instructions'
    /// pools have no dead slot: the reader makes each list once, exact). An
    /// exact compaction on top ([`Module::compact_pools`]) would reclaim
    /// that at the price of sorting every moved list and visiting every
    /// value: on the 50 MB generated module, 1.9 MB for 11 ms, 3% of
    /// reading and printing it, and the peak memory of the run does not
    /// move. The pools are then settled ([`Pool::settle`]): the slots
    /// reading left dead no longer count towards the compaction of a pass's
    /// edits, which would otherwise fall on a pass at some sizes of a
    /// module and not at others (`cdp` on the generated module of the
    /// scaling series compacted the use pool at 4x and not at 1x).
    ///
    /// The instruction and value tables give their spare room back too:
    /// read with a size hint ([`Module::reserve_for_text`]), they end with
    /// room that nothing may fill, and where the reader mapped pages ahead
    /// of itself (`parse::prefault`), some of it is memory. Each keeps
    /// fresh room for a quarter of its records
    /// ([`TABLE_ROOM_AFTER_READING`]), so that the first record a pass adds
    /// does not double a table of a large module.
    pub(crate) fn settle_after_reading(&mut self) {
        self.compact_pools_and_shrink(false);
        // What reading leaves dead is no pass's doing (see `Pool::settle`).
        self.op_pool.settle();
        self.block_pool.settle();
        self.md_pool.settle();
        self.use_pool.settle();
        fn settle<K: EntityRef, V>(table: &mut PrimaryMap<K, V>) {
            table.shrink_to_fit();
            let _ = table.try_reserve_exact(table.len() / TABLE_ROOM_AFTER_READING);
        }
        settle(&mut self.insts);
        settle(&mut self.values);
    }

    /// Compacts the list pools, each exactly whenever it has a dead slot
    /// (`exact`) or else only when [`Pool::wants_compact`] says it pays,
    /// and gives their spare room back to the allocator.
    fn compact_pools_and_shrink(&mut self, exact: bool) {
        let insts = &mut self.insts;
        compact_inst_pool(&mut self.op_pool, insts, |d| &mut d.ops, exact);
        compact_inst_pool(&mut self.block_pool, insts, |d| &mut d.blocks, exact);
        compact_inst_pool(&mut self.md_pool, insts, |d| &mut d.md, exact);
        let due = if exact {
            self.use_pool.has_dead()
        } else {
            self.use_pool.wants_compact(self.values.len())
        };
        if due {
            self.compact_use_pool(exact);
        }
        self.op_pool.shrink_to_fit();
        self.block_pool.shrink_to_fit();
        self.md_pool.shrink_to_fit();
        self.use_pool.shrink_to_fit();
    }

    /// Compacts the use pool (the lists of values with more than one use).
    fn compact_use_pool(&mut self, exact: bool) {
        compact_records(
            &mut self.use_pool,
            &mut self.values,
            |d| match &mut d.users {
                UseList::Pooled(r) => Some(r),
                _ => None,
            },
            exact,
        );
    }

    /// Removes the use recorded in `op` from its value's user list in O(1).
    pub fn remove_use(&mut self, op: Operand) {
        let pos = op.pos as usize;
        let list = &mut self.values[op.value].users;
        let moved = match list {
            UseList::Empty => None,
            UseList::One(_) => {
                *list = UseList::Empty;
                None
            }
            UseList::Pooled(r) => {
                let last = self.use_pool.pop(r).expect("use list is not empty");
                let moved = if pos < r.len() {
                    self.use_pool.get_mut(r)[pos] = last;
                    Some(last)
                } else {
                    None
                };
                if r.is_empty() {
                    self.use_pool.release(r);
                    *list = UseList::Empty;
                }
                moved
            }
        };
        if let Some(moved) = moved {
            self.operand_slot(moved).pos = op.pos;
        }
    }

    /// The uses of `d`, a value record of this module.
    #[inline]
    pub fn users_of<'a>(&'a self, d: &'a ValueData) -> &'a [Use] {
        match &d.users {
            UseList::Empty => &[],
            UseList::One(u) => core::slice::from_ref(u),
            UseList::Pooled(r) => self.use_pool.get(r),
        }
    }

    /// The uses of a value, writable. Raw access: a use changed here no
    /// longer matches its operand slot.
    pub fn users_mut(&mut self, v: Value) -> &mut [Use] {
        match &mut self.values[v].users {
            UseList::Empty => &mut [],
            UseList::One(u) => core::slice::from_mut(u),
            UseList::Pooled(r) => self.use_pool.get_mut(r),
        }
    }

    /// Appends `u` to the uses of `v` without touching any operand slot.
    /// Raw access, as [`Module::users_mut`] is.
    pub fn push_raw_use(&mut self, v: Value, u: Use) {
        let owner = User::Value(v);
        let before = self.add_use(v, owner, 0);
        self.users_mut(v)[before.pos as usize] = u;
    }

    /// The operand slot a use refers to.
    fn operand_slot(&mut self, u: Use) -> &mut Operand {
        let i = u.index() as usize;
        match u.user() {
            User::Inst(inst) => &mut self.op_pool.get_mut(&self.insts[inst].ops)[i],
            User::Value(v) => &mut self.value_ops.get_mut(&v).expect("value operand use")[i],
            User::GlobalInit(g) => self.globals[g].init.as_mut().expect("init use"),
            User::Alias(a) => &mut self.aliases[a].target,
            User::Func(f) => self.funcs[f].extras_mut().extra_ops[i]
                .as_mut()
                .expect("func operand use"),
        }
    }

    /// Reads operand `index` of `user`.
    pub fn operand(&self, u: Use) -> Value {
        let i = u.index() as usize;
        match u.user() {
            User::Inst(inst) => self.inst_ops(inst)[i].value,
            User::Value(v) => self.value_ops(v)[i].value,
            User::GlobalInit(g) => self.globals[g].init.expect("init use").value,
            User::Alias(a) => self.aliases[a].target.value,
            User::Func(f) => {
                self.funcs[f].extras().extra_ops[i]
                    .expect("func operand use")
                    .value
            }
        }
    }

    /// Makes operand `u` read `new` instead of its current value.
    pub fn set_operand(&mut self, u: Use, new: Value) {
        let old = *self.operand_slot(u);
        if old.value == new {
            return;
        }
        self.remove_use(old);
        let o = self.add_use(new, u.user(), u.index());
        *self.operand_slot(u) = o;
    }

    /// Replaces every use of `old` with `new`.
    pub fn replace_all_uses(&mut self, old: Value, new: Value) {
        if old == new {
            return;
        }
        while let Some(&u) = self.users(old).last() {
            self.set_operand(u, new);
        }
    }

    /// The users of a value.
    #[inline]
    pub fn users(&self, v: Value) -> &[Use] {
        self.users_of(&self.values[v])
    }

    // ----- instructions -----------------------------------------------

    /// Creates a detached instruction. A result value is created when `ty`
    /// is not `void` (named `name`).
    pub fn new_inst(
        &mut self,
        opcode: Opcode,
        ty: Type,
        ops: &[Value],
        extra: Extra,
        name: Option<Sym>,
    ) -> Inst {
        let inst = self.push_inst_record(InstData {
            opcode,
            result: PackedOption::default(),
            ops: PoolRange::default(),
            blocks: PoolRange::default(),
            flags: InstFlags::empty(),
            extra,
            md: PoolRange::default(),
            seg: PackedOption::default(),
            prev: PackedOption::default(),
            next: PackedOption::default(),
        });
        // Exact size, at the end of the pool (recording a use changes only
        // the values and the use pool).
        let start = self.op_pool.begin_list(ops.len());
        for (i, &v) in ops.iter().enumerate() {
            let o = self.add_use(v, User::Inst(inst), i as u32);
            self.op_pool.push_last(o);
        }
        self.insts[inst].ops = self.op_pool.end_list(start);
        if !self.types.is_void(ty) {
            let r = self.new_value(ty, ValueKind::Inst(inst), name);
            self.insts[inst].result = r.into();
        }
        inst
    }

    /// Stores `data` as a new instruction, in a free record when there is
    /// one (see [`Retired`]).
    pub(crate) fn push_inst_record(&mut self, data: InstData) -> Inst {
        match self.retired.free_insts.pop() {
            Some(i) => {
                self.insts[i] = data;
                i
            }
            None => self.insts.push(data),
        }
    }

    /// Appends a value operand to an instruction.
    pub fn push_operand(&mut self, inst: Inst, v: Value) {
        let idx = self.insts[inst].ops.len() as u32;
        let o = self.add_use(v, User::Inst(inst), idx);
        self.push_inst_op(inst, o);
    }

    /// Appends an operand slot (its use already recorded) to `inst`'s
    /// list, compacting the pool when a move left it half dead.
    pub(crate) fn push_inst_op(&mut self, inst: Inst, o: Operand) {
        if self.op_pool.push(&mut self.insts[inst].ops, o) {
            compact_inst_pool(&mut self.op_pool, &mut self.insts, |d| &mut d.ops, false);
        }
    }

    /// Removes the last operand slot of `inst` (its use still recorded).
    pub(crate) fn pop_inst_op(&mut self, inst: Inst) -> Option<Operand> {
        self.op_pool.pop(&mut self.insts[inst].ops)
    }

    /// Drops every operand of `inst` and gives its pool slots back.
    pub(crate) fn clear_inst_ops(&mut self, inst: Inst) {
        // Pop one at a time: removing a use may renumber a later use of the
        // same value by this instruction, which must still be in the list.
        while let Some(o) = self.pop_inst_op(inst) {
            self.remove_use(o);
        }
        self.op_pool.release(&mut self.insts[inst].ops);
    }

    /// Removes operand `index` of `inst`, shifting later operands down.
    pub fn remove_operand(&mut self, inst: Inst, index: usize) {
        let o = self.op_pool.remove(&mut self.insts[inst].ops, index);
        self.remove_use(o);
        let n = self.insts[inst].ops.len();
        for i in index..n {
            let op = self.inst_ops(inst)[i];
            self.users_mut(op.value)[op.pos as usize].set_index(i as u32);
        }
    }

    /// The operand slots of an instruction.
    #[inline]
    pub fn inst_ops(&self, inst: Inst) -> &[Operand] {
        self.op_pool.get(&self.insts[inst].ops)
    }

    /// The operand slots of `d`, an instruction record of this module.
    #[inline]
    pub fn ops_of(&self, d: &InstData) -> &[Operand] {
        self.op_pool.get(&d.ops)
    }

    /// The operand slots of an instruction, writable. Raw access: a slot
    /// changed here no longer matches its value's user list, which
    /// [`Module::set_operand`] keeps in step.
    pub fn inst_ops_mut(&mut self, inst: Inst) -> &mut [Operand] {
        self.op_pool.get_mut(&self.insts[inst].ops)
    }

    /// The block operands of an instruction (successors; a phi's incoming
    /// blocks).
    #[inline]
    pub fn inst_block_ops(&self, inst: Inst) -> &[Block] {
        self.block_pool.get(&self.insts[inst].blocks)
    }

    /// The block operands of `d`, an instruction record of this module.
    #[inline]
    pub fn block_ops_of(&self, d: &InstData) -> &[Block] {
        self.block_pool.get(&d.blocks)
    }

    /// The block operands of an instruction, writable.
    #[inline]
    pub fn inst_block_ops_mut(&mut self, inst: Inst) -> &mut [Block] {
        self.block_pool.get_mut(&self.insts[inst].blocks)
    }

    /// Appends a block operand to an instruction.
    pub fn push_block_op(&mut self, inst: Inst, b: Block) {
        if self.block_pool.push(&mut self.insts[inst].blocks, b) {
            compact_inst_pool(
                &mut self.block_pool,
                &mut self.insts,
                |d| &mut d.blocks,
                false,
            );
        }
    }

    /// Makes `blocks` the block operands of an instruction.
    pub fn set_block_ops(&mut self, inst: Inst, blocks: &[Block]) {
        if self
            .block_pool
            .replace(&mut self.insts[inst].blocks, blocks)
        {
            compact_inst_pool(
                &mut self.block_pool,
                &mut self.insts,
                |d| &mut d.blocks,
                false,
            );
        }
    }

    /// Removes block operand `index` of an instruction, shifting later
    /// ones down.
    pub fn remove_block_op(&mut self, inst: Inst, index: usize) -> Block {
        self.block_pool.remove(&mut self.insts[inst].blocks, index)
    }

    /// The metadata attachments of an instruction, in source order.
    #[inline]
    pub fn inst_attachments(&self, inst: Inst) -> &[Attachment] {
        self.md_pool.get(&self.insts[inst].md)
    }

    /// The metadata attachments of `d`, an instruction record of this
    /// module.
    #[inline]
    pub fn attachments_of(&self, d: &InstData) -> &[Attachment] {
        self.md_pool.get(&d.md)
    }

    /// The metadata attachments of an instruction, writable.
    #[inline]
    pub fn inst_attachments_mut(&mut self, inst: Inst) -> &mut [Attachment] {
        self.md_pool.get_mut(&self.insts[inst].md)
    }

    /// Appends a metadata attachment to an instruction.
    pub fn push_attachment(&mut self, inst: Inst, a: Attachment) {
        if self.md_pool.push(&mut self.insts[inst].md, a) {
            compact_inst_pool(&mut self.md_pool, &mut self.insts, |d| &mut d.md, false);
        }
    }

    /// Makes `list` the metadata attachments of an instruction.
    pub fn set_attachments(&mut self, inst: Inst, list: &[Attachment]) {
        if self.md_pool.replace(&mut self.insts[inst].md, list) {
            compact_inst_pool(&mut self.md_pool, &mut self.insts, |d| &mut d.md, false);
        }
    }

    /// Removes attachment `index` of an instruction, keeping the order of
    /// the others.
    pub fn remove_attachment(&mut self, inst: Inst, index: usize) -> Attachment {
        self.md_pool.remove(&mut self.insts[inst].md, index)
    }

    /// The type of an instruction: its result's, `void` without one.
    #[inline]
    pub fn inst_ty(&self, inst: Inst) -> Type {
        self.ty_of(&self.insts[inst])
    }

    /// The type of `d`, an instruction record of this module: its
    /// result's, `void` without one (or when the result is dangling, which
    /// the verifier reports).
    #[inline]
    pub fn ty_of(&self, d: &InstData) -> Type {
        match d.result.expand().and_then(|r| self.values.get(r)) {
            Some(v) => v.ty,
            None => self.types.void_type(),
        }
    }

    /// The result value of an instruction, if it has one.
    pub fn inst_result(&self, inst: Inst) -> Option<Value> {
        self.insts[inst].result.expand()
    }

    /// Operand values of an instruction.
    pub fn inst_operands(&self, inst: Inst) -> impl Iterator<Item = Value> + '_ {
        self.inst_ops(inst).iter().map(|o| o.value)
    }

    /// Drops the inliner's record of the names in every function (see the
    /// `inline_names` field): needed only after writing a `name` field
    /// directly.
    pub fn forget_inline_names(&mut self) {
        self.inline_names.clear();
    }

    /// Drops the index of the metadata nodes naming each value (see the
    /// `md_value_index` field): needed only after writing the operands of
    /// an existing node directly.
    pub fn forget_md_value_index(&mut self) {
        self.md_value_index = None;
    }

    /// The name of an instruction's result.
    pub(crate) fn inst_name(&self, inst: Inst) -> Option<Sym> {
        self.insts[inst]
            .result
            .expand()
            .and_then(|r| self.values[r].name)
    }

    /// Records that `name` now appears in `func` (see `inline_names`).
    pub(crate) fn name_enters(&mut self, func: Func, name: Option<Sym>) {
        if self.inline_names.is_empty() {
            return;
        }
        if let (Some(set), Some(n)) = (self.inline_names.get_mut(&func), name) {
            if is_inline_name(self.strings.get(n)) {
                set.insert(n);
            }
        }
    }

    /// Records that `name` no longer appears in `func` (see
    /// `inline_names`).
    pub(crate) fn name_leaves(&mut self, func: Func, name: Option<Sym>) {
        if self.inline_names.is_empty() {
            return;
        }
        if let (Some(set), Some(n)) = (self.inline_names.get_mut(&func), name) {
            set.remove(&n);
        }
    }

    /// The block holding `inst` (none while detached).
    #[inline]
    pub fn block_of(&self, inst: Inst) -> Option<Block> {
        self.insts[inst].seg.expand().map(|s| self.segs[s])
    }

    /// The block a label names, checking every index (for the verifier
    /// and the printer, which must cope with a damaged module).
    pub(crate) fn seg_block(&self, seg: PackedOption<Seg>) -> Option<Block> {
        seg.expand().and_then(|s| self.segs.get(s).copied())
    }

    /// The label for the block about to be pushed onto [`Module::blocks`].
    pub(crate) fn next_block_seg(&mut self) -> Seg {
        let b = self.blocks.next_key();
        self.segs.push(b)
    }

    /// Appends a detached instruction at the end of `block`.
    pub fn append_inst(&mut self, block: Block, inst: Inst) {
        let last = self.blocks[block].last;
        let seg = self.blocks[block].seg;
        {
            let d = &mut self.insts[inst];
            d.seg = seg.into();
            d.prev = last;
            d.next = PackedOption::default();
        }
        match last.expand() {
            Some(l) => self.insts[l].next = inst.into(),
            None => self.blocks[block].first = inst.into(),
        }
        self.blocks[block].last = inst.into();
        self.name_enters(self.blocks[block].func, self.inst_name(inst));
    }

    /// Inserts a detached instruction before `before`.
    pub fn insert_inst_before(&mut self, inst: Inst, before: Inst) {
        let block = self.block_of(before).expect("attached");
        let prev = self.insts[before].prev;
        let seg = self.blocks[block].seg;
        {
            let d = &mut self.insts[inst];
            d.seg = seg.into();
            d.prev = prev;
            d.next = before.into();
        }
        self.insts[before].prev = inst.into();
        match prev.expand() {
            Some(p) => self.insts[p].next = inst.into(),
            None => self.blocks[block].first = inst.into(),
        }
        self.name_enters(self.blocks[block].func, self.inst_name(inst));
    }

    /// Moves the instructions after `after` (in its block) to the end of
    /// the empty block `to` of the same function, in order. The list is
    /// relinked at both ends, and only the shorter side is relabeled (see
    /// [`Seg`]): the moved instructions get `to`'s label, or the ones left
    /// behind get a fresh label and `to` takes over the old one with the
    /// instructions that carry it. A split so costs its shorter side, and
    /// splitting a long block at each of its calls costs the block once,
    /// whether the calls are taken first to last or last to first.
    pub(crate) fn move_insts_after(&mut self, after: Inst, to: Block) {
        debug_assert!(self.blocks[to].first.is_none());
        let Some(first) = self.insts[after].next.expand() else {
            return;
        };
        let from = self.block_of(after).expect("attached");
        // Walk both sides in step until one of them ends.
        let (mut h, mut t) = (Some(after), Some(first));
        let head_shorter = loop {
            match (h, t) {
                (None, _) => break true,
                (_, None) => break false,
                (Some(a), Some(b)) => {
                    h = self.insts[a].prev.expand();
                    t = self.insts[b].next.expand();
                }
            }
        };
        let last = self.blocks[from].last;
        self.insts[after].next = PackedOption::default();
        self.blocks[from].last = after.into();
        self.insts[first].prev = PackedOption::default();
        self.blocks[to].first = first.into();
        self.blocks[to].last = last;
        let (seg, start) = if head_shorter {
            // `to`'s own label, carried by no instruction, is dropped.
            let old = self.blocks[from].seg;
            let fresh = self.segs.push(from);
            self.segs[old] = to;
            self.blocks[to].seg = old;
            self.blocks[from].seg = fresh;
            (fresh, self.blocks[from].first.expand())
        } else {
            (self.blocks[to].seg, Some(first))
        };
        let mut cur = start;
        while let Some(i) = cur {
            self.insts[i].seg = seg.into();
            cur = self.insts[i].next.expand();
        }
    }

    /// Moves every instruction of `from` before `before` (in another block
    /// of the same function), in order, leaving `from` empty. The list is
    /// relinked at both ends; only the moved instructions' label (see
    /// [`Seg`]) is rewritten, so this costs the length of `from`, not of
    /// the destination block. Names stay in the function, so its name record
    /// is untouched.
    pub(crate) fn splice_block_before(&mut self, from: Block, before: Inst) {
        let (Some(first), Some(last)) = (
            self.blocks[from].first.expand(),
            self.blocks[from].last.expand(),
        ) else {
            return;
        };
        let to = self.block_of(before).expect("attached");
        debug_assert_ne!(to, from);
        debug_assert_eq!(self.blocks[to].func, self.blocks[from].func);
        self.blocks[from].first = PackedOption::default();
        self.blocks[from].last = PackedOption::default();
        let prev = self.insts[before].prev;
        match prev.expand() {
            Some(p) => self.insts[p].next = first.into(),
            None => self.blocks[to].first = first.into(),
        }
        self.insts[first].prev = prev;
        self.insts[last].next = before.into();
        self.insts[before].prev = last.into();
        let seg = self.blocks[to].seg;
        let mut cur = Some(first);
        while let Some(i) = cur {
            self.insts[i].seg = seg.into();
            cur = if i == last {
                None
            } else {
                self.insts[i].next.expand()
            };
        }
    }

    /// Detaches an instruction from its block (its operands stay).
    pub fn detach_inst(&mut self, inst: Inst) {
        let Some(block) = self.block_of(inst) else {
            return;
        };
        self.name_leaves(self.blocks[block].func, self.inst_name(inst));
        let (prev, next) = (self.insts[inst].prev, self.insts[inst].next);
        match prev.expand() {
            Some(p) => self.insts[p].next = next,
            None => self.blocks[block].first = next,
        }
        match next.expand() {
            Some(n) => self.insts[n].prev = prev,
            None => self.blocks[block].last = prev,
        }
        let d = &mut self.insts[inst];
        d.seg = PackedOption::default();
        d.prev = PackedOption::default();
        d.next = PackedOption::default();
    }

    /// Erases an instruction: detaches it and drops its operands' uses.
    /// Its result must have no remaining uses (replace them first);
    /// returns `false` and does nothing otherwise.
    pub fn erase_inst(&mut self, inst: Inst) -> bool {
        if let Some(r) = self.insts[inst].result.expand() {
            if !self.users(r).is_empty() {
                return false;
            }
        }
        self.detach_inst(inst);
        self.clear_inst_ops(inst);
        self.block_pool.release(&mut self.insts[inst].blocks);
        true
    }

    /// Instructions of a block in order.
    pub fn block_insts(&self, block: Block) -> InstIter<'_> {
        InstIter {
            m: self,
            cur: self.blocks[block].first,
        }
    }

    /// A walk over the instructions of `block` during which the module may
    /// change (see [`InstCursor`]).
    pub(crate) fn inst_cursor(&self, block: Block) -> InstCursor {
        InstCursor(self.blocks[block].first)
    }

    /// The terminator of a block (its last instruction, if a terminator).
    pub fn terminator(&self, block: Block) -> Option<Inst> {
        let l = self.blocks[block].last.expand()?;
        self.insts[l].opcode.is_terminator().then_some(l)
    }

    // ----- blocks -----------------------------------------------------

    /// Creates a block and appends it to `func`.
    pub fn append_block(&mut self, func: Func, name: Option<Sym>) -> Block {
        let last = self.funcs[func].last_block;
        let seg = self.next_block_seg();
        let b = self.blocks.push(BlockData {
            name,
            func,
            first: PackedOption::default(),
            last: PackedOption::default(),
            prev: last,
            next: PackedOption::default(),
            erased: false,
            seg,
        });
        match last.expand() {
            Some(l) => self.blocks[l].next = b.into(),
            None => self.funcs[func].first_block = b.into(),
        }
        self.funcs[func].last_block = b.into();
        self.name_enters(func, name);
        b
    }

    /// Blocks of a function in layout order.
    pub fn func_blocks(&self, func: Func) -> BlockIter<'_> {
        BlockIter {
            m: self,
            cur: self.funcs[func].first_block,
        }
    }

    /// Detaches a block from its function's layout.
    pub fn detach_block(&mut self, b: Block) {
        let f = self.blocks[b].func;
        // The block's name and its instructions' names leave the function.
        if self.inline_names.contains_key(&f) {
            self.name_leaves(f, self.blocks[b].name);
            let names: alloc::vec::Vec<Option<Sym>> =
                self.block_insts(b).map(|i| self.inst_name(i)).collect();
            for n in names {
                self.name_leaves(f, n);
            }
        }
        let (prev, next) = (self.blocks[b].prev, self.blocks[b].next);
        match prev.expand() {
            Some(p) => self.blocks[p].next = next,
            None => self.funcs[f].first_block = next,
        }
        match next.expand() {
            Some(n) => self.blocks[n].prev = prev,
            None => self.funcs[f].last_block = prev,
        }
        self.blocks[b].erased = true;
    }

    /// Successor blocks named by a block's terminator.
    pub fn successors(&self, block: Block) -> &[Block] {
        match self.terminator(block) {
            Some(t) => self.inst_block_ops(t),
            None => &[],
        }
    }

    // ----- functions and globals --------------------------------------

    /// Frees the records of the bodies of the functions erased so far:
    /// their instructions, and each result nothing uses any more, are
    /// taken by the next new instructions and values (an erasure alone
    /// keeps them, so that the ids stay valid).
    /// Call it only when nothing holds an id of those instructions,
    /// blocks or values: afterwards such an id may name a new entity. The
    /// erased blocks keep their records but no longer list instructions.
    pub fn reclaim_erased(&mut self) {
        let r = &mut self.retired;
        for &b in &r.blocks {
            let d = &mut self.blocks[b];
            d.first = PackedOption::default();
            d.last = PackedOption::default();
        }
        r.blocks.clear();
        // In reverse, so that the lists hand the records out in the order
        // they were laid out (walks over the new code then go forward in
        // memory, as over parsed code).
        for &i in r.insts.iter().rev() {
            let d = &mut self.insts[i];
            if let Some(v) = d.result.expand() {
                let named_by_md = self
                    .md_value_index
                    .as_ref()
                    .is_some_and(|x| x.nodes.contains_key(&v));
                let vd = &mut self.values[v];
                let unused = match &vd.users {
                    UseList::Empty => true,
                    UseList::One(_) => false,
                    UseList::Pooled(p) => p.is_empty(),
                };
                if !unused || named_by_md || self.value_ops.contains_key(&v) {
                    // Still named from somewhere: both records stay.
                    continue;
                }
                if let UseList::Pooled(p) = &mut vd.users {
                    self.use_pool.release(p);
                }
                vd.users = UseList::Empty;
                vd.name = None;
                r.free_values.push(v);
            }
            self.op_pool.release(&mut d.ops);
            self.block_pool.release(&mut d.blocks);
            self.md_pool.release(&mut d.md);
            d.result = PackedOption::default();
            d.seg = PackedOption::default();
            d.prev = PackedOption::default();
            d.next = PackedOption::default();
            r.free_insts.push(i);
        }
        r.insts.clear();
        // The bodies' lists died at the erasure, but copies only append to
        // the pools and never offer them a compaction: this is where their
        // slots are offered back, once they are many (see
        // `RECLAIM_COMPACT_DEAD_PER_LIVE`).
        let insts = &mut self.insts;
        if reclaim_wants_compact(&self.op_pool) {
            compact_inst_pool(&mut self.op_pool, insts, |d| &mut d.ops, false);
        }
        if reclaim_wants_compact(&self.block_pool) {
            compact_inst_pool(&mut self.block_pool, insts, |d| &mut d.blocks, false);
        }
        if reclaim_wants_compact(&self.md_pool) {
            compact_inst_pool(&mut self.md_pool, insts, |d| &mut d.md, false);
        }
    }

    /// Counts one more erased function or global still listed in
    /// [`Module::order`], and drops every erased entry once they are half
    /// of the list: amortized constant time per erasure.
    pub(crate) fn note_erased_in_order(&mut self) {
        self.order_erased += 1;
        if self.order_erased * 2 > self.order.len() {
            let (funcs, globals) = (&self.funcs, &self.globals);
            self.order.retain(|t| match *t {
                TopLevel::Func(f) => !funcs[f].erased,
                TopLevel::Global(g) => !globals[g].erased,
                TopLevel::Alias(_) => true,
            });
            self.order_erased = 0;
        }
    }

    /// The index of `t` in [`Module::order`], searched outwards from the
    /// last clone's place: a pass cloning function after function in module
    /// order finds each one next to the previous clone, instead of
    /// scanning the order from the start every time.
    pub(crate) fn order_position(&self, t: TopLevel) -> Option<usize> {
        let n = self.order.len();
        let hint = self.order_hint.min(n);
        for d in 0..=n {
            let (up, down) = (hint + d, hint.checked_sub(d + 1));
            if up >= n && down.is_none() {
                break;
            }
            if up < n && self.order[up] == t {
                return Some(up);
            }
            if down.is_some_and(|k| self.order[k] == t) {
                return down;
            }
        }
        None
    }

    /// Functions in module order (erased ones skipped).
    ///
    /// While [`Module::order`] lists no erased entry (always after parsing,
    /// and again after each compaction) the functions' records are not read:
    /// a pass looking for a few functions in a module of many then reads
    /// only the order list, not one record per function.
    pub fn func_ids(&self) -> impl Iterator<Item = Func> + '_ {
        let check = self.order_erased > 0;
        self.order.iter().filter_map(move |t| match *t {
            TopLevel::Func(f) if !check || !self.funcs[f].erased => Some(f),
            _ => None,
        })
    }

    /// Globals in module order (erased ones skipped; records are read only
    /// while erased entries are listed, as in [`Module::func_ids`]).
    pub fn global_ids(&self) -> impl Iterator<Item = Global> + '_ {
        let check = self.order_erased > 0;
        self.order.iter().filter_map(move |t| match *t {
            TopLevel::Global(g) if !check || !self.globals[g].erased => Some(g),
            _ => None,
        })
    }

    /// Looks a global symbol (function, variable, alias) up by name.
    pub fn lookup(&self, name: &str) -> Option<Value> {
        let s = self.strings.lookup(name.as_bytes())?;
        self.symbols.get(s)
    }

    /// Looks a function up by name.
    pub fn func_by_name(&self, name: &str) -> Option<Func> {
        match self.values[self.lookup(name)?].kind {
            ValueKind::Func(f) => Some(f),
            _ => None,
        }
    }

    /// The name of a function.
    pub fn func_name(&self, f: Func) -> Option<Sym> {
        self.values[self.funcs[f].value].name
    }
}

/// Iterator over a block's instructions.
pub struct InstIter<'a> {
    m: &'a Module,
    cur: PackedOption<Inst>,
}

impl Iterator for InstIter<'_> {
    type Item = Inst;
    fn next(&mut self) -> Option<Inst> {
        let i = self.cur.expand()?;
        crate::prefetch::insts_ahead(&self.m.insts, i);
        self.cur = self.m.insts[i].next;
        Some(i)
    }
}

/// A walk over a block's instructions that does not borrow the module, so
/// the loop body may change it: each step reads the next instruction
/// before handing out the current one, so the body may change or erase the
/// instruction it was given (but not the one after it). Costs nothing
/// where collecting the block into a `Vec` first costs an allocation.
pub(crate) struct InstCursor(PackedOption<Inst>);

impl InstCursor {
    /// The next instruction, if any.
    pub(crate) fn next(&mut self, m: &Module) -> Option<Inst> {
        let i = self.0.expand()?;
        crate::prefetch::insts_ahead(&m.insts, i);
        self.0 = m.insts[i].next;
        Some(i)
    }
}

/// Iterator over a function's blocks.
pub struct BlockIter<'a> {
    m: &'a Module,
    cur: PackedOption<Block>,
}

impl Iterator for BlockIter<'_> {
    type Item = Block;
    fn next(&mut self) -> Option<Block> {
        let b = self.cur.expand()?;
        self.cur = self.m.blocks[b].next;
        Some(b)
    }
}

#[cfg(test)]
mod split_tests {
    use super::*;
    use alloc::format;
    use alloc::string::String;
    use alloc::vec::Vec;

    /// `@f` with one block of `n` adds and a `ret`.
    fn long_block(n: usize) -> (Module, Func) {
        let mut s = String::from("define void @f(i32 %x) {\n");
        for k in 0..n {
            s.push_str(&format!("  %v{k} = add i32 %x, {k}\n"));
        }
        s.push_str("  ret void\n}\n");
        let m = crate::parse_module(s.as_bytes()).expect("parses");
        let f = m.func_by_name("f").expect("@f");
        (m, f)
    }

    /// Every instruction of `f` names the block whose list holds it.
    fn labels_agree(m: &Module, f: Func) -> usize {
        let mut n = 0;
        for b in m.func_blocks(f) {
            for i in m.block_insts(b) {
                assert_eq!(m.block_of(i), Some(b), "{i} in {b}");
                n += 1;
            }
        }
        n
    }

    #[test]
    fn a_split_at_any_point_leaves_every_label_right() {
        for n in [0, 1, 2, 3, 4, 9] {
            for k in 0..=n {
                let (mut m, f) = long_block(n);
                let b = m.funcs[f].first_block.expand().unwrap();
                let insts: Vec<Inst> = m.block_insts(b).collect();
                let segs_before = m.segs.len();
                let tail = m.insert_block_after(f, b, None);
                m.move_insts_after(insts[k], tail);
                assert_eq!(m.block_insts(b).collect::<Vec<_>>(), insts[..=k]);
                assert_eq!(m.block_insts(tail).collect::<Vec<_>>(), insts[k + 1..]);
                assert_eq!(labels_agree(&m, f), n + 1);
                // The shorter side was relabeled: the head only when it is
                // not longer than the tail (a fresh label).
                let head_relabeled = k < n - k;
                assert_eq!(m.segs.len() - segs_before, 1 + usize::from(head_relabeled));
                // An instruction added to either block afterwards gets its
                // label too.
                let d = m.insts[insts[0]].clone();
                for blk in [b, tail] {
                    let j = m.insts.push(InstData {
                        ops: PoolRange::default(),
                        blocks: PoolRange::default(),
                        md: PoolRange::default(),
                        seg: PackedOption::default(),
                        prev: PackedOption::default(),
                        next: PackedOption::default(),
                        ..d.clone()
                    });
                    m.append_inst(blk, j);
                    assert_eq!(m.block_of(j), Some(blk));
                }
            }
        }
    }

    #[test]
    fn repeated_splits_in_either_order_keep_labels() {
        let n = 40;
        // First to last: each split cuts the newest tail after its first
        // instruction (the head is shorter every time).
        let (mut m, f) = long_block(n);
        let mut cur = m.funcs[f].first_block.expand().unwrap();
        for _ in 0..n {
            let at = m.blocks[cur].first.expand().unwrap();
            let next = m.insert_block_after(f, cur, None);
            m.move_insts_after(at, next);
            cur = next;
        }
        assert_eq!(labels_agree(&m, f), n + 1);
        assert_eq!(m.func_blocks(f).count(), n + 1);
        // Last to first: each split cuts the first block before its last
        // instruction (the tail is shorter every time).
        let (mut m, f) = long_block(n);
        let b = m.funcs[f].first_block.expand().unwrap();
        for _ in 0..n {
            let last = m.blocks[b].last.expand().unwrap();
            let at = m.insts[last].prev.expand().unwrap();
            let next = m.insert_block_after(f, b, None);
            m.move_insts_after(at, next);
        }
        assert_eq!(labels_agree(&m, f), n + 1);
        assert_eq!(m.func_blocks(f).count(), n + 1);
    }

    /// Payloads and lists nothing holds any more are swept from the
    /// sharing tables, so a module edited over and over keeps only the
    /// versions in use (plus at most the table's growth since the last
    /// sweep).
    #[test]
    fn sharing_tables_drop_what_nothing_holds() {
        let src = b"declare void @h(i32)\ndefine void @f(i32 %x) {\n  call void @h(i32 %x)\n  ret void\n}\n";
        let mut m = crate::parse_module(src).expect("parses");
        let f = m.func_by_name("f").unwrap();
        let b = m.funcs[f].first_block.expand().unwrap();
        let call = m.block_insts(b).next().unwrap();
        let align = m.sym("align");
        for k in 0..5000u32 {
            let mut cd = m.insts[call].call().unwrap().clone();
            cd.addrspace = Some(k);
            let shared = m.share_call_data(cd);
            m.insts[call].extra = Extra::Call(shared);
            let list = core::iter::once(crate::attr::Attr::Int {
                kind: align,
                value: 1 << (k % 32),
                paren: false,
            })
            .chain((k >= 32).then_some(crate::attr::Attr::Enum(align)))
            .chain(core::iter::repeat_n(
                crate::attr::Attr::Enum(align),
                (k / 64) as usize,
            ))
            .collect();
            let list = m.share_attr_list(list);
            m.funcs[f].fn_attrs.attrs = list;
        }
        assert!(
            m.call_data.len() <= 2 * SHARED_SWEEP_MIN,
            "{}",
            m.call_data.len()
        );
        assert!(
            m.attr_lists.len() <= 2 * SHARED_SWEEP_MIN,
            "{}",
            m.attr_lists.len()
        );
        // What is held survives a sweep and is still shared.
        let held = m.insts[call].call().unwrap().clone();
        let again = m.share_call_data(held);
        assert!(matches!(&m.insts[call].extra, Extra::Call(c) if Arc::ptr_eq(c, &again)));
    }

    /// Attribute lists read in different slots share one allocation when
    /// their items are equal, however they were made, and only then; a
    /// list compares equal to its items.
    #[test]
    fn equal_attribute_lists_share_one_allocation() {
        let src = b"declare void @h(ptr noundef nonnull, i32 noundef, ptr nonnull noundef)\n\
            define void @f(ptr noundef nonnull %p, i32 noundef %x) {\n  \
            call void @h(ptr noundef nonnull %p, i32 noundef %x, ptr nonnull noundef %p)\n  \
            ret void\n}\n";
        let mut m = crate::parse_module(src).expect("parses");
        let (h, f) = (m.func_by_name("h").unwrap(), m.func_by_name("f").unwrap());
        let list = |m: &Module, f: Func, i: usize| m.funcs[f].params[i].attrs.attrs.clone();
        let hp: Vec<AttrList> = (0..3).map(|i| list(&m, h, i)).collect();
        let fp: Vec<AttrList> = (0..2).map(|i| list(&m, f, i)).collect();
        // The same list in two functions' parameters is one allocation.
        assert!(hp[0].shares(&fp[0]));
        assert!(hp[1].shares(&fp[1]));
        // Other items (here, another order) are another list.
        assert!(!hp[0].shares(&hp[2]));
        assert_ne!(hp[0], hp[2]);
        // Made from items, a list is the one a slot already holds.
        let items: Vec<crate::attr::Attr> = hp[1].to_vec();
        let again = m.share_attr_items(&items);
        assert!(again.shares(&hp[1]));
        assert_eq!(&*again, &items[..]);
        // The call site's parameter lists are the declaration's.
        let b = m.funcs[f].first_block.expand().unwrap();
        let call = m.block_insts(b).next().unwrap();
        let cd = m.insts[call].call().unwrap();
        for (i, a) in cd.param_attrs.iter().enumerate() {
            assert!(a.attrs.shares(&hp[i]), "parameter {i}");
        }
        assert!(m.share_attr_items(&[]).is_empty());
    }

    /// Integer constants are uniqued by type and value whether the cache
    /// in front of the table answers or not: more constants than the
    /// cache has slots, asked for twice, give the same values, each of
    /// its own type and value.
    #[test]
    fn int_constants_are_uniqued_through_the_cache() {
        let mut m = Module::default();
        let (i8t, i32t, i64t, i128t) = (
            m.types.int(8),
            m.types.int(32),
            m.types.int(64),
            m.types.int(128),
        );
        let wanted: Vec<(Type, i128)> = [i8t, i32t, i64t, i128t]
            .into_iter()
            .flat_map(|t| (-300i128..300).map(move |v| (t, v)))
            .chain([
                (i128t, i128::MAX),
                (i128t, i128::MIN),
                (i64t, i64::MIN as i128),
            ])
            .collect();
        let first: Vec<Value> = wanted.iter().map(|&(t, v)| m.const_int(t, v)).collect();
        let again: Vec<Value> = wanted
            .iter()
            .rev()
            .map(|&(t, v)| m.const_int(t, v))
            .collect();
        assert!(first.iter().eq(again.iter().rev()));
        for (&(t, v), &c) in wanted.iter().zip(&first) {
            assert_eq!(m.values[c].ty, t);
            // Truncated and sign-extended to the type's width, as before.
            let bits = m.types.int_bits(t).unwrap();
            let want = if bits >= 128 {
                v
            } else {
                (v << (128 - bits)) >> (128 - bits)
            };
            assert_eq!(m.constant(c), Some(&Const::Int(Wide(want))));
        }
        // Equal after truncation: `i8 256` is `i8 0`.
        assert_eq!(m.const_int(i8t, 256), m.const_int(i8t, 0));
        assert_ne!(m.const_int(i8t, 0), m.const_int(i32t, 0));
    }

    /// Plain calls alike share one payload through the cache, calls that
    /// differ in any part of a plain payload do not, and each keeps its own
    /// text.
    #[test]
    fn plain_calls_share_only_equal_payloads() {
        let src = "declare void @h(i32)\ndeclare void @g(i32, i32)\n\
                   define void @f(i32 %x) {\n  call void @h(i32 %x)\n  call void @h(i32 %x)\n  \
                   call void @h(i32 %x) #0\n  call void @h(i32 %x) #1\n  call void @h(i32 %x) #0 #1\n  \
                   tail call void @h(i32 %x)\n  call fastcc void @h(i32 %x)\n  \
                   call void @g(i32 %x, i32 %x)\n  call void @h(i32 noundef %x)\n  \
                   call void @h(i32 %x) #0\n  ret void\n}\n\
                   attributes #0 = { nounwind }\nattributes #1 = { convergent }\n";
        let m = crate::parse_module(src.as_bytes()).expect("parses");
        let f = m.func_by_name("f").unwrap();
        let b = m.funcs[f].first_block.expand().unwrap();
        let calls: Vec<&Arc<CallData>> = m
            .block_insts(b)
            .filter_map(|i| match &m.insts[i].extra {
                Extra::Call(c) => Some(c),
                _ => None,
            })
            .collect();
        assert_eq!(calls.len(), 10);
        let same = |a: usize, b: usize| Arc::ptr_eq(calls[a], calls[b]);
        assert!(same(0, 1) && same(2, 9));
        for (a, b) in [
            (0, 2),
            (2, 3),
            (2, 4),
            (0, 5),
            (0, 6),
            (0, 7),
            (0, 8),
            (3, 4),
        ] {
            assert!(!same(a, b), "calls {a} and {b}");
        }
        let printed = crate::print_module(&m);
        for line in src.lines().filter(|l| l.contains("call ")) {
            assert!(printed.contains(line.trim()), "{line}");
        }
        // A payload that differs only by an empty parameter entry is not
        // plain, and gets a payload equal to itself.
        let first = Arc::clone(calls[0]);
        let mut m = m;
        let mut cd = (*first).clone();
        cd.param_attrs.push(AttrSet::default());
        let shared = m.share_call_data(cd.clone());
        assert!(*shared == cd);
        let plain = m.share_call_data((*first).clone());
        assert!(Arc::ptr_eq(&plain, &first) && !Arc::ptr_eq(&plain, &shared));
    }

    /// A function's header stays small: the parts most functions lack are
    /// boxed, and attribute sets are a pointer and two group slots.
    #[test]
    fn function_records_stay_bounded() {
        use core::mem::size_of;
        assert!(
            size_of::<FuncData>() <= 152,
            "FuncData: {}",
            size_of::<FuncData>()
        );
        assert!(size_of::<Param>() <= 32, "Param: {}", size_of::<Param>());
        let m = crate::parse_module(
            b"define void @f() section \"s\" {\n  ret void\n}\ndeclare void @g()\n",
        )
        .expect("parses");
        let (f, g) = (m.func_by_name("f").unwrap(), m.func_by_name("g").unwrap());
        assert!(m.funcs[f].extras.is_some());
        assert!(
            m.funcs[g].extras.is_none(),
            "no box for a plain declaration"
        );
        assert_eq!(m.funcs[g].extras().section, None);
    }

    /// Every use of `v` points at an operand slot that reads `v` at that
    /// position, and every such slot is listed: returns the count.
    fn uses_agree(m: &Module, v: Value) -> usize {
        for (pos, &u) in m.users(v).iter().enumerate() {
            let User::Inst(i) = u.user() else {
                panic!("unexpected user {u:?}");
            };
            let o = m.inst_ops(i)[u.index() as usize];
            assert_eq!((o.value, o.pos as usize), (v, pos));
        }
        let slots = m
            .insts
            .values()
            .flat_map(|d| m.ops_of(d))
            .filter(|o| o.value == v)
            .count();
        assert_eq!(slots, m.users(v).len());
        slots
    }

    /// Use lists growing side by side move to the end of the pool when
    /// they fill up, leaving dead slots; once the pool holds more than
    /// `COMPACT_MIN_SLOTS` slots, a third of them dead, adding a use
    /// compacts it. Every use keeps its position, and the pool stays
    /// within twice what its lists reserve.
    #[test]
    fn adding_uses_compacts_a_large_pool() {
        let (n, rounds) = (64, 2048);
        let (mut m, f) = long_block(n);
        let adds: Vec<Inst> = m
            .block_insts(m.funcs[f].first_block.expand().unwrap())
            .take(n)
            .collect();
        let results: Vec<Value> = adds.iter().map(|&i| m.inst_result(i).unwrap()).collect();
        let (mut compactions, mut slots) = (0, m.use_pool.slot_count());
        for round in 0..rounds {
            for (k, &r) in results.iter().enumerate() {
                m.push_operand(adds[(round * 7 + k) % n], r);
                let now = m.use_pool.slot_count();
                compactions += usize::from(now < slots);
                slots = now;
            }
        }
        assert!(slots > crate::pool::COMPACT_MIN_SLOTS);
        assert!(compactions > 0, "the pool was never compacted");
        assert!(m.use_pool.slot_count() <= 2 * m.use_pool.live_count());
        for &r in &results {
            assert_eq!(uses_agree(&m, r), rounds);
        }
    }

    /// A value's uses go from none to one inline to a pooled list and back
    /// as operands are added and removed in a shuffled order, through pool
    /// moves; positions stay right throughout.
    #[test]
    fn use_lists_grow_and_shrink_through_every_form() {
        let n = 3000;
        let (mut m, f) = long_block(n);
        let x = m.funcs[f].params[0].value;
        assert_eq!(uses_agree(&m, x), n);
        assert!(matches!(m.values[x].users, UseList::Pooled(_)));
        let adds: Vec<Inst> = m
            .block_insts(m.funcs[f].first_block.expand().unwrap())
            .take(n)
            .collect();
        // Each add reads %x once; a second read per add doubles the list,
        // moving it and leaving dead slots.
        for &i in &adds {
            m.push_operand(i, x);
        }
        assert_eq!(uses_agree(&m, x), 2 * n);
        let mut seed = 7u64;
        let mut order = adds.clone();
        for k in (1..order.len()).rev() {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            order.swap(k, (seed >> 33) as usize % (k + 1));
        }
        for (k, &i) in order.iter().enumerate() {
            m.remove_operand(i, 2);
            let r = m.inst_result(i).unwrap();
            assert!(m.erase_inst(i) || !m.users(r).is_empty());
            if k % 97 == 0 {
                uses_agree(&m, x);
            }
        }
        assert_eq!(uses_agree(&m, x), 0);
        assert_eq!(m.values[x].users, UseList::Empty);
        // One use stays inline.
        let b = m.funcs[f].first_block.expand().unwrap();
        let t = m.terminator(b).unwrap();
        let i32t = m.types.int(32);
        let add = m.new_inst(Opcode::Add, i32t, &[x, x], Extra::None, None);
        m.insert_inst_before(add, t);
        assert!(matches!(m.values[x].users, UseList::Pooled(_)));
        m.remove_operand(add, 1);
        assert_eq!(uses_agree(&m, x), 1);
        m.remove_operand(add, 0);
        assert_eq!(m.values[x].users, UseList::Empty);
        m.push_operand(add, x);
        assert!(matches!(m.values[x].users, UseList::One(_)));
        assert_eq!(uses_agree(&m, x), 1);
        m.compact_pools();
        assert_eq!(uses_agree(&m, x), 1);
    }

    /// Tables given room for a text ([`Module::reserve_for_text`]) stay
    /// where they are while a module of the usual density fills them: one
    /// instruction, value and two operands per [`TEXT_BYTES_PER_RECORD`]
    /// bytes of each.
    #[test]
    fn tables_reserved_for_a_text_do_not_move_while_they_fill() {
        let bytes = 1 << 20;
        let mut m = Module::new();
        m.reserve_for_text(bytes);
        let i32t = m.types.int(32);
        let mut x = m.new_value(i32t, ValueKind::Placeholder, None);
        let place = |m: &Module| {
            (
                m.insts.as_values_slice().as_ptr(),
                m.values.as_values_slice().as_ptr(),
                m.op_pool.slots_ptr(),
            )
        };
        let before = place(&m);
        let per = TEXT_BYTES_PER_RECORD;
        let n = (bytes / per.inst)
            .min(bytes / per.value)
            .min(bytes / per.operand / 2);
        for _ in 1..n {
            let i = m.new_inst(Opcode::Add, i32t, &[x, x], Extra::None, None);
            x = m.insts[i].result.expand().unwrap();
        }
        assert!(before == place(&m), "a reserved table moved");
        // Unreserved, the same tables move.
        let mut m = Module::new();
        let before = place(&m);
        let i32t = m.types.int(32);
        let x = m.new_value(i32t, ValueKind::Placeholder, None);
        for _ in 1..n {
            m.new_inst(Opcode::Add, i32t, &[x, x], Extra::None, None);
        }
        assert!(before != place(&m));
    }

    /// A module read from text that defines `globals` globals and stores
    /// to each five times, one global after another: each global's use
    /// list grows interleaved with the others', so reading leaves dead
    /// use slots.
    fn read_stores_to_globals(globals: usize) -> Module {
        use alloc::string::String;
        use core::fmt::Write;
        let mut text = String::new();
        for g in 0..globals {
            let _ = writeln!(text, "@g{g} = global i32 0");
        }
        text.push_str("define void @f() {\n");
        for _ in 0..5 {
            for g in 0..globals {
                let _ = writeln!(text, "  store i32 0, ptr @g{g}");
            }
        }
        text.push_str("  ret void\n}\n");
        crate::parse_module(text.as_bytes()).unwrap()
    }

    /// The use slots reading leaves dead are not a pass's to pay for: a
    /// pass that moves use lists compacts the pool once the slots it made
    /// dead are one for every two live ones, not as soon as those and the
    /// reader's together are (see `Pool::settle`). The module's use pool
    /// is large, and reading leaves a fifth of it dead.
    #[test]
    fn a_pass_compacts_the_use_pool_for_its_own_dead_slots() {
        let mut m = read_stores_to_globals(16_000);
        let dead = |m: &Module| m.use_pool.slot_count() - m.use_pool.live_count();
        let inherited = dead(&m);
        let user = m.users(m.symbols.iter().next().unwrap().1)[0].user();
        let (mut old_rule_due, mut compacted) = (false, false);
        // Twelve more uses of each global, one global after another as a
        // pass would add them, move each list twice, from room for eight
        // to sixteen and then to 32.
        let gs: Vec<Value> = m.symbols.iter().map(|(_, v)| v).collect();
        'adding: for k in 0..12 {
            for &g in &gs {
                let before = dead(&m);
                // A full list moves, leaving its slots dead.
                let left = m.users(g).len();
                m.add_use(g, user, 100 + k);
                if dead(&m) < before {
                    let made = before + left - inherited;
                    assert!(2 * made > m.use_pool.live_count());
                    compacted = true;
                    break 'adding;
                }
                old_rule_due |= 2 * dead(&m) > m.use_pool.live_count();
            }
        }
        assert!(old_rule_due, "the reader's dead slots never mattered");
        assert!(compacted);
        assert_eq!(dead(&m), 0);
    }

    /// Reading leaves the dead slots of use lists that grew interleaved
    /// where they are, unless enough are dead for a compaction to pay
    /// ([`Pool::wants_compact`]): none in a small pool, at most a third in
    /// a large one, which reading compacted as it went. The use lists still
    /// agree with the operands, and an exact compaction afterwards
    /// reclaims every dead slot.
    #[test]
    fn reading_keeps_the_few_dead_use_slots() {
        for globals in [200, 16_000] {
            let mut m = read_stores_to_globals(globals);
            let dead = |m: &Module| m.use_pool.slot_count() - m.use_pool.live_count();
            let slots = m.use_pool.slot_count();
            assert!(dead(&m) > 0, "the reader compacted the use pool exactly");
            assert!(!m.use_pool.wants_compact(m.values.len()));
            if slots >= crate::pool::COMPACT_MIN_SLOTS {
                assert!(3 * dead(&m) <= slots, "{} of {slots} slots dead", dead(&m));
            }
            for (_, v) in m.symbols.iter() {
                assert!(m.users(v).len() == 5 || m.users(v).is_empty());
            }
            assert!(crate::verify::verify_use_lists(&m).is_ok());
            m.compact_pools();
            assert_eq!(dead(&m), 0);
            assert!(crate::verify::verify_use_lists(&m).is_ok());
        }
    }
}

#[cfg(test)]
mod symbol_table_tests {
    use super::*;
    use cranelift_entity::EntityRef;

    /// The table answers as a map from symbols to values: lookups of
    /// names never entered (below and past the highest one entered) find
    /// nothing, re-entering a name returns the value it replaces, removing
    /// returns the value once, and iteration lists the names entered.
    #[test]
    fn symbol_table_is_a_map() {
        let (a, b, far) = (Sym::new(3), Sym::new(7), Sym::new(1000));
        let (v, w) = (Value::new(11), Value::new(12));
        let mut t = SymbolTable::default();
        assert_eq!(t.iter().count(), 0);
        assert_eq!(t.insert(b, v), None);
        assert_eq!(t.get(b), Some(v));
        assert_eq!(t.get(a), None, "a hole below an entered name");
        assert_eq!(t.get(far), None, "past the highest entered name");
        assert_eq!(t.insert(a, w), None);
        assert_eq!(t.insert(b, w), Some(v));
        assert!(t.contains(b));
        assert_eq!(t.iter().collect::<Vec<_>>(), [(a, w), (b, w)]);
        assert_eq!(t.remove(b), Some(w));
        assert_eq!(t.remove(b), None);
        assert_eq!(t.remove(far), None);
        assert!(!t.contains(b));
        assert_eq!(t.iter().collect::<Vec<_>>(), [(a, w)]);
    }
}
