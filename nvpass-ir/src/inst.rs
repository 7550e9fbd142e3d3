//! Instructions.
//!
//! An instruction is an [`Opcode`], a result type, value operands, block
//! operands (successors, phi incoming blocks), flags, an opcode-specific
//! [`Extra`] payload and metadata attachments. Operand conventions per opcode
//! are documented on [`Opcode`]'s variants.

use crate::attr::AttrSet;
use crate::entity::{Inst, Seg, Sym, Type, Value};
use crate::pool::PoolRange;
use alloc::boxed::Box;
use alloc::sync::Arc;
use alloc::vec::Vec;
use bitflags::bitflags;
use cranelift_entity::packed_option::PackedOption;
use smallvec::SmallVec;

macro_rules! opcodes {
    ($($(#[$doc:meta])* $name:ident = $kw:literal,)*) => {
        /// Instruction (and constant-expression) opcodes.
        #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
        pub enum Opcode {
            $($(#[$doc])* $name,)*
        }
        impl Opcode {
            /// The LLVM keyword.
            pub fn keyword(self) -> &'static str {
                match self { $(Opcode::$name => $kw,)* }
            }
            /// Looks an opcode up by keyword.
            pub fn from_keyword(kw: &[u8]) -> Option<Opcode> {
                match kw { $(k if k == $kw.as_bytes() => Some(Opcode::$name),)* _ => None }
            }
            /// Every opcode, in declaration order (`op as usize` indexes it).
            pub(crate) const ALL: &'static [Opcode] = &[$(Opcode::$name,)*];
        }
    };
}

opcodes! {
    /// `ret [v]`: ops = `[]` or `[v]`.
    Ret = "ret",
    /// `br`: ops = `[]` / `[cond]`; blocks = `[dest]` / `[then, else]`.
    Br = "br",
    /// `switch`: ops = `[cond, case values...]`; blocks = `[default, case dests...]`.
    Switch = "switch",
    /// `indirectbr`: ops = `[addr]`; blocks = destinations.
    IndirectBr = "indirectbr",
    /// `invoke`: like `call`; blocks = `[normal, unwind]`.
    Invoke = "invoke",
    /// `callbr`: like `call`; blocks = `[default, indirect...]`.
    CallBr = "callbr",
    /// `resume`: ops = `[v]`.
    Resume = "resume",
    /// `unreachable`.
    Unreachable = "unreachable",
    /// `fneg`.
    FNeg = "fneg",
    /// `add`.
    Add = "add",
    /// `fadd`.
    FAdd = "fadd",
    /// `sub`.
    Sub = "sub",
    /// `fsub`.
    FSub = "fsub",
    /// `mul`.
    Mul = "mul",
    /// `fmul`.
    FMul = "fmul",
    /// `udiv`.
    UDiv = "udiv",
    /// `sdiv`.
    SDiv = "sdiv",
    /// `fdiv`.
    FDiv = "fdiv",
    /// `urem`.
    URem = "urem",
    /// `srem`.
    SRem = "srem",
    /// `frem`.
    FRem = "frem",
    /// `shl`.
    Shl = "shl",
    /// `lshr`.
    LShr = "lshr",
    /// `ashr`.
    AShr = "ashr",
    /// `and`.
    And = "and",
    /// `or`.
    Or = "or",
    /// `xor`.
    Xor = "xor",
    /// `extractelement`: ops = `[vec, idx]`.
    ExtractElement = "extractelement",
    /// `insertelement`: ops = `[vec, elt, idx]`.
    InsertElement = "insertelement",
    /// `shufflevector`: ops = `[a, b, mask]`.
    ShuffleVector = "shufflevector",
    /// `extractvalue`: ops = `[agg]`; indices in [`Extra::Indices`].
    ExtractValue = "extractvalue",
    /// `insertvalue`: ops = `[agg, v]`; indices in [`Extra::Indices`].
    InsertValue = "insertvalue",
    /// `alloca`: ops = `[]` or `[count]`; see [`Extra::Alloca`].
    Alloca = "alloca",
    /// `load`: ops = `[ptr]`; see [`Extra::Mem`].
    Load = "load",
    /// `store`: ops = `[value, ptr]`; see [`Extra::Mem`].
    Store = "store",
    /// `fence`: see [`Extra::Mem`].
    Fence = "fence",
    /// `cmpxchg`: ops = `[ptr, cmp, new]`; see [`Extra::Mem`].
    CmpXchg = "cmpxchg",
    /// `atomicrmw`: ops = `[ptr, v]`; see [`Extra::Mem`].
    AtomicRmw = "atomicrmw",
    /// `getelementptr`: ops = `[base, indices...]`; see [`Extra::Gep`].
    GetElementPtr = "getelementptr",
    /// `trunc`.
    Trunc = "trunc",
    /// `zext`.
    ZExt = "zext",
    /// `sext`.
    SExt = "sext",
    /// `fptrunc`.
    FPTrunc = "fptrunc",
    /// `fpext`.
    FPExt = "fpext",
    /// `fptoui`.
    FPToUI = "fptoui",
    /// `fptosi`.
    FPToSI = "fptosi",
    /// `uitofp`.
    UIToFP = "uitofp",
    /// `sitofp`.
    SIToFP = "sitofp",
    /// `ptrtoint`.
    PtrToInt = "ptrtoint",
    /// `inttoptr`.
    IntToPtr = "inttoptr",
    /// `bitcast`.
    BitCast = "bitcast",
    /// `addrspacecast`.
    AddrSpaceCast = "addrspacecast",
    /// `icmp`: ops = `[a, b]`; predicate in [`Extra::Cmp`].
    ICmp = "icmp",
    /// `fcmp`: ops = `[a, b]`; predicate in [`Extra::Cmp`].
    FCmp = "fcmp",
    /// `phi`: ops = incoming values; blocks = incoming blocks (same order).
    Phi = "phi",
    /// `call`: ops = `[callee, args..., bundle operands...]`; see [`CallData`].
    Call = "call",
    /// `select`: ops = `[cond, a, b]`.
    Select = "select",
    /// `va_arg`: ops = `[list]`.
    VAArg = "va_arg",
    /// `landingpad`: ops = clause values; see [`Extra::LandingPad`].
    LandingPad = "landingpad",
    /// `freeze`: ops = `[v]`.
    Freeze = "freeze",
    /// `catchswitch`, `catchpad`, `cleanuppad`, `catchret`, `cleanupret`:
    /// kept verbatim in [`Extra::Verbatim`] (not produced for NVPTX).
    Verbatim = "<verbatim>",
    /// A debug record (`#dbg_value(...)`, `#dbg_declare(...)`, ...): ops are
    /// its arguments as metadata values; kind in [`Extra::DbgRecord`].
    DbgRecord = "#dbg",
}

impl Opcode {
    /// True for block terminators.
    pub fn is_terminator(self) -> bool {
        matches!(
            self,
            Opcode::Ret
                | Opcode::Br
                | Opcode::Switch
                | Opcode::IndirectBr
                | Opcode::Invoke
                | Opcode::CallBr
                | Opcode::Resume
                | Opcode::Unreachable
        )
    }

    /// True for two-operand arithmetic and logic opcodes.
    pub fn is_binary(self) -> bool {
        use Opcode::*;
        matches!(
            self,
            Add | FAdd
                | Sub
                | FSub
                | Mul
                | FMul
                | UDiv
                | SDiv
                | FDiv
                | URem
                | SRem
                | FRem
                | Shl
                | LShr
                | AShr
                | And
                | Or
                | Xor
        )
    }

    /// True for conversion opcodes.
    pub fn is_cast(self) -> bool {
        use Opcode::*;
        matches!(
            self,
            Trunc
                | ZExt
                | SExt
                | FPTrunc
                | FPExt
                | FPToUI
                | FPToSI
                | UIToFP
                | SIToFP
                | PtrToInt
                | IntToPtr
                | BitCast
                | AddrSpaceCast
        )
    }

    /// True for `call`, `invoke` and `callbr`.
    pub fn is_call(self) -> bool {
        matches!(self, Opcode::Call | Opcode::Invoke | Opcode::CallBr)
    }
}

/// A comparison predicate, stored as its keyword index.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Pred(pub u8);

/// `icmp` predicate keywords, indexed by [`Pred`].
pub const ICMP_PREDS: [&str; 10] = [
    "eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle",
];

/// `fcmp` predicate keywords, indexed by [`Pred`].
pub const FCMP_PREDS: [&str; 16] = [
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule",
    "une", "uno", "true",
];

bitflags! {
    /// Instruction and constant-expression flags.
    #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
    pub struct InstFlags: u32 {
        /// `nuw`.
        const NUW = 1 << 0;
        /// `nsw`.
        const NSW = 1 << 1;
        /// `exact`.
        const EXACT = 1 << 2;
        /// `disjoint`.
        const DISJOINT = 1 << 3;
        /// `nneg`.
        const NNEG = 1 << 4;
        /// `inbounds` (GEP).
        const INBOUNDS = 1 << 5;
        /// `nusw` (GEP).
        const NUSW = 1 << 6;
        /// `volatile` (memory ops).
        const VOLATILE = 1 << 7;
        /// `atomic` (load/store).
        const ATOMIC = 1 << 8;
        /// `weak` (cmpxchg).
        const WEAK = 1 << 9;
        /// `samesign` (icmp).
        const SAMESIGN = 1 << 10;
        /// `nnan`.
        const NNAN = 1 << 11;
        /// `ninf`.
        const NINF = 1 << 12;
        /// `nsz`.
        const NSZ = 1 << 13;
        /// `arcp`.
        const ARCP = 1 << 14;
        /// `contract`.
        const CONTRACT = 1 << 15;
        /// `afn`.
        const AFN = 1 << 16;
        /// `reassoc`.
        const REASSOC = 1 << 17;
        /// `tail` call.
        const TAIL = 1 << 18;
        /// `musttail` call.
        const MUSTTAIL = 1 << 19;
        /// `notail` call.
        const NOTAIL = 1 << 20;
        /// `inalloca` (alloca).
        const INALLOCA = 1 << 21;
        /// `cleanup` (landingpad).
        const CLEANUP = 1 << 22;
        /// `swifterror` (alloca).
        const SWIFTERROR = 1 << 23;
        /// All fast-math flags: what `fast` stands for.
        const FAST = Self::NNAN.bits() | Self::NINF.bits() | Self::NSZ.bits()
            | Self::ARCP.bits() | Self::CONTRACT.bits() | Self::AFN.bits()
            | Self::REASSOC.bits();
    }
}

/// Atomic ordering.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum Ordering {
    /// Not atomic.
    #[default]
    NotAtomic,
    /// `unordered`.
    Unordered,
    /// `monotonic`.
    Monotonic,
    /// `acquire`.
    Acquire,
    /// `release`.
    Release,
    /// `acq_rel`.
    AcqRel,
    /// `seq_cst`.
    SeqCst,
}

impl Ordering {
    /// The keyword (empty for NotAtomic).
    pub fn keyword(self) -> &'static str {
        match self {
            Ordering::NotAtomic => "",
            Ordering::Unordered => "unordered",
            Ordering::Monotonic => "monotonic",
            Ordering::Acquire => "acquire",
            Ordering::Release => "release",
            Ordering::AcqRel => "acq_rel",
            Ordering::SeqCst => "seq_cst",
        }
    }
}

/// Calling conventions.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum CallConv {
    /// Default C convention (printed as nothing).
    #[default]
    C,
    /// `fastcc`.
    Fast,
    /// `coldcc`.
    Cold,
    /// `ptx_kernel` (LLVM id 71).
    PtxKernel,
    /// `ptx_device` (LLVM id 72).
    PtxDevice,
    /// `ccN` or another keyword convention (verbatim).
    Other(Sym),
}

