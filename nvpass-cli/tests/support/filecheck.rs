//! An in-process implementation of LLVM's `FileCheck`.
//!
//! `cargo test` must run the `.ll` pass tests without an LLVM installation,
//! so the lit runner (`tests/lit.rs`) calls this module wherever a RUN line
//! says `FileCheck`. The semantics follow LLVM 19's `FileCheck` (the matching
//! algorithm is a transcription of `llvm/lib/FileCheck/FileCheck.cpp`), and
//! the diagnostics use the same wording and `file:line:col:` layout so that
//! failures read like the real tool's.
//!
//! # Supported
//!
//! * Directives: `CHECK:`, `-NEXT:`, `-SAME:`, `-NOT:`, `-DAG:`, `-LABEL:`,
//!   `-EMPTY:`, `-COUNT-N:`, the `{LITERAL}` modifier, and comment prefixes
//!   (`COM:` and `RUN:` by default, `--comment-prefixes=...`).
//! * Pattern syntax: fixed strings, `{{regex}}` blocks, string variables
//!   `[[NAME:regex]]` (definition) and `[[NAME]]` (use), global variables
//!   `[[$NAME...]]`, and the line expressions `[[@LINE]]`, `[[@LINE+N]]`,
//!   `[[@LINE-N]]` (also spelled `[[#@LINE...]]`).
//! * Options: `--check-prefix`, `--check-prefixes`, `--comment-prefixes`,
//!   `--input-file`, `--implicit-check-not`, `--strict-whitespace`,
//!   `--match-full-lines`, `--ignore-case`, `--allow-empty`,
//!   `--allow-unused-prefixes`, `--enable-var-scope`, `-DNAME=VALUE`.
//!   `--dump-input*`, `--color`, `-v` and `-vv` are accepted and ignored.
//!
//! # Not supported (reported as an error, never silently mis-handled)
//!
//! * Numeric substitution blocks `[[#...]]` other than `@LINE` expressions,
//!   and `-D#NAME=...`.
//! * Using a variable in the same pattern that defines it (FileCheck turns
//!   that into a regex back-reference, which Rust's `regex` cannot express).
//! * `--allow-deprecated-dag-overlap`, `--implicit-check-not` with numeric
//!   blocks, and any other option not listed above.
//!
//! # Known differences
//!
//! * Regexes are POSIX extended regexes in LLVM and are translated to Rust
//!   `regex` syntax: negated bracket expressions (`[^...]`) are made to exclude
//!   `\n` as POSIX `REG_NEWLINE` does, and `.`/`^`/`$` are line-oriented as in
//!   LLVM. Rust's regex is leftmost-first where POSIX is leftmost-longest, so
//!   an alternation like `{{a|ab}}` may match a shorter string than LLVM's.
//!   Inside a bracket expression a backslash escapes the next character
//!   (POSIX treats it literally).
//! * The input dump printed after a failure is a plain excerpt of the input
//!   around the failure rather than LLVM's annotated `-dump-input` format.

use regex::Regex;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Exit status for a check failure (as `FileCheck`).
pub const EXIT_CHECK_FAILED: i32 = 1;
/// Exit status for a usage error or a malformed check file (as `FileCheck`).
pub const EXIT_USAGE: i32 = 2;

/// Command-line options of a `FileCheck` invocation.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Check prefixes; empty means the default `CHECK`.
    pub check_prefixes: Vec<String>,
    /// Comment prefixes; `None` means the default `COM,RUN`.
    pub comment_prefixes: Option<Vec<String>>,
    /// `--implicit-check-not` patterns.
    pub implicit_check_not: Vec<String>,
    pub strict_whitespace: bool,
    pub match_full_lines: bool,
    pub ignore_case: bool,
    pub allow_empty: bool,
    pub allow_unused_prefixes: bool,
    pub enable_var_scope: bool,
    /// `-DNAME=VALUE` string variable definitions.
    pub defines: Vec<(String, String)>,
    /// `--input-file`; `None` means standard input.
    pub input_file: Option<PathBuf>,
    /// The check file (the one positional argument).
    pub check_file: PathBuf,
}

impl Options {
    fn prefixes(&self) -> Vec<String> {
        if self.check_prefixes.is_empty() {
            vec!["CHECK".to_string()]
        } else {
            self.check_prefixes.clone()
        }
    }

    fn comments(&self) -> Vec<String> {
        match &self.comment_prefixes {
            Some(c) => c.clone(),
            None => vec!["COM".to_string(), "RUN".to_string()],
        }
    }
}

/// Parses `FileCheck` command-line arguments (without the program name).
pub fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut opts = Options::default();
    let mut positional = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if !arg.starts_with('-') || arg == "-" {
            positional.push(arg.clone());
            continue;
        }
        // `-D` takes its value glued on, as in `FileCheck`.
        if let Some(def) = arg.strip_prefix("-D") {
            if def.is_empty() {
                return Err("for the -D option: requires a value!".to_string());
            }
            if def.starts_with('#') {
                return Err(format!(
                    "unsupported option -D{def}: numeric variables are not implemented"
                ));
            }
            let (name, value) = def
                .split_once('=')
                .ok_or_else(|| format!("missing equal sign in -D{def}"))?;
            if !is_var_name(name.strip_prefix('$').unwrap_or(name)) {
                return Err(format!("invalid variable name in -D{def}"));
            }
            opts.defines.push((name.to_string(), value.to_string()));
            continue;
        }
        let body = arg.trim_start_matches('-');
        let (name, inline_value) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (body, None),
        };
        // Options taking a value accept `--opt=value` and `--opt value`.
        let mut value = |what: &str| -> Result<String, String> {
            if let Some(v) = inline_value.clone() {
                return Ok(v);
            }
            let v = args
                .get(i)
                .ok_or_else(|| format!("option --{what} requires a value"))?;
            i += 1;
            Ok(v.clone())
        };
        let flag = |v: &Option<String>| -> Result<bool, String> {
            match v.as_deref() {
                None | Some("true") | Some("1") => Ok(true),
                Some("false") | Some("0") => Ok(false),
                Some(other) => Err(format!("invalid boolean value '{other}' for --{name}")),
            }
        };
        match name {
            "check-prefix" => opts.check_prefixes.push(value(name)?),
            "check-prefixes" => {
                for p in value(name)?.split(',') {
                    opts.check_prefixes.push(p.to_string());
                }
            }
            "comment-prefixes" => {
                opts.comment_prefixes = Some(value(name)?.split(',').map(str::to_string).collect())
            }
            "input-file" => opts.input_file = Some(PathBuf::from(value(name)?)),
            "implicit-check-not" => opts.implicit_check_not.push(value(name)?),
            "strict-whitespace" => opts.strict_whitespace = flag(&inline_value)?,
            "match-full-lines" => opts.match_full_lines = flag(&inline_value)?,
            "ignore-case" => opts.ignore_case = flag(&inline_value)?,
            "allow-empty" => opts.allow_empty = flag(&inline_value)?,
            "allow-unused-prefixes" => opts.allow_unused_prefixes = flag(&inline_value)?,
            "enable-var-scope" => opts.enable_var_scope = flag(&inline_value)?,
            // Output-only options of the real tool.
            "dump-input" | "dump-input-filter" | "dump-input-context" => {
                if inline_value.is_none() {
                    value(name)?;
                }
            }
            "color" | "v" | "vv" => {}
            _ => return Err(format!("unsupported FileCheck option '{arg}'")),
        }
    }
    match positional.len() {
        1 => opts.check_file = PathBuf::from(positional.remove(0)),
        0 => return Err("FileCheck: no check file given".to_string()),
        _ => {
            return Err(format!(
                "FileCheck: too many positional arguments: {positional:?}"
            ))
        }
    }
    Ok(opts)
}

