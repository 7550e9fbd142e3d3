//! Diagnostics as data: [`Diagnostic`], [`DiagnosticSink`], renderers, and
//! the located input error [`SourceError`].
//!
//! Passes emit [`Diagnostic`] values through their
//! [`PassContext`](crate::pass::PassContext); the CLI decides what to show
//! (regex filtering of remarks is the CLI's job) and how: plain text
//! ([`Diagnostic::render_text`], clang style) or LLVM remark YAML
//! ([`Diagnostic::write_remark_yaml`], byte-for-byte what LLVM 19's
//! `-pass-remarks-output` writes, readable by `llvm-remarkutil`).

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::{self, Write};

/// The kind of an optimization remark (LLVM's remark types).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum RemarkKind {
    /// An optimization was performed (`-Rpass`, YAML `!Passed`).
    Passed,
    /// An optimization was not performed (`-Rpass-missed`, YAML `!Missed`).
    Missed,
    /// An analysis result (`-Rpass-analysis`, YAML `!Analysis`).
    Analysis,
}

impl RemarkKind {
    /// The YAML document tag (`"!Passed"`).
    pub const fn yaml_tag(self) -> &'static str {
        match self {
            RemarkKind::Passed => "!Passed",
            RemarkKind::Missed => "!Missed",
            RemarkKind::Analysis => "!Analysis",
        }
    }

    /// The clang flag that enables this kind (`"-Rpass"`).
    pub const fn flag(self) -> &'static str {
        match self {
            RemarkKind::Passed => "-Rpass",
            RemarkKind::Missed => "-Rpass-missed",
            RemarkKind::Analysis => "-Rpass-analysis",
        }
    }
}

/// How serious a diagnostic is.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Severity {
    /// The input is invalid or a pass could not do what it must.
    Error,
    /// Suspicious but not fatal.
    Warning,
    /// An optimization remark.
    Remark(RemarkKind),
    /// Extra information attached to a preceding diagnostic.
    Note,
}

impl Severity {
    /// The word used in text output (`"error"`, `"warning"`, `"remark"`, `"note"`).
    pub const fn label(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Remark(_) => "remark",
            Severity::Note => "note",
        }
    }
}

/// A source location (from `!DILocation` or an input file position).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct DebugLoc {
    /// File name as recorded (`!DIFile` filename, no directory).
    pub file: String,
    /// 1-based line (0 if unknown).
    pub line: u32,
    /// 1-based column (0 if unknown).
    pub col: u32,
}

impl fmt::Display for DebugLoc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

/// One structured argument of a diagnostic, like LLVM's
/// `DiagnosticInfoOptimizationBase::Argument`.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct DiagArg {
    /// The key (`"Callee"`, `"String"`, `"Cost"`); borrowed when static,
    /// as keys almost always are, so that it costs no allocation.
    pub key: Cow<'static, str>,
    /// The value as text; borrowed when static (the fixed pieces of a
    /// message).
    pub value: Cow<'static, str>,
    /// A location attached to this argument (the callee's definition, ...).
    pub loc: Option<DebugLoc>,
}

/// A diagnostic emitted by a pass: data, rendered later.
///
/// For remarks, `args` carry the message in pieces exactly as LLVM remark
/// arguments do (`String` pieces of text plus keyed values); `message` is
/// their concatenation. [`Diagnostic::arg`] and [`Diagnostic::text`] keep the
/// two in sync.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Diagnostic {
    /// Error, warning, remark kind, or note.
    pub severity: Severity,
    /// Pipeline name of the emitting pass (`"kernel-info"`); the YAML `Pass:`.
    pub pass: &'static str,
    /// Remark identifier within the pass (`"NotInlined"`); the YAML `Name:`.
    pub name: String,
    /// Function the diagnostic is about.
    pub function: Option<String>,
    /// Source location.
    pub location: Option<DebugLoc>,
    /// Human-readable text.
    pub message: String,
    /// Structured arguments.
    pub args: Vec<DiagArg>,
}

