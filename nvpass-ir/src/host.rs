//! The reference IR as an nvpass host: [`Module`] implements
//! [`TypeView`], [`IrView`] and [`IrEdit`] from `nvpass-core`.
//!
//! Ids map one to one: `FuncId(n)` is [`Func`] `n`, `ValueId(n)` is
//! [`Value`] `n`, and so on.
//!
//! Mapping choices:
//! * Call operands: the reference IR stores a call's callee first
//!   (`[callee, args..., bundle operands...]`); the traits list it last, as
//!   LLVM does. Operand indices are translated here.
//! * Debug records (`#dbg_value(...)`) are not instructions to passes:
//!   [`IrView::insts`] skips them, and uses through metadata
//!   (`metadata i32 %x`) are not reported by [`IrView::users`]. Erasing an
//!   instruction that only debug info still refers to turns those references
//!   into `poison`, as LLVM does.
//! * Alias and personality/prefix/prologue uses are reported as
//!   [`User::Const`] of the alias or function value.
//! * [`IrView::predecessors`] scans the function's terminators: O(blocks).

use crate::attr::{Attr as IrAttr, AttrSet};
use crate::entity::{Block, Func, Global, Inst, Md, Sym, Type, Value};
use crate::inst::{Align, CallData, Extra, InstFlags, Opcode as IrOpcode};
use crate::metadata::{Attachment, DiLocation, MdField, MdKind, MdNode, MdRef, NamedMd};
use crate::module::{
    is_inline_name, BlockData, FuncData, Linkage as IrLinkage, Module, Param, TopLevel,
};
use crate::short::ShortVec;
use crate::types::{FloatKind, NamedBody, TypeData};
use crate::value::{Const, User as IrUser, ValueKind as IrValueKind, Wide};
use alloc::string::String;

/// The `llvm.memcpy` overload that copies `byval` arguments when inlining.
const MEMCPY_P0_P0_I64: &str = "llvm.memcpy.p0.p0.i64";
use alloc::vec::Vec;
use cranelift_entity::packed_option::PackedOption;
use cranelift_entity::EntityRef;
use hashbrown::HashMap;
use nvpass_core::datalayout::DataLayout;
use nvpass_core::diag::DebugLoc;
use nvpass_core::ir::{
    Attr, AttrKey, AttrKind, AttrSlot, BlockId, CallConv, Callee, ConstKind, EditError, FuncId,
    GlobalId, InlineInfo, InstId, IrEdit, IrView, Linkage, MdId, MdOperand, Opcode, TypeId,
    TypeKind, TypeView, User, ValueId, ValueKind, ValueMap,
};
use smallvec::SmallVec;

// ----- id conversions ----------------------------------------------------

/// `$to(ir_id) -> core_id` and `$from(core_id) -> ir_id` for one entity
/// kind: both sides are dense `u32` indices, so ids map one to one.
macro_rules! id_conversions {
    ($($to:ident, $from:ident: $ir:ident <-> $core:ident;)*) => {
        $(
            fn $to(x: $ir) -> $core {
                $core::new(x.index() as u32)
            }
            fn $from(x: $core) -> $ir {
                $ir::new(x.index())
            }
        )*
    };
}

id_conversions! {
    fid, ffrom: Func <-> FuncId;
    bid, bfrom: Block <-> BlockId;
    iid, ifrom: Inst <-> InstId;
    vid, vfrom: Value <-> ValueId;
    tid, tfrom: Type <-> TypeId;
    gid, gfrom: Global <-> GlobalId;
    mid, mfrom: Md <-> MdId;
}

/// Whether stored attribute `a` is the keyword attribute named `name`
/// (enum, integer or type).
#[inline]
fn has_kind(a: &IrAttr, name: Sym) -> bool {
    matches!(*a, IrAttr::Enum(n) | IrAttr::Int { kind: n, .. } | IrAttr::Type { kind: n, .. } if n == name)
}

/// Whether stored attribute `a` is the string attribute with key `name`.
#[inline]
fn has_str_key(a: &IrAttr, name: Sym) -> bool {
    matches!(*a, IrAttr::Str { key, .. } if key == name)
}

/// Converts the reference IR's opcode to the traits' opcode.
pub fn core_opcode(op: IrOpcode) -> Opcode {
    match op {
        IrOpcode::Ret => Opcode::Ret,
        IrOpcode::Br => Opcode::Br,
        IrOpcode::Switch => Opcode::Switch,
        IrOpcode::IndirectBr => Opcode::IndirectBr,
        IrOpcode::Invoke => Opcode::Invoke,
        IrOpcode::CallBr => Opcode::CallBr,
        IrOpcode::Resume => Opcode::Resume,
        IrOpcode::Unreachable => Opcode::Unreachable,
        IrOpcode::FNeg => Opcode::FNeg,
        IrOpcode::Add => Opcode::Add,
        IrOpcode::FAdd => Opcode::FAdd,
        IrOpcode::Sub => Opcode::Sub,
        IrOpcode::FSub => Opcode::FSub,
        IrOpcode::Mul => Opcode::Mul,
        IrOpcode::FMul => Opcode::FMul,
        IrOpcode::UDiv => Opcode::UDiv,
        IrOpcode::SDiv => Opcode::SDiv,
        IrOpcode::FDiv => Opcode::FDiv,
        IrOpcode::URem => Opcode::URem,
        IrOpcode::SRem => Opcode::SRem,
        IrOpcode::FRem => Opcode::FRem,
        IrOpcode::Shl => Opcode::Shl,
        IrOpcode::LShr => Opcode::LShr,
        IrOpcode::AShr => Opcode::AShr,
        IrOpcode::And => Opcode::And,
        IrOpcode::Or => Opcode::Or,
        IrOpcode::Xor => Opcode::Xor,
        IrOpcode::ExtractElement => Opcode::ExtractElement,
        IrOpcode::InsertElement => Opcode::InsertElement,
        IrOpcode::ShuffleVector => Opcode::ShuffleVector,
        IrOpcode::ExtractValue => Opcode::ExtractValue,
        IrOpcode::InsertValue => Opcode::InsertValue,
        IrOpcode::Alloca => Opcode::Alloca,
        IrOpcode::Load => Opcode::Load,
        IrOpcode::Store => Opcode::Store,
        IrOpcode::Fence => Opcode::Fence,
        IrOpcode::CmpXchg => Opcode::AtomicCmpXchg,
        IrOpcode::AtomicRmw => Opcode::AtomicRmw,
        IrOpcode::GetElementPtr => Opcode::GetElementPtr,
        IrOpcode::Trunc => Opcode::Trunc,
        IrOpcode::ZExt => Opcode::ZExt,
        IrOpcode::SExt => Opcode::SExt,
        IrOpcode::FPTrunc => Opcode::FpTrunc,
        IrOpcode::FPExt => Opcode::FpExt,
        IrOpcode::FPToUI => Opcode::FpToUi,
        IrOpcode::FPToSI => Opcode::FpToSi,
        IrOpcode::UIToFP => Opcode::UiToFp,
        IrOpcode::SIToFP => Opcode::SiToFp,
        IrOpcode::PtrToInt => Opcode::PtrToInt,
        IrOpcode::IntToPtr => Opcode::IntToPtr,
        IrOpcode::BitCast => Opcode::BitCast,
        IrOpcode::AddrSpaceCast => Opcode::AddrSpaceCast,
        IrOpcode::ICmp => Opcode::ICmp,
        IrOpcode::FCmp => Opcode::FCmp,
        IrOpcode::Phi => Opcode::Phi,
        IrOpcode::Call => Opcode::Call,
        IrOpcode::Select => Opcode::Select,
        IrOpcode::VAArg => Opcode::VaArg,
        IrOpcode::LandingPad => Opcode::LandingPad,
        IrOpcode::Freeze => Opcode::Freeze,
        IrOpcode::Verbatim => Opcode::Other,
        IrOpcode::DbgRecord => Opcode::Other,
    }
}

/// Converts the traits' opcode to the reference IR's opcode.
pub fn ir_opcode(op: Opcode) -> Option<IrOpcode> {
    IrOpcode::from_keyword(op.name().as_bytes())
}

fn core_linkage(l: IrLinkage) -> Linkage {
    match l {
        IrLinkage::External => Linkage::External,
        IrLinkage::Private => Linkage::Private,
        IrLinkage::Internal => Linkage::Internal,
        IrLinkage::AvailableExternally => Linkage::AvailableExternally,
        IrLinkage::LinkOnce => Linkage::LinkOnceAny,
        IrLinkage::Weak => Linkage::WeakAny,
        IrLinkage::Common => Linkage::Common,
        IrLinkage::Appending => Linkage::Appending,
        IrLinkage::ExternWeak => Linkage::ExternWeak,
        IrLinkage::LinkOnceOdr => Linkage::LinkOnceOdr,
        IrLinkage::WeakOdr => Linkage::WeakOdr,
    }
}

fn ir_linkage(l: Linkage) -> IrLinkage {
    IrLinkage::from_keyword(l.keyword().as_bytes()).unwrap_or(IrLinkage::External)
}

impl Module {
    fn str_of(&self, s: Sym) -> &str {
        let bytes = self.strings.get(s);
        // Names are nearly always ASCII, which the word-at-a-time check
        // settles faster than a full UTF-8 validation.
        if bytes.is_ascii() {
            // SAFETY: ASCII bytes are valid UTF-8.
            return unsafe { core::str::from_utf8_unchecked(bytes) };
        }
        core::str::from_utf8(bytes).unwrap_or("")
    }

    fn core_cc(&self, cc: crate::inst::CallConv) -> CallConv {
        use crate::inst::CallConv as C;
        match cc {
            C::C => CallConv::C,
            C::Fast => CallConv::Fast,
            C::Cold => CallConv::Cold,
            C::PtxKernel => CallConv::PtxKernel,
            C::PtxDevice => CallConv::PtxDevice,
            C::Other(s) => {
                let t = self.str_of(s);
                let id = t.strip_prefix("cc").and_then(|n| n.parse().ok());
                id.map(CallConv::from_id)
                    .unwrap_or(CallConv::Other(u32::MAX))
            }
        }
    }

    fn ir_cc(&mut self, cc: CallConv) -> crate::inst::CallConv {
        use crate::inst::CallConv as C;
        match cc {
            CallConv::C => C::C,
            CallConv::Fast => C::Fast,
            CallConv::Cold => C::Cold,
            CallConv::PtxKernel => C::PtxKernel,
            CallConv::PtxDevice => C::PtxDevice,
            CallConv::Other(n) => {
                let s = alloc::format!("cc{n}");
                C::Other(self.sym(&s))
            }
        }
    }