/// Tail-call marker of a call.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum TailKind {
    /// None.
    #[default]
    None,
    /// `tail`.
    Tail,
    /// `musttail`.
    MustTail,
    /// `notail`.
    NoTail,
}

/// An operand bundle `"tag"(ty v, ...)`: its operands are a contiguous range
/// of the call's operands.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Bundle {
    /// The tag.
    pub tag: Sym,
    /// Index of the first operand in the call's operand list.
    pub start: u32,
    /// Number of operands.
    pub len: u32,
}

/// Call-site data of `call`, `invoke`, `callbr`.
///
/// Shared: calls with equal call-site data hold one payload
/// ([`Module::share_call_data`](crate::Module::share_call_data); the reader
/// and attribute edits use it), as most calls in a module repeat a few
/// signatures and attribute lists. [`InstData::call_mut`] copies a shared
/// payload before changing it.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct CallData {
    /// The callee's function type.
    pub fn_ty: Option<Type>,
    /// Whether the function type was written explicitly (varargs calls).
    pub explicit_fn_ty: bool,
    /// Calling convention.
    pub cc: CallConv,
    /// Return-value attributes.
    pub ret_attrs: AttrSet,
    /// Function attributes of the call site.
    pub fn_attrs: AttrSet,
    /// Per-argument attributes (index = argument number). Arguments after
    /// the last one with attributes may have no entry (most call sites
    /// have none at all, and an empty set costs 48 bytes), so read it with
    /// `get(k)`, treating a missing entry as empty.
    pub param_attrs: Vec<AttrSet>,
    /// Number of arguments (ops[1..1 + nargs]).
    pub nargs: u32,
    /// Operand bundles (a boxed slice: rare, and 8 bytes smaller than an
    /// empty `Vec`).
    pub bundles: Box<[Bundle]>,
    /// Tail marker.
    pub tail: TailKind,
    /// Address space of the callee for `call addrspace(N)`.
    pub addrspace: Option<u32>,
}

