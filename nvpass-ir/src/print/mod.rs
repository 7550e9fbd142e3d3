//! The printer: writes a [`Module`] as LLVM 19 textual IR.
//!
//! The layout follows LLVM's `AsmWriter`: header (`source_filename`,
//! `target datalayout`, `target triple`, `module asm`), identified struct
//! types, comdats, global variables, aliases, ifuncs, functions (each
//! preceded by a blank line and a `; Function Attrs:` comment when it has
//! non-string function attributes), verbatim lines, attribute groups, named
//! metadata and numbered metadata.
//!
//! Unnamed values are numbered as LLVM's `SlotTracker` numbers them:
//! unnamed globals, then aliases, then ifuncs, then functions share the
//! module counter (`@0`, `@1`, ...); inside a function unnamed arguments,
//! then unnamed blocks and unnamed instruction results in layout order share
//! the local counter (the entry block takes a number even though its label
//! is not printed).
//!
//! Everything is written into one byte buffer; integers are written with a
//! hand-rolled digit loop and no temporary `String` is built per
//! instruction. With the `parallel` feature, `print_module_parallel` prints
//! batches of functions on worker threads and writes them in module order
//! (see the `parallel` submodule's docs).
//!
//! Conventions shared with the reader (how verbatim pieces are stored):
//! * [`GlobalData::tail`](crate::module::GlobalData::tail) pieces are written as `, <piece>` unless the
//!   piece already starts with `,`. A piece starting with `align` is
//!   replaced by the current [`GlobalData::align`](crate::module::GlobalData::align); when no such piece
//!   exists and `align` is set, `, align N` is written after the pieces
//!   (before any `code_model` piece).
//! * [`AliasData::tail`](crate::module::AliasData::tail) pieces are written the same way.
//! * `Const::Expr::inrange` is written as is when it starts with
//!   `inrange`, else wrapped as `inrange(<text>)`.
//! * `Const::Float` of `fp128`/`ppc_fp128` holds `(hi << 64) | lo`; the
//!   text is `0xL<lo><hi>`. `x86_fp80` holds the 80 bits; the text is
//!   `0xK<top 16 bits><low 64 bits>`.
//! * Metadata nodes that are neither inline nor in
//!   [`Module::md_numbered`] are numbered after the highest used number
//!   and printed after the numbered ones.

mod float;
#[cfg(feature = "parallel")]
mod parallel;
#[cfg(feature = "parallel")]
pub use parallel::{hardware_threads, print_module_parallel, ParallelPrint, BATCH_INSTS, MD_BATCH};

use crate::attr::{Attr, AttrSet};
use crate::entity::{Block, Func, Inst, Md, Sym, Type, Value};
use crate::inst::{CallConv, Extra, InstFlags, Opcode, Ordering, TailKind, FCMP_PREDS, ICMP_PREDS};
use crate::metadata::{Attachment, MdField, MdKind, MdRef};
use crate::module::{Linkage, Module, TopLevel};
use crate::types::{NamedBody, TypeData};
use crate::value::{Const, ValueKind, Wide};
use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use cranelift_entity::{EntityRef, SecondaryMap};
use hashbrown::HashMap;

const NONE: u32 = u32::MAX;

/// Prints a whole module.
pub fn print_module(m: &Module) -> String {
    let mut s = String::new();
    print_module_into(m, &mut s);
    s
}

/// Prints a whole module, appending to `out`.
pub fn print_module_into(m: &Module, out: &mut String) {
    let mut p = Printer::new(m, core::mem::take(out).into_bytes());
    p.module();
    *out = p.finish();
}

/// Bytes the chunked printer buffers before handing them to its sink.
const CHUNK: usize = 1 << 16;

/// Prints a whole module in chunks of about 64 KiB handed to `sink`, in
/// order. The concatenated chunks are exactly the bytes [`print_module`]
/// returns, but the whole text is never held in memory at once, which
/// matters for very large modules.
pub fn print_module_chunked(m: &Module, sink: &mut dyn FnMut(&[u8])) {
    let mut p = Printer::new(m, Vec::with_capacity(CHUNK + CHUNK / 4));
    p.sink = Some(sink);
    p.module();
    p.flush();
}

/// Prints one function (definition or declaration), appending to `out`.
pub fn print_function(m: &Module, f: Func, out: &mut String) {
    let mut p = Printer::new(m, core::mem::take(out).into_bytes());
    p.function(f);
    *out = p.finish();
}

/// Prints one instruction (without indentation or newline).
pub fn inst_to_string(m: &Module, inst: Inst) -> String {
    let mut p = Printer::new(m, Vec::new());
    p.enter_inst_func(inst);
    p.inst(inst);
    let mut s = p.finish();
    let trimmed = s.trim_start().len();
    s.drain(..s.len() - trimmed);
    s
}

/// Prints a value as an operand with its type (`i32 %x`, `ptr @g`).
pub fn value_to_string(m: &Module, v: Value) -> String {
    let mut p = Printer::new(m, Vec::new());
    p.enter_value_func(v);
    p.typed_operand(v);
    p.finish()
}

/// Prints a type.
pub fn type_to_string(m: &Module, t: Type) -> String {
    let mut p = Printer::new(m, Vec::new());
    p.ty(t);
    p.finish()
}

/// `Display` adapter for an instruction (see [`inst_to_string`]).
pub struct DisplayInst<'a>(pub &'a Module, pub Inst);

impl fmt::Display for DisplayInst<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&inst_to_string(self.0, self.1))
    }
}

/// `Display` adapter for a typed value (see [`value_to_string`]).
pub struct DisplayValue<'a>(pub &'a Module, pub Value);

impl fmt::Display for DisplayValue<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&value_to_string(self.0, self.1))
    }
}

/// `Display` adapter for a type (see [`type_to_string`]).
pub struct DisplayType<'a>(pub &'a Module, pub Type);

impl fmt::Display for DisplayType<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&type_to_string(self.0, self.1))
    }
}

/// True when `name` can be printed without quotes (LLVM's rule:
/// `[-a-zA-Z._][-a-zA-Z._0-9]*`).
pub fn is_bare_name(name: &[u8]) -> bool {
    match name.first() {
        None => false,
        Some(c) if c.is_ascii_digit() => false,
        Some(_) => name.iter().all(|&c| NAME_CHAR[c as usize]),
    }
}

/// The bytes a name may hold unquoted: letters, digits, `-`, `.` and `_`
/// (one table read per byte; names are most of what the printer writes).
static NAME_CHAR: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_');
        c += 1;
    }
    t
};

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Appends `bytes` with LLVM's `printEscapedString` escapes: `\\` for a
/// backslash, `\XX` for `"` and non-printable bytes.
pub fn escape_into(out: &mut Vec<u8>, mut bytes: &[u8]) {
    // Runs of bytes written as they are go out in one copy.
    while let Some(k) = bytes.iter().position(|&c| !PLAIN_IN_STRING[c as usize]) {
        out.extend_from_slice(&bytes[..k]);
        let c = bytes[k];
        if c == b'\\' {
            out.extend_from_slice(b"\\\\");
        } else {
            out.extend_from_slice(&[b'\\', HEX[(c >> 4) as usize], HEX[(c & 15) as usize]]);
        }
        bytes = &bytes[k + 1..];
    }
    out.extend_from_slice(bytes);
}

/// The bytes [`escape_into`] writes as they are: printable ASCII but `"`
/// and the backslash.
static PLAIN_IN_STRING: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = c >= 0x20 && c < 0x7F && c != b'"' as usize && c != b'\\' as usize;
        c += 1;
    }
    t
};

/// The two-digit decimal forms of 0 to 99, back to back.
const DIGIT_PAIRS: &[u8; 200] = b"\
0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// Appends the decimal form of `v`. Numbers are most of what the printer
/// writes after names (slots, `!N`, alignments), most of them short: one
/// digit is pushed as is, longer ones are converted two digits at a time.
pub fn write_u64(out: &mut Vec<u8>, mut v: u64) {
    if v < 10 {
        out.push(b'0' + v as u8);
        return;
    }
    // Two and three digits, most of the rest, are written without a
    // buffer (whose copy is a call to `memcpy`).
    if v < 1000 {
        let pair = (v % 100) as usize * 2;
        let pair = [DIGIT_PAIRS[pair], DIGIT_PAIRS[pair + 1]];
        if v >= 100 {
            out.extend_from_slice(&[b'0' + (v / 100) as u8, pair[0], pair[1]]);
        } else {
            out.extend_from_slice(&pair);
        }
        return;
    }
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    while v >= 100 {
        let pair = (v % 100) as usize * 2;
        v /= 100;
        i -= 2;
        buf[i..i + 2].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
    }
    if v >= 10 {
        let pair = v as usize * 2;
        i -= 2;
        buf[i..i + 2].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
    } else {
        i -= 1;
        buf[i] = b'0' + v as u8;
    }
    out.extend_from_slice(&buf[i..]);
}

