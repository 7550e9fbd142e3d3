//! The tile IR seen through nvpass-core's traits: [`TypeView`], [`IrView`]
//! and [`IrEdit`] for [`Module`].
//!
//! This file is the whole cost of plugging the tile IR into nvpass. Each
//! place where the tile IR differs from the LLVM-shaped view the traits
//! describe is mapped here, once:
//!
//! | tile IR | what the traits see |
//! |---|---|
//! | arguments of a non-entry block | one virtual `phi` per argument, listed first in [`IrView::insts`]; its incoming values are the arguments the predecessors' branches pass, one per CFG edge in [`IrView::predecessors`] order. Its [`InstId`] is the argument's value id with bit 31 set ([`PHI_TAG`]). Editing a phi operand edits the branch argument. |
//! | arguments of the entry block | the function's parameters ([`ValueKind::Argument`]) |
//! | `tile.call @f` (callee is a symbol) | a `call` whose last operand is `f`'s address value; the call is reported among that value's users |
//! | `tile.call_indirect %fn(args)` (callee first) | a `call` with the callee moved last |
//! | `tile.store ptr, value` (pointer first) | `store` with operands (value, pointer) |
//! | `tile.ptradd ptr, bytes` | `getelementptr i8, ptr, bytes` |
//! | `tile.cast_space`, `tile.extsi`/`extui`, `tile.trunci` | `addrspacecast`, `sext`/`zext`, `trunc` |
//! | `tile.br`/`tile.cond_br` with block arguments | `br` (the condition is the only operand) |
//! | `kernel` / `device` | calling convention `ptx_kernel` / `ccc` |
//! | `inline = always` / `never` | `alwaysinline` / `noinline` |
//! | `public` / `private` / `odr` / `weak_odr` | `external` / `internal` / `linkonce_odr` / `weak_odr` |
//! | `!tile.image` / `!tile.sampler` | `target("nvvm.image")` / `target("nvvm.sampler")` |
//! | op locations `loc("f.cu":3:7)` | a `!dbg` attachment whose [`MdId`] is the location's id ([`IrView::md_specialized_name`] `"DILocation"`) |
//! | other ops (`tile.mma`, `tile.barrier`) | [`Opcode::Other`]: unknown effects |
//!
//! # Primitives the tile IR refuses
//!
//! [`EditError::Unsupported`] comes back from: `bitcast`
//! casts (pointers are opaque and the tile IR has no bitcast), aggregate
//! constants, metadata nodes (the tile IR has no metadata besides
//! locations), and `set_callee`/`set_operand` turning a symbol call into an
//! indirect one. None of them is needed by `kernel-attr`, the force-inline
//! decision, the cost models, `ipmsp` or `memspace-opt`.

use std::string::ToString;
use std::vec::Vec;

use nvpass_core::datalayout::DataLayout;
use nvpass_core::diag::DebugLoc;
use nvpass_core::ir::{
    Attr, AttrKey, AttrKind, AttrSlot, BlockId, CallConv, Callee, ConstKind, EditError, FuncId,
    GlobalId, InlineInfo, InstId, IrEdit, IrView, Linkage, MdId, MdOperand, Opcode, TypeId,
    TypeKind, TypeView, User, ValueId, ValueKind, ValueMap,
};

use crate::ir::{
    AttrEntry, BinOp, Block, Const, Func, FuncKind, Global, InlinePolicy, Loc, MemSpace, Module,
    Op, OpKind, Slot, Successor, Ty, TypeData, Value, ValueDef, Visibility,
};

/// Bit set in an [`InstId`] that names the virtual `phi` of a block
/// argument (the low bits are the argument's value id) rather than an op.
pub const PHI_TAG: u32 = 1 << 31;

// ---- id mapping ----------------------------------------------------------------

fn fid(f: Func) -> FuncId {
    FuncId::new(f.as_u32())
}
fn ffrom(f: FuncId) -> Func {
    Func::from_u32(f.as_u32())
}
fn bid(b: Block) -> BlockId {
    BlockId::new(b.as_u32())
}
fn bfrom(b: BlockId) -> Block {
    Block::from_u32(b.as_u32())
}
fn vid(v: Value) -> ValueId {
    ValueId::new(v.as_u32())
}
fn vfrom(v: ValueId) -> Value {
    Value::from_u32(v.as_u32())
}
fn tid(t: Ty) -> TypeId {
    TypeId::new(t.as_u32())
}
fn tfrom(t: TypeId) -> Ty {
    Ty::from_u32(t.as_u32())
}
fn gid(g: Global) -> GlobalId {
    GlobalId::new(g.as_u32())
}
fn gfrom(g: GlobalId) -> Global {
    Global::from_u32(g.as_u32())
}
fn op_inst(o: Op) -> InstId {
    InstId::new(o.as_u32())
}
fn phi_inst(v: Value) -> InstId {
    InstId::new(PHI_TAG | v.as_u32())
}

/// The block reported for an erased op (ids of erased entities are a
/// caller bug; this keeps the answer well-defined).
const DETACHED: BlockId = BlockId::new(u32::MAX);

/// What an [`InstId`] names.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum InstRef {
    Op(Op),
    /// The virtual phi of this block argument.
    Phi(Value),
}

fn ifrom(i: InstId) -> InstRef {
    let raw = i.as_u32();
    if raw & PHI_TAG != 0 {
        InstRef::Phi(Value::from_u32(raw & !PHI_TAG))
    } else {
        InstRef::Op(Op::from_u32(raw))
    }
}

/// Where operand `index` (in the traits' order) of an op lives.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum CoreSlot {
    Tile(Slot),
    /// The callee of a `tile.call` (a symbol).
    Callee,
}

fn attr_of(e: &AttrEntry) -> Attr<'_> {
    match e {
        AttrEntry::Flag(k) => Attr::Enum(*k),
        AttrEntry::Int(k, n) => Attr::Int(*k, *n),
        AttrEntry::Type(k, t) => Attr::Type(*k, tid(*t)),
        AttrEntry::Str(k, v) => Attr::Str(k, v),
        AttrEntry::Opaque(t) => Attr::Unknown(t),
    }
}

fn entry_of(a: &Attr<'_>) -> AttrEntry {
    match *a {
        Attr::Enum(k) => AttrEntry::Flag(k),
        Attr::Int(k, n) => AttrEntry::Int(k, n),
        Attr::Type(k, t) => AttrEntry::Type(k, tfrom(t)),
        Attr::Str(k, v) => AttrEntry::Str(k.to_string(), v.to_string()),
        Attr::Unknown(t) => AttrEntry::Opaque(t.to_string()),
    }
}

fn set_entry(list: &mut Vec<AttrEntry>, attr: &Attr<'_>) {
    let key = attr.key();
    let e = entry_of(attr);
    match list.iter().position(|x| key.matches(&attr_of(x))) {
        Some(i) => list[i] = e,
        None => list.push(e),
    }
}

fn remove_entry(list: &mut Vec<AttrEntry>, key: AttrKey<'_>) -> bool {
    let before = list.len();
    list.retain(|x| !key.matches(&attr_of(x)));
    list.len() != before
}

impl Module {
    fn decode(&self, i: InstId) -> InstRef {
        ifrom(i)
    }

