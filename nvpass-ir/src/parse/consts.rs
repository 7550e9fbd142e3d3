//! Values and constants: literals, aggregates, constant expressions.

use super::lexer::{hex_u128, hexval, read_float, FloatText, Tk};
use super::parser::{Key, Parser};
use super::PResult;
use crate::entity::{Type, Value};
use crate::inst::{InstFlags, Opcode, Pred, FCMP_PREDS, ICMP_PREDS};
use crate::types::{FloatKind, NamedBody, TypeData};
use crate::value::{Const, InlineAsm, ValueKind, Wide};
use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use smallvec::SmallVec;

impl Parser<'_> {
    /// `<type> <value>`; a `metadata` type takes a metadata operand.
    pub fn parse_typed_value(&mut self) -> PResult<(Type, Value)> {
        let ty = self.parse_type()?;
        let v = self.parse_value(ty)?;
        Ok((ty, v))
    }

    /// A value of type `ty`.
    pub fn parse_value(&mut self, ty: Type) -> PResult<Value> {
        self.enter()?;
        let r = self.parse_value_inner(ty);
        self.leave();
        r
    }

    fn parse_value_inner(&mut self, ty: Type) -> PResult<Value> {
        if ty == self.ty_md {
            return self.parse_md_operand();
        }
        // A name's key is taken before the next token is read, rather than
        // the token copied whole: the copy, a 16-byte load of the token
        // just stored in halves, would wait for those stores to land.
        match self.tok.kind {
            Tk::LocalVar | Tk::LocalId => {
                let (key, start) = (self.key_of(self.tok), self.tok.start);
                self.bump()?;
                self.local_value(key, start, ty)
            }
            Tk::GlobalVar | Tk::GlobalId => {
                let (key, start) = (self.key_of(self.tok), self.tok.start);
                self.bump()?;
                self.global_ref(key, start, ty)
            }
            Tk::Int => self.parse_int_lit(ty),
            Tk::Float => self.parse_float_lit(ty),
            Tk::LSquare => self.parse_array_const(ty),
            Tk::LBrace => self.parse_struct_const(ty, false),
            Tk::Less => {
                if self.peek()?.kind == Tk::LBrace {
                    self.bump()?;
                    self.parse_struct_const(ty, true)
                } else {
                    self.parse_vector_const(ty)
                }
            }
            Tk::Keyword => self.parse_keyword_value(ty),
            _ => Err(self.err("expected value token")),
        }
    }

    fn type_mismatch_err(&self, off: u32, got: Type, want: Type) -> super::PErr {
        self.err_at(
            off,
            format!(
                "constant expression type mismatch: got type '{}' but expected '{}'",
                self.type_str(got),
                self.type_str(want)
            ),
        )
    }

    fn parse_keyword_value(&mut self, ty: Type) -> PResult<Value> {
        let kw = self.text(self.tok);
        match kw {
            b"true"
            | b"false"
            | b"null"
            | b"undef"
            | b"poison"
            | b"zeroinitializer"
            | b"none"
            | b"c"
            | b"splat"
            | b"blockaddress"
            | b"dso_local_equivalent"
            | b"no_cfi"
            | b"asm" => self.parse_other_keyword_value(ty),
            _ => match self.opcode_of(self.tok) {
                Some(op) => self.parse_const_expr(op, ty),
                None => Err(self.err("expected value token")),
            },
        }
    }

    #[inline(never)]
    fn parse_other_keyword_value(&mut self, ty: Type) -> PResult<Value> {
        let t = self.tok;
        let kw = self.text(t);
        let td = self.m.types.get(ty).clone();
        let first_class = !matches!(
            td,
            TypeData::Void | TypeData::Label | TypeData::Func { .. } | TypeData::Metadata
        );
        let simple = match kw {
            b"true" | b"false" => {
                if !self.is_i1(ty) {
                    return Err(self.err("constant must have i1 type"));
                }
                Some(self.m.const_int(ty, if kw == b"true" { -1 } else { 0 }))
            }
            b"null" => {
                if !matches!(td, TypeData::Ptr(_)) {
                    return Err(self.err("null must be a pointer type"));
                }
                Some(self.m.const_scalar(ty, Const::Null))
            }
            b"undef" | b"poison" => {
                if !first_class {
                    return Err(self.err("invalid type for undef constant"));
                }
                let c = if kw == b"undef" {
                    Const::Undef
                } else {
                    Const::Poison
                };
                Some(self.m.const_scalar(ty, c))
            }
            b"zeroinitializer" => {
                if !first_class {
                    return Err(self.err("invalid type for null constant"));
                }
                Some(self.m.const_scalar(ty, Const::Zero))
            }
            b"none" => {
                if !matches!(td, TypeData::Token) {
                    return Err(self.err("invalid type for none constant"));
                }
                Some(self.m.const_scalar(ty, Const::NoneToken))
            }
            _ => None,
        };
        if let Some(v) = simple {
            self.bump()?;
            return Ok(v);
        }
        match kw {
            b"c" => {
                self.bump()?;
                if self.tok.kind != Tk::Str {
                    return Err(self.err("expected string"));
                }
                let bytes = self.str_bytes(self.tok);
                let n = bytes.len() as u64;
                let s = self.m.strings.intern(&bytes);
                let i8t = self.m.types.int(8);
                let want = self.m.types.intern(TypeData::Array(n, i8t));
                if want != ty {
                    return Err(self.type_mismatch_err(t.start, want, ty));
                }
                self.bump()?;
                Ok(self.m.new_const_with_ops(ty, Const::Str(s), &[]))
            }
            b"splat" => {
                self.bump()?;
                self.expect(Tk::LParen, "expected '(' after splat")?;
                let off = self.tok.start;
                let (et, v) = self.parse_typed_value()?;
                self.expect(Tk::RParen, "expected ')' after splat value")?;
                match td {
                    TypeData::Vector { elem, .. } if elem == et => {}
                    TypeData::Vector { .. } => {
                        return Err(self.err_at(off, "splat element type mismatch".into()))
                    }
                    _ => return Err(self.err_at(t.start, "splat must have vector type".into())),
                }
                Ok(self.m.new_const_with_ops(ty, Const::Splat, &[v]))
            }
            b"blockaddress" => self.parse_blockaddress(ty),
            b"dso_local_equivalent" | b"no_cfi" => {
                let c = if kw == b"no_cfi" {
                    Const::NoCfi
                } else {
                    Const::DsoLocalEquivalent
                };
                self.bump()?;
                let g = self.tok;
                if !matches!(g.kind, Tk::GlobalVar | Tk::GlobalId) {
                    return Err(self.err("expected global value name"));
                }
                self.bump()?;
                let key = self.key_of(g);
                let gv = self.global_ref(key, g.start, ty)?;
                if !matches!(
                    self.m.values[gv].kind,
                    ValueKind::Func(_) | ValueKind::Alias(_) | ValueKind::Placeholder
                ) {
                    return Err(self.err_at(g.start, "expected a function".into()));
                }
                Ok(self.m.new_const_with_ops(ty, c, &[gv]))
            }
            b"asm" => self.parse_inline_asm(ty),
            _ => match self.opcode_of(self.tok) {
                Some(op) => self.parse_const_expr(op, ty),
                None => Err(self.err("expected value token")),
            },
        }
    }

    fn is_i1(&self, ty: Type) -> bool {
        matches!(self.m.types.get(ty), TypeData::Int(1))
    }

    #[inline(never)]
    fn parse_inline_asm(&mut self, ty: Type) -> PResult<Value> {
        self.bump()?;
        let mut a = InlineAsm {
            side_effect: false,
            align_stack: false,
            intel_dialect: false,
            unwind: false,
            asm: self.m.strings.intern(b""),
            constraints: self.m.strings.intern(b""),
        };
        loop {
            if self.eat_kw(b"sideeffect")? {
                a.side_effect = true;
            } else if self.eat_kw(b"alignstack")? {
                a.align_stack = true;
            } else if self.eat_kw(b"inteldialect")? {
                a.intel_dialect = true;
            } else if self.eat_kw(b"unwind")? {
                a.unwind = true;
            } else {
                break;
            }
        }
        a.asm = self.parse_str("expected asm string")?;
        self.expect(Tk::Comma, "expected ',' after inline asm string")?;
        a.constraints = self.parse_str("expected asm constraint string")?;
        Ok(self
            .m
            .new_const_with_ops(ty, Const::InlineAsm(Box::new(a)), &[]))
    }

    #[inline(never)]
    fn parse_blockaddress(&mut self, ty: Type) -> PResult<Value> {
        self.bump()?;
        self.expect(Tk::LParen, "expected '(' in block address expression")?;
        let ft = self.tok;
        if !matches!(ft.kind, Tk::GlobalVar | Tk::GlobalId) {
            return Err(self.err("expected function name in blockaddress"));
        }
        self.bump()?;
        self.expect(Tk::Comma, "expected comma in block address expression")?;
        let bt = self.tok;
        if !matches!(bt.kind, Tk::LocalVar | Tk::LocalId) {
            return Err(self.err("expected basic block name in blockaddress"));
        }
        self.bump()?;
        self.expect(Tk::RParen, "expected ')' in block address expression")?;
        if self.m.types.ptr_addrspace(ty).is_none() {
            return Err(self.err_at(ft.start, "blockaddress must have pointer type".into()));
        }
        let fty = self.ty_ptr;
        let key = self.key_of(ft);
        let fv = self.global_ref(key, ft.start, fty)?;
        // Inside the function itself: resolve now.
        if let Some(st) = self.f.as_ref() {
            if st.fval == fv {
                let f = st.func;
                let key = self.key_of(bt);
                let b = self.local_block(key, bt.start)?;
                return Ok(self
                    .m
                    .new_const_with_ops(ty, Const::BlockAddress(f, b), &[]));
            }
        }
        let key: Key = self.key_of(bt);
        let v = self.m.new_const_with_ops(ty, Const::Null, &[fv]);
        self.m.values[v].kind = ValueKind::Placeholder;
        self.pending_ba.push((v, fv, key, bt.start));
        Ok(v)
    }

    // ----- literals ---------------------------------------------------

    #[inline(never)]
    fn parse_int_lit(&mut self, ty: Type) -> PResult<Value> {
        let t = self.tok;
        let Some(bits) = self.m.types.int_bits(ty) else {
            return Err(self.err("integer constant must have integer type"));
        };
        let txt = self.text(t);
        self.bump()?;
        if bits <= 128 {
            let v = int_text_value(txt);
            return Ok(self.m.const_int(ty, v));
        }
        let dec = wide_int_decimal(txt);
        let s = self.m.strings.intern(dec.as_bytes());
        Ok(self.m.const_scalar(ty, crate::value::Const::BigInt(s)))
    }

    #[inline(never)]
    fn parse_float_lit(&mut self, ty: Type) -> PResult<Value> {
        let t = self.tok;
        let TypeData::Float(kind) = *self.m.types.get(ty) else {
            return Err(self.err("floating point constant invalid for type"));
        };
        let bad = || self.err_at(t.start, "floating point constant invalid for type".into());
        let read = match self.ahead_float(t) {
            Some(d) => FloatText::Double(d),
            None => read_float(self.text(t)),
        };
        let bits: u128 = match read {
            FloatText::Double(d) => {
                if !matches!(
                    kind,
                    FloatKind::Half | FloatKind::BFloat | FloatKind::Float | FloatKind::Double
                ) {
                    return Err(bad());
                }
                double_to_kind(d, kind).ok_or_else(bad)?
            }
            FloatText::TooBig => return Err(self.err("constant bigger than 64 bits detected")),
            FloatText::Bad => return Err(bad()),
            FloatText::Form(form, digits) => {
                let want = match form {
                    b'H' => FloatKind::Half,
                    b'R' => FloatKind::BFloat,
                    b'K' => FloatKind::X86Fp80,
                    b'L' => FloatKind::Fp128,
                    _ => FloatKind::PpcFp128,
                };
                if kind != want {
                    return Err(bad());
                }
                match form {
                    b'H' | b'R' => (hex_u128(digits) as u16) as u128,
                    b'K' => {
                        if digits.len() > 20 {
                            return Err(self.err("constant bigger than 80 bits detected"));
                        }
                        hex_u128(digits) & ((1u128 << 80) - 1)
                    }
                    _ => {
                        if digits.len() > 32 {
                            return Err(self.err("constant bigger than 128 bits detected"));
                        }
                        // LLVM's HexToIntPair: the first 16 digits are the low
                        // word, the rest the high word.
                        let (lo, hi) = if digits.len() >= 16 {
                            (hex_u128(&digits[..16]), hex_u128(&digits[16..]))
                        } else {
                            (0, hex_u128(digits))
                        };
                        (hi << 64) | lo
                    }
                }
            }
        };
        self.bump()?;
        Ok(self.m.const_scalar(ty, Const::Float(Wide(bits))))
    }

    // ----- aggregates -------------------------------------------------

    fn parse_elems(&mut self, close: Tk, close_msg: &str) -> PResult<Vec<(Type, Value, u32)>> {
        self.bump()?;
        let mut out = Vec::new();
        if self.eat(close)? {
            return Ok(out);
        }
        loop {
            let off = self.tok.start;
            let (t, v) = self.parse_typed_value()?;
            out.push((t, v, off));
            if self.eat(close)? {
                return Ok(out);
            }
            if self.tok.kind != Tk::Comma {
                return Err(self.err(close_msg));
            }
            self.bump()?;
        }
    }

    #[inline(never)]
    fn parse_array_const(&mut self, ty: Type) -> PResult<Value> {
        let start = self.tok.start;
        let TypeData::Array(n, elem) = *self.m.types.get(ty) else {
            return Err(self.err("array constant must have array type"));
        };
        let elems = self.parse_elems(Tk::RSquare, "expected ',' or ']' in array constant")?;
        self.check_elems(&elems, |_| elem)?;
        if elems.len() as u64 != n {
            return Err(self.err_at(
                start,
                format!(
                    "array constant has {} elements but type '{}' expects {}",
                    elems.len(),
                    self.type_str(ty),
                    n
                ),
            ));
        }
        let vals: SmallVec<[Value; 8]> = elems.iter().map(|e| e.1).collect();
        self.check_operand_count(vals.len())?;
        Ok(self.m.new_const_with_ops(ty, Const::Aggregate, &vals))
    }

    fn check_elems(
        &self,
        elems: &[(Type, Value, u32)],
        want: impl Fn(usize) -> Type,
    ) -> PResult<()> {
        for (i, &(t, _, off)) in elems.iter().enumerate() {
            let w = want(i);
            if t != w {
                return Err(self.err_at(
                    off,
                    format!(
                        "element {} is of type '{}' but expected '{}'",
                        i,
                        self.type_str(t),
                        self.type_str(w)
                    ),
                ));
            }
        }
        Ok(())
    }

    #[inline(never)]
    fn parse_struct_const(&mut self, ty: Type, packed: bool) -> PResult<Value> {
        let start = self.tok.start;
        let (fields, tp): (Vec<Type>, bool) = match self.m.types.get(ty) {
            TypeData::Struct { fields, packed } => (fields.to_vec(), *packed),
            TypeData::Named(_) => match self.m.types.named_body(ty) {
                NamedBody::Body { fields, packed } => (fields.clone(), *packed),
                NamedBody::Opaque => {
                    return Err(self.err("struct constant of opaque type"));
                }
            },
            _ => return Err(self.err("struct constant must have struct type")),
        };
        if tp != packed {
            return Err(self.err("struct constant packedness does not match type"));
        }
        let elems = self.parse_elems(Tk::RBrace, "expected ',' or '}' in struct constant")?;
        if packed {
            self.expect(Tk::Greater, "expected '>' at end of packed struct constant")?;
        }
        if elems.len() != fields.len() {
            return Err(self.err_at(
                start,
                format!(
                    "struct constant has {} elements but type '{}' has {} fields",
                    elems.len(),
                    self.type_str(ty),
                    fields.len()
                ),
            ));
        }
        self.check_elems(&elems, |i| fields[i])?;
        let vals: SmallVec<[Value; 8]> = elems.iter().map(|e| e.1).collect();
        self.check_operand_count(vals.len())?;
        Ok(self.m.new_const_with_ops(ty, Const::Aggregate, &vals))
    }

    #[inline(never)]
    fn parse_vector_const(&mut self, ty: Type) -> PResult<Value> {
        let start = self.tok.start;
        let TypeData::Vector { len, elem, .. } = *self.m.types.get(ty) else {
            return Err(self.err("vector constant must have vector type"));
        };
        let elems = self.parse_elems(Tk::Greater, "expected ',' or '>' in vector constant")?;
        self.check_elems(&elems, |_| elem)?;
        if elems.len() as u64 != len as u64 {
            return Err(self.err_at(
                start,
                format!(
                    "vector constant has {} elements but type '{}' expects {}",
                    elems.len(),
                    self.type_str(ty),
                    len
                ),
            ));
        }
        let vals: SmallVec<[Value; 8]> = elems.iter().map(|e| e.1).collect();
        self.check_operand_count(vals.len())?;
        Ok(self.m.new_const_with_ops(ty, Const::Aggregate, &vals))
    }

    // ----- flags, predicates ------------------------------------------

    /// Consumes any instruction flag / fast-math keywords.
    pub fn parse_flags(&mut self) -> PResult<InstFlags> {
        let mut f = InstFlags::empty();
        while self.tok.kind == Tk::Keyword {
            let x = match self.text(self.tok) {
                b"nuw" => InstFlags::NUW,
                b"nsw" => InstFlags::NSW,
                b"exact" => InstFlags::EXACT,
                b"disjoint" => InstFlags::DISJOINT,
                b"nneg" => InstFlags::NNEG,
                b"inbounds" => InstFlags::INBOUNDS,
                b"nusw" => InstFlags::NUSW,
                b"samesign" => InstFlags::SAMESIGN,
                b"nnan" => InstFlags::NNAN,
                b"ninf" => InstFlags::NINF,
                b"nsz" => InstFlags::NSZ,
                b"arcp" => InstFlags::ARCP,
                b"contract" => InstFlags::CONTRACT,
                b"afn" => InstFlags::AFN,
                b"reassoc" => InstFlags::REASSOC,
                b"fast" => InstFlags::FAST,
                _ => break,
            };
            f |= x;
            self.bump()?;
        }
        Ok(f)
    }

    pub fn parse_pred(&mut self, op: Opcode) -> PResult<Pred> {
        let table: &[&str] = if op == Opcode::ICmp {
            &ICMP_PREDS
        } else {
            &FCMP_PREDS
        };
        if self.tok.kind == Tk::Keyword {
            let kw = self.text(self.tok);
            if let Some(i) = table.iter().position(|p| p.as_bytes() == kw) {
                self.bump()?;
                return Ok(Pred(i as u8));
            }
        }
        Err(self.err(if op == Opcode::ICmp {
            "expected icmp predicate (e.g. 'eq')"
        } else {
            "expected fcmp predicate (e.g. 'oeq')"
        }))
    }

    /// The `i1` (or vector-of-`i1`) type matching `ty`'s shape.
    pub fn cmp_result_type(&mut self, ty: Type) -> Type {
        match *self.m.types.get(ty) {
            TypeData::Vector { len, scalable, .. } => self.m.types.intern(TypeData::Vector {
                len,
                elem: self.ty_i1,
                scalable,
            }),
            _ => self.ty_i1,
        }
    }

    /// Scalar element type of a (vector) type.
    pub fn scalar_of(&self, ty: Type) -> Type {
        match *self.m.types.get(ty) {
            TypeData::Vector { elem, .. } => elem,
            _ => ty,
        }
    }

    pub fn is_int_like(&self, ty: Type) -> bool {
        matches!(self.m.types.get(self.scalar_of(ty)), TypeData::Int(_))
    }

    pub fn is_fp_like(&self, ty: Type) -> bool {
        matches!(self.m.types.get(self.scalar_of(ty)), TypeData::Float(_))
    }

    // ----- constant expressions ---------------------------------------

    fn parse_const_expr(&mut self, op: Opcode, ty: Type) -> PResult<Value> {
        self.parse_const_expr_as(op, Some(ty))
    }

    /// A constant expression written without its type, which is the
    /// expression's own (LLVM prints alias targets this way:
    /// `alias i32, getelementptr (...)`). `None` when the token does not
    /// start one of the expressions LLVM accepts there.
    pub fn parse_untyped_const_expr(&mut self) -> Option<PResult<Value>> {
        let op = match self.text(self.tok) {
            b"bitcast" | b"getelementptr" | b"addrspacecast" | b"inttoptr"
                if self.tok.kind == Tk::Keyword =>
            {
                self.opcode_of(self.tok)?
            }
            _ => return None,
        };
        if let Err(e) = self.enter() {
            return Some(Err(e));
        }
        let r = self.parse_const_expr_as(op, None);
        self.leave();
        Some(r)
    }

    /// A constant expression of type `ty`, or of its own type when `None`.
    fn parse_const_expr_as(&mut self, op: Opcode, ty: Option<Type>) -> PResult<Value> {
        let start = self.tok.start;
        self.bump()?;
        let flags = self.parse_flags()?;
        let ce = CeParts {
            start,
            ty,
            op,
            flags,
            source_ty: None,
            pred: None,
            inrange: None,
        };
        if op.is_cast() {
            self.ce_cast(ce)
        } else if op == Opcode::GetElementPtr {
            self.ce_gep(ce)
        } else if op == Opcode::ICmp || op == Opcode::FCmp {
            self.ce_cmp(ce)
        } else if op.is_binary() || op == Opcode::FNeg {
            self.ce_binary(ce)
        } else if matches!(
            op,
            Opcode::ExtractElement | Opcode::InsertElement | Opcode::ShuffleVector | Opcode::Select
        ) {
            self.ce_vector(ce)
        } else {
            Err(self.err_at(start, "expected value token".into()))
        }
    }

    #[inline(never)]
    fn ce_finish(&mut self, ce: CeParts, result_ty: Type, ops: &[Value]) -> PResult<Value> {
        let ty = ce.ty.unwrap_or(result_ty);
        if result_ty != ty {
            return Err(self.type_mismatch_err(ce.start, result_ty, ty));
        }
        let c = Const::Expr {
            opcode: ce.op,
            flags: ce.flags,
            source_ty: ce.source_ty,
            pred: ce.pred,
            inrange: ce.inrange,
        };
        self.check_operand_count(ops.len())?;
        Ok(self.m.new_const_with_ops(ty, c, ops))
    }

    #[inline(never)]
    fn ce_cast(&mut self, ce: CeParts) -> PResult<Value> {
        self.expect(Tk::LParen, "expected '(' after constantexpr cast")?;
        let (_, v) = self.parse_typed_value()?;
        self.expect_kw(b"to", "expected 'to' in constantexpr cast")?;
        let rt = self.parse_type()?;
        self.expect(Tk::RParen, "expected ')' at end of constantexpr cast")?;
        self.ce_finish(ce, rt, &[v])
    }

    #[inline(never)]
    fn ce_gep(&mut self, mut ce: CeParts) -> PResult<Value> {
        if self.is_kw(b"inrange") {
            let s = self.tok.start;
            self.bump()?;
            if self.tok.kind != Tk::LParen {
                return Err(self.err("expected '(' after inrange"));
            }
            let e = self.skip_parens()?;
            ce.inrange = Some(self.intern_span(s, e));
        }
        ce.flags |= self.parse_flags()?;
        self.expect(Tk::LParen, "expected '(' in constantexpr")?;
        ce.source_ty = Some(self.parse_type()?);
        self.expect(Tk::Comma, "expected comma after getelementptr's type")?;
        let (bt, base) = self.parse_typed_value()?;
        let mut ops: Vec<Value> = Vec::new();
        ops.push(base);
        let mut rty = bt;
        while self.eat(Tk::Comma)? {
            let (it, iv) = self.parse_typed_value()?;
            if let TypeData::Vector { len, scalable, .. } = *self.m.types.get(it) {
                let p = self.scalar_of(bt);
                rty = self.m.types.intern(TypeData::Vector {
                    len,
                    elem: p,
                    scalable,
                });
            }
            ops.push(iv);
        }
        self.expect(Tk::RParen, "expected ')' in constantexpr")?;
        if self.m.types.ptr_addrspace(self.scalar_of(bt)).is_none() {
            return Err(self.err_at(ce.start, "base of getelementptr must be a pointer".into()));
        }
        self.ce_finish(ce, rty, &ops)
    }

    #[inline(never)]
    fn ce_cmp(&mut self, mut ce: CeParts) -> PResult<Value> {
        ce.pred = Some(self.parse_pred(ce.op)?);
        self.expect(Tk::LParen, "expected '(' in compare constantexpr")?;
        let (at, a) = self.parse_typed_value()?;
        self.expect(Tk::Comma, "expected comma in compare constantexpr")?;
        let b = self.ce_second(at)?;
        self.expect(Tk::RParen, "expected ')' in compare constantexpr")?;
        let rt = self.cmp_result_type(at);
        self.ce_finish(ce, rt, &[a, b])
    }

    /// The second typed operand of a binary/compare expression; its type
    /// must equal the first's.
    fn ce_second(&mut self, at: Type) -> PResult<Value> {
        let off = self.tok.start;
        let (bt, b) = self.parse_typed_value()?;
        if bt != at {
            return Err(self.err_at(off, "operands of constexpr must have same type".into()));
        }
        Ok(b)
    }

    #[inline(never)]
    fn ce_binary(&mut self, ce: CeParts) -> PResult<Value> {
        self.expect(Tk::LParen, "expected '(' in binary constantexpr")?;
        let (at, a) = self.parse_typed_value()?;
        if ce.op == Opcode::FNeg {
            self.expect(Tk::RParen, "expected ')' in unary constantexpr")?;
            return self.ce_finish(ce, at, &[a]);
        }
        self.expect(Tk::Comma, "expected comma in binary constantexpr")?;
        let b = self.ce_second(at)?;
        self.expect(Tk::RParen, "expected ')' in binary constantexpr")?;
        self.ce_finish(ce, at, &[a, b])
    }

    #[inline(never)]
    fn ce_vector(&mut self, ce: CeParts) -> PResult<Value> {
        let op = ce.op;
        self.expect(Tk::LParen, "expected '(' in constantexpr")?;
        let mut tys: Vec<Type> = Vec::new();
        let mut ops: Vec<Value> = Vec::new();
        loop {
            let (t, v) = self.parse_typed_value()?;
            tys.push(t);
            ops.push(v);
            if !self.eat(Tk::Comma)? {
                break;
            }
        }
        self.expect(Tk::RParen, "expected ')' in constantexpr")?;
        let want = if op == Opcode::ExtractElement { 2 } else { 3 };
        if tys.len() != want {
            return Err(self.err_at(ce.start, "wrong number of operands in constantexpr".into()));
        }
        let rt = match op {
            Opcode::ExtractElement => self.scalar_of(tys[0]),
            Opcode::InsertElement => tys[0],
            Opcode::Select => tys[1],
            _ => match (
                self.m.types.get(tys[0]).clone(),
                self.m.types.get(tys[2]).clone(),
            ) {
                (TypeData::Vector { elem, .. }, TypeData::Vector { len, scalable, .. }) => {
                    self.m.types.intern(TypeData::Vector {
                        len,
                        elem,
                        scalable,
                    })
                }
                _ => return Err(self.err_at(ce.start, "invalid shufflevector operands".into())),
            },
        };
        self.ce_finish(ce, rt, &ops)
    }
}