    /// Converts one stored attribute to the traits' form.
    fn core_attr<'a>(&'a self, a: &IrAttr) -> Attr<'a> {
        match *a {
            IrAttr::Enum(k) => {
                let name = self.str_of(k);
                match AttrKind::from_name(name) {
                    Some(kind) => Attr::Enum(kind),
                    None => Attr::Unknown(name),
                }
            }
            IrAttr::Int { kind, value, .. } => match AttrKind::from_name(self.str_of(kind)) {
                Some(k) => Attr::Int(k, value),
                None => Attr::Unknown(self.str_of(kind)),
            },
            IrAttr::Type { kind, ty } => match AttrKind::from_name(self.str_of(kind)) {
                Some(k) => Attr::Type(k, tid(ty)),
                None => Attr::Unknown(self.str_of(kind)),
            },
            IrAttr::Str { key, value } => Attr::Str(
                self.str_of(key),
                value.map(|v| self.str_of(v)).unwrap_or(""),
            ),
            IrAttr::Raw { text, .. } => Attr::Unknown(self.str_of(text)),
        }
    }

    /// Converts a traits attribute to the stored form.
    fn ir_attr(&mut self, a: &Attr<'_>) -> IrAttr {
        match *a {
            Attr::Enum(k) => IrAttr::Enum(self.sym(k.name())),
            Attr::Int(k, value) => IrAttr::Int {
                kind: self.sym(k.name()),
                value,
                paren: k != AttrKind::Align,
            },
            Attr::Type(k, ty) => IrAttr::Type {
                kind: self.sym(k.name()),
                ty: tfrom(ty),
            },
            Attr::Str(k, v) => IrAttr::Str {
                key: self.sym(k),
                value: if v.is_empty() {
                    None
                } else {
                    Some(self.sym(v))
                },
            },
            Attr::Unknown(text) => {
                let end = text
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
                    .unwrap_or(text.len());
                IrAttr::Raw {
                    kind: self.sym(&text[..end]),
                    text: self.sym(text),
                }
            }
        }
    }

    fn group_attrs(&self, id: u32) -> &[IrAttr] {
        // Groups are usually numbered in order from 0, so group `#N` is
        // found in place; otherwise it is searched for.
        let group = match self.attr_groups.get(id as usize) {
            Some(g) if g.id == id => Some(g),
            _ => self.attr_groups.iter().find(|g| g.id == id),
        };
        group.map_or(&[], |g| &g.attrs[..])
    }

    /// The stored attributes of a set: its own, then its groups'.
    fn stored_attrs<'a>(&'a self, set: &'a AttrSet) -> impl Iterator<Item = &'a IrAttr> + 'a {
        set.attrs.iter().chain(
            set.groups
                .iter()
                .flat_map(move |&g| self.group_attrs(g).iter()),
        )
    }

    /// All attributes of a set, groups expanded.
    fn set_attrs<'a>(&'a self, set: &'a AttrSet) -> impl Iterator<Item = Attr<'a>> + 'a {
        self.stored_attrs(set).map(move |a| self.core_attr(a))
    }

    /// Whether `set` has an attribute with key `key`. Known keywords and
    /// string keys are compared as interned names, so no stored attribute
    /// is converted ([`Module::core_attr`]); a name that was never interned
    /// is on no attribute at all.
    fn set_has_key(&self, set: &AttrSet, key: AttrKey<'_>) -> bool {
        let Some(probe) = self.key_probe(key) else {
            return false;
        };
        // One loop per kind of key, so that the test of each stored
        // attribute is a compare or two: this runs for every attribute
        // query of every pass, over groups of a dozen attributes.
        match (key, probe) {
            (AttrKey::Kind(_), Some(name)) => self.set_any(set, |a| has_kind(a, name)),
            (AttrKey::Str(_), Some(name)) => self.set_any(set, |a| has_str_key(a, name)),
            _ => self.set_any(set, |a| key.matches(&self.core_attr(a))),
        }
    }

    /// Whether a stored attribute of `set` (its own or its groups')
    /// satisfies `test`; slice by slice rather than through
    /// `stored_attrs`' chained iterator.
    #[inline]
    fn set_any(&self, set: &AttrSet, test: impl Fn(&IrAttr) -> bool) -> bool {
        set.attrs.iter().any(&test)
            || set
                .groups
                .iter()
                .any(|&g| self.group_attrs(g).iter().any(&test))
    }

    /// What [`Module::has_key`] compares stored attributes with: the
    /// interned name of a keyword (always interned,
    /// [`Interner::kind_sym`](crate::intern::Interner::kind_sym)) or string
    /// key (`None` when the name was never interned, so no attribute has
    /// it; for the kernel marks the interner knows without hashing,
    /// [`Interner::str_key_sym`](crate::intern::Interner::str_key_sym)), or
    /// `Some(None)` for an unknown keyword, which is compared by conversion.
    fn key_probe(&self, key: AttrKey<'_>) -> Option<Option<Sym>> {
        match key {
            AttrKey::Kind(k) => Some(Some(self.strings.kind_sym(k))),
            AttrKey::Str(k) => match self.strings.str_key_sym(k) {
                Some(known) => known.map(Some),
                None => self.strings.lookup(k.as_bytes()).map(Some),
            },
            AttrKey::Other(_) => Some(None),
        }
    }

    /// Whether stored attribute `a` has key `key`, whose probe is `probe`
    /// ([`Module::key_probe`]): known keywords and string keys compare as
    /// interned names, without converting `a` ([`Module::core_attr`]).
    fn has_key(&self, a: &IrAttr, key: AttrKey<'_>, probe: Option<Sym>) -> bool {
        match (key, probe) {
            (AttrKey::Kind(_), Some(name)) => has_kind(a, name),
            (AttrKey::Str(_), Some(name)) => has_str_key(a, name),
            _ => key.matches(&self.core_attr(a)),
        }
    }

    /// The first stored attribute of `set` (groups expanded) whose keyword
    /// is `kind` and for which `pick` gives a value, compared as interned
    /// names like [`Module::set_has_key`]: what the trait's default gets by
    /// converting every attribute, without converting any.
    fn set_find_kind<T>(
        &self,
        set: &AttrSet,
        kind: AttrKind,
        pick: impl Fn(&IrAttr) -> Option<T>,
    ) -> Option<T> {
        let name = self.strings.kind_sym(kind);
        self.stored_attrs(set)
            .filter(|a| {
                matches!(**a, IrAttr::Int { kind: n, .. } | IrAttr::Type { kind: n, .. } if n == name)
            })
            .find_map(pick)
    }

    fn func_set(&self, f: Func, slot: AttrSlot) -> Option<&AttrSet> {
        let d = &self.funcs[f];
        match slot {
            AttrSlot::Function => Some(&d.fn_attrs),
            AttrSlot::Return => Some(&d.ret_attrs),
            AttrSlot::Param(i) => d.params.get(i as usize).map(|p| &p.attrs),
        }
    }

    fn call_set(&self, i: Inst, slot: AttrSlot) -> Option<&AttrSet> {
        let c = self.insts[i].call()?;
        match slot {
            AttrSlot::Function => Some(&c.fn_attrs),
            AttrSlot::Return => Some(&c.ret_attrs),
            AttrSlot::Param(n) => c.param_attrs.get(n as usize),
        }
    }

    /// Adds `attr` to `set`, replacing an attribute with the same key; an
    /// attribute group holding the key is expanded inline first.
    fn edit_set(&mut self, set: &mut AttrSet, key: AttrKey<'_>, add: Option<IrAttr>) -> bool {
        // A name never interned is on no attribute: nothing to remove.
        let mut removed = false;
        if let Some(probe) = self.key_probe(key) {
            // Expand groups that contain the key so the edit stays local.
            let mut expand = Vec::new();
            for &g in &set.groups {
                if self
                    .group_attrs(g)
                    .iter()
                    .any(|a| self.has_key(a, key, probe))
                {
                    expand.push(g);
                }
            }
            for g in &expand {
                let attrs: Vec<IrAttr> = self.group_attrs(*g).to_vec();
                set.groups.retain(|x| x != g);
                set.attrs.extend(attrs);
            }
            let before = set.attrs.len();
            set.attrs.retain(|a| !self.has_key(a, key, probe));
            removed = set.attrs.len() != before;
        }
        if let Some(a) = add {
            set.attrs.push(a);
        }
        removed
    }

    /// Users that count as uses for passes (metadata wrappers excluded).
    fn is_md_value(&self, v: Value) -> bool {
        matches!(self.values[v].kind, IrValueKind::Metadata(_))
    }

    fn real_users(&self, v: Value) -> impl Iterator<Item = crate::value::Use> + '_ {
        self.users(v)
            .iter()
            .copied()
            .filter(move |u| match u.user() {
                IrUser::Value(w) => !self.is_md_value(w),
                _ => true,
            })
    }

    /// Points debug-info references to `v` (through `metadata <ty> v`) at
    /// `poison` instead.
    fn drop_md_uses(&mut self, v: Value) {
        let md_uses: Vec<crate::value::Use> = self
            .users(v)
            .iter()
            .copied()
            .filter(|u| matches!(u.user(), IrUser::Value(w) if self.is_md_value(w)))
            .collect();
        if md_uses.is_empty() {
            return;
        }
        let ty = self.values[v].ty;
        let poison = self.const_scalar(ty, Const::Poison);
        for u in md_uses {
            self.set_operand(u, poison);
        }
    }

    /// Maps a trait operand index of `inst` to the stored operand index.
    fn stored_index(&self, inst: Inst, index: usize) -> Option<usize> {
        let d = &self.insts[inst];
        if d.opcode == IrOpcode::DbgRecord || index >= d.ops.len() {
            return None;
        }
        if d.opcode.is_call() {
            let n = d.ops.len();
            Some(if index == n - 1 { 0 } else { index + 1 })
        } else {
            Some(index)
        }
    }

    fn call_nargs(&self, inst: Inst) -> usize {
        self.insts[inst]
            .call()
            .map(|c| c.nargs as usize)
            .unwrap_or(0)
    }

    fn data_layout_ref(&self) -> &DataLayout {
        self.layout.get_or_init(|| {
            self.datalayout
                .and_then(|s| DataLayout::parse(self.str_of(s)).ok())
                .unwrap_or_default()
        })
    }

    /// A field of a specialized node as written. A compact `DILocation`
    /// ([`MdKind::Location`]) has no field list: read its fields with
    /// `md_field_uint` and `md_field_node`, which answer for both forms.
    fn md_field<'a>(&'a self, md: Md, name: &str) -> Option<&'a MdField> {
        match &self.mds[md].kind {
            MdKind::Specialized { fields, .. } => fields
                .iter()
                .find(|(k, _)| self.str_of(*k) == name)
                .map(|(_, v)| v),
            _ => None,
        }
    }

    fn md_field_uint(&self, md: Md, name: &str) -> Option<u32> {
        if let MdKind::Location(l) = &self.mds[md].kind {
            return match name {
                "line" => Some(l.line),
                "column" => l.column.map(|c| c.get()),
                _ => None,
            };
        }
        match self.md_field(md, name)? {
            MdField::Raw(s) => self.str_of(*s).parse().ok(),
            _ => None,
        }
    }

    fn md_field_node(&self, md: Md, name: &str) -> Option<Md> {
        if let MdKind::Location(l) = &self.mds[md].kind {
            return match name {
                "scope" => Some(l.scope),
                "inlinedAt" => l.inlined_at,
                _ => None,
            };
        }
        match self.md_field(md, name)? {
            MdField::Ref(MdRef::Node(n)) => Some(*n),
            _ => None,
        }
    }

    fn md_file_name(&self, scope: Md) -> Option<String> {
        let mut cur = scope;
        for _ in 0..64 {
            if let MdKind::Specialized { class, .. } = &self.mds[cur].kind {
                if self.str_of(*class) == "DIFile" {
                    return match self.md_field(cur, "filename")? {
                        MdField::Raw(s) => {
                            let t = self.str_of(*s);
                            Some(String::from(t.trim_matches('"')))
                        }
                        _ => None,
                    };
                }
            }
            cur = self
                .md_field_node(cur, "file")
                .or_else(|| self.md_field_node(cur, "scope"))?;
        }
        None
    }

    fn attachment(&self, md: &[Attachment], kind: &str) -> Option<MdId> {
        md.iter()
            .find(|a| self.strings.get(a.kind) == kind.as_bytes())
            .map(|a| mid(a.node))
    }

    fn check_types(&self, a: Value, b: Value) -> Result<(), EditError> {
        if self.values[a].ty == self.values[b].ty {
            Ok(())
        } else {
            Err(EditError::TypeMismatch)
        }
    }

    fn check_args(&self, fn_ty: Type, args: &[ValueId]) -> Result<(), EditError> {
        let (_, params, vararg) = self.types.func_sig(fn_ty).ok_or(EditError::TypeMismatch)?;
        if args.len() < params.len() || (!vararg && args.len() != params.len()) {
            return Err(EditError::TypeMismatch);
        }
        for (a, p) in args.iter().zip(params) {
            if self.values[vfrom(*a)].ty != *p {
                return Err(EditError::TypeMismatch);
            }
        }
        Ok(())
    }

    fn new_call_inst(&mut self, fn_ty: Type, callee: Value, args: &[Value]) -> Inst {
        let ret = self.types.func_sig(fn_ty).map(|s| s.0).unwrap_or(fn_ty);
        let vararg = self.types.func_sig(fn_ty).map(|s| s.2).unwrap_or(false);
        let mut ops: SmallVec<[Value; 8]> = SmallVec::new();
        ops.push(callee);
        ops.extend_from_slice(args);
        let data = CallData {
            fn_ty: Some(fn_ty),
            explicit_fn_ty: vararg,
            nargs: args.len() as u32,
            ..CallData::default()
        };
        self.new_inst(
            IrOpcode::Call,
            ret,
            &ops,
            Extra::Call(alloc::sync::Arc::new(data)),
            None,
        )
    }

    /// Copies instruction `src` (operands mapped through `vmap` and blocks
    /// through `bmap`) to a new detached instruction.
    fn copy_inst(
        &mut self,
        src: Inst,
        vmap: &HashMap<Value, Value>,
        bmap: &HashMap<Block, Block>,
        result: Option<Value>,
    ) -> Inst {
        let d = &self.insts[src];
        let data = crate::inst::InstData {
            opcode: d.opcode,
            result: result.into(),
            ops: crate::pool::PoolRange::default(),
            blocks: crate::pool::PoolRange::default(),
            flags: d.flags,
            extra: d.extra.clone(),
            md: crate::pool::PoolRange::default(),
            seg: PackedOption::default(),
            prev: PackedOption::default(),
            next: PackedOption::default(),
        };
        let (ops, blocks, md) = (d.ops.clone(), d.blocks.clone(), d.md.clone());
        let new = self.push_inst_record(data);
        if let Some(r) = result {
            self.values[r].kind = IrValueKind::Inst(new);
        }
        // The lists are copied whole, then mapped in place: no list is
        // gathered elsewhere first.
        self.insts[new].ops = self.op_pool.copy(&ops);
        for k in 0..ops.len() {
            let v = self.map_operand(self.inst_ops(new)[k].value, vmap);
            let o = self.add_use(v, IrUser::Inst(new), k as u32);
            self.inst_ops_mut(new)[k] = o;
        }
        self.insts[new].blocks = self.block_pool.copy(&blocks);
        for b in self.inst_block_ops_mut(new) {
            if let Some(&nb) = bmap.get(b) {
                *b = nb;
            }
        }
        self.insts[new].md = self.md_pool.copy(&md);
        new
    }

    /// Maps an operand value; metadata wrappers of local values are copied.
    fn map_operand(&mut self, v: Value, vmap: &HashMap<Value, Value>) -> Value {
        if let Some(&n) = vmap.get(&v) {
            return n;
        }
        if let IrValueKind::Metadata(md) = self.values[v].kind {
            if let Some(inner) = self.value_ops(v).first().map(|o| o.value) {
                if let Some(&n) = vmap.get(&inner) {
                    return self.new_md_value(md, Some(n));
                }
            }
        }
        v
    }

    /// Copies the blocks of `src` into `dst`, inserted after `after` (or
    /// appended when `None`). Returns the block map, the new blocks and the
    /// number of instructions copied; `vmap` must already map the arguments
    /// and receives every copied result.
    fn copy_body(
        &mut self,
        src: Func,
        dst: Func,
        after: Option<Block>,
        vmap: &mut HashMap<Value, Value>,
    ) -> (HashMap<Block, Block>, Vec<Block>, usize) {
        let src_blocks: Vec<Block> = self.func_blocks(src).collect();
        let mut bmap = HashMap::with_capacity(src_blocks.len());
        let mut new_blocks = Vec::with_capacity(src_blocks.len());
        let mut prev = after;
        for &b in &src_blocks {
            let name = self.blocks[b].name;
            let nb = match prev {
                None => self.append_block(dst, name),
                Some(p) => self.insert_block_after(dst, p, name),
            };
            prev = Some(nb);
            bmap.insert(b, nb);
            new_blocks.push(nb);
        }
        // Results first, so forward references (phis, later blocks) resolve.
        // Counting first sizes the map and the list once.
        let count: usize = src_blocks
            .iter()
            .map(|&b| self.block_insts(b).count())
            .sum();
        vmap.reserve(count);
        let mut pairs = Vec::with_capacity(count);
        for &b in &src_blocks {
            let mut cur = self.inst_cursor(b);
            while let Some(i) = cur.next(self) {
                let r = self.insts[i].result.expand().map(|r| {
                    let (ty, name) = (self.values[r].ty, self.values[r].name);
                    let n = self.new_value(ty, IrValueKind::Placeholder, name);
                    vmap.insert(r, n);
                    n
                });
                pairs.push((b, i, r));
            }
        }
        for (b, i, r) in pairs {
            let n = self.copy_inst(i, vmap, &bmap, r);
            self.append_inst(bmap[&b], n);
        }
        (bmap, new_blocks, count)
    }

    /// Creates a block in `func` right after `after`.
    pub fn insert_block_after(&mut self, func: Func, after: Block, name: Option<Sym>) -> Block {
        let next = self.blocks[after].next;
        let seg = self.next_block_seg();
        let b = self.blocks.push(BlockData {
            name,
            func,
            first: PackedOption::default(),
            last: PackedOption::default(),
            prev: after.into(),
            next,
            erased: false,
            seg,
        });
        self.blocks[after].next = b.into();
        match next.expand() {
            Some(n) => self.blocks[n].prev = b.into(),
            None => self.funcs[func].last_block = b.into(),
        }
        self.name_enters(func, name);
        b
    }

    /// Replaces incoming block `old` by `new` in the phis of `block`.
    fn retarget_phis(&mut self, block: Block, old: Block, new: Block) {
        let mut cur = self.inst_cursor(block);
        while let Some(i) = cur.next(self) {
            if self.insts[i].opcode != IrOpcode::Phi {
                break;
            }
            for b in self.inst_block_ops_mut(i) {
                if *b == old {
                    *b = new;
                }
            }
        }
    }

    fn is_static_alloca(&self, i: Inst) -> bool {
        let d = &self.insts[i];
        d.opcode == IrOpcode::Alloca
            && self
                .ops_of(d)
                .first()
                .is_none_or(|o| matches!(self.constant(o.value), Some(Const::Int(_))))
    }

    fn new_func_data(&mut self, name: Sym, fn_ty: Type) -> Func {
        let ptr = self.types.ptr(0);
        let value = self.new_value(ptr, IrValueKind::Placeholder, Some(name));
        let f = self.funcs.push(FuncData {
            value,
            is_definition: false,
            linkage: IrLinkage::External,
            keywords: SmallVec::new(),
            cc: crate::inst::CallConv::C,
            ret_attrs: AttrSet::default(),
            ty: fn_ty,
            params: Vec::new(),
            unnamed_addr: None,
            fn_attrs: AttrSet::default(),
            extras: None,
            md: ShortVec::new(),
            first_block: PackedOption::default(),
            last_block: PackedOption::default(),
            erased: false,
        });
        self.values[value].kind = IrValueKind::Func(f);
        self.symbols.insert(name, value);
        f
    }

    /// Points metadata references to `old` at `new` (or `null`), visiting
    /// only the nodes that name `old` (see `Module::md_value_index`).
    fn replace_md_value_refs(&mut self, old: Value, new: Option<Value>) {
        let mut index = self.md_value_index.take().unwrap_or_default();
        for k in index.scanned..self.mds.len() {
            let md = Md::new(k);
            let (MdKind::Tuple(ops) | MdKind::ArgList(ops)) = &self.mds[md].kind else {
                continue;
            };
            for r in ops.iter() {
                if let MdRef::Value(_, v) = *r {
                    index.nodes.entry(v).or_default().push(md);
                }
            }
        }
        index.scanned = self.mds.len();
        for md in index.nodes.remove(&old).unwrap_or_default() {
            let ops: &mut [MdRef] = match &mut self.mds[md].kind {
                MdKind::Tuple(ops) | MdKind::ArgList(ops) => ops,
                MdKind::Specialized { .. } | MdKind::Location(_) => continue,
            };
            for r in ops.iter_mut() {
                if let MdRef::Value(ty, v) = *r {
                    if v == old {
                        *r = match new {
                            Some(n) => {
                                index.nodes.entry(n).or_default().push(md);
                                MdRef::Value(ty, n)
                            }
                            None => MdRef::Null,
                        };
                    }
                }
            }
        }
        self.md_value_index = Some(index);
    }

    /// A fresh `!N` number for a new numbered node, in O(1): the highest
    /// number in use is computed once, then counted up.
    fn alloc_md_number(&mut self) -> u32 {
        let n = match self.md_next {
            Some(n) => n,
            None => self
                .md_numbered
                .iter()
                .map(|&(n, _)| n + 1)
                .max()
                .unwrap_or(0),
        };
        self.md_next = Some(n + 1);
        n
    }

    /// Adds a numbered metadata node.
    fn push_numbered_md(&mut self, node: MdNode) -> Md {
        let md = self.mds.push(node);
        let n = self.alloc_md_number();
        self.md_numbered.push((n, md));
        md
    }

    /// The copy of location `loc` for code inlined at a call located at
    /// `call_loc`: the same `DILocation` whose innermost `inlinedAt` now
    /// points at `call_loc` (LLVM's inliner does the same). `cache` maps
    /// each location already rewritten during this inlining.
    fn inlined_location(&mut self, loc: Md, call_loc: Md, cache: &mut HashMap<Md, Md>) -> Md {
        let inlined_at = self.sym("inlinedAt");
        // The chain loc -> inlinedAt -> ... up to its end or a cached node.
        let mut chain = Vec::new();
        let mut cur = Some(loc);
        while let Some(l) = cur {
            if cache.contains_key(&l) {
                break;
            }
            let next = match &self.mds[l].kind {
                MdKind::Location(d) => d.inlined_at,
                MdKind::Specialized { class, fields } if self.str_of(*class) == "DILocation" => {
                    fields.iter().find_map(|(k, v)| match v {
                        MdField::Ref(MdRef::Node(n)) if *k == inlined_at => Some(*n),
                        _ => None,
                    })
                }
                _ => {
                    cache.insert(l, l);
                    break;
                }
            };
            chain.push(l);
            cur = next;
        }
        // Rebuild from the outermost end of the chain inwards.
        for &l in chain.iter().rev() {
            // Every node on the chain is a `DILocation` (checked above).
            let distinct = self.mds[l].distinct;
            let kind = match &self.mds[l].kind {
                MdKind::Location(d) => {
                    let outer = d.inlined_at.map(|n| cache.get(&n).copied().unwrap_or(n));
                    MdKind::Location(DiLocation {
                        inlined_at: Some(outer.unwrap_or(call_loc)),
                        ..*d
                    })
                }
                MdKind::Specialized { class, fields } => {
                    let (class, mut fields) = (*class, fields.to_vec());
                    let outer = fields.iter().position(|(k, _)| *k == inlined_at);
                    let target = match outer.map(|p| &fields[p].1) {
                        Some(MdField::Ref(MdRef::Node(n))) => cache.get(n).copied().unwrap_or(*n),
                        _ => call_loc,
                    };
                    match outer {
                        Some(p) => fields[p].1 = MdField::Ref(MdRef::Node(target)),
                        None => fields.push((inlined_at, MdField::Ref(MdRef::Node(target)))),
                    }
                    MdKind::Specialized {
                        class,
                        fields: fields.into_boxed_slice(),
                    }
                }
                // The chain holds locations only (checked above).
                _ => continue,
            };
            let new = self.push_numbered_md(MdNode {
                distinct,
                inline: false,
                kind,
            });
            cache.insert(l, new);
        }
        cache.get(&loc).copied().unwrap_or(loc)
    }

    /// Adds the scopes of a call site's `!alias.scope` / `!noalias` list
    /// (`kind`) to every memory access and call inlined from it, as LLVM's
    /// inliner does: what held for the call holds for each access it made.
    /// An access with its own list gets the union (one new node per
    /// distinct list).
    fn propagate_call_scope_list(&mut self, blocks: &[Block], kind: &str, list: Md) {
        let k = self.sym(kind);
        let call_ops: Vec<MdRef> = match &self.mds[list].kind {
            MdKind::Tuple(ops) => ops.to_vec(),
            _ => return,
        };
        let mut merged: HashMap<Md, Md> = HashMap::new();
        for &b in blocks {
            let mut cur = self.inst_cursor(b);
            while let Some(i) = cur.next(self) {
                let op = self.insts[i].opcode;
                let touches_memory = matches!(
                    op,
                    IrOpcode::Load | IrOpcode::Store | IrOpcode::AtomicRmw | IrOpcode::CmpXchg
                ) || op.is_call();
                if !touches_memory {
                    continue;
                }
                let pos = self.inst_attachments(i).iter().position(|a| a.kind == k);
                let node = match pos.map(|p| self.inst_attachments(i)[p].node) {
                    None => list,
                    Some(own) => match merged.get(&own) {
                        Some(&m) => m,
                        None => {
                            let mut ops = match &self.mds[own].kind {
                                MdKind::Tuple(ops) => ops.to_vec(),
                                _ => continue,
                            };
                            for r in &call_ops {
                                if !ops.contains(r) {
                                    ops.push(*r);
                                }
                            }
                            let m = self.push_numbered_md(MdNode {
                                distinct: false,
                                inline: false,
                                kind: MdKind::Tuple(ops.into()),
                            });
                            merged.insert(own, m);
                            m
                        }
                    },
                };
                match pos {
                    Some(p) => self.inst_attachments_mut(i)[p].node = node,
                    None => self.push_attachment(i, Attachment { kind: k, node }),
                }
            }
        }
    }

    /// Gives the debug locations of instructions inlined from a call their
    /// `inlinedAt`. Without a location on the call, LLVM's rule applies:
    /// inlined instructions lose their `!dbg`, and debug records are
    /// dropped, since they would name the callee's scope inside the caller.
    fn fix_inlined_debug_locations(&mut self, blocks: &[Block], call_loc: Option<Md>) {
        let dbg = self.sym("dbg");
        let mut cache = HashMap::new();
        for &b in blocks {
            let mut cur = self.inst_cursor(b);
            while let Some(i) = cur.next(self) {
                let attachment = self.inst_attachments(i).iter().position(|a| a.kind == dbg);
                if let Some(p) = attachment {
                    match call_loc {
                        Some(cl) => {
                            let l = self.inst_attachments(i)[p].node;
                            let n = self.inlined_location(l, cl, &mut cache);
                            self.inst_attachments_mut(i)[p].node = n;
                        }
                        None => {
                            self.remove_attachment(i, p);
                        }
                    }
                }
                if self.insts[i].opcode != IrOpcode::DbgRecord {
                    continue;
                }
                let Some(cl) = call_loc else {
                    Module::erase_inst(self, i);
                    continue;
                };
                // A record's location is its last operand.
                let Some(last) = self.insts[i].ops.len().checked_sub(1) else {
                    continue;
                };
                let v = self.inst_ops(i)[last].value;
                if let IrValueKind::Metadata(MdRef::Node(l)) = self.values[v].kind {
                    let n = self.inlined_location(l, cl, &mut cache);
                    if n != l {
                        let nv = self.new_md_value(MdRef::Node(n), None);
                        Module::set_operand(
                            self,
                            crate::value::Use::new(IrUser::Inst(i), last as u32),
                            nv,
                        );
                    }
                }
            }
        }
    }
}

