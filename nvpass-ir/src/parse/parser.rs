//! Parser state, token helpers, module-level entities, types, attributes,
//! globals and function headers/bodies.

use super::lexer::{unescape, Lexer, Tk, Token};
use super::{PErr, PResult, MAX_DEPTH};
use crate::attr::{Attr, AttrGroup, AttrSet};
use crate::entity::{Block, Func, Sym, Type, Value};
use crate::inst::{CallConv, Opcode};
use crate::metadata::Attachment;
use crate::module::{
    AliasData, BlockData, FuncData, GlobalData, Keywords, Linkage, Module, Param, TopLevel,
};
use crate::short::ShortVec;
use crate::types::{FloatKind, NamedBody, TypeData};
use crate::value::{Const, User, ValueKind};
use alloc::borrow::Cow;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use cranelift_entity::packed_option::PackedOption;
use hashbrown::{HashMap, HashSet};
use smallvec::SmallVec;

/// A global or local name: `%name` / `%N`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Key {
    Name(Sym),
    Num(u32),
}

/// A function-local slot.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Local {
    V(Value),
    B(Block),
}

/// Per-function parsing state.
pub(crate) struct FnState {
    pub func: Func,
    pub fval: Value,
    pub named: HashMap<Sym, Local>,
    pub nums: Vec<Local>,
    pub fwd_nums: HashMap<u32, Local>,
    pub pending_v: HashMap<Value, (u32, Key)>,
    pub pending_b: HashMap<Block, (u32, Key)>,
}

impl FnState {
    /// Empty state for function `func` (its value `fval`), in the tables of
    /// `spare` when given: they keep the room the previous function made,
    /// so a module's functions do not each allocate and grow their own.
    fn new(func: Func, fval: Value, spare: Option<FnState>) -> Self {
        match spare {
            Some(mut st) => {
                st.func = func;
                st.fval = fval;
                st.named.clear();
                st.nums.clear();
                st.fwd_nums.clear();
                st.pending_v.clear();
                st.pending_b.clear();
                st
            }
            None => FnState {
                func,
                fval,
                named: HashMap::new(),
                nums: Vec::new(),
                fwd_nums: HashMap::new(),
                pending_v: HashMap::new(),
                pending_b: HashMap::new(),
            },
        }
    }
}

struct TypeName {
    ty: Type,
    defined: bool,
    first_use: u32,
}

/// Attribute-list context.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(crate) enum ACtx {
    Param,
    Ret,
    Fn,
    CallFn,
    Group,
    Global,
}

pub(crate) struct Parser<'a> {
    pub src: &'a [u8],
    lx: Lexer<'a>,
    pub tok: Token,
    last_end: u32,
    pub m: Module,
    pub depth: u32,
    type_names: HashMap<Sym, TypeName>,
    gfwd: HashMap<Key, (Value, u32)>,
    gnum: Vec<Value>,
    pub md_nums: super::meta::MdNumbers,
    /// First reference of each attribute group not defined when it was
    /// referenced (groups usually follow the functions naming them).
    attr_refs: HashMap<u32, u32>,
    attr_defs: HashSet<u32>,
    /// The attributes of the slot being read, kept between slots so that
    /// reading a list that repeats one read before allocates nothing
    /// ([`Parser::parse_attrs`]).
    attr_scratch: Vec<Attr>,
    comdat_defs: HashSet<Sym>,
    comdat_refs: Vec<(Sym, u32)>,
    /// Unresolved `blockaddress`: (value, function value, block key, offset).
    pub pending_ba: Vec<(Value, Value, Key, u32)>,
    pub f: Option<FnState>,
    /// The state of the last function read, kept for the next one's
    /// tables (see [`FnState::new`]).
    spare_f: Option<FnState>,
    pub ty_ptr: Type,
    pub ty_i1: Type,
    pub ty_void: Type,
    pub ty_label: Type,
    pub ty_md: Type,
}

/// The label of every block of `f`, as the text names them: a named block
/// by its name; an unnamed one by its number, counted as the reader counts
/// (unnamed parameters, then in layout order each unnamed block and each
/// unnamed instruction result).
fn block_labels(m: &Module, f: Func) -> HashMap<Key, Block> {
    let mut labels = HashMap::new();
    let unnamed = |v: Value| m.values[v].name.is_none();
    let mut n = m.funcs[f]
        .params
        .iter()
        .filter(|p| unnamed(p.value))
        .count() as u32;
    for b in m.func_blocks(f) {
        match m.blocks[b].name {
            Some(s) => labels.insert(Key::Name(s), b),
            None => {
                n += 1;
                labels.insert(Key::Num(n - 1), b)
            }
        };
        for i in m.block_insts(b) {
            if m.insts[i].result.expand().is_some_and(unnamed) {
                n += 1;
            }
        }
    }
    labels
}

/// Keywords that never start an attribute, besides the opcodes. A call's
/// return type (`float`, `ptr`) is what most often ends its return
/// attributes, so these words are tested before the opcodes.
fn is_reserved_word(kw: &[u8]) -> bool {
    matches!(
        kw,
        b"void"
            | b"half"
            | b"bfloat"
            | b"float"
            | b"double"
            | b"x86_fp80"
            | b"fp128"
            | b"ppc_fp128"
            | b"label"
            | b"metadata"
            | b"token"
            | b"x86_mmx"
            | b"x86_amx"
            | b"ptr"
            | b"target"
            | b"opaque"
            | b"type"
            | b"true"
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
            | b"asm"
            | b"catchswitch"
            | b"catchpad"
            | b"cleanuppad"
            | b"catchret"
            | b"cleanupret"
            | b"tail"
            | b"musttail"
            | b"notail"
            | b"define"
            | b"declare"
            | b"attributes"
            | b"source_filename"
            | b"module"
            | b"uselistorder"
            | b"uselistorder_bb"
            | b"global"
            | b"constant"
            | b"alias"
            | b"ifunc"
            | b"comdat"
            | b"section"
            | b"partition"
            | b"gc"
            | b"prefix"
            | b"prologue"
            | b"personality"
            | b"addrspace"
            | b"unnamed_addr"
            | b"local_unnamed_addr"
            | b"to"
            | b"unwind"
            | b"within"
    )
}

fn is_type_attr(kw: &[u8]) -> bool {
    matches!(
        kw,
        b"byval" | b"sret" | b"byref" | b"preallocated" | b"inalloca" | b"elementtype"
    )
}

fn is_preempt_vis_dll(kw: &[u8]) -> bool {
    matches!(
        kw,
        b"dso_local"
            | b"dso_preemptable"
            | b"default"
            | b"hidden"
            | b"protected"
            | b"dllimport"
            | b"dllexport"
    )
}

impl<'a> Parser<'a> {
    pub fn new(src: &'a [u8]) -> Self {
        let mut m = Module::new();
        let ty_ptr = m.types.ptr(0);
        let ty_i1 = m.types.int(1);
        let ty_void = m.types.void();
        let ty_label = m.types.intern(TypeData::Label);
        let ty_md = m.types.intern(TypeData::Metadata);
        Parser {
            src,
            lx: Lexer::new(src),
            tok: Token::START,
            last_end: 0,
            m,
            depth: 0,
            type_names: HashMap::new(),
            gfwd: HashMap::new(),
            gnum: Vec::new(),
            md_nums: Default::default(),
            attr_refs: HashMap::new(),
            attr_defs: HashSet::new(),
            attr_scratch: Vec::new(),
            comdat_defs: HashSet::new(),
            comdat_refs: Vec::new(),
            pending_ba: Vec::new(),
            f: None,
            spare_f: None,
            ty_ptr,
            ty_i1,
            ty_void,
            ty_label,
            ty_md,
        }
    }

    pub fn finish(self) -> Module {
        let mut m = self.m;
        // Use lists grew one use at a time, interleaved; their moves left
        // slots behind, which reading already compacted when they paid.
        // The tables end with the room of a size hint.
        m.settle_after_reading();
        m
    }

