//! Instructions.

use super::lexer::{Tk, Token};
use super::parser::{ACtx, Key, Parser};
use super::PResult;
use crate::attr::AttrSet;
use crate::entity::{Block, Inst, Sym, Type, Value};
use crate::inst::{Align, Bundle, CallData, Extra, InstFlags, Opcode, Ordering, TailKind};
use crate::metadata::Attachment;
use crate::short::ShortVec;
use crate::types::{NamedBody, TypeData};
use crate::value::ValueKind;
use alloc::boxed::Box;
use alloc::format;
use alloc::vec::Vec;
use smallvec::SmallVec;

impl Parser<'_> {
    /// Creates a detached instruction with no result: `define_result`
    /// gives it one of the type the caller returns.
    fn mk(&mut self, op: Opcode, ops: &[Value], extra: Extra) -> PResult<Inst> {
        self.check_operand_count(ops.len())?;
        let void = self.ty_void;
        let i = self.m.new_inst(op, void, ops, extra, None);
        Ok(i)
    }

    /// Parses one instruction (with its result name and attachments).
    /// Returns the instruction and whether it terminates the block.
    pub fn parse_instruction(&mut self) -> PResult<(Inst, bool)> {
        let t = self.tok;
        let mut key: Option<Key> = None;
        if matches!(t.kind, Tk::LocalVar | Tk::LocalId) {
            if self.peek()?.kind != Tk::Equal {
                return Err(self.err("expected instruction opcode"));
            }
            key = Some(self.key_of(t));
            self.bump()?;
            self.bump()?;
        }
        if self.tok.kind != Tk::Keyword {
            return Err(self.err("expected instruction opcode"));
        }
        let kw = self.text(self.tok);
        let (inst, ty, term) = match kw {
            b"tail" | b"musttail" | b"notail" => {
                let tk = match kw {
                    b"tail" => TailKind::Tail,
                    b"musttail" => TailKind::MustTail,
                    _ => TailKind::NoTail,
                };
                self.bump()?;
                self.expect_kw(
                    b"call",
                    "expected 'tail call', 'musttail call', or 'notail call'",
                )?;
                let (i, ty) = self.parse_call(Opcode::Call, tk)?;
                (i, ty, false)
            }
            b"catchswitch" | b"catchpad" | b"cleanuppad" | b"catchret" | b"cleanupret" => {
                let term = matches!(kw, b"catchswitch" | b"catchret" | b"cleanupret");
                let (i, ty) = self.parse_verbatim_inst(key.is_some())?;
                return self.finish_inst(i, ty, key, t.start, term, false);
            }
            _ => {
                let Some(op) = self.opcode_of(self.tok) else {
                    return Err(self.err("expected instruction opcode"));
                };
                if op == Opcode::Verbatim || op == Opcode::DbgRecord {
                    return Err(self.err("expected instruction opcode"));
                }
                self.bump()?;
                let (i, ty) = self.parse_inst_op(op)?;
                (i, ty, op.is_terminator())
            }
        };
        self.finish_inst(inst, ty, key, t.start, term, true)
    }

    fn finish_inst(
        &mut self,
        inst: Inst,
        ty: Type,
        key: Option<Key>,
        off: u32,
        term: bool,
        md: bool,
    ) -> PResult<(Inst, bool)> {
        self.define_result(inst, ty, key, off)?;
        if md {
            let mut list: SmallVec<[Attachment; 4]> = SmallVec::new();
            while self.tok.kind == Tk::Comma {
                if self.peek()?.kind != Tk::MetaVar {
                    return Err(self.err("expected instruction opcode"));
                }
                self.bump()?;
                list.push(self.parse_attachment()?);
            }
            if !list.is_empty() {
                self.m.set_attachments(inst, &list);
            }
        }
        Ok((inst, term))
    }

    fn parse_verbatim_inst(&mut self, has_result: bool) -> PResult<(Inst, Type)> {
        let start = self.tok.start as usize;
        let src = self.src;
        let mut end = start;
        while end < src.len() && src[end] != b'\n' && src[end] != b'\r' {
            end += 1;
        }
        let text = self.intern_span(start as u32, end as u32);
        self.reset_lexer(end)?;
        let ty = if has_result {
            self.m.types.intern(TypeData::Token)
        } else {
            self.ty_void
        };
        Ok((self.mk(Opcode::Verbatim, &[], Extra::Verbatim(text))?, ty))
    }

    /// True if the current token is ',' followed by something other than
    /// a metadata attachment; consumes the comma then.
    fn comma_not_md(&mut self) -> PResult<bool> {
        if self.tok.kind == Tk::Comma && self.peek()?.kind != Tk::MetaVar {
            self.bump()?;
            return Ok(true);
        }
        Ok(false)
    }

    fn check(&self, ok: bool, off: u32, msg: &str) -> PResult<()> {
        if ok {
            Ok(())
        } else {
            Err(self.err_at(off, msg.into()))
        }
    }

    fn parse_inst_op(&mut self, op: Opcode) -> PResult<(Inst, Type)> {
        use Opcode::*;
        let start = self.tok.start;
        match op {
            Ret => {
                let f = self.fstate().func;
                let fty = self.m.funcs[f].ty;
                let want = self.m.types.func_sig(fty).map_or(self.ty_void, |s| s.0);
                let off = self.tok.start;
                let ty = self.parse_type()?;
                if self.m.types.is_void(ty) {
                    if ty != want {
                        return Err(self.err_at(
                            off,
                            format!(
                                "value doesn't match function result type '{}'",
                                self.type_str(want)
                            ),
                        ));
                    }
                    let void = self.ty_void;
                    return Ok((self.mk(Ret, &[], Extra::None)?, void));
                }
                let v = self.parse_value(ty)?;
                if ty != want {
                    return Err(self.err_at(
                        off,
                        format!(
                            "value doesn't match function result type '{}'",
                            self.type_str(want)
                        ),
                    ));
                }
                let void = self.ty_void;
                Ok((self.mk(Ret, &[v], Extra::None)?, void))
            }
            Br => {
                let void = self.ty_void;
                if self.is_kw(b"label") {
                    let b = self.parse_label_ref()?;
                    let i = self.mk(Br, &[], Extra::None)?;
                    self.m.set_block_ops(i, &[b]);
                    return Ok((i, void));
                }
                let off = self.tok.start;
                let (ct, c) = self.parse_typed_value()?;
                self.check(
                    ct == self.ty_i1,
                    off,
                    "branch condition must have 'i1' type",
                )?;
                self.expect(Tk::Comma, "expected ',' after branch condition")?;
                let a = self.parse_label_ref()?;
                self.expect(Tk::Comma, "expected ',' after true destination")?;
                let b = self.parse_label_ref()?;
                let i = self.mk(Br, &[c], Extra::None)?;
                self.m.set_block_ops(i, &[a, b]);
                Ok((i, void))
            }
            Switch => {
                let void = self.ty_void;
                let off = self.tok.start;
                let (ct, c) = self.parse_typed_value()?;
                self.check(
                    matches!(self.m.types.get(ct), TypeData::Int(_)),
                    off,
                    "switch condition must have integer type",
                )?;
                self.expect(Tk::Comma, "expected ',' after switch condition")?;
                let d = self.parse_label_ref()?;
                self.expect(Tk::LSquare, "expected '[' with switch table")?;
                let mut ops = SmallVec::<[Value; 8]>::new();
                let mut blocks: ShortVec<Block, 2> = ShortVec::new();
                ops.push(c);
                blocks.push(d);
                while !self.eat(Tk::RSquare)? {
                    let off = self.tok.start;
                    let (t, v) = self.parse_typed_value()?;
                    if t != ct {
                        return Err(self.type_err(off, "case value", t, ct));
                    }
                    self.expect(Tk::Comma, "expected ',' after case value")?;
                    let b = self.parse_label_ref()?;
                    ops.push(v);
                    blocks.push(b);
                }
                let i = self.mk(Switch, &ops, Extra::None)?;
                self.m.set_block_ops(i, &blocks);
                Ok((i, void))
            }
            IndirectBr => {
                let void = self.ty_void;
                let off = self.tok.start;
                let (at, a) = self.parse_typed_value()?;
                self.check(
                    self.m.types.ptr_addrspace(at).is_some(),
                    off,
                    "indirectbr address must have pointer type",
                )?;
                self.expect(Tk::Comma, "expected ',' after indirectbr address")?;
                self.expect(Tk::LSquare, "expected '[' with indirectbr")?;
                let mut blocks: ShortVec<Block, 2> = ShortVec::new();
                if !self.eat(Tk::RSquare)? {
                    loop {
                        blocks.push(self.parse_label_ref()?);
                        if self.eat(Tk::RSquare)? {
                            break;
                        }
                        self.expect(Tk::Comma, "expected ',' or ']' in indirectbr list")?;
                    }
                }
                let i = self.mk(IndirectBr, &[a], Extra::None)?;
                self.m.set_block_ops(i, &blocks);
                Ok((i, void))
            }
            Invoke | CallBr => self.parse_call(op, TailKind::None),
            Call => self.parse_call(op, TailKind::None),
            Resume => {
                let void = self.ty_void;
                let (_, v) = self.parse_typed_value()?;
                Ok((self.mk(Resume, &[v], Extra::None)?, void))
            }
            Unreachable => {
                let void = self.ty_void;
                Ok((self.mk(Unreachable, &[], Extra::None)?, void))
            }
            FNeg => {
                let flags = self.parse_flags()?;
                let off = self.tok.start;
                let (t, v) = self.parse_typed_value()?;
                self.check(
                    self.is_fp_like(t),
                    off,
                    "invalid operand type for instruction",
                )?;
                let i = self.mk(FNeg, &[v], Extra::None)?;
                self.m.insts[i].flags = flags;
                Ok((i, t))
            }
            _ if op.is_binary() => {
                let flags = self.parse_flags()?;
                let off = self.tok.start;
                let (t, a) = self.parse_typed_value()?;
                self.expect(Tk::Comma, "expected ',' in arithmetic operation")?;
                let b = self.parse_value(t)?;
                let fp = matches!(op, FAdd | FSub | FMul | FDiv | FRem);
                let ok = if fp {
                    self.is_fp_like(t)
                } else {
                    self.is_int_like(t)
                };
                self.check(ok, off, "invalid operand type for instruction")?;
                let i = self.mk(op, &[a, b], Extra::None)?;
                self.m.insts[i].flags = flags;
                Ok((i, t))
            }
            _ if op.is_cast() => {
                let flags = self.parse_flags()?;
                let (_, v) = self.parse_typed_value()?;
                self.expect_kw(b"to", "expected 'to' after cast value")?;
                let dt = self.parse_type()?;
                let i = self.mk(op, &[v], Extra::None)?;
                self.m.insts[i].flags = flags;
                Ok((i, dt))
            }
            ICmp | FCmp => {
                let flags = self.parse_flags()?;
                let pred = self.parse_pred(op)?;
                let off = self.tok.start;
                let (t, a) = self.parse_typed_value()?;
                self.expect(Tk::Comma, "expected ',' after compare value")?;
                let b = self.parse_value(t)?;
                let ok = if op == ICmp {
                    self.is_int_like(t) || self.m.types.ptr_addrspace(self.scalar_of(t)).is_some()
                } else {
                    self.is_fp_like(t)
                };
                self.check(ok, off, "invalid operand type for instruction")?;
                let rt = self.cmp_result_type(t);
                let i = self.mk(op, &[a, b], Extra::Cmp(pred))?;
                self.m.insts[i].flags = flags;
                Ok((i, rt))
            }
            Phi => {
                let flags = self.parse_flags()?;
                let ty = self.parse_type()?;
                let mut ops = SmallVec::<[Value; 4]>::new();
                let mut blocks: ShortVec<Block, 2> = ShortVec::new();
                loop {
                    self.expect(Tk::LSquare, "expected '[' in phi value list")?;
                    let v = self.parse_value(ty)?;
                    self.expect(Tk::Comma, "expected ',' after insertelement value")?;
                    if !matches!(self.tok.kind, Tk::LocalVar | Tk::LocalId) {
                        return Err(self.err("expected basic block name"));
                    }
                    let (key, start) = (self.key_of(self.tok), self.tok.start);
                    self.bump()?;
                    let b = self.local_block(key, start)?;
                    self.expect(Tk::RSquare, "expected ']' in phi value list")?;
                    ops.push(v);
                    blocks.push(b);
                    if !(self.tok.kind == Tk::Comma && self.peek()?.kind == Tk::LSquare) {
                        break;
                    }
                    self.bump()?;
                }
                let i = self.mk(Phi, &ops, Extra::None)?;
                self.m.set_block_ops(i, &blocks);
                self.m.insts[i].flags = flags;
                Ok((i, ty))
            }
            Select => {
                let flags = self.parse_flags()?;
                let (_, c) = self.parse_typed_value()?;
                self.expect(Tk::Comma, "expected ',' after select condition")?;
                let (t, a) = self.parse_typed_value()?;
                self.expect(Tk::Comma, "expected ',' after select value")?;
                let off = self.tok.start;
                let (t2, b) = self.parse_typed_value()?;
                if t2 != t {
                    return Err(self.type_err(off, "select operand", t2, t));
                }
                let i = self.mk(Select, &[c, a, b], Extra::None)?;
                self.m.insts[i].flags = flags;
                Ok((i, t))
            }
            VAArg => {
                let (_, v) = self.parse_typed_value()?;
                self.expect(Tk::Comma, "expected ',' after vaarg operand")?;
                let t = self.parse_type()?;
                Ok((self.mk(VAArg, &[v], Extra::None)?, t))
            }
            Freeze => {
                let (t, v) = self.parse_typed_value()?;
                Ok((self.mk(Freeze, &[v], Extra::None)?, t))
            }
            LandingPad => {
                let t = self.parse_type()?;
                let cleanup = self.eat_kw(b"cleanup")?;
                let mut ops = SmallVec::<[Value; 2]>::new();
                let mut kinds = SmallVec::new();
                loop {
                    let c = if self.is_kw(b"catch") {
                        true
                    } else if self.is_kw(b"filter") {
                        false
                    } else {
                        break;
                    };
                    self.bump()?;
                    let (_, v) = self.parse_typed_value()?;
                    ops.push(v);
                    kinds.push(c);
                }
                if !cleanup && ops.is_empty() {
                    return Err(
                        self.err("landingpad instruction needs at least one clause or cleanup")
                    );
                }
                let i = self.mk(LandingPad, &ops, Extra::LandingPad(Box::new(kinds)))?;
                if cleanup {
                    self.m.insts[i].flags |= InstFlags::CLEANUP;
                }
                Ok((i, t))
            }
            ExtractElement => {
                let off = self.tok.start;
                let (vt, v) = self.parse_typed_value()?;
                self.expect(Tk::Comma, "expected ',' after extract value")?;
                let (_, idx) = self.parse_typed_value()?;
                let TypeData::Vector { elem, .. } = *self.m.types.get(vt) else {
                    return Err(self.err_at(off, "invalid extractelement operands".into()));
                };
                Ok((self.mk(ExtractElement, &[v, idx], Extra::None)?, elem))
            }
            InsertElement => {
                let off = self.tok.start;
                let (vt, v) = self.parse_typed_value()?;
                self.expect(Tk::Comma, "expected ',' after insertelement value")?;
                let (_, e) = self.parse_typed_value()?;
                self.expect(Tk::Comma, "expected ',' after insertelement value")?;
                let (_, idx) = self.parse_typed_value()?;
                self.check(
                    matches!(self.m.types.get(vt), TypeData::Vector { .. }),
                    off,
                    "invalid insertelement operands",
                )?;
                Ok((self.mk(InsertElement, &[v, e, idx], Extra::None)?, vt))
            }
            ShuffleVector => {
                let off = self.tok.start;
                let (at, a) = self.parse_typed_value()?;
                self.expect(Tk::Comma, "expected ',' after shuffle mask")?;
                let (_, b) = self.parse_typed_value()?;
                self.expect(Tk::Comma, "expected ',' after shuffle value")?;
                let (mt, mask) = self.parse_typed_value()?;
                let (TypeData::Vector { elem, .. }, TypeData::Vector { len, scalable, .. }) =
                    (self.m.types.get(at).clone(), self.m.types.get(mt).clone())
                else {
                    return Err(self.err_at(off, "invalid shufflevector operands".into()));
                };
                let rt = self.m.types.intern(TypeData::Vector {
                    len,
                    elem,
                    scalable,
                });
                Ok((self.mk(ShuffleVector, &[a, b, mask], Extra::None)?, rt))
            }
            ExtractValue => {
                let off = self.tok.start;
                let (at, a) = self.parse_typed_value()?;
                let idx = self.parse_indices()?;
                let rt = self.indexed_type(at, &idx, off, "extractvalue")?;
                Ok((
                    self.mk(ExtractValue, &[a], Extra::Indices(Box::new(idx)))?,
                    rt,
                ))
            }
            InsertValue => {
                let off = self.tok.start;
                let (at, a) = self.parse_typed_value()?;
                self.expect(Tk::Comma, "expected comma after insertvalue operand")?;
                let voff = self.tok.start;
                let (vt, v) = self.parse_typed_value()?;
                let idx = self.parse_indices()?;
                let et = self.indexed_type(at, &idx, off, "insertvalue")?;
                if et != vt {
                    return Err(self.err_at(
                        voff,
                        format!(
                            "insertvalue operand and field disagree in type: '{}' instead of '{}'",
                            self.type_str(vt),
                            self.type_str(et)
                        ),
                    ));
                }
                Ok((
                    self.mk(InsertValue, &[a, v], Extra::Indices(Box::new(idx)))?,
                    at,
                ))
            }
            Alloca => self.parse_alloca(),
            Load | Store | Fence | CmpXchg | AtomicRmw => self.parse_mem(op),
            GetElementPtr => {
                let flags = self.parse_flags()?;
                let sty = self.parse_type()?;
                self.expect(Tk::Comma, "expected comma after getelementptr's type")?;
                let off = self.tok.start;
                let (bt, base) = self.parse_typed_value()?;
                self.check(
                    self.m.types.ptr_addrspace(self.scalar_of(bt)).is_some(),
                    off,
                    "base of getelementptr must be a pointer",
                )?;
                let mut ops = SmallVec::<[Value; 4]>::new();
                ops.push(base);
                let mut rt = bt;
                while self.comma_not_md()? {
                    let (it, iv) = self.parse_typed_value()?;
                    if let TypeData::Vector { len, scalable, .. } = *self.m.types.get(it) {
                        let p = self.scalar_of(bt);
                        rt = self.m.types.intern(TypeData::Vector {
                            len,
                            elem: p,
                            scalable,
                        });
                    }
                    ops.push(iv);
                }
                let i = self.mk(GetElementPtr, &ops, Extra::Gep { source_ty: sty })?;
                self.m.insts[i].flags = flags;
                Ok((i, rt))
            }
            _ => Err(self.err_at(start, "expected instruction opcode".into())),
        }
    }

    fn parse_indices(&mut self) -> PResult<SmallVec<[u32; 4]>> {
        let mut idx = SmallVec::new();
        while self.tok.kind == Tk::Comma && self.peek()?.kind == Tk::Int {
            self.bump()?;
            idx.push(self.parse_u32("expected index")?);
        }
        if idx.is_empty() {
            return Err(self.err("expected index"));
        }
        Ok(idx)
    }

    fn indexed_type(&self, mut t: Type, idx: &[u32], off: u32, what: &str) -> PResult<Type> {
        for &i in idx {
            t = match self.m.types.get(t) {
                TypeData::Array(n, e) if (i as u64) < *n => *e,
                TypeData::Struct { fields, .. } if (i as usize) < fields.len() => {
                    fields[i as usize]
                }
                TypeData::Named(_) => match self.m.types.named_body(t) {
                    NamedBody::Body { fields, .. } if (i as usize) < fields.len() => {
                        fields[i as usize]
                    }
                    _ => return Err(self.err_at(off, format!("invalid indices for {what}"))),
                },
                _ => return Err(self.err_at(off, format!("invalid indices for {what}"))),
            };
        }
        Ok(t)
    }

    fn parse_alloca(&mut self) -> PResult<(Inst, Type)> {
        let mut flags = InstFlags::empty();
        loop {
            if self.eat_kw(b"inalloca")? {
                flags |= InstFlags::INALLOCA;
            } else if self.eat_kw(b"swifterror")? {
                flags |= InstFlags::SWIFTERROR;
            } else {
                break;
            }
        }
        let off = self.tok.start;
        let ty = self.parse_type()?;
        self.check(
            !matches!(
                self.m.types.get(ty),
                TypeData::Void | TypeData::Label | TypeData::Metadata | TypeData::Func { .. }
            ),
            off,
            "invalid type for alloca",
        )?;
        let mut count = None;
        let mut align = None;
        let mut addrspace = None;
        while self.comma_not_md()? {
            if self.eat_kw(b"align")? {
                align = Align::new(self.parse_align_value()?);
            } else if self.eat_kw(b"addrspace")? {
                addrspace = Some(self.parse_addrspace_paren()?);
            } else if count.is_none() && align.is_none() && addrspace.is_none() {
                let off = self.tok.start;
                let (ct, c) = self.parse_typed_value()?;
                self.check(
                    matches!(self.m.types.get(ct), TypeData::Int(_)),
                    off,
                    "element count must have integer type",
                )?;
                count = Some(c);
            } else {
                return Err(self.err("expected 'align' or 'addrspace'"));
            }
        }
        let rt = self.m.types.ptr(addrspace.unwrap_or(0));
        let ops: SmallVec<[Value; 1]> = count.into_iter().collect();
        let i = self.mk(
            Opcode::Alloca,
            &ops,
            Extra::Alloca {
                ty,
                align,
                addrspace,
            },
        )?;
        self.m.insts[i].flags = flags;
        Ok((i, rt))
    }

    fn parse_ordering(&mut self) -> PResult<Ordering> {
        let o = match self.text(self.tok) {
            b"unordered" if self.tok.kind == Tk::Keyword => Ordering::Unordered,
            b"monotonic" if self.tok.kind == Tk::Keyword => Ordering::Monotonic,
            b"acquire" if self.tok.kind == Tk::Keyword => Ordering::Acquire,
            b"release" if self.tok.kind == Tk::Keyword => Ordering::Release,
            b"acq_rel" if self.tok.kind == Tk::Keyword => Ordering::AcqRel,
            b"seq_cst" if self.tok.kind == Tk::Keyword => Ordering::SeqCst,
            _ => return Err(self.err("Expected ordering on atomic instruction")),
        };
        self.bump()?;
        Ok(o)
    }

    fn parse_syncscope(&mut self) -> PResult<Option<Sym>> {
        if self.eat_kw(b"syncscope")? {
            self.expect(Tk::LParen, "Expected '(' in syncscope")?;
            let s = self.parse_str("Expected syncscope name")?;
            self.expect(Tk::RParen, "Expected ')' in syncscope")?;
            return Ok(Some(s));
        }
        Ok(None)
    }

    fn parse_opt_align_tail(&mut self) -> PResult<Option<Align>> {
        let mut align = None;
        while self.comma_not_md()? {
            if self.eat_kw(b"align")? {
                align = Align::new(self.parse_align_value()?);
            } else {
                return Err(self.err("expected 'align'"));
            }
        }
        Ok(align)
    }

    fn parse_mem(&mut self, op: Opcode) -> PResult<(Inst, Type)> {
        let mut flags = InstFlags::empty();
        let void = self.ty_void;
        let mut align = None;
        let mut ordering = Ordering::NotAtomic;
        let mut failure = Ordering::NotAtomic;
        let mut syncscope = None;
        let mut rmw_op = None;
        let mut ops: SmallVec<[Value; 3]> = SmallVec::new();
        let rt;
        loop {
            if self.eat_kw(b"atomic")? {
                flags |= InstFlags::ATOMIC;
            } else if self.eat_kw(b"volatile")? {
                flags |= InstFlags::VOLATILE;
            } else if op == Opcode::CmpXchg && self.eat_kw(b"weak")? {
                flags |= InstFlags::WEAK;
            } else {
                break;
            }
        }
        let atomic = flags.contains(InstFlags::ATOMIC);
        match op {
            Opcode::Load => {
                let off = self.tok.start;
                let ty = self.parse_type()?;
                self.check(
                    !matches!(
                        self.m.types.get(ty),
                        TypeData::Void
                            | TypeData::Label
                            | TypeData::Func { .. }
                            | TypeData::Metadata
                    ),
                    off,
                    "load operand must be a pointer to a first class type",
                )?;
                self.expect(Tk::Comma, "expected comma after load's type")?;
                let poff = self.tok.start;
                let (pt, p) = self.parse_typed_value()?;
                self.check(
                    self.m.types.ptr_addrspace(pt).is_some(),
                    poff,
                    "load operand must be a pointer",
                )?;
                if atomic {
                    syncscope = self.parse_syncscope()?;
                    ordering = self.parse_ordering()?;
                }
                align = self.parse_opt_align_tail()?;
                ops.push(p);
                rt = ty;
            }
            Opcode::Store => {
                let (_, v) = self.parse_typed_value()?;
                self.expect(Tk::Comma, "expected ',' after store operand")?;
                let poff = self.tok.start;
                let (pt, p) = self.parse_typed_value()?;
                self.check(
                    self.m.types.ptr_addrspace(pt).is_some(),
                    poff,
                    "store operand must be a pointer",
                )?;
                if atomic {
                    syncscope = self.parse_syncscope()?;
                    ordering = self.parse_ordering()?;
                }
                align = self.parse_opt_align_tail()?;
                ops.push(v);
                ops.push(p);
                rt = void;
            }
            Opcode::Fence => {
                syncscope = self.parse_syncscope()?;
                ordering = self.parse_ordering()?;
                rt = void;
            }
            Opcode::CmpXchg => {
                let poff = self.tok.start;
                let (pt, p) = self.parse_typed_value()?;
                self.check(
                    self.m.types.ptr_addrspace(pt).is_some(),
                    poff,
                    "cmpxchg operand must be a pointer",
                )?;
                self.expect(Tk::Comma, "expected ',' after cmpxchg address")?;
                let (ct, c) = self.parse_typed_value()?;
                self.expect(Tk::Comma, "expected ',' after cmpxchg cmp operand")?;
                let noff = self.tok.start;
                let (nt, n) = self.parse_typed_value()?;
                if nt != ct {
                    return Err(self.type_err(noff, "cmpxchg new value", nt, ct));
                }
                syncscope = self.parse_syncscope()?;
                ordering = self.parse_ordering()?;
                failure = self.parse_ordering()?;
                align = self.parse_opt_align_tail()?;
                ops.extend([p, c, n]);
                rt = self.m.types.intern(TypeData::Struct {
                    fields: SmallVec::from_slice(&[ct, self.ty_i1]),
                    packed: false,
                });
            }
            _ => {
                // atomicrmw
                let ok = self.tok.kind == Tk::Keyword
                    && matches!(
                        self.text(self.tok),
                        b"xchg"
                            | b"add"
                            | b"sub"
                            | b"and"
                            | b"nand"
                            | b"or"
                            | b"xor"
                            | b"max"
                            | b"min"
                            | b"umax"
                            | b"umin"
                            | b"fadd"
                            | b"fsub"
                            | b"fmax"
                            | b"fmin"
                            | b"uinc_wrap"
                            | b"udec_wrap"
                            | b"usub_cond"
                            | b"usub_sat"
                            | b"fmaximum"
                            | b"fminimum"
                    );
                if !ok {
                    return Err(self.err("expected binary operation in atomicrmw"));
                }
                rmw_op = Some(self.m.strings.intern(self.text(self.tok)));
                self.bump()?;
                let poff = self.tok.start;
                let (pt, p) = self.parse_typed_value()?;
                self.check(
                    self.m.types.ptr_addrspace(pt).is_some(),
                    poff,
                    "atomicrmw operand must be a pointer",
                )?;
                self.expect(Tk::Comma, "expected ',' after atomicrmw address")?;
                let (vt, v) = self.parse_typed_value()?;
                syncscope = self.parse_syncscope()?;
                ordering = self.parse_ordering()?;
                align = self.parse_opt_align_tail()?;
                ops.extend([p, v]);
                rt = vt;
            }
        }
        let i = self.mk(
            op,
            &ops,
            Extra::Mem {
                align,
                ordering,
                failure,
                syncscope,
                rmw_op,
            },
        )?;
        self.m.insts[i].flags = flags;
        Ok((i, rt))
    }

    /// `call`/`invoke`/`callbr` after the opcode keyword.
    fn parse_call(&mut self, op: Opcode, tail: TailKind) -> PResult<(Inst, Type)> {
        if op == Opcode::Call && tail == TailKind::None {
            // `call` keyword already consumed by the caller.
        }
        let flags = self.parse_flags()?;
        let cc = self.parse_cc()?;
        let ret_attrs = self.parse_attrs(ACtx::Ret, None)?;
        let addrspace = self.parse_opt_addrspace()?;
        let ty_off = self.tok.start;
        let ty = self.parse_type()?;
        let explicit = self.m.types.func_sig(ty).is_some();
        let callee_ty = self.m.types.ptr(addrspace.unwrap_or(0));
        let callee = self.parse_value(callee_ty)?;
        self.expect(Tk::LParen, "expected '(' in call")?;
        let mut args: SmallVec<[Value; 8]> = SmallVec::new();
        let mut arg_tys: SmallVec<[Type; 4]> = SmallVec::new();
        let mut arg_offs: SmallVec<[u32; 8]> = SmallVec::new();
        let mut param_attrs: Vec<AttrSet> = Vec::new();
        if !self.eat(Tk::RParen)? {
            loop {
                if self.eat(Tk::DotDotDot)? {
                    self.expect(Tk::RParen, "expected ')' at end of argument list")?;
                    break;
                }
                let off = self.tok.start;
                let t = self.parse_type()?;
                let attrs = if t != self.ty_md {
                    self.parse_attrs(ACtx::Param, None)?
                } else {
                    AttrSet::default()
                };
                let v = self.parse_value(t)?;
                // Only arguments up to the last one with attributes keep
                // an entry, so most calls allocate none.
                if !attrs.is_empty() {
                    param_attrs.resize(args.len(), AttrSet::default());
                    param_attrs.push(attrs);
                }
                args.push(v);
                arg_tys.push(t);
                arg_offs.push(off);
                if self.eat(Tk::RParen)? {
                    break;
                }
                self.expect(Tk::Comma, "expected ',' in argument list")?;
            }
        }
        param_attrs.shrink_to_fit();
        let fn_attrs = self.parse_attrs(ACtx::CallFn, None)?;
        let mut bundles: Vec<Bundle> = Vec::new();
        let mut bundle_ops: SmallVec<[Value; 2]> = SmallVec::new();
        if self.eat(Tk::LSquare)? {
            loop {
                let tag = self.parse_str("expected operand bundle tag")?;
                self.expect(Tk::LParen, "expected '(' in operand bundle")?;
                let start = (1 + args.len() + bundle_ops.len()) as u32;
                if !self.eat(Tk::RParen)? {
                    loop {
                        let (_, v) = self.parse_typed_value()?;
                        bundle_ops.push(v);
                        if self.eat(Tk::RParen)? {
                            break;
                        }
                        self.expect(Tk::Comma, "expected ',' in operand bundle")?;
                    }
                }
                let len = (1 + args.len() + bundle_ops.len()) as u32 - start;
                bundles.push(Bundle { tag, start, len });
                if self.eat(Tk::RSquare)? {
                    break;
                }
                self.expect(Tk::Comma, "expected ',' or ']' in operand bundle list")?;
            }
        }
        let mut blocks: ShortVec<Block, 2> = ShortVec::new();
        match op {
            Opcode::Invoke => {
                self.expect_kw(b"to", "expected 'to' in invoke")?;
                blocks.push(self.parse_label_ref()?);
                self.expect_kw(b"unwind", "expected 'unwind' in invoke")?;
                blocks.push(self.parse_label_ref()?);
            }
            Opcode::CallBr => {
                self.expect_kw(b"to", "expected 'to' in callbr")?;
                blocks.push(self.parse_label_ref()?);
                self.expect(Tk::LSquare, "expected '[' in callbr")?;
                if !self.eat(Tk::RSquare)? {
                    loop {
                        blocks.push(self.parse_label_ref()?);
                        if self.eat(Tk::RSquare)? {
                            break;
                        }
                        self.expect(Tk::Comma, "expected ',' or ']' in callbr")?;
                    }
                }
            }
            _ => {}
        }
        let (fn_ty, ret) = if explicit {
            let (ret, params, vararg) = match self.m.types.func_sig(ty) {
                Some((r, p, va)) => (r, SmallVec::<[Type; 8]>::from_slice(p), va),
                None => unreachable!(),
            };
            if args.len() < params.len() {
                return Err(self.err_at(ty_off, "not enough parameters specified for call".into()));
            }
            if !vararg && args.len() > params.len() {
                return Err(self.err_at(
                    arg_offs[params.len()],
                    "too many arguments specified".into(),
                ));
            }
            for (i, &p) in params.iter().enumerate() {
                if arg_tys[i] != p {
                    return Err(self.err_at(
                        arg_offs[i],
                        format!("argument is not of expected type '{}'", self.type_str(p)),
                    ));
                }
            }
            (ty, ret)
        } else {
            if matches!(self.m.types.get(ty), TypeData::Label | TypeData::Metadata) {
                return Err(self.err_at(ty_off, "invalid result type for call".into()));
            }
            // A direct call usually matches its callee's type: take that
            // one rather than interning the same type again.
            let callee_fn_ty = match self.m.values[callee].kind {
                ValueKind::Func(f) => self.m.funcs.get(f).map(|d| d.ty),
                _ => None,
            };
            let ft = match callee_fn_ty {
                Some(ft) if self.m.types.func_sig(ft) == Some((ty, arg_tys.as_slice(), false)) => {
                    ft
                }
                _ => self.m.types.intern(TypeData::Func {
                    ret: ty,
                    params: arg_tys.iter().copied().collect(),
                    vararg: false,
                }),
            };
            (ft, ty)
        };
        let nargs = args.len() as u32;
        let mut ops: SmallVec<[Value; 8]> =
            SmallVec::with_capacity(1 + args.len() + bundle_ops.len());
        ops.push(callee);
        ops.extend(args);
        ops.extend(bundle_ops);
        let cd = CallData {
            fn_ty: Some(fn_ty),
            explicit_fn_ty: explicit,
            cc,
            ret_attrs,
            fn_attrs,
            param_attrs,
            nargs,
            bundles: bundles.into_boxed_slice(),
            tail,
            addrspace,
        };
        let cd = self.m.share_call_data(cd);
        let i = self.mk(op, &ops, Extra::Call(cd))?;
        self.m.insts[i].flags = flags;
        self.m.set_block_ops(i, &blocks);
        Ok((i, ret))
    }

    /// `#dbg_xxx(args...)`.
    pub fn parse_dbg_record(&mut self) -> PResult<Inst> {
        let t: Token = self.tok;
        let kind = self
            .m
            .strings
            .intern(&self.src[t.start as usize + 5..t.end as usize]);
        self.bump()?;
        self.expect(Tk::LParen, "expected '(' in debug record")?;
        let mut ops: SmallVec<[Value; 4]> = SmallVec::new();
        if !self.eat(Tk::RParen)? {
            loop {
                let r = self.parse_md_ref()?;
                let inner = match r {
                    crate::metadata::MdRef::Value(_, v) => Some(v),
                    _ => None,
                };
                ops.push(self.m.new_md_value(r, inner));
                if self.eat(Tk::RParen)? {
                    break;
                }
                self.expect(Tk::Comma, "expected ',' in debug record")?;
            }
        }
        self.mk(Opcode::DbgRecord, &ops, Extra::DbgRecord(kind))
    }
}