/// Appends the decimal form of `v`.
pub fn write_i128(out: &mut Vec<u8>, v: i128) {
    if v < 0 {
        out.push(b'-');
    }
    let mut u = v.unsigned_abs();
    if u <= u64::MAX as u128 {
        write_u64(out, u as u64);
        return;
    }
    let mut buf = [0u8; 40];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (u % 10) as u8;
        u /= 10;
        if u == 0 {
            break;
        }
    }
    out.extend_from_slice(&buf[i..]);
}

struct Printer<'a> {
    m: &'a Module,
    out: Vec<u8>,
    /// Module slot of unnamed globals, aliases and functions.
    gslots: Cow<'a, SecondaryMap<Value, u32>>,
    gslots_done: bool,
    /// Metadata numbers (NONE = inline / unnumbered).
    md_slots: Cow<'a, SecondaryMap<Md, u32>>,
    md_done: bool,
    /// Nodes numbered by the printer, printed after `md_numbered`.
    md_extra: Vec<(u32, Md)>,
    /// Local slots of the current function's unnamed values and blocks,
    /// holding one function's entries (cleared for the next), not tables
    /// with an entry per value of the module: each thread printing
    /// functions holds its own.
    lvals: LocalSlots<Value>,
    lblocks: LocalSlots<Block>,
    cur: Option<Func>,
    /// Attribute group number -> index in `attr_groups`.
    groups: HashMap<u32, usize>,
    depth: u32,
    /// Where full chunks go ([`print_module_chunked`]); `None`: keep all.
    sink: Option<ChunkSink<'a>>,
    /// The text of `float` and `double` constants printed so far, by the
    /// bits of the double: a module repeats its constants, and each costs
    /// an exact decimal conversion (see [`float`]). Emptied when it reaches
    /// [`FLOAT_MEMO_MAX`] entries.
    floats: HashMap<u64, FloatText>,
    /// Whether each name printed so far is bare ([`BARE`]) or quoted
    /// ([`QUOTED`]), by symbol index ([`UNKNOWN`] until first printed): a
    /// callee or a global is named again and again, and deciding costs a
    /// look at every byte.
    bare: Vec<u8>,
}

/// [`Printer::bare`]: not printed yet.
const UNKNOWN: u8 = 0;
/// [`Printer::bare`]: printed without quotes.
const BARE: u8 = 1;
/// [`Printer::bare`]: printed in quotes.
const QUOTED: u8 = 2;

/// Most entries [`Printer::floats`] holds.
const FLOAT_MEMO_MAX: usize = 4096;

/// A printed `double`: at most 18 bytes (`0x` and 16 hex digits; the
/// decimal form is shorter).
#[derive(Copy, Clone)]
struct FloatText {
    len: u8,
    text: [u8; 23],
}

/// The slots of one function's unnamed values (arguments and results) or
/// blocks, entities `K`.
///
/// A function's values and blocks were mostly made together (read in one
/// go), so their indices fill a narrow range of the module's table: the
/// slots sit in an array over that range, read with one load. Entities
/// spread wider (a function that grew by inlining) go to a hash map
/// instead, so the array never holds more than [`DENSE_SPREAD`] entries
/// per numbered entity plus [`DENSE_SLACK`].
struct LocalSlots<K> {
    /// The entities and their slots, as numbered, before they are placed.
    pending: Vec<(K, u32)>,
    /// Index of the entity `dense[0]` stands for.
    base: usize,
    /// Slot + 1 of entity `base + i`; 0 for one without a slot.
    dense: Vec<u32>,
    /// The slots when they are not in `dense`.
    map: HashMap<K, u32>,
}

impl<K> Default for LocalSlots<K> {
    fn default() -> Self {
        LocalSlots {
            pending: Vec::new(),
            base: 0,
            dense: Vec::new(),
            map: HashMap::new(),
        }
    }
}

/// At most this many array entries per numbered entity (see
/// [`LocalSlots`]).
const DENSE_SPREAD: usize = 4;

/// Array entries allowed on top of [`DENSE_SPREAD`] per entity.
const DENSE_SLACK: usize = 64;

impl<K: EntityRef + core::hash::Hash> LocalSlots<K> {
    /// Forgets the slots of the previous function.
    fn clear(&mut self) {
        self.pending.clear();
        self.dense.clear();
        self.map.clear();
    }

    /// Numbers `k` with `slot` (until [`LocalSlots::place`]).
    #[inline]
    fn insert(&mut self, k: K, slot: u32) {
        self.pending.push((k, slot));
    }

    /// Places the entities inserted since [`LocalSlots::clear`] for
    /// lookup.
    fn place(&mut self) {
        let idx = self.pending.iter().map(|(k, _)| k.index());
        let (Some(lo), Some(hi)) = (idx.clone().min(), idx.max()) else {
            return;
        };
        if hi - lo < DENSE_SPREAD * self.pending.len() + DENSE_SLACK {
            self.base = lo;
            self.dense.resize(hi - lo + 1, 0);
            for &(k, slot) in &self.pending {
                self.dense[k.index() - lo] = slot + 1;
            }
        } else {
            self.map.extend(self.pending.iter().copied());
        }
    }

    /// The slot of `k`, if it has one.
    #[inline]
    fn get(&self, k: K) -> Option<u32> {
        match self.dense.get(k.index().wrapping_sub(self.base)) {
            Some(&s) => s.checked_sub(1),
            None => self.map.get(&k).copied(),
        }
    }
}

/// Receives printed text in chunks.
type ChunkSink<'a> = &'a mut dyn FnMut(&[u8]);

impl<'a> Printer<'a> {
    fn new(m: &'a Module, out: Vec<u8>) -> Self {
        Printer {
            m,
            out,
            gslots: Cow::Owned(SecondaryMap::with_default(NONE)),
            gslots_done: false,
            md_slots: Cow::Owned(SecondaryMap::with_default(NONE)),
            md_done: false,
            md_extra: Vec::new(),
            lvals: LocalSlots::default(),
            lblocks: LocalSlots::default(),
            cur: None,
            groups: HashMap::new(),
            depth: 0,
            sink: None,
            floats: HashMap::new(),
            bare: Vec::new(),
        }
    }

    /// Writes the `double` with bits `bits` as LLVM does, from
    /// [`Printer::floats`] when it was written before.
    fn double_bits(&mut self, bits: u64) {
        if let Some(t) = self.floats.get(&bits) {
            self.out.extend_from_slice(&t.text[..t.len as usize]);
            return;
        }
        let at = self.out.len();
        float::write_double_bits(&mut self.out, bits);
        let written = &self.out[at..];
        let mut text = [0u8; 23];
        let Some(dst) = text.get_mut(..written.len()) else {
            return;
        };
        dst.copy_from_slice(written);
        if self.floats.len() >= FLOAT_MEMO_MAX {
            self.floats.clear();
        }
        let len = written.len() as u8;
        self.floats.insert(bits, FloatText { len, text });
    }

    /// Hands the buffered bytes to the sink, if there is one.
    fn flush(&mut self) {
        if let Some(sink) = self.sink.as_mut() {
            sink(&self.out);
            self.out.clear();
        }
    }

    /// Flushes once a chunk's worth of text is buffered (chunked printing
    /// only); called between top-level entities.
    #[inline]
    fn maybe_flush(&mut self) {
        if self.out.len() >= CHUNK {
            self.flush();
        }
    }

    fn finish(self) -> String {
        match String::from_utf8(self.out) {
            Ok(s) => s,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        }
    }

    // ----- small writers ------------------------------------------------

    #[inline]
    fn s(&mut self, s: &str) {
        self.out.extend_from_slice(s.as_bytes());
    }

    #[inline]
    fn c(&mut self, c: u8) {
        self.out.push(c);
    }

    #[inline]
    fn u(&mut self, v: u64) {
        write_u64(&mut self.out, v);
    }

    fn sym(&mut self, s: Sym) {
        let b = self.m.strings.get(s);
        self.out.extend_from_slice(b);
    }

    fn escaped(&mut self, s: Sym) {
        let b = self.m.strings.get(s);
        escape_into(&mut self.out, b);
    }

    fn quoted(&mut self, s: Sym) {
        self.c(b'"');
        self.escaped(s);
        self.c(b'"');
    }

    /// `prefix` + name, quoted when needed.
    fn name(&mut self, prefix: u8, s: Sym) {
        self.c(prefix);
        let b = self.m.strings.get(s);
        let i = s.index();
        if i >= self.bare.len() {
            self.bare.resize(i + 1, UNKNOWN);
        }
        if self.bare[i] == UNKNOWN {
            self.bare[i] = if is_bare_name(b) { BARE } else { QUOTED };
        }
        if self.bare[i] == BARE {
            self.out.extend_from_slice(b);
        } else {
            self.c(b'"');
            escape_into(&mut self.out, b);
            self.c(b'"');
        }
    }

