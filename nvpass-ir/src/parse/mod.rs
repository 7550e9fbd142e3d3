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
#[cfg(feature = "parallel")]
mod prefault;

/// The start address of `table`'s records and the address past the last.
#[cfg(feature = "parallel")]
fn filled<K: cranelift_entity::EntityRef, T>(
    table: &cranelift_entity::PrimaryMap<K, T>,
) -> (usize, usize) {
    let s = table.as_values_slice();
    let base = s.as_ptr() as usize;
    (base, base + core::mem::size_of_val(s))
}

/// The start and end addresses of the room for `records` more records past
/// the last of `table` (both zero when there is none).
#[cfg(feature = "parallel")]
fn room_of<K: cranelift_entity::EntityRef, T>(
    table: &cranelift_entity::PrimaryMap<K, T>,
    records: usize,
) -> (usize, usize) {
    if records == 0 {
        return (0, 0);
    }
    let (base, next) = filled(table);
    (base, next + records * core::mem::size_of::<T>())
}

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

/// The bytes that start one of [`CUT_PREFIXES`].
static CUT_FIRST: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < CUT_PREFIXES.len() {
        t[CUT_PREFIXES[i][0] as usize] = true;
        i += 1;
    }
    t
};

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
///
/// The pieces may also come cut and lexed already, by a [`PieceCutter`]
/// and [`LexedPiece::lex`] on another thread
/// ([`ModuleReader::push_lexed`]): the reader then only parses, and the
/// module is the same.
pub struct ModuleReader {
    /// The parser between pieces (`None` after a failure).
    parser: Option<parser::Parser<'static>>,
    /// Text received and not parsed yet.
    cutter: PieceCutter,
    /// Bytes received in all.
    total: usize,
    /// The start and end addresses of the room reserved for instructions
    /// and for values (see [`ModuleReader::table_rooms`]); zero when none
    /// was.
    #[cfg(feature = "parallel")]
    rooms: [(usize, usize); 2],
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
            cutter: PieceCutter::new(),
            total: 0,
            #[cfg(feature = "parallel")]
            rooms: [(0, 0); 2],
        }
    }

    /// A reader for a text of about `bytes` bytes: the module's largest
    /// tables start with room for what such a text usually holds
    /// ([`Module::reserve_for_text`]), so they are not moved, a
    /// system call and a page-table move each, while they fill. The module
    /// read is the one [`ModuleReader::new`] gives.
    pub fn with_size_hint(bytes: usize) -> Self {
        let mut r = Self::new();
        if let Some(p) = r.parser.as_mut() {
            let [insts, values] = p.m.reserve_for_text_counted(bytes);
            #[cfg(feature = "parallel")]
            {
                r.rooms = [room_of(&p.m.insts, insts), room_of(&p.m.values, values)];
            }
            #[cfg(not(feature = "parallel"))]
            let _ = (insts, values);
        }
        r
    }

    /// The tables [`prefault`] maps ahead, each with the address where its
    /// next record goes, the end of its room, and how fast text fills it
    /// ([`TEXT_BYTES_PER_RECORD`](crate::module::TEXT_BYTES_PER_RECORD)
    /// and its record size): the instructions and the values (their
    /// reserved room, while they have not moved out of it), and the
    /// operand, use, block and attachment pools. `None` after a failure.
    #[cfg(feature = "parallel")]
    pub(crate) fn table_rooms(&self) -> Option<[prefault::Table; prefault::TABLES]> {
        use prefault::Table;
        let m = &self.parser.as_ref()?.m;
        let per = crate::module::TEXT_BYTES_PER_RECORD;
        fn reserved<K: cranelift_entity::EntityRef, T>(
            (start, end): (usize, usize),
            table: &cranelift_entity::PrimaryMap<K, T>,
            per: usize,
        ) -> Table {
            let (base, next) = filled(table);
            let end = if base == start && next <= end {
                end
            } else {
                next
            };
            Table::of::<T>(next, end, per)
        }
        fn pool<T: Copy>(p: &crate::pool::Pool<T>, per: usize) -> Table {
            let (next, end) = p.room();
            Table::of::<T>(next, end, per)
        }
        Some([
            reserved(self.rooms[0], &m.insts, per.inst),
            reserved(self.rooms[1], &m.values, per.value),
            pool(&m.op_pool, per.operand),
            pool(&m.use_pool, per.pooled_use),
            pool(&m.block_pool, per.block_operand),
            pool(&m.md_pool, per.attachment),
        ])
    }

    /// Counts `n` more bytes of text; false (and the reader gives up) once
    /// the text is too long for 32-bit offsets.
    fn receive(&mut self, n: usize) -> bool {
        self.total += n;
        if self.total >= u32::MAX as usize {
            self.parser = None;
        }
        self.parser.is_some()
    }

    /// Appends the next bytes of the text and parses every top-level
    /// entity before the last line that starts one. Returns `false` once
    /// the text cannot be read in pieces; parse it whole then.
    pub fn push(&mut self, bytes: &[u8]) -> bool {
        let copy = |room: &mut [u8]| {
            room.copy_from_slice(bytes);
            Ok::<_, core::convert::Infallible>(bytes.len())
        };
        match self.push_with(bytes.len(), copy) {
            Ok((_, ok)) => ok,
            Err(never) => match never {},
        }
    }

    /// Like [`ModuleReader::push`], but `fill` writes the next bytes (at
    /// most `max`) straight into the reader's buffer and returns how many
    /// it wrote, 0 at the end of the text; the bytes are not copied from
    /// a buffer of the caller's. Returns that number and what `push`
    /// would have returned, or the error of `fill`.
    pub fn push_with<E>(
        &mut self,
        max: usize,
        fill: impl FnOnce(&mut [u8]) -> Result<usize, E>,
    ) -> Result<(usize, bool), E> {
        let n = fill(self.cutter.room(max))?.min(max);
        if !self.receive(n) {
            return Ok((n, false));
        }
        let parser = &mut self.parser;
        let ok = self.cutter.commit(n, |text| {
            let p = parser.take().expect("reader has a parser");
            *parser = parse_piece(p, text, &[], &[]);
            parser.is_some()
        });
        Ok((n, ok))
    }

    /// Parses a piece cut by a [`PieceCutter`] (or its final rest) and
    /// lexed by [`LexedPiece::lex`]. Pieces must come in order. Returns
    /// `false` as `push` does, and also when text handed to
    /// [`ModuleReader::push`] is still waiting (the two are not mixed).
    pub fn push_lexed(&mut self, piece: &LexedPiece) -> bool {
        if !self.cutter.text().is_empty() {
            self.parser = None;
        }
        if !self.receive(piece.text.len()) {
            return false;
        }
        let p = self.parser.take().expect("reader has a parser");
        self.parser = parse_piece(p, &piece.text, &piece.tokens, &piece.floats);
        self.parser.is_some()
    }

    /// Parses the rest of the text and checks the module as a whole.
    /// `None` when the text has to be parsed whole with [`parse_module`]
    /// (it has an error, which that reports).
    pub fn finish(mut self) -> Option<Module> {
        let p = self.parser.take()?;
        let mut p = parse_piece(p, self.cutter.text(), &[], &[])?;
        p.validate_end().ok()?;
        Some(p.finish())
    }
}