    /// The block of a block argument value.
    fn arg_block(&self, v: Value) -> Option<(Block, u32)> {
        match self.values[v].def {
            ValueDef::BlockArg { block, index } => Some((block, index)),
            _ => None,
        }
    }

    /// (terminator, slot) of each incoming edge of the virtual phi of `v`.
    fn phi_slots(&self, v: Value) -> Vec<(Block, Op, Slot)> {
        let Some((b, index)) = self.arg_block(v) else {
            return Vec::new();
        };
        self.edges_into(b)
            .into_iter()
            .map(|(p, t, s)| {
                (
                    p,
                    t,
                    Slot::SuccArg {
                        succ: s,
                        arg: index,
                    },
                )
            })
            .collect()
    }

    /// The operands in the traits' order.
    fn core_operands(&self, i: InstId) -> Vec<Value> {
        match self.decode(i) {
            InstRef::Phi(v) => self
                .phi_slots(v)
                .into_iter()
                .filter_map(|(_, t, s)| self.slot_value(t, s))
                .collect(),
            InstRef::Op(o) => {
                let d = &self.ops[o];
                match &d.kind {
                    OpKind::Store { .. } => vec![d.operands[1], d.operands[0]],
                    OpKind::Call { callee, .. } => {
                        let mut v = d.operands.clone();
                        v.push(self.funcs[*callee].addr);
                        v
                    }
                    OpKind::CallIndirect { .. } => {
                        let mut v = d.operands[1..].to_vec();
                        v.push(d.operands[0]);
                        v
                    }
                    _ => d.operands.clone(),
                }
            }
        }
    }

    /// Where operand `index` (traits' order) of op `o` lives.
    fn core_slot(&self, o: Op, index: usize) -> Option<CoreSlot> {
        let d = &self.ops[o];
        let n = d.operands.len();
        let slot = |k: usize| Some(CoreSlot::Tile(Slot::Operand(k as u32)));
        match d.kind {
            OpKind::Store { .. } => match index {
                0 => slot(1),
                1 => slot(0),
                _ => None,
            },
            OpKind::Call { .. } if index == n => Some(CoreSlot::Callee),
            OpKind::CallIndirect { .. } if index + 1 == n => slot(0),
            OpKind::CallIndirect { .. } if index + 1 < n => slot(index + 1),
            _ if index < n => slot(index),
            _ => None,
        }
    }

    /// Sets operand `index` (traits' order) of `i`; `ptr_only` allows
    /// pointers of another space and nothing else.
    fn set_core_operand(
        &mut self,
        i: InstId,
        index: usize,
        value: Value,
        ptr_only: bool,
    ) -> Result<(), EditError> {
        let (op, slot) = match self.decode(i) {
            InstRef::Phi(v) => {
                let (_, t, s) = *self.phi_slots(v).get(index).ok_or(EditError::OutOfRange)?;
                (t, CoreSlot::Tile(s))
            }
            InstRef::Op(o) => (o, self.core_slot(o, index).ok_or(EditError::OutOfRange)?),
        };
        match slot {
            CoreSlot::Callee => {
                if ptr_only {
                    return Err(EditError::TypeMismatch);
                }
                match self.values[value].def {
                    ValueDef::FuncAddr(g) => {
                        let OpKind::Call { sig, .. } = self.ops[op].kind else {
                            return Err(EditError::NotACall);
                        };
                        self.retarget_call(op, g, sig);
                        Ok(())
                    }
                    _ => Err(EditError::Unsupported(
                        "a tile.call names its callee by symbol; an indirect callee needs tile.call_indirect",
                    )),
                }
            }
            CoreSlot::Tile(s) => {
                let old = self.slot_value(op, s).ok_or(EditError::OutOfRange)?;
                let (ot, nt) = (self.values[old].ty, self.values[value].ty);
                let ok = ot == nt
                    || (ptr_only && self.ptr_space(ot).is_some() && self.ptr_space(nt).is_some());
                if !ok {
                    return Err(EditError::TypeMismatch);
                }
                self.set_slot(op, s, value);
                Ok(())
            }
        }
    }

    /// Position before which to insert for `before`.
    fn insert_point(&self, before: InstId) -> Result<(Block, usize), EditError> {
        match self.decode(before) {
            InstRef::Phi(v) => self
                .arg_block(v)
                .map(|(b, _)| (b, 0))
                .ok_or(EditError::OutOfRange),
            InstRef::Op(o) => {
                let b = self.ops[o].block.ok_or(EditError::OutOfRange)?;
                let pos = self.blocks[b]
                    .ops
                    .iter()
                    .position(|&x| x == o)
                    .ok_or(EditError::OutOfRange)?;
                Ok((b, pos))
            }
        }
    }

    fn value_users(&self, v: Value) -> Vec<User> {
        let mut out = Vec::new();
        if let ValueDef::FuncAddr(f) = self.values[v].def {
            out.extend(
                self.funcs[f]
                    .call_sites
                    .iter()
                    .map(|&o| User::Inst(op_inst(o))),
            );
        }
        for u in &self.values[v].uses {
            match u.slot {
                Slot::Operand(_) => out.push(User::Inst(op_inst(u.op))),
                Slot::SuccArg { succ, arg } => {
                    let target = self.ops[u.op].succs[succ as usize].block;
                    let a = self.blocks[target].args[arg as usize];
                    out.push(User::Inst(phi_inst(a)));
                }
            }
        }
        for (g, d) in self.globals.iter() {
            if !d.dead && d.init == Some(v) {
                out.push(User::Global(gid(g)));
            }
        }
        out
    }

    fn func_attr_list(&self, f: Func, slot: AttrSlot) -> &[AttrEntry] {
        let d = &self.funcs[f];
        match slot {
            AttrSlot::Function => &d.attrs,
            AttrSlot::Return => &d.ret_attrs,
            AttrSlot::Param(n) => d.param_attrs.get(n as usize).map_or(&[], |v| v),
        }
    }

    fn func_attr_list_mut(&mut self, f: Func, slot: AttrSlot) -> Option<&mut Vec<AttrEntry>> {
        let d = &mut self.funcs[f];
        match slot {
            AttrSlot::Function => Some(&mut d.attrs),
            AttrSlot::Return => Some(&mut d.ret_attrs),
            AttrSlot::Param(n) => d.param_attrs.get_mut(n as usize),
        }
    }

    fn is_call_op(&self, i: InstId) -> Option<Op> {
        match self.decode(i) {
            InstRef::Op(o)
                if matches!(
                    self.ops[o].kind,
                    OpKind::Call { .. } | OpKind::CallIndirect { .. }
                ) =>
            {
                Some(o)
            }
            _ => None,
        }
    }

    /// Removes argument `arg` of successor `succ` of terminator `t`,
    /// renumbering the uses of the later arguments.
    fn remove_succ_arg(&mut self, t: Op, succ: u32, arg: u32) {
        let args = self.ops[t].succs[succ as usize].args.clone();
        for (k, &v) in args.iter().enumerate().skip(arg as usize) {
            let old = Slot::SuccArg {
                succ,
                arg: k as u32,
            };
            let uses = &mut self.values[v].uses;
            if let Some(pos) = uses.iter().position(|u| u.op == t && u.slot == old) {
                if k == arg as usize {
                    uses.remove(pos);
                } else {
                    uses[pos].slot = Slot::SuccArg {
                        succ,
                        arg: k as u32 - 1,
                    };
                }
            }
        }
        self.ops[t].succs[succ as usize].args.remove(arg as usize);
    }