impl Diagnostic {
    /// A diagnostic with empty message and no arguments.
    pub fn new(severity: Severity, pass: &'static str, name: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity,
            pass,
            name: name.into(),
            function: None,
            location: None,
            message: String::new(),
            args: Vec::new(),
        }
    }

    /// A remark of kind `kind`.
    pub fn remark(kind: RemarkKind, pass: &'static str, name: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Remark(kind), pass, name)
    }

    /// An error.
    pub fn error(pass: &'static str, name: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Error, pass, name)
    }

    /// A warning.
    pub fn warning(pass: &'static str, name: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Warning, pass, name)
    }

    /// Sets the function.
    pub fn in_function(mut self, function: impl Into<String>) -> Diagnostic {
        self.function = Some(function.into());
        self
    }

    /// Sets the location.
    pub fn at(mut self, loc: Option<DebugLoc>) -> Diagnostic {
        self.location = loc;
        self
    }

    /// Appends a piece of plain text (an argument with key `"String"`).
    pub fn text(self, text: impl Into<Cow<'static, str>>) -> Diagnostic {
        self.arg("String", text)
    }

    /// Appends a keyed argument; its value is also appended to `message`.
    pub fn arg(
        mut self,
        key: impl Into<Cow<'static, str>>,
        value: impl Into<Cow<'static, str>>,
    ) -> Diagnostic {
        let value = value.into();
        self.message.push_str(&value);
        self.args.push(DiagArg {
            key: key.into(),
            value,
            loc: None,
        });
        self
    }

    /// Appends a keyed argument carrying its own location.
    pub fn arg_at(
        mut self,
        key: impl Into<Cow<'static, str>>,
        value: impl Into<Cow<'static, str>>,
        loc: DebugLoc,
    ) -> Diagnostic {
        let value = value.into();
        self.message.push_str(&value);
        self.args.push(DiagArg {
            key: key.into(),
            value,
            loc: Some(loc),
        });
        self
    }

    /// Renders like clang: `file:line:col: remark: message [-Rpass=pass]`.
    /// Without a location the `file:line:col: ` prefix is left out; the
    /// bracketed flag is printed for remarks only.
    pub fn render_text(&self) -> String {
        let mut s = String::new();
        // Writing to a String cannot fail.
        let _ = self.write_text(&mut s);
        s
    }

    /// [`Diagnostic::render_text`] into any writer.
    pub fn write_text(&self, out: &mut dyn Write) -> fmt::Result {
        if let Some(loc) = &self.location {
            write!(out, "{loc}: ")?;
        }
        write!(out, "{}: {}", self.severity.label(), self.message)?;
        if let Severity::Remark(kind) = self.severity {
            write!(out, " [{}={}]", kind.flag(), self.pass)?;
        }
        Ok(())
    }

    /// Writes this diagnostic as one LLVM remark YAML document, exactly as
    /// LLVM 19's YAML remark serializer does, and returns `true`; returns
    /// `false` and writes nothing for errors, warnings and notes, which are
    /// not remarks.
    ///
    /// Layout: `--- !<Kind>`, then `Pass`, `Name`, optional `DebugLoc` (flow
    /// mapping), `Function` ([`NO_FUNCTION`] when unknown), and `Args`
    /// (omitted when empty; a diagnostic without args but with a message
    /// gets one `String` arg), then `...`. Keys are padded to 16 columns;
    /// scalars are quoted by LLVM's `yaml::needsQuotes` rules; flow mappings
    /// wrap after column 70 like LLVM's `yaml::Output`.
    pub fn write_remark_yaml(&self, out: &mut dyn Write) -> Result<bool, fmt::Error> {
        let Severity::Remark(kind) = self.severity else {
            return Ok(false);
        };
        let mut y = YamlOut { out, column: 0 };
        y.raw("--- ")?;
        y.raw(kind.yaml_tag())?;
        y.newline()?;
        y.key("Pass")?;
        y.scalar(self.pass)?;
        y.newline()?;
        y.key("Name")?;
        y.scalar(&self.name)?;
        y.newline()?;
        if let Some(loc) = &self.location {
            y.key("DebugLoc")?;
            y.debug_loc(loc)?;
            y.newline()?;
        }
        y.key("Function")?;
        y.scalar(self.function.as_deref().unwrap_or(NO_FUNCTION))?;
        y.newline()?;
        let fallback;
        let args: &[DiagArg] = if self.args.is_empty() && !self.message.is_empty() {
            fallback = [DiagArg {
                key: "String".into(),
                value: self.message.clone().into(),
                loc: None,
            }];
            &fallback
        } else {
            &self.args
        };
        if !args.is_empty() {
            y.raw("Args:")?;
            y.newline()?;
            for a in args {
                y.raw("  - ")?;
                y.key(&a.key)?;
                y.scalar(&a.value)?;
                y.newline()?;
                if let Some(loc) = &a.loc {
                    y.raw("    ")?;
                    y.key("DebugLoc")?;
                    y.debug_loc(loc)?;
                    y.newline()?;
                }
            }
        }
        y.raw("...")?;
        y.newline()?;
        Ok(true)
    }

    /// [`Diagnostic::write_remark_yaml`] into a new string (empty for
    /// non-remarks).
    pub fn to_remark_yaml(&self) -> String {
        let mut s = String::new();
        let _ = self.write_remark_yaml(&mut s);
        s
    }
}