impl TypeView for Module {
    fn type_kind(&self, ty: TypeId) -> TypeKind {
        let t = tfrom(ty);
        match self.types.get(t) {
            TypeData::Void => TypeKind::Void,
            TypeData::Label => TypeKind::Label,
            TypeData::Metadata => TypeKind::Metadata,
            TypeData::Token => TypeKind::Token,
            TypeData::Keyword(k) => {
                if self.str_of(*k) == "x86_amx" {
                    TypeKind::X86Amx
                } else {
                    TypeKind::Other
                }
            }
            TypeData::Int(b) => TypeKind::Int(*b),
            TypeData::Float(k) => match k {
                FloatKind::Half => TypeKind::Half,
                FloatKind::BFloat => TypeKind::BFloat,
                FloatKind::Float => TypeKind::Float,
                FloatKind::Double => TypeKind::Double,
                FloatKind::Fp128 => TypeKind::Fp128,
                FloatKind::X86Fp80 => TypeKind::X86Fp80,
                FloatKind::PpcFp128 => TypeKind::PpcFp128,
            },
            TypeData::Ptr(a) => TypeKind::Ptr(*a),
            TypeData::Array(n, e) => TypeKind::Array {
                len: *n,
                elem: tid(*e),
            },
            TypeData::Vector {
                len,
                elem,
                scalable,
            } => TypeKind::Vector {
                len: *len,
                elem: tid(*elem),
                scalable: *scalable,
            },
            TypeData::Struct { packed, .. } => TypeKind::Struct {
                packed: *packed,
                opaque: false,
            },
            TypeData::Named(_) => match self.types.named_body(t) {
                NamedBody::Opaque => TypeKind::Struct {
                    packed: false,
                    opaque: true,
                },
                NamedBody::Body { packed, .. } => TypeKind::Struct {
                    packed: *packed,
                    opaque: false,
                },
            },
            TypeData::Func { vararg, .. } => TypeKind::Func { vararg: *vararg },
            TypeData::TargetExt { .. } => TypeKind::TargetExt,
        }
    }

    fn struct_fields(&self, ty: TypeId) -> impl Iterator<Item = TypeId> + '_ {
        self.types
            .struct_fields(tfrom(ty))
            .0
            .iter()
            .map(|&t| tid(t))
    }

    fn struct_name(&self, ty: TypeId) -> Option<&str> {
        match self.types.get(tfrom(ty)) {
            TypeData::Named(s) => Some(self.str_of(*s)),
            _ => None,
        }
    }

    fn func_type_ret(&self, ty: TypeId) -> Option<TypeId> {
        self.types.func_sig(tfrom(ty)).map(|s| tid(s.0))
    }

    fn func_type_params(&self, ty: TypeId) -> impl Iterator<Item = TypeId> + '_ {
        self.types
            .func_sig(tfrom(ty))
            .map(|s| s.1)
            .unwrap_or(&[])
            .iter()
            .map(|&t| tid(t))
    }

    fn target_ext_name(&self, ty: TypeId) -> Option<&str> {
        match self.types.get(tfrom(ty)) {
            TypeData::TargetExt { name, .. } => Some(self.str_of(*name)),
            _ => None,
        }
    }
}

impl IrView for Module {
    fn data_layout(&self) -> &DataLayout {
        self.data_layout_ref()
    }

    fn target_triple(&self) -> Option<&str> {
        self.triple.map(|s| self.str_of(s))
    }

