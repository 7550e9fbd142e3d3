//! Mapping, on the thread that lexes ahead, the pages the parser is about
//! to fill (feature `parallel`).
//!
//! Reading a large module fills a few large tables: the instructions, the
//! values, and the operand, use, block and attachment pools, which
//! [`super::ModuleReader::with_size_hint`] reserves up front. The first
//! write to each page of them is a page fault taken by the parsing thread:
//! the kernel zeroes a page, charges it to the memory cgroup and maps it.
//! On the 50 MB generated module that is about a sixth of the parsing
//! thread's time. The thread lexing ahead of the parser
//! ([`super::read_lexed_ahead`]) mostly waits for room in its queue. Before
//! it lexes a piece, it asks the kernel to map the pages just past where
//! the parser writes each table (`madvise(MADV_POPULATE_WRITE)`, Linux 5.14
//! and later), as far as the text not parsed yet can fill them
//! ([`Prefaulter`]). The pages are then mapped, and still in the cache,
//! when the parser writes them.
//!
//! Mapping a page this way changes nothing the program can read: a mapped
//! page is left as it is, and a new one reads as zeroes, as the parser's
//! own fault would have made it. So a table that has moved since the
//! parser said where it was costs at most a few pages mapped early, and
//! the module read is the same. Elsewhere than on Linux nothing is asked,
//! and once the kernel refuses the request (before Linux 5.14), it is not
//! asked again.

use super::ModuleReader;
use core::cell::Cell;
use core::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// The tables mapped ahead (see [`ModuleReader::table_rooms`]).
pub(crate) const TABLES: usize = 6;

/// Page size assumed for aligning the ranges asked for: a larger page
/// only makes a request cover pages already mapped.
const PAGE: usize = 4096;

/// How many times what the text not parsed yet usually adds to a table
/// ([`Table::growth`]) is mapped past the parser. The growth is a bound
/// for dense text already (one instruction per 48 bytes; the 50 MB
/// generated module has one per 83), so once is enough: a text denser
/// still has the parser map the last pages of a piece itself. Whatever is
/// mapped past a table's last record when reading ends is memory the
/// module does not use; mapping twice as far (as this once did) raised the
/// peak memory of reading the 50 MB module on two threads by 1.6 MB and
/// read it no faster (344.6 against 344.9 ms, 15 alternating runs).
const ROOM_MARGIN: usize = 1;

/// A table the parser fills, as [`ModuleReader::table_rooms`] gives it.
#[derive(Copy, Clone, Default, Debug)]
pub(crate) struct Table {
    /// The address where its next record goes.
    pub(crate) next: usize,
    /// The end of its room (`next` when the room is not known).
    pub(crate) end: usize,
    /// How many bytes it usually grows by per byte of text at most, as a
    /// fraction: (record size, text bytes per record).
    pub(crate) growth: (usize, usize),
}

impl Table {
    /// A table of `T` records, usually one per `per` bytes of text.
    pub(crate) fn of<T>(next: usize, end: usize, per: usize) -> Table {
        Table {
            next,
            end,
            growth: (core::mem::size_of::<T>(), per.max(1)),
        }
    }
}

/// Where the parser is: the text it has taken, and for each table the
/// address of its next record and of the end of its room. Written by the
/// parsing thread after each piece, read by the lexing thread.
pub(crate) struct Frontiers {
    parsed: AtomicUsize,
    next: [AtomicUsize; TABLES],
    end: [AtomicUsize; TABLES],
    /// Each table's [`Table::growth`], which does not change.
    growth: [(usize, usize); TABLES],
}

impl Frontiers {
    /// Where `reader` is now.
    pub(crate) fn new(reader: &ModuleReader) -> Self {
        let tables = reader.table_rooms().unwrap_or_default();
        let f = Frontiers {
            parsed: AtomicUsize::new(0),
            next: Default::default(),
            end: Default::default(),
            growth: tables.map(|t| t.growth),
        };
        f.publish(reader);
        f
    }

    /// Records where `reader` is.
    pub(crate) fn publish(&self, reader: &ModuleReader) {
        self.parsed.store(reader.total, Relaxed);
        let tables = reader.table_rooms().unwrap_or_default();
        for (k, t) in tables.into_iter().enumerate() {
            self.next[k].store(t.next, Relaxed);
            self.end[k].store(t.end, Relaxed);
        }
    }
}

/// The lexing thread's side: what it has lexed and mapped so far.
pub(crate) struct Prefaulter<'a> {
    at: &'a Frontiers,
    /// Text handed to the parser so far.
    lexed: Cell<usize>,
    /// The end of the range last mapped in each table.
    mapped: [Cell<usize>; TABLES],
    /// False once the kernel has refused a request.
    on: Cell<bool>,
}

impl<'a> Prefaulter<'a> {
    /// A prefaulter reading `at`; one that never maps anything unless
    /// `on`.
    pub(crate) fn new(at: &'a Frontiers, on: bool) -> Self {
        Prefaulter {
            at,
            lexed: Cell::new(0),
            mapped: Default::default(),
            on: Cell::new(on && cfg!(target_os = "linux")),
        }
    }