    /// Whether every use of the results of ops in `blocks` is inside them.
    fn results_used_only_inside(&self, blocks: &[Block]) -> bool {
        let inside = |o: Op| self.ops[o].block.is_some_and(|b| blocks.contains(&b));
        blocks.iter().all(|&b| {
            let defs = self.blocks[b]
                .ops
                .iter()
                .filter_map(|&o| self.ops[o].result)
                .chain(self.blocks[b].args.iter().copied());
            defs.into_iter()
                .all(|v| self.values[v].uses.iter().all(|u| inside(u.op)))
        })
    }

    /// Deletes the ops of `b` and the block itself (no checks).
    fn delete_block(&mut self, b: Block) {
        for o in self.blocks[b].ops.clone().into_iter().rev() {
            self.remove_op(o);
        }
        self.blocks[b].dead = true;
        let f = self.blocks[b].func;
        if let Some(body) = self.funcs[f].body.as_mut() {
            body.retain(|&x| x != b);
        }
    }
}

impl TypeView for Module {
    fn type_kind(&self, ty: TypeId) -> TypeKind {
        match &self.types[tfrom(ty)] {
            TypeData::Void => TypeKind::Void,
            TypeData::Int(n) => TypeKind::Int(*n),
            TypeData::F16 => TypeKind::Half,
            TypeData::F32 => TypeKind::Float,
            TypeData::F64 => TypeKind::Double,
            TypeData::Ptr(s) => TypeKind::Ptr(s.number()),
            TypeData::Struct { .. } => TypeKind::Struct {
                packed: false,
                opaque: false,
            },
            TypeData::Array { elem, len } => TypeKind::Array {
                len: *len,
                elem: tid(*elem),
            },
            TypeData::Func { vararg, .. } => TypeKind::Func { vararg: *vararg },
            TypeData::Image | TypeData::Sampler => TypeKind::TargetExt,
        }
    }

    fn struct_fields(&self, ty: TypeId) -> impl Iterator<Item = TypeId> + '_ {
        let fields: &[Ty] = match &self.types[tfrom(ty)] {
            TypeData::Struct { fields, .. } => fields,
            _ => &[],
        };
        fields.iter().map(|&t| tid(t))
    }

    fn struct_name(&self, ty: TypeId) -> Option<&str> {
        match &self.types[tfrom(ty)] {
            TypeData::Struct { name, .. } => name.as_deref(),
            _ => None,
        }
    }

    fn func_type_ret(&self, ty: TypeId) -> Option<TypeId> {
        self.sig_parts(tfrom(ty)).map(|(r, _)| tid(r))
    }

    fn func_type_params(&self, ty: TypeId) -> impl Iterator<Item = TypeId> + '_ {
        self.sig_parts(tfrom(ty))
            .map_or(&[][..], |(_, p)| p)
            .iter()
            .map(|&t| tid(t))
    }

    fn target_ext_name(&self, ty: TypeId) -> Option<&str> {
        match self.types[tfrom(ty)] {
            TypeData::Image => Some("nvvm.image"),
            TypeData::Sampler => Some("nvvm.sampler"),
            _ => None,
        }
    }
}

fn linkage_of(v: Visibility) -> Linkage {
    match v {
        Visibility::Public => Linkage::External,
        Visibility::Private => Linkage::Internal,
        Visibility::Odr => Linkage::LinkOnceOdr,
        Visibility::WeakOdr => Linkage::WeakOdr,
    }
}

/// The tile visibility for a linkage; `None` when the tile IR has no
/// equivalent (interposable and special linkages).
fn visibility_of(l: Linkage) -> Option<Visibility> {
    match l {
        Linkage::External => Some(Visibility::Public),
        Linkage::Internal | Linkage::Private => Some(Visibility::Private),
        Linkage::LinkOnceOdr => Some(Visibility::Odr),
        Linkage::WeakOdr => Some(Visibility::WeakOdr),
        _ => None,
    }
}

fn opcode_of(k: &OpKind) -> Opcode {
    match k {
        OpKind::Binary(b) => match b {
            BinOp::Add => Opcode::Add,
            BinOp::Sub => Opcode::Sub,
            BinOp::Mul => Opcode::Mul,
            BinOp::And => Opcode::And,
            BinOp::Or => Opcode::Or,
            BinOp::Xor => Opcode::Xor,
            BinOp::Shl => Opcode::Shl,
            BinOp::LShr => Opcode::LShr,
            BinOp::FAdd => Opcode::FAdd,
            BinOp::FMul => Opcode::FMul,
        },
        OpKind::Cmp(_) => Opcode::ICmp,
        OpKind::Ext { signed: true } => Opcode::SExt,
        OpKind::Ext { signed: false } => Opcode::ZExt,
        OpKind::Trunc => Opcode::Trunc,
        OpKind::Select => Opcode::Select,
        OpKind::Alloca { .. } => Opcode::Alloca,
        OpKind::Load { .. } => Opcode::Load,
        OpKind::Store { .. } => Opcode::Store,
        OpKind::AtomicAdd => Opcode::AtomicRmw,
        OpKind::PtrAdd => Opcode::GetElementPtr,
        OpKind::CastSpace => Opcode::AddrSpaceCast,
        OpKind::PtrToInt => Opcode::PtrToInt,
        OpKind::IntToPtr => Opcode::IntToPtr,
        OpKind::Br | OpKind::CondBr => Opcode::Br,
        OpKind::Ret => Opcode::Ret,
        OpKind::Unreachable => Opcode::Unreachable,
        OpKind::Call { .. } | OpKind::CallIndirect { .. } => Opcode::Call,
        OpKind::Custom(_) => Opcode::Other,
    }
}

impl IrView for Module {
    fn data_layout(&self) -> &DataLayout {
        &self.layout
    }

    fn target_triple(&self) -> Option<&str> {
        Some("nvptx64-nvidia-cuda")
    }