    /// A metadata identifier (`!name`, attachment kinds).
    fn md_ident(&mut self, s: Sym) {
        let b = self.m.strings.get(s);
        // Attachment kinds and node classes are plain words: copy them
        // whole. (`$` is allowed and `-`, `.`, `_` too; a leading digit
        // is not.)
        let plain = b.first().is_some_and(|c| !c.is_ascii_digit())
            && b.iter().all(|&c| NAME_CHAR[c as usize] || c == b'$');
        if plain {
            self.out.extend_from_slice(b);
            return;
        }
        for (i, &c) in b.iter().enumerate() {
            let ok = c.is_ascii_alphabetic()
                || matches!(c, b'-' | b'$' | b'.' | b'_')
                || (i > 0 && c.is_ascii_digit());
            if ok {
                self.out.push(c);
            } else {
                self.out.push(b'\\');
                self.out.push(HEX[(c >> 4) as usize]);
                self.out.push(HEX[(c & 15) as usize]);
            }
        }
    }

    // ----- slots --------------------------------------------------------

    fn ensure_gslots(&mut self) {
        if self.gslots_done {
            return;
        }
        self.gslots_done = true;
        let m = self.m;
        let gs = self.gslots.to_mut();
        let mut n = 0u32;
        let mut take = |gs: &mut SecondaryMap<Value, u32>, v: Value| {
            if m.values[v].name.is_none() {
                gs[v] = n;
                n += 1;
            }
        };
        for t in &m.order {
            if let TopLevel::Global(g) = *t {
                if !m.globals[g].erased {
                    take(gs, m.globals[g].value);
                }
            }
        }
        for ifunc in [false, true] {
            for t in &m.order {
                if let TopLevel::Alias(a) = *t {
                    if m.aliases[a].is_ifunc == ifunc {
                        take(gs, m.aliases[a].value);
                    }
                }
            }
        }
        for t in &m.order {
            if let TopLevel::Func(f) = *t {
                if !m.funcs[f].erased {
                    take(gs, m.funcs[f].value);
                }
            }
        }
    }

    fn ensure_mds(&mut self) {
        if self.md_done {
            return;
        }
        self.md_done = true;
        let m = self.m;
        let slots = self.md_slots.to_mut();
        let mut max = None::<u32>;
        for &(n, md) in &m.md_numbered {
            if md.index() < m.mds.len() {
                slots[md] = n;
            }
            max = Some(max.map_or(n, |x: u32| x.max(n)));
        }
        let mut next = max.map_or(0, |x| x.wrapping_add(1));
        for (md, node) in m.mds.iter() {
            if !node.inline && slots[md] == NONE {
                slots[md] = next;
                self.md_extra.push((next, md));
                next = next.wrapping_add(1);
            }
        }
        for (i, g) in m.attr_groups.iter().enumerate() {
            self.groups.entry(g.id).or_insert(i);
        }
    }

    /// Numbers the locals of `f`.
    fn enter_func(&mut self, f: Func) {
        if self.cur == Some(f) {
            return;
        }
        self.cur = Some(f);
        self.lvals.clear();
        self.lblocks.clear();
        let m = self.m;
        let mut n = 0u32;
        for p in &m.funcs[f].params {
            if m.values.get(p.value).is_some_and(|d| d.name.is_none()) {
                self.lvals.insert(p.value, n);
                n += 1;
            }
        }
        if m.funcs[f].is_definition {
            self.number_body(f, n);
        }
        self.lvals.place();
        self.lblocks.place();
    }

    /// Numbers the unnamed blocks and results of definition `f`, from
    /// slot `n` on.
    fn number_body(&mut self, f: Func, mut n: u32) {
        let m = self.m;
        for b in blocks_of(m, f) {
            if m.blocks[b].name.is_none() {
                self.lblocks.insert(b, n);
                n += 1;
            }
            for i in insts_of(m, b) {
                if let Some(r) = m.insts[i].result.expand() {
                    if m.values.get(r).is_some_and(|d| d.name.is_none()) {
                        self.lvals.insert(r, n);
                        n += 1;
                    }
                }
            }
        }
    }

    fn enter_inst_func(&mut self, i: Inst) {
        if let Some(b) = self.m.insts.get(i).and_then(|d| self.m.seg_block(d.seg)) {
            let f = self.m.blocks[b].func;
            self.enter_func(f);
        }
    }

    fn enter_value_func(&mut self, v: Value) {
        match self.m.values.get(v).map(|d| &d.kind) {
            Some(ValueKind::Arg { func, .. }) => {
                let f = *func;
                self.enter_func(f);
            }
            Some(ValueKind::Inst(i)) => {
                let i = *i;
                self.enter_inst_func(i);
            }
            _ => {}
        }
    }

    /// Slot of an unnamed block of another function (for `blockaddress`).
    fn foreign_block_slot(&self, f: Func, target: Block) -> Option<u32> {
        let m = self.m;
        let mut n = 0u32;
        for p in &m.funcs.get(f)?.params {
            if m.values.get(p.value).is_some_and(|d| d.name.is_none()) {
                n += 1;
            }
        }
        for b in blocks_of(m, f) {
            if m.blocks[b].name.is_none() {
                if b == target {
                    return Some(n);
                }
                n += 1;
            }
            for i in insts_of(m, b) {
                if let Some(r) = m.insts[i].result.expand() {
                    if m.values.get(r).is_some_and(|d| d.name.is_none()) {
                        n += 1;
                    }
                }
            }
        }
        None
    }

    // ----- types --------------------------------------------------------

    fn ty(&mut self, t: Type) {
        let m = self.m;
        if t.index() >= m.types.len() {
            self.s("<badtype>");
            return;
        }
        match m.types.get(t) {
            TypeData::Void => self.s("void"),
            TypeData::Label => self.s("label"),
            TypeData::Metadata => self.s("metadata"),
            TypeData::Token => self.s("token"),
            TypeData::Keyword(s) => self.sym(*s),
            TypeData::Int(b) => {
                self.c(b'i');
                self.u(*b as u64);
            }
            TypeData::Float(k) => self.s(k.keyword()),
            TypeData::Ptr(a) => {
                self.s("ptr");
                if *a != 0 {
                    self.s(" addrspace(");
                    self.u(*a as u64);
                    self.c(b')');
                }
            }
            TypeData::Array(n, e) => {
                self.c(b'[');
                self.u(*n);
                self.s(" x ");
                self.ty(*e);
                self.c(b']');
            }
            TypeData::Vector {
                len,
                elem,
                scalable,
            } => {
                self.c(b'<');
                if *scalable {
                    self.s("vscale x ");
                }
                self.u(*len as u64);
                self.s(" x ");
                self.ty(*elem);
                self.c(b'>');
            }
            TypeData::Struct { fields, packed } => self.struct_body(fields, *packed),
            TypeData::Named(s) => self.name(b'%', *s),
            TypeData::Func {
                ret,
                params,
                vararg,
            } => {
                self.ty(*ret);
                self.s(" (");
                for (i, p) in params.iter().enumerate() {
                    if i > 0 {
                        self.s(", ");
                    }
                    self.ty(*p);
                }
                if *vararg {
                    if !params.is_empty() {
                        self.s(", ");
                    }
                    self.s("...");
                }
                self.c(b')');
            }
            TypeData::TargetExt { name, types, ints } => {
                self.s("target(");
                self.quoted(*name);
                for t in types {
                    self.s(", ");
                    self.ty(*t);
                }
                for i in ints {
                    self.s(", ");
                    self.u(*i as u64);
                }
                self.c(b')');
            }
        }
    }

    fn struct_body(&mut self, fields: &[Type], packed: bool) {
        if packed {
            self.c(b'<');
        }
        if fields.is_empty() {
            self.s("{}");
        } else {
            self.s("{ ");
            for (i, f) in fields.iter().enumerate() {
                if i > 0 {
                    self.s(", ");
                }
                self.ty(*f);
            }
            self.s(" }");
        }
        if packed {
            self.c(b'>');
        }
    }

    // ----- values -------------------------------------------------------

    fn typed_operand(&mut self, v: Value) {
        if v.index() >= self.m.values.len() {
            self.s("<badref>");
            return;
        }
        let t = self.m.values[v].ty;
        self.ty(t);
        self.c(b' ');
        self.operand(v);
    }

    fn local_ref(&mut self, v: Value) {
        let Some(d) = self.m.values.get(v) else {
            self.s("%<badref>");
            return;
        };
        if let Some(n) = d.name {
            self.name(b'%', n);
            return;
        }
        if let Some(n) = self.lvals.get(v) {
            self.c(b'%');
            self.u(n as u64);
        } else {
            self.s("<badref>");
        }
    }

    fn global_ref(&mut self, v: Value) {
        let Some(d) = self.m.values.get(v) else {
            self.s("@<badref>");
            return;
        };
        if let Some(n) = d.name {
            self.name(b'@', n);
            return;
        }
        self.ensure_gslots();
        let n = self.gslots[v];
        if n == NONE {
            self.s("@<badref>");
        } else {
            self.c(b'@');
            self.u(n as u64);
        }
    }