    /// Called before a piece of `len` bytes is lexed: maps, in each table,
    /// the pages the text not parsed yet (this piece included) can fill.
    pub(crate) fn before_piece(&self, len: usize) {
        let lexed = self.lexed.get() + len;
        self.lexed.set(lexed);
        if !self.on.get() {
            return;
        }
        let ahead = lexed.saturating_sub(self.at.parsed.load(Relaxed));
        for k in 0..TABLES {
            let (size, per) = self.at.growth[k];
            let next = self.at.next[k].load(Relaxed);
            let end = self.at.end[k].load(Relaxed);
            let room = ahead.saturating_mul(size * ROOM_MARGIN) / per;
            let Some((from, to)) = range_to_map(next, end, room, self.mapped[k].get()) else {
                continue;
            };
            match populate_write(from, to - from) {
                Ok(()) => self.mapped[k].set(to),
                Err(Refused::Unsupported) => {
                    self.on.set(false);
                    return;
                }
                // A table that moved: its old room may be gone.
                Err(Refused::Other) => {}
            }
        }
    }
}

/// The whole pages to map in a table whose next record goes at `next`,
/// whose room ends at `end`, which the text ahead can fill by `room`
/// bytes, and whose pages up to `mapped` were mapped already (if that is
/// inside the range): `None` when none is left.
pub(crate) fn range_to_map(
    next: usize,
    end: usize,
    room: usize,
    mapped: usize,
) -> Option<(usize, usize)> {
    let to = next.saturating_add(room).min(end) & !(PAGE - 1);
    let mut from = next.checked_add(PAGE - 1)? & !(PAGE - 1);
    if mapped > from && mapped <= to {
        from = mapped;
    }
    (to > from).then_some((from, to))
}

/// Why the kernel did not map a range.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Refused {
    /// The request is not known (a kernel before 5.14, or not Linux).
    Unsupported,
    /// Anything else (a range not mapped, memory short).
    Other,
}

/// Asks the kernel to map `[addr, addr + len)` writable, as writing to
/// each page would, without writing (`MADV_POPULATE_WRITE`).
#[cfg(target_os = "linux")]
pub(crate) fn populate_write(addr: usize, len: usize) -> Result<(), Refused> {
    // SAFETY: the request changes no byte of memory (see the module docs),
    // and the kernel checks the range itself.
    let r = unsafe { libc::madvise(addr as *mut libc::c_void, len, libc::MADV_POPULATE_WRITE) };
    if r == 0 {
        return Ok(());
    }
    match std::io::Error::last_os_error().raw_os_error() {
        Some(libc::EINVAL) => Err(Refused::Unsupported),
        _ => Err(Refused::Other),
    }
}

