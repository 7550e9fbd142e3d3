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

use crate::module::Module;
use alloc::string::String;

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

/// Tokenizes the whole input without parsing it and returns the number of
/// tokens: the lexer's share of [`parse_module`], for benchmarks.
pub fn count_tokens(src: &[u8]) -> Result<usize, ParseError> {
    let mut lx = lexer::Lexer::new(src);
    let mut n = 0usize;
    loop {
        match lx.next() {
            Ok(t) if t.kind == lexer::Tk::Eof => return Ok(n),
            Ok(_) => n += 1,
            Err(e) => return Err(e.locate(src)),
        }
    }
}
