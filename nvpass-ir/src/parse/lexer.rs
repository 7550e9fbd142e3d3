//! Tokenizer for LLVM textual IR over raw bytes.
//!
//! Tokens carry byte offsets into the source, never owned text; the parser
//! decodes names and strings only when it needs them.

use super::PErr;
use crate::inst::Opcode;
use alloc::borrow::Cow;
use alloc::format;
use alloc::vec::Vec;

/// Token kinds. Four bytes wide, so a [`Token`] has no padding and
/// moves as two words.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[repr(u32)]
pub(crate) enum Tk {
    Eof,
    Equal,
    Comma,
    Star,
    LSquare,
    RSquare,
    LBrace,
    RBrace,
    LParen,
    RParen,
    Less,
    Greater,
    Exclaim,
    Bar,
    Colon,
    DotDotDot,
    /// `%name` / `%"name"`.
    LocalVar,
    /// `%N` (number in `val`).
    LocalId,
    /// `@name` / `@"name"`.
    GlobalVar,
    /// `@N`.
    GlobalId,
    /// `$name` / `$"name"`.
    ComdatVar,
    /// `!name` (metadata name, escapes allowed).
    MetaVar,
    /// `!N`.
    MetaId,
    /// `#N`.
    AttrGrpId,
    /// `#dbg_xxx`.
    DbgRecord,
    /// `name:` or `"name":`.
    LabelStr,
    /// `N:`.
    LabelId,
    /// `[a-zA-Z_][a-zA-Z0-9_]*`.
    Keyword,
    /// `iN` (width in `val`).
    IntType,
    /// `"..."` (span includes the quotes).
    Str,
    /// Integer literal: `-?[0-9]+`, `u0x..`, `s0x..`.
    Int,
    /// Floating-point literal: decimal or `0x`/`0xK`/... hex.
    Float,
    /// A lexical error; [`Lexer::take_error`] gives it. The last kind
    /// ([`Token::from_words`] checks that a kind is at most this one).
    Error,
}

/// A token: kind, byte span and a numeric payload, sixteen bytes. Where a
/// function returns one in registers, it returns [`Token::to_words`].
#[derive(Copy, Clone, Debug)]
pub(crate) struct Token {
    pub kind: Tk,
    pub start: u32,
    pub end: u32,
    /// Numeric payload (ids, integer widths; ids are checked to fit).
    pub val: u32,
}

impl Token {
    /// The token as two words: kind and start, end and payload.
    #[inline(always)]
    fn to_words(self) -> (u64, u64) {
        (
            self.kind as u32 as u64 | (self.start as u64) << 32,
            self.end as u64 | (self.val as u64) << 32,
        )
    }

    /// The token [`Token::to_words`] gave `w`.
    #[inline(always)]
    fn from_words(w: (u64, u64)) -> Token {
        let kind = w.0 as u32;
        debug_assert!(kind <= Tk::Error as u32);
        // SAFETY: `kind` is the discriminant of the `Tk` that `to_words`
        // read (`Tk` is `repr(u32)`).
        let kind = unsafe { core::mem::transmute::<u32, Tk>(kind) };
        Token {
            kind,
            start: (w.0 >> 32) as u32,
            end: w.1 as u32,
            val: (w.1 >> 32) as u32,
        }
    }

    /// The empty end-of-input token a parser starts from.
    pub(crate) const START: Token = Token {
        kind: Tk::Eof,
        start: 0,
        end: 0,
        val: 0,
    };
}

/// Maximum integer type width (LLVM's `IntegerType::MAX_INT_BITS`).
pub(crate) const MAX_INT_BITS: u64 = 1 << 23;

/// Byte classes, one table lookup per byte in the hot scanning loops.
const LABEL: u8 = 1;
const NAME_START: u8 = 2;
const DIGIT: u8 = 4;
const SPACE: u8 = 8;
const KEYWORD: u8 = 16;

static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0usize;
    while c < 256 {
        let b = c as u8;
        let mut k = 0;
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'$' | b'.' | b'_') {
            k |= LABEL;
        }
        if b.is_ascii_alphabetic() || matches!(b, b'-' | b'$' | b'.' | b'_') {
            k |= NAME_START;
        }
        if b.is_ascii_digit() {
            k |= DIGIT;
        }
        if b.is_ascii_alphanumeric() || b == b'_' {
            k |= KEYWORD;
        }
        if matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0b' | b'\x0c') {
            k |= SPACE;
        }
        t[c] = k;
        c += 1;
    }
    t
};

#[inline]
fn is_label_char(c: u8) -> bool {
    CLASS[c as usize] & LABEL != 0
}

#[inline]
fn is_name_start(c: u8) -> bool {
    CLASS[c as usize] & NAME_START != 0
}