    fn block_ref(&mut self, b: Block) {
        let m = self.m;
        let Some(bd) = m.blocks.get(b) else {
            self.s("%<badref>");
            return;
        };
        if let Some(n) = bd.name {
            self.name(b'%', n);
            return;
        }
        let slot = self.lblocks.get(b);
        if let (Some(n), true) = (slot, self.cur == Some(bd.func)) {
            self.c(b'%');
            self.u(n as u64);
        } else if let Some(n) = self.foreign_block_slot(bd.func, b) {
            self.c(b'%');
            self.u(n as u64);
        } else {
            self.s("%<badref>");
        }
    }

    /// A value without its type.
    fn operand(&mut self, v: Value) {
        let m = self.m;
        let Some(d) = m.values.get(v) else {
            self.s("<badref>");
            return;
        };
        match &d.kind {
            ValueKind::Arg { .. } | ValueKind::Inst(_) | ValueKind::Placeholder => {
                self.local_ref(v)
            }
            ValueKind::Global(_) | ValueKind::Func(_) | ValueKind::Alias(_) => self.global_ref(v),
            ValueKind::Const(c) => self.constant(v, &m.const_data[*c]),
            ValueKind::Metadata(r) => {
                if let Some(o) = m.value_ops(v).first() {
                    self.typed_operand(o.value);
                } else {
                    let r = *r;
                    self.md_ref(r);
                }
            }
        }
    }

    fn constant(&mut self, v: Value, c: &Const) {
        let m = self.m;
        let d = &m.values[v];
        match c {
            Const::Int(i) => {
                let i = i.0;
                if m.types.int_bits(d.ty) == Some(1) {
                    self.s(if i != 0 { "true" } else { "false" });
                } else {
                    write_i128(&mut self.out, i);
                }
            }
            Const::BigInt(s) => self.sym(*s),
            Const::Float(bits) => match m.types.get(d.ty) {
                TypeData::Float(k) => match float::printed_double(*k, bits.0) {
                    Some(d) => self.double_bits(d),
                    None => float::write_float(&mut self.out, *k, bits.0),
                },
                _ => {
                    self.s("0x");
                    let mut b = bits.0;
                    let mut buf = [0u8; 32];
                    let mut i = buf.len();
                    loop {
                        i -= 1;
                        buf[i] = HEX[(b & 15) as usize];
                        b >>= 4;
                        if b == 0 {
                            break;
                        }
                    }
                    self.out.extend_from_slice(&buf[i..]);
                }
            },
            Const::Null => self.s("null"),
            Const::Undef => self.s("undef"),
            Const::Poison => self.s("poison"),
            Const::Zero => self.s("zeroinitializer"),
            Const::NoneToken => self.s("none"),
            Const::Str(s) => {
                self.s("c\"");
                self.escaped(*s);
                self.c(b'"');
            }
            Const::Aggregate => {
                let (open, close): (&str, &str) = match m.types.get(d.ty) {
                    TypeData::Array(..) => ("[", "]"),
                    TypeData::Vector { .. } => ("<", ">"),
                    _ => {
                        let packed = m.types.struct_fields(d.ty).1;
                        if packed {
                            self.c(b'<');
                        }
                        if m.value_ops(v).is_empty() {
                            self.s("{}");
                        } else {
                            self.s("{ ");
                            self.typed_list(v);
                            self.s(" }");
                        }
                        if packed {
                            self.c(b'>');
                        }
                        return;
                    }
                };
                self.s(open);
                self.typed_list(v);
                self.s(close);
            }
            Const::Splat => {
                self.s("splat (");
                if let Some(o) = m.value_ops(v).first() {
                    self.typed_operand(o.value);
                }
                self.c(b')');
            }
            Const::Expr {
                opcode,
                flags,
                source_ty,
                pred,
                inrange,
            } => {
                self.s(opcode.keyword());
                self.flags(*opcode, *flags);
                if let Some(r) = inrange {
                    let t = m.strings.get(*r);
                    if t.starts_with(b"inrange") {
                        self.c(b' ');
                        self.sym(*r);
                    } else {
                        self.s(" inrange(");
                        self.sym(*r);
                        self.c(b')');
                    }
                }
                if let Some(p) = pred {
                    self.c(b' ');
                    self.pred(*opcode, p.0);
                }
                self.s(" (");
                if let Some(st) = source_ty {
                    if *opcode == Opcode::GetElementPtr {
                        self.ty(*st);
                        self.s(", ");
                    }
                }
                self.typed_list(v);
                if opcode.is_cast() {
                    self.s(" to ");
                    self.ty(d.ty);
                }
                self.c(b')');
            }
            Const::BlockAddress(f, b) => {
                self.s("blockaddress(");
                let fv = m.funcs.get(*f).map(|fd| fd.value);
                match fv {
                    Some(fv) => self.global_ref(fv),
                    None => self.s("@<badref>"),
                }
                self.s(", ");
                self.block_ref(*b);
                self.c(b')');
            }
            Const::DsoLocalEquivalent | Const::NoCfi => {
                self.s(if matches!(c, Const::NoCfi) {
                    "no_cfi "
                } else {
                    "dso_local_equivalent "
                });
                match m.value_ops(v).first() {
                    Some(o) => self.operand(o.value),
                    None => self.s("<badref>"),
                }
            }
            Const::InlineAsm(a) => {
                self.s("asm ");
                if a.side_effect {
                    self.s("sideeffect ");
                }
                if a.align_stack {
                    self.s("alignstack ");
                }
                if a.intel_dialect {
                    self.s("inteldialect ");
                }
                if a.unwind {
                    self.s("unwind ");
                }
                self.quoted(a.asm);
                self.s(", ");
                self.quoted(a.constraints);
            }
        }
    }

    /// The operands of a constant as `ty v, ty v`.
    fn typed_list(&mut self, v: Value) {
        let m = self.m;
        for (i, o) in m.value_ops(v).iter().enumerate() {
            if i > 0 {
                self.s(", ");
            }
            self.typed_operand(o.value);
        }
    }

    fn pred(&mut self, op: Opcode, p: u8) {
        let table: &[&str] = if op == Opcode::FCmp {
            &FCMP_PREDS
        } else {
            &ICMP_PREDS
        };
        match table.get(p as usize) {
            Some(s) => self.s(s),
            None => self.s("<badpred>"),
        }
    }

    /// Fast-math and wrap flags, each preceded by a space.
    fn flags(&mut self, op: Opcode, f: InstFlags) {
        if f.contains(InstFlags::FAST) {
            self.s(" fast");
        } else {
            for (flag, kw) in [
                (InstFlags::REASSOC, " reassoc"),
                (InstFlags::NNAN, " nnan"),
                (InstFlags::NINF, " ninf"),
                (InstFlags::NSZ, " nsz"),
                (InstFlags::ARCP, " arcp"),
                (InstFlags::CONTRACT, " contract"),
                (InstFlags::AFN, " afn"),
            ] {
                if f.contains(flag) {
                    self.s(kw);
                }
            }
        }
        if op == Opcode::GetElementPtr {
            if f.contains(InstFlags::INBOUNDS) {
                self.s(" inbounds");
            } else if f.contains(InstFlags::NUSW) {
                self.s(" nusw");
            }
            if f.contains(InstFlags::NUW) {
                self.s(" nuw");
            }
            return;
        }
        for (flag, kw) in [
            (InstFlags::NUW, " nuw"),
            (InstFlags::NSW, " nsw"),
            (InstFlags::EXACT, " exact"),
            (InstFlags::DISJOINT, " disjoint"),
            (InstFlags::NNEG, " nneg"),
            (InstFlags::SAMESIGN, " samesign"),
        ] {
            if f.contains(flag) {
                self.s(kw);
            }
        }
    }

    // ----- attributes ---------------------------------------------------

    fn attr(&mut self, a: &Attr) {
        match a {
            Attr::Enum(k) => self.sym(*k),
            Attr::Int { kind, value, paren } => {
                self.sym(*kind);
                if *paren {
                    self.c(b'(');
                    self.u(*value);
                    self.c(b')');
                } else {
                    self.c(b' ');
                    self.u(*value);
                }
            }
            Attr::Type { kind, ty } => {
                self.sym(*kind);
                self.c(b'(');
                self.ty(*ty);
                self.c(b')');
            }
            Attr::Str { key, value } => {
                self.quoted(*key);
                if let Some(v) = value {
                    self.c(b'=');
                    self.quoted(*v);
                }
            }
            Attr::Raw { text, .. } => self.sym(*text),
        }
    }

    /// Inline attributes separated by spaces (no leading space).
    fn attrs_inline(&mut self, s: &AttrSet) {
        for (i, a) in s.attrs.iter().enumerate() {
            if i > 0 {
                self.c(b' ');
            }
            self.attr(a);
        }
    }