/// Runs `FileCheck` like the command would: `args` excludes the program name,
/// `stdin` is the input unless `--input-file` is given. Returns the exit
/// status (0, [`EXIT_CHECK_FAILED`] or [`EXIT_USAGE`]) and the text the tool
/// would print on standard error.
pub fn run(args: &[String], stdin: &[u8]) -> (i32, String) {
    let opts = match parse_args(args) {
        Ok(o) => o,
        Err(e) => return (EXIT_USAGE, format!("{e}\n")),
    };
    let check_name = opts.check_file.display().to_string();
    let check_text = match std::fs::read(&opts.check_file) {
        Ok(t) => String::from_utf8_lossy(&t).into_owned(),
        Err(e) => {
            return (
                EXIT_USAGE,
                format!("Could not open check file '{check_name}': {e}\n"),
            )
        }
    };
    let (input_name, input_bytes) = match &opts.input_file {
        Some(p) => match std::fs::read(p) {
            Ok(t) => (p.display().to_string(), t),
            Err(e) => {
                return (
                    EXIT_USAGE,
                    format!("Could not open input file '{}': {e}\n", p.display()),
                )
            }
        },
        None => ("<stdin>".to_string(), stdin.to_vec()),
    };
    let input = String::from_utf8_lossy(&input_bytes);
    match check(&check_name, &check_text, &input_name, &input, &opts) {
        Ok(()) => (0, String::new()),
        Err(f) => (f.status, f.message),
    }
}

/// A failed `FileCheck` run: exit status and diagnostics.
#[derive(Clone, Debug)]
pub struct Failure {
    pub status: i32,
    pub message: String,
}

/// Checks `input` against the directives in `check_text`. The names are used
/// in diagnostics only. Option fields `check_file` and `input_file` are
/// ignored.
pub fn check(
    check_name: &str,
    check_text: &str,
    input_name: &str,
    input: &str,
    opts: &Options,
) -> Result<(), Failure> {
    let usage = |message: String| Failure {
        status: EXIT_USAGE,
        message,
    };
    validate_prefixes(opts).map_err(usage)?;
    let check_src = Source::new(check_name, canonicalize(check_text, opts.strict_whitespace));
    let mut diags = String::new();
    let checks = match parse_check_file(&check_src, opts) {
        Ok(c) => c,
        Err(d) => return Err(usage(d)),
    };
    let input_src = Source::new(input_name, canonicalize(input, opts.strict_whitespace));
    if input_src.text.is_empty() && !opts.allow_empty {
        return Err(usage(format!(
            "FileCheck error: '{input_name}' is empty.\n"
        )));
    }
    let mut matcher = Matcher::new(&check_src, &input_src, opts);
    for (name, value) in &opts.defines {
        matcher.vars.insert(name.clone(), value.clone());
    }
    if matcher.check_input(&checks) {
        Ok(())
    } else {
        diags.push_str(&matcher.diags);
        diags.push_str(&input_dump(&input_src, matcher.failure_pos));
        Err(Failure {
            status: EXIT_CHECK_FAILED,
            message: diags,
        })
    }
}

// ---------------------------------------------------------------------------
// Sources and diagnostics
// ---------------------------------------------------------------------------

/// A named text buffer with line-start offsets for diagnostics.
struct Source {
    name: String,
    text: String,
    line_starts: Vec<usize>,
}

impl Source {
    fn new(name: &str, text: String) -> Source {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Source {
            name: name.to_string(),
            text,
            line_starts,
        }
    }

    /// 1-based line and column of byte offset `pos`.
    fn line_col(&self, pos: usize) -> (usize, usize) {
        let line = self.line_starts.partition_point(|&s| s <= pos) - 1;
        (line + 1, pos - self.line_starts[line] + 1)
    }

    fn line_text(&self, line: usize) -> &str {
        let start = self.line_starts[line - 1];
        let end = self.text[start..]
            .find('\n')
            .map_or(self.text.len(), |e| start + e);
        &self.text[start..end]
    }

    /// Formats `name:line:col: kind: msg`, the source line and a caret line
    /// (with `~` under the rest of a `len`-byte range on the same line).
    fn diag(&self, pos: usize, len: usize, kind: &str, msg: &str) -> String {
        let (line, col) = self.line_col(pos);
        let text = self.line_text(line);
        let mut marker: String = text[..col - 1]
            .chars()
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        marker.push('^');
        let rest = (text.len() + 1 - col).min(len);
        for _ in 1..rest {
            marker.push('~');
        }
        format!(
            "{}:{line}:{col}: {kind}: {msg}\n{text}\n{marker}\n",
            self.name
        )
    }
}

/// Canonicalizes like `FileCheck::CanonicalizeFile`: drops the `\r` of each
/// `\r\n` and, unless `strict`, folds runs of spaces and tabs into one space.
fn canonicalize(text: &str, strict: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\r' && chars.peek() == Some(&'\n') {
            continue;
        }
        if strict || (c != ' ' && c != '\t') {
            out.push(c);
            continue;
        }
        out.push(' ');
        while matches!(chars.peek(), Some(' ') | Some('\t')) {
            chars.next();
        }
    }
    out
}

