//! Metadata: numbered and named nodes, specialized nodes, operands.

use super::lexer::{Tk, Token};
use super::parser::Parser;
use super::PResult;
use crate::entity::{Md, Value};
use crate::metadata::{DiLocation, MdField, MdKind, MdNode, MdRef, NamedMd};
use alloc::borrow::Cow;
use alloc::format;
use alloc::vec::Vec;
use cranelift_entity::EntityRef;
use hashbrown::HashMap;
use smallvec::SmallVec;

/// The nodes numbered `!N` so far, and the first reference to each one not
/// defined yet.
///
/// Numbers are kept in vectors indexed by `N` while they stay within
/// [`DENSE_SLACK`] of the count already seen (clang numbers nodes from 0
/// up, so a module's numbers are dense), and in maps beyond that, so that a
/// stray `!4000000000` costs one map entry, not gigabytes.
#[derive(Default)]
pub(crate) struct MdNumbers {
    /// Node of each number below `dense.len()`, as index + 1 (0: none).
    dense: Vec<u32>,
    /// Offset of the first reference to a number not defined yet
    /// ([`u32::MAX`]: defined or never referenced), indexed like `dense`.
    dense_fwd: Vec<u32>,
    sparse: HashMap<u32, Md>,
    sparse_fwd: HashMap<u32, u32>,
}

/// How far past the numbers already held a new number may lie and still be
/// stored densely.
const DENSE_SLACK: usize = 1 << 16;

impl MdNumbers {
    fn dense_index(&mut self, n: u32) -> Option<usize> {
        let i = n as usize;
        if i < self.dense.len() {
            return Some(i);
        }
        if i > self.dense.len() * 2 + DENSE_SLACK {
            return None;
        }
        self.dense.resize(i + 1, 0);
        self.dense_fwd.resize(i + 1, u32::MAX);
        Some(i)
    }

    /// The node numbered `n`, if it was referenced or defined.
    pub(crate) fn get(&self, n: u32) -> Option<Md> {
        match self.dense.get(n as usize) {
            Some(&d) if d != 0 => Some(Md::new(d as usize - 1)),
            // A number may have gone to the map before the vectors grew
            // past it.
            _ if self.sparse.is_empty() => None,
            _ => self.sparse.get(&n).copied(),
        }
    }

    /// Records `md` as node `n`; `forward` is the offset of its first
    /// reference when it is referenced before being defined.
    pub(crate) fn insert(&mut self, n: u32, md: Md, forward: Option<u32>) {
        match self.dense_index(n) {
            Some(i) => {
                self.dense[i] = md.index() as u32 + 1;
                if let Some(off) = forward {
                    self.dense_fwd[i] = off;
                }
            }
            None => {
                self.sparse.insert(n, md);
                if let Some(off) = forward {
                    self.sparse_fwd.insert(n, off);
                }
            }
        }
    }

    /// Marks `n` defined; returns the offset of its first reference if it
    /// was awaiting its definition.
    pub(crate) fn take_forward(&mut self, n: u32) -> Option<u32> {
        match self.dense_fwd.get_mut(n as usize) {
            Some(off) if *off != u32::MAX => Some(core::mem::replace(off, u32::MAX)),
            _ => self.sparse_fwd.remove(&n),
        }
    }

    /// Every number referenced and never defined, with its first
    /// reference's offset.
    pub(crate) fn undefined(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        let dense = self
            .dense_fwd
            .iter()
            .enumerate()
            .filter(|(_, &off)| off != u32::MAX)
            .map(|(n, &off)| (n as u32, off));
        dense.chain(self.sparse_fwd.iter().map(|(&n, &off)| (n, off)))
    }
}

impl<'a> Parser<'a> {
    pub(crate) fn reset_lexer(&mut self, pos: usize) -> PResult<()> {
        self.set_lexer_pos(pos);
        self.bump()
    }