    fn funcs(&self) -> impl Iterator<Item = FuncId> + '_ {
        self.live_funcs().map(fid)
    }

    fn func_name(&self, f: FuncId) -> &str {
        &self.funcs[ffrom(f)].name
    }

    fn func_by_name(&self, name: &str) -> Option<FuncId> {
        self.func_named(name).map(fid)
    }

    fn func_linkage(&self, f: FuncId) -> Linkage {
        linkage_of(self.funcs[ffrom(f)].visibility)
    }

    fn func_is_declaration(&self, f: FuncId) -> bool {
        self.funcs[ffrom(f)].body.is_none()
    }

    fn func_call_conv(&self, f: FuncId) -> CallConv {
        match self.funcs[ffrom(f)].kind {
            FuncKind::Kernel => CallConv::PtxKernel,
            FuncKind::Device => CallConv::C,
        }
    }

    fn func_type(&self, f: FuncId) -> TypeId {
        tid(self.funcs[ffrom(f)].sig)
    }

    fn func_value(&self, f: FuncId) -> ValueId {
        vid(self.funcs[ffrom(f)].addr)
    }

    fn params(&self, f: FuncId) -> impl Iterator<Item = ValueId> + '_ {
        self.funcs[ffrom(f)].params.iter().map(|&v| vid(v))
    }

    fn attrs(&self, f: FuncId, slot: AttrSlot) -> impl Iterator<Item = Attr<'_>> + '_ {
        let f = ffrom(f);
        let policy = match (slot, self.funcs[f].inline) {
            (AttrSlot::Function, InlinePolicy::Always) => Some(Attr::Enum(AttrKind::AlwaysInline)),
            (AttrSlot::Function, InlinePolicy::Never) => Some(Attr::Enum(AttrKind::NoInline)),
            _ => None,
        };
        policy
            .into_iter()
            .chain(self.func_attr_list(f, slot).iter().map(attr_of))
    }

    fn blocks(&self, f: FuncId) -> impl Iterator<Item = BlockId> + '_ {
        self.func_blocks(ffrom(f)).iter().map(|&b| bid(b))
    }

    fn block_func(&self, b: BlockId) -> FuncId {
        fid(self.blocks[bfrom(b)].func)
    }

    fn block_name(&self, b: BlockId) -> Option<&str> {
        self.blocks[bfrom(b)].name.as_deref()
    }

    fn insts(&self, b: BlockId) -> impl Iterator<Item = InstId> + '_ {
        let b = bfrom(b);
        let d = &self.blocks[b];
        let entry = self.func_blocks(d.func).first() == Some(&b);
        let phis: &[Value] = if entry { &[] } else { &d.args };
        phis.iter()
            .map(|&v| phi_inst(v))
            .chain(d.ops.iter().map(|&o| op_inst(o)))
    }

    fn successors(&self, b: BlockId) -> impl Iterator<Item = BlockId> + '_ {
        let succs: &[Successor] = match self.blocks[bfrom(b)].ops.last() {
            Some(&t) => &self.ops[t].succs,
            None => &[],
        };
        succs.iter().map(|s| bid(s.block))
    }

    fn predecessors(&self, b: BlockId) -> impl Iterator<Item = BlockId> + '_ {
        self.edges_into(bfrom(b))
            .into_iter()
            .map(|(p, _, _)| bid(p))
    }

    fn inst_block(&self, i: InstId) -> BlockId {
        match self.decode(i) {
            InstRef::Phi(v) => self.arg_block(v).map_or(DETACHED, |(b, _)| bid(b)),
            InstRef::Op(o) => self.ops[o].block.map_or(DETACHED, bid),
        }
    }

    fn opcode(&self, i: InstId) -> Opcode {
        match self.decode(i) {
            InstRef::Phi(_) => Opcode::Phi,
            InstRef::Op(o) => opcode_of(&self.ops[o].kind),
        }
    }

    fn inst_result(&self, i: InstId) -> Option<ValueId> {
        match self.decode(i) {
            InstRef::Phi(v) => Some(vid(v)),
            InstRef::Op(o) => self.ops[o].result.map(vid),
        }
    }

    fn operands(&self, i: InstId) -> impl Iterator<Item = ValueId> + '_ {
        self.core_operands(i).into_iter().map(vid)
    }

    fn callee(&self, i: InstId) -> Option<Callee> {
        let o = self.is_call_op(i)?;
        match self.ops[o].kind {
            OpKind::Call { callee, .. } => Some(Callee::Direct(fid(callee))),
            _ => Some(Callee::Indirect(vid(self.ops[o].operands[0]))),
        }
    }

    fn call_func_type(&self, i: InstId) -> Option<TypeId> {
        let o = self.is_call_op(i)?;
        match self.ops[o].kind {
            OpKind::Call { sig, .. } | OpKind::CallIndirect { sig } => Some(tid(sig)),
            _ => None,
        }
    }

    fn call_args(&self, i: InstId) -> impl Iterator<Item = ValueId> + '_ {
        let args: &[Value] = match self.is_call_op(i) {
            Some(o) => match self.ops[o].kind {
                OpKind::Call { .. } => &self.ops[o].operands,
                _ => &self.ops[o].operands[1..],
            },
            None => &[],
        };
        args.iter().map(|&v| vid(v))
    }

    fn call_attrs(&self, i: InstId, slot: AttrSlot) -> impl Iterator<Item = Attr<'_>> + '_ {
        let attrs: &[(AttrSlot, AttrEntry)] = match self.is_call_op(i) {
            Some(o) => &self.ops[o].attrs,
            None => &[],
        };
        attrs
            .iter()
            .filter(move |(s, _)| *s == slot)
            .map(|(_, e)| attr_of(e))
    }

    fn call_conv(&self, i: InstId) -> Option<CallConv> {
        let o = self.is_call_op(i)?;
        Some(match self.ops[o].kind {
            OpKind::Call { callee, .. } => self.func_call_conv(fid(callee)),
            _ => CallConv::C,
        })
    }

    fn phi_incoming(&self, i: InstId) -> impl Iterator<Item = (ValueId, BlockId)> + '_ {
        let pairs: Vec<(ValueId, BlockId)> = match self.decode(i) {
            InstRef::Phi(v) => self
                .phi_slots(v)
                .into_iter()
                .filter_map(|(p, t, s)| self.slot_value(t, s).map(|x| (vid(x), bid(p))))
                .collect(),
            InstRef::Op(_) => Vec::new(),
        };
        pairs.into_iter()
    }

    fn alloca_type(&self, i: InstId) -> Option<TypeId> {
        match self.decode(i) {
            InstRef::Op(o) => match self.ops[o].kind {
                OpKind::Alloca { ty } => Some(tid(ty)),
                _ => None,
            },
            InstRef::Phi(_) => None,
        }
    }

    fn mem_ptr(&self, i: InstId) -> Option<ValueId> {
        match self.decode(i) {
            InstRef::Op(o) => match self.ops[o].kind {
                OpKind::Load { .. } | OpKind::Store { .. } | OpKind::AtomicAdd => {
                    Some(vid(self.ops[o].operands[0]))
                }
                _ => None,
            },
            InstRef::Phi(_) => None,
        }
    }

    fn is_volatile(&self, i: InstId) -> bool {
        match self.decode(i) {
            InstRef::Op(o) => matches!(
                self.ops[o].kind,
                OpKind::Load { volatile: true } | OpKind::Store { volatile: true }
            ),
            InstRef::Phi(_) => false,
        }
    }

    fn gep_source_type(&self, i: InstId) -> Option<TypeId> {
        match self.decode(i) {
            InstRef::Op(o) if self.ops[o].kind == OpKind::PtrAdd => Some(tid(self.i8_ty)),
            _ => None,
        }
    }

    fn inst_md(&self, i: InstId, kind: &str) -> Option<MdId> {
        match self.decode(i) {
            InstRef::Op(o) if kind == "dbg" => self.ops[o].loc.map(|l| MdId::new(l.as_u32())),
            _ => None,
        }
    }

    fn debug_loc(&self, i: InstId) -> Option<DebugLoc> {
        let l = Loc::from_u32(self.inst_md(i, "dbg")?.as_u32());
        let d = &self.locs[l];
        Some(DebugLoc {
            file: d.file.clone(),
            line: d.line,
            col: d.col,
        })
    }

    fn value_kind(&self, v: ValueId) -> ValueKind {
        let v = vfrom(v);
        match self.values[v].def {
            ValueDef::Param { func, index } => ValueKind::Argument {
                func: fid(func),
                index,
            },
            ValueDef::BlockArg { .. } => ValueKind::Inst(phi_inst(v)),
            ValueDef::Result(o) => ValueKind::Inst(op_inst(o)),
            ValueDef::Const(c) => ValueKind::Constant(match c {
                Const::Int(_) => ConstKind::Int,
                Const::Float(_) => ConstKind::Float,
                Const::Null => ConstKind::Null,
                Const::Undef => ConstKind::Undef,
                Const::Zero => ConstKind::ZeroInit,
            }),
            ValueDef::GlobalAddr(g) => ValueKind::Global(gid(g)),
            ValueDef::FuncAddr(f) => ValueKind::Function(fid(f)),
            ValueDef::Placeholder => ValueKind::Metadata,
        }
    }

    fn value_type(&self, v: ValueId) -> TypeId {
        tid(self.values[vfrom(v)].ty)
    }

    fn value_name(&self, v: ValueId) -> Option<&str> {
        let d = &self.values[vfrom(v)];
        match d.def {
            ValueDef::GlobalAddr(g) => Some(&self.globals[g].name),
            ValueDef::FuncAddr(f) => Some(&self.funcs[f].name),
            _ => d.name.as_deref(),
        }
    }

    fn users(&self, v: ValueId) -> impl Iterator<Item = User> + '_ {
        self.value_users(vfrom(v)).into_iter()
    }

    fn const_int(&self, v: ValueId) -> Option<i128> {
        match self.values[vfrom(v)].def {
            ValueDef::Const(Const::Int(n)) => Some(n),
            _ => None,
        }
    }

    fn const_float_bits(&self, v: ValueId) -> Option<u128> {
        match self.values[vfrom(v)].def {
            ValueDef::Const(Const::Float(b)) => Some(b),
            _ => None,
        }
    }

    fn globals(&self) -> impl Iterator<Item = GlobalId> + '_ {
        self.globals
            .iter()
            .filter(|(_, d)| !d.dead)
            .map(|(g, _)| gid(g))
    }

    fn global_name(&self, g: GlobalId) -> &str {
        &self.globals[gfrom(g)].name
    }

    fn global_value_type(&self, g: GlobalId) -> TypeId {
        tid(self.globals[gfrom(g)].ty)
    }

    fn global_addr_space(&self, g: GlobalId) -> u32 {
        self.globals[gfrom(g)].space.number()
    }

    fn global_is_constant(&self, g: GlobalId) -> bool {
        self.globals[gfrom(g)].constant
    }

    fn global_initializer(&self, g: GlobalId) -> Option<ValueId> {
        self.globals[gfrom(g)].init.map(vid)
    }

    fn global_linkage(&self, g: GlobalId) -> Linkage {
        linkage_of(self.globals[gfrom(g)].visibility)
    }

    fn global_value(&self, g: GlobalId) -> ValueId {
        vid(self.globals[gfrom(g)].addr)
    }

    fn named_md_names(&self) -> impl Iterator<Item = &str> + '_ {
        self.named_lists.iter().map(|(n, _)| n.as_str())
    }

    fn named_md(&self, name: &str) -> impl Iterator<Item = MdId> + '_ {
        let ids: &[u32] = self
            .named_lists
            .iter()
            .find(|(n, _)| n == name)
            .map_or(&[], |(_, l)| l);
        ids.iter().map(|&i| MdId::new(i))
    }

    fn md_operands(&self, _md: MdId) -> impl Iterator<Item = MdOperand<'_>> + '_ {
        // A location's fields are not modelled as operands.
        core::iter::empty()
    }

    fn md_is_distinct(&self, _md: MdId) -> bool {
        false
    }

    fn md_specialized_name(&self, _md: MdId) -> Option<&str> {
        Some("DILocation")
    }
}