/// The lexer state: the source and a cursor.
pub(crate) struct Lexer<'a> {
    pub src: &'a [u8],
    /// Where lexing resumes, kept only while the lexer lexes the text
    /// itself (past the batch, while it hands one out); [`Lexer::seek`]
    /// moves it.
    pos: usize,
    /// The error of the last [`Tk::Error`] token.
    error: Option<PErr>,
    /// Tokens of `src` lexed ahead of time (see [`Lexer::with_tokens`]).
    ahead: &'a [Token],
    /// The values of the floating-point literals among `ahead` that
    /// [`lex_all`] decoded.
    ahead_floats: &'a [u64],
    /// The next token of `ahead` to hand out, or [`OFF_TRACK`] while the
    /// lexer lexes the text itself. While it hands out tokens of `ahead`,
    /// `pos` is not kept: the position is the end of the token before
    /// `ahead[ahead_next]` ([`Lexer::ahead_end`]).
    ahead_next: usize,
    /// Without tokens lexed ahead, the tokens lexed in one go from `pos`
    /// (see [`BATCH`]); `pos` is past the last of them.
    batch: Vec<Token>,
    /// The next token of `batch` to hand out.
    batch_next: usize,
}

/// Without tokens lexed ahead (on another thread), the lexer lexes this
/// many tokens at a time into a buffer the parser takes them from, so
/// the cursor and the text stay in registers from one token to the next
/// and the parser's call into the lexer is paid once a batch. A batch
/// ends early at the end of the text or at an error; moving the lexer
/// ([`Lexer::seek`]) drops what is left of it. Sixteen bytes a token:
/// the buffer stays in the first-level cache.
pub(crate) const BATCH: usize = 64;

/// [`Lexer::ahead_next`] while the lexer lexes the text itself from `pos`.
const OFF_TRACK: usize = usize::MAX;

impl<'a> Lexer<'a> {
    pub fn new(src: &'a [u8]) -> Self {
        Self::with_tokens(src, &[], &[])
    }

    /// A lexer over `src` that hands out `tokens`, the tokens [`lex_all`]
    /// found in `src`, instead of lexing them again. Moved elsewhere (by
    /// setting `pos`), it lexes the text itself until it meets a token of
    /// `tokens` again; past their end (an error or the end of `src`), it
    /// lexes as usual.
    /// `floats` are the values [`lex_all`] decoded with them.
    pub fn with_tokens(src: &'a [u8], tokens: &'a [Token], floats: &'a [u64]) -> Self {
        Lexer {
            src,
            pos: 0,
            error: None,
            ahead: tokens,
            ahead_floats: floats,
            ahead_next: if tokens.is_empty() { OFF_TRACK } else { 0 },
            batch: Vec::new(),
            batch_next: 0,
        }
    }

    /// While the lexer hands out tokens lexed ahead, the position the next
    /// token is lexed from (before its whitespace): the end of the last
    /// one handed out.
    fn ahead_end(&self) -> usize {
        match self.ahead_next {
            0 => 0,
            i => self.ahead[i - 1].end as usize,
        }
    }

    /// Moves the lexer to `pos`; the next token is the one lexed from
    /// there.
    pub fn seek(&mut self, pos: usize) {
        self.pos = pos;
        self.ahead_next = OFF_TRACK;
        self.batch.clear();
        self.batch_next = 0;
    }

    /// The next token: from the tokens lexed ahead when the lexer stands
    /// where they continue, otherwise lexed here; on an error, a
    /// [`Tk::Error`] token whose error [`Lexer::take_error`] gives.
    #[inline]
    pub fn next(&mut self) -> Token {
        // `OFF_TRACK` is never an index of `ahead`, so one bounds check
        // covers both "off track" and "past the tokens lexed ahead".
        if let Some(&t) = self.ahead.get(self.ahead_next) {
            self.ahead_next += 1;
            return t;
        }
        if let Some(&t) = self.batch.get(self.batch_next) {
            self.batch_next += 1;
            return t;
        }
        Token::from_words(self.next_lexed())
    }

    /// The token [`Lexer::next`] gives next, without taking it.
    #[inline]
    pub fn peek(&mut self) -> Token {
        if let Some(&t) = self.ahead.get(self.ahead_next) {
            return t;
        }
        if let Some(&t) = self.batch.get(self.batch_next) {
            return t;
        }
        self.peek_lexed()
    }

    /// [`Lexer::peek`] when the token is still to be lexed: lexes it
    /// ([`Lexer::next_lexed`]) and puts it back, where the next
    /// [`Lexer::next`] finds it first. Lexing a batch, it is the batch's
    /// first token; back on the tokens lexed ahead, one of them; lexing
    /// away from them, the only token of the batch.
    #[cold]
    fn peek_lexed(&mut self) -> Token {
        let t = Token::from_words(self.next_lexed());
        if self.ahead.is_empty() {
            self.batch_next -= 1;
        } else if self.ahead_next != OFF_TRACK {
            self.ahead_next -= 1;
        } else {
            self.batch.clear();
            self.batch.push(t);
            self.batch_next = 0;
        }
        t
    }