    fn funcs(&self) -> impl Iterator<Item = FuncId> + '_ {
        self.func_ids().map(fid)
    }

    fn func_name(&self, f: FuncId) -> &str {
        self.values[self.funcs[ffrom(f)].value]
            .name
            .map(|s| self.str_of(s))
            .unwrap_or("")
    }

    fn func_name_starts_with(&self, f: FuncId, prefix: &str) -> bool {
        let name = self.values[self.funcs[ffrom(f)].value].name;
        name.map_or(&[][..], |s| self.strings.get(s))
            .starts_with(prefix.as_bytes())
    }

    fn func_by_name(&self, name: &str) -> Option<FuncId> {
        Module::func_by_name(self, name)
            .filter(|&f| !self.funcs[f].erased)
            .map(fid)
    }

    fn func_linkage(&self, f: FuncId) -> Linkage {
        core_linkage(self.funcs[ffrom(f)].linkage)
    }

    fn func_is_declaration(&self, f: FuncId) -> bool {
        !self.funcs[ffrom(f)].is_definition
    }

    fn func_call_conv(&self, f: FuncId) -> CallConv {
        self.core_cc(self.funcs[ffrom(f)].cc)
    }

    fn func_type(&self, f: FuncId) -> TypeId {
        tid(self.funcs[ffrom(f)].ty)
    }

    fn func_value(&self, f: FuncId) -> ValueId {
        vid(self.funcs[ffrom(f)].value)
    }

    fn params(&self, f: FuncId) -> impl Iterator<Item = ValueId> + '_ {
        self.funcs[ffrom(f)].params.iter().map(|p| vid(p.value))
    }

    fn num_params(&self, f: FuncId) -> usize {
        self.funcs[ffrom(f)].params.len()
    }

    fn attrs(&self, f: FuncId, slot: AttrSlot) -> impl Iterator<Item = Attr<'_>> + '_ {
        self.func_set(ffrom(f), slot)
            .into_iter()
            .flat_map(move |s| self.set_attrs(s))
    }

    fn attr_types(&self, f: FuncId, slot: AttrSlot) -> impl Iterator<Item = TypeId> + '_ {
        // Only a type attribute of a known kind is one to `attrs` (another
        // is `Attr::Unknown`); the other attributes are not converted.
        self.func_set(ffrom(f), slot)
            .into_iter()
            .flat_map(move |s| self.stored_attrs(s))
            .filter_map(move |a| match *a {
                IrAttr::Type { kind, ty } if AttrKind::from_name(self.str_of(kind)).is_some() => {
                    Some(tid(ty))
                }
                _ => None,
            })
    }

    fn has_attr(&self, f: FuncId, slot: AttrSlot, key: AttrKey<'_>) -> bool {
        self.func_set(ffrom(f), slot)
            .is_some_and(|s| self.set_has_key(s, key))
    }

    fn int_attr(&self, f: FuncId, slot: AttrSlot, kind: AttrKind) -> Option<u64> {
        let set = self.func_set(ffrom(f), slot)?;
        self.set_find_kind(set, kind, |a| match *a {
            IrAttr::Int { value, .. } => Some(value),
            _ => None,
        })
    }

    fn type_attr(&self, f: FuncId, slot: AttrSlot, kind: AttrKind) -> Option<TypeId> {
        let set = self.func_set(ffrom(f), slot)?;
        self.set_find_kind(set, kind, |a| match *a {
            IrAttr::Type { ty, .. } => Some(tid(ty)),
            _ => None,
        })
    }

    fn blocks(&self, f: FuncId) -> impl Iterator<Item = BlockId> + '_ {
        self.func_blocks(ffrom(f)).map(bid)
    }

    fn func_md(&self, f: FuncId, kind: &str) -> Option<MdId> {
        self.attachment(&self.funcs[ffrom(f)].md, kind)
    }

    fn block_func(&self, b: BlockId) -> FuncId {
        fid(self.blocks[bfrom(b)].func)
    }

    fn block_name(&self, b: BlockId) -> Option<&str> {
        self.blocks[bfrom(b)].name.map(|s| self.str_of(s))
    }

    fn insts(&self, b: BlockId) -> impl Iterator<Item = InstId> + '_ {
        self.block_insts(bfrom(b))
            .filter(move |&i| self.insts[i].opcode != IrOpcode::DbgRecord)
            .map(iid)
    }

    fn terminator(&self, b: BlockId) -> Option<InstId> {
        Module::terminator(self, bfrom(b)).map(iid)
    }

    fn successors(&self, b: BlockId) -> impl Iterator<Item = BlockId> + '_ {
        Module::successors(self, bfrom(b)).iter().map(|&s| bid(s))
    }

    fn predecessors(&self, b: BlockId) -> impl Iterator<Item = BlockId> + '_ {
        let target = bfrom(b);
        let f = self.blocks[target].func;
        self.func_blocks(f).flat_map(move |p| {
            Module::successors(self, p)
                .iter()
                .filter(move |&&s| s == target)
                .map(move |_| bid(p))
        })
    }

    fn inst_block(&self, i: InstId) -> BlockId {
        bid(self
            .block_of(ifrom(i))
            .unwrap_or(Block::new(u32::MAX as usize - 2)))
    }

    fn next_inst(&self, i: InstId) -> Option<InstId> {
        self.neighbor(ifrom(i), |d| d.next)
    }

    fn prev_inst(&self, i: InstId) -> Option<InstId> {
        self.neighbor(ifrom(i), |d| d.prev)
    }

    fn opcode(&self, i: InstId) -> Opcode {
        core_opcode(self.insts[ifrom(i)].opcode)
    }

    fn inst_result(&self, i: InstId) -> Option<ValueId> {
        self.insts[ifrom(i)].result.expand().map(vid)
    }

    fn operands(&self, i: InstId) -> impl Iterator<Item = ValueId> + '_ {
        let d = &self.insts[ifrom(i)];
        let (head, tail): (&[crate::value::Operand], &[crate::value::Operand]) =
            if d.opcode == IrOpcode::DbgRecord {
                (&[], &[])
            } else if d.opcode.is_call() && !d.ops.is_empty() {
                (&self.ops_of(d)[1..], &self.ops_of(d)[..1])
            } else {
                (self.ops_of(d), &[])
            };
        head.iter().chain(tail).map(|o| vid(o.value))
    }

    fn num_operands(&self, i: InstId) -> usize {
        let d = &self.insts[ifrom(i)];
        if d.opcode == IrOpcode::DbgRecord {
            0
        } else {
            d.ops.len()
        }
    }

    /// In constant time, in the order of [`IrView::operands`] (a call's
    /// callee, stored first, comes last).
    fn operand(&self, i: InstId, index: usize) -> Option<ValueId> {
        let d = &self.insts[ifrom(i)];
        let stored = if d.opcode == IrOpcode::DbgRecord {
            return None;
        } else if d.opcode.is_call() {
            if index + 1 == d.ops.len() {
                0
            } else {
                index + 1
            }
        } else {
            index
        };
        self.ops_of(d).get(stored).map(|o| vid(o.value))
    }

    fn callee(&self, i: InstId) -> Option<Callee> {
        let d = &self.insts[ifrom(i)];
        if !d.opcode.is_call() {
            return None;
        }
        let c = self.ops_of(d).first()?.value;
        Some(match self.values[c].kind {
            IrValueKind::Func(f) => Callee::Direct(fid(f)),
            _ => Callee::Indirect(vid(c)),
        })
    }

    fn call_func_type(&self, i: InstId) -> Option<TypeId> {
        self.insts[ifrom(i)].call()?.fn_ty.map(tid)
    }

    fn call_args(&self, i: InstId) -> impl Iterator<Item = ValueId> + '_ {
        let inst = ifrom(i);
        let n = self.call_nargs(inst);
        let ops = self.inst_ops(inst);
        let args = if n > 0 && ops.len() > n {
            &ops[1..=n]
        } else {
            &[][..]
        };
        args.iter().map(|o| vid(o.value))
    }

    fn call_attrs(&self, i: InstId, slot: AttrSlot) -> impl Iterator<Item = Attr<'_>> + '_ {
        self.call_set(ifrom(i), slot)
            .into_iter()
            .flat_map(move |s| self.set_attrs(s))
    }

    fn call_has_attr(&self, i: InstId, slot: AttrSlot, key: AttrKey<'_>) -> bool {
        self.call_set(ifrom(i), slot)
            .is_some_and(|s| self.set_has_key(s, key))
    }

    fn call_conv(&self, i: InstId) -> Option<CallConv> {
        self.insts[ifrom(i)].call().map(|c| self.core_cc(c.cc))
    }

    fn phi_incoming(&self, i: InstId) -> impl Iterator<Item = (ValueId, BlockId)> + '_ {
        let d = &self.insts[ifrom(i)];
        let n = if d.opcode == IrOpcode::Phi {
            d.ops.len()
        } else {
            0
        };
        self.ops_of(d)[..n]
            .iter()
            .zip(self.block_ops_of(d))
            .map(|(o, b)| (vid(o.value), bid(*b)))
    }

    fn alloca_type(&self, i: InstId) -> Option<TypeId> {
        match self.insts[ifrom(i)].extra {
            Extra::Alloca { ty, .. } => Some(tid(ty)),
            _ => None,
        }
    }

    fn mem_ptr(&self, i: InstId) -> Option<ValueId> {
        let d = &self.insts[ifrom(i)];
        let idx = match d.opcode {
            IrOpcode::Load | IrOpcode::AtomicRmw | IrOpcode::CmpXchg => 0,
            IrOpcode::Store => 1,
            _ => return None,
        };
        self.ops_of(d).get(idx).map(|o| vid(o.value))
    }

    fn is_volatile(&self, i: InstId) -> bool {
        self.insts[ifrom(i)].flags.contains(InstFlags::VOLATILE)
    }

    fn gep_source_type(&self, i: InstId) -> Option<TypeId> {
        match self.insts[ifrom(i)].extra {
            Extra::Gep { source_ty } => Some(tid(source_ty)),
            _ => None,
        }
    }

    fn inst_md(&self, i: InstId, kind: &str) -> Option<MdId> {
        self.attachment(self.inst_attachments(ifrom(i)), kind)
    }

    fn debug_loc(&self, i: InstId) -> Option<DebugLoc> {
        let loc = mfrom(self.inst_md(i, "dbg")?);
        let line = self.md_field_uint(loc, "line").unwrap_or(0);
        let col = self.md_field_uint(loc, "column").unwrap_or(0);
        let file = self
            .md_field_node(loc, "scope")
            .and_then(|s| self.md_file_name(s))
            .unwrap_or_default();
        Some(DebugLoc { file, line, col })
    }

    fn value_kind(&self, v: ValueId) -> ValueKind {
        match &self.values[vfrom(v)].kind {
            IrValueKind::Arg { func, index } => ValueKind::Argument {
                func: fid(*func),
                index: *index,
            },
            IrValueKind::Inst(i) => ValueKind::Inst(iid(*i)),
            IrValueKind::Global(g) => ValueKind::Global(gid(*g)),
            IrValueKind::Func(f) => ValueKind::Function(fid(*f)),
            IrValueKind::Alias(_) | IrValueKind::Placeholder => ValueKind::Other,
            IrValueKind::Metadata(_) => ValueKind::Metadata,
            IrValueKind::Const(c) => match &self.const_data[*c] {
                Const::Int(_) | Const::BigInt(_) => ValueKind::Constant(ConstKind::Int),
                Const::Float(_) => ValueKind::Constant(ConstKind::Float),
                Const::Null => ValueKind::Constant(ConstKind::Null),
                Const::Undef => ValueKind::Constant(ConstKind::Undef),
                Const::Poison => ValueKind::Constant(ConstKind::Poison),
                Const::Zero => ValueKind::Constant(ConstKind::ZeroInit),
                Const::Str(_) | Const::Aggregate | Const::Splat => {
                    ValueKind::Constant(ConstKind::Aggregate)
                }
                Const::Expr { opcode, .. } => {
                    ValueKind::Constant(ConstKind::Expr(core_opcode(*opcode)))
                }
                Const::InlineAsm(_) => ValueKind::InlineAsm,
                Const::NoneToken
                | Const::BlockAddress(..)
                | Const::DsoLocalEquivalent
                | Const::NoCfi => ValueKind::Constant(ConstKind::Other),
            },
        }
    }

    fn value_type(&self, v: ValueId) -> TypeId {
        tid(self.values[vfrom(v)].ty)
    }

    fn value_name(&self, v: ValueId) -> Option<&str> {
        self.values[vfrom(v)].name.map(|s| self.str_of(s))
    }

    fn users(&self, v: ValueId) -> impl Iterator<Item = User> + '_ {
        self.real_users(vfrom(v)).map(move |u| match u.user() {
            IrUser::Inst(i) => User::Inst(iid(i)),
            IrUser::Value(w) => User::Const(vid(w)),
            IrUser::GlobalInit(g) => User::Global(gid(g)),
            IrUser::Alias(a) => User::Const(vid(self.aliases[a].value)),
            IrUser::Func(f) => User::Const(vid(self.funcs[f].value)),
        })
    }

    fn has_no_uses(&self, v: ValueId) -> bool {
        self.real_users(vfrom(v)).next().is_none()
    }

    fn direct_calls_of(&self, f: FuncId) -> impl Iterator<Item = InstId> + '_ {
        let f = ffrom(f);
        // A call's callee is its operand 0, so a use of `f` there by a call
        // is a direct call of `f`, told by the user's opcode alone: the
        // callee operand and its value record, two more reads from memory
        // per call, are not needed. A use at another index (`f` passed as
        // an argument) asks for the callee as `callee` does.
        self.users(self.funcs[f].value).iter().filter_map(move |u| {
            let IrUser::Inst(c) = u.user() else {
                return None;
            };
            let d = &self.insts[c];
            if !d.opcode.is_call() {
                return None;
            }
            let direct = u.index() == 0
                || self
                    .ops_of(d)
                    .first()
                    .is_some_and(|o| self.values[o.value].kind == IrValueKind::Func(f));
            direct.then(|| iid(c))
        })
    }

    fn const_int(&self, v: ValueId) -> Option<i128> {
        match self.constant(vfrom(v)) {
            Some(Const::Int(n)) => Some(n.0),
            _ => None,
        }
    }

    fn const_float_bits(&self, v: ValueId) -> Option<u128> {
        match self.constant(vfrom(v)) {
            Some(Const::Float(b)) => Some(b.0),
            _ => None,
        }
    }

    fn const_operands(&self, v: ValueId) -> impl Iterator<Item = ValueId> + '_ {
        let ops = match self.values[vfrom(v)].kind {
            IrValueKind::Const(_) => self.value_ops(vfrom(v)),
            _ => &[],
        };
        ops.iter().map(|o| vid(o.value))
    }

    fn globals(&self) -> impl Iterator<Item = GlobalId> + '_ {
        self.global_ids().map(gid)
    }

    fn global_name(&self, g: GlobalId) -> &str {
        self.values[self.globals[gfrom(g)].value]
            .name
            .map(|s| self.str_of(s))
            .unwrap_or("")
    }

    fn global_by_name(&self, name: &str) -> Option<GlobalId> {
        match self.values[self.lookup(name)?].kind {
            IrValueKind::Global(g) if !self.globals[g].erased => Some(gid(g)),
            _ => None,
        }
    }

    fn global_value_type(&self, g: GlobalId) -> TypeId {
        tid(self.globals[gfrom(g)].value_ty)
    }

    fn global_addr_space(&self, g: GlobalId) -> u32 {
        self.globals[gfrom(g)].addrspace
    }

    fn global_is_constant(&self, g: GlobalId) -> bool {
        self.globals[gfrom(g)].is_constant
    }

    fn global_initializer(&self, g: GlobalId) -> Option<ValueId> {
        self.globals[gfrom(g)].init.map(|o| vid(o.value))
    }

    fn global_linkage(&self, g: GlobalId) -> Linkage {
        core_linkage(self.globals[gfrom(g)].linkage)
    }

    fn global_value(&self, g: GlobalId) -> ValueId {
        vid(self.globals[gfrom(g)].value)
    }

    fn named_md_names(&self) -> impl Iterator<Item = &str> + '_ {
        self.named_md.iter().map(|n| self.str_of(n.name))
    }

    fn named_md(&self, name: &str) -> impl Iterator<Item = MdId> + '_ {
        let sym = self.strings.lookup(name.as_bytes());
        self.named_md
            .iter()
            .filter(move |n| Some(n.name) == sym)
            .flat_map(|n| n.ops.iter().map(|&m| mid(m)))
    }

    fn md_operands(&self, md: MdId) -> impl Iterator<Item = MdOperand<'_>> + '_ {
        let ops: &[MdRef] = match &self.mds[mfrom(md)].kind {
            MdKind::Tuple(ops) | MdKind::ArgList(ops) => ops,
            MdKind::Specialized { .. } | MdKind::Location(_) => &[],
        };
        ops.iter().map(move |r| match *r {
            MdRef::Null => MdOperand::Null,
            MdRef::Node(n) => MdOperand::Node(mid(n)),
            MdRef::String(s) => MdOperand::String(self.str_of(s)),
            MdRef::Value(_, v) => MdOperand::Value(vid(v)),
        })
    }

    fn md_is_distinct(&self, md: MdId) -> bool {
        self.mds[mfrom(md)].distinct
    }

    fn md_specialized_name(&self, md: MdId) -> Option<&str> {
        match &self.mds[mfrom(md)].kind {
            MdKind::Specialized { class, .. } => Some(self.str_of(*class)),
            MdKind::ArgList(_) => Some("DIArgList"),
            MdKind::Location(_) => Some("DILocation"),
            MdKind::Tuple(_) => None,
        }
    }

    fn metadata_value_operand(&self, v: ValueId) -> Option<ValueId> {
        let d = &self.values[vfrom(v)];
        match d.kind {
            IrValueKind::Metadata(MdRef::Value(..)) => {
                self.value_ops(vfrom(v)).first().map(|o| vid(o.value))
            }
            _ => None,
        }
    }

    fn alloca_align(&self, i: InstId) -> Option<u64> {
        match &self.insts[ifrom(i)].extra {
            Extra::Alloca { align, .. } if self.insts[ifrom(i)].opcode == IrOpcode::Alloca => {
                align.map(Align::bytes)
            }
            _ => None,
        }
    }
}