impl IrEdit for Module {
    fn add_attr(&mut self, f: FuncId, slot: AttrSlot, attr: Attr<'_>) {
        let f = ffrom(f);
        match (slot, attr) {
            (AttrSlot::Function, Attr::Enum(AttrKind::AlwaysInline)) => {
                self.funcs[f].inline = InlinePolicy::Always;
            }
            (AttrSlot::Function, Attr::Enum(AttrKind::NoInline)) => {
                self.funcs[f].inline = InlinePolicy::Never;
            }
            _ => {
                if let Some(list) = self.func_attr_list_mut(f, slot) {
                    set_entry(list, &attr);
                }
            }
        }
    }

    fn remove_attr(&mut self, f: FuncId, slot: AttrSlot, key: AttrKey<'_>) -> bool {
        let f = ffrom(f);
        let policy = match key {
            AttrKey::Kind(AttrKind::AlwaysInline) => Some(InlinePolicy::Always),
            AttrKey::Kind(AttrKind::NoInline) => Some(InlinePolicy::Never),
            _ => None,
        };
        if let (AttrSlot::Function, Some(p)) = (slot, policy) {
            let had = self.funcs[f].inline == p;
            if had {
                self.funcs[f].inline = InlinePolicy::Default;
            }
            return had;
        }
        self.func_attr_list_mut(f, slot)
            .is_some_and(|l| remove_entry(l, key))
    }

    fn add_call_attr(
        &mut self,
        call: InstId,
        slot: AttrSlot,
        attr: Attr<'_>,
    ) -> Result<(), EditError> {
        let o = self.is_call_op(call).ok_or(EditError::NotACall)?;
        let key = attr.key();
        let attrs = &mut self.ops[o].attrs;
        attrs.retain(|(s, e)| !(*s == slot && key.matches(&attr_of(e))));
        attrs.push((slot, entry_of(&attr)));
        Ok(())
    }

    fn remove_call_attr(&mut self, call: InstId, slot: AttrSlot, key: AttrKey<'_>) -> bool {
        let Some(o) = self.is_call_op(call) else {
            return false;
        };
        let attrs = &mut self.ops[o].attrs;
        let before = attrs.len();
        attrs.retain(|(s, e)| !(*s == slot && key.matches(&attr_of(e))));
        attrs.len() != before
    }

    fn set_call_conv(&mut self, f: FuncId, cc: CallConv) {
        self.funcs[ffrom(f)].kind = match cc {
            CallConv::PtxKernel => FuncKind::Kernel,
            _ => FuncKind::Device,
        };
    }

    fn set_linkage(&mut self, f: FuncId, linkage: Linkage) {
        // Linkages without a tile equivalent (interposable ones) leave the
        // visibility unchanged: the trait method cannot refuse.
        if let Some(v) = visibility_of(linkage) {
            self.funcs[ffrom(f)].visibility = v;
        }
    }

    fn set_global_linkage(&mut self, g: GlobalId, linkage: Linkage) {
        if let Some(v) = visibility_of(linkage) {
            self.globals[gfrom(g)].visibility = v;
        }
    }

    fn replace_all_uses(&mut self, old: ValueId, new: ValueId) -> Result<(), EditError> {
        let (old, new) = (vfrom(old), vfrom(new));
        if self.values[old].ty != self.values[new].ty {
            return Err(EditError::TypeMismatch);
        }
        self.replace_uses(old, new);
        Ok(())
    }