/// Parses `text` (lexed ahead into `tokens`, or not when they are empty)
/// with the parser `p`; the parser again, or `None` on an error.
fn parse_piece(
    p: parser::Parser<'static>,
    text: &[u8],
    tokens: &[lexer::Token],
    floats: &[u64],
) -> Option<parser::Parser<'static>> {
    let mut p = p.rebase(text, tokens, floats);
    let ok = p.run_entities().is_ok();
    ok.then(|| p.rebase(&[], &[], &[]))
}

/// Cuts a module's text, arriving in arbitrary pieces, into pieces that
/// each end before a line that starts a top-level entity (see
/// [`ModuleReader`]), for [`ModuleReader::push`] and for lexing on another
/// thread ([`LexedPiece`]).
#[derive(Default)]
pub struct PieceCutter {
    /// The text received and not handed out yet is `buf[..filled]`; the
    /// bytes after it are room for the next ([`PieceCutter::room`]),
    /// zeroed once when the buffer grows and reused after that.
    buf: Vec<u8>,
    /// The length of the text received and not handed out yet.
    filled: usize,
    /// Length of the prefix of the text known to hold no cut point.
    searched: usize,
}

impl PieceCutter {
    /// A cutter at the start of a text.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends `bytes`. When the text received and not handed out yet
    /// now holds a piece, the longest prefix that ends before a line
    /// starting a top-level entity, calls `take` with it and drops it
    /// from the text. Returns what `take` returned, or `true` when there
    /// was no piece yet.
    pub fn push(&mut self, bytes: &[u8], take: impl FnOnce(&[u8]) -> bool) -> bool {
        self.room(bytes.len()).copy_from_slice(bytes);
        self.commit(bytes.len(), take)
    }