    /// The node numbered `n`, allocated on first reference.
    fn md_by_num(&mut self, n: u32, off: u32) -> Md {
        if let Some(md) = self.md_nums.get(n) {
            return md;
        }
        let md = self.m.mds.push(MdNode {
            distinct: false,
            inline: false,
            kind: MdKind::Tuple(alloc::boxed::Box::default()),
        });
        self.md_nums.insert(n, md, Some(off));
        md
    }

    /// `!N = [distinct] !{...}` / `!N = [distinct] !DIxxx(...)`.
    pub fn parse_numbered_md(&mut self) -> PResult<()> {
        let t = self.tok;
        let n = t.val;
        self.bump()?;
        self.expect(Tk::Equal, "expected '=' here")?;
        let distinct = self.eat_kw(b"distinct")?;
        let node = match self.tok.kind {
            Tk::MetaVar => self.parse_specialized(distinct, false)?,
            Tk::Exclaim => {
                self.bump()?;
                if self.tok.kind != Tk::LBrace {
                    return Err(self.err("expected '{' here"));
                }
                let ops = self.parse_md_tuple_body()?;
                MdNode {
                    distinct,
                    inline: false,
                    kind: MdKind::Tuple(ops.into()),
                }
            }
            Tk::IntType | Tk::Keyword if !distinct => {
                return Err(self.err("unexpected type in metadata definition"))
            }
            _ => return Err(self.err("expected metadata node")),
        };
        let md = match self.md_nums.get(n) {
            Some(md) => {
                if self.md_nums.take_forward(n).is_none() {
                    return Err(self.err_at(t.start, format!("redefinition of metadata '!{n}'")));
                }
                self.m.mds[md] = node;
                md
            }
            None => {
                let md = self.m.mds.push(node);
                self.md_nums.insert(n, md, None);
                md
            }
        };
        self.m.md_numbered.push((n, md));
        Ok(())
    }

    /// `!name = !{!0, !1}`.
    pub fn parse_named_md(&mut self) -> PResult<()> {
        let t = self.tok;
        let name = self.md_name(t);
        let name = self.m.strings.intern(&name);
        self.bump()?;
        self.expect(Tk::Equal, "expected '=' here")?;
        self.expect(Tk::Exclaim, "Expected '!' here")?;
        self.expect(Tk::LBrace, "Expected '{' here")?;
        let mut ops = Vec::new();
        if !self.eat(Tk::RBrace)? {
            loop {
                match self.tok.kind {
                    Tk::MetaId => {
                        let md = self.md_by_num(self.tok.val, self.tok.start);
                        self.bump()?;
                        ops.push(md);
                    }
                    Tk::MetaVar => {
                        let node = self.parse_specialized(false, true)?;
                        ops.push(self.m.mds.push(node));
                    }
                    _ => return Err(self.err("expected metadata node")),
                }
                if self.eat(Tk::RBrace)? {
                    break;
                }
                self.expect(Tk::Comma, "expected ',' or '}' in named metadata")?;
            }
        }
        self.m.named_md.push(NamedMd { name, ops });
        Ok(())
    }

    /// `{ ... }` of a tuple (at the '{'); consumes the '}'.
    fn parse_md_tuple_body(&mut self) -> PResult<Vec<MdRef>> {
        self.enter()?;
        self.bump()?;
        let mut ops = Vec::new();
        if !self.eat(Tk::RBrace)? {
            loop {
                ops.push(self.parse_md_ref()?);
                if self.eat(Tk::RBrace)? {
                    break;
                }
                self.expect(Tk::Comma, "expected ',' or '}' in metadata tuple")?;
            }
        }
        self.leave();
        Ok(ops)
    }

    /// A metadata node reference: `!N`, `!{...}` or `!DIxxx(...)`.
    pub fn parse_md_node_ref(&mut self) -> PResult<Md> {
        let next = self.peek()?.kind;
        let is_node = match self.tok.kind {
            Tk::MetaId | Tk::MetaVar => true,
            Tk::Exclaim => next == Tk::LBrace,
            _ => false,
        };
        if is_node {
            if let MdRef::Node(n) = self.parse_md_ref()? {
                return Ok(n);
            }
        }
        Err(self.err("expected metadata node"))
    }

