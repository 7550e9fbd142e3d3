//! Reader for LLVM's textual IR (`.ll`).
//!
//! [`parse_module`] turns the bytes of a `.ll` file into a [`Module`]. The
//! lexer works on raw bytes and never allocates per token; names are
//! interned into [`Module::strings`]. Errors carry a 1-based line and
//! column and render like LLVM's diagnostics with [`ParseError::render`].
//!
//! Nesting of types, constants and metadata is bounded (see
//! [`MAX_DEPTH`]); deeper input is rejected with `nesting too deep` instead
//! of exhausting the stack. The parser never panics on any input.
//!
//! [`ModuleReader`] parses the same text handed over in pieces, so a
//! reader of a large file holds one piece at a time rather than the whole
//! text next to the module built from it.

use crate::module::Module;
use alloc::string::String;
use alloc::vec::Vec;

mod consts;
mod insts;
mod lexer;
mod meta;
mod parser;

/// Maximum nesting depth of types, constants and metadata.
pub const MAX_DEPTH: u32 = 256;

/// A located parse error.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseError {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in bytes.
    pub col: u32,
    /// What was expected or what went wrong, LLVM style.
    pub message: String,
}

impl ParseError {
    /// Formats the error as `file:LINE:COL: error: message`, followed by the
    /// source line and a caret under the column.
    pub fn render(&self, file: &str, src: &[u8]) -> String {
        let mut line_start = 0usize;
        let mut line = 1u32;
        let mut i = 0usize;
        while line < self.line && i < src.len() {
            if src[i] == b'\n' {
                line += 1;
                line_start = i + 1;
            }
            i += 1;
        }
        let mut line_end = line_start;
        while line_end < src.len() && src[line_end] != b'\n' {
            line_end += 1;
        }
        let mut text = &src[line_start.min(src.len())..line_end];
        if text.last() == Some(&b'\r') {
            text = &text[..text.len() - 1];
        }
        let text = String::from_utf8_lossy(text);
        let mut out = alloc::format!(
            "{}:{}:{}: error: {}\n{}\n",
            file,
            self.line,
            self.col,
            self.message,
            text
        );
        for _ in 1..self.col {
            out.push(' ');
        }
        out.push('^');
        out
    }
}

impl core::fmt::Display for ParseError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}:{}: error: {}", self.line, self.col, self.message)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ParseError {}

/// Internal error: a byte offset and a message (boxed to keep results small).
#[derive(Debug)]
pub(crate) struct PErr(alloc::boxed::Box<(u32, String)>);

impl PErr {
    pub(crate) fn new(off: u32, msg: String) -> Self {
        PErr(alloc::boxed::Box::new((off, msg)))
    }

    fn locate(self, src: &[u8]) -> ParseError {
        let (off, message) = *self.0;
        let off = (off as usize).min(src.len());
        let before = &src[..off];
        let line = 1 + before.iter().filter(|&&c| c == b'\n').count() as u32;
        let line_start = before
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |p| p + 1);
        ParseError {
            line,
            col: (off - line_start) as u32 + 1,
            message,
        }
    }
}

pub(crate) type PResult<T> = Result<T, PErr>;

/// Parses a module from the bytes of a `.ll` file.
pub fn parse_module(src: &[u8]) -> Result<Module, ParseError> {
    if src.len() >= u32::MAX as usize {
        return Err(ParseError {
            line: 1,
            col: 1,
            message: "input too large".into(),
        });
    }
    let mut p = parser::Parser::new(src);
    match p.run() {
        Ok(()) => Ok(p.finish()),
        Err(e) => Err(e.locate(src)),
    }
}

/// Line starts at which [`ModuleReader`] may cut the text: each begins a
/// top-level entity (`define`, `declare`, `attributes #N = {...}`, a global
/// `@g = ...`, metadata `!N = ...`/`!name = ...`).
const CUT_PREFIXES: [&[u8]; 5] = [b"define ", b"declare ", b"attributes ", b"@", b"!"];