/// An alignment in bytes: a power of two, stored as its base-2 logarithm
/// in one byte (LLVM accepts nothing else; the reader rejects other values
/// with `alignment is not a power of two`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Align(u8);

impl Align {
    /// The alignment of `bytes` bytes; `None` unless `bytes` is a power of
    /// two.
    pub fn new(bytes: u64) -> Option<Align> {
        bytes
            .is_power_of_two()
            .then(|| Align(bytes.trailing_zeros() as u8))
    }

    /// The alignment in bytes.
    pub fn bytes(self) -> u64 {
        1u64 << self.0
    }
}

/// Opcode-specific payload. Kept at 16 bytes: the payloads that would
/// make it larger (`extractvalue` indices, `landingpad` clauses, call-site
/// data) are boxed, alignments are one byte.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub enum Extra {
    /// No payload.
    #[default]
    None,
    /// Compare predicate.
    Cmp(Pred),
    /// `alloca`.
    Alloca {
        /// Allocated type.
        ty: Type,
        /// `align N`.
        align: Option<Align>,
        /// `addrspace(N)`.
        addrspace: Option<u32>,
    },
    /// `load`, `store`, `fence`, `cmpxchg`, `atomicrmw`.
    Mem {
        /// `align N`.
        align: Option<Align>,
        /// Ordering (success ordering for cmpxchg).
        ordering: Ordering,
        /// Failure ordering (cmpxchg).
        failure: Ordering,
        /// `syncscope("...")`.
        syncscope: Option<Sym>,
        /// The atomicrmw operation keyword (`add`, `xchg`, `fmax`, ...).
        rmw_op: Option<Sym>,
    },
    /// `getelementptr`.
    Gep {
        /// Source element type.
        source_ty: Type,
    },
    /// `extractvalue` / `insertvalue` indices.
    Indices(Box<SmallVec<[u32; 4]>>),
    /// Call-site data, shared between copies: inlining and cloning copy
    /// many call sites, and copying one is then a reference-count
    /// increment. [`InstData::call_mut`] unshares it before a change.
    Call(Arc<CallData>),
    /// `landingpad` clauses: `true` = `catch`, `false` = `filter`, one per op.
    LandingPad(Box<SmallVec<[bool; 2]>>),
    /// Debug record kind (`value`, `declare`, `assign`, `label`).
    DbgRecord(Sym),
    /// Verbatim text after the `=` (or the whole line when no result) for
    /// instructions nvpass does not model.
    Verbatim(Sym),
}