    /// Lexes one token where the lexer stands, away from the tokens lexed
    /// ahead (moved by [`Lexer::seek`], or past their end); when it is one
    /// of them (lexing is a function of the position alone), continues
    /// handing them out from there.
    ///
    /// The token comes back as two words ([`Token::to_words`]), which are
    /// returned in registers; a `Token` is returned through memory, built
    /// there field by field and then copied whole, and that copy waits for
    /// the four narrow stores before it (no store forwarding), on every
    /// token.
    ///
    /// Without tokens lexed ahead, it lexes a [`BATCH`] and hands out the
    /// first.
    #[cold]
    fn next_lexed(&mut self) -> (u64, u64) {
        if self.ahead.is_empty() {
            return self.lex_batch();
        }
        if self.ahead_next != OFF_TRACK {
            // Past the end of the tokens lexed ahead (at an error or at
            // the end of the text): go on from the end of the last one.
            self.pos = self.ahead_end();
            self.ahead_next = OFF_TRACK;
        }
        let t = self.lex();
        if t.kind == Tk::Error {
            return t.to_words();
        }
        let i = self.ahead.partition_point(|a| a.start < t.start);
        if self.ahead.get(i).is_some_and(|a| a.start == t.start) {
            self.ahead_next = i + 1;
        }
        t.to_words()
    }

    /// Lexes up to [`BATCH`] tokens from `pos` into `batch`, ending early
    /// after the end of the text or an error, and hands out the first.
    fn lex_batch(&mut self) -> (u64, u64) {
        self.batch.clear();
        self.batch.reserve(BATCH);
        loop {
            let t = self.lex();
            self.batch.push(t);
            if matches!(t.kind, Tk::Eof | Tk::Error) || self.batch.len() == BATCH {
                break;
            }
        }
        self.batch_next = 1;
        self.batch[0].to_words()
    }

    /// The error the last [`Tk::Error`] token stands for.
    pub fn take_error(&mut self) -> PErr {
        self.error
            .take()
            .unwrap_or_else(|| PErr::new(self.pos as u32, "invalid token".into()))
    }

    /// What [`lex_all`] found when it looked keyword `t` up: `Some` of the
    /// opcode it names, or `Some(None)` when it names none; `None` when it
    /// was not looked up and is to be looked up from the text.
    #[inline]
    pub fn ahead_opcode(t: Token) -> Option<Option<Opcode>> {
        if t.kind != Tk::Keyword || t.val == 0 {
            return None;
        }
        Some(Opcode::ALL.get(t.val as usize - 1).copied())
    }

    /// The value of floating-point literal `t` when [`lex_all`] decoded it
    /// (see [`FloatText::Double`]); `None` when it is to be read from the
    /// text.
    #[inline]
    pub fn ahead_float(&self, t: Token) -> Option<u64> {
        if t.kind != Tk::Float {
            return None;
        }
        let i = (t.val as usize).checked_sub(1)?;
        self.ahead_floats.get(i).copied()
    }

    #[inline]
    fn at(&self, i: usize) -> u8 {
        self.src.get(i).copied().unwrap_or(0)
    }

    /// Records an error at `off` and returns the [`Tk::Error`] token
    /// standing for it.
    ///
    /// Only the recording is out of line. The token is built here, like
    /// every other token, so that no call writes a token through a
    /// pointer: that would keep the token [`Lexer::lex`] returns in
    /// memory, written field by field and read back whole, which stalls
    /// the load on every token.
    #[inline(always)]
    fn fail(&mut self, off: usize, msg: &str) -> Token {
        Self::error_token(self.record_error(off, msg))
    }

    /// Records an error at `off`; returns `off`, for
    /// [`Lexer::error_token`].
    #[cold]
    #[inline(never)]
    fn record_error(&mut self, off: usize, msg: &str) -> usize {
        self.error = Some(PErr::new(off as u32, msg.into()));
        off
    }

    /// The [`Tk::Error`] token of an error recorded at `off`.
    #[inline(always)]
    fn error_token(off: usize) -> Token {
        Token {
            kind: Tk::Error,
            start: off as u32,
            end: off as u32,
            val: 0,
        }
    }

    #[inline(always)]
    fn tok(&self, kind: Tk, start: usize, val: u32) -> Token {
        Token {
            kind,
            start: start as u32,
            end: self.pos as u32,
            val,
        }
    }

    /// Skips whitespace and `;` comments.
    #[inline(always)]
    fn skip_ws(&mut self) {
        let s = self.src;
        let mut pos = self.pos;
        while let Some(&c) = s.get(pos) {
            if CLASS[c as usize] & SPACE != 0 {
                pos += 1;
            } else if c == b';' {
                pos += s[pos..]
                    .iter()
                    .position(|&c| c == b'\n' || c == b'\r')
                    .unwrap_or(s.len() - pos);
            } else {
                break;
            }
        }
        self.pos = pos;
    }

    /// Scans a quoted string starting at `self.pos` (on the opening quote).
    /// Leaves `pos` after the closing quote. On an error, records it and
    /// returns its offset (see [`Lexer::fail`] on why not a token).
    fn scan_quoted(&mut self) -> Result<(), usize> {
        let start = self.pos;
        self.pos += 1;
        match memchr(b'"', &self.src[self.pos..]) {
            Some(i) => {
                self.pos += i + 1;
                Ok(())
            }
            None => {
                self.pos = self.src.len();
                let before = &self.src[..start];
                let line = 1 + before.iter().filter(|&&c| c == b'\n').count();
                let col = start
                    - before
                        .iter()
                        .rposition(|&c| c == b'\n')
                        .map_or(0, |p| p + 1)
                    + 1;
                Err(self.record_error(
                    self.src.len(),
                    &format!("expected '\"' to close string constant starting at {line}:{col}"),
                ))
            }
        }
    }

