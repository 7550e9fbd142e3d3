//! Textual pass pipelines: `a,b<opt=1;flag>,c`.
//!
//! Grammar (no whitespace anywhere):
//!
//! ```text
//! pipeline := ""  |  entry ("," entry)*
//! entry    := name ( "<" option (";" option)* ">" )?
//! option   := name ( "=" value )?
//! name     := [A-Za-z0-9_.-]+
//! value    := any characters except ';' '<' '>' (may be empty)
//! ```
//!
//! Options are separated by `;` because `,` separates passes (LLVM also uses
//! `;` between parameters inside `<...>`). A pass name may be either the
//! pipeline name (`kernel-attr`) or the spec's class name (`KernelAttrPass`);
//! names are checked against a [`Registry`](crate::registry::Registry), not
//! here. [`Pipeline`]'s `Display` prints the canonical text, which parses back
//! to an equal pipeline; canonical text prints back to itself.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use crate::diag::SourceError;

/// One `key` or `key=value` inside `<...>`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PipelineOption {
    /// Option name.
    pub key: String,
    /// Value after `=`; `None` for a bare flag.
    pub value: Option<String>,
    /// Byte offset of the key in the pipeline text.
    pub pos: usize,
}

/// One pass reference.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PipelineEntry {
    /// Pass name as written.
    pub name: String,
    /// Options in the order written.
    pub options: Vec<PipelineOption>,
    /// Byte offset of the name in the pipeline text.
    pub pos: usize,
}

/// A parsed pipeline: passes in run order.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Pipeline {
    /// The entries in order.
    pub entries: Vec<PipelineEntry>,
}

/// A malformed or invalid pipeline, located at a byte offset.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PipelineError {
    /// Byte offset into the pipeline text.
    pub pos: usize,
    /// What is wrong.
    pub message: String,
}

impl PipelineError {
    /// An error at `pos`.
    pub fn new(pos: usize, message: impl Into<String>) -> PipelineError {
        PipelineError {
            pos,
            message: message.into(),
        }
    }

    /// The error located in `text` (the pipeline that was parsed), for
    /// rendering with a caret; `origin` names where the text came from
    /// (e.g. `"--passes"`).
    pub fn to_source_error(&self, origin: &str, text: &str) -> SourceError {
        SourceError::at(origin, text, self.pos, self.message.clone())
    }
}

impl fmt::Display for PipelineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid pipeline at column {}: {}",
            self.pos + 1,
            self.message
        )
    }
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')
}

fn describe(c: char) -> String {
    if c.is_whitespace() {
        "whitespace (not allowed in pipeline text)".to_string()
    } else {
        alloc::format!("'{c}'")
    }
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn name(&mut self, what: &str) -> Result<(String, usize), PipelineError> {
        let start = self.pos;
        while let Some(c) = self.peek().filter(|&c| is_name_char(c)) {
            self.pos += c.len_utf8();
        }
        if self.pos == start {
            let found = match self.peek() {
                Some(c) => alloc::format!("found {}", describe(c)),
                None => "found end of text".to_string(),
            };
            return Err(PipelineError::new(
                start,
                alloc::format!("expected {what}, {found}"),
            ));
        }
        Ok((self.text[start..self.pos].to_string(), start))
    }

    fn options(&mut self) -> Result<Vec<PipelineOption>, PipelineError> {
        let mut options: Vec<PipelineOption> = Vec::new();
        loop {
            let (key, pos) = self.name("option name")?;
            if options.iter().any(|o| o.key == key) {
                return Err(PipelineError::new(
                    pos,
                    alloc::format!("option '{key}' given twice"),
                ));
            }
            let mut value = None;
            if self.peek() == Some('=') {
                self.pos += 1;
                let start = self.pos;
                while let Some(c) = self.peek().filter(|c| !matches!(c, ';' | '<' | '>')) {
                    self.pos += c.len_utf8();
                }
                value = Some(self.text[start..self.pos].to_string());
            }
            options.push(PipelineOption { key, value, pos });
            match self.peek() {
                Some(';') => self.pos += 1,
                Some('>') => {
                    self.pos += 1;
                    return Ok(options);
                }
                Some(c) => {
                    return Err(PipelineError::new(
                        self.pos,
                        alloc::format!("expected ';' or '>' after option, found {}", describe(c)),
                    ))
                }
                None => {
                    return Err(PipelineError::new(
                        self.pos,
                        "unterminated option list: expected '>'",
                    ))
                }
            }
        }
    }
}