    /// Any metadata: node refs, `!"str"`, `null`, inline nodes or a typed
    /// value.
    pub fn parse_md_ref(&mut self) -> PResult<MdRef> {
        let t = self.tok;
        match t.kind {
            Tk::MetaId => {
                self.bump()?;
                Ok(MdRef::Node(self.md_by_num(t.val, t.start)))
            }
            Tk::MetaVar => {
                let node = self.parse_specialized(false, true)?;
                Ok(MdRef::Node(self.m.mds.push(node)))
            }
            Tk::Exclaim => {
                self.bump()?;
                match self.tok.kind {
                    Tk::Str => {
                        let b = self.str_bytes(self.tok);
                        let s = self.m.strings.intern(&b);
                        self.bump()?;
                        Ok(MdRef::String(s))
                    }
                    Tk::LBrace => {
                        let ops = self.parse_md_tuple_body()?;
                        Ok(MdRef::Node(self.m.mds.push(MdNode {
                            distinct: false,
                            inline: true,
                            kind: MdKind::Tuple(ops.into()),
                        })))
                    }
                    _ => Err(self.err("expected metadata string or node")),
                }
            }
            Tk::Keyword if self.is_kw(b"null") => {
                self.bump()?;
                Ok(MdRef::Null)
            }
            _ => {
                let ty = self.parse_type()?;
                if ty == self.ty_md {
                    return Err(self.err_at(t.start, "expected value, not metadata".into()));
                }
                let v = self.parse_value(ty)?;
                Ok(MdRef::Value(ty, v))
            }
        }
    }

    /// The operand after a `metadata` type.
    pub fn parse_md_operand(&mut self) -> PResult<Value> {
        let r = self.parse_md_ref()?;
        let inner = match r {
            MdRef::Value(_, v) => Some(v),
            _ => None,
        };
        Ok(self.m.new_md_value(r, inner))
    }

    /// `!DIxxx(field: value, ...)` at the class token.
    fn parse_specialized(&mut self, distinct: bool, inline: bool) -> PResult<MdNode> {
        self.enter()?;
        let r = self.parse_specialized_inner(distinct, inline);
        self.leave();
        r
    }

    fn parse_specialized_inner(&mut self, distinct: bool, inline: bool) -> PResult<MdNode> {
        let t = self.tok;
        let cname = self.md_name(t);
        let is_arglist = &*cname == b"DIArgList";
        let class = self.m.strings.intern(&cname);
        self.bump()?;
        self.expect(Tk::LParen, "expected '(' here")?;
        if is_arglist {
            let mut ops = Vec::new();
            if !self.eat(Tk::RParen)? {
                loop {
                    ops.push(self.parse_md_ref()?);
                    if self.eat(Tk::RParen)? {
                        break;
                    }
                    self.expect(Tk::Comma, "expected ',' or ')' in DIArgList")?;
                }
            }
            return Ok(MdNode {
                distinct,
                inline,
                kind: MdKind::ArgList(ops.into()),
            });
        }
        // Names and verbatim values are kept as spans until the node is
        // complete: a location in LLVM's own form needs neither interned.
        let mut raw: SmallVec<[(FieldName, FieldValue); 6]> = SmallVec::new();
        if !self.eat(Tk::RParen)? {
            loop {
                let next = self.peek()?.kind;
                let name = match self.tok.kind {
                    Tk::LabelStr => {
                        let n = FieldName::Label(self.tok);
                        self.bump()?;
                        n
                    }
                    Tk::Keyword if next == Tk::Colon => {
                        let n = FieldName::Key(self.tok);
                        self.bump()?;
                        self.bump()?;
                        n
                    }
                    _ => FieldName::Positional,
                };
                let value = match self.tok.kind {
                    Tk::MetaId | Tk::MetaVar | Tk::Exclaim => FieldValue::Ref(self.parse_md_ref()?),
                    Tk::Keyword if self.is_kw(b"null") => {
                        self.bump()?;
                        FieldValue::Ref(MdRef::Null)
                    }
                    _ => {
                        let (start, end) = self.parse_raw_field()?;
                        FieldValue::Raw(start, end)
                    }
                };
                raw.push((name, value));
                if self.eat(Tk::RParen)? {
                    break;
                }
                self.expect(Tk::Comma, "expected ',' or ')' in metadata node")?;
            }
        }
        let location = (&*cname == b"DILocation")
            .then(|| self.location(&raw))
            .flatten();
        let kind = match location {
            Some(loc) => MdKind::Location(loc),
            None => {
                let mut fields = Vec::with_capacity(raw.len());
                for (name, value) in &raw {
                    let name = self.field_name(name);
                    let name = self.m.strings.intern(&name);
                    let value = match *value {
                        FieldValue::Ref(r) => MdField::Ref(r),
                        FieldValue::Raw(start, end) => MdField::Raw(self.intern_span(start, end)),
                    };
                    fields.push((name, value));
                }
                MdKind::Specialized {
                    class,
                    fields: fields.into_boxed_slice(),
                }
            }
        };
        Ok(MdNode {
            distinct,
            inline,
            kind,
        })
    }