    /// Room for `n` more bytes after the text received, for a reader to
    /// write the next bytes of the text straight into (instead of into a
    /// buffer of its own that [`PieceCutter::push`] copies); hand the
    /// number written to [`PieceCutter::commit`].
    pub fn room(&mut self, n: usize) -> &mut [u8] {
        let end = self.filled + n;
        if self.buf.len() < end {
            self.buf.resize(end, 0);
        }
        &mut self.buf[self.filled..end]
    }

    /// Takes the first `n` bytes of the last [`PieceCutter::room`] as
    /// received (at most as many as it had), then goes on as
    /// [`PieceCutter::push`] does.
    pub fn commit(&mut self, n: usize, take: impl FnOnce(&[u8]) -> bool) -> bool {
        self.filled = (self.filled + n).min(self.buf.len());
        let cut = last_cut(&self.buf[..self.filled], self.searched);
        // What is past the cut holds no cut point but maybe the start of
        // one whose prefix is still incomplete.
        self.searched = self.filled.saturating_sub(CUT_MARGIN);
        let Some(cut) = cut else {
            return true;
        };
        let taken = take(&self.buf[..cut]);
        self.buf.copy_within(cut..self.filled, 0);
        self.filled -= cut;
        self.searched = self.searched.saturating_sub(cut);
        taken
    }

    /// The text received and not handed out; at the end of the input, the
    /// last piece.
    pub fn text(&self) -> &[u8] {
        &self.buf[..self.filled]
    }
}

/// A piece of module text with its tokens, lexed ahead of the parser
/// (possibly on another thread) for [`ModuleReader::push_lexed`]. The
/// buffers are kept when it is lexed again, so a reader can hand pieces
/// back and forth without allocating.
#[derive(Default)]
pub struct LexedPiece {
    text: Vec<u8>,
    tokens: Vec<lexer::Token>,
    /// The floating-point literals decoded with the tokens.
    floats: Vec<u64>,
}

impl LexedPiece {
    /// An empty piece.
    pub fn new() -> Self {
        Self::default()
    }

    /// Makes this piece `text` and lexes it, up to its end or its first
    /// lexical error (the parser meets that error again when it gets
    /// there).
    pub fn lex(&mut self, text: &[u8]) {
        self.text.clear();
        self.text.extend_from_slice(text);
        self.tokens.clear();
        self.floats.clear();
        lexer::lex_all(&self.text, &mut self.tokens, &mut self.floats);
    }

    /// Number of tokens lexed.
    pub fn token_count(&self) -> usize {
        self.tokens.len()
    }
}

/// Reads a module from consecutive `pieces` of its text on the calling
/// thread, cut by a [`PieceCutter`] and lexed ([`LexedPiece`]) before each
/// is parsed ([`ModuleReader::push_lexed`]): what `read_lexed_ahead` (with
/// the `parallel` feature) does on two threads, in one, so tests and
/// fuzzers can compare that path with the others. `None` as for
/// [`ModuleReader::finish`].
pub fn read_lexed<'a>(pieces: impl IntoIterator<Item = &'a [u8]>) -> Option<Module> {
    let mut reader = ModuleReader::new();
    let mut cutter = PieceCutter::new();
    let mut lexed = LexedPiece::new();
    for p in pieces {
        let parsed = cutter.push(p, |text| {
            lexed.lex(text);
            reader.push_lexed(&lexed)
        });
        if !parsed {
            return None;
        }
    }
    lexed.lex(cutter.text());
    if !reader.push_lexed(&lexed) {
        return None;
    }
    reader.finish()
}