/// Not Linux: nothing to ask.
#[cfg(not(target_os = "linux"))]
pub(crate) fn populate_write(_addr: usize, _len: usize) -> Result<(), Refused> {
    Err(Refused::Unsupported)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ranges are whole pages from the first page boundary at or after the
    /// next record, up to the room the text can fill or the end of the
    /// table's room, whichever is nearer, and start past what was mapped.
    #[test]
    fn ranges_are_whole_pages_within_the_room() {
        let p = PAGE;
        // The next record in the middle of a page: that page is the
        // parser's already.
        assert_eq!(
            range_to_map(10 * p + 8, 100 * p, 5 * p, 0),
            Some((11 * p, 15 * p))
        );
        // The room's end is nearer.
        assert_eq!(
            range_to_map(10 * p, 12 * p + 100, 5 * p, 0),
            Some((10 * p, 12 * p))
        );
        // Pages mapped already are not asked for again.
        assert_eq!(
            range_to_map(10 * p, 100 * p, 5 * p, 13 * p),
            Some((13 * p, 15 * p))
        );
        assert_eq!(range_to_map(10 * p, 100 * p, 5 * p, 15 * p), None);
        // A mark outside the range (a table that moved) is ignored.
        assert_eq!(
            range_to_map(10 * p, 100 * p, 5 * p, 40 * p),
            Some((10 * p, 15 * p))
        );
        assert_eq!(
            range_to_map(10 * p, 100 * p, 5 * p, 3 * p),
            Some((10 * p, 15 * p))
        );
        // Less than a page ahead, no room known, nothing at all.
        assert_eq!(range_to_map(10 * p, 100 * p, p - 1, 0), None);
        assert_eq!(range_to_map(10 * p, 10 * p, 5 * p, 0), None);
        assert_eq!(range_to_map(0, 0, 0, 0), None);
        assert_eq!(range_to_map(usize::MAX - 10, usize::MAX, 5 * p, 0), None);
    }

    /// Mapping the spare room of a table leaves what it holds as it was;
    /// a range that is not mapped at all is refused, and nothing breaks.
    #[test]
    fn mapping_spare_room_changes_nothing() {
        let mut v: Vec<u64> = Vec::with_capacity(1 << 18);
        v.extend((0..1000u64).map(|x| x * 3 + 1));
        let next = v.as_ptr() as usize + v.len() * 8;
        let end = v.as_ptr() as usize + v.capacity() * 8;
        let (from, to) = range_to_map(next, end, 1 << 20, 0).unwrap();
        let supported = match populate_write(from, to - from) {
            Ok(()) => true,
            Err(Refused::Unsupported) => false,
            Err(e) => panic!("mapping spare room refused: {e:?}"),
        };
        assert!(v.iter().enumerate().all(|(i, &x)| x == i as u64 * 3 + 1));
        if supported {
            // The first page is never mapped by a process.
            assert_eq!(populate_write(0, PAGE), Err(Refused::Other));
        }
    }

    /// Read as the two threads of [`super::super::read_lexed_ahead`] take
    /// turns (in one thread here, so that nothing depends on timing):
    /// before each piece is parsed, the kernel has mapped the instruction
    /// pages past where the parser writes, as far as the piece can fill
    /// them (and no further), and the value and operand pages too; nothing
    /// when mapping is off; the module read is the same either way.
    #[cfg(target_os = "linux")]
    #[test]
    fn pages_past_the_parser_are_mapped_before_it_gets_there() {
        use super::super::{LexedPiece, ModuleReader, PieceCutter};
        let probe: Vec<u64> = Vec::with_capacity(1 << 12);
        let page = (probe.as_ptr() as usize + PAGE - 1) & !(PAGE - 1);
        if populate_write(page, PAGE) == Err(Refused::Unsupported) {
            return;
        }
        let mut text = String::new();
        for k in 0..20_000 {
            // About 70 bytes per instruction: within the room the reader
            // reserves for instructions (one per 48 bytes).
            text.push_str(&format!(
                "define i32 @function_number_{k}(i32 %input_value, ptr %storage_place) {{\n  \
                 %sum_of_both = add i32 %input_value, {k}\n  \
                 %product_of_both = mul i32 %sum_of_both, %input_value\n  \
                 store i32 %product_of_both, ptr %storage_place, align 4\n  \
                 %value_loaded = load i32, ptr %storage_place, align 4\n  \
                 %difference = sub i32 %value_loaded, %sum_of_both\n  \
                 ret i32 %difference\n}}\n"
            ));
        }
        let read = |on: bool| {
            let mut reader = ModuleReader::with_size_hint(text.len());
            let frontiers = Frontiers::new(&reader);
            let prefaulter = Prefaulter::new(&frontiers, on);
            let (mut ahead, mut pieces, mut checked) = (0, 0, 0);
            let mut parse = |piece: &[u8], reader: &mut ModuleReader| {
                let before: [usize; TABLES] = core::array::from_fn(|k| prefaulter.mapped[k].get());
                prefaulter.before_piece(piece.len());
                let rooms = reader.table_rooms().unwrap();
                pieces += 1;
                // Instructions, values, operands: at least the first page
                // past the next record, when the table's room holds that
                // whole page (this text outgrows the room reserved for
                // values near its end) and the piece is long enough to
                // fill a few pages of each (not the last, short one).
                let page_past = |k: usize| (rooms[k].next + PAGE - 1) & !(PAGE - 1);
                let in_room =
                    |k: usize| page_past(k) + PAGE <= rooms[k].end && piece.len() >= 16 << 10;
                let covered = |k: usize| prefaulter.mapped[k].get() > page_past(k);
                // No further than the piece usually fills each table.
                for (k, t) in rooms.iter().enumerate() {
                    let (size, per) = t.growth;
                    let mapped = prefaulter.mapped[k].get();
                    assert!(
                        mapped == before[k] || mapped <= t.next + piece.len() * size / per,
                        "table {k} mapped {} bytes past its next record for a piece of {}",
                        mapped - t.next,
                        piece.len()
                    );
                }
                let check = in_room(0) && in_room(1) && in_room(2);
                checked += usize::from(check);
                ahead += usize::from(check && covered(0) && covered(1) && covered(2));
                let mut lexed = LexedPiece::default();
                lexed.lex(piece);
                assert!(reader.push_lexed(&lexed));
                frontiers.publish(reader);
            };
            let mut cutter = PieceCutter::new();
            for chunk in text.as_bytes().chunks(64 << 10) {
                assert!(cutter.push(chunk, |piece| {
                    parse(piece, &mut reader);
                    true
                }));
            }
            parse(cutter.text(), &mut reader);
            let printed = crate::print_module(&reader.finish().unwrap());
            (ahead, pieces, checked, printed)
        };
        let (without, _, _, printed_without) = read(false);
        let (with, pieces, checked, printed_with) = read(true);
        assert!(pieces > 20, "{pieces} pieces");
        assert!(
            checked * 10 > pieces * 9,
            "{checked} of {pieces} pieces checked"
        );
        assert_eq!(
            with, checked,
            "mapped ahead before {with} of {checked} pieces checked"
        );
        assert_eq!(without, 0, "mapped without mapping before {without} pieces");
        assert_eq!(printed_with, printed_without);
    }
}