/// A plain excerpt of the input around `pos`, to make failures easy to read.
fn input_dump(input: &Source, pos: Option<usize>) -> String {
    const CONTEXT: usize = 6;
    let nlines = input.line_starts.len();
    let focus = pos.map(|p| input.line_col(p.min(input.text.len())).0);
    let (first, last) = match focus {
        Some(l) => (l.saturating_sub(CONTEXT).max(1), (l + CONTEXT).min(nlines)),
        None => (1, nlines.min(2 * CONTEXT)),
    };
    let mut out = format!(
        "\nInput file: {}\nInput excerpt (lines {first}-{last} of {nlines}):\n",
        input.name
    );
    for l in first..=last {
        let mark = if Some(l) == focus { '>' } else { ' ' };
        let _ = writeln!(out, "{mark}{l:>6}: {}", input.line_text(l));
    }
    out
}

// ---------------------------------------------------------------------------
// Check-file parsing
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Plain,
    Next,
    Same,
    Not,
    Dag,
    Label,
    Empty,
    /// The implicit end-of-input check carrying trailing DAG/NOT directives.
    Eof,
}

impl Kind {
    fn suffix(self) -> &'static str {
        match self {
            Kind::Plain | Kind::Eof => "",
            Kind::Next => "-NEXT",
            Kind::Same => "-SAME",
            Kind::Not => "-NOT",
            Kind::Dag => "-DAG",
            Kind::Label => "-LABEL",
            Kind::Empty => "-EMPTY",
        }
    }
}

/// One piece of a pattern, in order.
#[derive(Clone, Debug)]
enum Piece {
    /// Literal text.
    Fixed(String),
    /// A translated `{{...}}` regex.
    Regex(String),
    /// `[[NAME:regex]]`.
    Def { name: String, regex: String },
    /// `[[NAME]]`, substituted with the variable's value at match time;
    /// `pos` is where the name is in the check source (for diagnostics).
    Use { name: String, pos: usize },
}

/// Where a pattern came from: the check file, or the command line (for
/// `--implicit-check-not`).
#[derive(Clone, Debug)]
enum Origin {
    Check(usize),
    CommandLine { text: String, col: usize },
}

#[derive(Clone, Debug)]
struct Pattern {
    kind: Kind,
    /// `CHECK-COUNT-N` repetitions (1 otherwise).
    count: usize,
    /// The prefix as written (for diagnostics), e.g. `CHECK`.
    prefix: String,
    origin: Origin,
    pieces: Vec<Piece>,
    /// Anchor the regex to whole lines (`--match-full-lines`).
    full_line: bool,
    /// What fuzzy matching compares input against (the fixed string, or the
    /// regex source as in LLVM).
    example: String,
}

impl Pattern {
    fn eof(prefix: &str, pos: usize) -> Pattern {
        Pattern {
            kind: Kind::Eof,
            count: 1,
            prefix: prefix.to_string(),
            origin: Origin::Check(pos),
            pieces: Vec::new(),
            full_line: false,
            example: String::new(),
        }
    }

    /// The directive name as FileCheck prints it, e.g. `CHECK-NEXT`.
    fn directive(&self) -> String {
        if self.count > 1 {
            format!("{}-COUNT", self.prefix)
        } else {
            format!("{}{}", self.prefix, self.kind.suffix())
        }
    }

    fn is_fixed(&self) -> bool {
        !self.full_line && self.pieces.iter().all(|p| matches!(p, Piece::Fixed(_)))
    }
}

/// A positive check together with the DAG/NOT directives preceding it.
#[derive(Debug)]
struct CheckString {
    pat: Pattern,
    dag_nots: Vec<Pattern>,
}

fn is_word_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'-' || c == b'_'
}

fn is_var_name(s: &str) -> bool {
    let mut b = s.bytes();
    matches!(b.next(), Some(c) if c.is_ascii_alphabetic() || c == b'_')
        && b.all(|c| c.is_ascii_alphanumeric() || c == b'_')
}

/// Validates prefixes as `FileCheck`'s `ValidatePrefixes` does.
fn validate_prefixes(opts: &Options) -> Result<(), String> {
    let mut seen: Vec<&String> = Vec::new();
    let prefixes = opts.prefixes();
    let comments = opts.comments();
    let kinds = prefixes
        .iter()
        .map(|p| ("check", p))
        .chain(comments.iter().map(|p| ("comment", p)));
    for (kind, p) in kinds {
        if p.is_empty() {
            return Err(format!(
                "error: supplied {kind} prefix must not be the empty string\n"
            ));
        }
        if !p.bytes().all(is_word_char) {
            return Err(format!(
                "error: supplied {kind} prefix must start with a letter and contain only \
                 alphanumeric characters, hyphens, and underscores: '{p}'\n"
            ));
        }
        if seen.contains(&p) {
            return Err(format!(
                "error: supplied {kind} prefix must be unique among check and comment prefixes: '{p}'\n"
            ));
        }
        seen.push(p);
    }
    Ok(())
}

/// What follows a prefix occurrence.
enum Directive {
    /// Not a directive (e.g. `CHECKS:`); keep scanning.
    None,
    Comment,
    Check {
        kind: Kind,
        count: usize,
        literal: bool,
        after: usize,
    },
}