    fn set_operand(&mut self, inst: InstId, index: usize, value: ValueId) -> Result<(), EditError> {
        self.set_core_operand(inst, index, vfrom(value), false)
    }

    fn erase_inst(&mut self, inst: InstId) -> Result<(), EditError> {
        match self.decode(inst) {
            InstRef::Op(o) => {
                if let Some(r) = self.ops[o].result {
                    if !self.value_users(r).is_empty() {
                        return Err(EditError::HasUses);
                    }
                }
                self.remove_op(o);
                Ok(())
            }
            InstRef::Phi(v) => {
                if !self.value_users(v).is_empty() {
                    return Err(EditError::HasUses);
                }
                let (b, index) = self.arg_block(v).ok_or(EditError::OutOfRange)?;
                for (_, t, s) in self.edges_into(b) {
                    self.remove_succ_arg(t, s, index);
                }
                self.blocks[b].args.remove(index as usize);
                for (k, &a) in self.blocks[b].args.clone().iter().enumerate() {
                    self.values[a].def = ValueDef::BlockArg {
                        block: b,
                        index: k as u32,
                    };
                }
                Ok(())
            }
        }
    }

    fn build_call(
        &mut self,
        before: InstId,
        fn_ty: TypeId,
        callee: ValueId,
        args: &[ValueId],
    ) -> Result<InstId, EditError> {
        let sig = tfrom(fn_ty);
        let (ret, params) = self.sig_parts(sig).ok_or(EditError::TypeMismatch)?;
        let params = params.to_vec();
        let args: Vec<Value> = args.iter().map(|&a| vfrom(a)).collect();
        if params.len() != args.len()
            || params
                .iter()
                .zip(&args)
                .any(|(&p, &a)| self.values[a].ty != p)
        {
            return Err(EditError::TypeMismatch);
        }
        let (b, pos) = self.insert_point(before)?;
        let callee = vfrom(callee);
        let (kind, operands) = match self.values[callee].def {
            ValueDef::FuncAddr(f) => (OpKind::Call { callee: f, sig }, args),
            _ => {
                let mut ops = vec![callee];
                ops.extend(args);
                (OpKind::CallIndirect { sig }, ops)
            }
        };
        let o = self.insert_op(b, pos, kind, operands, Some(ret), Vec::new());
        Ok(op_inst(o))
    }

    fn build_cast(
        &mut self,
        before: InstId,
        op: Opcode,
        value: ValueId,
        dest_ty: TypeId,
    ) -> Result<ValueId, EditError> {
        let (v, dst) = (vfrom(value), tfrom(dest_ty));
        let src = self.values[v].ty;
        let int_bits = |t: Ty| match self.types[t] {
            TypeData::Int(n) => Some(n),
            _ => None,
        };
        let kind = match op {
            Opcode::AddrSpaceCast => {
                let (a, b) = (self.ptr_space(src), self.ptr_space(dst));
                (a.is_some() && b.is_some() && a != b).then_some(OpKind::CastSpace)
            }
            Opcode::ZExt | Opcode::SExt => match (int_bits(src), int_bits(dst)) {
                (Some(a), Some(b)) if a < b => Some(OpKind::Ext {
                    signed: op == Opcode::SExt,
                }),
                _ => None,
            },
            Opcode::Trunc => match (int_bits(src), int_bits(dst)) {
                (Some(a), Some(b)) if a > b => Some(OpKind::Trunc),
                _ => None,
            },
            Opcode::PtrToInt => (self.ptr_space(src).is_some() && int_bits(dst).is_some())
                .then_some(OpKind::PtrToInt),
            Opcode::IntToPtr => (int_bits(src).is_some() && self.ptr_space(dst).is_some())
                .then_some(OpKind::IntToPtr),
            Opcode::BitCast => {
                return Err(EditError::Unsupported(
                    "bitcast: tile pointers are opaque and the tile IR has no bitcast",
                ))
            }
            _ => None,
        };
        let kind = kind.ok_or(EditError::TypeMismatch)?;
        let (b, pos) = self.insert_point(before)?;
        let o = self.insert_op(b, pos, kind, vec![v], Some(dst), Vec::new());
        Ok(vid(self.ops[o].result.expect("casts have results")))
    }

    fn set_callee(
        &mut self,
        call: InstId,
        callee: ValueId,
        fn_ty: TypeId,
    ) -> Result<(), EditError> {
        let o = self.is_call_op(call).ok_or(EditError::NotACall)?;
        let sig = tfrom(fn_ty);
        let (_, params) = self.sig_parts(sig).ok_or(EditError::TypeMismatch)?;
        let OpKind::Call { .. } = self.ops[o].kind else {
            return Err(EditError::Unsupported(
                "retargeting tile.call_indirect to a symbol",
            ));
        };
        let args = &self.ops[o].operands;
        if params.len() != args.len()
            || params
                .iter()
                .zip(args)
                .any(|(&p, &a)| self.values[a].ty != p)
        {
            return Err(EditError::TypeMismatch);
        }
        match self.values[vfrom(callee)].def {
            ValueDef::FuncAddr(f) => {
                self.retarget_call(o, f, sig);
                Ok(())
            }
            _ => Err(EditError::Unsupported(
                "a tile.call names its callee by symbol; an indirect callee needs tile.call_indirect",
            )),
        }
    }

    fn set_inst_md(&mut self, inst: InstId, kind: &str, md: Option<MdId>) {
        // Only `!dbg` has a tile equivalent (the op's location); other kinds
        // have no meaning in the tile IR.
        if let (InstRef::Op(o), "dbg") = (self.decode(inst), kind) {
            self.ops[o].loc = md
                .map(|m| Loc::from_u32(m.as_u32()))
                .filter(|l| self.locs.is_valid(*l));
        }
    }