/// `Function:` value written for a remark that names no function: LLVM's
/// remark parser rejects an empty `Function`, and every LLVM remark has one.
pub const NO_FUNCTION: &str = "<module>";

/// Column LLVM's `yaml::Output` wraps flow mappings after.
const YAML_WRAP_COLUMN: usize = 70;

/// A minimal emulation of LLVM's `yaml::Output` for the remark shapes.
struct YamlOut<'a> {
    out: &'a mut dyn Write,
    column: usize,
}

impl YamlOut<'_> {
    fn raw(&mut self, s: &str) -> fmt::Result {
        self.column += s.len();
        self.out.write_str(s)
    }

    fn newline(&mut self) -> fmt::Result {
        self.column = 0;
        self.out.write_char('\n')
    }

    /// `key:` padded with spaces to 16 columns past the key's start
    /// (`Output::paddedKey`).
    fn key(&mut self, key: &str) -> fmt::Result {
        self.raw(key)?;
        self.raw(":")?;
        const SPACES: &str = "                ";
        if key.len() < SPACES.len() {
            self.raw(&SPACES[key.len()..])
        } else {
            self.raw(" ")
        }
    }

    fn scalar(&mut self, s: &str) -> fmt::Result {
        match needs_quotes(s) {
            Quoting::None => self.raw(s),
            Quoting::Single => {
                self.raw("'")?;
                let mut rest = s;
                while let Some(i) = rest.find('\'') {
                    self.raw(&rest[..i])?;
                    self.raw("''")?;
                    rest = &rest[i + 1..];
                }
                self.raw(rest)?;
                self.raw("'")
            }
            Quoting::Double => {
                let mut buf = String::with_capacity(s.len() + 2);
                buf.push('"');
                yaml_escape(s, &mut buf);
                buf.push('"');
                self.raw(&buf)
            }
        }
    }

    /// `{ File: f, Line: n, Column: n }` with `Output::flowKey` wrapping.
    fn debug_loc(&mut self, loc: &DebugLoc) -> fmt::Result {
        let start = self.column;
        self.raw("{ ")?;
        self.raw("File: ")?;
        self.scalar(&loc.file)?;
        let mut line = String::new();
        let _ = write!(line, "{}", loc.line);
        let mut col = String::new();
        let _ = write!(col, "{}", loc.col);
        for (k, v) in [("Line", line), ("Column", col)] {
            self.raw(", ")?;
            if self.column > YAML_WRAP_COLUMN {
                self.out.write_char('\n')?;
                for _ in 0..start {
                    self.out.write_char(' ')?;
                }
                self.column = start;
                self.raw("  ")?;
            }
            self.raw(k)?;
            self.raw(": ")?;
            self.raw(&v)?;
        }
        self.raw(" }")
    }
}

#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Quoting {
    None,
    Single,
    Double,
}