/// The pieces of a constant expression being parsed.
struct CeParts {
    start: u32,
    /// The expected type; `None` takes the expression's own.
    ty: Option<Type>,
    op: Opcode,
    flags: InstFlags,
    source_ty: Option<Type>,
    pred: Option<Pred>,
    inrange: Option<crate::entity::Sym>,
}

/// Value of a `-?[0-9]+` / `u0x..` / `s0x..` literal modulo 2^128.
fn int_text_value(t: &[u8]) -> i128 {
    if t.len() > 3 && (t[0] == b'u' || t[0] == b's') && t[1] == b'0' && t[2] == b'x' {
        let digits = &t[3..];
        let v = hex_u128(digits) as i128;
        if t[0] == b's' {
            let w = digits.len() * 4;
            if w < 128 {
                let sh = 128 - w as u32;
                return (v << sh) >> sh;
            }
        }
        return v;
    }
    let (neg, d) = match t.first() {
        Some(b'-') => (true, &t[1..]),
        _ => (false, t),
    };
    let mut v: u128 = 0;
    for &c in d {
        v = v.wrapping_mul(10).wrapping_add((c - b'0') as u128);
    }
    let v = v as i128;
    if neg {
        v.wrapping_neg()
    } else {
        v
    }
}

/// Decimal text of a literal for an integer type wider than 128 bits.
fn wide_int_decimal(t: &[u8]) -> String {
    if t.len() > 3 && (t[0] == b'u' || t[0] == b's') && t[1] == b'0' && t[2] == b'x' {
        // Big hex -> decimal with base-1e9 limbs.
        let digits = &t[3..];
        let neg = t[0] == b's' && hexval(digits[0]).unwrap_or(0) >= 8;
        // Limbs little-endian in base 2^32.
        let mut limbs: Vec<u32> = Vec::new();
        let mut acc: Vec<u8> = digits.iter().map(|&c| hexval(c).unwrap_or(0)).collect();
        if neg {
            // Two's complement within 4*len bits: invert and add one.
            for d in acc.iter_mut() {
                *d = 15 - *d;
            }
            let mut i = acc.len();
            while i > 0 {
                i -= 1;
                if acc[i] == 15 {
                    acc[i] = 0;
                } else {
                    acc[i] += 1;
                    break;
                }
            }
        }
        let mut i = acc.len();
        while i > 0 {
            let lo = i.saturating_sub(8);
            let mut w: u32 = 0;
            for &d in &acc[lo..i] {
                w = (w << 4) | d as u32;
            }
            limbs.push(w);
            i = lo;
        }
        let mut out: Vec<u8> = Vec::new();
        while limbs.iter().any(|&l| l != 0) {
            let mut rem: u64 = 0;
            for l in limbs.iter_mut().rev() {
                let cur = (rem << 32) | *l as u64;
                *l = (cur / 10) as u32;
                rem = cur % 10;
            }
            out.push(b'0' + rem as u8);
        }
        if out.is_empty() {
            out.push(b'0');
        }
        if neg {
            out.push(b'-');
        }
        out.reverse();
        return String::from_utf8(out).unwrap_or_default();
    }
    let s = core::str::from_utf8(t).unwrap_or("0");
    let (neg, d) = match s.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, s),
    };
    let d = d.trim_start_matches('0');
    if d.is_empty() {
        return "0".into();
    }
    if neg {
        format!("-{d}")
    } else {
        d.into()
    }
}