/// Recognizes the directive after a prefix (`FindCheckType`). `rest` starts
/// right after the prefix; `after` in the result is relative to `rest`.
fn find_check_type(
    rest: &str,
    is_comment: bool,
    prefix: &str,
) -> Result<Directive, (usize, String)> {
    if is_comment {
        return Ok(if rest.starts_with(':') {
            Directive::Comment
        } else {
            Directive::None
        });
    }
    // The modifier list `{LITERAL}` and the colon.
    let modifiers = |kind: Kind, count: usize, at: usize| -> Directive {
        let r = &rest[at..];
        if r.starts_with(':') {
            return Directive::Check {
                kind,
                count,
                literal: false,
                after: at + 1,
            };
        }
        let Some(mut r2) = r.strip_prefix('{') else {
            return Directive::None;
        };
        // LITERAL is the only modifier; a list needs at least one.
        loop {
            r2 = r2.trim_start();
            match r2.strip_prefix("LITERAL") {
                Some(x) => r2 = x.trim_start(),
                None => return Directive::None,
            }
            match r2.strip_prefix(',') {
                Some(x) => r2 = x,
                None => break,
            }
        }
        match r2.strip_prefix("}:") {
            Some(x) => Directive::Check {
                kind,
                count,
                literal: true,
                after: rest.len() - x.len(),
            },
            None => Directive::None,
        }
    };
    if rest.starts_with(':') || rest.starts_with('{') {
        return Ok(modifiers(Kind::Plain, 1, 0));
    }
    let Some(r) = rest.strip_prefix('-') else {
        return Ok(Directive::None);
    };
    if let Some(r) = r.strip_prefix("COUNT-") {
        let digits = r.bytes().take_while(u8::is_ascii_digit).count();
        let at = rest.len() - r.len() + digits;
        let bad = || {
            Err((
                at,
                format!("invalid count in -COUNT specification on prefix '{prefix}'"),
            ))
        };
        let Ok(count) = r[..digits].parse::<usize>() else {
            return bad();
        };
        if count == 0
            || count > i32::MAX as usize
            || !matches!(r.as_bytes().get(digits), Some(b':' | b'{'))
        {
            return bad();
        }
        return Ok(modifiers(Kind::Plain, count, at));
    }
    for combo in [
        "DAG-NOT:",
        "NOT-DAG:",
        "NEXT-NOT:",
        "NOT-NEXT:",
        "SAME-NOT:",
        "NOT-SAME:",
        "EMPTY-NOT:",
        "NOT-EMPTY:",
    ] {
        if r.starts_with(combo) {
            return Err((
                rest.len() - r.len(),
                format!("unsupported -NOT combo on prefix '{prefix}'"),
            ));
        }
    }
    for (word, kind) in [
        ("NEXT", Kind::Next),
        ("SAME", Kind::Same),
        ("NOT", Kind::Not),
        ("DAG", Kind::Dag),
        ("LABEL", Kind::Label),
        ("EMPTY", Kind::Empty),
    ] {
        if let Some(x) = r.strip_prefix(word) {
            return Ok(modifiers(kind, 1, rest.len() - x.len()));
        }
    }
    Ok(Directive::None)
}

/// Parses all directives of the check file (`FileCheck::readCheckFile`).
fn parse_check_file(src: &Source, opts: &Options) -> Result<Vec<CheckString>, String> {
    let text = src.text.as_str();
    let prefixes = opts.prefixes();
    let comments = opts.comments();
    let all: Vec<(&str, bool)> = prefixes
        .iter()
        .map(|p| (p.as_str(), false))
        .chain(comments.iter().map(|p| (p.as_str(), true)))
        .collect();
    let mut used = vec![false; prefixes.len()];

    // Implicit CHECK-NOTs from the command line, re-armed after every check.
    let mut implicit = Vec::new();
    for pat_text in &opts.implicit_check_not {
        let shown = format!("-implicit-check-not='{pat_text}'");
        let col = "-implicit-check-not='".len() + 1;
        let canon = canonicalize(pat_text, opts.strict_whitespace);
        let origin = Origin::CommandLine { text: shown, col };
        let pat = parse_pattern(
            &canon,
            0,
            Kind::Not,
            1,
            false,
            "IMPLICIT-CHECK",
            origin,
            opts,
        )
        .map_err(|(_, msg)| format!("command line: error: {msg}\n"))?;
        implicit.push(pat);
    }

    let mut checks: Vec<CheckString> = Vec::new();
    let mut dag_nots: Vec<Pattern> = implicit.clone();
    let mut pos = 0;
    while pos < text.len() {
        // The earliest (then longest) prefix occurrence.
        let mut best: Option<(usize, usize)> = None; // (offset, index into all)
        for (i, (p, _)) in all.iter().enumerate() {
            if let Some(off) = text[pos..].find(p) {
                let off = pos + off;
                let better = match best {
                    None => true,
                    Some((bo, bi)) => off < bo || (off == bo && p.len() > all[bi].0.len()),
                };
                if better {
                    best = Some((off, i));
                }
            }
        }
        let Some((at, idx)) = best else { break };
        let (prefix, is_comment) = all[idx];
        let after_prefix = at + prefix.len();
        let part_of_word = at > 0 && is_word_char(text.as_bytes()[at - 1]);
        let directive = if part_of_word {
            Directive::None
        } else {
            find_check_type(&text[after_prefix..], is_comment, prefix)
                .map_err(|(off, msg)| src.diag(after_prefix + off, 0, "error", &msg))?
        };
        let (kind, count, literal, after) = match directive {
            Directive::None => {
                // Skip the prefix and the rest of that word.
                pos = after_prefix;
                while pos < text.len() && is_word_char(text.as_bytes()[pos]) {
                    pos += 1;
                }
                continue;
            }
            Directive::Comment => {
                pos = text[at..].find('\n').map_or(text.len(), |e| at + e + 1);
                continue;
            }
            Directive::Check {
                kind,
                count,
                literal,
                after,
            } => (kind, count, literal, after_prefix + after),
        };
        used[idx] = true;
        let eol = text[after..].find('\n').map_or(text.len(), |e| after + e);
        // Skip leading whitespace (FileCheck keeps it only for
        // --strict-whitespace with --match-full-lines).
        let mut start = after;
        if !(opts.strict_whitespace && opts.match_full_lines) {
            while start < eol && matches!(text.as_bytes()[start], b' ' | b'\t') {
                start += 1;
            }
        }
        pos = eol;
        let pat = parse_pattern(
            &text[start..eol],
            start,
            kind,
            count,
            literal,
            prefix,
            Origin::Check(start),
            opts,
        )
        .map_err(|(p, msg)| src.diag(p, 0, "error", &msg))?;
        if kind == Kind::Label
            && pat
                .pieces
                .iter()
                .any(|p| matches!(p, Piece::Def { .. } | Piece::Use { .. }))
        {
            return Err(src.diag(
                at,
                0,
                "error",
                &format!("found '{prefix}-LABEL:' with variable definition or use"),
            ));
        }
        if matches!(kind, Kind::Next | Kind::Same | Kind::Empty) && checks.is_empty() {
            let ty = &kind.suffix()[1..];
            return Err(src.diag(
                at,
                0,
                "error",
                &format!("found '{prefix}-{ty}' without previous '{prefix}: line"),
            ));
        }
        if matches!(kind, Kind::Dag | Kind::Not) {
            dag_nots.push(pat);
            continue;
        }
        checks.push(CheckString {
            pat,
            dag_nots: std::mem::replace(&mut dag_nots, implicit.clone()),
        });
    }

    if !dag_nots.is_empty() {
        checks.push(CheckString {
            pat: Pattern::eof(&prefixes[0], text.len()),
            dag_nots,
        });
    }

    if !used.iter().any(|&u| u) {
        let list: Vec<String> = prefixes.iter().map(|p| format!("'{p}:'")).collect();
        let s = if prefixes.len() > 1 { "es" } else { "" };
        return Err(format!(
            "error: no check strings found with prefix{s} {}\n",
            list.join(", ")
        ));
    }
    if !opts.allow_unused_prefixes {
        let mut msg = String::new();
        for (p, _) in prefixes.iter().zip(&used).filter(|(_, &u)| !u) {
            let _ = writeln!(msg, "error: no check strings found with prefix '{p}:'");
        }
        if !msg.is_empty() {
            return Err(msg);
        }
    }
    Ok(checks)
}