impl IrEdit for Module {
    /// An edit just made in an equal set is not made again, its result
    /// is given (see `Module::edit_func_set`).
    fn add_attr(&mut self, f: FuncId, slot: AttrSlot, attr: Attr<'_>) {
        let f = ffrom(f);
        let new = self.ir_attr(&attr);
        self.edit_func_set(f, slot, None, attr.key(), new);
    }

    /// One copy of the list, one sharing of the result; none when the
    /// same replacement was just made in an equal set.
    fn replace_attr(&mut self, f: FuncId, slot: AttrSlot, old: AttrKey<'_>, new: Attr<'_>) {
        let f = ffrom(f);
        let add = self.ir_attr(&new);
        self.edit_func_set(f, slot, Some(old), new.key(), add);
    }

    fn remove_attr(&mut self, f: FuncId, slot: AttrSlot, key: AttrKey<'_>) -> bool {
        let f = ffrom(f);
        let Some(mut set) = self
            .func_set(f, slot)
            .filter(|s| self.set_has_key(s, key))
            .cloned()
        else {
            return false;
        };
        let removed = self.edit_set(&mut set, key, None);
        if removed {
            self.store_func_set(f, slot, set);
        }
        removed
    }

    fn add_call_attr(
        &mut self,
        call: InstId,
        slot: AttrSlot,
        attr: Attr<'_>,
    ) -> Result<(), EditError> {
        let i = ifrom(call);
        let new = self.ir_attr(&attr);
        let mut set = match (self.call_set(i, slot), self.insts[i].call(), slot) {
            (Some(s), _, _) => s.clone(),
            // Arguments after the last one with attributes have no entry.
            (None, Some(c), AttrSlot::Param(n)) if n < c.nargs => AttrSet::default(),
            _ => return Err(EditError::NotACall),
        };
        self.edit_set(&mut set, attr.key(), Some(new));
        self.store_call_set(i, slot, set);
        Ok(())
    }

    fn remove_call_attr(&mut self, call: InstId, slot: AttrSlot, key: AttrKey<'_>) -> bool {
        let i = ifrom(call);
        let Some(mut set) = self
            .call_set(i, slot)
            .filter(|s| self.set_has_key(s, key))
            .cloned()
        else {
            return false;
        };
        let removed = self.edit_set(&mut set, key, None);
        if removed {
            self.store_call_set(i, slot, set);
        }
        removed
    }

    fn set_call_conv(&mut self, f: FuncId, cc: CallConv) {
        let cc = self.ir_cc(cc);
        self.funcs[ffrom(f)].cc = cc;
    }

    fn set_linkage(&mut self, f: FuncId, linkage: Linkage) {
        let f = ffrom(f);
        self.funcs[f].linkage = ir_linkage(linkage);
        if linkage.is_local() {
            // As LLVM's GlobalValue::setLinkage: a local symbol has default
            // visibility and is implicitly dso_local (the verifier rejects
            // `internal hidden`).
            let kws = core::mem::take(&mut self.funcs[f].keywords);
            let kept = kws
                .into_iter()
                .filter(|&k| {
                    !matches!(
                        self.str_of(k),
                        "hidden" | "protected" | "dllimport" | "dllexport" | "dso_local"
                    )
                })
                .collect();
            self.funcs[f].keywords = kept;
        }
    }

    fn set_global_linkage(&mut self, g: GlobalId, linkage: Linkage) {
        self.globals[gfrom(g)].linkage = ir_linkage(linkage);
    }

    fn replace_all_uses(&mut self, old: ValueId, new: ValueId) -> Result<(), EditError> {
        let (o, n) = (vfrom(old), vfrom(new));
        self.check_types(o, n)?;
        Module::replace_all_uses(self, o, n);
        if matches!(
            self.values[o].kind,
            IrValueKind::Func(_) | IrValueKind::Global(_)
        ) {
            self.replace_md_value_refs(o, Some(n));
        }
        Ok(())
    }

    fn set_operand(&mut self, inst: InstId, index: usize, value: ValueId) -> Result<(), EditError> {
        let i = ifrom(inst);
        let idx = self.stored_index(i, index).ok_or(EditError::OutOfRange)?;
        let old = self.inst_ops(i)[idx].value;
        self.check_types(old, vfrom(value))?;
        Module::set_operand(
            self,
            crate::value::Use::new(IrUser::Inst(i), idx as u32),
            vfrom(value),
        );
        Ok(())
    }

    fn erase_inst(&mut self, inst: InstId) -> Result<(), EditError> {
        let i = ifrom(inst);
        if let Some(r) = self.insts[i].result.expand() {
            if self.real_users(r).next().is_some() {
                return Err(EditError::HasUses);
            }
            self.drop_md_uses(r);
        }
        if Module::erase_inst(self, i) {
            Ok(())
        } else {
            Err(EditError::HasUses)
        }
    }

    fn build_call(
        &mut self,
        before: InstId,
        fn_ty: TypeId,
        callee: ValueId,
        args: &[ValueId],
    ) -> Result<InstId, EditError> {
        let fn_ty = tfrom(fn_ty);
        self.check_args(fn_ty, args)?;
        let args: SmallVec<[Value; 8]> = args.iter().map(|&a| vfrom(a)).collect();
        let call = self.new_call_inst(fn_ty, vfrom(callee), &args);
        self.insert_inst_before(call, ifrom(before));
        Ok(iid(call))
    }

    fn build_cast(
        &mut self,
        before: InstId,
        op: Opcode,
        value: ValueId,
        dest_ty: TypeId,
    ) -> Result<ValueId, EditError> {
        let opcode = ir_opcode(op)
            .filter(|o| o.is_cast())
            .ok_or(EditError::TypeMismatch)?;
        let src_ty = self.values[vfrom(value)].ty;
        let dst = tfrom(dest_ty);
        let ok = match opcode {
            IrOpcode::AddrSpaceCast => {
                let (a, b) = (
                    self.types.ptr_addrspace(src_ty),
                    self.types.ptr_addrspace(dst),
                );
                a.is_some() && b.is_some() && a != b
            }
            IrOpcode::BitCast => src_ty != dst || self.types.ptr_addrspace(dst).is_some(),
            IrOpcode::PtrToInt => {
                self.types.ptr_addrspace(src_ty).is_some() && self.types.int_bits(dst).is_some()
            }
            IrOpcode::IntToPtr => {
                self.types.int_bits(src_ty).is_some() && self.types.ptr_addrspace(dst).is_some()
            }
            IrOpcode::ZExt | IrOpcode::SExt => {
                matches!((self.types.int_bits(src_ty), self.types.int_bits(dst)), (Some(a), Some(b)) if a < b)
            }
            IrOpcode::Trunc => {
                matches!((self.types.int_bits(src_ty), self.types.int_bits(dst)), (Some(a), Some(b)) if a > b)
            }
            _ => true,
        };
        if !ok {
            return Err(EditError::TypeMismatch);
        }
        let i = self.new_inst(opcode, dst, &[vfrom(value)], Extra::None, None);
        self.insert_inst_before(i, ifrom(before));
        Ok(vid(self.insts[i].result.expand().expect("cast result")))
    }

    fn set_callee(
        &mut self,
        call: InstId,
        callee: ValueId,
        fn_ty: TypeId,
    ) -> Result<(), EditError> {
        let i = ifrom(call);
        if !self.insts[i].opcode.is_call() {
            return Err(EditError::NotACall);
        }
        let args: Vec<ValueId> = IrView::call_args(self, call).collect();
        let fty = tfrom(fn_ty);
        self.check_args(fty, &args)?;
        let ret = self
            .types
            .func_sig(fty)
            .map(|s| s.0)
            .ok_or(EditError::TypeMismatch)?;
        if ret != self.inst_ty(i) {
            return Err(EditError::TypeMismatch);
        }
        Module::set_operand(
            self,
            crate::value::Use::new(IrUser::Inst(i), 0),
            vfrom(callee),
        );
        let vararg = self.types.func_sig(fty).map(|s| s.2).unwrap_or(false);
        self.edit_call_data(i, |c| {
            c.fn_ty = Some(fty);
            c.explicit_fn_ty = vararg;
        });
        Ok(())
    }

    fn set_inst_md(&mut self, inst: InstId, kind: &str, md: Option<MdId>) {
        let k = self.sym(kind);
        let i = ifrom(inst);
        let pos = self.inst_attachments(i).iter().position(|a| a.kind == k);
        match (pos, md) {
            (Some(p), Some(m)) => self.inst_attachments_mut(i)[p].node = mfrom(m),
            (None, Some(m)) => self.push_attachment(
                i,
                Attachment {
                    kind: k,
                    node: mfrom(m),
                },
            ),
            (Some(p), None) => {
                self.remove_attachment(i, p);
            }
            (None, None) => {}
        }
    }

    fn clone_function(
        &mut self,
        f: FuncId,
        new_name: &str,
    ) -> Result<(FuncId, ValueMap), EditError> {
        let src = ffrom(f);
        let name = self.sym(new_name);
        if self.symbols.contains(name) {
            return Err(EditError::NameTaken);
        }
        let sd = self.funcs[src].clone();
        let src_name = self.values[sd.value].name;
        let nf = self.new_func_data(name, sd.ty);
        let fv = self.funcs[nf].value;
        self.values[fv].ty = self.values[sd.value].ty;
        let mut vmap: HashMap<Value, Value> = HashMap::new();
        let mut params = Vec::with_capacity(sd.params.len());
        for (idx, p) in sd.params.iter().enumerate() {
            let (ty, pname) = (self.values[p.value].ty, self.values[p.value].name);
            let v = self.new_value(
                ty,
                IrValueKind::Arg {
                    func: nf,
                    index: idx as u32,
                },
                pname,
            );
            vmap.insert(p.value, v);
            params.push(Param {
                value: v,
                attrs: p.attrs.clone(),
            });
        }
        {
            let d = &mut self.funcs[nf];
            d.is_definition = sd.is_definition;
            d.linkage = sd.linkage;
            d.keywords = sd.keywords.clone();
            d.cc = sd.cc;
            d.ret_attrs = sd.ret_attrs.clone();
            d.params = params;
            d.unnamed_addr = sd.unnamed_addr;
            d.fn_attrs = sd.fn_attrs.clone();
            let se = sd.extras();
            d.extras = crate::module::FuncExtras {
                // A bare `comdat` names the function's own comdat; the
                // clone stays in the original's comdat (as LLVM's
                // CloneFunction does), so spell it out.
                comdat: match se.comdat {
                    Some(None) => Some(src_name),
                    c => c,
                },
                // Operands are recorded below, with their uses.
                extra_ops: [None; 3],
                ..se.clone()
            }
            .boxed();
            d.md = sd.md.clone();
        }
        for (k, o) in sd.extras().extra_ops.iter().enumerate() {
            if let Some(o) = o {
                let op = self.add_use(o.value, IrUser::Func(nf), k as u32);
                self.funcs[nf].extras_mut().extra_ops[k] = Some(op);
            }
        }
        self.copy_body(src, nf, None, &mut vmap);
        let pos = self
            .order_position(TopLevel::Func(src))
            .map(|p| p + 1)
            .unwrap_or(self.order.len());
        self.order.insert(pos, TopLevel::Func(nf));
        self.order_hint = pos;
        let map = vmap.into_iter().map(|(k, v)| (vid(k), vid(v))).collect();
        Ok((fid(nf), map))
    }

    fn set_param_type(&mut self, f: FuncId, index: usize, ty: TypeId) -> Result<(), EditError> {
        let f = ffrom(f);
        let p = self.funcs[f]
            .params
            .get(index)
            .map(|p| p.value)
            .ok_or(EditError::OutOfRange)?;
        let (ret, mut params, vararg) = {
            let (r, ps, va) = self
                .types
                .func_sig(self.funcs[f].ty)
                .ok_or(EditError::TypeMismatch)?;
            (r, SmallVec::<[Type; 4]>::from_slice(ps), va)
        };
        params[index] = tfrom(ty);
        self.funcs[f].ty = self.types.intern(TypeData::Func {
            ret,
            params,
            vararg,
        });
        self.values[p].ty = tfrom(ty);
        Ok(())
    }

    fn set_ret_type(&mut self, f: FuncId, ty: TypeId) -> Result<(), EditError> {
        let f = ffrom(f);
        let (params, vararg) = {
            let (_, ps, va) = self
                .types
                .func_sig(self.funcs[f].ty)
                .ok_or(EditError::TypeMismatch)?;
            (SmallVec::<[Type; 4]>::from_slice(ps), va)
        };
        self.funcs[f].ty = self.types.intern(TypeData::Func {
            ret: tfrom(ty),
            params,
            vararg,
        });
        Ok(())
    }

    fn inline_call(&mut self, call: InstId) -> Result<(), EditError> {
        self.inline_call_impl(call).map(|_| ())
    }

    fn remove_param(&mut self, f: FuncId, index: usize) -> Result<(), EditError> {
        let fu = ffrom(f);
        let p = self.funcs[fu]
            .params
            .get(index)
            .map(|p| p.value)
            .ok_or(EditError::OutOfRange)?;
        if self.real_users(p).next().is_some() {
            return Err(EditError::HasUses);
        }
        let fv = self.funcs[fu].value;
        let called = self.real_users(fv).any(
            |u| matches!(u.user(), IrUser::Inst(i) if self.insts[i].opcode.is_call() && u.index() == 0),
        );
        if called {
            return Err(EditError::HasUses);
        }
        self.drop_md_uses(p);
        let (ret, mut params, vararg) = {
            let (r, ps, va) = self
                .types
                .func_sig(self.funcs[fu].ty)
                .ok_or(EditError::TypeMismatch)?;
            (r, SmallVec::<[Type; 4]>::from_slice(ps), va)
        };
        params.remove(index);
        self.funcs[fu].ty = self.types.intern(TypeData::Func {
            ret,
            params,
            vararg,
        });
        self.funcs[fu].params.remove(index);
        for (k, q) in self.funcs[fu].params.clone().iter().enumerate() {
            self.values[q.value].kind = IrValueKind::Arg {
                func: fu,
                index: k as u32,
            };
        }
        Ok(())
    }