    /// Function-position attributes: ` attr ... #N ...`.
    fn fn_attrs(&mut self, s: &AttrSet) {
        for a in &s.attrs {
            self.c(b' ');
            self.attr(a);
        }
        for g in &s.groups {
            self.s(" #");
            self.u(*g as u64);
        }
    }

    // ----- metadata -----------------------------------------------------

    fn md_ref(&mut self, r: MdRef) {
        match r {
            MdRef::Null => self.s("null"),
            MdRef::String(s) => {
                self.s("!\"");
                self.escaped(s);
                self.c(b'"');
            }
            MdRef::Value(t, v) => {
                self.ty(t);
                self.c(b' ');
                self.operand(v);
            }
            MdRef::Node(md) => {
                self.ensure_mds();
                if md.index() >= self.m.mds.len() {
                    self.s("!<badref>");
                    return;
                }
                let n = self.md_slots[md];
                if n != NONE {
                    self.c(b'!');
                    self.u(n as u64);
                } else {
                    self.md_node(md);
                }
            }
        }
    }

    fn md_node(&mut self, md: Md) {
        if self.depth > 64 {
            self.s("!{}");
            return;
        }
        self.depth += 1;
        let m = self.m;
        let node = &m.mds[md];
        if node.distinct {
            self.s("distinct ");
        }
        match &node.kind {
            MdKind::Tuple(ops) => {
                self.s("!{");
                for (i, r) in ops.iter().enumerate() {
                    if i > 0 {
                        self.s(", ");
                    }
                    self.md_ref(*r);
                }
                self.c(b'}');
            }
            MdKind::Specialized { class, fields } => {
                self.c(b'!');
                // The class is lexed like a metadata name, escapes included.
                self.md_ident(*class);
                self.c(b'(');
                for (i, (k, f)) in fields.iter().enumerate() {
                    if i > 0 {
                        self.s(", ");
                    }
                    // Positional operands (`!DIExpression(DW_OP_deref)`)
                    // have an empty field name.
                    if !m.strings.get(*k).is_empty() {
                        self.sym(*k);
                        self.s(": ");
                    }
                    match f {
                        MdField::Ref(r) => self.md_ref(*r),
                        MdField::Raw(s) => self.sym(*s),
                    }
                }
                self.c(b')');
            }
            MdKind::Location(l) => {
                self.s("!DILocation(line: ");
                self.u(l.line.into());
                if let Some(c) = l.column {
                    self.s(", column: ");
                    self.u(c.get().into());
                }
                self.s(", scope: ");
                self.md_ref(MdRef::Node(l.scope));
                if let Some(at) = l.inlined_at {
                    self.s(", inlinedAt: ");
                    self.md_ref(MdRef::Node(at));
                }
                if l.implicit_code {
                    self.s(", isImplicitCode: true");
                }
                self.c(b')');
            }
            MdKind::ArgList(ops) => {
                self.s("!DIArgList(");
                for (i, r) in ops.iter().enumerate() {
                    if i > 0 {
                        self.s(", ");
                    }
                    self.md_ref(*r);
                }
                self.c(b')');
            }
        }
        self.depth -= 1;
    }

    fn attachments(&mut self, md: &[Attachment], sep: &str) {
        for a in md {
            self.s(sep);
            self.c(b'!');
            self.md_ident(a.kind);
            self.c(b' ');
            self.md_ref(MdRef::Node(a.node));
        }
    }

    // ----- module -------------------------------------------------------

    fn module(&mut self) {
        self.module_head();
        let m = self.m;
        for f in m.func_ids() {
            self.function_entry(f);
            self.maybe_flush();
        }
        self.module_tail();
    }

    /// Everything before the functions: header, types, comdats, globals,
    /// aliases and ifuncs.
    fn module_head(&mut self) {
        let m = self.m;
        self.ensure_gslots();
        self.ensure_mds();
        if let Some(s) = m.source_filename {
            self.s("source_filename = ");
            self.quoted(s);
            self.c(b'\n');
        }
        if let Some(s) = m.datalayout {
            self.s("target datalayout = ");
            self.quoted(s);
            self.c(b'\n');
        }
        if let Some(s) = m.triple {
            self.s("target triple = ");
            self.quoted(s);
            self.c(b'\n');
        }
        if !m.module_asm.is_empty() {
            self.c(b'\n');
            for &l in &m.module_asm {
                self.s("module asm ");
                self.quoted(l);
                self.c(b'\n');
            }
        }
        let named = m.types.named_types();
        if !named.is_empty() {
            self.c(b'\n');
            for &t in named {
                self.ty(t);
                self.s(" = type ");
                match m.types.named_body(t) {
                    NamedBody::Opaque => self.s("opaque"),
                    NamedBody::Body { fields, packed } => self.struct_body(fields, *packed),
                }
                self.c(b'\n');
            }
        }
        if !m.comdats.is_empty() {
            self.c(b'\n');
            for (i, &(name, kind)) in m.comdats.iter().enumerate() {
                if i > 0 {
                    self.c(b'\n');
                }
                self.name(b'$', name);
                self.s(" = comdat ");
                self.sym(kind);
                self.c(b'\n');
            }
        }
        let mut first = true;
        for g in m.global_ids() {
            if first {
                self.c(b'\n');
                first = false;
            }
            self.global(g);
            self.c(b'\n');
            self.maybe_flush();
        }
        for ifunc in [false, true] {
            let mut first = true;
            for t in &m.order {
                if let TopLevel::Alias(a) = *t {
                    if m.aliases[a].is_ifunc == ifunc {
                        if first {
                            self.c(b'\n');
                            first = false;
                        }
                        self.alias(a);
                        self.c(b'\n');
                    }
                }
            }
        }
    }

    /// A function as it appears in the module: a blank line, the
    /// `; Function Attrs:` comment and the function.
    fn function_entry(&mut self, f: Func) {
        self.c(b'\n');
        self.fn_attrs_comment(f);
        self.function(f);
    }

    /// Everything after the functions: verbatim lines, attribute groups,
    /// named and numbered metadata.
    fn module_tail(&mut self) {
        self.module_tail_prefix();
        let extra = core::mem::take(&mut self.md_extra);
        let m = self.m;
        for &(n, md) in m.md_numbered.iter().chain(extra.iter()) {
            self.numbered_md(n, md);
            self.maybe_flush();
        }
        self.md_extra = extra;
    }

    /// The part of [`Printer::module_tail`] before the numbered metadata
    /// nodes: verbatim lines, attribute groups, named metadata, and the
    /// blank line that opens the numbered nodes when there are any.
    fn module_tail_prefix(&mut self) {
        let m = self.m;
        if !m.verbatim.is_empty() {
            self.c(b'\n');
            for &l in &m.verbatim {
                self.sym(l);
                self.c(b'\n');
            }
        }
        if !m.attr_groups.is_empty() {
            self.c(b'\n');
            for g in &m.attr_groups {
                self.s("attributes #");
                self.u(g.id as u64);
                self.s(" = { ");
                for (i, a) in g.attrs.iter().enumerate() {
                    if i > 0 {
                        self.c(b' ');
                    }
                    self.attr(a);
                }
                self.s(" }\n");
            }
        }
        if !m.named_md.is_empty() {
            self.c(b'\n');
            for n in &m.named_md {
                self.c(b'!');
                self.md_ident(n.name);
                self.s(" = !{");
                for (i, &md) in n.ops.iter().enumerate() {
                    if i > 0 {
                        self.s(", ");
                    }
                    self.md_ref(MdRef::Node(md));
                }
                self.s("}\n");
            }
        }
        if !m.md_numbered.is_empty() || !self.md_extra.is_empty() {
            self.c(b'\n');
        }
    }

    /// One `!N = node` line of the module tail.
    fn numbered_md(&mut self, n: u32, md: Md) {
        if md.index() >= self.m.mds.len() {
            return;
        }
        self.c(b'!');
        self.u(n as u64);
        self.s(" = ");
        self.md_node(md);
        self.c(b'\n');
    }

    fn keywords(&mut self, kws: &[Sym]) {
        for &k in kws {
            self.sym(k);
            self.c(b' ');
        }
    }

    fn linkage(&mut self, l: Linkage) {
        if l != Linkage::External {
            self.s(l.keyword());
            self.c(b' ');
        }
    }

    fn tail_piece(&mut self, p: Sym) {
        if !self.m.strings.get(p).starts_with(b",") {
            self.s(", ");
        }
        self.sym(p);
    }