/// Reads a module from `input` on two threads: a second thread reads it in
/// pieces of `piece` bytes, cuts them at top-level entities
/// ([`PieceCutter`]) and lexes them ([`LexedPiece`]) while the calling
/// thread parses the pieces before ([`ModuleReader::push_lexed`]). About a
/// fifth of the reading moves off the parsing thread; the module is the
/// one [`parse_module`] gives. At most [`LEXED_AHEAD`] lexed pieces wait
/// for the parser, besides the one it parses and the one being lexed; the
/// reading thread, which mostly waits for room, is woken only when the
/// parser has nearly emptied the queue, not after every piece. The pieces
/// go back to the reading thread to be filled again, so their buffers are
/// allocated once.
///
/// `None` when `input` fails to read or the text does not parse in
/// pieces; parse it whole then (see [`ModuleReader`]).
#[cfg(feature = "parallel")]
pub fn read_lexed_ahead<R: std::io::Read + Send>(input: R, piece: usize) -> Option<Module> {
    read_lexed_ahead_into(ModuleReader::new(), input, piece)
}

/// [`read_lexed_ahead`] with `reader` parsing, a new one (made with
/// [`ModuleReader::with_size_hint`] when the length of `input` is known).
#[cfg(feature = "parallel")]
pub fn read_lexed_ahead_into<R: std::io::Read + Send>(
    reader: ModuleReader,
    input: R,
    piece: usize,
) -> Option<Module> {
    read_lexed_ahead_with(reader, input, piece, true)
}

/// [`read_lexed_ahead_into`], mapping the tables' pages ahead of the
/// parser ([`prefault`]) only when `prefault` is set.
#[cfg(feature = "parallel")]
fn read_lexed_ahead_with<R: std::io::Read + Send>(
    mut reader: ModuleReader,
    mut input: R,
    piece: usize,
    prefault: bool,
) -> Option<Module> {
    use std::sync::mpsc;
    let handoff = Handoff::default();
    let (to_lexer, parsed) = mpsc::channel::<LexedPiece>();
    let frontiers = prefault::Frontiers::new(&reader);
    std::thread::scope(|s| {
        let handoff = &handoff;
        let frontiers = &frontiers;
        let lexer = s.spawn(move || -> bool {
            // Tells the parser that no more pieces come, however this
            // thread ends.
            let _close = CloseOnDrop(handoff);
            let mut cutter = PieceCutter::new();
            let prefaulter = prefault::Prefaulter::new(frontiers, prefault);
            let send = |text: &[u8]| {
                let mut p = parsed.try_recv().unwrap_or_default();
                prefaulter.before_piece(text.len());
                p.lex(text);
                handoff.send(p)
            };
            loop {
                let n = match input.read(cutter.room(piece.max(1))) {
                    Ok(0) => return send(cutter.text()),
                    Ok(n) => n,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(_) => return false,
                };
                if !cutter.commit(n, send) {
                    return false;
                }
            }
        });
        let mut ok = true;
        while let Some(p) = handoff.recv() {
            ok = reader.push_lexed(&p);
            if !ok {
                break;
            }
            frontiers.publish(&reader);
            // The reading thread may have finished; then nobody needs it.
            let _ = to_lexer.send(p);
        }
        // A reading thread still sending learns that nobody listens.
        handoff.leave();
        let read_all = lexer.join().unwrap_or(false);
        if ok && read_all {
            reader.finish()
        } else {
            None
        }
    })
}

/// Lexed pieces that may wait for the parser in [`read_lexed_ahead`].
#[cfg(feature = "parallel")]
pub const LEXED_AHEAD: usize = 4;

/// Waiting pieces at or below which a reading thread that found the queue
/// full is woken (see [`Handoff`]).
#[cfg(feature = "parallel")]
const LEXED_AHEAD_LOW: usize = 1;