    /// Scans decimal digits; returns the value (saturating) and count.
    #[inline(always)]
    fn scan_digits(&mut self) -> (u64, usize) {
        let mut v: u64 = 0;
        let start = self.pos;
        let mut pos = start;
        while let Some(&c) = self.src.get(pos) {
            if CLASS[c as usize] & DIGIT == 0 {
                break;
            }
            v = v.saturating_mul(10).saturating_add((c - b'0') as u64);
            pos += 1;
        }
        self.pos = pos;
        (v, pos - start)
    }

    /// If label characters starting at `from` end with ':', returns the end
    /// (after the colon).
    fn label_tail(&self, from: usize) -> Option<usize> {
        let mut i = from;
        while is_label_char(self.at(i)) {
            i += 1;
        }
        (self.at(i) == b':').then_some(i + 1)
    }

    /// `v` as a `u32`; otherwise records an error at `start` and returns
    /// its offset.
    fn id_number(&mut self, start: usize, v: u64, what: &str) -> Result<u32, usize> {
        u32::try_from(v).map_err(|_| self.record_error(start, &format!("{what} number too large")))
    }

    /// `%`, `@`, `$` prefixed names.
    #[inline(always)]
    fn lex_var(&mut self, named: Tk, id: Tk) -> Token {
        let start = self.pos;
        self.pos += 1;
        let c = self.at(self.pos);
        if c == b'"' {
            if let Err(off) = self.scan_quoted() {
                return Self::error_token(off);
            }
            if self.pos - start == 3 {
                return self.fail(start, "empty name");
            }
            if memchr(0, &self.src[start..self.pos]).is_some() {
                return self.fail(start, "null bytes not allowed in names");
            }
            return self.tok(named, start, 0);
        }
        if is_name_start(c) {
            let s = self.src;
            let mut pos = self.pos;
            while pos < s.len() && is_label_char(s[pos]) {
                pos += 1;
            }
            self.pos = pos;
            return self.tok(named, start, 0);
        }
        if c.is_ascii_digit() && id != Tk::Eof {
            let (v, _) = self.scan_digits();
            let v = match self.id_number(start, v, "value") {
                Ok(v) => v,
                Err(off) => return Self::error_token(off),
            };
            return self.tok(id, start, v);
        }
        self.fail(start, "expected name after sigil")
    }