    fn global(&mut self, g: crate::entity::Global) {
        let m = self.m;
        let gd = &m.globals[g];
        self.global_ref(gd.value);
        self.s(" = ");
        if gd.init.is_none() && gd.linkage == Linkage::External {
            self.s("external ");
        }
        self.linkage(gd.linkage);
        let ext_init = m.strings.lookup(b"externally_initialized");
        for &k in &gd.keywords {
            if Some(k) != ext_init {
                self.sym(k);
                self.c(b' ');
            }
        }
        if gd.addrspace != 0 {
            self.s("addrspace(");
            self.u(gd.addrspace as u64);
            self.s(") ");
        }
        if let Some(e) = ext_init {
            if gd.keywords.contains(&e) {
                self.s("externally_initialized ");
            }
        }
        self.s(if gd.is_constant {
            "constant "
        } else {
            "global "
        });
        self.ty(gd.value_ty);
        if let Some(init) = gd.init {
            self.c(b' ');
            self.operand(init.value);
        }
        let mut align_done = gd.align.is_none();
        for &p in &gd.tail {
            let t = m.strings.get(p);
            let t = t.strip_prefix(b",").unwrap_or(t);
            let t = trim_ascii_start(t);
            if t.starts_with(b"align") {
                if let Some(a) = gd.align {
                    self.s(", align ");
                    self.u(a);
                }
                align_done = true;
                continue;
            }
            if !align_done && t.starts_with(b"code_model") {
                self.s(", align ");
                self.u(gd.align.unwrap_or(1));
                align_done = true;
            }
            self.tail_piece(p);
        }
        if !align_done {
            self.s(", align ");
            self.u(gd.align.unwrap_or(1));
        }
        self.attachments(&gd.md, ", ");
        for gr in &gd.attrs.groups {
            self.s(" #");
            self.u(*gr as u64);
        }
    }

    fn alias(&mut self, a: crate::entity::Alias) {
        let m = self.m;
        let ad = &m.aliases[a];
        self.global_ref(ad.value);
        self.s(" = ");
        self.linkage(ad.linkage);
        self.keywords(&ad.keywords);
        self.s(if ad.is_ifunc { "ifunc " } else { "alias " });
        self.ty(ad.value_ty);
        self.s(", ");
        // LLVM writes a constant-expression aliasee without its type
        // (`alias i32, getelementptr (...)`); the parser reads both forms.
        let t = ad.target.value;
        let is_expr = matches!(m.constant(t), Some(Const::Expr { .. }));
        if is_expr {
            self.operand(t);
        } else {
            self.typed_operand(t);
        }
        for &p in &ad.tail {
            self.tail_piece(p);
        }
    }

    fn cc(&mut self, cc: CallConv) {
        match cc {
            CallConv::C => {}
            CallConv::Fast => self.s("fastcc"),
            CallConv::Cold => self.s("coldcc"),
            CallConv::PtxKernel => self.s("ptx_kernel"),
            CallConv::PtxDevice => self.s("ptx_device"),
            CallConv::Other(s) => self.sym(s),
        }
    }

    fn fn_attrs_comment(&mut self, f: Func) {
        self.ensure_mds();
        let m = self.m;
        let fa = &m.funcs[f].fn_attrs;
        let start = self.out.len();
        let mut any = false;
        let mut emit = |p: &mut Self, a: &Attr| {
            if a.is_string() {
                return;
            }
            if !any {
                p.s("; Function Attrs:");
                any = true;
            }
            p.c(b' ');
            p.attr(a);
        };
        for a in &fa.attrs {
            emit(self, a);
        }
        for g in &fa.groups {
            if let Some(&i) = self.groups.get(g) {
                for a in &m.attr_groups[i].attrs {
                    emit(self, a);
                }
            }
        }
        if any {
            // Verbatim attribute text may span lines; the comment may not.
            for c in &mut self.out[start..] {
                if matches!(*c, b'\n' | b'\r') {
                    *c = b' ';
                }
            }
            self.c(b'\n');
        }
    }

    fn function(&mut self, f: Func) {
        let m = self.m;
        self.enter_func(f);
        let fd = &m.funcs[f];
        self.s(if fd.is_definition {
            "define "
        } else {
            "declare "
        });
        if !fd.is_definition {
            // Declarations carry their attachments before the signature.
            for a in &fd.md {
                self.c(b'!');
                self.md_ident(a.kind);
                self.c(b' ');
                self.md_ref(MdRef::Node(a.node));
                self.c(b' ');
            }
        }
        self.linkage(fd.linkage);
        self.keywords(&fd.keywords);
        if fd.cc != CallConv::C {
            self.cc(fd.cc);
            self.c(b' ');
        }
        if !fd.ret_attrs.is_empty() {
            self.attrs_inline(&fd.ret_attrs);
            self.c(b' ');
        }
        let (ret, vararg) = match m.types.func_sig(fd.ty) {
            Some((r, _, va)) => (r, va),
            None => (fd.ty, false),
        };
        self.ty(ret);
        self.c(b' ');
        self.global_ref(fd.value);
        self.c(b'(');
        for (i, p) in fd.params.iter().enumerate() {
            if i > 0 {
                self.s(", ");
            }
            match m.values.get(p.value) {
                Some(pd) => self.ty(pd.ty),
                None => self.s("<badtype>"),
            }
            if !p.attrs.attrs.is_empty() {
                self.c(b' ');
                self.attrs_inline(&p.attrs);
            }
            if fd.is_definition {
                self.c(b' ');
                self.local_ref(p.value);
            }
        }
        if vararg {
            if !fd.params.is_empty() {
                self.s(", ");
            }
            self.s("...");
        }
        self.c(b')');
        if let Some(u) = fd.unnamed_addr {
            self.c(b' ');
            self.sym(u);
        }
        if let Some(a) = fd.extras().addrspace {
            self.s(" addrspace(");
            self.u(a as u64);
            self.c(b')');
        }
        self.fn_attrs(&fd.fn_attrs);
        if let Some(s) = fd.extras().section {
            self.s(" section ");
            self.quoted(s);
        }
        if let Some(s) = fd.extras().partition {
            self.s(" partition ");
            self.quoted(s);
        }
        if let Some(c) = fd.extras().comdat {
            self.s(" comdat");
            if let Some(c) = c {
                self.c(b'(');
                self.name(b'$', c);
                self.c(b')');
            }
        }
        if let Some(a) = fd.extras().align {
            self.s(" align ");
            self.u(a);
        }
        if let Some(g) = fd.extras().gc {
            self.s(" gc ");
            self.quoted(g);
        }
        for (i, kw) in [
            (1usize, " prefix "),
            (2, " prologue "),
            (0, " personality "),
        ] {
            if let Some(o) = fd.extras().extra_ops[i] {
                self.s(kw);
                self.typed_operand(o.value);
            }
        }
        if !fd.is_definition {
            self.c(b'\n');
            return;
        }
        self.attachments(&fd.md, " ");
        self.s(" {");
        let entry = fd.first_block.expand();
        for b in blocks_of(m, f) {
            let bd = &m.blocks[b];
            if let Some(n) = bd.name {
                self.c(b'\n');
                let bytes = m.strings.get(n);
                if is_bare_name(bytes) {
                    self.out.extend_from_slice(bytes);
                } else {
                    self.c(b'"');
                    escape_into(&mut self.out, bytes);
                    self.c(b'"');
                }
                self.c(b':');
            } else if Some(b) != entry {
                self.c(b'\n');
                if let Some(n) = self.lblocks.get(b) {
                    self.u(n as u64);
                } else {
                    self.s("<badref>");
                }
                self.c(b':');
            }
            self.c(b'\n');
            for i in insts_of(m, b) {
                self.inst(i);
                self.c(b'\n');
            }
        }
        self.s("}\n");
    }

    // ----- instructions -------------------------------------------------