/// The queue of lexed pieces from the reading thread to the parser.
///
/// The parser is the slower of the two, so the reader mostly finds the
/// queue full and sleeps. A channel wakes a sleeping sender at every
/// receive, which costs the parsing thread a system call per piece; this
/// queue wakes the reader only once the parser has taken all but
/// [`LEXED_AHEAD_LOW`] pieces, once per [`LEXED_AHEAD`] `-`
/// [`LEXED_AHEAD_LOW`] pieces.
#[cfg(feature = "parallel")]
#[derive(Default)]
struct Handoff {
    state: std::sync::Mutex<HandoffState>,
    /// The parser waits here for a piece.
    ready: std::sync::Condvar,
    /// The reader waits here for room.
    room: std::sync::Condvar,
}

#[cfg(feature = "parallel")]
#[derive(Default)]
struct HandoffState {
    queue: alloc::collections::VecDeque<LexedPiece>,
    /// The reader sends no more.
    closed: bool,
    /// The parser takes no more.
    left: bool,
    parser_waits: bool,
    reader_waits: bool,
}

#[cfg(feature = "parallel")]
impl Handoff {
    fn lock(&self) -> std::sync::MutexGuard<'_, HandoffState> {
        // The lock is never held across code that can panic.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queues `p` once there is room; false when the parser has left.
    fn send(&self, p: LexedPiece) -> bool {
        let mut st = self.lock();
        while st.queue.len() >= LEXED_AHEAD && !st.left {
            st.reader_waits = true;
            st = self.room.wait(st).unwrap_or_else(|e| e.into_inner());
        }
        st.reader_waits = false;
        if st.left {
            return false;
        }
        st.queue.push_back(p);
        if st.parser_waits {
            self.ready.notify_one();
        }
        true
    }

    /// The next piece; `None` once the reader has closed the queue and it
    /// is empty.
    fn recv(&self) -> Option<LexedPiece> {
        let mut st = self.lock();
        loop {
            if let Some(p) = st.queue.pop_front() {
                if st.reader_waits && st.queue.len() <= LEXED_AHEAD_LOW {
                    self.room.notify_one();
                }
                return Some(p);
            }
            if st.closed {
                return None;
            }
            st.parser_waits = true;
            st = self.ready.wait(st).unwrap_or_else(|e| e.into_inner());
            st.parser_waits = false;
        }
    }

    /// The reader sends no more.
    fn close(&self) {
        let mut st = self.lock();
        st.closed = true;
        if st.parser_waits {
            self.ready.notify_one();
        }
    }

    /// The parser takes no more: a reader waiting for room gives up.
    fn leave(&self) {
        let mut st = self.lock();
        st.left = true;
        st.queue.clear();
        if st.reader_waits {
            self.room.notify_one();
        }
    }
}

/// Closes a [`Handoff`] when dropped: when the reading thread returns or
/// unwinds.
#[cfg(feature = "parallel")]
struct CloseOnDrop<'a>(&'a Handoff);

#[cfg(feature = "parallel")]
impl Drop for CloseOnDrop<'_> {
    fn drop(&mut self) {
        self.0.close();
    }
}

/// The last offset `i > 0` in `text` where a line starting a top-level
/// entity begins, looking only at lines that start at or after `from`
/// (earlier ones were searched before).
fn last_cut(text: &[u8], from: usize) -> Option<usize> {
    let lo = from.max(1);
    // A cut is a line start before the last byte: a newline at `j` in
    // `lo - 1..len - 1` followed by one of the prefixes.
    let mut end = text.len().checked_sub(1)?;
    while end >= lo {
        let j = lo - 1 + memrchr_newline(&text[lo - 1..end])?;
        // Most lines start with a space (instructions): the prefixes are
        // compared only after a line starts like one of them.
        if CUT_FIRST[text[j + 1] as usize]
            && CUT_PREFIXES.iter().any(|p| text[j + 1..].starts_with(p))
        {
            return Some(j + 1);
        }
        end = j;
    }
    None
}