    fn clone_function(
        &mut self,
        f: FuncId,
        new_name: &str,
    ) -> Result<(FuncId, ValueMap), EditError> {
        let src = ffrom(f);
        if self.symbol_taken(new_name) {
            return Err(EditError::NameTaken);
        }
        let sd = self.funcs[src].clone();
        let nf = self.add_func_after(new_name, sd.sig, sd.kind, sd.visibility, Some(src));
        {
            let d = &mut self.funcs[nf];
            d.inline = sd.inline;
            d.attrs = sd.attrs.clone();
            d.param_attrs = sd.param_attrs.clone();
            d.ret_attrs = sd.ret_attrs.clone();
        }
        let mut vmap: hashbrown::HashMap<Value, Value> = hashbrown::HashMap::new();
        for (k, &p) in sd.params.iter().enumerate() {
            let np = self.funcs[nf].params[k];
            // Parameter types may differ from the signature after
            // set_param_type: copy the value's own type.
            self.values[np].ty = self.values[p].ty;
            self.values[np].name = self.values[p].name.clone();
            vmap.insert(p, np);
        }
        if let Some(blocks) = sd.body.clone() {
            let entry = self.define(nf);
            let mut bmap: hashbrown::HashMap<Block, Block> = hashbrown::HashMap::new();
            for (k, &b) in blocks.iter().enumerate() {
                let nb = if k == 0 {
                    entry
                } else {
                    let name = self.blocks[b].name.clone().unwrap_or_default();
                    let tys: Vec<Ty> = self.blocks[b]
                        .args
                        .iter()
                        .map(|&a| self.values[a].ty)
                        .collect();
                    let nb = self.add_block(nf, &name, &tys);
                    for (&a, &na) in self.blocks[b]
                        .args
                        .clone()
                        .iter()
                        .zip(&self.blocks[nb].args.clone())
                    {
                        self.values[na].name = self.values[a].name.clone();
                        vmap.insert(a, na);
                    }
                    nb
                };
                bmap.insert(b, nb);
            }
            let mut new_ops = Vec::new();
            for &b in &blocks {
                let nb = bmap[&b];
                for o in self.blocks[b].ops.clone() {
                    let d = self.ops[o].clone();
                    let succs = d
                        .succs
                        .iter()
                        .map(|s| Successor {
                            block: bmap[&s.block],
                            args: s.args.clone(),
                        })
                        .collect();
                    let rty = d.result.map(|r| self.values[r].ty);
                    let pos = self.blocks[nb].ops.len();
                    let no =
                        self.insert_op(nb, pos, d.kind.clone(), d.operands.clone(), rty, succs);
                    self.ops[no].attrs = d.attrs.clone();
                    self.ops[no].loc = d.loc;
                    if let (Some(r), Some(nr)) = (d.result, self.ops[no].result) {
                        self.values[nr].name = self.values[r].name.clone();
                        vmap.insert(r, nr);
                    }
                    new_ops.push(no);
                }
            }
            for no in new_ops {
                let d = self.ops[no].clone();
                for (k, v) in d.operands.iter().enumerate() {
                    if let Some(&nv) = vmap.get(v) {
                        self.set_slot(no, Slot::Operand(k as u32), nv);
                    }
                }
                for (s, succ) in d.succs.iter().enumerate() {
                    for (a, v) in succ.args.iter().enumerate() {
                        if let Some(&nv) = vmap.get(v) {
                            let slot = Slot::SuccArg {
                                succ: s as u32,
                                arg: a as u32,
                            };
                            self.set_slot(no, slot, nv);
                        }
                    }
                }
            }
        }
        let map = vmap.into_iter().map(|(a, b)| (vid(a), vid(b))).collect();
        Ok((fid(nf), map))
    }

    fn set_param_type(&mut self, f: FuncId, index: usize, ty: TypeId) -> Result<(), EditError> {
        let f = ffrom(f);
        let p = *self.funcs[f]
            .params
            .get(index)
            .ok_or(EditError::OutOfRange)?;
        self.values[p].ty = tfrom(ty);
        let (ret, mut params) = self
            .sig_parts(self.funcs[f].sig)
            .map(|(r, p)| (r, p.to_vec()))
            .ok_or(EditError::TypeMismatch)?;
        params[index] = tfrom(ty);
        self.funcs[f].sig = self.func_ty(ret, &params);
        Ok(())
    }

    fn set_ret_type(&mut self, f: FuncId, ty: TypeId) -> Result<(), EditError> {
        let f = ffrom(f);
        let params = self
            .sig_parts(self.funcs[f].sig)
            .map(|(_, p)| p.to_vec())
            .ok_or(EditError::TypeMismatch)?;
        self.funcs[f].sig = self.func_ty(tfrom(ty), &params);
        Ok(())
    }

    fn inline_call(&mut self, call: InstId) -> Result<(), EditError> {
        match self.decode(call) {
            InstRef::Op(o) => match self.ops[o].kind {
                OpKind::Call { .. } => self.inline_op(o).map(|_| ()),
                OpKind::CallIndirect { .. } => Err(EditError::NotInlinable("indirect call")),
                _ => Err(EditError::NotACall),
            },
            InstRef::Phi(_) => Err(EditError::NotACall),
        }
    }

    fn remove_param(&mut self, f: FuncId, index: usize) -> Result<(), EditError> {
        let f = ffrom(f);
        let p = *self.funcs[f]
            .params
            .get(index)
            .ok_or(EditError::OutOfRange)?;
        if !self.value_users(p).is_empty() || !self.funcs[f].call_sites.is_empty() {
            return Err(EditError::HasUses);
        }
        let d = &mut self.funcs[f];
        d.params.remove(index);
        if index < d.param_attrs.len() {
            d.param_attrs.remove(index);
        }
        let params = d.params.clone();
        if let Some(&entry) = d.body.as_ref().and_then(|b| b.first()) {
            self.blocks[entry].args = params.clone();
        }
        for (k, &v) in params.iter().enumerate() {
            self.values[v].def = ValueDef::Param {
                func: f,
                index: k as u32,
            };
        }
        let (ret, mut tys) = self
            .sig_parts(self.funcs[f].sig)
            .map(|(r, p)| (r, p.to_vec()))
            .ok_or(EditError::TypeMismatch)?;
        tys.remove(index);
        self.funcs[f].sig = self.func_ty(ret, &tys);
        Ok(())
    }

    fn erase_function(&mut self, f: FuncId) -> Result<(), EditError> {
        let f = ffrom(f);
        if !self.value_users(self.funcs[f].addr).is_empty() {
            return Err(EditError::HasUses);
        }
        for b in self.func_blocks(f).to_vec() {
            self.delete_block(b);
        }
        self.funcs[f].body = None;
        self.unlink_func(f);
        Ok(())
    }

    fn declare_function(&mut self, name: &str, fn_ty: TypeId) -> Result<FuncId, EditError> {
        if self.symbol_taken(name) {
            return Err(EditError::NameTaken);
        }
        if self.sig_parts(tfrom(fn_ty)).is_none() {
            return Err(EditError::TypeMismatch);
        }
        Ok(fid(self.add_func(
            name,
            tfrom(fn_ty),
            FuncKind::Device,
            Visibility::Public,
        )))
    }

    fn erase_block(&mut self, b: BlockId) -> Result<(), EditError> {
        let b = bfrom(b);
        let f = self.blocks[b].func;
        if self.func_blocks(f).first() == Some(&b)
            || !self.edges_into(b).is_empty()
            || !self.results_used_only_inside(&[b])
        {
            return Err(EditError::HasUses);
        }
        self.delete_block(b);
        Ok(())
    }

    fn erase_global(&mut self, g: GlobalId) -> Result<(), EditError> {
        let g = gfrom(g);
        if !self.value_users(self.globals[g].addr).is_empty() {
            return Err(EditError::HasUses);
        }
        self.globals[g].dead = true;
        Ok(())
    }

    fn set_global_initializer(
        &mut self,
        g: GlobalId,
        init: Option<ValueId>,
    ) -> Result<(), EditError> {
        let g = gfrom(g);
        if let Some(v) = init {
            if self.values[vfrom(v)].ty != self.globals[g].ty {
                return Err(EditError::TypeMismatch);
            }
        }
        self.globals[g].init = init.map(vfrom);
        Ok(())
    }

    fn ptr_type(&mut self, addr_space: u32) -> TypeId {
        tid(self.ptr_ty(MemSpace::from_number(addr_space)))
    }

    fn int_type(&mut self, bits: u32) -> TypeId {
        tid(self.int_ty(bits))
    }