    fn inst(&mut self, i: Inst) {
        let m = self.m;
        let d = &m.insts[i];
        let op = d.opcode;
        if op == Opcode::DbgRecord {
            self.s("    #dbg_");
            if let Extra::DbgRecord(k) = d.extra {
                self.sym(k);
            }
            self.c(b'(');
            for (n, o) in m.ops_of(d).iter().enumerate() {
                if n > 0 {
                    self.s(", ");
                }
                // Debug-record arguments are printed without `metadata`.
                self.operand(o.value);
            }
            self.c(b')');
            return;
        }
        self.s("  ");
        if let Some(r) = d.result.expand() {
            self.local_ref(r);
            self.s(" = ");
        }
        if op == Opcode::Verbatim {
            if let Extra::Verbatim(s) = d.extra {
                self.sym(s);
            }
            return;
        }
        let call = d.call();
        if op == Opcode::Call {
            let tail = match call.map(|c| c.tail).unwrap_or_default() {
                TailKind::None if d.flags.contains(InstFlags::MUSTTAIL) => TailKind::MustTail,
                TailKind::None if d.flags.contains(InstFlags::TAIL) => TailKind::Tail,
                TailKind::None if d.flags.contains(InstFlags::NOTAIL) => TailKind::NoTail,
                t => t,
            };
            match tail {
                TailKind::None => {}
                TailKind::Tail => self.s("tail "),
                TailKind::MustTail => self.s("musttail "),
                TailKind::NoTail => self.s("notail "),
            }
        }
        self.s(op.keyword());
        let mem = match d.extra {
            Extra::Mem {
                align,
                ordering,
                failure,
                syncscope,
                rmw_op,
            } => Some((align, ordering, failure, syncscope, rmw_op)),
            _ => None,
        };
        let ordering = mem.map(|x| x.1).unwrap_or_default();
        if matches!(op, Opcode::Load | Opcode::Store)
            && (d.flags.contains(InstFlags::ATOMIC) || ordering != Ordering::NotAtomic)
        {
            self.s(" atomic");
        }
        if op == Opcode::CmpXchg && d.flags.contains(InstFlags::WEAK) {
            self.s(" weak");
        }
        if matches!(
            op,
            Opcode::Load | Opcode::Store | Opcode::CmpXchg | Opcode::AtomicRmw
        ) && d.flags.contains(InstFlags::VOLATILE)
        {
            self.s(" volatile");
        }
        self.flags(op, d.flags);
        if matches!(op, Opcode::ICmp | Opcode::FCmp) {
            if let Extra::Cmp(p) = d.extra {
                self.c(b' ');
                self.pred(op, p.0);
            }
        }
        if op == Opcode::AtomicRmw {
            if let Some((_, _, _, _, Some(r))) = mem {
                self.c(b' ');
                self.sym(r);
            }
        }
        let ops = m.ops_of(d);
        let val = |k: usize| ops.get(k).map(|o| o.value);
        match op {
            Opcode::Br => {
                if let Some(c) = val(0) {
                    self.c(b' ');
                    self.typed_operand(c);
                    for b in m.block_ops_of(d).iter().take(2) {
                        self.s(", label ");
                        self.block_ref(*b);
                    }
                } else if let Some(b) = m.block_ops_of(d).first() {
                    self.s(" label ");
                    self.block_ref(*b);
                }
            }
            Opcode::Switch => {
                self.c(b' ');
                if let Some(c) = val(0) {
                    self.typed_operand(c);
                }
                self.s(", label ");
                if let Some(b) = m.block_ops_of(d).first() {
                    self.block_ref(*b);
                }
                self.s(" [");
                for (k, b) in m.block_ops_of(d).iter().enumerate().skip(1) {
                    self.s("\n    ");
                    if let Some(v) = val(k) {
                        self.typed_operand(v);
                    }
                    self.s(", label ");
                    self.block_ref(*b);
                }
                self.s("\n  ]");
            }
            Opcode::IndirectBr => {
                self.c(b' ');
                if let Some(c) = val(0) {
                    self.typed_operand(c);
                }
                self.s(", [");
                for (k, b) in m.block_ops_of(d).iter().enumerate() {
                    if k > 0 {
                        self.s(", ");
                    }
                    self.s("label ");
                    self.block_ref(*b);
                }
                self.c(b']');
            }
            Opcode::Phi => {
                self.c(b' ');
                self.ty(m.ty_of(d));
                self.c(b' ');
                for (k, o) in ops.iter().enumerate() {
                    if k > 0 {
                        self.s(", ");
                    }
                    self.s("[ ");
                    self.operand(o.value);
                    self.s(", ");
                    match m.block_ops_of(d).get(k) {
                        Some(b) => self.block_ref(*b),
                        None => self.s("%<badref>"),
                    }
                    self.s(" ]");
                }
            }
            Opcode::ExtractValue | Opcode::InsertValue => {
                self.c(b' ');
                for (k, o) in ops.iter().enumerate() {
                    if k > 0 {
                        self.s(", ");
                    }
                    self.typed_operand(o.value);
                }
                if let Extra::Indices(ix) = &d.extra {
                    for x in ix.iter() {
                        self.s(", ");
                        self.u(*x as u64);
                    }
                }
            }
            Opcode::LandingPad => {
                self.c(b' ');
                self.ty(m.ty_of(d));
                let cleanup = d.flags.contains(InstFlags::CLEANUP);
                if cleanup {
                    self.s("\n          cleanup");
                }
                let clauses: &[bool] = match &d.extra {
                    Extra::LandingPad(c) => c,
                    _ => &[],
                };
                for (k, o) in ops.iter().enumerate() {
                    let catch = clauses.get(k).copied().unwrap_or(true);
                    self.s(if catch {
                        "\n          catch "
                    } else {
                        "\n          filter "
                    });
                    self.typed_operand(o.value);
                }
            }
            Opcode::Ret if ops.is_empty() => self.s(" void"),
            Opcode::Call | Opcode::Invoke | Opcode::CallBr => self.call(i),
            Opcode::Alloca => {
                self.c(b' ');
                if d.flags.contains(InstFlags::INALLOCA) {
                    self.s("inalloca ");
                }
                if d.flags.contains(InstFlags::SWIFTERROR) {
                    self.s("swifterror ");
                }
                if let Extra::Alloca {
                    ty,
                    align,
                    addrspace,
                } = d.extra
                {
                    self.ty(ty);
                    if let Some(c) = val(0) {
                        let is_i32_one = m.values.get(c).is_some_and(|cd| {
                            matches!(m.const_of(cd), Some(Const::Int(Wide(1))))
                                && m.types.len() > cd.ty.index()
                                && m.types.int_bits(cd.ty) == Some(32)
                        });
                        if !is_i32_one {
                            self.s(", ");
                            self.typed_operand(c);
                        }
                    }
                    if let Some(a) = align {
                        self.s(", align ");
                        self.u(a.bytes());
                    }
                    if let Some(a) = addrspace {
                        if a != 0 {
                            self.s(", addrspace(");
                            self.u(a as u64);
                            self.c(b')');
                        }
                    }
                }
            }
            _ if op.is_cast() => {
                if let Some(v) = val(0) {
                    self.c(b' ');
                    self.typed_operand(v);
                }
                self.s(" to ");
                self.ty(m.ty_of(d));
            }
            Opcode::VAArg => {
                if let Some(v) = val(0) {
                    self.c(b' ');
                    self.typed_operand(v);
                }
                self.s(", ");
                self.ty(m.ty_of(d));
            }
            _ if !ops.is_empty() => {
                if let Extra::Gep { source_ty } = d.extra {
                    self.c(b' ');
                    self.ty(source_ty);
                    self.c(b',');
                } else if op == Opcode::Load {
                    self.c(b' ');
                    self.ty(m.ty_of(d));
                    self.c(b',');
                }
                let t0 = m.values.get(ops[0].value).map(|x| x.ty);
                let all = matches!(
                    op,
                    Opcode::Select
                        | Opcode::Store
                        | Opcode::ShuffleVector
                        | Opcode::Ret
                        | Opcode::CmpXchg
                        | Opcode::AtomicRmw
                ) || ops[1..]
                    .iter()
                    .any(|o| m.values.get(o.value).map(|x| x.ty) != t0);
                if !all {
                    self.c(b' ');
                    match t0 {
                        Some(t) => self.ty(t),
                        None => self.s("<badtype>"),
                    }
                }
                self.c(b' ');
                for (k, o) in ops.iter().enumerate() {
                    if k > 0 {
                        self.s(", ");
                    }
                    if all {
                        self.typed_operand(o.value);
                    } else {
                        self.operand(o.value);
                    }
                }
            }
            _ => {}
        }
        if let Some((align, ordering, failure, syncscope, _)) = mem {
            let atomic = ordering != Ordering::NotAtomic;
            if atomic || op == Opcode::Fence {
                if let Some(s) = syncscope {
                    self.s(" syncscope(");
                    self.quoted(s);
                    self.c(b')');
                }
                if atomic {
                    self.c(b' ');
                    self.s(ordering.keyword());
                }
                if op == Opcode::CmpXchg && failure != Ordering::NotAtomic {
                    self.c(b' ');
                    self.s(failure.keyword());
                }
            }
            if op != Opcode::Fence {
                if let Some(a) = align {
                    self.s(", align ");
                    self.u(a.bytes());
                }
            }
        }
        self.attachments(m.attachments_of(d), ", ");
    }