/// Offset of the last `\n` in `hay`, eight bytes at a time: a word holds
/// a newline when one of its bytes, XORed with `\n`, is zero.
fn memrchr_newline(hay: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    const NL: u64 = ONES * b'\n' as u64;
    let mut end = hay.len();
    while end >= 8 {
        let mut w = [0u8; 8];
        w.copy_from_slice(&hay[end - 8..end]);
        let x = u64::from_le_bytes(w) ^ NL;
        // Nonzero exactly when some byte of `x` is zero (the borrow may
        // also flag bytes above a zero one, so find which byte it is).
        if x.wrapping_sub(ONES) & !x & HIGHS != 0 {
            let k = w.iter().rposition(|&c| c == b'\n');
            return k.map(|k| end - 8 + k);
        }
        end -= 8;
    }
    hay[..end].iter().rposition(|&c| c == b'\n')
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The search a byte at a time that [`last_cut`] must agree with.
    fn last_cut_bytewise(text: &[u8], from: usize) -> Option<usize> {
        let lo = from.max(1);
        (lo..text.len()).rev().find(|&i| {
            text[i - 1] == b'\n' && CUT_PREFIXES.iter().any(|p| text[i..].starts_with(p))
        })
    }

    /// Word-at-a-time search finds the cut a byte-at-a-time one does, for
    /// every start, with newlines at every alignment and at both ends.
    #[test]
    fn last_cut_agrees_with_a_bytewise_search() {
        let mut texts: Vec<Vec<u8>> = alloc::vec![
            b"".to_vec(),
            b"\n".to_vec(),
            b"\n@".to_vec(),
            b"define void @f() {\n  ret void\n}\n\ndeclare void @g()\n".to_vec(),
            b"x\n!0 = !{}\n  %a = add\n\n\n!1".to_vec(),
        ];
        // Lines of every length from 0 to 19, some starting entities.
        let mut t = Vec::new();
        for n in 0..20 {
            t.extend_from_slice(if n % 3 == 0 { b"@" } else { b" " });
            t.extend(core::iter::repeat_n(b'z', n));
            t.push(b'\n');
        }
        texts.push(t.clone());
        t.retain(|&c| c != b'@');
        texts.push(t);
        for text in &texts {
            for from in 0..=text.len() + 1 {
                assert_eq!(
                    last_cut(text, from),
                    last_cut_bytewise(text, from),
                    "{:?} from {from}",
                    core::str::from_utf8(text)
                );
            }
            // At every end: as a cutter sees the text growing.
            for end in 0..=text.len() {
                assert_eq!(
                    last_cut(&text[..end], 0),
                    last_cut_bytewise(&text[..end], 0)
                );
            }
        }
    }

    /// Read with a size hint far above what the text holds, the
    /// instruction and value tables keep room for a quarter of their
    /// records and no more (see `Module::settle_after_reading`): the
    /// allocator's block for each is at most a page longer than that.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[test]
    fn reading_gives_the_tables_room_back() {
        extern "C" {
            fn malloc_usable_size(p: *mut core::ffi::c_void) -> usize;
        }
        fn block<K: cranelift_entity::EntityRef, T>(
            table: &cranelift_entity::PrimaryMap<K, T>,
        ) -> (usize, usize) {
            let s = table.as_values_slice();
            // SAFETY: the pointer is that of a live block of the global
            // (system) allocator, holding at least one record.
            let usable = unsafe { malloc_usable_size(s.as_ptr().cast_mut().cast()) };
            let records = core::mem::size_of_val(s);
            (
                usable,
                records + records / crate::module::TABLE_ROOM_AFTER_READING,
            )
        }
        let mut text = alloc::string::String::new();
        for k in 0..2000 {
            text.push_str(&alloc::format!(
                "define i32 @f{k}(i32 %x) {{\n  %y = add i32 %x, {k}\n  ret i32 %y\n}}\n"
            ));
        }
        let mut reader = ModuleReader::with_size_hint(16 * text.len());
        assert!(reader.push(text.as_bytes()));
        let m = reader.finish().unwrap();
        for (name, (usable, kept)) in [
            ("instructions", block(&m.insts)),
            ("values", block(&m.values)),
        ] {
            assert!(
                kept > 64 && usable >= kept - 64 && usable < kept + 4096,
                "{name}: a block of {usable} bytes for {kept}"
            );
        }
    }
}