    /// The name of a specialized node's field (empty for a positional
    /// operand such as `DW_OP_deref`).
    fn field_name(&self, name: &FieldName) -> Cow<'a, [u8]> {
        match *name {
            FieldName::Positional => Cow::Borrowed(&[]),
            FieldName::Label(t) => self.label_name(t),
            FieldName::Key(t) => Cow::Borrowed(self.text(t)),
        }
    }

    /// The fields of a `DILocation` as a [`DiLocation`], when they are
    /// written exactly as the printer writes one back (see its docs).
    fn location(&self, fields: &[(FieldName, FieldValue)]) -> Option<DiLocation> {
        let name = |i: usize| fields.get(i).map(|(n, _)| self.field_name(n));
        let number = |i: usize| match fields[i].1 {
            FieldValue::Raw(start, end) => decimal_u32(&self.src[start as usize..end as usize]),
            FieldValue::Ref(_) => None,
        };
        let node = |i: usize| match fields[i].1 {
            FieldValue::Ref(MdRef::Node(n)) => Some(n),
            _ => None,
        };
        if *name(0)? != *b"line" {
            return None;
        }
        let (column, mut i) = match &*name(1)? {
            // `column: 0` is not LLVM's form (it writes no column).
            b"column" => (Some(core::num::NonZeroU32::new(number(1)?)?), 2),
            _ => (None, 1),
        };
        if *name(i)? != *b"scope" {
            return None;
        }
        let mut loc = DiLocation {
            line: number(0)?,
            column,
            scope: node(i)?,
            inlined_at: None,
            implicit_code: false,
        };
        i += 1;
        if name(i).as_deref() == Some(b"inlinedAt") {
            loc.inlined_at = Some(node(i)?);
            i += 1;
        }
        if name(i).as_deref() == Some(b"isImplicitCode") {
            match fields[i].1 {
                FieldValue::Raw(start, end)
                    if &self.src[start as usize..end as usize] == b"true" =>
                {
                    loc.implicit_code = true
                }
                _ => return None,
            }
            i += 1;
        }
        (i == fields.len()).then_some(loc)
    }

    /// Verbatim field text up to the next ',' or ')' at nesting depth 0.
    fn parse_raw_field(&mut self) -> PResult<(u32, u32)> {
        let start = self.tok.start;
        let mut end = start;
        let mut depth = 0u32;
        loop {
            match self.tok.kind {
                Tk::Comma | Tk::RParen if depth == 0 => break,
                Tk::LParen | Tk::LBrace | Tk::LSquare => depth += 1,
                Tk::RParen | Tk::RBrace | Tk::RSquare => {
                    if depth == 0 {
                        return Err(self.err("expected ',' or ')' in metadata node"));
                    }
                    depth -= 1
                }
                Tk::Eof => return Err(self.err("expected ')' in metadata node")),
                _ => {}
            }
            end = self.tok.end;
            self.bump()?;
        }
        if end == start {
            return Err(self.err("expected metadata field value"));
        }
        Ok((start, end))
    }
}