    /// Moves the parsing state onto another piece of source text, for
    /// [`ModuleReader`](super::ModuleReader). Only meaningful between
    /// top-level entities (no function is open). Token offsets restart at
    /// 0; offsets already recorded (forward references) are only used for
    /// errors, and the reader re-parses the whole text when there is one.
    /// `tokens` are the tokens of `src` lexed ahead, or empty, and
    /// `floats` the literal values decoded with them.
    pub fn rebase<'b>(self, src: &'b [u8], tokens: &'b [Token], floats: &'b [u64]) -> Parser<'b> {
        Parser {
            src,
            lx: Lexer::with_tokens(src, tokens, floats),
            tok: Token::START,
            last_end: 0,
            m: self.m,
            depth: 0,
            type_names: self.type_names,
            gfwd: self.gfwd,
            gnum: self.gnum,
            md_nums: self.md_nums,
            attr_refs: self.attr_refs,
            attr_defs: self.attr_defs,
            attr_scratch: self.attr_scratch,
            comdat_defs: self.comdat_defs,
            comdat_refs: self.comdat_refs,
            pending_ba: self.pending_ba,
            f: None,
            spare_f: self.spare_f,
            ty_ptr: self.ty_ptr,
            ty_i1: self.ty_i1,
            ty_void: self.ty_void,
            ty_label: self.ty_label,
            ty_md: self.ty_md,
        }
    }

    // ----- token helpers ----------------------------------------------

    /// The value of floating-point literal `t` when it was decoded as it
    /// was lexed ahead ([`Lexer::ahead_float`]).
    #[inline]
    pub fn ahead_float(&self, t: Token) -> Option<u64> {
        self.lx.ahead_float(t)
    }

    /// The opcode keyword token `t` names, if any: looked up as it was
    /// lexed ahead ([`Lexer::ahead_opcode`]), or now.
    #[inline]
    pub fn opcode_of(&self, t: Token) -> Option<Opcode> {
        match Lexer::ahead_opcode(t) {
            Some(known) => known,
            None => Opcode::from_keyword(self.text(t)),
        }
    }

    #[inline]
    pub fn bump(&mut self) -> PResult<()> {
        self.last_end = self.tok.end;
        self.tok = self.lex()?;
        Ok(())
    }

    /// The next token from the lexer, its error when it has one.
    #[inline]
    fn lex(&mut self) -> PResult<Token> {
        let t = self.lx.next();
        if t.kind == Tk::Error {
            return Err(self.lx.take_error());
        }
        Ok(t)
    }

    pub fn set_lexer_pos(&mut self, pos: usize) {
        self.lx.seek(pos);
    }

    /// The token after the current one, left for [`Parser::bump`]
    /// ([`Lexer::peek`]).
    pub fn peek(&mut self) -> PResult<Token> {
        let t = self.lx.peek();
        if t.kind == Tk::Error {
            return Err(self.lx.take_error());
        }
        Ok(t)
    }

    #[inline]
    pub fn text(&self, t: Token) -> &'a [u8] {
        &self.src[t.start as usize..t.end as usize]
    }

    #[inline]
    pub fn is_kw(&self, kw: &[u8]) -> bool {
        self.tok.kind == Tk::Keyword && self.text(self.tok) == kw
    }

    pub fn eat_kw(&mut self, kw: &[u8]) -> PResult<bool> {
        if self.is_kw(kw) {
            self.bump()?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    pub fn eat(&mut self, k: Tk) -> PResult<bool> {
        if self.tok.kind == k {
            self.bump()?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    pub fn expect(&mut self, k: Tk, msg: &str) -> PResult<()> {
        if self.tok.kind == k {
            self.bump()
        } else {
            Err(self.err(msg))
        }
    }

    pub fn expect_kw(&mut self, kw: &[u8], msg: &str) -> PResult<()> {
        if self.is_kw(kw) {
            self.bump()
        } else {
            Err(self.err(msg))
        }
    }

    // Errors are built out of line: the functions returning them are
    // small and hot (`expect`, `eat_kw`, ...), and building a message in
    // place made each of them save registers on every call.
    #[cold]
    #[inline(never)]
    pub fn err(&self, msg: &str) -> PErr {
        PErr::new(self.tok.start, msg.into())
    }

    #[cold]
    #[inline(never)]
    pub fn err_at(&self, off: u32, msg: String) -> PErr {
        PErr::new(off, msg)
    }

    pub fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err("nesting too deep"));
        }
        Ok(())
    }

    pub fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Decoded name of a `%`/`@`/`$` token (without the sigil).
    #[inline]
    pub fn var_name(&self, t: Token) -> Cow<'a, [u8]> {
        let s = &self.src[t.start as usize + 1..t.end as usize];
        if s.first() == Some(&b'"') {
            unescape(&s[1..s.len() - 1])
        } else {
            Cow::Borrowed(s)
        }
    }

    /// Decoded contents of a string token.
    pub fn str_bytes(&self, t: Token) -> Cow<'a, [u8]> {
        unescape(&self.src[t.start as usize + 1..t.end as usize - 1])
    }

    /// Decoded name of a label token (without ':').
    pub fn label_name(&self, t: Token) -> Cow<'a, [u8]> {
        let s = &self.src[t.start as usize..t.end as usize - 1];
        if s.first() == Some(&b'"') {
            unescape(&s[1..s.len() - 1])
        } else {
            Cow::Borrowed(s)
        }
    }

    /// The key of a `%x`/`%N`/`@x`/`@N` token. Inlined, so that callers
    /// hand over the token's fields rather than a copy of it.
    #[inline(always)]
    pub fn key_of(&mut self, t: Token) -> Key {
        match t.kind {
            Tk::LocalId | Tk::GlobalId => Key::Num(t.val),
            _ => {
                let n = self.var_name(t);
                Key::Name(self.m.strings.intern(&n))
            }
        }
    }

    pub fn key_str(&self, sigil: char, k: Key) -> String {
        match k {
            Key::Num(n) => format!("{sigil}{n}"),
            Key::Name(s) => format!("{sigil}{}", self.m.strings.text(s)),
        }
    }

    pub fn parse_str(&mut self, msg: &str) -> PResult<Sym> {
        if self.tok.kind != Tk::Str {
            return Err(self.err(msg));
        }
        let b = self.str_bytes(self.tok);
        let s = self.m.strings.intern(&b);
        self.bump()?;
        Ok(s)
    }

    pub fn parse_u64(&mut self, msg: &str) -> PResult<u64> {
        if self.tok.kind != Tk::Int {
            return Err(self.err(msg));
        }
        let t = self.text(self.tok);
        let mut v: u64 = 0;
        for &c in t {
            if !c.is_ascii_digit() {
                return Err(self.err(msg));
            }
            v = match v
                .checked_mul(10)
                .and_then(|v| v.checked_add((c - b'0') as u64))
            {
                Some(v) => v,
                None => return Err(self.err("integer value too large")),
            };
        }
        self.bump()?;
        Ok(v)
    }

    pub fn parse_u32(&mut self, msg: &str) -> PResult<u32> {
        let off = self.tok.start;
        let v = self.parse_u64(msg)?;
        u32::try_from(v).map_err(|_| self.err_at(off, "integer value too large".into()))
    }

    pub fn parse_align_value(&mut self) -> PResult<u64> {
        let off = self.tok.start;
        let v = self.parse_u64("expected alignment value")?;
        if !v.is_power_of_two() {
            return Err(self.err_at(off, "alignment is not a power of two".into()));
        }
        if v > 1 << 32 {
            return Err(self.err_at(off, "huge alignments are not supported yet".into()));
        }
        Ok(v)
    }

    /// `addrspace(N)`, after the keyword.
    pub fn parse_addrspace_paren(&mut self) -> PResult<u32> {
        self.expect(Tk::LParen, "expected '(' in address space")?;
        let n = self.parse_u32("expected address space number")?;
        if n >= 1 << 24 {
            return Err(self.err("invalid address space, must be a 24-bit integer"));
        }
        self.expect(Tk::RParen, "expected ')' in address space")?;
        Ok(n)
    }

    pub fn parse_opt_addrspace(&mut self) -> PResult<Option<u32>> {
        if self.eat_kw(b"addrspace")? {
            Ok(Some(self.parse_addrspace_paren()?))
        } else {
            Ok(None)
        }
    }

    /// Skips a balanced `( ... )` starting at the current '('; returns the
    /// end offset of the closing ')'.
    pub fn skip_parens(&mut self) -> PResult<u32> {
        let mut depth = 0u32;
        loop {
            match self.tok.kind {
                Tk::LParen => depth += 1,
                Tk::RParen => {
                    depth -= 1;
                    if depth == 0 {
                        let end = self.tok.end;
                        self.bump()?;
                        return Ok(end);
                    }
                }
                Tk::Eof => return Err(self.err("expected ')'")),
                _ => {}
            }
            self.bump()?;
        }
    }

    /// Fails when an instruction or constant would have more operands than
    /// a use can number ([`crate::value::Use::MAX_INDEX`]).
    pub fn check_operand_count(&self, n: usize) -> PResult<()> {
        if !operand_count_fits(n) {
            return Err(self.err("too many operands"));
        }
        Ok(())
    }

    pub fn intern_span(&mut self, start: u32, end: u32) -> Sym {
        let s = &self.src[start as usize..end as usize];
        self.m.strings.intern(s)
    }

    // ----- type helpers -----------------------------------------------

    pub fn type_str(&self, t: Type) -> String {
        let mut s = String::new();
        self.write_type(&mut s, t, 0);
        s
    }

    fn write_type(&self, s: &mut String, t: Type, d: u32) {
        if d > 12 {
            s.push_str("...");
            return;
        }
        match self.m.types.get(t) {
            TypeData::Void => s.push_str("void"),
            TypeData::Label => s.push_str("label"),
            TypeData::Metadata => s.push_str("metadata"),
            TypeData::Token => s.push_str("token"),
            TypeData::Keyword(k) => s.push_str(&self.m.strings.text(*k)),
            TypeData::Int(b) => s.push_str(&format!("i{b}")),
            TypeData::Float(k) => s.push_str(k.keyword()),
            TypeData::Ptr(0) => s.push_str("ptr"),
            TypeData::Ptr(a) => s.push_str(&format!("ptr addrspace({a})")),
            TypeData::Array(n, e) => {
                s.push_str(&format!("[{n} x "));
                self.write_type(s, *e, d + 1);
                s.push(']');
            }
            TypeData::Vector {
                len,
                elem,
                scalable,
            } => {
                s.push('<');
                if *scalable {
                    s.push_str("vscale x ");
                }
                s.push_str(&format!("{len} x "));
                self.write_type(s, *elem, d + 1);
                s.push('>');
            }
            TypeData::Struct { fields, packed } => {
                if *packed {
                    s.push('<');
                }
                s.push('{');
                for (i, f) in fields.iter().enumerate() {
                    s.push_str(if i == 0 { " " } else { ", " });
                    self.write_type(s, *f, d + 1);
                }
                s.push_str(if fields.is_empty() { "}" } else { " }" });
                if *packed {
                    s.push('>');
                }
            }
            TypeData::Named(n) => {
                s.push('%');
                s.push_str(&self.m.strings.text(*n));
            }
            TypeData::Func {
                ret,
                params,
                vararg,
            } => {
                self.write_type(s, *ret, d + 1);
                s.push_str(" (");
                for (i, p) in params.iter().enumerate() {
                    if i > 0 {
                        s.push_str(", ");
                    }
                    self.write_type(s, *p, d + 1);
                }
                if *vararg {
                    s.push_str(if params.is_empty() { "..." } else { ", ..." });
                }
                s.push(')');
            }
            TypeData::TargetExt { name, .. } => {
                s.push_str(&format!("target(\"{}\")", self.m.strings.text(*name)));
            }
        }
    }

    #[cold]
    #[inline(never)]
    pub fn mismatch(&self, off: u32, what: &str, got: Type, want: Type) -> PErr {
        self.err_at(
            off,
            format!(
                "'{}' defined with type '{}' but expected '{}'",
                what,
                self.type_str(got),
                self.type_str(want)
            ),
        )
    }

    /// `<what> has type 'A' but expected 'B'`.
    #[cold]
    #[inline(never)]
    pub fn type_err(&self, off: u32, what: &str, got: Type, want: Type) -> PErr {
        self.err_at(
            off,
            format!(
                "{} has type '{}' but expected '{}'",
                what,
                self.type_str(got),
                self.type_str(want)
            ),
        )
    }

    pub fn parse_type(&mut self) -> PResult<Type> {
        // Most types a module spells are `iN`, `ptr` in address space 0,
        // a float type or `void`, interned already, and not the return
        // type of a function type: read those here without hashing, and
        // anything else (or too deep to say) the long way. Both ways
        // report the same errors: looking at the next token early only
        // meets a lexical error the long way meets next.
        let t = self.tok;
        let mut is_ptr = false;
        let types = &self.m.types;
        let cached = match t.kind {
            Tk::IntType => types.cached_int(t.val),
            Tk::Keyword => match self.text(t) {
                b"ptr" => {
                    is_ptr = true;
                    types.cached_ptr(0)
                }
                b"float" => types.cached_float(FloatKind::Float),
                b"double" => types.cached_float(FloatKind::Double),
                b"half" => types.cached_float(FloatKind::Half),
                b"void" => Some(types.void_type()),
                _ => None,
            },
            _ => None,
        };
        if let Some(ty) = cached {
            if self.depth < MAX_DEPTH {
                let next = self.peek()?;
                let suffix = matches!(next.kind, Tk::LParen | Tk::Star)
                    || (is_ptr && next.kind == Tk::Keyword && self.text(next) == b"addrspace");
                if !suffix {
                    self.bump()?;
                    return Ok(ty);
                }
            }
        }
        self.parse_type_nested()
    }

    /// [`Parser::parse_type`] the long way, one level deeper.
    #[inline(never)]
    fn parse_type_nested(&mut self) -> PResult<Type> {
        self.enter()?;
        let r = self.parse_type_inner();
        self.leave();
        r
    }

    fn parse_type_inner(&mut self) -> PResult<Type> {
        // The fields read, not the token copied whole: that 16-byte load of
        // the token just stored in halves would wait for the stores.
        let (kind, start, val) = (self.tok.kind, self.tok.start, self.tok.val);
        let mut ty = match kind {
            Tk::IntType => {
                self.bump()?;
                self.m.types.int(val)
            }
            Tk::Keyword => self.parse_keyword_type()?,
            Tk::LocalVar | Tk::LocalId => {
                let name = match kind {
                    Tk::LocalId => self.m.strings.intern(format!("{}", val).as_bytes()),
                    _ => {
                        let n = self.var_name(self.tok);
                        self.m.strings.intern(&n)
                    }
                };
                self.bump()?;
                self.named_type_ref(name, start)
            }
            Tk::LSquare => {
                self.bump()?;
                let n = self.parse_u64("expected number in array type")?;
                self.expect_kw(b"x", "expected 'x' after element count")?;
                let e = self.parse_type()?;
                self.check_elem_type(e, start, "array")?;
                self.expect(Tk::RSquare, "expected ']' at end of array type")?;
                self.m.types.intern(TypeData::Array(n, e))
            }
            Tk::Less => {
                self.bump()?;
                if self.tok.kind == Tk::LBrace {
                    self.bump()?;
                    let fields = self.parse_struct_fields()?;
                    self.expect(Tk::Greater, "expected '>' at end of packed struct")?;
                    self.m.types.intern(TypeData::Struct {
                        fields: fields.into(),
                        packed: true,
                    })
                } else {
                    let scalable = self.eat_kw(b"vscale")?;
                    if scalable {
                        self.expect_kw(b"x", "expected 'x' after vscale")?;
                    }
                    let off = self.tok.start;
                    let n = self.parse_u32("expected number in vector type")?;
                    if n == 0 {
                        return Err(self.err_at(off, "zero element vector is illegal".into()));
                    }
                    self.expect_kw(b"x", "expected 'x' after element count")?;
                    let e = self.parse_type()?;
                    let ok = matches!(
                        self.m.types.get(e),
                        TypeData::Int(_) | TypeData::Float(_) | TypeData::Ptr(_)
                    );
                    if !ok {
                        return Err(self.err_at(start, "invalid vector element type".into()));
                    }
                    self.expect(Tk::Greater, "expected '>' at end of vector type")?;
                    self.m.types.intern(TypeData::Vector {
                        len: n,
                        elem: e,
                        scalable,
                    })
                }
            }
            Tk::LBrace => {
                self.bump()?;
                let fields = self.parse_struct_fields()?;
                self.m.types.intern(TypeData::Struct {
                    fields: fields.into(),
                    packed: false,
                })
            }
            _ => return Err(self.err("expected type")),
        };
        loop {
            match self.tok.kind {
                Tk::LParen => ty = self.parse_fn_type(ty)?,
                Tk::Star => return Err(self.err("ptr* is invalid - use ptr instead")),
                _ => return Ok(ty),
            }
        }
    }

    fn check_elem_type(&self, e: Type, off: u32, what: &str) -> PResult<()> {
        match self.m.types.get(e) {
            TypeData::Void | TypeData::Label | TypeData::Metadata | TypeData::Func { .. } => {
                Err(self.err_at(off, format!("invalid {what} element type")))
            }
            _ => Ok(()),
        }
    }

    /// `{ T, ... }` after the '{' (consumes the '}').
    fn parse_struct_fields(&mut self) -> PResult<Vec<Type>> {
        let mut fields = Vec::new();
        if self.eat(Tk::RBrace)? {
            return Ok(fields);
        }
        loop {
            let off = self.tok.start;
            let f = self.parse_type()?;
            self.check_elem_type(f, off, "structure")?;
            fields.push(f);
            if self.eat(Tk::RBrace)? {
                return Ok(fields);
            }
            self.expect(Tk::Comma, "expected ',' or '}' in struct type")?;
        }
    }

    fn parse_fn_type(&mut self, ret: Type) -> PResult<Type> {
        if matches!(
            self.m.types.get(ret),
            TypeData::Label | TypeData::Metadata | TypeData::Func { .. }
        ) {
            return Err(self.err("invalid function return type"));
        }
        self.bump()?; // (
        let mut params: SmallVec<[Type; 4]> = SmallVec::new();
        let mut vararg = false;
        if !self.eat(Tk::RParen)? {
            loop {
                if self.eat(Tk::DotDotDot)? {
                    vararg = true;
                    self.expect(Tk::RParen, "expected ')' after '...'")?;
                    break;
                }
                let off = self.tok.start;
                let p = self.parse_type()?;
                if matches!(self.m.types.get(p), TypeData::Void | TypeData::Func { .. }) {
                    return Err(self.err_at(off, "invalid function argument type".into()));
                }
                params.push(p);
                if self.eat(Tk::RParen)? {
                    break;
                }
                self.expect(Tk::Comma, "expected ',' or ')' in function type")?;
            }
        }
        Ok(self.m.types.intern(TypeData::Func {
            ret,
            params,
            vararg,
        }))
    }

    fn parse_keyword_type(&mut self) -> PResult<Type> {
        let kw = self.text(self.tok);
        // `ptr` first: it is most of the types a module spells.
        if kw == b"ptr" {
            self.bump()?;
            let a = self.parse_opt_addrspace()?.unwrap_or(0);
            return Ok(self.m.types.ptr(a));
        }
        let fk = match kw {
            b"half" => Some(FloatKind::Half),
            b"bfloat" => Some(FloatKind::BFloat),
            b"float" => Some(FloatKind::Float),
            b"double" => Some(FloatKind::Double),
            b"fp128" => Some(FloatKind::Fp128),
            b"x86_fp80" => Some(FloatKind::X86Fp80),
            b"ppc_fp128" => Some(FloatKind::PpcFp128),
            _ => None,
        };
        if let Some(k) = fk {
            self.bump()?;
            return Ok(self.m.types.intern(TypeData::Float(k)));
        }
        let data = match kw {
            b"void" => TypeData::Void,
            b"label" => TypeData::Label,
            b"metadata" => TypeData::Metadata,
            b"token" => TypeData::Token,
            b"x86_mmx" | b"x86_amx" => TypeData::Keyword(self.m.strings.intern(kw)),
            b"target" => {
                self.bump()?;
                return self.parse_target_type();
            }
            _ => return Err(self.err("expected type")),
        };
        self.bump()?;
        Ok(self.m.types.intern(data))
    }

    fn parse_target_type(&mut self) -> PResult<Type> {
        self.expect(Tk::LParen, "expected '(' in target extension type")?;
        let name = self.parse_str("expected string in target extension type")?;
        let mut types = SmallVec::new();
        let mut ints = SmallVec::new();
        while self.eat(Tk::Comma)? {
            if self.tok.kind == Tk::Int {
                ints.push(self.parse_u32("expected integer parameter")?);
            } else {
                if !ints.is_empty() {
                    return Err(self.err("expected integer parameter"));
                }
                types.push(self.parse_type()?);
            }
        }
        self.expect(Tk::RParen, "expected ')' in target extension type")?;
        Ok(self
            .m
            .types
            .intern(TypeData::TargetExt { name, types, ints }))
    }

    fn named_type_ref(&mut self, name: Sym, off: u32) -> Type {
        if let Some(e) = self.type_names.get(&name) {
            return e.ty;
        }
        let ty = self.m.types.intern(TypeData::Named(name));
        self.type_names.insert(
            name,
            TypeName {
                ty,
                defined: false,
                first_use: off,
            },
        );
        ty
    }

    // ----- module level -----------------------------------------------

    pub fn run(&mut self) -> PResult<()> {
        self.run_entities()?;
        self.validate_end()
    }

    /// Parses every top-level entity of the source, without the checks
    /// that need the whole module ([`Parser::validate_end`]).
    pub fn run_entities(&mut self) -> PResult<()> {
        self.bump()?;
        loop {
            let t = self.tok;
            match t.kind {
                Tk::Eof => break,
                Tk::Keyword => match self.text(t) {
                    b"source_filename" => {
                        self.bump()?;
                        self.expect(Tk::Equal, "expected '=' after source_filename")?;
                        self.m.source_filename = Some(self.parse_str("expected source filename")?);
                    }
                    b"target" => {
                        self.bump()?;
                        if self.eat_kw(b"datalayout")? {
                            self.expect(Tk::Equal, "expected '=' after target datalayout")?;
                            self.m.datalayout = Some(self.parse_str("expected datalayout string")?);
                        } else if self.eat_kw(b"triple")? {
                            self.expect(Tk::Equal, "expected '=' after target triple")?;
                            self.m.triple = Some(self.parse_str("expected triple string")?);
                        } else {
                            return Err(self.err("unknown target property"));
                        }
                    }
                    b"module" => {
                        self.bump()?;
                        self.expect_kw(b"asm", "expected 'module asm'")?;
                        let s = self.parse_str("expected module asm string")?;
                        self.m.module_asm.push(s);
                    }
                    b"define" | b"declare" => self.parse_function()?,
                    b"attributes" => self.parse_attr_group()?,
                    b"uselistorder" | b"uselistorder_bb" => self.parse_verbatim_uselist()?,
                    _ => return Err(self.err("expected top-level entity")),
                },
                Tk::LocalVar | Tk::LocalId => self.parse_type_def()?,
                Tk::GlobalVar | Tk::GlobalId => self.parse_global()?,
                Tk::ComdatVar => self.parse_comdat()?,
                Tk::MetaVar => self.parse_named_md()?,
                Tk::MetaId => self.parse_numbered_md()?,
                _ => return Err(self.err("expected top-level entity")),
            }
        }
        Ok(())
    }

    /// Checks that need the whole module (undefined forward references,
    /// attribute groups, comdats) and resolves late block addresses.
    pub fn validate_end(&mut self) -> PResult<()> {
        // Undefined named types.
        let mut first: Option<(u32, String)> = None;
        let mut note = |off: u32, msg: String| {
            if !matches!(&first, Some((o, _)) if *o <= off) {
                first = Some((off, msg));
            }
        };
        for (name, e) in &self.type_names {
            if !e.defined {
                note(
                    e.first_use,
                    format!("undefined type '%{}'", self.m.strings.text(*name)),
                );
            }
        }
        for (k, (_, off)) in &self.gfwd {
            note(
                *off,
                format!("use of undefined value '{}'", self.key_str('@', *k)),
            );
        }
        for (n, off) in self.md_nums.undefined() {
            note(off, format!("use of undefined metadata '!{n}'"));
        }
        for (id, off) in &self.attr_refs {
            if !self.attr_defs.contains(id) {
                note(*off, format!("undefined attribute group '#{id}'"));
            }
        }
        for (c, off) in &self.comdat_refs {
            if !self.comdat_defs.contains(c) {
                note(
                    *off,
                    format!("use of undefined comdat '${}'", self.m.strings.text(*c)),
                );
            }
        }
        if let Some((off, msg)) = first {
            return Err(self.err_at(off, msg));
        }
        // Block addresses naming other functions: their labels are
        // rebuilt only for the functions named.
        let mut labels: HashMap<Func, HashMap<Key, Block>> = HashMap::new();
        for (v, fv, key, off) in core::mem::take(&mut self.pending_ba) {
            let f = match self.m.values[fv].kind {
                ValueKind::Func(f) if self.m.funcs[f].is_definition => f,
                _ => return Err(self.err_at(off, "expected function name in blockaddress".into())),
            };
            let found = labels
                .entry(f)
                .or_insert_with(|| block_labels(&self.m, f))
                .get(&key)
                .copied();
            let Some(b) = found else {
                return Err(self.err_at(
                    off,
                    format!(
                        "referenced value is not a basic block '{}'",
                        self.key_str('%', key)
                    ),
                ));
            };
            let c = self.m.const_data.push(Const::BlockAddress(f, b));
            self.m.values[v].kind = ValueKind::Const(c);
            if let Some((&o, rest)) = self.m.value_ops(v).split_last() {
                let rest: alloc::boxed::Box<[_]> = rest.into();
                self.m.remove_use(o);
                self.m.set_value_ops(v, rest);
            }
        }
        Ok(())
    }

    fn parse_verbatim_uselist(&mut self) -> PResult<()> {
        let start = self.tok.start;
        loop {
            match self.tok.kind {
                Tk::RBrace => break,
                Tk::Eof => return Err(self.err("expected '}' in uselistorder")),
                _ => self.bump()?,
            }
        }
        let end = self.tok.end;
        self.bump()?;
        let s = self.intern_span(start, end);
        self.m.verbatim.push(s);
        Ok(())
    }

    fn parse_type_def(&mut self) -> PResult<()> {
        let t = self.tok;
        let name = match t.kind {
            Tk::LocalId => self.m.strings.intern(format!("{}", t.val).as_bytes()),
            _ => {
                let n = self.var_name(t);
                self.m.strings.intern(&n)
            }
        };
        self.bump()?;
        self.expect(Tk::Equal, "expected '=' after name")?;
        self.expect_kw(b"type", "expected 'type' after '='")?;
        if let Some(e) = self.type_names.get(&name) {
            if e.defined {
                return Err(self.err_at(
                    t.start,
                    format!("redefinition of type '%{}'", self.m.strings.text(name)),
                ));
            }
        }
        if self.eat_kw(b"opaque")? {
            let ty = self.named_type_ref(name, t.start);
            if let Some(e) = self.type_names.get_mut(&name) {
                e.defined = true;
            }
            let _ = ty;
            return Ok(());
        }
        let packed = self.tok.kind == Tk::Less && self.peek()?.kind == Tk::LBrace;
        if self.tok.kind == Tk::LBrace || packed {
            let ty = self.named_type_ref(name, t.start);
            if let Some(e) = self.type_names.get_mut(&name) {
                e.defined = true;
            }
            self.bump()?;
            if packed {
                self.bump()?;
            }
            self.enter()?;
            let fields = self.parse_struct_fields()?;
            self.leave();
            if packed {
                self.expect(Tk::Greater, "expected '>' at end of packed struct")?;
            }
            self.m
                .types
                .set_named_body(ty, NamedBody::Body { fields, packed });
            return Ok(());
        }
        // A non-struct type: the name becomes an alias.
        if self.type_names.contains_key(&name) {
            return Err(self.err_at(
                t.start,
                format!(
                    "forward reference to non-struct type '%{}'",
                    self.m.strings.text(name)
                ),
            ));
        }
        let ty = self.parse_type()?;
        self.type_names.insert(
            name,
            TypeName {
                ty,
                defined: true,
                first_use: t.start,
            },
        );
        Ok(())
    }

    fn parse_comdat(&mut self) -> PResult<()> {
        let t = self.tok;
        let n = self.var_name(t);
        let name = self.m.strings.intern(&n);
        self.bump()?;
        self.expect(Tk::Equal, "expected '=' here")?;
        self.expect_kw(b"comdat", "expected comdat keyword")?;
        let kind = match self.tok.kind {
            Tk::Keyword
                if matches!(
                    self.text(self.tok),
                    b"any" | b"exactmatch" | b"largest" | b"nodeduplicate" | b"samesize"
                ) =>
            {
                self.intern_span(self.tok.start, self.tok.end)
            }
            _ => return Err(self.err("unknown selection kind")),
        };
        self.bump()?;
        if !self.comdat_defs.insert(name) {
            return Err(self.err_at(
                t.start,
                format!("redefinition of comdat '${}'", self.m.strings.text(name)),
            ));
        }
        self.m.comdats.push((name, kind));
        Ok(())
    }

    /// `comdat` / `comdat($name)` after the keyword; `own` is the name of
    /// the global (for the bare form).
    fn parse_comdat_ref(&mut self, own: Option<Sym>, off: u32) -> PResult<Option<Sym>> {
        if self.eat(Tk::LParen)? {
            if self.tok.kind != Tk::ComdatVar {
                return Err(self.err("expected comdat variable"));
            }
            let n = self.var_name(self.tok);
            let s = self.m.strings.intern(&n);
            let o = self.tok.start;
            self.bump()?;
            self.expect(Tk::RParen, "expected ')' after comdat var")?;
            self.comdat_refs.push((s, o));
            Ok(Some(s))
        } else {
            match own {
                Some(s) => self.comdat_refs.push((s, off)),
                None => return Err(self.err_at(off, "comdat cannot be unnamed".into())),
            }
            Ok(None)
        }
    }

    fn parse_attr_group(&mut self) -> PResult<()> {
        self.bump()?;
        if self.tok.kind != Tk::AttrGrpId {
            return Err(self.err("expected attribute group id"));
        }
        let id = self.tok.val;
        let off = self.tok.start;
        self.bump()?;
        self.expect(Tk::Equal, "expected '=' here")?;
        self.expect(Tk::LBrace, "expected '{' here")?;
        let set = self.parse_attrs(ACtx::Group, None)?;
        self.expect(Tk::RBrace, "expected end of attribute group")?;
        if !self.attr_defs.insert(id) {
            return Err(self.err_at(off, format!("redefinition of attribute group '#{id}'")));
        }
        self.m.attr_groups.push(AttrGroup {
            id,
            attrs: set.attrs.iter().cloned().collect(),
        });
        Ok(())
    }

    // ----- attributes -------------------------------------------------

    /// Parses the attributes of one slot, up to a token that cannot start
    /// one. `fn_align` receives a function's `align N`.
    ///
    /// Most slots have none: a parameter's type is followed by its name, a
    /// call's return type by the callee. A token that starts no attribute
    /// (only a string, an attribute group or a keyword can) gives the
    /// empty set here, without the list machinery.
    #[inline]
    pub fn parse_attrs(
        &mut self,
        ctx: ACtx,
        fn_align: Option<&mut Option<u64>>,
    ) -> PResult<AttrSet> {
        if !matches!(self.tok.kind, Tk::Str | Tk::AttrGrpId | Tk::Keyword) {
            return Ok(AttrSet::default());
        }
        self.parse_attr_list(ctx, fn_align)
    }

    /// [`Parser::parse_attrs`] from a token that may start an attribute.
    fn parse_attr_list(
        &mut self,
        ctx: ACtx,
        fn_align: Option<&mut Option<u64>>,
    ) -> PResult<AttrSet> {
        // Read into a buffer, and make a list only for one not met before:
        // most slots repeat a few lists (`noundef`, `nocapture noundef`).
        let mut attrs = core::mem::take(&mut self.attr_scratch);
        attrs.clear();
        let mut set = AttrSet::default();
        let r = self.parse_attrs_inner(ctx, &mut attrs, &mut set.groups, fn_align);
        if r.is_ok() {
            set.attrs = self.m.share_attr_items(&attrs);
        }
        self.attr_scratch = attrs;
        r.map(|()| set)
    }

    fn parse_attrs_inner(
        &mut self,
        ctx: ACtx,
        attrs: &mut Vec<Attr>,
        groups: &mut ShortVec<u32, 2>,
        mut fn_align: Option<&mut Option<u64>>,
    ) -> PResult<()> {
        loop {
            let t = self.tok;
            match t.kind {
                Tk::Str => {
                    if ctx == ACtx::Param && self.peek()?.kind != Tk::Equal {
                        // A bare string key is allowed as well.
                    }
                    let key = self.str_bytes(t);
                    let key = self.m.strings.intern(&key);
                    self.bump()?;
                    let value = if self.eat(Tk::Equal)? {
                        Some(self.parse_str("expected string value after '='")?)
                    } else {
                        None
                    };
                    attrs.push(Attr::Str { key, value });
                }
                Tk::AttrGrpId => {
                    if !matches!(ctx, ACtx::Fn | ACtx::CallFn | ACtx::Global) {
                        return Err(self.err("attribute group reference not allowed here"));
                    }
                    let id = t.val;
                    if !self.attr_defs.contains(&id) {
                        self.attr_refs.entry(id).or_insert(t.start);
                    }
                    groups.push(t.val);
                    self.bump()?;
                }
                Tk::Keyword => {
                    let kw = self.text(t);
                    if is_reserved_word(kw) || self.opcode_of(t).is_some() {
                        return Ok(());
                    }
                    if kw == b"align" {
                        if let Some(a) = fn_align.as_deref_mut() {
                            if self.peek()?.kind == Tk::Int {
                                self.bump()?;
                                *a = Some(self.parse_align_value()?);
                                continue;
                            }
                        }
                    }
                    let kind = self.m.strings.intern(kw);
                    self.bump()?;
                    match self.tok.kind {
                        Tk::LParen => {
                            if is_type_attr(kw) {
                                self.bump()?;
                                let ty = self.parse_type()?;
                                self.expect(Tk::RParen, "expected ')' after type attribute")?;
                                attrs.push(Attr::Type { kind, ty });
                                continue;
                            }
                            if matches!(
                                kw,
                                b"align"
                                    | b"alignstack"
                                    | b"dereferenceable"
                                    | b"dereferenceable_or_null"
                            ) && self.peek()?.kind == Tk::Int
                            {
                                self.bump()?;
                                let value = if kw == b"align" || kw == b"alignstack" {
                                    self.parse_align_value()?
                                } else {
                                    self.parse_u64("expected integer")?
                                };
                                if self.tok.kind == Tk::RParen {
                                    self.bump()?;
                                    attrs.push(Attr::Int {
                                        kind,
                                        value,
                                        paren: true,
                                    });
                                    continue;
                                }
                                return Err(self.err("expected ')'"));
                            }
                            let end = self.skip_parens()?;
                            let text = self.intern_span(t.start, end);
                            attrs.push(Attr::Raw { kind, text });
                        }
                        Tk::Equal if ctx == ACtx::Group => {
                            self.bump()?;
                            let end = self.tok.end;
                            if self.tok.kind != Tk::Int {
                                return Err(self.err("expected integer after '='"));
                            }
                            self.bump()?;
                            let text = self.intern_span(t.start, end);
                            attrs.push(Attr::Raw { kind, text });
                        }
                        _ if kw == b"align" => {
                            let value = self.parse_align_value()?;
                            attrs.push(Attr::Int {
                                kind,
                                value,
                                paren: false,
                            });
                        }
                        _ => attrs.push(Attr::Enum(kind)),
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    /// Optional calling convention.
    pub fn parse_cc(&mut self) -> PResult<CallConv> {
        if self.tok.kind != Tk::Keyword {
            return Ok(CallConv::C);
        }
        let kw = self.text(self.tok);
        let cc = match kw {
            b"ccc" => CallConv::C,
            b"fastcc" => CallConv::Fast,
            b"coldcc" => CallConv::Cold,
            b"ptx_kernel" => CallConv::PtxKernel,
            b"ptx_device" => CallConv::PtxDevice,
            _ if kw.starts_with(b"cc") => {
                let n = if kw.len() > 2 {
                    if !kw[2..].iter().all(|c| c.is_ascii_digit()) {
                        return Ok(CallConv::C);
                    }
                    let s = core::str::from_utf8(&kw[2..]).unwrap_or("x");
                    match s.parse::<u32>() {
                        Ok(n) => n,
                        Err(_) => return Err(self.err("invalid calling convention number")),
                    }
                } else if kw == b"cc" {
                    self.bump()?;
                    let n = self.parse_u32("expected calling convention number")?;
                    return Ok(self.cc_from_num(n));
                } else {
                    return Ok(CallConv::C);
                };
                self.bump()?;
                return Ok(self.cc_from_num(n));
            }
            _ if kw.ends_with(b"cc")
                || kw.starts_with(b"x86_")
                || kw.starts_with(b"arm_")
                || kw.starts_with(b"aarch64_")
                || kw.starts_with(b"amdgpu_")
                || kw.starts_with(b"spir_")
                || kw.starts_with(b"riscv_")
                || kw.starts_with(b"msp430_")
                || kw.starts_with(b"avr_")
                || kw.starts_with(b"m68k_")
                || matches!(
                    kw,
                    b"anyregcc"
                        | b"preserve_mostcc"
                        | b"preserve_allcc"
                        | b"preserve_nonecc"
                        | b"swiftcc"
                        | b"swifttailcc"
                        | b"cfguard_checkcc"
                        | b"tailcc"
                        | b"ghccc"
                        | b"hhvmcc"
                        | b"hhvm_ccc"
                        | b"intel_ocl_bicc"
                        | b"win64cc"
                        | b"cxx_fast_tlscc"
                        | b"webkit_jscc"
                        | b"graalcc"
                ) =>
            {
                if kw.starts_with(b"x86_")
                    && (kw == b"x86_fp80" || kw == b"x86_mmx" || kw == b"x86_amx")
                {
                    return Ok(CallConv::C);
                }
                CallConv::Other(self.m.strings.intern(kw))
            }
            _ => return Ok(CallConv::C),
        };
        self.bump()?;
        Ok(cc)
    }

    fn cc_from_num(&mut self, n: u32) -> CallConv {
        match n {
            0 => CallConv::C,
            8 => CallConv::Fast,
            9 => CallConv::Cold,
            71 => CallConv::PtxKernel,
            72 => CallConv::PtxDevice,
            _ => CallConv::Other(self.m.strings.intern(format!("cc{n}").as_bytes())),
        }
    }

    // ----- global symbols ---------------------------------------------

    /// The global named by the token at `start` whose key is `key`, of
    /// pointer type `ty`: defined already, or a placeholder until it is.
    pub fn global_ref(&mut self, key: Key, start: u32, ty: Type) -> PResult<Value> {
        if self.m.types.ptr_addrspace(ty).is_none() {
            return Err(self.err_at(
                start,
                "global variable reference must have pointer type".into(),
            ));
        }
        let found = match key {
            Key::Name(s) => self.m.symbols.get(s),
            Key::Num(n) => self.gnum.get(n as usize).copied(),
        };
        let v = match found {
            Some(v) => v,
            None => match self.gfwd.get(&key) {
                Some(&(v, _)) => v,
                None => {
                    let name = match key {
                        Key::Name(s) => Some(s),
                        Key::Num(_) => None,
                    };
                    let v = self.m.new_value(ty, ValueKind::Placeholder, name);
                    self.gfwd.insert(key, (v, start));
                    return Ok(v);
                }
            },
        };
        let vt = self.m.ty(v);
        if vt != ty {
            let what = self.key_str('@', key);
            return Err(self.mismatch(start, &what, vt, ty));
        }
        Ok(v)
    }

    /// Defines global `key` with pointer type `ty`, reusing a forward
    /// reference's value.
    fn define_global(&mut self, t: Token, ty: Type, kind: ValueKind) -> PResult<Value> {
        let key = self.key_of(t);
        match key {
            Key::Name(s) => {
                if self.m.symbols.contains(s) {
                    return Err(self.err_at(
                        t.start,
                        format!("redefinition of global '{}'", self.key_str('@', key)),
                    ));
                }
            }
            Key::Num(n) => {
                if n as usize != self.gnum.len() {
                    return Err(self.err_at(
                        t.start,
                        format!("variable expected to be numbered '@{}'", self.gnum.len()),
                    ));
                }
            }
        }
        let name = match key {
            Key::Name(s) => Some(s),
            Key::Num(_) => None,
        };
        let v = match self.gfwd.remove(&key) {
            Some((v, off)) => {
                let vt = self.m.ty(v);
                if vt != ty {
                    let what = self.key_str('@', key);
                    return Err(self.mismatch(off, &what, ty, vt));
                }
                self.m.values[v].kind = kind;
                v
            }
            None => self.m.new_value(ty, kind, name),
        };
        match key {
            Key::Name(s) => {
                self.m.symbols.insert(s, v);
            }
            Key::Num(_) => self.gnum.push(v),
        }
        Ok(v)
    }

    fn parse_linkage(&mut self) -> PResult<(Linkage, bool)> {
        if self.tok.kind == Tk::Keyword {
            if let Some(l) = Linkage::from_keyword(self.text(self.tok)) {
                self.bump()?;
                return Ok((l, true));
            }
        }
        Ok((Linkage::External, false))
    }

    fn parse_global(&mut self) -> PResult<()> {
        let name_tok = self.tok;
        self.bump()?;
        self.expect(Tk::Equal, "expected '=' in global variable")?;
        let (linkage, explicit) = self.parse_linkage()?;
        let mut keywords = Keywords::new();
        let mut addrspace = 0;
        loop {
            if self.tok.kind != Tk::Keyword {
                break;
            }
            let kw = self.text(self.tok);
            if is_preempt_vis_dll(kw)
                || matches!(
                    kw,
                    b"unnamed_addr" | b"local_unnamed_addr" | b"externally_initialized"
                )
            {
                let s = self.m.strings.intern(kw);
                keywords.push(s);
                self.bump()?;
            } else if kw == b"thread_local" {
                let start = self.tok.start;
                self.bump()?;
                let mut end = self.prev_end();
                if self.tok.kind == Tk::LParen {
                    end = self.skip_parens()?;
                }
                let s = self.intern_span(start, end);
                keywords.push(s);
            } else if kw == b"addrspace" {
                self.bump()?;
                addrspace = self.parse_addrspace_paren()?;
            } else {
                break;
            }
        }
        if self.is_kw(b"alias") || self.is_kw(b"ifunc") {
            return self.parse_alias(name_tok, linkage, keywords);
        }
        let is_constant = if self.eat_kw(b"constant")? {
            true
        } else if self.eat_kw(b"global")? {
            false
        } else {
            return Err(self.err("expected 'global' or 'constant'"));
        };
        let ty_off = self.tok.start;
        let value_ty = self.parse_type()?;
        if matches!(
            self.m.types.get(value_ty),
            TypeData::Void | TypeData::Label | TypeData::Metadata | TypeData::Func { .. }
        ) {
            return Err(self.err_at(ty_off, "invalid type for global variable".into()));
        }
        let has_init = !(explicit && matches!(linkage, Linkage::External | Linkage::ExternWeak));
        let init = if has_init {
            Some(self.parse_value(value_ty)?)
        } else {
            None
        };
        let own = match self.key_of(name_tok) {
            Key::Name(s) => Some(s),
            Key::Num(_) => None,
        };
        let mut tail = SmallVec::new();
        let mut align = None;
        let mut md = ShortVec::new();
        while self.eat(Tk::Comma)? {
            let start = self.tok.start;
            if self.tok.kind == Tk::MetaVar {
                md.push(self.parse_attachment()?);
                continue;
            }
            if self.tok.kind != Tk::Keyword {
                return Err(self.err("unknown global variable property"));
            }
            match self.text(self.tok) {
                b"section" | b"partition" | b"code_model" => {
                    self.bump()?;
                    self.parse_str("expected string")?;
                }
                b"align" => {
                    self.bump()?;
                    align = Some(self.parse_align_value()?);
                }
                b"comdat" => {
                    self.bump()?;
                    self.parse_comdat_ref(own, start)?;
                }
                b"no_sanitize_address"
                | b"no_sanitize_hwaddress"
                | b"sanitize_address_dyninit"
                | b"sanitize_memtag" => self.bump()?,
                _ => return Err(self.err("unknown global variable property")),
            }
            let end = self.prev_end();
            tail.push(self.intern_span(start, end));
        }
        let attrs = self.parse_attrs(ACtx::Global, None)?;
        let g = self.m.globals.next_key();
        let pty = self.m.types.ptr(addrspace);
        let value = self.define_global(name_tok, pty, ValueKind::Global(g))?;
        let init = init.map(|v| self.m.add_use(v, User::GlobalInit(g), 0));
        self.m.globals.push(GlobalData {
            value,
            linkage,
            keywords,
            addrspace,
            is_constant,
            value_ty,
            init,
            tail,
            align,
            attrs,
            md,
            erased: false,
        });
        self.m.order.push(TopLevel::Global(g));
        Ok(())
    }

    /// End offset of the previously consumed token.
    pub fn prev_end(&self) -> u32 {
        self.last_end
    }

    fn parse_alias(
        &mut self,
        name_tok: Token,
        linkage: Linkage,
        keywords: Keywords,
    ) -> PResult<()> {
        let is_ifunc = self.is_kw(b"ifunc");
        self.bump()?;
        let value_ty = self.parse_type()?;
        self.expect(Tk::Comma, "expected comma after alias or ifunc's type")?;
        let off = self.tok.start;
        let (aty, target) = match self.parse_untyped_const_expr() {
            // LLVM's spelling of expression targets: no type in front.
            Some(target) => {
                let target = target?;
                let aty = self.m.ty(target);
                if self.m.types.ptr_addrspace(aty).is_none() {
                    return Err(self.err_at(off, "An alias or ifunc must have pointer type".into()));
                }
                (aty, target)
            }
            None => {
                let aty = self.parse_type()?;
                if self.m.types.ptr_addrspace(aty).is_none() {
                    return Err(self.err_at(off, "An alias or ifunc must have pointer type".into()));
                }
                (aty, self.parse_value(aty)?)
            }
        };
        let mut tail = SmallVec::new();
        while self.eat(Tk::Comma)? {
            let start = self.tok.start;
            if self.is_kw(b"partition") {
                self.bump()?;
                self.parse_str("expected partition string")?;
            } else {
                return Err(self.err("unknown alias or ifunc property"));
            }
            let end = self.prev_end();
            tail.push(self.intern_span(start, end));
        }
        let a = self.m.aliases.next_key();
        let value = self.define_global(name_tok, aty, ValueKind::Alias(a))?;
        let target = self.m.add_use(target, User::Alias(a), 0);
        self.m.aliases.push(AliasData {
            value,
            is_ifunc,
            linkage,
            keywords,
            value_ty,
            target,
            tail,
        });
        self.m.order.push(TopLevel::Alias(a));
        Ok(())
    }

    // ----- functions --------------------------------------------------

    fn parse_function(&mut self) -> PResult<()> {
        let is_definition = self.is_kw(b"define");
        self.bump()?;
        let mut md = ShortVec::new();
        while self.tok.kind == Tk::MetaVar {
            md.push(self.parse_attachment()?);
        }
        let (linkage, _) = self.parse_linkage()?;
        let mut keywords = Keywords::new();
        while self.tok.kind == Tk::Keyword && is_preempt_vis_dll(self.text(self.tok)) {
            let s = self.m.strings.intern(self.text(self.tok));
            keywords.push(s);
            self.bump()?;
        }
        let cc = self.parse_cc()?;
        let ret_attrs = self.parse_attrs(ACtx::Ret, None)?;
        let ret_off = self.tok.start;
        let ret = self.parse_type()?;
        if matches!(
            self.m.types.get(ret),
            TypeData::Label | TypeData::Metadata | TypeData::Func { .. }
        ) {
            return Err(self.err_at(ret_off, "invalid function return type".into()));
        }
        let name_tok = self.tok;
        if !matches!(name_tok.kind, Tk::GlobalVar | Tk::GlobalId) {
            return Err(self.err("expected function name"));
        }
        self.bump()?;
        self.expect(Tk::LParen, "expected '(' in function argument list")?;
        // Parameters: (type, attrs, name key, offset).
        let mut params: Vec<(Type, AttrSet, Option<Key>, u32)> = Vec::new();
        let mut vararg = false;
        if !self.eat(Tk::RParen)? {
            loop {
                if self.eat(Tk::DotDotDot)? {
                    vararg = true;
                    self.expect(Tk::RParen, "expected ')' at end of argument list")?;
                    break;
                }
                let off = self.tok.start;
                let ty = self.parse_type()?;
                if matches!(
                    self.m.types.get(ty),
                    TypeData::Void | TypeData::Label | TypeData::Func { .. }
                ) {
                    return Err(self.err_at(off, "invalid type for function argument".into()));
                }
                let attrs = self.parse_attrs(ACtx::Param, None)?;
                let name = match self.tok.kind {
                    Tk::LocalVar | Tk::LocalId => {
                        let t = self.tok;
                        let k = self.key_of(t);
                        self.bump()?;
                        Some((k, t.start))
                    }
                    _ => None,
                };
                params.push((ty, attrs, name.map(|n| n.0), name.map_or(off, |n| n.1)));
                if self.eat(Tk::RParen)? {
                    break;
                }
                self.expect(Tk::Comma, "expected ',' or ')' in argument list")?;
            }
        }
        let mut unnamed_addr = None;
        if self.is_kw(b"unnamed_addr") || self.is_kw(b"local_unnamed_addr") {
            unnamed_addr = Some(self.m.strings.intern(self.text(self.tok)));
            self.bump()?;
        }
        let addrspace = self.parse_opt_addrspace()?;
        let mut align = None;
        let fn_attrs = self.parse_attrs(ACtx::Fn, Some(&mut align))?;
        let (mut section, mut partition, mut comdat, mut gc) = (None, None, None, None);
        let mut extra: [Option<Value>; 3] = [None; 3];
        let own = match self.key_of(name_tok) {
            Key::Name(s) => Some(s),
            Key::Num(_) => None,
        };
        loop {
            if self.tok.kind != Tk::Keyword {
                break;
            }
            let off = self.tok.start;
            match self.text(self.tok) {
                b"section" => {
                    self.bump()?;
                    section = Some(self.parse_str("expected section name")?);
                }
                b"partition" => {
                    self.bump()?;
                    partition = Some(self.parse_str("expected partition name")?);
                }
                b"comdat" => {
                    self.bump()?;
                    comdat = Some(self.parse_comdat_ref(own, off)?);
                }
                b"align" => {
                    self.bump()?;
                    align = Some(self.parse_align_value()?);
                }
                b"gc" => {
                    self.bump()?;
                    gc = Some(self.parse_str("expected gc name")?);
                }
                b"prefix" | b"prologue" | b"personality" => {
                    let i = match self.text(self.tok) {
                        b"personality" => 0,
                        b"prefix" => 1,
                        _ => 2,
                    };
                    self.bump()?;
                    let (_, v) = self.parse_typed_value()?;
                    extra[i] = Some(v);
                }
                _ => break,
            }
        }
        // `!name` followed by `=` starts named metadata on the next line of a
        // declaration, not an attachment.
        while self.tok.kind == Tk::MetaVar && self.peek()?.kind != Tk::Equal {
            md.push(self.parse_attachment()?);
        }
        // Create the function.
        let f = self.m.funcs.next_key();
        let pty = self.m.types.ptr(addrspace.unwrap_or(0));
        let fval = self.define_global(name_tok, pty, ValueKind::Func(f))?;
        let fty = self.m.types.intern(TypeData::Func {
            ret,
            params: params.iter().map(|p| p.0).collect(),
            vararg,
        });
        let mut st = FnState::new(f, fval, self.spare_f.take());
        let mut plist = Vec::with_capacity(params.len());
        for (i, (ty, attrs, key, off)) in params.into_iter().enumerate() {
            let name = match key {
                Some(Key::Name(s)) => Some(s),
                _ => None,
            };
            let v = self.m.new_value(
                ty,
                ValueKind::Arg {
                    func: f,
                    index: i as u32,
                },
                name,
            );
            match key {
                Some(Key::Name(s)) => {
                    if st.named.insert(s, Local::V(v)).is_some() {
                        return Err(self.err_at(
                            off,
                            format!(
                                "redefinition of value '{}'",
                                self.key_str('%', Key::Name(s))
                            ),
                        ));
                    }
                }
                Some(Key::Num(n)) if n as usize != st.nums.len() => {
                    return Err(self.err_at(
                        off,
                        format!("argument expected to be numbered '%{}'", st.nums.len()),
                    ));
                }
                _ => st.nums.push(Local::V(v)),
            }
            plist.push(Param { value: v, attrs });
        }
        let mut extra_ops = [None; 3];
        for (i, v) in extra.iter().enumerate() {
            if let Some(v) = *v {
                extra_ops[i] = Some(self.m.add_use(v, User::Func(f), i as u32));
            }
        }
        self.m.funcs.push(FuncData {
            value: fval,
            is_definition,
            linkage,
            keywords,
            cc,
            ret_attrs,
            ty: fty,
            params: plist,
            unnamed_addr,
            fn_attrs,
            extras: crate::module::FuncExtras {
                addrspace,
                section,
                partition,
                comdat,
                align,
                gc,
                extra_ops,
            }
            .boxed(),
            md,
            first_block: PackedOption::default(),
            last_block: PackedOption::default(),
            erased: false,
        });
        self.m.order.push(TopLevel::Func(f));
        if !is_definition {
            return Ok(());
        }
        self.f = Some(st);
        let r = self.parse_body();
        let st = self.f.take();
        r?;
        if let Some(st) = st {
            self.finish_function(&st)?;
            self.spare_f = Some(st);
        }
        Ok(())
    }

    fn parse_body(&mut self) -> PResult<()> {
        self.expect(Tk::LBrace, "expected '{' in function body")?;
        if self.tok.kind == Tk::RBrace {
            return Err(self.err("function body requires at least one basic block"));
        }
        while self.tok.kind != Tk::RBrace {
            if self.is_kw(b"uselistorder") || self.is_kw(b"uselistorder_bb") {
                self.parse_verbatim_uselist()?;
                continue;
            }
            self.parse_block()?;
        }
        self.bump()
    }

    fn finish_function(&mut self, st: &FnState) -> PResult<()> {
        let mut first: Option<(u32, Key)> = None;
        for &(off, k) in st.pending_v.values().chain(st.pending_b.values()) {
            if !matches!(first, Some((o, _)) if o <= off) {
                first = Some((off, k));
            }
        }
        if let Some((off, k)) = first {
            return Err(self.err_at(
                off,
                format!("use of undefined value '{}'", self.key_str('%', k)),
            ));
        }
        Ok(())
    }

    // ----- function-local names ---------------------------------------

    pub fn fstate(&mut self) -> &mut FnState {
        self.f.as_mut().expect("inside a function")
    }

    /// The local value named by the token at `start` whose key is `key`,
    /// of type `ty`: defined already, or a placeholder until it is.
    pub fn local_value(&mut self, key: Key, start: u32, ty: Type) -> PResult<Value> {
        if self.f.is_none() {
            return Err(self.err_at(start, "invalid use of function-local name".into()));
        }
        let found = {
            let st = self.f.as_ref().unwrap_or_else(|| unreachable!());
            match key {
                Key::Name(s) => st.named.get(&s).copied(),
                Key::Num(n) => st
                    .nums
                    .get(n as usize)
                    .copied()
                    .or_else(|| st.fwd_nums.get(&n).copied()),
            }
        };
        match found {
            Some(Local::V(v)) => {
                let vt = self.m.ty(v);
                if vt != ty {
                    let what = self.key_str('%', key);
                    return Err(self.mismatch(start, &what, vt, ty));
                }
                Ok(v)
            }
            Some(Local::B(_)) => {
                let what = self.key_str('%', key);
                Err(self.mismatch(start, &what, self.ty_label, ty))
            }
            None => {
                if matches!(self.m.types.get(ty), TypeData::Void | TypeData::Label) {
                    return Err(self.err_at(start, "invalid use of a non-first-class type".into()));
                }
                let name = match key {
                    Key::Name(s) => Some(s),
                    Key::Num(_) => None,
                };
                let v = self.m.new_value(ty, ValueKind::Placeholder, name);
                let st = self.fstate();
                match key {
                    Key::Name(s) => {
                        st.named.insert(s, Local::V(v));
                    }
                    Key::Num(n) => {
                        st.fwd_nums.insert(n, Local::V(v));
                    }
                }
                st.pending_v.insert(v, (start, key));
                Ok(v)
            }
        }
    }

    fn new_block(&mut self, f: Func, name: Option<Sym>) -> Block {
        let seg = self.m.next_block_seg();
        self.m.blocks.push(BlockData {
            name,
            func: f,
            first: PackedOption::default(),
            last: PackedOption::default(),
            prev: PackedOption::default(),
            next: PackedOption::default(),
            erased: false,
            seg,
        })
    }

    fn link_block(&mut self, f: Func, b: Block) {
        let last = self.m.funcs[f].last_block;
        self.m.blocks[b].prev = last;
        match last.expand() {
            Some(l) => self.m.blocks[l].next = b.into(),
            None => self.m.funcs[f].first_block = b.into(),
        }
        self.m.funcs[f].last_block = b.into();
    }

    /// The block named by the local name token at `start` whose key is
    /// `key`: defined already, or a new one until it is.
    pub fn local_block(&mut self, key: Key, start: u32) -> PResult<Block> {
        let Some(st) = self.f.as_ref() else {
            return Err(self.err_at(start, "invalid use of function-local name".into()));
        };
        let f = st.func;
        let found = match key {
            Key::Name(s) => st.named.get(&s).copied(),
            Key::Num(n) => st
                .nums
                .get(n as usize)
                .copied()
                .or_else(|| st.fwd_nums.get(&n).copied()),
        };
        match found {
            Some(Local::B(b)) => Ok(b),
            Some(Local::V(v)) => {
                let what = self.key_str('%', key);
                Err(self.mismatch(start, &what, self.m.ty(v), self.ty_label))
            }
            None => {
                let name = match key {
                    Key::Name(s) => Some(s),
                    Key::Num(_) => None,
                };
                let b = self.new_block(f, name);
                let st = self.fstate();
                match key {
                    Key::Name(s) => {
                        st.named.insert(s, Local::B(b));
                    }
                    Key::Num(n) => {
                        st.fwd_nums.insert(n, Local::B(b));
                    }
                }
                st.pending_b.insert(b, (start, key));
                Ok(b)
            }
        }
    }

    /// `label %x`.
    pub fn parse_label_ref(&mut self) -> PResult<Block> {
        self.expect_kw(b"label", "expected 'label'")?;
        if !matches!(self.tok.kind, Tk::LocalVar | Tk::LocalId) {
            return Err(self.err("expected basic block name"));
        }
        // The key, not the token (see `parse_value_inner`).
        let (key, start) = (self.key_of(self.tok), self.tok.start);
        self.bump()?;
        self.local_block(key, start)
    }

    fn parse_block(&mut self) -> PResult<()> {
        let t = self.tok;
        let f = self.fstate().func;
        let key = match t.kind {
            Tk::LabelStr => {
                let n = self.label_name(t);
                let s = self.m.strings.intern(&n);
                self.bump()?;
                Some(Key::Name(s))
            }
            Tk::LabelId => {
                self.bump()?;
                let next = self.fstate().nums.len();
                if t.val as usize != next {
                    return Err(
                        self.err_at(t.start, format!("label expected to be numbered '%{next}'"))
                    );
                }
                None
            }
            _ => None,
        };
        let b = match key {
            Some(Key::Name(s)) => match self.fstate().named.get(&s).copied() {
                Some(Local::B(b)) if self.fstate().pending_b.remove(&b).is_some() => b,
                Some(_) => {
                    return Err(self.err_at(
                        t.start,
                        format!(
                            "redefinition of value '{}'",
                            self.key_str('%', Key::Name(s))
                        ),
                    ))
                }
                None => {
                    let b = self.new_block(f, Some(s));
                    self.fstate().named.insert(s, Local::B(b));
                    b
                }
            },
            _ => {
                let st = self.fstate();
                let n = st.nums.len() as u32;
                let b = match st.fwd_nums.remove(&n) {
                    Some(Local::B(b)) => {
                        st.pending_b.remove(&b);
                        b
                    }
                    Some(Local::V(v)) => {
                        let vt = self.m.ty(v);
                        let off = self.fstate().pending_v.get(&v).map_or(t.start, |p| p.0);
                        return Err(self.mismatch(off, &format!("%{n}"), self.ty_label, vt));
                    }
                    None => self.new_block(f, None),
                };
                self.fstate().nums.push(Local::B(b));
                b
            }
        };
        self.link_block(f, b);
        loop {
            if self.tok.kind == Tk::DbgRecord {
                let i = self.parse_dbg_record()?;
                self.m.append_inst(b, i);
                continue;
            }
            let (i, term) = self.parse_instruction()?;
            self.m.append_inst(b, i);
            if term {
                return Ok(());
            }
        }
    }

    /// Defines the result of `inst` (type `ty`) under `key` (or the next
    /// number when unnamed).
    pub fn define_result(
        &mut self,
        inst: crate::entity::Inst,
        ty: Type,
        key: Option<Key>,
        off: u32,
    ) -> PResult<()> {
        if self.m.types.is_void(ty) {
            if key.is_some() {
                return Err(
                    self.err_at(off, "instructions returning void cannot have a name".into())
                );
            }
            return Ok(());
        }
        let existing = {
            let st = self.fstate();
            match key {
                Some(Key::Name(s)) => st.named.get(&s).copied(),
                Some(Key::Num(n)) => {
                    if n as usize != st.nums.len() {
                        let next = st.nums.len();
                        return Err(self.err_at(
                            off,
                            format!("instruction expected to be numbered '%{next}'"),
                        ));
                    }
                    st.fwd_nums.remove(&n)
                }
                None => {
                    let n = st.nums.len() as u32;
                    st.fwd_nums.remove(&n)
                }
            }
        };
        let name = match key {
            Some(Key::Name(s)) => Some(s),
            _ => None,
        };
        let v = match existing {
            Some(Local::V(v)) if self.fstate().pending_v.contains_key(&v) => {
                let vt = self.m.ty(v);
                if vt != ty {
                    let (poff, k) = self.fstate().pending_v[&v];
                    let what = self.key_str('%', k);
                    return Err(self.mismatch(poff, &what, ty, vt));
                }
                self.fstate().pending_v.remove(&v);
                self.m.values[v].kind = ValueKind::Inst(inst);
                v
            }
            Some(Local::B(b)) if key.is_none() || matches!(key, Some(Key::Num(_))) => {
                let (poff, k) = self
                    .fstate()
                    .pending_b
                    .get(&b)
                    .copied()
                    .unwrap_or((off, Key::Num(0)));
                let what = self.key_str('%', k);
                return Err(self.mismatch(poff, &what, ty, self.ty_label));
            }
            Some(_) => {
                let what = match key {
                    Some(k) => self.key_str('%', k),
                    None => String::new(),
                };
                return Err(self.err_at(off, format!("redefinition of value '{what}'")));
            }
            None => self.m.new_value(ty, ValueKind::Inst(inst), name),
        };
        self.m.insts[inst].result = v.into();
        let st = self.fstate();
        match key {
            Some(Key::Name(s)) => {
                st.named.insert(s, Local::V(v));
            }
            _ => st.nums.push(Local::V(v)),
        }
        Ok(())
    }

    /// `!kind !N` (or inline node) attachment.
    pub fn parse_attachment(&mut self) -> PResult<Attachment> {
        let t = self.tok;
        let name = self.md_name(t);
        let kind = self.m.strings.intern(&name);
        self.bump()?;
        let node = self.parse_md_node_ref()?;
        Ok(Attachment { kind, node })
    }

    /// Name of a `!name` token, escapes decoded.
    pub fn md_name(&self, t: Token) -> Cow<'a, [u8]> {
        let s = &self.src[t.start as usize + 1..t.end as usize];
        unescape(s)
    }
}

/// True when `n` operands can each be numbered by a use (indices up to
/// [`crate::value::Use::MAX_INDEX`]).
fn operand_count_fits(n: usize) -> bool {
    n <= crate::value::Use::MAX_INDEX as usize + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each function starts with empty local tables, though they reuse the
    /// previous function's: the same names and numbers are defined again,
    /// and a forward reference left open in one function is an error there,
    /// not in the next.
    #[test]
    fn functions_read_in_reused_tables_start_empty() {
        let two = b"define i32 @a(i32 %x) {\nentry:\n  br label %next\nnext:\n  %0 = add i32 %x, 1\n  ret i32 %0\n}\n\
define i32 @b(i32 %x) {\nentry:\n  br label %next\nnext:\n  %0 = mul i32 %x, 2\n  ret i32 %0\n}\n";
        let m = crate::parse_module(two).expect("same local names in two functions");
        assert_eq!(m.funcs.len(), 2);
        let open = b"define void @a() {\nentry:\n  br label %gone\n}\n\
define void @b() {\ngone:\n  ret void\n}\n";
        let Err(e) = crate::parse_module(open) else {
            panic!("%gone is not a block of @a");
        };
        assert!(
            e.to_string().contains("use of undefined value '%gone'"),
            "{e}"
        );
    }

    /// A call takes its callee's function type when the call is typed the
    /// same, and a type of its own when not (a call through a mismatched
    /// declaration, as opaque pointers allow).
    #[test]
    fn calls_type_as_written() {
        let src = b"declare i32 @h(i32)\ndefine void @f(i32 %x, i64 %y) {\n  \
%a = call i32 @h(i32 %x)\n  %b = call i32 @h(i64 %y)\n  call void @h(i32 %x)\n  ret void\n}\n";
        let mut m = crate::parse_module(src).expect("parses");
        let h = m.func_by_name("h").unwrap();
        let f = m.func_by_name("f").unwrap();
        let b = m.funcs[f].first_block.expand().unwrap();
        let tys: Vec<Type> = m
            .block_insts(b)
            .filter_map(|i| m.insts[i].call().and_then(|c| c.fn_ty))
            .collect();
        assert_eq!(tys.len(), 3);
        assert_eq!(tys[0], m.funcs[h].ty);
        let (i64t, i32t) = (m.types.int(64), m.types.int(32));
        assert_eq!(m.types.func_sig(tys[1]), Some((i32t, &[i64t][..], false)));
        let void = m.types.void_type();
        assert_eq!(m.types.func_sig(tys[2]), Some((void, &[i32t][..], false)));
        let printed = crate::print_module(&m);
        assert!(printed.contains("%b = call i32 @h(i64 %y)"), "{printed}");
    }

    #[test]
    fn operand_counts_stop_at_what_a_use_numbers() {
        let max = crate::value::Use::MAX_INDEX as usize;
        assert!(operand_count_fits(0) && operand_count_fits(max + 1));
        assert!(!operand_count_fits(max + 2));
    }
}