/// An instruction.
#[derive(Clone, Debug)]
pub struct InstData {
    /// Opcode.
    pub opcode: Opcode,
    /// Result value, when the instruction produces one. The instruction's
    /// type is the result's ([`Module::inst_ty`](crate::Module::inst_ty)),
    /// `void` without one.
    pub result: PackedOption<Value>,
    /// Where the value operands live in the module's operand pool: read
    /// them with [`Module::inst_ops`](crate::Module::inst_ops) or
    /// [`Module::ops_of`](crate::Module::ops_of). A copied record shares
    /// its source's slots, so a copy must not be changed through the pool.
    pub ops: PoolRange,
    /// Where the block operands (successors, a phi's incoming blocks) live
    /// in the module's block pool: read them with
    /// [`Module::inst_block_ops`](crate::Module::inst_block_ops) or
    /// [`Module::block_ops_of`](crate::Module::block_ops_of). Shared by a
    /// copied record, as `ops` is.
    pub blocks: PoolRange,
    /// Flags.
    pub flags: InstFlags,
    /// Opcode-specific payload.
    pub extra: Extra,
    /// Where the metadata attachments (`!dbg`, `!tbaa`, ...) live in the
    /// module's attachment pool, in source order: read them with
    /// [`Module::inst_attachments`](crate::Module::inst_attachments) or
    /// [`Module::attachments_of`](crate::Module::attachments_of). Shared
    /// by a copied record, as `ops` is.
    pub md: PoolRange,
    /// Label of the parent block (none while detached); the block is
    /// [`Module::block_of`](crate::Module::block_of).
    pub seg: PackedOption<Seg>,
    /// Previous instruction in the block.
    pub prev: PackedOption<Inst>,
    /// Next instruction in the block.
    pub next: PackedOption<Inst>,
}