    fn void_type(&mut self) -> TypeId {
        tid(self.void_ty)
    }

    fn func_type_of(&mut self, ret: TypeId, params: &[TypeId], vararg: bool) -> TypeId {
        tid(self.ty(TypeData::Func {
            ret: tfrom(ret),
            params: params.iter().map(|&t| tfrom(t)).collect(),
            vararg,
        }))
    }

    fn const_int_of(&mut self, ty: TypeId, value: i128) -> ValueId {
        let t = tfrom(ty);
        let n = match self.types[t] {
            TypeData::Int(bits) => crate::ir::sign_extend(value, bits),
            _ => value,
        };
        vid(self.constant(Const::Int(n), t))
    }

    fn const_null(&mut self, ty: TypeId) -> ValueId {
        vid(self.constant(Const::Null, tfrom(ty)))
    }

    fn const_float_of(&mut self, ty: TypeId, bits: u128) -> Result<ValueId, EditError> {
        let t = tfrom(ty);
        match self.types[t] {
            TypeData::F16 | TypeData::F32 | TypeData::F64 => {
                Ok(vid(self.constant(Const::Float(bits), t)))
            }
            _ => Err(EditError::TypeMismatch),
        }
    }

    fn const_aggregate(&mut self, _ty: TypeId, _elems: &[ValueId]) -> Result<ValueId, EditError> {
        Err(EditError::Unsupported("aggregate constants"))
    }

    fn create_md_node(
        &mut self,
        _ops: &[MdOperand<'_>],
        _distinct: bool,
    ) -> Result<MdId, EditError> {
        Err(EditError::Unsupported("metadata nodes"))
    }

    fn create_self_ref_md_node(&mut self, _ops: &[MdOperand<'_>]) -> Result<MdId, EditError> {
        Err(EditError::Unsupported("metadata nodes"))
    }

    fn md_value(&mut self, _md: MdId) -> ValueId {
        // The trait cannot refuse; the placeholder has no uses and no meaning.
        let t = self.void_ty;
        vid(self.new_value(ValueDef::Placeholder, t))
    }

    fn set_named_md(&mut self, name: &str, ops: &[MdId]) {
        let ids: Vec<u32> = ops.iter().map(|m| m.as_u32()).collect();
        self.named_lists.retain(|(n, _)| n != name);
        if !ids.is_empty() {
            self.named_lists.push((name.to_string(), ids));
        }
    }

    // ---- address-space retagging ---------------------------------------------

    fn set_result_ptr_type(&mut self, inst: InstId, ty: TypeId) -> Result<(), EditError> {
        let v = match self.decode(inst) {
            InstRef::Phi(v) => v,
            InstRef::Op(o) => self.ops[o].result.ok_or(EditError::TypeMismatch)?,
        };
        let new = tfrom(ty);
        if self.ptr_space(self.values[v].ty).is_none() || self.ptr_space(new).is_none() {
            return Err(EditError::TypeMismatch);
        }
        self.values[v].ty = new;
        Ok(())
    }

    fn set_pointer_operand(
        &mut self,
        inst: InstId,
        index: usize,
        value: ValueId,
    ) -> Result<(), EditError> {
        self.set_core_operand(inst, index, vfrom(value), true)
    }

    // ---- inlining with results ------------------------------------------------

    fn inline_call_with_info(&mut self, call: InstId) -> Result<InlineInfo, EditError> {
        match self.decode(call) {
            InstRef::Op(o) => match self.ops[o].kind {
                OpKind::Call { .. } => self.inline_op(o).map(|r| InlineInfo {
                    static_allocas: r.allocas.into_iter().map(op_inst).collect(),
                    inlined_calls: r.calls.into_iter().map(op_inst).collect(),
                    added_insts: None,
                }),
                OpKind::CallIndirect { .. } => Err(EditError::NotInlinable("indirect call")),
                _ => Err(EditError::NotACall),
            },
            InstRef::Phi(_) => Err(EditError::NotACall),
        }
    }

    // ---- pretreat primitives ------------------------------------------------

    fn set_cast_opcode(&mut self, inst: InstId, op: Opcode) -> Result<(), EditError> {
        let InstRef::Op(o) = self.decode(inst) else {
            return Err(EditError::TypeMismatch);
        };
        let kind = match (&self.ops[o].kind, op) {
            (OpKind::Ext { .. }, Opcode::SExt | Opcode::ZExt) => OpKind::Ext {
                signed: op == Opcode::SExt,
            },
            (OpKind::Trunc, Opcode::Trunc) => OpKind::Trunc,
            (OpKind::CastSpace, Opcode::AddrSpaceCast) => OpKind::CastSpace,
            _ => return Err(EditError::TypeMismatch),
        };
        self.ops[o].kind = kind;
        Ok(())
    }

    fn erase_blocks(&mut self, blocks: &[BlockId]) -> Result<(), EditError> {
        let set: Vec<Block> = blocks.iter().map(|&b| bfrom(b)).collect();
        let Some(&first) = set.first() else {
            return Ok(());
        };
        let f = self.blocks[first].func;
        let ok = set.iter().all(|&b| {
            self.blocks[b].func == f
                && self.func_blocks(f).first() != Some(&b)
                && self.edges_into(b).iter().all(|(p, _, _)| set.contains(p))
        });
        // Block arguments are not phis here: a value defined in the set and
        // passed along an edge from the set is a use inside the set.
        if !ok || !self.results_used_only_inside(&set) {
            return Err(EditError::HasUses);
        }
        for b in set {
            self.delete_block(b);
        }
        Ok(())
    }

    fn array_type_of(&mut self, elem: TypeId, len: u64) -> Result<TypeId, EditError> {
        Ok(tid(self.array_ty(tfrom(elem), len)))
    }

    fn retype_global_initializer(&mut self, g: GlobalId, init: ValueId) -> Result<(), EditError> {
        let (g, v) = (gfrom(g), vfrom(init));
        if !matches!(self.values[v].def, ValueDef::Const(_)) {
            return Err(EditError::TypeMismatch);
        }
        self.globals[g].ty = self.values[v].ty;
        self.globals[g].init = Some(v);
        Ok(())
    }

    fn move_inst_before(&mut self, inst: InstId, before: InstId) -> Result<(), EditError> {
        // Phis are block arguments here: neither moved nor moved before.
        let (InstRef::Op(o), InstRef::Op(b)) = (self.decode(inst), self.decode(before)) else {
            return Err(EditError::TypeMismatch);
        };
        if o == b {
            return Err(EditError::OutOfRange);
        }
        let (Some(ob), Some(bb)) = (self.ops[o].block, self.ops[b].block) else {
            return Err(EditError::OutOfRange);
        };
        if self.blocks[ob].func != self.blocks[bb].func {
            return Err(EditError::OutOfRange);
        }
        if self.ops[o].kind.is_terminator() {
            return Err(EditError::TypeMismatch);
        }
        // Both positions are checked before the first change.
        self.insert_point(before)?;
        self.insert_point(inst)?;
        self.blocks[ob].ops.retain(|&x| x != o);
        let (_, pos) = self.insert_point(before)?;
        self.blocks[bb].ops.insert(pos, o);
        self.ops[o].block = Some(bb);
        Ok(())
    }
}