/// Converts a double (raw bits) to `kind`'s format as LLVM's parser does;
/// `None` when the conversion loses information.
pub(crate) fn double_to_kind(d: u64, kind: FloatKind) -> Option<u128> {
    let (eb, mb) = match kind {
        FloatKind::Double => return Some(d as u128),
        FloatKind::Float => (8u32, 23u32),
        FloatKind::Half => (5, 10),
        FloatKind::BFloat => (8, 7),
        _ => return None,
    };
    narrow(d, eb, mb).map(|b| b as u128)
}

/// Round-to-nearest-even narrowing of an IEEE double to a format with `eb`
/// exponent bits and `mb` mantissa bits; `None` if inexact.
fn narrow(d: u64, eb: u32, mb: u32) -> Option<u64> {
    let sign = d >> 63;
    let exp = ((d >> 52) & 0x7ff) as i64;
    let man = d & ((1u64 << 52) - 1);
    let shift = 52 - mb;
    let sign_out = sign << (eb + mb);
    let max_exp = (1u64 << eb) - 1;
    if exp == 0x7ff {
        if man == 0 {
            return Some(sign_out | (max_exp << mb));
        }
        // NaN: truncate the payload.
        let lost = man & ((1u64 << shift) - 1);
        if lost != 0 {
            return None;
        }
        let quiet = man >> 51 & 1 == 1;
        let mut m = man >> shift;
        if !quiet {
            // LLVM re-creates a signaling NaN from the truncated payload.
            m &= !(1u64 << (mb - 1));
            if m == 0 {
                m = 1u64 << (mb - 2);
            }
        }
        return Some(sign_out | (max_exp << mb) | m);
    }
    if exp == 0 && man == 0 {
        return Some(sign_out);
    }
    // Normalize to value = sig * 2^(e), sig with 53 significant bits.
    let (mut sig, mut e) = if exp == 0 {
        (man, -1074i64)
    } else {
        (man | (1u64 << 52), exp - 1075)
    };
    // Normalize sig so its top bit is bit 52.
    while sig < (1u64 << 52) {
        sig <<= 1;
        e -= 1;
    }
    let bias = (1i64 << (eb - 1)) - 1;
    // Exponent of the leading bit.
    let lead = e + 52;
    let min_normal = 1 - bias;
    // Number of fraction bits available at this magnitude.
    let keep: i64 = if lead >= min_normal {
        mb as i64
    } else {
        mb as i64 - (min_normal - lead)
    };
    let drop = 52 - keep;
    if drop > 63 {
        return None;
    }
    let drop = drop as u32;
    let q = sig >> drop;
    if drop > 0 && sig & ((1u64 << drop) - 1) != 0 {
        return None;
    }
    if lead > bias {
        return None; // overflow
    }
    if lead >= min_normal {
        let be = (lead + bias) as u64;
        let frac = q & ((1u64 << mb) - 1);
        Some(sign_out | (be << mb) | frac)
    } else {
        // Subnormal: q holds the fraction directly.
        Some(sign_out | q)
    }
}

#[cfg(test)]
mod tests {
    use super::narrow;

    #[test]
    fn narrow_float() {
        for x in [
            1.0f64,
            -2.5,
            0.0,
            f32::from_bits(71362) as f64,
            f32::from_bits(0x0080_0000) as f64,
            3.4028234663852886e38,
            1.401298464324817e-45,
        ] {
            let f = x as f32;
            assert_eq!(narrow(x.to_bits(), 8, 23), Some(f.to_bits() as u64), "{x}");
        }
        assert_eq!(narrow(0.1f64.to_bits(), 8, 23), None);
        assert_eq!(narrow(1e300f64.to_bits(), 8, 23), None);
        assert_eq!(narrow(0x7FF8000000000000, 8, 23), Some(0x7FC00000));
        assert_eq!(narrow(f64::INFINITY.to_bits(), 8, 23), Some(0x7F800000));
        assert_eq!(narrow(1.0f64.to_bits(), 5, 10), Some(0x3C00));
        assert_eq!(narrow(65504.0f64.to_bits(), 5, 10), Some(0x7BFF));
        assert_eq!(narrow(1.0f64.to_bits(), 8, 7), Some(0x3F80));
    }
}