    /// Lexes the next token from the text; on an error, a [`Tk::Error`]
    /// token whose error [`Lexer::take_error`] gives.
    ///
    /// It and the scanners of the common tokens are inlined into their
    /// callers, the loops of [`lex_all`] and [`Lexer::lex_batch`] and the
    /// single token of [`Lexer::next_lexed`], so the cursor and the text
    /// stay in registers from one token to the next: a fifth fewer
    /// instructions for lexing than as calls.
    #[inline(always)]
    fn lex(&mut self) -> Token {
        self.skip_ws();
        let start = self.pos;
        let Some(&c) = self.src.get(start) else {
            return self.tok(Tk::Eof, start, 0);
        };
        let single = |l: &mut Self, k: Tk| {
            l.pos += 1;
            l.tok(k, start, 0)
        };
        match c {
            b'%' => self.lex_var(Tk::LocalVar, Tk::LocalId),
            b'@' => self.lex_var(Tk::GlobalVar, Tk::GlobalId),
            b'$' => {
                if let Some(end) = self.label_tail(start + 1) {
                    self.pos = end;
                    return self.tok(Tk::LabelStr, start, 0);
                }
                self.lex_var(Tk::ComdatVar, Tk::Eof)
            }
            b'!' => {
                let n = self.at(start + 1);
                if n.is_ascii_digit() {
                    self.pos += 1;
                    let (v, _) = self.scan_digits();
                    let v = match self.id_number(start, v, "metadata") {
                        Ok(v) => v,
                        Err(off) => return Self::error_token(off),
                    };
                    self.tok(Tk::MetaId, start, v)
                } else if is_name_start(n) || n == b'\\' {
                    self.pos += 1;
                    while is_label_char(self.at(self.pos)) || self.at(self.pos) == b'\\' {
                        self.pos += 1;
                    }
                    self.tok(Tk::MetaVar, start, 0)
                } else {
                    single(self, Tk::Exclaim)
                }
            }
            b'#' => {
                let n = self.at(start + 1);
                self.pos += 1;
                if n.is_ascii_digit() {
                    let (v, _) = self.scan_digits();
                    let v = match self.id_number(start, v, "attribute group") {
                        Ok(v) => v,
                        Err(off) => return Self::error_token(off),
                    };
                    self.tok(Tk::AttrGrpId, start, v)
                } else if self.src[self.pos..].starts_with(b"dbg_") {
                    while self.at(self.pos).is_ascii_alphanumeric() || self.at(self.pos) == b'_' {
                        self.pos += 1;
                    }
                    self.tok(Tk::DbgRecord, start, 0)
                } else {
                    self.fail(start, "invalid token after '#'")
                }
            }
            b'"' => {
                if let Err(off) = self.scan_quoted() {
                    return Self::error_token(off);
                }
                if self.at(self.pos) == b':' {
                    self.pos += 1;
                    return self.tok(Tk::LabelStr, start, 0);
                }
                self.tok(Tk::Str, start, 0)
            }
            b'0'..=b'9' | b'-' => self.lex_number(),
            b'+' => {
                // `+[0-9]+.[0-9]*...` floating-point.
                self.pos += 1;
                let (_, n) = self.scan_digits();
                if n == 0 || self.at(self.pos) != b'.' {
                    return self.fail(start, "unexpected character '+'");
                }
                self.pos += 1;
                self.scan_fraction();
                self.tok(Tk::Float, start, 0)
            }
            b'.' => {
                if self.at(start + 1) == b'.' && self.at(start + 2) == b'.' {
                    self.pos += 3;
                    return self.tok(Tk::DotDotDot, start, 0);
                }
                if let Some(end) = self.label_tail(start) {
                    self.pos = end;
                    return self.tok(Tk::LabelStr, start, 0);
                }
                self.fail(start, "unexpected character '.'")
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => self.lex_ident(),
            b'=' => single(self, Tk::Equal),
            b',' => single(self, Tk::Comma),
            b'*' => single(self, Tk::Star),
            b'[' => single(self, Tk::LSquare),
            b']' => single(self, Tk::RSquare),
            b'{' => single(self, Tk::LBrace),
            b'}' => single(self, Tk::RBrace),
            b'(' => single(self, Tk::LParen),
            b')' => single(self, Tk::RParen),
            b'<' => single(self, Tk::Less),
            b'>' => single(self, Tk::Greater),
            b'|' => single(self, Tk::Bar),
            b':' => single(self, Tk::Colon),
            0x80..=0xff => {
                let valid =
                    match core::str::from_utf8(&self.src[start..self.src.len().min(start + 4)]) {
                        Ok(_) => true,
                        Err(e) => e.valid_up_to() > 0,
                    };
                if valid {
                    self.fail(start, "unexpected non-ASCII character")
                } else {
                    self.fail(start, &format!("invalid UTF-8 byte 0x{c:02X}"))
                }
            }
            _ => {
                if c.is_ascii_graphic() {
                    self.fail(start, &format!("unexpected character '{}'", c as char))
                } else {
                    self.fail(start, &format!("unexpected byte 0x{c:02X}"))
                }
            }
        }
    }

    /// `[0-9]*([eE][-+]?[0-9]+)?` after the '.' of a decimal float.
    fn scan_fraction(&mut self) {
        self.scan_digits();
        let c = self.at(self.pos);
        if c == b'e' || c == b'E' {
            let n1 = self.at(self.pos + 1);
            let n2 = self.at(self.pos + 2);
            if n1.is_ascii_digit() || ((n1 == b'-' || n1 == b'+') && n2.is_ascii_digit()) {
                self.pos += 2;
                self.scan_digits();
            }
        }
    }

    #[inline(always)]
    fn lex_number(&mut self) -> Token {
        let start = self.pos;
        let neg = self.at(start) == b'-';
        if neg {
            self.pos += 1;
            if !self.at(self.pos).is_ascii_digit() {
                if let Some(end) = self.label_tail(self.pos) {
                    self.pos = end;
                    return self.tok(Tk::LabelStr, start, 0);
                }
                return self.fail(start, "unexpected character '-'");
            }
        }
        if !neg && self.at(start) == b'0' && self.at(start + 1) == b'x' {
            return self.lex_0x();
        }
        let (v, _) = self.scan_digits();
        let c = self.at(self.pos);
        if !neg && c == b':' {
            let v = match self.id_number(start, v, "label") {
                Ok(v) => v,
                Err(off) => return Self::error_token(off),
            };
            self.pos += 1;
            return self.tok(Tk::LabelId, start, v);
        }
        if is_label_char(c) || c == b':' {
            if let Some(end) = self.label_tail(self.pos) {
                self.pos = end;
                return self.tok(Tk::LabelStr, start, 0);
            }
        }
        if c == b'.' {
            self.pos += 1;
            self.scan_fraction();
            return self.tok(Tk::Float, start, 0);
        }
        self.tok(Tk::Int, start, 0)
    }

    /// `0x` hexadecimal float literals. Inlined, as every scanner that
    /// returns a token is (see [`Lexer::fail`]).
    #[inline(always)]
    fn lex_0x(&mut self) -> Token {
        let start = self.pos;
        self.pos += 2;
        let k = self.at(self.pos);
        if matches!(k, b'K' | b'L' | b'M' | b'H' | b'R') {
            self.pos += 1;
        }
        let hs = self.pos;
        while self.at(self.pos).is_ascii_hexdigit() {
            self.pos += 1;
        }
        if self.pos == hs {
            return self.fail(start, "expected hexadecimal digits after '0x'");
        }
        self.tok(Tk::Float, start, 0)
    }

    #[inline(always)]
    fn lex_ident(&mut self) -> Token {
        let start = self.pos;
        let s = self.src;
        // The keyword characters, then any further label characters (every
        // keyword character is one): two tight loops instead of one that
        // tests both classes on every byte.
        let class = |i: usize| s.get(i).map_or(0, |&c| CLASS[c as usize]);
        let mut i = start;
        while class(i) & KEYWORD != 0 {
            i += 1;
        }
        let kw_end = i;
        while class(i) & LABEL != 0 {
            i += 1;
        }
        if i < s.len() && s[i] == b':' {
            self.pos = i + 1;
            return self.tok(Tk::LabelStr, start, 0);
        }
        // iN integer type.
        if s[start] == b'i' && self.at(start + 1).is_ascii_digit() {
            self.pos = start + 1;
            let (v, n) = self.scan_digits();
            if n > 9 || v == 0 || v > MAX_INT_BITS {
                return self.fail(start, "invalid integer width");
            }
            return self.tok(Tk::IntType, start, v as u32);
        }
        // [us]0x hex integer.
        if (s[start] == b'u' || s[start] == b's')
            && self.at(start + 1) == b'0'
            && self.at(start + 2) == b'x'
            && self.at(start + 3).is_ascii_hexdigit()
        {
            self.pos = start + 3;
            while self.at(self.pos).is_ascii_hexdigit() {
                self.pos += 1;
            }
            return self.tok(Tk::Int, start, 0);
        }
        self.pos = kw_end;
        self.tok(Tk::Keyword, start, 0)
    }
}

/// Appends the tokens of `src` to `out`, up to the end of the text or the
/// first lexical error (neither is appended), for [`Lexer::with_tokens`].
///
/// Whoever lexes ahead (on another thread) also does some of the parser's
/// work, recorded in the tokens' `val`, which a lexer lexing the text
/// itself leaves 0: an opcode keyword's `val` is its opcode plus one, any
/// other keyword's [`NOT_AN_OPCODE`] ([`Lexer::ahead_opcode`]); the value
/// of each floating-point literal that
/// reads as a double ([`FloatText::Double`]) is pushed to `floats`, and the
/// token's `val` is its position there plus one ([`Lexer::ahead_float`]).
pub(crate) fn lex_all(src: &[u8], out: &mut Vec<Token>, floats: &mut Vec<u64>) {
    let mut l = Lexer::new(src);
    loop {
        let mut t = l.lex();
        if matches!(t.kind, Tk::Eof | Tk::Error) {
            return;
        }
        let text = || &src[t.start as usize..t.end as usize];
        match t.kind {
            Tk::Keyword => {
                t.val = match Opcode::from_keyword(text()) {
                    Some(op) => op as u32 + 1,
                    None => NOT_AN_OPCODE,
                };
            }
            Tk::Float => {
                if let FloatText::Double(d) = read_float(text()) {
                    floats.push(d);
                    t.val = floats.len() as u32;
                }
            }
            _ => {}
        }
        out.push(t);
    }
}

/// The `val` [`lex_all`] gives a keyword that names no opcode, so that the
/// parser does not look it up again.
const NOT_AN_OPCODE: u32 = u32::MAX;

/// How the text of a floating-point literal reads, before its type is
/// known.
pub(crate) enum FloatText<'t> {
    /// A double: a decimal literal, or `0x` with at most 16 hex digits.
    Double(u64),
    /// `0x` with a form letter (`K`, `L`, `M`, `H`, `R`), and the digits.
    Form(u8, &'t [u8]),
    /// `0x` with more than 16 hex digits.
    TooBig,
    /// A decimal literal that is not a number.
    Bad,
}

/// Reads the text of a [`Tk::Float`] token.
pub(crate) fn read_float(txt: &[u8]) -> FloatText<'_> {
    if txt.len() > 2 && txt[0] == b'0' && txt[1] == b'x' {
        let k = txt[2];
        if matches!(k, b'K' | b'L' | b'M' | b'H' | b'R') {
            return FloatText::Form(k, &txt[3..]);
        }
        let digits = &txt[2..];
        if digits.len() > 16 {
            return FloatText::TooBig;
        }
        return FloatText::Double(hex_u128(digits) as u64);
    }
    match core::str::from_utf8(txt)
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
    {
        Some(d) => FloatText::Double(d.to_bits()),
        None => FloatText::Bad,
    }
}