/// A field name of a specialized node, as written.
enum FieldName {
    /// No name: a positional operand (`!DIExpression(DW_OP_deref)`).
    Positional,
    /// `"name":` or `name:` lexed as a label.
    Label(Token),
    /// `name` `:`.
    Key(Token),
}

/// A field value of a specialized node while the node is read.
enum FieldValue {
    /// A metadata reference or `null`.
    Ref(MdRef),
    /// Verbatim text: the byte span in the source.
    Raw(u32, u32),
}

/// `text` as a `u32` when it is the number's canonical decimal spelling
/// (no sign, no leading zero), so that printing the number gives it back.
fn decimal_u32(text: &[u8]) -> Option<u32> {
    let canonical = match text {
        [b'0'] => true,
        [first, ..] => *first != b'0' && text.iter().all(u8::is_ascii_digit),
        [] => false,
    };
    if !canonical || text.len() > 10 {
        return None;
    }
    let n = text.iter().fold(0u64, |n, &d| n * 10 + u64::from(d - b'0'));
    u32::try_from(n).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_canonical_decimals_are_numbers() {
        assert_eq!(decimal_u32(b"0"), Some(0));
        assert_eq!(decimal_u32(b"17"), Some(17));
        assert_eq!(decimal_u32(b"4294967295"), Some(u32::MAX));
        for t in [
            &b""[..],
            b"007",
            b"00",
            b"-1",
            b"+1",
            b"1e3",
            b"0x10",
            b"4294967296",
            b"99999999999",
        ] {
            assert_eq!(decimal_u32(t), None, "{}", String::from_utf8_lossy(t));
        }
    }

    #[test]
    fn dense_numbers() {
        let mut t = MdNumbers::default();
        assert_eq!(t.get(3), None);
        t.insert(3, Md::new(9), Some(10));
        t.insert(1, Md::new(4), None);
        assert_eq!(t.get(3), Some(Md::new(9)));
        assert_eq!(t.get(1), Some(Md::new(4)));
        assert_eq!(t.get(2), None);
        assert_eq!(t.undefined().collect::<Vec<_>>(), [(3, 10)]);
        assert_eq!(t.take_forward(3), Some(10));
        assert_eq!(t.take_forward(3), None);
        assert_eq!(t.take_forward(1), None);
        assert_eq!(t.undefined().count(), 0);
        assert!(t.sparse.is_empty() && t.dense.len() == 4);
    }

    #[test]
    fn far_numbers_go_to_the_map_and_stay_found() {
        let mut t = MdNumbers::default();
        t.insert(4_000_000_000, Md::new(1), Some(5));
        t.insert(100_000, Md::new(2), Some(7));
        assert!(t.dense.is_empty(), "no vector entry for a far number");
        assert_eq!(t.get(4_000_000_000), Some(Md::new(1)));
        // The vectors grow past 100,000; the number stored in the map
        // before that is still found, and its forward reference too.
        for n in 0..70_000 {
            t.insert(n, Md::new(10 + n as usize), None);
        }
        t.insert(100_001, Md::new(3), None);
        assert!(t.dense.len() > 100_000);
        assert_eq!(t.get(100_000), Some(Md::new(2)));
        let mut undefined: Vec<(u32, u32)> = t.undefined().collect();
        undefined.sort_unstable();
        assert_eq!(undefined, [(100_000, 7), (4_000_000_000, 5)]);
        assert_eq!(t.take_forward(100_000), Some(7));
        assert_eq!(t.take_forward(4_000_000_000), Some(5));
        assert_eq!(t.undefined().count(), 0);
    }
}