impl Pipeline {
    /// Parses pipeline text. The empty string is the empty pipeline.
    pub fn parse(text: &str) -> Result<Pipeline, PipelineError> {
        let mut entries = Vec::new();
        if text.is_empty() {
            return Ok(Pipeline { entries });
        }
        let mut p = Parser { text, pos: 0 };
        loop {
            let (name, pos) = p.name("pass name")?;
            let options = if p.peek() == Some('<') {
                p.pos += 1;
                p.options()?
            } else {
                Vec::new()
            };
            entries.push(PipelineEntry { name, options, pos });
            match p.peek() {
                None => return Ok(Pipeline { entries }),
                Some(',') => p.pos += 1,
                Some(c) => {
                    return Err(PipelineError::new(
                        p.pos,
                        alloc::format!("expected ',' or end of pipeline, found {}", describe(c)),
                    ))
                }
            }
        }
    }

    /// Whether there are no passes.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl fmt::Display for PipelineEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        if self.options.is_empty() {
            return Ok(());
        }
        f.write_str("<")?;
        for (i, o) in self.options.iter().enumerate() {
            if i > 0 {
                f.write_str(";")?;
            }
            f.write_str(&o.key)?;
            if let Some(v) = &o.value {
                write!(f, "={v}")?;
            }
        }
        f.write_str(">")
    }
}

impl fmt::Display for Pipeline {
    /// The canonical text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.entries.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn round_trips() {
        for text in [
            "",
            "a",
            "kernel-attr,KernelInfoPrinter",
            "a,b<opt=1;flag>,c",
            "ipmsp<budget=-1;dump>,memspace-opt<alias-merge=per-AS>",
            "x<k=>",
            "x<k=a,b=c d>",
            "x.y_z-9",
        ] {
            let p = Pipeline::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(p.to_string(), text);
            assert_eq!(Pipeline::parse(&p.to_string()).unwrap(), p);
        }
    }

    #[test]
    fn structure() {
        let p = Pipeline::parse("a,b<opt=1;flag>,c").unwrap();
        assert_eq!(p.entries.len(), 3);
        let b = &p.entries[1];
        assert_eq!((b.name.as_str(), b.pos), ("b", 2));
        assert_eq!(b.options[0].key, "opt");
        assert_eq!(b.options[0].value.as_deref(), Some("1"));
        assert_eq!(b.options[0].pos, 4);
        assert_eq!(b.options[1].value, None);
        assert_eq!(b.options[1].pos, 10);
        assert_eq!(p.entries[2].pos, 16);
        assert!(Pipeline::parse("").unwrap().is_empty());
        // `k=` keeps an empty value, distinct from a bare flag.
        let e = &Pipeline::parse("x<k=>").unwrap().entries[0];
        assert_eq!(e.options[0].value.as_deref(), Some(""));
    }

    #[test]
    fn errors_are_located() {
        let cases: &[(&str, usize, &str)] = &[
            (",a", 0, "expected pass name, found ','"),
            ("a,", 2, "expected pass name, found end of text"),
            ("a,,b", 2, "expected pass name, found ','"),
            (
                "a b",
                1,
                "expected ',' or end of pipeline, found whitespace",
            ),
            ("a<", 2, "expected option name, found end of text"),
            ("a<>", 2, "expected option name, found '>'"),
            ("a<x=1", 5, "unterminated option list"),
            ("a<x;x>", 4, "option 'x' given twice"),
            ("a<x=1>b", 6, "expected ',' or end of pipeline, found 'b'"),
            ("a<x<y>", 3, "expected ';' or '>' after option, found '<'"),
            ("a<x=<>", 4, "expected ';' or '>' after option, found '<'"),
            ("é", 0, "expected pass name, found 'é'"),
            (" ", 0, "expected pass name, found whitespace"),
        ];
        for &(text, pos, msg) in cases {
            let e = Pipeline::parse(text).expect_err(text);
            assert_eq!(e.pos, pos, "{text}: {e}");
            assert!(e.message.starts_with(msg), "{text}: {}", e.message);
        }
    }

    #[test]
    fn renders_with_caret() {
        let text = "a,b<x=1,c";
        let e = Pipeline::parse(text).unwrap_err();
        assert_eq!(
            e.to_source_error("--passes", text).to_string(),
            "--passes:1:10: error: unterminated option list: expected '>'\na,b<x=1,c\n         ^"
        );
    }
}