/// LLVM's `yaml::isNumeric`.
fn is_yaml_numeric(s: &str) -> bool {
    if s.is_empty() || s == "+" || s == "-" {
        return false;
    }
    if matches!(s, ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    let tail = s.strip_prefix(['-', '+']).unwrap_or(s);
    if matches!(tail, ".inf" | ".Inf" | ".INF") {
        return true;
    }
    if let Some(d) = s.strip_prefix("0o") {
        return !d.is_empty() && d.bytes().all(|b| (b'0'..=b'7').contains(&b));
    }
    if let Some(d) = s.strip_prefix("0x") {
        return !d.is_empty() && d.bytes().all(|b| b.is_ascii_hexdigit());
    }
    let b = tail.as_bytes();
    if b[0] == b'.' && (b.len() == 1 || !b[1].is_ascii_digit()) {
        return false;
    }
    if b[0] == b'e' || b[0] == b'E' {
        return false;
    }
    let skip = |s: &[u8]| -> usize { s.iter().take_while(|c| c.is_ascii_digit()).count() };
    let mut i = skip(b);
    if i == b.len() {
        return true;
    }
    if b[i] == b'.' {
        i += 1;
        i += skip(&b[i..]);
        if i == b.len() {
            return true;
        }
    }
    if b[i] != b'e' && b[i] != b'E' {
        return false;
    }
    i += 1;
    if i == b.len() {
        return false;
    }
    if b[i] == b'+' || b[i] == b'-' {
        i += 1;
        if i == b.len() {
            return false;
        }
    }
    i + skip(&b[i..]) == b.len()
}

/// LLVM's `yaml::needsQuotes` (with `ForcePreserveAsString`).
fn needs_quotes(s: &str) -> Quoting {
    let b = s.as_bytes();
    let Some(&first) = b.first() else {
        return Quoting::Single;
    };
    let is_space = |c: u8| matches!(c, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r');
    let mut q = Quoting::None;
    if is_space(first) || is_space(b[b.len() - 1]) {
        q = Quoting::Single;
    }
    if matches!(s, "null" | "Null" | "NULL" | "~")
        || matches!(s, "true" | "True" | "TRUE" | "false" | "False" | "FALSE")
        || is_yaml_numeric(s)
    {
        q = Quoting::Single;
    }
    if br#"-?:\,[]{}#&*!|>'"%@`"#.contains(&first) {
        q = Quoting::Single;
    }
    for &c in b {
        if c.is_ascii_alphanumeric() {
            continue;
        }
        match c {
            b'_' | b'-' | b'^' | b'.' | b',' | b' ' | b'\t' => {}
            b'\n' | b'\r' | 0x7f => return Quoting::Double,
            c if c <= 0x1f || c & 0x80 != 0 => return Quoting::Double,
            _ => q = Quoting::Single,
        }
    }
    q
}

/// LLVM's `yaml::escape` with `EscapePrintable = false` for valid UTF-8.
fn yaml_escape(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\0' => out.push_str("\\0"),
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\x0b' => out.push_str("\\v"),
            '\x0c' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            '\x1b' => out.push_str("\\e"),
            '\u{85}' => out.push_str("\\N"),
            '\u{a0}' => out.push_str("\\_"),
            '\u{2028}' => out.push_str("\\L"),
            '\u{2029}' => out.push_str("\\P"),
            c if (c as u32) < 0x20 || (0x80..0xa0).contains(&(c as u32)) => {
                let _ = write!(out, "\\x{:02X}", c as u32);
            }
            c => out.push(c),
        }
    }
}

/// Collects the diagnostics of one run, in emission order.
#[derive(Clone, Default, Debug)]
pub struct DiagnosticSink {
    diags: Vec<Diagnostic>,
}

impl DiagnosticSink {
    /// An empty sink.
    pub fn new() -> DiagnosticSink {
        DiagnosticSink::default()
    }

    /// Records a diagnostic.
    pub fn emit(&mut self, diag: Diagnostic) {
        self.diags.push(diag);
    }

    /// All diagnostics so far, in emission order.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diags
    }

    /// Whether any [`Severity::Error`] was emitted.
    pub fn has_errors(&self) -> bool {
        self.diags.iter().any(|d| d.severity == Severity::Error)
    }

    /// Number of diagnostics.
    pub fn len(&self) -> usize {
        self.diags.len()
    }

    /// Whether no diagnostic was emitted.
    pub fn is_empty(&self) -> bool {
        self.diags.is_empty()
    }

    /// Removes and returns all diagnostics.
    pub fn take(&mut self) -> Vec<Diagnostic> {
        core::mem::take(&mut self.diags)
    }

    /// Writes every remark as LLVM remark YAML (one document each), the
    /// content of a `-pass-remarks-output` file.
    pub fn write_remarks_yaml(&self, out: &mut dyn Write) -> fmt::Result {
        for d in &self.diags {
            d.write_remark_yaml(out)?;
        }
        Ok(())
    }
}