/// Parses one pattern (`Pattern::parsePattern`). `base` is the offset of
/// `text` in the check source, for error locations. Errors carry the offset
/// they refer to.
#[allow(clippy::too_many_arguments)]
fn parse_pattern(
    text: &str,
    base: usize,
    kind: Kind,
    count: usize,
    literal: bool,
    prefix: &str,
    origin: Origin,
    opts: &Options,
) -> Result<Pattern, (usize, String)> {
    let mut text = text;
    if !(opts.strict_whitespace && opts.match_full_lines) {
        text = text.trim_end_matches([' ', '\t']);
    }
    if text.is_empty() && kind != Kind::Empty {
        return Err((
            base,
            format!("found empty check string with prefix '{prefix}:'"),
        ));
    }
    if !text.is_empty() && kind == Kind::Empty {
        return Err((
            base,
            format!("found non-empty check string for empty check with prefix '{prefix}:'"),
        ));
    }
    let check_line = match origin {
        Origin::Check(_) => None,
        Origin::CommandLine { .. } => Some(()),
    };
    let mut pat = Pattern {
        kind,
        count,
        prefix: prefix.to_string(),
        origin,
        pieces: Vec::new(),
        full_line: opts.match_full_lines && kind != Kind::Not && kind != Kind::Empty,
        example: text.to_string(),
    };
    if literal || kind == Kind::Empty || (!text.contains("{{") && !text.contains("[[")) {
        if !text.is_empty() {
            pat.pieces.push(Piece::Fixed(text.to_string()));
        }
        return Ok(pat);
    }

    let mut defined_here: Vec<String> = Vec::new();
    let mut regex_example = String::new();
    let mut fixed = String::new();
    let mut i = 0;
    let flush = |fixed: &mut String, pieces: &mut Vec<Piece>, ex: &mut String| {
        if !fixed.is_empty() {
            ex.push_str(&regex::escape(fixed));
            pieces.push(Piece::Fixed(std::mem::take(fixed)));
        }
    };
    while i < text.len() {
        let rest = &text[i..];
        if let Some(body) = rest.strip_prefix("{{") {
            let Some(end) = body.find("}}") else {
                return Err((
                    base + i,
                    "found start of regex string with no end '}}'".to_string(),
                ));
            };
            flush(&mut fixed, &mut pat.pieces, &mut regex_example);
            let re = translate_regex(&body[..end]);
            check_regex(&re).map_err(|e| (base + i + 2, format!("invalid regex: {e}")))?;
            regex_example.push_str(&body[..end]);
            pat.pieces.push(Piece::Regex(re));
            i += 2 + end + 2;
            continue;
        }
        if let Some(body) = rest.strip_prefix("[[") {
            let Some(end) = find_var_end(body) else {
                return Err((
                    base + i,
                    "Invalid substitution block, no ]] found".to_string(),
                ));
            };
            let block = &body[..end];
            let name_pos = base + i + 2;
            flush(&mut fixed, &mut pat.pieces, &mut regex_example);
            i += 2 + end + 2;
            // `@LINE` expressions, legacy `[[@LINE+N]]` or `[[#@LINE+N]]`.
            let line_expr = block.strip_prefix('#').unwrap_or(block).trim();
            if let Some(offset) = line_expr.strip_prefix("@LINE") {
                let offset: String = offset.chars().filter(|c| !c.is_whitespace()).collect();
                let delta: i64 = match offset.as_str() {
                    "" => 0,
                    o if o.starts_with('+') || o.starts_with('-') => o
                        .parse()
                        .map_err(|_| (name_pos, format!("invalid @LINE expression '{block}'")))?,
                    _ => return Err((name_pos, format!("invalid @LINE expression '{block}'"))),
                };
                if check_line.is_some() {
                    return Err((
                        name_pos,
                        "@LINE is not allowed on the command line".to_string(),
                    ));
                }
                // The caller knows the line; patch it in below.
                pat.pieces.push(Piece::Use {
                    name: format!("@LINE{delta:+}"),
                    pos: name_pos,
                });
                continue;
            }
            if block.starts_with('#') {
                return Err((
                    name_pos,
                    format!("numeric substitution blocks are not supported by this FileCheck: '[[{block}]]'"),
                ));
            }
            let (name, def) = match block.split_once(':') {
                Some((n, r)) => (n, Some(r)),
                None => (block, None),
            };
            let bare = name.strip_prefix('$').unwrap_or(name);
            if !is_var_name(bare) {
                return Err((name_pos, format!("invalid variable name '{name}'")));
            }
            match def {
                Some(r) => {
                    if defined_here.iter().any(|d| d == name) {
                        return Err((
                            name_pos,
                            format!("variable '{name}' defined twice in one pattern"),
                        ));
                    }
                    let re = translate_regex(r);
                    let re_pos = name_pos + name.len() + 1;
                    check_regex(&re).map_err(|e| (re_pos, format!("invalid regex: {e}")))?;
                    regex_example.push('(');
                    regex_example.push_str(r);
                    regex_example.push(')');
                    defined_here.push(name.to_string());
                    pat.pieces.push(Piece::Def {
                        name: name.to_string(),
                        regex: re,
                    });
                }
                None => {
                    if defined_here.iter().any(|d| d == name) {
                        return Err((
                            name_pos,
                            format!(
                                "use of variable '{name}' in the pattern that defines it is not \
                                 supported by this FileCheck (needs a regex back-reference)"
                            ),
                        ));
                    }
                    regex_example.push_str("[[");
                    regex_example.push_str(name);
                    regex_example.push_str("]]");
                    pat.pieces.push(Piece::Use {
                        name: name.to_string(),
                        pos: name_pos,
                    });
                }
            }
            continue;
        }
        let c = rest.chars().next().expect("non-empty");
        fixed.push(c);
        i += c.len_utf8();
    }
    flush(&mut fixed, &mut pat.pieces, &mut regex_example);
    pat.example = regex_example;
    Ok(pat)
}