/// Longer than the newline plus the longest of [`CUT_PREFIXES`]: the tail
/// of the unparsed text searched again when more arrives.
const CUT_MARGIN: usize = 16;

/// Reads a module from consecutive pieces of its text, parsing each
/// top-level entity as soon as the text up to the next line that starts
/// one has arrived, so only the unparsed tail is held.
///
/// The text is cut only before lines that start a top-level entity (see
/// `CUT_PREFIXES`). A cut that falls inside an entity (a string or a
/// bracketed list spanning lines, a function header continued on the next
/// line) leaves an incomplete entity before it, which fails to parse. On
/// any failure the reader gives up ([`ModuleReader::push`] returns `false`,
/// [`ModuleReader::finish`] returns `None`), and the caller parses the
/// whole text with [`parse_module`], which reports the error with its
/// line. A successful read gives the module [`parse_module`] would.
pub struct ModuleReader {
    /// The parser between pieces (`None` after a failure).
    parser: Option<parser::Parser<'static>>,
    /// Text received and not parsed yet.
    pending: Vec<u8>,
    /// Length of the prefix of `pending` known to hold no cut point.
    searched: usize,
    /// Bytes received in all.
    total: usize,
}

impl Default for ModuleReader {
    fn default() -> Self {
        Self::new()
    }
}

impl ModuleReader {
    /// A reader at the start of a module's text.
    pub fn new() -> Self {
        ModuleReader {
            parser: Some(parser::Parser::new(&[])),
            pending: Vec::new(),
            searched: 0,
            total: 0,
        }
    }

    /// Appends the next bytes of the text and parses every top-level
    /// entity before the last line that starts one. Returns `false` once
    /// the text cannot be read in pieces; parse it whole then.
    pub fn push(&mut self, bytes: &[u8]) -> bool {
        if self.parser.is_none() {
            return false;
        }
        self.total += bytes.len();
        if self.total >= u32::MAX as usize {
            self.parser = None;
            return false;
        }
        self.pending.extend_from_slice(bytes);
        if let Some(cut) = last_cut(&self.pending, self.searched) {
            self.parse_piece(cut);
        }
        // What is left holds no cut point but maybe the start of one whose
        // prefix is still incomplete.
        self.searched = self.pending.len().saturating_sub(CUT_MARGIN);
        self.parser.is_some()
    }

    /// Parses the rest of the text and checks the module as a whole.
    /// `None` when the text has to be parsed whole with [`parse_module`]
    /// (it has an error, which that reports).
    pub fn finish(mut self) -> Option<Module> {
        let end = self.pending.len();
        self.parse_piece(end);
        let mut p = self.parser?;
        p.validate_end().ok()?;
        Some(p.finish())
    }

    /// Parses `pending[..end]` and drops it.
    fn parse_piece(&mut self, end: usize) {
        let Some(p) = self.parser.take() else {
            return;
        };
        let mut p = p.rebase(&self.pending[..end]);
        let ok = p.run_entities().is_ok();
        let p = p.rebase(&[]);
        if ok {
            self.parser = Some(p);
            self.pending.drain(..end);
        }
    }
}

/// The last offset `i > 0` in `text` where a line starting a top-level
/// entity begins, looking only at lines that start at or after `from`
/// (earlier ones were searched before).
fn last_cut(text: &[u8], from: usize) -> Option<usize> {
    let lo = from.max(1);
    let mut i = text.len();
    while i > lo {
        i -= 1;
        if text[i - 1] == b'\n' && CUT_PREFIXES.iter().any(|p| text[i..].starts_with(p)) {
            return Some(i);
        }
    }
    None
}

/// Tokenizes the whole input without parsing it and returns the number of
/// tokens: the lexer's share of [`parse_module`], for benchmarks.
pub fn count_tokens(src: &[u8]) -> Result<usize, ParseError> {
    let mut lx = lexer::Lexer::new(src);
    let mut n = 0usize;
    loop {
        match lx.next().kind {
            lexer::Tk::Eof => return Ok(n),
            lexer::Tk::Error => return Err(lx.take_error().locate(src)),
            _ => n += 1,
        }
    }
}
