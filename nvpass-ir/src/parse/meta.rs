//! Metadata: numbered and named nodes, specialized nodes, operands.

use super::lexer::Tk;
use super::parser::Parser;
use super::PResult;
use crate::entity::{Md, Value};
use crate::metadata::{MdField, MdKind, MdNode, MdRef, NamedMd};
use alloc::format;
use alloc::vec::Vec;
use smallvec::SmallVec;

impl Parser<'_> {
    pub(crate) fn reset_lexer(&mut self, pos: usize) -> PResult<()> {
        self.set_lexer_pos(pos);
        self.bump()
    }

    /// The node numbered `n`, allocated on first reference.
    fn md_by_num(&mut self, n: u32, off: u32) -> Md {
        if let Some(&md) = self.md_num.get(&n) {
            return md;
        }
        let md = self.m.mds.push(MdNode {
            distinct: false,
            inline: false,
            kind: MdKind::Tuple(Vec::new()),
        });
        self.md_num.insert(n, md);
        self.md_fwd.insert(n, off);
        md
    }

    /// `!N = [distinct] !{...}` / `!N = [distinct] !DIxxx(...)`.
    pub fn parse_numbered_md(&mut self) -> PResult<()> {
        let t = self.tok;
        let n = t.val as u32;
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
                    kind: MdKind::Tuple(ops),
                }
            }
            Tk::IntType | Tk::Keyword if !distinct => {
                return Err(self.err("unexpected type in metadata definition"))
            }
            _ => return Err(self.err("expected metadata node")),
        };
        let md = match self.md_num.get(&n) {
            Some(&md) => {
                if self.md_fwd.remove(&n).is_none() {
                    return Err(self.err_at(t.start, format!("redefinition of metadata '!{n}'")));
                }
                self.m.mds[md] = node;
                md
            }
            None => {
                let md = self.m.mds.push(node);
                self.md_num.insert(n, md);
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
                        let md = self.md_by_num(self.tok.val as u32, self.tok.start);
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
    pub fn parse_md_node_ref(&mut self) -> PResult<MdRef> {
        let next = self.peek()?.kind;
        match self.tok.kind {
            Tk::MetaId | Tk::MetaVar => self.parse_md_ref(),
            Tk::Exclaim if next == Tk::LBrace => self.parse_md_ref(),
            _ => Err(self.err("expected metadata node")),
        }
    }

    /// Any metadata: node refs, `!"str"`, `null`, inline nodes or a typed
    /// value.
    pub fn parse_md_ref(&mut self) -> PResult<MdRef> {
        let t = self.tok;
        match t.kind {
            Tk::MetaId => {
                self.bump()?;
                Ok(MdRef::Node(self.md_by_num(t.val as u32, t.start)))
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
                            kind: MdKind::Tuple(ops),
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
                kind: MdKind::ArgList(ops),
            });
        }
        let mut fields: SmallVec<[(crate::entity::Sym, MdField); 4]> = SmallVec::new();
        let empty = self.m.strings.intern(b"");
        if !self.eat(Tk::RParen)? {
            loop {
                let next = self.peek()?.kind;
                let name = match self.tok.kind {
                    Tk::LabelStr => {
                        let n = self.label_name(self.tok);
                        let s = self.m.strings.intern(&n);
                        self.bump()?;
                        s
                    }
                    Tk::Keyword if next == Tk::Colon => {
                        let s = self.m.strings.intern(self.text(self.tok));
                        self.bump()?;
                        self.bump()?;
                        s
                    }
                    _ => empty,
                };
                let value = match self.tok.kind {
                    Tk::MetaId | Tk::MetaVar | Tk::Exclaim => MdField::Ref(self.parse_md_ref()?),
                    Tk::Keyword if self.is_kw(b"null") => {
                        self.bump()?;
                        MdField::Ref(MdRef::Null)
                    }
                    _ => MdField::Raw(self.parse_raw_field()?),
                };
                fields.push((name, value));
                if self.eat(Tk::RParen)? {
                    break;
                }
                self.expect(Tk::Comma, "expected ',' or ')' in metadata node")?;
            }
        }
        Ok(MdNode {
            distinct,
            inline,
            kind: MdKind::Specialized { class, fields },
        })
    }

    /// Verbatim field text up to the next ',' or ')' at nesting depth 0.
    fn parse_raw_field(&mut self) -> PResult<crate::entity::Sym> {
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
        Ok(self.intern_span(start, end))
    }
}