impl InstData {
    /// The call-site data of a call-like instruction.
    pub fn call(&self) -> Option<&CallData> {
        match &self.extra {
            Extra::Call(c) => Some(c),
            _ => None,
        }
    }

    /// Mutable call-site data (copied first when another instruction
    /// shares it).
    pub fn call_mut(&mut self) -> Option<&mut CallData> {
        match &mut self.extra {
            Extra::Call(c) => Some(Arc::make_mut(c)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::mem::size_of;

    /// The instruction table is the largest in a module: these bounds keep
    /// its per-instruction cost from growing unnoticed.
    #[test]
    fn instruction_sizes_stay_bounded() {
        assert!(size_of::<Extra>() <= 16, "Extra: {}", size_of::<Extra>());
        assert!(
            size_of::<InstData>() <= 64,
            "InstData: {}",
            size_of::<InstData>()
        );
        assert!(
            size_of::<CallData>() <= 120,
            "CallData: {}",
            size_of::<CallData>()
        );
        assert!(
            size_of::<AttrSet>() <= 24,
            "AttrSet: {}",
            size_of::<AttrSet>()
        );
    }

    #[test]
    fn align_holds_every_power_of_two() {
        for k in 0..64 {
            assert_eq!(Align::new(1 << k).map(Align::bytes), Some(1 << k));
        }
        for b in [0u64, 3, 6, 12, u64::MAX] {
            assert_eq!(Align::new(b), None, "{b}");
        }
        assert!(Align::new(4) < Align::new(8));
    }
}