/// The value of hex digits (the lexer checked them); the low 128 bits of
/// a longer number.
pub(crate) fn hex_u128(d: &[u8]) -> u128 {
    let mut v: u128 = 0;
    for &c in d {
        v = (v << 4) | hexval(c).unwrap_or(0) as u128;
    }
    v
}

/// Position of the first `b` in `hay`.
#[inline]
pub(crate) fn memchr(b: u8, hay: &[u8]) -> Option<usize> {
    hay.iter().position(|&c| c == b)
}

/// Decodes LLVM string escapes (`\\` and `\XX`).
pub(crate) fn unescape(raw: &[u8]) -> Cow<'_, [u8]> {
    if memchr(b'\\', raw).is_none() {
        return Cow::Borrowed(raw);
    }
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        let c = raw[i];
        if c == b'\\' {
            if raw.get(i + 1) == Some(&b'\\') {
                out.push(b'\\');
                i += 2;
                continue;
            }
            if let (Some(h), Some(l)) = (
                raw.get(i + 1).and_then(|&c| hexval(c)),
                raw.get(i + 2).and_then(|&c| hexval(c)),
            ) {
                out.push(h * 16 + l);
                i += 3;
                continue;
            }
        }
        out.push(c);
        i += 1;
    }
    Cow::Owned(out)
}