/// A located error in textual input (IR, pipeline text), rendered like
/// clang/LLVM:
///
/// ```text
/// in.ll:3:7: error: expected type
///   %x = foo
///       ^
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SourceError {
    /// File name as given by the user.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, counted in characters.
    pub col: u32,
    /// What is wrong.
    pub message: String,
    /// The full text of the offending line (no newline).
    pub line_text: String,
}

impl SourceError {
    /// Builds an error for byte offset `offset` of `source` (clamped to the
    /// end and to a character boundary), computing line, column and line
    /// text.
    pub fn at(
        file: impl Into<String>,
        source: &str,
        offset: usize,
        message: impl Into<String>,
    ) -> SourceError {
        let mut offset = offset.min(source.len());
        while !source.is_char_boundary(offset) {
            offset -= 1;
        }
        let line_start = source[..offset].rfind('\n').map_or(0, |i| i + 1);
        let line_end = source[offset..]
            .find('\n')
            .map_or(source.len(), |i| offset + i);
        let line = source[..line_start].matches('\n').count() + 1;
        let col = source[line_start..offset].chars().count() + 1;
        SourceError {
            file: file.into(),
            line: u32::try_from(line).unwrap_or(u32::MAX),
            col: u32::try_from(col).unwrap_or(u32::MAX),
            message: message.into(),
            line_text: source[line_start..line_end].trim_end_matches('\r').into(),
        }
    }
}

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}:{}:{}: error: {}",
            self.file, self.line, self.col, self.message
        )?;
        writeln!(f, "{}", self.line_text)?;
        // Tabs are copied so the caret lines up however tabs are displayed.
        for c in self
            .line_text
            .chars()
            .take(self.col.saturating_sub(1) as usize)
        {
            f.write_char(if c == '\t' { '\t' } else { ' ' })?;
        }
        f.write_char('^')
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loc(file: &str, line: u32, col: u32) -> DebugLoc {
        DebugLoc {
            file: file.into(),
            line,
            col,
        }
    }

    #[test]
    fn remark_yaml_golden() {
        let d = Diagnostic::remark(RemarkKind::Passed, "inline", "Inlined")
            .in_function("bar")
            .at(Some(loc("t.c", 4, 10)))
            .text("'")
            .arg("Callee", "foo")
            .text("' inlined into '")
            .arg_at("Caller", "bar", loc("t.c", 0, 0))
            .text("'")
            .arg("Cost", "-15035")
            .text(" with ")
            .text(":");
        assert_eq!(d.message, "'foo' inlined into 'bar'-15035 with :");
        let expected = "--- !Passed
Pass:            inline
Name:            Inlined
DebugLoc:        { File: t.c, Line: 4, Column: 10 }
Function:        bar
Args:
  - String:          ''''
  - Callee:          foo
  - String:          ''' inlined into '''
  - Caller:          bar
    DebugLoc:        { File: t.c, Line: 0, Column: 0 }
  - String:          ''''
  - Cost:            '-15035'
  - String:          ' with '
  - String:          ':'
...
";
        assert_eq!(d.to_remark_yaml(), expected);
    }

    #[test]
    fn remark_yaml_without_args_or_location() {
        let mut d = Diagnostic::remark(RemarkKind::Analysis, "kernel-info", "regs");
        d.message = "kernel-info: regs in function 'k' = 12".into();
        let expected = "--- !Analysis
Pass:            kernel-info
Name:            regs
Function:        '<module>'
Args:
  - String:          'kernel-info: regs in function ''k'' = 12'
...
";
        assert_eq!(d.to_remark_yaml(), expected);
        let bare = Diagnostic::remark(RemarkKind::Missed, "p", "n").in_function("f");
        assert_eq!(
            bare.to_remark_yaml(),
            "--- !Missed\nPass:            p\nName:            n\nFunction:        f\n...\n"
        );
        assert_eq!(Diagnostic::error("p", "e").to_remark_yaml(), "");
    }

    #[test]
    fn remark_yaml_wraps_long_debug_loc() {
        let path = "/very/long/path/to/some/deeply/nested/source/directory/file.cu";
        let d = Diagnostic::remark(RemarkKind::Missed, "inline", "NoDefinition")
            .in_function("k")
            .at(Some(loc(path, 12, 3)));
        let yaml = d.to_remark_yaml();
        let expected = alloc::format!(
            "DebugLoc:        {{ File: '{path}', \n{}  Line: 12, Column: 3 }}\n",
            " ".repeat(17)
        );
        assert!(yaml.contains(&expected), "{yaml}");
    }

    #[test]
    fn yaml_quoting_rules() {
        assert_eq!(needs_quotes("foo"), Quoting::None);
        assert_eq!(needs_quotes("_Z3foov"), Quoting::None);
        assert_eq!(needs_quotes("a b,c-d.e^f"), Quoting::None);
        assert_eq!(needs_quotes(""), Quoting::Single);
        assert_eq!(needs_quotes(" x"), Quoting::Single);
        assert_eq!(needs_quotes("12"), Quoting::Single);
        assert_eq!(needs_quotes("1.5e3"), Quoting::Single);
        assert_eq!(needs_quotes("0x1F"), Quoting::Single);
        assert_eq!(needs_quotes("1.2.3"), Quoting::None);
        assert_eq!(needs_quotes("true"), Quoting::Single);
        assert_eq!(needs_quotes("~"), Quoting::Single);
        assert_eq!(needs_quotes("-x"), Quoting::Single);
        assert_eq!(needs_quotes("a/b"), Quoting::Single);
        assert_eq!(needs_quotes("a:b"), Quoting::Single);
        assert_eq!(needs_quotes("a\nb"), Quoting::Double);
        assert_eq!(needs_quotes("é"), Quoting::Double);
        let mut s = String::new();
        yaml_escape("a\"b\\c\nd\u{1}é", &mut s);
        assert_eq!(s, "a\\\"b\\\\c\\nd\\x01é");
    }

    #[test]
    fn text_rendering() {
        let d = Diagnostic::remark(RemarkKind::Missed, "inline-must", "NotInlined")
            .at(Some(loc("k.cu", 3, 5)))
            .text("not AlwaysInline into ")
            .arg("Caller", "kern");
        assert_eq!(
            d.render_text(),
            "k.cu:3:5: remark: not AlwaysInline into kern [-Rpass-missed=inline-must]"
        );
        let e = Diagnostic::error("cdp", "NotAKernel").text("CDP target is not a kernel");
        assert_eq!(e.render_text(), "error: CDP target is not a kernel");
    }

    #[test]
    fn sink() {
        let mut s = DiagnosticSink::new();
        s.emit(Diagnostic::warning("p", "w"));
        assert!(!s.has_errors());
        s.emit(Diagnostic::error("p", "e"));
        s.emit(Diagnostic::remark(RemarkKind::Passed, "p", "r").text("x"));
        assert!(s.has_errors());
        let mut y = String::new();
        s.write_remarks_yaml(&mut y).unwrap();
        assert_eq!(y.matches("--- ").count(), 1);
        assert_eq!(s.take().len(), 3);
        assert!(s.is_empty());
    }

    #[test]
    fn source_error_rendering() {
        let src = "define void @f() {\n\t%x = foo i32\n}\n";
        let off = src.find("foo").unwrap();
        let e = SourceError::at("in.ll", src, off, "expected instruction opcode");
        assert_eq!((e.line, e.col), (2, 7));
        assert_eq!(
            alloc::format!("{e}"),
            "in.ll:2:7: error: expected instruction opcode\n\t%x = foo i32\n\t     ^"
        );
        // Offsets past the end clamp to the last position.
        let e = SourceError::at("x", "ab", 99, "eof");
        assert_eq!((e.line, e.col, e.line_text.as_str()), (1, 3, "ab"));
        // Multi-byte characters count as one column; mid-char offsets clamp back.
        let e = SourceError::at("x", "éx", 1, "m");
        assert_eq!(e.col, 1);
        let e = SourceError::at("x", "éx", 2, "m");
        assert_eq!(e.col, 2);
    }
}