/// Finds the `]]` closing a `[[` block, skipping nested brackets and
/// backslash escapes (`Pattern::FindRegexVarEnd`).
fn find_var_end(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        if depth == 0 && b[i..].starts_with(b"]]") {
            return Some(i);
        }
        match b[i] {
            b'\\' => {
                i += 2;
                continue;
            }
            b'[' => depth += 1,
            b']' => depth = depth.checked_sub(1)?,
            _ => {}
        }
        i += 1;
    }
    None
}

/// Translates a POSIX extended regex (as LLVM's `Regex` with `REG_NEWLINE`
/// reads it) to Rust `regex` syntax. Negated bracket expressions are made to
/// exclude `\n`; a bare `[` inside a bracket expression is escaped, as are
/// `&`, `~` and `-` sequences Rust would read as set operations.
fn translate_regex(re: &str) -> String {
    let b: Vec<char> = re.chars().collect();
    let mut out = String::with_capacity(re.len() + 4);
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            '\\' => {
                out.push('\\');
                if let Some(&c) = b.get(i + 1) {
                    out.push(c);
                }
                i += 2;
            }
            '[' => {
                out.push('[');
                i += 1;
                let negated = b.get(i) == Some(&'^');
                if negated {
                    out.push('^');
                    i += 1;
                }
                if b.get(i) == Some(&']') {
                    out.push_str("\\]");
                    i += 1;
                }
                let mut closed = false;
                while i < b.len() {
                    match b[i] {
                        ']' => {
                            if negated {
                                out.push_str("\\n");
                            }
                            out.push(']');
                            i += 1;
                            closed = true;
                            break;
                        }
                        '[' if matches!(b.get(i + 1), Some(':' | '=' | '.')) => {
                            // [:class:] (and [=x=], [.x.], which Rust lacks
                            // and will report) copied through.
                            let delim = b[i + 1];
                            let mut j = i + 2;
                            while j + 1 < b.len() && !(b[j] == delim && b[j + 1] == ']') {
                                j += 1;
                            }
                            let end = (j + 2).min(b.len());
                            out.extend(&b[i..end]);
                            i = end;
                        }
                        '\\' => {
                            out.push('\\');
                            if let Some(&c) = b.get(i + 1) {
                                out.push(c);
                            }
                            i += 2;
                        }
                        c @ ('[' | '&' | '~') => {
                            out.push('\\');
                            out.push(c);
                            i += 1;
                        }
                        '-' if b.get(i + 1) == Some(&'-') => {
                            out.push_str("\\-");
                            i += 1;
                        }
                        c => {
                            out.push(c);
                            i += 1;
                        }
                    }
                }
                if !closed {
                    // Leave it unbalanced: compiling reports the error.
                }
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

fn check_regex(re: &str) -> Result<(), String> {
    Regex::new(&format!("(?m){re}"))
        .map(|_| ())
        .map_err(|e| regex_error(&e))
}

/// The one-line gist of a `regex` error (its `Display` is a multi-line
/// excerpt with a caret).
fn regex_error(e: &regex::Error) -> String {
    let text = e.to_string();
    text.lines()
        .rev()
        .find_map(|l| l.strip_prefix("error: "))
        .unwrap_or(text.lines().next().unwrap_or("invalid regex"))
        .to_string()
}

// ---------------------------------------------------------------------------
// Matching
// ---------------------------------------------------------------------------

/// Why a pattern could not be matched at all (as opposed to not found).
struct MatchError(String, usize);

/// A successful match: absolute position and length in the input, plus the
/// variable definitions it makes.
struct Found {
    pos: usize,
    len: usize,
    defs: Vec<(String, String)>,
}

struct Matcher<'a> {
    check: &'a Source,
    input: &'a Source,
    opts: &'a Options,
    vars: HashMap<String, String>,
    regex_cache: HashMap<String, Regex>,
    diags: String,
    /// Input position of the first failure, for the input excerpt.
    failure_pos: Option<usize>,
}

impl<'a> Matcher<'a> {
    fn new(check: &'a Source, input: &'a Source, opts: &'a Options) -> Self {
        Matcher {
            check,
            input,
            opts,
            vars: HashMap::new(),
            regex_cache: HashMap::new(),
            diags: String::new(),
            failure_pos: None,
        }
    }

    fn note_failure(&mut self, pos: usize) {
        self.failure_pos.get_or_insert(pos);
    }

    /// Diagnostic at a pattern's location.
    fn pat_diag(&self, pat: &Pattern, pos: Option<usize>, msg: &str) -> String {
        match &pat.origin {
            Origin::Check(p) => self.check.diag(pos.unwrap_or(*p), 0, "error", msg),
            Origin::CommandLine { text, col } => {
                let pad = " ".repeat(col - 1);
                format!("command line:1:{col}: error: {msg}\n{text}\n{pad}^\n")
            }
        }
    }

    fn input_note(&self, pos: usize, len: usize, msg: &str) -> String {
        self.input.diag(pos, len, "note", msg)
    }

    /// Matches `pat` in `input[start..end]` (`Pattern::match`).
    fn match_pattern(
        &mut self,
        pat: &Pattern,
        start: usize,
        end: usize,
    ) -> Result<Option<Found>, MatchError> {
        let buf = &self.input.text[start..end];
        match pat.kind {
            Kind::Eof => {
                return Ok(Some(Found {
                    pos: end,
                    len: 0,
                    defs: Vec::new(),
                }))
            }
            Kind::Empty => {
                // The regex "(\n$)", with the match starting after the "\n".
                let b = buf.as_bytes();
                for (i, &c) in b.iter().enumerate() {
                    if c == b'\n' && (i + 1 == b.len() || b[i + 1] == b'\n') {
                        return Ok(Some(Found {
                            pos: start + i + 1,
                            len: 0,
                            defs: Vec::new(),
                        }));
                    }
                }
                return Ok(None);
            }
            _ => {}
        }
        if pat.is_fixed() {
            let Some(Piece::Fixed(s)) = pat.pieces.first() else {
                return Ok(None);
            };
            let found = if self.opts.ignore_case {
                buf.to_ascii_lowercase().find(&s.to_ascii_lowercase())
            } else {
                buf.find(s.as_str())
            };
            return Ok(found.map(|p| Found {
                pos: start + p,
                len: s.len(),
                defs: Vec::new(),
            }));
        }
        // Build the regex with the current variable values substituted.
        let mut re = String::from("(?m)");
        if self.opts.ignore_case {
            re.push_str("(?i)");
        }
        if pat.full_line {
            re.push('^');
            if !self.opts.strict_whitespace {
                re.push_str(" *");
            }
        }
        let mut def_names = Vec::new();
        for piece in &pat.pieces {
            match piece {
                Piece::Fixed(s) => re.push_str(&regex::escape(s)),
                Piece::Regex(r) if r.contains('|') => {
                    let _ = write!(re, "(?:{r})");
                }
                Piece::Regex(r) => re.push_str(r),
                Piece::Def { name, regex } => {
                    let _ = write!(re, "(?P<fcdef{}>{regex})", def_names.len());
                    def_names.push(name.clone());
                }
                Piece::Use { name, pos } => {
                    if let Some(delta) = name.strip_prefix("@LINE") {
                        let line = self.check.line_col(*pos).0 as i64;
                        let delta: i64 = delta.parse().unwrap_or(0);
                        re.push_str(&(line + delta).to_string());
                    } else {
                        match self.vars.get(name) {
                            Some(v) => re.push_str(&regex::escape(v)),
                            None => {
                                return Err(MatchError(format!("undefined variable: {name}"), *pos))
                            }
                        }
                    }
                }
            }
        }
        if pat.full_line {
            if !self.opts.strict_whitespace {
                re.push_str(" *");
            }
            re.push('$');
        }
        if !self.regex_cache.contains_key(&re) {
            let compiled = Regex::new(&re).map_err(|e| {
                let pos = match pat.origin {
                    Origin::Check(p) => p,
                    Origin::CommandLine { .. } => 0,
                };
                MatchError(format!("invalid regex: {}", regex_error(&e)), pos)
            })?;
            self.regex_cache.insert(re.clone(), compiled);
        }
        let compiled = &self.regex_cache[&re];
        let Some(caps) = compiled.captures(buf) else {
            return Ok(None);
        };
        let m = caps.get(0).expect("group 0");
        let defs = def_names
            .into_iter()
            .enumerate()
            .map(|(i, n)| {
                (
                    n,
                    caps.name(&format!("fcdef{i}"))
                        .map_or("", |c| c.as_str())
                        .to_string(),
                )
            })
            .collect();
        Ok(Some(Found {
            pos: start + m.start(),
            len: m.len(),
            defs,
        }))
    }

    fn commit(&mut self, defs: Vec<(String, String)>) {
        for (n, v) in defs {
            self.vars.insert(n, v);
        }
    }

    /// Reports an expected pattern that was not found, scanning from `start`.
    fn report_not_found(&mut self, pat: &Pattern, start: usize, end: usize, detail: &str) {
        let msg = format!(
            "{}: expected string not found in input{detail}",
            pat.directive()
        );
        let mut d = self.pat_diag(pat, None, &msg);
        d.push_str(&self.input_note(start, 0, "scanning from here"));
        // Variables used by the pattern, as FileCheck prints them.
        for piece in &pat.pieces {
            if let Piece::Use { name, pos } = piece {
                if let Some(v) = self.vars.get(name) {
                    d.push_str(&self.check.diag(
                        *pos,
                        name.len(),
                        "note",
                        &format!("with \"{name}\" equal to \"{}\"", v.escape_default()),
                    ));
                }
            }
        }
        if let Some(best) = self.fuzzy_match(pat, start, end) {
            d.push_str(&self.input_note(best, 0, "possible intended match here"));
        }
        self.diags.push_str(&d);
        self.note_failure(start);
    }

    fn report_match_error(&mut self, pat: &Pattern, err: MatchError) {
        let d = self.pat_diag(pat, Some(err.1), &err.0);
        self.diags.push_str(&d);
    }

    /// The "possible intended match" of `Pattern::printFuzzyMatch`.
    fn fuzzy_match(&self, pat: &Pattern, start: usize, end: usize) -> Option<usize> {
        let buf = &self.input.text.as_bytes()[start..end];
        let example = pat.example.as_bytes();
        let mut lines = 0usize;
        let mut best: Option<(usize, f64)> = None;
        for i in 0..buf.len().min(4096) {
            if buf[i] == b'\n' {
                lines += 1;
            }
            if buf[i] == b' ' || buf[i] == b'\t' {
                continue;
            }
            let rest = &buf[i..];
            let prefix = &rest[..rest.len().min(example.len())];
            let prefix = prefix.split(|&c| c == b'\n').next().unwrap_or(&[]);
            let quality = edit_distance(prefix, example) as f64 + lines as f64 / 100.0;
            if !matches!(best, Some((_, q)) if q <= quality) {
                best = Some((i, quality));
            }
        }
        match best {
            Some((i, q)) if i != 0 && q < 50.0 => Some(start + i),
            _ => None,
        }
    }

    /// Runs all checks over the input (`FileCheck::checkInput`): labels
    /// partition the input first, then each region is checked in order.
    fn check_input(&mut self, checks: &[CheckString]) -> bool {
        let total = self.input.text.len();
        let mut buffer_start = 0;
        let mut failed = false;
        let (mut i, mut j) = (0, 0);
        loop {
            let region_end;
            if j == checks.len() {
                region_end = total;
            } else {
                let label = &checks[j];
                if label.pat.kind != Kind::Label {
                    j += 1;
                    continue;
                }
                // Find the label's match, ignoring its DAG/NOT directives.
                match self.check_string(label, buffer_start, total, true) {
                    Some((pos, len)) => {
                        region_end = pos + len;
                        j += 1;
                    }
                    None => return false,
                }
            }
            let mut region_start = buffer_start;
            if i != 0 && self.opts.enable_var_scope {
                self.vars.retain(|k, _| k.starts_with('$'));
            }
            while i != j {
                match self.check_string(&checks[i], region_start, region_end, false) {
                    Some((pos, len)) => region_start = pos + len,
                    None => {
                        failed = true;
                        i = j;
                        break;
                    }
                }
                i += 1;
            }
            buffer_start = region_end;
            if j == checks.len() {
                break;
            }
        }
        !failed
    }

    /// Matches one check string in `input[start..end]`, returning the
    /// position and length of its match (`FileCheckString::Check`).
    fn check_string(
        &mut self,
        cs: &CheckString,
        start: usize,
        end: usize,
        label_scan: bool,
    ) -> Option<(usize, usize)> {
        let mut not_strings: Vec<&Pattern> = Vec::new();
        let mut last_pos = start;
        if !label_scan {
            last_pos = self.check_dag(cs, start, end, &mut not_strings)?;
        }
        let pat = &cs.pat;
        let mut last_end = last_pos;
        let mut first_pos = last_pos;
        for n in 1..=pat.count {
            match self.match_pattern(pat, last_end, end) {
                Ok(Some(f)) => {
                    if n == 1 {
                        first_pos = f.pos;
                    }
                    last_end = f.pos + f.len;
                    self.commit(f.defs);
                }
                Ok(None) => {
                    let detail = if pat.count > 1 {
                        format!(" ({n} out of {})", pat.count)
                    } else {
                        String::new()
                    };
                    self.report_not_found(pat, last_end, end, &detail);
                    return None;
                }
                Err(e) => {
                    self.report_match_error(pat, e);
                    self.note_failure(last_end);
                    return None;
                }
            }
        }
        let match_len = last_end - first_pos;
        if !label_scan {
            let skipped = &self.input.text[last_pos..first_pos];
            if matches!(pat.kind, Kind::Next | Kind::Empty) {
                let (n, first_nl) = count_newlines(skipped);
                let what = if pat.kind == Kind::Next {
                    "next"
                } else {
                    "empty"
                };
                let msg = match n {
                    0 => Some("is on the same line as previous match"),
                    1 => None,
                    _ => Some("is not on the line after the previous match"),
                };
                if let Some(msg) = msg {
                    let mut d = self.pat_diag(pat, None, &format!("{}: {msg}", pat.directive()));
                    d.push_str(&self.input_note(first_pos, 0, &format!("'{what}' match was here")));
                    d.push_str(&self.input_note(last_pos, 0, "previous match ended here"));
                    if n > 1 {
                        let after = last_pos + first_nl.unwrap_or(0) + 1;
                        d.push_str(&self.input_note(
                            after,
                            0,
                            "non-matching line after previous match is here",
                        ));
                    }
                    self.diags.push_str(&d);
                    self.note_failure(first_pos);
                    return None;
                }
            }
            if pat.kind == Kind::Same && count_newlines(skipped).0 != 0 {
                let mut d = self.pat_diag(
                    pat,
                    None,
                    &format!(
                        "{}: is not on the same line as the previous match",
                        pat.directive()
                    ),
                );
                d.push_str(&self.input_note(first_pos, 0, "'same' match was here"));
                d.push_str(&self.input_note(last_pos, 0, "previous match ended here"));
                self.diags.push_str(&d);
                self.note_failure(first_pos);
                return None;
            }
            if !self.check_not(&not_strings, last_pos, first_pos) {
                return None;
            }
        }
        Some((first_pos, match_len))
    }

    /// Verifies that none of `nots` matches in `input[start..end]`.
    fn check_not(&mut self, nots: &[&Pattern], start: usize, end: usize) -> bool {
        let mut ok = true;
        for pat in nots {
            match self.match_pattern(pat, start, end) {
                Ok(None) => {}
                Ok(Some(f)) => {
                    let mut d = self.pat_diag(
                        pat,
                        None,
                        &format!("{}: excluded string found in input", pat.directive()),
                    );
                    d.push_str(&self.input_note(f.pos, f.len, "found here"));
                    self.diags.push_str(&d);
                    self.note_failure(f.pos);
                    ok = false;
                }
                Err(e) => {
                    self.report_match_error(pat, e);
                    self.note_failure(start);
                    ok = false;
                }
            }
        }
        ok
    }

    /// Matches the CHECK-DAG groups (with interleaved CHECK-NOTs) preceding a
    /// check (`FileCheckString::CheckDag`). Returns where the check itself
    /// starts searching; leaves trailing CHECK-NOTs in `nots`.
    fn check_dag<'p>(
        &mut self,
        cs: &'p CheckString,
        start: usize,
        end: usize,
        nots: &mut Vec<&'p Pattern>,
    ) -> Option<usize> {
        if cs.dag_nots.is_empty() {
            return Some(start);
        }
        let mut start_pos = start;
        // Sorted, non-overlapping match ranges of the current DAG group.
        let mut ranges: Vec<(usize, usize)> = Vec::new();
        for (idx, pat) in cs.dag_nots.iter().enumerate() {
            if pat.kind == Kind::Not {
                nots.push(pat);
                continue;
            }
            let mut match_pos = start_pos;
            let mut mi = 0;
            loop {
                let f = match self.match_pattern(pat, match_pos, end) {
                    Ok(Some(f)) => f,
                    Ok(None) => {
                        self.report_not_found(pat, match_pos, end, "");
                        return None;
                    }
                    Err(e) => {
                        self.report_match_error(pat, e);
                        self.note_failure(match_pos);
                        return None;
                    }
                };
                let (mpos, mend) = (f.pos, f.pos + f.len);
                // Skip previous matches entirely before this one; stop at an
                // overlapping match or the insertion point.
                let mut overlap = false;
                while mi < ranges.len() {
                    if mpos < ranges[mi].1 {
                        overlap = ranges[mi].0 < mend;
                        break;
                    }
                    mi += 1;
                }
                if !overlap {
                    ranges.insert(mi, (mpos, mend));
                    self.commit(f.defs);
                    break;
                }
                match_pos = ranges[mi].1;
            }
            let group_ends = !matches!(cs.dag_nots.get(idx + 1), Some(p) if p.kind != Kind::Not);
            if group_ends {
                if !nots.is_empty() {
                    let first = ranges[0].0;
                    if !self.check_not(nots, start_pos, first) {
                        return None;
                    }
                    nots.clear();
                }
                start_pos = ranges.last().expect("group has a match").1;
                ranges.clear();
            }
        }
        Some(start_pos)
    }
}

/// Counts line breaks in `s` (`\n`, `\r`, `\r\n` and `\n\r` count once) and
/// returns the offset of the first.
fn count_newlines(s: &str) -> (usize, Option<usize>) {
    let b = s.as_bytes();
    let mut n = 0;
    let mut first = None;
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\n' || b[i] == b'\r' {
            first.get_or_insert(i);
            n += 1;
            if i + 1 < b.len() && (b[i + 1] == b'\n' || b[i + 1] == b'\r') && b[i + 1] != b[i] {
                i += 1;
            }
        }
        i += 1;
    }
    (n, first)
}

/// Levenshtein distance, for fuzzy matching.
fn edit_distance(a: &[u8], b: &[u8]) -> usize {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, &ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}