/// Value of a hex digit.
#[inline]
pub(crate) fn hexval(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `lex_ident` scans keyword characters, then label characters, which
    /// relies on every keyword character being a label character.
    #[test]
    fn keyword_characters_are_label_characters() {
        for c in 0..=255u8 {
            let k = CLASS[c as usize];
            assert!(k & KEYWORD == 0 || k & LABEL != 0, "byte {c:#04x}");
        }
    }

    /// Identifiers: where the keyword ends, and labels.
    #[test]
    fn identifiers_split_at_the_first_non_keyword_character() {
        fn lex(src: &[u8]) -> (Tk, &[u8]) {
            let mut l = Lexer::new(src);
            let t = l.next();
            assert_ne!(t.kind, Tk::Error);
            (t.kind, &src[t.start as usize..t.end as usize])
        }
        assert_eq!(lex(b"define void"), (Tk::Keyword, &b"define"[..]));
        assert_eq!(lex(b"nuw.x"), (Tk::Keyword, &b"nuw"[..]));
        assert_eq!(lex(b"entry.split:"), (Tk::LabelStr, &b"entry.split:"[..]));
        assert_eq!(lex(b"bb-1:"), (Tk::LabelStr, &b"bb-1:"[..]));
        assert_eq!(lex(b"i32 "), (Tk::IntType, &b"i32"[..]));
        assert_eq!(lex(b"x"), (Tk::Keyword, &b"x"[..]));
    }

    /// A token survives the two words `next_lexed` returns it as, for
    /// every kind and payloads up to 32 bits.
    #[test]
    fn tokens_round_trip_through_words() {
        use Tk::*;
        let kinds = [
            Eof, Equal, Comma, Star, LSquare, RSquare, LBrace, RBrace, LParen, RParen, Less,
            Greater, Exclaim, Bar, Colon, DotDotDot, LocalVar, LocalId, GlobalVar, GlobalId,
            ComdatVar, MetaVar, MetaId, AttrGrpId, DbgRecord, LabelStr, LabelId, Keyword, IntType,
            Str, Int, Float, Error,
        ];
        for (i, &kind) in kinds.iter().enumerate() {
            let t = Token {
                kind,
                start: u32::MAX - i as u32,
                end: i as u32,
                val: u32::MAX / 3 + i as u32,
            };
            let u = Token::from_words(t.to_words());
            assert_eq!(
                (u.kind, u.start, u.end, u.val),
                (t.kind, t.start, t.end, t.val)
            );
        }
    }

    /// An error comes as a [`Tk::Error`] token; the lexer keeps its
    /// message and offset. Ids fill the 32-bit payload up to `u32::MAX`.
    #[test]
    fn errors_come_as_error_tokens() {
        let mut l = Lexer::new(b"%4294967295 %4294967296");
        let t = l.next();
        assert_eq!((t.kind, t.val), (Tk::LocalId, u32::MAX));
        let t = l.next();
        assert_eq!((t.kind, t.start), (Tk::Error, 12));
        let e = l.take_error();
        assert_eq!(*e.0, (12, "value number too large".into()));
        let mut l = Lexer::new(b"  % x");
        assert_eq!(l.next().kind, Tk::Error);
        assert_eq!(*l.take_error().0, (2, "expected name after sigil".into()));
    }

    /// A lexer handing out tokens lexed ahead gives, from any position it
    /// is moved to, the tokens a plain lexer gives from there, and picks
    /// the tokens lexed ahead up again.
    #[test]
    fn tokens_lexed_ahead_match_lexing_from_any_position() {
        let src: &[u8] =
            b"define i32 @f(i32 %x) {\nentry: ; c \"q\n  %0 = add nsw i32 %x, -7 ; r\n  \
            ret i32 %0, !dbg !12\n}\n!12 = !DILocation(line: 3, scope: !\"s\")\n";
        let mut ahead = Vec::new();
        lex_all(src, &mut ahead, &mut Vec::new());
        assert!(ahead.len() > 20);
        // Lexed ahead, an opcode keyword or a float literal also carries
        // the parser's work in `val` (see `lex_all`), which the parser
        // takes or does itself.
        let key = |t: Token| {
            let val = if matches!(t.kind, Tk::Keyword | Tk::Float) {
                0
            } else {
                t.val
            };
            (t.kind, t.start, t.end, val)
        };
        for pos in 0..=src.len() {
            let mut plain = Lexer::new(src);
            plain.seek(pos);
            let mut fed = Lexer::with_tokens(src, &ahead, &[]);
            // Hand out a few first, then move.
            for _ in 0..3 {
                fed.next();
            }
            fed.seek(pos);
            for k in 0..6 {
                // Peeked first (every other token), a token is the one
                // taken next.
                let peeked = (k % 2 == 0).then(|| (plain.peek(), fed.peek()));
                let (a, b) = (plain.next(), fed.next());
                if let Some((pa, pb)) = peeked {
                    assert_eq!((key(pa), key(pb)), (key(a), key(b)), "peek from {pos}");
                }
                assert_eq!(key(a), key(b), "from {pos}");
                if a.kind == Tk::Error {
                    break;
                }
            }
        }
        // Moved to the end of a token, it continues from the tokens lexed
        // ahead without lexing.
        let mut fed = Lexer::with_tokens(src, &ahead, &[]);
        fed.seek(ahead[4].end as usize);
        fed.next();
        assert_eq!(fed.ahead_next, 6);
        assert_eq!(key(fed.next()), key(ahead[6]));
    }

    /// Lexing in batches gives the tokens lexing one at a time gives,
    /// across batch boundaries, after a move into the middle of a batch,
    /// and up to an error, whose message comes with its token.
    #[test]
    fn batched_tokens_match_lexing_one_at_a_time() {
        let mut src = Vec::new();
        for i in 0..40 {
            src.extend_from_slice(
                format!("  %v{i} = fadd float %a, 1.5 ; c {i}\n  call void @g(i32 {i})\n")
                    .as_bytes(),
            );
        }
        src.extend_from_slice(b"  ret % x\n");
        let src = &src[..];
        let one_at_a_time = |pos: usize| {
            let mut l = Lexer::new(src);
            l.seek(pos);
            let mut out = Vec::new();
            loop {
                let t = l.lex();
                out.push((t.kind, t.start, t.end, t.val));
                if matches!(t.kind, Tk::Eof | Tk::Error) {
                    return (out, l.error.take().map(|e| *e.0));
                }
            }
        };
        let (all, err) = one_at_a_time(0);
        assert!(all.len() > 3 * BATCH, "{} tokens", all.len());
        assert_eq!(
            err,
            Some((src.len() as u32 - 4, "expected name after sigil".into()))
        );
        let mut l = Lexer::new(src);
        let mut got = Vec::new();
        loop {
            let t = l.next();
            got.push((t.kind, t.start, t.end, t.val));
            if t.kind == Tk::Error {
                assert_eq!(Some(*l.take_error().0), err);
                break;
            }
        }
        assert_eq!(got, all);
        // Moved after handing out part of a batch, it lexes from the new
        // position and nothing of the old batch is handed out.
        for pos in (0..src.len()).step_by(7) {
            let mut l = Lexer::new(src);
            for _ in 0..BATCH + 3 {
                l.next();
            }
            l.seek(pos);
            let (want, _) = one_at_a_time(pos);
            for (k, w) in want.iter().take(BATCH + 5).enumerate() {
                // Peeked (at every third token), a token is still the
                // next one.
                if k % 3 == pos % 3 {
                    let p = l.peek();
                    assert_eq!((p.kind, p.start, p.end, p.val), *w, "peek from {pos}");
                }
                let t = l.next();
                assert_eq!((t.kind, t.start, t.end, t.val), *w, "from {pos}");
            }
        }
    }

    /// Lexed ahead, opcode keywords carry their opcode, other keywords
    /// that they name none, and the float literals that read as doubles
    /// their value; the other float forms are left to the parser.
    #[test]
    fn lexed_ahead_opcodes_and_floats_carry_their_values() {
        let src: &[u8] = b"%a = fadd double 0x400921FB54442D18, -2.5e-3\n  \
            %b = fmul half 0xH3C00, 1.0\n  store float 0x1234567890ABCDEF0, ptr %p\n";
        let (mut ahead, mut floats) = (Vec::new(), Vec::new());
        lex_all(src, &mut ahead, &mut floats);
        let lexer = Lexer::with_tokens(src, &ahead, &floats);
        let text = |t: &Token| &src[t.start as usize..t.end as usize];
        let opcodes: Vec<_> = (ahead.iter())
            .filter(|t| t.kind == Tk::Keyword)
            .map(|t| (text(t), Lexer::ahead_opcode(*t)))
            .collect();
        assert_eq!(
            opcodes,
            [
                (&b"fadd"[..], Some(Some(Opcode::FAdd))),
                (b"double", Some(None)),
                (b"fmul", Some(Some(Opcode::FMul))),
                (b"half", Some(None)),
                (b"store", Some(Some(Opcode::Store))),
                (b"float", Some(None)),
                (b"ptr", Some(None)),
            ]
        );
        let values: Vec<_> = (ahead.iter())
            .filter(|t| t.kind == Tk::Float)
            .map(|t| (text(t), lexer.ahead_float(*t)))
            .collect();
        assert_eq!(
            values,
            [
                (&b"0x400921FB54442D18"[..], Some(0x4009_21FB_5444_2D18)),
                (b"-2.5e-3", Some((-2.5e-3f64).to_bits())),
                (b"0xH3C00", None),
                (b"1.0", Some(1.0f64.to_bits())),
                // More than 16 digits: an error the parser reports.
                (b"0x1234567890ABCDEF0", None),
            ]
        );
        // A lexer lexing the text itself leaves both to the parser.
        let mut plain = Lexer::new(src);
        loop {
            let t = plain.next();
            if t.kind == Tk::Eof {
                break;
            }
            assert!(Lexer::ahead_opcode(t).is_none() && plain.ahead_float(t).is_none());
        }
    }
}