    fn set_global_initializer(
        &mut self,
        g: GlobalId,
        init: Option<ValueId>,
    ) -> Result<(), EditError> {
        let g = gfrom(g);
        if let Some(v) = init {
            if self.values[vfrom(v)].ty != self.globals[g].value_ty {
                return Err(EditError::TypeMismatch);
            }
        }
        if let Some(o) = self.globals[g].init.take() {
            self.remove_use(o);
        }
        if let Some(v) = init {
            let o = self.add_use(vfrom(v), IrUser::GlobalInit(g), 0);
            self.globals[g].init = Some(o);
        }
        Ok(())
    }

    fn const_float_of(&mut self, ty: TypeId, bits: u128) -> Result<ValueId, EditError> {
        let t = tfrom(ty);
        match self.types.get(t) {
            TypeData::Float(_) => Ok(vid(self.const_scalar(t, Const::Float(Wide(bits))))),
            _ => Err(EditError::TypeMismatch),
        }
    }

    fn const_aggregate(&mut self, ty: TypeId, elems: &[ValueId]) -> Result<ValueId, EditError> {
        let t = tfrom(ty);
        let ok = match self.types.get(t).clone() {
            TypeData::Array(n, e) => {
                n == elems.len() as u64 && elems.iter().all(|&v| self.values[vfrom(v)].ty == e)
            }
            TypeData::Vector {
                len,
                elem,
                scalable,
            } => {
                !scalable
                    && len as usize == elems.len()
                    && elems.iter().all(|&v| self.values[vfrom(v)].ty == elem)
            }
            TypeData::Struct { .. } | TypeData::Named(_) => {
                let fields = self.types.struct_fields(t).0;
                fields.len() == elems.len()
                    && fields
                        .iter()
                        .zip(elems)
                        .all(|(f, &v)| self.values[vfrom(v)].ty == *f)
            }
            _ => false,
        };
        if !ok {
            return Err(EditError::TypeMismatch);
        }
        let ops: SmallVec<[Value; 8]> = elems.iter().map(|&v| vfrom(v)).collect();
        Ok(vid(self.new_const_with_ops(t, Const::Aggregate, &ops)))
    }