    fn call(&mut self, i: Inst) {
        let m = self.m;
        let d = &m.insts[i];
        let default = crate::inst::CallData::default();
        let c = d.call().unwrap_or(&default);
        if c.cc != CallConv::C {
            self.c(b' ');
            self.cc(c.cc);
        }
        if !c.ret_attrs.is_empty() {
            self.c(b' ');
            self.attrs_inline(&c.ret_attrs);
        }
        if let Some(a) = c.addrspace {
            self.s(" addrspace(");
            self.u(a as u64);
            self.c(b')');
        }
        self.c(b' ');
        let sig = c
            .fn_ty
            .and_then(|t| m.types.func_sig(t).map(|s| (t, s.0, s.2)));
        match sig {
            Some((ft, _, va)) if va || c.explicit_fn_ty => self.ty(ft),
            Some((_, r, _)) => self.ty(r),
            None => self.ty(m.ty_of(d)),
        }
        self.c(b' ');
        match m.ops_of(d).first() {
            Some(o) => self.operand(o.value),
            None => self.s("<badref>"),
        }
        self.c(b'(');
        let nargs = (c.nargs as usize).min(d.ops.len().saturating_sub(1));
        for k in 0..nargs {
            if k > 0 {
                self.s(", ");
            }
            let v = m.ops_of(d)[1 + k].value;
            match m.values.get(v) {
                Some(vd) => self.ty(vd.ty),
                None => self.s("<badtype>"),
            }
            if let Some(a) = c.param_attrs.get(k) {
                if !a.attrs.is_empty() {
                    self.c(b' ');
                    self.attrs_inline(a);
                }
            }
            self.c(b' ');
            self.operand(v);
        }
        if c.tail == TailKind::MustTail {
            if let Some(b) = m.seg_block(d.seg) {
                let f = m.blocks[b].func;
                if m.types.func_sig(m.funcs[f].ty).is_some_and(|s| s.2) {
                    if nargs > 0 {
                        self.s(", ");
                    }
                    self.s("...");
                }
            }
        }
        self.c(b')');
        self.fn_attrs(&c.fn_attrs);
        if !c.bundles.is_empty() {
            self.s(" [ ");
            for (k, b) in c.bundles.iter().enumerate() {
                if k > 0 {
                    self.s(", ");
                }
                self.quoted(b.tag);
                self.c(b'(');
                for j in 0..b.len as usize {
                    if j > 0 {
                        self.s(", ");
                    }
                    match m.ops_of(d).get(b.start as usize + j) {
                        Some(o) => self.typed_operand(o.value),
                        None => self.s("<badref>"),
                    }
                }
                self.c(b')');
            }
            self.s(" ]");
        }
        match d.opcode {
            Opcode::Invoke => {
                self.s("\n          to label ");
                match m.block_ops_of(d).first() {
                    Some(b) => self.block_ref(*b),
                    None => self.s("%<badref>"),
                }
                self.s(" unwind label ");
                match m.block_ops_of(d).get(1) {
                    Some(b) => self.block_ref(*b),
                    None => self.s("%<badref>"),
                }
            }
            Opcode::CallBr => {
                self.s("\n          to label ");
                match m.block_ops_of(d).first() {
                    Some(b) => self.block_ref(*b),
                    None => self.s("%<badref>"),
                }
                self.s(" [");
                for (k, b) in m.block_ops_of(d).iter().enumerate().skip(1) {
                    if k > 1 {
                        self.s(", ");
                    }
                    self.s("label ");
                    self.block_ref(*b);
                }
                self.c(b']');
            }
            _ => {}
        }
    }
}

/// Block-list walk that stops on dangling ids and after `blocks.len()`
/// steps, so a corrupted (cyclic) layout cannot hang the printer.
struct Blocks<'a> {
    m: &'a Module,
    cur: Option<Block>,
    left: usize,
}

impl Iterator for Blocks<'_> {
    type Item = Block;
    fn next(&mut self) -> Option<Block> {
        let b = self.cur?;
        let d = self.m.blocks.get(b)?;
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        self.cur = d.next.expand();
        Some(b)
    }
}

/// Instruction-list walk with the same guarantees as [`Blocks`].
struct Insts<'a> {
    m: &'a Module,
    cur: Option<Inst>,
    left: usize,
}

impl Iterator for Insts<'_> {
    type Item = Inst;
    fn next(&mut self) -> Option<Inst> {
        let i = self.cur?;
        let d = self.m.insts.get(i)?;
        if self.left == 0 {
            return None;
        }
        crate::prefetch::insts_ahead(&self.m.insts, i);
        self.left -= 1;
        self.cur = d.next.expand();
        Some(i)
    }
}

fn blocks_of(m: &Module, f: Func) -> Blocks<'_> {
    Blocks {
        m,
        cur: m.funcs.get(f).and_then(|d| d.first_block.expand()),
        left: m.blocks.len(),
    }
}

fn insts_of(m: &Module, b: Block) -> Insts<'_> {
    Insts {
        m,
        cur: m.blocks.get(b).and_then(|d| d.first.expand()),
        left: m.insts.len(),
    }
}

fn trim_ascii_start(mut b: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = b {
        if first.is_ascii_whitespace() {
            b = rest;
        } else {
            break;
        }
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;

    /// Local slots read back what was numbered, from the array when the
    /// values are close together and from the map when they are spread;
    /// a value numbered twice keeps its last slot, and clearing forgets
    /// every slot.
    #[test]
    fn local_slots_read_back_close_and_spread_values() {
        let v = Value::new;
        let mut s = LocalSlots::default();
        for (i, idx) in [10, 12, 11, 15].into_iter().enumerate() {
            s.insert(v(idx), i as u32);
        }
        s.insert(v(12), 7);
        s.place();
        assert!(!s.dense.is_empty() && s.map.is_empty());
        assert_eq!(
            [9, 10, 11, 12, 13, 15, 16].map(|i| s.get(v(i))),
            [None, Some(0), Some(2), Some(7), None, Some(3), None]
        );

        s.clear();
        assert_eq!(s.get(v(10)), None);
        let far = DENSE_SPREAD * 2 + DENSE_SLACK + 5;
        s.insert(v(3), 0);
        s.insert(v(3 + far), 1);
        s.place();
        assert!(s.dense.is_empty() && s.map.len() == 2);
        assert_eq!(
            [2, 3, 4, 3 + far].map(|i| s.get(v(i))),
            [None, Some(0), None, Some(1)]
        );

        s.clear();
        s.place();
        assert_eq!(s.get(v(3)), None);
    }

    /// `escape_into` copying runs of plain bytes writes what escaping byte
    /// by byte does (LLVM's `printEscapedString`), for every byte alone and
    /// inside runs, at the start, middle and end.
    #[test]
    fn escaping_in_runs_matches_byte_by_byte() {
        fn reference(bytes: &[u8]) -> Vec<u8> {
            let mut out = Vec::new();
            for &c in bytes {
                if c == b'\\' {
                    out.extend_from_slice(b"\\\\");
                } else if (0x20..0x7F).contains(&c) && c != b'"' {
                    out.push(c);
                } else {
                    out.push(b'\\');
                    out.push(HEX[(c >> 4) as usize]);
                    out.push(HEX[(c & 15) as usize]);
                }
            }
            out
        }
        let mut cases: Vec<Vec<u8>> = vec![Vec::new(), b"plain".to_vec()];
        for c in 0..=255u8 {
            cases.push(vec![c]);
            cases.push(vec![b'a', c, b'b', b'c']);
            cases.push(vec![c, c, b'x', c]);
        }
        for case in cases {
            let mut out = b"prefix".to_vec();
            escape_into(&mut out, &case);
            assert_eq!(out[6..], reference(&case)[..], "{case:?}");
        }
    }

    /// Constants printed from the memo read as those converted afresh:
    /// each value several times, `float` and `double`, and more distinct
    /// values than the memo holds, so it is emptied on the way.
    #[test]
    fn remembered_float_constants_print_as_converted() {
        use crate::types::FloatKind;
        let mut text = String::from("define void @f(ptr %p) {\nentry:\n");
        let value = |i: u64| {
            let v = (i as f64) * 0.37 - 11.0;
            if i.is_multiple_of(3) {
                let f = u128::from((v as f32).to_bits());
                ("float", float::printed_double(FloatKind::Float, f).unwrap())
            } else {
                ("double", v.to_bits())
            }
        };
        // Each value twice running, and one of a hundred recurring ones
        // after it: most are printed from the memo.
        for i in 0..FLOAT_MEMO_MAX as u64 + 700 {
            for (ty, bits) in [value(i), value(i), value(i % 100)] {
                let mut lit = Vec::new();
                float::write_double_bits(&mut lit, bits);
                let lit = String::from_utf8(lit).unwrap_or_default();
                text.push_str(&format!("  store {ty} {lit}, ptr %p, align 4\n"));
            }
        }
        text.push_str("  ret void\n}\n");
        let m = crate::parse_module(text.as_bytes()).expect("parses");
        let printed = crate::print_module(&m);
        assert!(printed.contains(&text[..text.len() - 2]), "round trip");
    }

    /// Every number up to 200,000 and each power of ten with its
    /// neighbours, up to `u64::MAX`, against `format!`.
    #[test]
    fn decimal_numbers_match_format() {
        let mut check = |v: u64| {
            let mut out = Vec::new();
            write_u64(&mut out, v);
            assert_eq!(out, format!("{v}").into_bytes(), "{v}");
        };
        (0..200_000).for_each(&mut check);
        let mut p = 1u64;
        while let Some(next) = p.checked_mul(10) {
            p = next;
            [p - 1, p, p + 1].into_iter().for_each(&mut check);
        }
        check(u64::MAX);
    }
}