    fn create_self_ref_md_node(&mut self, ops: &[MdOperand<'_>]) -> Result<MdId, EditError> {
        let md = IrEdit::create_md_node(self, ops, true)?;
        let m = mfrom(md);
        if let MdKind::Tuple(refs) = &mut self.mds[m].kind {
            let mut with_self = Vec::with_capacity(refs.len() + 1);
            with_self.push(MdRef::Node(m));
            with_self.extend_from_slice(refs);
            *refs = with_self.into();
        }
        Ok(md)
    }

    fn md_value(&mut self, md: MdId) -> ValueId {
        vid(self.new_md_value(MdRef::Node(mfrom(md)), None))
    }

    fn erase_function(&mut self, f: FuncId) -> Result<(), EditError> {
        let f = ffrom(f);
        let v = self.funcs[f].value;
        if self.real_users(v).next().is_some() {
            return Err(EditError::HasUses);
        }
        self.drop_md_uses(v);
        // The whole record of its names goes (before the blocks, whose
        // detaching would otherwise update it name by name).
        self.inline_names.remove(&f);
        self.inline_suffix.remove(&f);
        let blocks: Vec<Block> = self.func_blocks(f).collect();
        for b in &blocks {
            let mut cur = self.inst_cursor(*b);
            while let Some(i) = cur.next(self) {
                // One at a time: removing a use may renumber a later use of
                // the same value by this instruction (see `Module::erase_inst`).
                self.clear_inst_ops(i);
                self.retired.insts.push(i);
            }
        }
        for &b in &blocks {
            self.detach_block(b);
        }
        self.retired.blocks.extend(blocks);
        for k in 0..3 {
            let taken = self.funcs[f]
                .extras
                .as_mut()
                .and_then(|e| e.extra_ops[k].take());
            if let Some(o) = taken {
                self.remove_use(o);
            }
        }
        self.funcs[f].erased = true;
        if let Some(n) = self.values[v].name {
            self.symbols.remove(n);
        }
        self.note_erased_in_order();
        self.replace_md_value_refs(v, None);
        Ok(())
    }

    fn reclaim_erased(&mut self) {
        Module::reclaim_erased(self);
    }

    fn declare_function(&mut self, name: &str, fn_ty: TypeId) -> Result<FuncId, EditError> {
        let s = self.sym(name);
        if self.symbols.contains(s) {
            return Err(EditError::NameTaken);
        }
        let fty = tfrom(fn_ty);
        let params: Vec<Type> = self
            .types
            .func_sig(fty)
            .ok_or(EditError::TypeMismatch)?
            .1
            .to_vec();
        let f = self.new_func_data(s, fty);
        for (k, ty) in params.into_iter().enumerate() {
            let v = self.new_value(
                ty,
                IrValueKind::Arg {
                    func: f,
                    index: k as u32,
                },
                None,
            );
            self.funcs[f].params.push(Param {
                value: v,
                attrs: AttrSet::default(),
            });
        }
        self.order.push(TopLevel::Func(f));
        Ok(fid(f))
    }

    fn erase_block(&mut self, b: BlockId) -> Result<(), EditError> {
        let b = bfrom(b);
        let f = self.blocks[b].func;
        if self.funcs[f].first_block.expand() == Some(b) {
            return Err(EditError::HasUses);
        }
        if IrView::predecessors(self, bid(b)).next().is_some() {
            return Err(EditError::HasUses);
        }
        let insts: Vec<Inst> = self.block_insts(b).collect();
        // Results may only be used inside the block itself.
        for &i in &insts {
            if let Some(r) = self.insts[i].result.expand() {
                let outside = self.real_users(r).any(|u| match u.user() {
                    IrUser::Inst(j) => self.block_of(j) != Some(b),
                    _ => true,
                });
                if outside {
                    return Err(EditError::HasUses);
                }
            }
        }
        for s in Module::successors(self, b).to_vec() {
            self.remove_phi_incoming(s, b);
        }
        for &i in &insts {
            self.clear_inst_ops(i);
        }
        for &i in &insts {
            if let Some(r) = self.insts[i].result.expand() {
                self.drop_md_uses(r);
            }
            self.detach_inst(i);
        }
        self.detach_block(b);
        Ok(())
    }

    fn erase_global(&mut self, g: GlobalId) -> Result<(), EditError> {
        let g = gfrom(g);
        let v = self.globals[g].value;
        if self.real_users(v).next().is_some() {
            return Err(EditError::HasUses);
        }
        self.drop_md_uses(v);
        if let Some(o) = self.globals[g].init.take() {
            self.remove_use(o);
        }
        self.globals[g].erased = true;
        if let Some(n) = self.values[v].name {
            self.symbols.remove(n);
        }
        self.note_erased_in_order();
        self.replace_md_value_refs(v, None);
        Ok(())
    }

    fn ptr_type(&mut self, addr_space: u32) -> TypeId {
        tid(self.types.ptr(addr_space))
    }

    fn int_type(&mut self, bits: u32) -> TypeId {
        tid(self.types.int(bits))
    }

    fn void_type(&mut self) -> TypeId {
        tid(self.types.void())
    }

    fn func_type_of(&mut self, ret: TypeId, params: &[TypeId], vararg: bool) -> TypeId {
        tid(self.types.intern(TypeData::Func {
            ret: tfrom(ret),
            params: params.iter().map(|&t| tfrom(t)).collect(),
            vararg,
        }))
    }

    fn const_int_of(&mut self, ty: TypeId, value: i128) -> ValueId {
        vid(self.const_int(tfrom(ty), value))
    }

    fn const_null(&mut self, ty: TypeId) -> ValueId {
        vid(self.const_scalar(tfrom(ty), Const::Null))
    }

    fn create_md_node(&mut self, ops: &[MdOperand<'_>], distinct: bool) -> Result<MdId, EditError> {
        let mut refs = Vec::with_capacity(ops.len());
        for op in ops {
            refs.push(match *op {
                MdOperand::Null => MdRef::Null,
                MdOperand::Node(n) => MdRef::Node(mfrom(n)),
                MdOperand::String(s) => MdRef::String(self.sym(s)),
                MdOperand::Value(v) => MdRef::Value(self.values[vfrom(v)].ty, vfrom(v)),
                MdOperand::Other => return Err(EditError::Unsupported("metadata operand kind")),
            });
        }
        let md = self.push_numbered_md(MdNode {
            distinct,
            inline: false,
            kind: MdKind::Tuple(refs.into()),
        });
        Ok(mid(md))
    }

    fn set_named_md(&mut self, name: &str, ops: &[MdId]) {
        let s = self.sym(name);
        let ops: Vec<Md> = ops.iter().map(|&m| mfrom(m)).collect();
        match self.named_md.iter().position(|n| n.name == s) {
            Some(p) if ops.is_empty() => {
                self.named_md.remove(p);
            }
            Some(p) => self.named_md[p].ops = ops,
            None if ops.is_empty() => {}
            None => self.named_md.push(NamedMd { name: s, ops }),
        }
    }

    fn set_cast_opcode(&mut self, inst: InstId, op: Opcode) -> Result<(), EditError> {
        let i = ifrom(inst);
        let opcode = ir_opcode(op)
            .filter(|o| o.is_cast())
            .ok_or(EditError::TypeMismatch)?;
        let d = &self.insts[i];
        if !d.opcode.is_cast() || d.ops.len() != 1 {
            return Err(EditError::TypeMismatch);
        }
        let (src, dst) = (self.values[self.ops_of(d)[0].value].ty, self.ty_of(d));
        let (sb, db) = (self.types.int_bits(src), self.types.int_bits(dst));
        let (sp, dp) = (self.types.ptr_addrspace(src), self.types.ptr_addrspace(dst));
        let ok = match opcode {
            IrOpcode::ZExt | IrOpcode::SExt => matches!((sb, db), (Some(a), Some(b)) if a < b),
            IrOpcode::Trunc => matches!((sb, db), (Some(a), Some(b)) if a > b),
            IrOpcode::AddrSpaceCast => sp.is_some() && dp.is_some() && sp != dp,
            IrOpcode::BitCast => src == dst || (sp.is_some() && sp == dp),
            IrOpcode::PtrToInt => sp.is_some() && db.is_some(),
            IrOpcode::IntToPtr => sb.is_some() && dp.is_some(),
            // Floating-point casts: only between two opcodes of one family
            // with the same operand and result types, which the old opcode
            // already proved valid.
            _ => core::mem::discriminant(&opcode) == core::mem::discriminant(&d.opcode),
        };
        if !ok {
            return Err(EditError::TypeMismatch);
        }
        let d = &mut self.insts[i];
        if d.opcode != opcode {
            d.opcode = opcode;
            d.flags = InstFlags::empty();
        }
        Ok(())
    }

    fn erase_blocks(&mut self, blocks: &[BlockId]) -> Result<(), EditError> {
        let set: Vec<Block> = blocks.iter().map(|&b| bfrom(b)).collect();
        let Some(&first) = set.first() else {
            return Ok(());
        };
        let f = self.blocks[first].func;
        let members: hashbrown::HashSet<Block> = set.iter().copied().collect();
        let inside = |b: Block| members.contains(&b);
        for &b in &set {
            if self.blocks[b].func != f
                || self.blocks[b].erased
                || self.funcs[f].first_block.expand() == Some(b)
            {
                return Err(EditError::HasUses);
            }
        }
        // No edge may enter the set from outside.
        for p in self.func_blocks(f) {
            if !inside(p) && Module::successors(self, p).iter().any(|&s| inside(s)) {
                return Err(EditError::HasUses);
            }
        }
        let insts: Vec<Inst> = set.iter().flat_map(|&b| self.block_insts(b)).collect();
        for &i in &insts {
            let Some(r) = self.insts[i].result.expand() else {
                continue;
            };
            let bad = self.real_users(r).any(|u| match u.user() {
                IrUser::Inst(j) => {
                    let jb = self.block_of(j);
                    if jb.is_some_and(inside) {
                        return false;
                    }
                    // A phi outside may use it on an edge from the set.
                    self.insts[j].opcode != IrOpcode::Phi
                        || !self
                            .inst_block_ops(j)
                            .get(u.index() as usize)
                            .is_some_and(|&b| inside(b))
                }
                _ => true,
            });
            if bad {
                return Err(EditError::HasUses);
            }
        }
        for &b in &set {
            for s in Module::successors(self, b).to_vec() {
                if !inside(s) {
                    self.remove_phi_incoming(s, b);
                }
            }
        }
        for &i in &insts {
            self.clear_inst_ops(i);
        }
        for &i in &insts {
            if let Some(r) = self.insts[i].result.expand() {
                self.drop_md_uses(r);
            }
            self.detach_inst(i);
        }
        for &b in &set {
            self.detach_block(b);
        }
        Ok(())
    }

    fn array_type_of(&mut self, elem: TypeId, len: u64) -> Result<TypeId, EditError> {
        Ok(tid(self.types.intern(TypeData::Array(len, tfrom(elem)))))
    }

    fn retype_global_initializer(&mut self, g: GlobalId, init: ValueId) -> Result<(), EditError> {
        let g = gfrom(g);
        let v = vfrom(init);
        if !matches!(self.values[v].kind, IrValueKind::Const(_)) {
            return Err(EditError::TypeMismatch);
        }
        if let Some(o) = self.globals[g].init.take() {
            self.remove_use(o);
        }
        self.globals[g].value_ty = self.values[v].ty;
        let o = self.add_use(v, IrUser::GlobalInit(g), 0);
        self.globals[g].init = Some(o);
        Ok(())
    }

    fn inline_call_with_info(&mut self, call: InstId) -> Result<InlineInfo, EditError> {
        self.inline_call_impl(call)
    }

    /// Sure for every call the checks let through, but that of a callee
    /// with `byval` parameters only once `llvm.memcpy.p0.p0.i64` is
    /// declared with its type (otherwise the inlining declares it).
    fn inline_would_succeed(&self, call: InstId) -> bool {
        let c = ifrom(call);
        if c.index() >= self.insts.len() {
            return false;
        }
        match self.inline_precheck(c) {
            Ok((_, caller, _, byvals)) => {
                self.funcs[caller].first_block.is_some()
                    && (byvals.is_empty() || self.memcpy_declared())
            }
            Err(_) => false,
        }
    }

    fn set_result_ptr_type(&mut self, inst: InstId, ty: TypeId) -> Result<(), EditError> {
        let i = ifrom(inst);
        let r = self.insts[i]
            .result
            .expand()
            .ok_or(EditError::TypeMismatch)?;
        let new = tfrom(ty);
        if self.types.ptr_addrspace(self.values[r].ty).is_none()
            || self.types.ptr_addrspace(new).is_none()
        {
            return Err(EditError::TypeMismatch);
        }
        self.values[r].ty = new;
        Ok(())
    }

    fn set_pointer_operand(
        &mut self,
        inst: InstId,
        index: usize,
        value: ValueId,
    ) -> Result<(), EditError> {
        let i = ifrom(inst);
        let idx = self.stored_index(i, index).ok_or(EditError::OutOfRange)?;
        let old = self.inst_ops(i)[idx].value;
        let (a, b) = (self.values[old].ty, self.values[vfrom(value)].ty);
        if a != b
            && (self.types.ptr_addrspace(a).is_none() || self.types.ptr_addrspace(b).is_none())
        {
            return Err(EditError::TypeMismatch);
        }
        Module::set_operand(
            self,
            crate::value::Use::new(IrUser::Inst(i), idx as u32),
            vfrom(value),
        );
        Ok(())
    }

    fn move_inst_before(&mut self, inst: InstId, before: InstId) -> Result<(), EditError> {
        let (i, b) = (ifrom(inst), ifrom(before));
        if i == b {
            return Err(EditError::OutOfRange);
        }
        let (Some(bi), Some(bb)) = (self.block_of(i), self.block_of(b)) else {
            return Err(EditError::OutOfRange);
        };
        if self.blocks[bi].func != self.blocks[bb].func {
            return Err(EditError::OutOfRange);
        }
        let (oi, ob) = (self.insts[i].opcode, self.insts[b].opcode);
        if oi == IrOpcode::Phi || oi.is_terminator() || ob == IrOpcode::Phi {
            return Err(EditError::TypeMismatch);
        }
        self.detach_inst(i);
        self.insert_inst_before(i, b);
        Ok(())
    }
}

impl Module {
    fn store_func_set(&mut self, f: Func, slot: AttrSlot, set: AttrSet) {
        let set = self.share_attr_set(set);
        self.put_func_set(f, slot, set);
    }

    /// Takes out of slot `slot` of `f` the attributes keyed `remove` (if
    /// given) and `key`, and adds `add` (whose key `key` is). The result
    /// of the last few such edits is remembered with the set it was made
    /// from ([`Module::set_edits`]): marking thousands of functions that
    /// share a set copies, edits and shares it once, and gives the others
    /// the shared result.
    fn edit_func_set(
        &mut self,
        f: Func,
        slot: AttrSlot,
        remove: Option<AttrKey<'_>>,
        key: AttrKey<'_>,
        add: IrAttr,
    ) {
        let Some(before) = self.func_set(f, slot) else {
            return;
        };
        // The edit depends only on the set, the key removed and the
        // attribute added (whose key goes too). A removed key no symbol
        // names (an unknown keyword, a name never interned) is not
        // remembered.
        let removed = match remove.map(|r| self.key_probe(r)) {
            None => Some(None),
            Some(Some(Some(s))) => Some(Some(s)),
            Some(_) => None,
        };
        if let Some(removed) = removed {
            let hit = self
                .set_edits
                .iter()
                .flatten()
                .find(|e| e.removed == removed && e.add == add && e.before == *before);
            if let Some(e) = hit {
                let after = e.after.clone();
                self.put_func_set(f, slot, after);
                return;
            }
        }
        let mut set = before.clone();
        let before = removed.map(|removed| (set.clone(), removed));
        if let Some(r) = remove {
            self.edit_set(&mut set, r, None);
        }
        self.edit_set(&mut set, key, Some(add.clone()));
        let after = self.share_attr_set(set);
        if let Some((before, removed)) = before {
            let at = self.set_edit_next;
            self.set_edit_next = (at + 1) % crate::module::SET_EDIT_SLOTS;
            self.set_edits[at] = Some(crate::module::SetEdit {
                before,
                removed,
                add,
                after: after.clone(),
            });
        }
        self.put_func_set(f, slot, after);
    }

    /// Stores `set`, already shared, in slot `slot` of `f`.
    fn put_func_set(&mut self, f: Func, slot: AttrSlot, set: AttrSet) {
        let d = &mut self.funcs[f];
        match slot {
            AttrSlot::Function => d.fn_attrs = set,
            AttrSlot::Return => d.ret_attrs = set,
            AttrSlot::Param(i) => {
                if let Some(p) = d.params.get_mut(i as usize) {
                    p.attrs = set;
                }
            }
        }
    }

    fn store_call_set(&mut self, i: Inst, slot: AttrSlot, set: AttrSet) {
        let set = self.share_attr_set(set);
        self.edit_call_data(i, |c| match slot {
            AttrSlot::Function => c.fn_attrs = set,
            AttrSlot::Return => c.ret_attrs = set,
            AttrSlot::Param(n) => {
                let n = n as usize;
                if c.param_attrs.len() <= n {
                    c.param_attrs.resize(n + 1, AttrSet::default());
                }
                c.param_attrs[n] = set;
            }
        });
    }

    /// Renames the blocks and values that inlining copied into `func` so that
    /// no name clashes with one already in the function: like LLVM's
    /// inliner, a copied `%x` becomes `%x.i`, then `%x.i1`, `%x.i2`, ...
    /// Unnamed values stay unnamed.
    /// The nearest instruction from `i` along `step` (its next or previous
    /// link) that the traits see: debug records are not instructions to
    /// them (see `insts`). `None` for a detached `i`.
    fn neighbor(
        &self,
        i: Inst,
        step: impl Fn(&crate::inst::InstData) -> PackedOption<Inst>,
    ) -> Option<InstId> {
        self.block_of(i)?;
        let mut cur = step(&self.insts[i]).expand();
        while let Some(j) = cur.filter(|&j| self.insts[j].opcode == IrOpcode::DbgRecord) {
            cur = step(&self.insts[j]).expand();
        }
        cur.map(iid)
    }

    fn uniquify_inlined_names(&mut self, func: Func, copied: &[Block]) {
        // The names of the form `x.i`/`x.iN` in the function, kept from
        // one inline to the next (see `Module::inline_names`); the first
        // inline into a function collects them from its own part.
        if !self.inline_names.contains_key(&func) {
            let copied: hashbrown::HashSet<Block> = copied.iter().copied().collect();
            let params = self.funcs[func]
                .params
                .iter()
                .map(|p| self.values[p.value].name);
            let own = self.func_blocks(func).filter(|b| !copied.contains(b));
            let names: hashbrown::HashSet<Sym> = params
                .chain(own.flat_map(|b| {
                    core::iter::once(self.blocks[b].name)
                        .chain(self.block_insts(b).map(|i| self.inst_name(i)))
                }))
                .flatten()
                .filter(|&s| is_inline_name(self.strings.get(s)))
                .collect();
            self.inline_names.insert(func, names);
        }
        // `name.i`, then `name.i1`, `name.i2`, ...: each function remembers
        // where the search for a base name stopped, so inlining one callee
        // N times into one caller probes O(N) names, not O(N^2).
        // One buffer for every candidate name of this inline.
        let mut candidate: Vec<u8> = Vec::new();
        // This function's suffix table, held here for the whole renaming.
        let mut suffix = self.inline_suffix.remove(&func).unwrap_or_default();
        let mut fresh = |m: &mut Module, name: Sym| -> Sym {
            candidate.clear();
            candidate.extend_from_slice(m.strings.get(name));
            candidate.extend_from_slice(b".i");
            let stem = candidate.len();
            let next = suffix.entry(name).or_insert(0);
            loop {
                if *next > 0 {
                    candidate.truncate(stem);
                    crate::print::write_u64(&mut candidate, u64::from(*next));
                }
                let s = m.strings.intern(&candidate);
                *next += 1;
                let names = m.inline_names.get_mut(&func).expect("collected above");
                if names.insert(s) {
                    return s;
                }
            }
        };
        for &b in copied {
            if let Some(name) = self.blocks[b].name {
                let s = fresh(self, name);
                self.blocks[b].name = Some(s);
            }
            let mut cur = self.inst_cursor(b);
            while let Some(i) = cur.next(self) {
                if let Some(r) = self.insts[i].result.expand() {
                    if let Some(name) = self.values[r].name {
                        let s = fresh(self, name);
                        self.values[r].name = Some(s);
                    }
                }
            }
        }
        self.inline_suffix.insert(func, suffix);
    }

    /// The checks [`IrEdit::inline_call_with_info`] makes before editing
    /// anything: on success, the call's block, the caller, the callee and
    /// its `byval` parameters as (index, pointee type, alignment).
    fn inline_precheck(&self, c: Inst) -> Result<(Block, Func, Func, ByVals), EditError> {
        if self.insts[c].opcode != IrOpcode::Call {
            return Err(if self.insts[c].opcode.is_call() {
                EditError::NotInlinable("invoke and callbr sites are not inlined")
            } else {
                EditError::NotACall
            });
        }
        let callee_v = self.inst_ops(c)[0].value;
        let IrValueKind::Func(g) = self.values[callee_v].kind else {
            return Err(EditError::NotInlinable("indirect call"));
        };
        let block = self.block_of(c).ok_or(EditError::OutOfRange)?;
        let caller = self.blocks[block].func;
        if g == caller {
            return Err(EditError::NotInlinable("recursive call"));
        }
        if !self.funcs[g].is_definition {
            return Err(EditError::NotInlinable("callee is a declaration"));
        }
        if self.funcs[g].ty
            != self.insts[c]
                .call()
                .and_then(|d| d.fn_ty)
                .unwrap_or(self.funcs[g].ty)
        {
            return Err(EditError::NotInlinable(
                "call type differs from callee type",
            ));
        }
        let vararg = self
            .types
            .func_sig(self.funcs[g].ty)
            .map(|s| s.2)
            .unwrap_or(false);
        if vararg {
            return Err(EditError::NotInlinable("variadic callee"));
        }
        // byval parameters: (index, pointee type, alignment).
        let nparams = self.funcs[g].params.len();
        let mut byvals: ByVals = Vec::new();
        for k in 0..nparams {
            let slot = AttrSlot::Param(k as u32);
            let Some(ty) = IrView::type_attr(self, fid(g), slot, AttrKind::ByVal) else {
                continue;
            };
            let pty = self.values[self.funcs[g].params[k].value].ty;
            if self.types.ptr_addrspace(pty) != Some(0) {
                return Err(EditError::NotInlinable(
                    "byval parameter outside address space 0",
                ));
            }
            let size = IrView::alloc_size(self, ty);
            let align = IrView::int_attr(self, fid(g), slot, AttrKind::Align)
                .or_else(|| IrView::abi_align(self, ty));
            match (size, align) {
                (Some(_), Some(a)) => byvals.push((k, tfrom(ty), a)),
                _ => return Err(EditError::NotInlinable("unsized byval parameter")),
            }
        }
        Ok((block, caller, g, byvals))
    }

    /// The reference implementation of [`IrEdit::inline_call_with_info`]
    /// (and so of [`IrEdit::inline_call`]).
    ///
    /// `byval` parameters get LLVM's treatment: a caller-entry `alloca` of
    /// the `byval` type (with the parameter's `align`, else the type's ABI
    /// alignment) receives an `llvm.memcpy` of the argument right before the
    /// call, and the callee's uses of the parameter use that copy. Call-site
    /// attributes are dropped with the call; `!dbg` attachments of copied
    /// instructions are kept as they are (no `inlinedAt` is added).
    fn inline_call_impl(&mut self, call: InstId) -> Result<InlineInfo, EditError> {
        let c = ifrom(call);
        let (block, caller, g, byvals) = self.inline_precheck(c)?;
        let caller_entry = self.funcs[caller]
            .first_block
            .expand()
            .ok_or(EditError::OutOfRange)?;
        let memcpy = if byvals.is_empty() {
            None
        } else {
            Some(self.memcpy_decl()?)
        };

        let mut info = InlineInfo::default();
        // What the inlining adds to the caller besides the static allocas
        // (which `info` lists anyway).
        let mut added: Vec<Inst> = Vec::new();
        // Copies of byval arguments, made before the call.
        let nargs = self.call_nargs(c);
        let mut actuals: Vec<Value> = (0..nargs).map(|k| self.inst_ops(c)[k + 1].value).collect();
        for &(k, ty, align) in &byvals {
            let Some(&src) = actuals.get(k) else { continue };
            let ptr = self.types.ptr(0);
            let tmp = self.new_inst(
                IrOpcode::Alloca,
                ptr,
                &[],
                Extra::Alloca {
                    ty,
                    align: Align::new(align),
                    addrspace: None,
                },
                None,
            );
            match self.block_insts(caller_entry).find(|&i| {
                let op = self.insts[i].opcode;
                op != IrOpcode::Phi && op != IrOpcode::DbgRecord
            }) {
                Some(x) => self.insert_inst_before(tmp, x),
                None => self.append_inst(caller_entry, tmp),
            }
            let dst = self.insts[tmp].result.expand().expect("alloca result");
            let size = IrView::alloc_size(self, tid(ty)).unwrap_or(0);
            let i64t = self.types.int(64);
            let i1t = self.types.int(1);
            let len = self.const_int(i64t, size as i128);
            let vol = self.const_int(i1t, 0);
            let (mfn, mty) = memcpy.expect("declared above");
            let cpy = self.new_call_inst(mty, mfn, &[dst, src, len, vol]);
            self.insert_inst_before(cpy, c);
            added.push(cpy);
            actuals[k] = dst;
            info.static_allocas.push(iid(tmp));
        }

        // A callee whose body is one block ending in `ret` is spliced in at
        // the call, as LLVM's InlineFunction does, and the caller's block
        // is not split. Splitting moves the rest of the block, so inlining
        // the k calls of one block would cost k times the block.
        let single_block = {
            let f = &self.funcs[g];
            f.first_block == f.last_block
                && f.first_block
                    .expand()
                    .and_then(|b| Module::terminator(self, b))
                    .is_some_and(|t| self.insts[t].opcode == IrOpcode::Ret)
        };
        // Otherwise split the caller's block after the call.
        // The tail keeps no name: the printer numbers it.
        let tail = if single_block {
            None
        } else {
            let tail = self.insert_block_after(caller, block, None);
            self.move_insts_after(c, tail);
            for s in Module::successors(self, tail).to_vec() {
                self.retarget_phis(s, block, tail);
            }
            Some(tail)
        };

        // Copy the callee's body between the two halves.
        let mut vmap: HashMap<Value, Value> = HashMap::new();
        let params: Vec<Value> = self.funcs[g].params.iter().map(|p| p.value).collect();
        for (k, p) in params.iter().enumerate() {
            if let Some(&a) = actuals.get(k) {
                vmap.insert(*p, a);
            }
        }
        // The copies arrive with the callee's names, about to be renamed:
        // the caller's record of its names (`Module::inline_names`) stays
        // out of the copy's way, and is brought up to date by the renaming.
        let names = self.inline_names.remove(&caller);
        let (_, new_blocks, copied) = self.copy_body(g, caller, Some(block), &mut vmap);
        // The copies are all listed in `added` below: room for them (and a
        // branch and a phi) at once.
        added.reserve(copied + 2);
        if let Some(names) = names {
            self.inline_names.insert(caller, names);
        }
        let entry = new_blocks[0];
        self.uniquify_inlined_names(caller, &new_blocks);
        let call_loc = self.attachment(self.inst_attachments(c), "dbg").map(mfrom);
        self.fix_inlined_debug_locations(&new_blocks, call_loc);
        for kind in ["alias.scope", "noalias"] {
            if let Some(list) = self.attachment(self.inst_attachments(c), kind).map(mfrom) {
                self.propagate_call_scope_list(&new_blocks, kind, list);
            }
        }
        for &b in &new_blocks {
            for i in self.block_insts(b) {
                if self.insts[i].opcode.is_call() {
                    info.inlined_calls.push(iid(i));
                }
            }
        }

        // Returns become branches to the tail; results merge in a phi.
        let mut rets: Vec<(Option<Value>, Block)> = Vec::new();
        for &b in &new_blocks {
            if let Some(t) = Module::terminator(self, b) {
                if self.insts[t].opcode == IrOpcode::Ret {
                    let v = self.inst_ops(t).first().map(|o| o.value);
                    Module::erase_inst(self, t);
                    if let Some(tail) = tail {
                        let void = self.types.void();
                        let br = self.new_inst(IrOpcode::Br, void, &[], Extra::None, None);
                        self.push_block_op(br, tail);
                        self.append_inst(b, br);
                    }
                    rets.push((v, b));
                }
            }
        }
        let Some(tail) = tail else {
            // One block: its static allocas go to the caller's entry, the
            // rest in place of the call, whose result is the returned value.
            let allocas = self.hoist_static_allocas(entry, caller_entry);
            added.extend(self.block_insts(entry));
            self.splice_block_before(entry, c);
            self.detach_block(entry);
            self.replace_inlined_call(c, &rets, None);
            info.static_allocas.extend(allocas.into_iter().map(iid));
            info.added_insts = Some(report_added(added, &info));
            return Ok(info);
        };
        added.extend(self.replace_inlined_call(c, &rets, Some(tail)));
        let void = self.types.void();
        let br = self.new_inst(IrOpcode::Br, void, &[], Extra::None, None);
        self.push_block_op(br, entry);
        self.append_inst(block, br);
        added.push(br);

        let allocas = self.hoist_static_allocas(entry, caller_entry);
        info.static_allocas.extend(allocas.into_iter().map(iid));
        for &b in &new_blocks {
            added.extend(self.block_insts(b));
        }
        info.added_insts = Some(report_added(added, &info));
        Ok(info)
    }

    /// Erases inlined call `c`, first replacing its result by what the
    /// body's returns `rets` give: poison when none gives a value, the
    /// value of a single `ret`, else a phi at the start of `tail` (where
    /// the returns branch), which is returned.
    fn replace_inlined_call(
        &mut self,
        c: Inst,
        rets: &[(Option<Value>, Block)],
        tail: Option<Block>,
    ) -> Option<Inst> {
        let mut phi = None;
        if let Some(r) = self.insts[c].result.expand() {
            let ty = self.values[r].ty;
            let replacement = match (rets, tail) {
                ([], _) | ([(None, _)], _) => self.const_scalar(ty, Const::Poison),
                ([(Some(v), _)], _) => *v,
                (_, Some(tail)) => {
                    let vals: Vec<Value> = rets.iter().map(|(v, _)| v.unwrap_or(r)).collect();
                    let p = self.new_inst(IrOpcode::Phi, ty, &vals, Extra::None, None);
                    let blocks: Vec<Block> = rets.iter().map(|(_, b)| *b).collect();
                    self.set_block_ops(p, &blocks);
                    match self.blocks[tail].first.expand() {
                        Some(first) => self.insert_inst_before(p, first),
                        None => self.append_inst(tail, p),
                    }
                    phi = Some(p);
                    self.insts[p].result.expand().expect("phi result")
                }
                (_, None) => unreachable!("several returns without a block to merge them"),
            };
            self.drop_md_uses(r);
            Module::replace_all_uses(self, r, replacement);
        }
        Module::erase_inst(self, c);
        phi
    }

    /// Moves the static allocas of an inlined entry block to the start of
    /// the caller's entry block (after its phis and debug records), in
    /// order; returns them.
    fn hoist_static_allocas(&mut self, entry: Block, caller_entry: Block) -> Vec<Inst> {
        let allocas: Vec<Inst> = self
            .block_insts(entry)
            .filter(|&i| self.is_static_alloca(i))
            .collect();
        if !allocas.is_empty() {
            let anchor = self.block_insts(caller_entry).find(|&i| {
                let op = self.insts[i].opcode;
                op != IrOpcode::Phi && op != IrOpcode::DbgRecord
            });
            for &a in &allocas {
                self.detach_inst(a);
                match anchor {
                    Some(x) if x != a => self.insert_inst_before(a, x),
                    _ => self.append_inst(caller_entry, a),
                }
            }
        }
        allocas
    }

    /// Whether `llvm.memcpy.p0.p0.i64` is declared with the type an
    /// inlined `byval` copy calls it with, `void (ptr, ptr, i64, i1)`.
    fn memcpy_declared(&self) -> bool {
        let Some(f) = IrView::func_by_name(self, MEMCPY_P0_P0_I64) else {
            return false;
        };
        let Some((ret, params, vararg)) = self.types.func_sig(self.funcs[ffrom(f)].ty) else {
            return false;
        };
        let t = &self.types;
        !vararg
            && t.is_void(ret)
            && params.len() == 4
            && t.ptr_addrspace(params[0]) == Some(0)
            && t.ptr_addrspace(params[1]) == Some(0)
            && t.int_bits(params[2]) == Some(64)
            && t.int_bits(params[3]) == Some(1)
    }

    /// `llvm.memcpy.p0.p0.i64` and its function type, declared if absent;
    /// refused when it is declared with another type
    /// ([`Module::memcpy_declared`] says which type is right).
    fn memcpy_decl(&mut self) -> Result<(Value, Type), EditError> {
        let f = match IrView::func_by_name(self, MEMCPY_P0_P0_I64) {
            Some(_) if !self.memcpy_declared() => {
                return Err(EditError::NotInlinable(
                    "llvm.memcpy declared with another type",
                ));
            }
            Some(f) => f,
            None => {
                let ptr = self.types.ptr(0);
                let i64t = self.types.int(64);
                let i1t = self.types.int(1);
                let void = self.types.void();
                let fty = self.types.intern(TypeData::Func {
                    ret: void,
                    params: SmallVec::from_slice(&[ptr, ptr, i64t, i1t]),
                    vararg: false,
                });
                IrEdit::declare_function(self, MEMCPY_P0_P0_I64, tid(fty))?
            }
        };
        let d = &self.funcs[ffrom(f)];
        Ok((d.value, d.ty))
    }

    /// Removes the incoming entries for `pred` from the phis of `block`.
    pub fn remove_phi_incoming(&mut self, block: Block, pred: Block) {
        let mut cur = self.inst_cursor(block);
        while let Some(i) = cur.next(self) {
            if self.insts[i].opcode != IrOpcode::Phi {
                break;
            }
            while let Some(k) = self.inst_block_ops(i).iter().position(|&b| b == pred) {
                self.remove_block_op(i, k);
                self.remove_operand(i, k);
            }
        }
    }
}

/// The `byval` parameters of a callee: (index, pointee type, alignment).
type ByVals = Vec<(usize, Type, u64)>;

/// [`InlineInfo::added_insts`]: the instructions an inlining added
/// besides its static allocas, and those.
fn report_added(added: Vec<Inst>, info: &InlineInfo) -> Vec<InstId> {
    let allocas = info.static_allocas.iter().copied();
    added.into_iter().map(iid).chain(allocas).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A name's text is its bytes when they are UTF-8, ASCII or not, and
    /// empty when they are not.
    #[test]
    fn str_of_reads_ascii_utf8_and_rejects_invalid_bytes() {
        let mut m = Module::default();
        let ascii = m.strings.intern(b"llvm.nvvm.read.ptx.sreg.tid.x");
        let utf8 = m.strings.intern("caf\u{e9}.\u{3bb}".as_bytes());
        let invalid = m.strings.intern(b"bad\xff");
        assert_eq!(m.str_of(ascii), "llvm.nvvm.read.ptx.sreg.tid.x");
        assert_eq!(m.str_of(utf8), "caf\u{e9}.\u{3bb}");
        assert_eq!(m.str_of(invalid), "");
    }

    /// The direct opcode mapping agrees with mapping by keyword.
    #[test]
    fn opcode_mapping_matches_keywords() {
        let mut n = 0;
        for kw in Opcode::ALL.iter().map(|o| o.name()) {
            if let Some(op) = IrOpcode::from_keyword(kw.as_bytes()) {
                assert_eq!(core_opcode(op).name(), kw);
                n += 1;
            }
        }
        // Every LLVM opcode but the five exception-handling pads, which the
        // reference IR keeps verbatim.
        assert_eq!(n, Opcode::ALL.len() - 5, "only {n} opcodes mapped");
        assert_eq!(core_opcode(IrOpcode::DbgRecord), Opcode::Other);
        assert_eq!(core_opcode(IrOpcode::Verbatim), Opcode::Other);
    }

    /// The renaming's per-function suffix table lives while the function
    /// does: an inline into `mid` makes one, erasing `mid` after it is
    /// inlined in turn drops it, and the kernel's stays.
    #[test]
    fn suffix_tables_go_with_erased_functions() {
        let src = b"define internal i32 @leaf(i32 %x) {\n  %y = add i32 %x, 1\n  ret i32 %y\n}\n\
define internal i32 @mid(i32 %x) {\n  %z = call i32 @leaf(i32 %x)\n  ret i32 %z\n}\n\
define i32 @k(i32 %x) {\n  %w = call i32 @mid(i32 %x)\n  ret i32 %w\n}\n";
        let mut m = crate::parse_module(src).expect("parses");
        let f = |m: &Module, n: &str| IrView::func_by_name(m, n).expect("defined");
        let call_in = |m: &Module, g: FuncId| {
            let b = IrView::blocks(m, g).next().expect("a block");
            IrView::insts(m, b).next().expect("the call")
        };
        let (mid, k) = (f(&m, "mid"), f(&m, "k"));
        m.inline_call(call_in(&m, mid))
            .expect("leaf inlines into mid");
        assert!(m.inline_suffix.contains_key(&ffrom(mid)));
        m.inline_call(call_in(&m, k)).expect("mid inlines into k");
        assert!(m.inline_suffix.contains_key(&ffrom(k)));
        m.erase_function(mid).expect("mid has no use left");
        assert!(!m.inline_suffix.contains_key(&ffrom(mid)));
        assert!(m.inline_suffix.contains_key(&ffrom(k)));
        let names: Vec<&str> = IrView::blocks(&m, k)
            .flat_map(|b| IrView::insts(&m, b))
            .filter_map(|i| IrView::inst_result(&m, i).and_then(|v| m.value_name(v)))
            .collect();
        assert_eq!(names, ["y.i.i"]);
    }

    /// An erased function's records stay its own until the pass reclaims
    /// them; then new instructions and values take them, in layout order,
    /// except a result something still names (a metadata wrapper), which
    /// keeps its record and its instruction's.
    #[test]
    fn reclaimed_bodies_are_reused_in_layout_order() {
        let src = b"define internal void @gone(i32 %x) {\n  %a = add i32 %x, 1\n  %b = mul i32 %a, 2\n\
  call void @llvm.dbg.value(metadata i32 %b, metadata !1, metadata !DIExpression())\n  %c = sub i32 %b, 3\n  ret void\n}\n\
define void @k(i32 %x) {\n  ret void\n}\n\
declare void @llvm.dbg.value(metadata, metadata, metadata)\n!1 = !{}\n";
        let mut m = crate::parse_module(src).expect("parses");
        let gone = IrView::func_by_name(&m, "gone").expect("defined");
        let k = IrView::func_by_name(&m, "k").expect("defined");
        let body: Vec<Inst> = m
            .func_blocks(ffrom(gone))
            .flat_map(|b| m.block_insts(b))
            .collect();
        let result = |m: &Module, i: Inst| m.insts[i].result.expand();
        let (a, b, c) = (
            result(&m, body[0]),
            result(&m, body[1]),
            result(&m, body[3]),
        );
        let (a, b, c) = (a.expect("a"), b.expect("b"), c.expect("c"));
        let ret = IrView::insts(&m, IrView::blocks(&m, k).next().expect("entry"))
            .next()
            .expect("ret");
        let i32t = m.types.int(32);
        let one = Module::const_int(&mut m, i32t, 1);
        let (ninsts, nvalues) = (m.insts.len(), m.values.len());
        m.erase_function(gone).expect("no use");
        let add = |m: &mut Module| {
            let i = m.new_inst(IrOpcode::Add, i32t, &[one, one], Extra::None, None);
            m.insert_inst_before(i, ifrom(ret));
            i
        };
        // Before the reclaim, the erased ids still name what they named.
        let early = add(&mut m);
        assert_eq!(early.index(), ninsts);
        assert_eq!(m.insts[body[1]].opcode, IrOpcode::Mul);
        m.reclaim_erased();
        // `%b` is still used by its metadata wrapper: it and `mul` stay.
        let reused: Vec<Inst> = (0..4).map(|_| add(&mut m)).collect();
        assert_eq!(reused, [body[0], body[2], body[3], body[4]]);
        let results: Vec<Option<Value>> = reused.iter().map(|&i| result(&m, i)).collect();
        assert_eq!(results[0], Some(a));
        assert_eq!(results[1], Some(c));
        assert_eq!(m.insts[body[1]].opcode, IrOpcode::Mul);
        assert_eq!(result(&m, body[1]), Some(b));
        assert_eq!(m.insts.len(), ninsts + 1);
        assert_eq!(m.values.len(), nvalues + 3);
        assert!(crate::verify::verify_module(&m).is_ok());
    }

    /// The operand lists of an erased body are dead slots of the operand
    /// pool; copies only append to it, so the reclaim is where the pool is
    /// offered its compaction, once its dead slots are twice its live ones.
    #[test]
    fn reclaim_compacts_the_operand_pool() {
        use core::fmt::Write;
        // Two operand slots per `add`: 16 units of slots, twice the least
        // a pool is compacted at.
        let unit = crate::pool::COMPACT_MIN_SLOTS / 8;
        let mut src = String::new();
        for (f, n) in [("keep", unit), ("gone1", 3 * unit), ("gone2", 4 * unit)] {
            writeln!(src, "define internal i32 @{f}(i32 %x) {{").expect("writes");
            for k in 0..n {
                writeln!(src, "  %a{k} = add i32 %x, {k}").expect("writes");
            }
            src.push_str("  ret i32 %x\n}\n");
        }
        let mut m = crate::parse_module(src.as_bytes()).expect("parses");
        let slots = m.op_pool.slot_count();
        assert!(slots >= 16 * unit, "{slots}");
        let erase = |m: &mut Module, name: &str| {
            let f = IrView::func_by_name(m, name).expect("defined");
            m.erase_function(f).expect("no use");
            m.reclaim_erased();
        };
        // 6 units dead, 10 live: enough for `Pool::wants_compact` (over a
        // third), not for a reclaim.
        erase(&mut m, "gone1");
        assert_eq!(m.op_pool.slot_count(), slots);
        assert!(m.op_pool.wants_compact(m.insts.len()));
        // 14 units dead, 2 live: compacted.
        erase(&mut m, "gone2");
        assert_eq!(m.op_pool.slot_count(), m.op_pool.live_count());
        assert!(
            m.op_pool.slot_count() <= 2 * unit + 2,
            "{}",
            m.op_pool.slot_count()
        );
    }
}
