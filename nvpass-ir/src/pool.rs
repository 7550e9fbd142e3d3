//! Short lists kept in module-wide pools.
//!
//! An instruction holds a [`PoolRange`] (8 bytes) into one of the
//! module's pools for each of its lists: value operands, block operands and
//! metadata attachments; a value with more than one use keeps its use list
//! in a pool too. The reader appends each instruction's lists in order, so
//! they sit back to back with no allocation per instruction and no spare
//! room: a call with four operands costs 32 bytes of pool, not an inline
//! list sized for the common case plus a heap block and the allocator's
//! header when it does not fit.
//!
//! A list is either exact (its capacity is its length, as the reader and
//! [`Pool::alloc`] make it) or grown: once a push finds it full, its
//! capacity is the next power of two of its length, at least four, and a
//! flag in the range says so. A full list at the end of the pool grows in
//! place; any other moves to the end, so pushes are amortized O(1). The
//! slots a move leaves behind, those a shrinking grown list gives up and
//! those of released lists are dead. When more than a third of a pool of
//! at least [`COMPACT_MIN_SLOTS`] slots is dead (not counting those it
//! held when its owner [settled](Pool::settle) it), and the dead slots are
//! many enough against the records the owner visits to find its lists
//! ([`COMPACT_RECORDS_PER_DEAD`]), [`Pool::compact`] slides
//! the live lists down over the dead slots, in place; grown lists keep
//! their room, so a list just moved for room is not moved again by its
//! next push (one move alone leaves at most a third of a compact pool
//! dead, so it does not trigger a compaction by itself). A host may
//! compact every pool exactly after large edits, dropping all spare room
//! too ([`Module::compact_pools`](crate::Module::compact_pools)); the
//! reader does not, since it leaves at most a third of a pool dead (see
//! `Module::settle_after_reading`). Positions
//! inside a list (the `index` of a [`Use`](crate::value::Use)) never
//! change by moving it.
//!
//! The capacity follows from the length alone, so the range stays at 8
//! bytes. The price: a push right after a pop that crossed a power of two
//! moves the list again. That costs O(length), no more than removing an
//! operand from the middle already does.

use alloc::vec::Vec;

/// Pools smaller than this many slots are never compacted, outside the
/// exact compaction that ends reading. A compaction sorts the pool's
/// lists by position and moves them, and the use pool's also visits every
/// value; below this size, what it reclaims (at most 512 KiB: a slot
/// takes 8 bytes or fewer) is not worth that. With 4,096, the use pool of
/// cub_kernels.fe (5,000 to 16,000 live slots) was compacted four times
/// while `force-inline` ran: 2.4 M instructions, about 50 per live slot
/// and 3% of the card pipeline's run.
pub const COMPACT_MIN_SLOTS: usize = 65536;

/// A pool is compacted only once it has a dead slot for every this many
/// records its owner visits in a compaction ([`Pool::wants_compact`]).
/// Dead slots then take at most a byte per record (a slot is 8 bytes or
/// fewer), against records of 32 bytes or more.
pub const COMPACT_RECORDS_PER_DEAD: usize = 8;

/// A full pool of fewer slots doubles its room; from this many on it grows
/// by a quarter of its live slots (the dead ones are left to compaction).
/// Pools leave reading with little or no spare room, so the
/// first list a pass adds makes the pool grow: doubling gave the operand
/// and use pools of a 37 MB module 17 MB of room (not written, but
/// reserved), most of `cdp-parameter-buffer`'s 18.7 MB peak heap there
/// (6.5 MB growing by a quarter). Growing by a quarter keeps the
/// appends amortized O(1), and a pool this large (256 KiB or more) is
/// usually a mapping of its own, which glibc grows by remapping pages
/// rather than copying them.
pub const QUARTER_GROWTH_FROM: usize = 1 << 16;

/// The bit of [`PoolRange`]'s length word that marks a grown list.
const GROWN: u32 = 1 << 31;

/// Where a list lives in its [`Pool`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PoolRange {
    start: u32,
    /// The length, and [`GROWN`] for a grown list.
    len: u32,
}

impl PoolRange {
    /// Number of items.
    #[inline]
    pub fn len(&self) -> usize {
        (self.len & !GROWN) as usize
    }

    /// True when the list is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    #[inline]
    fn slots(&self) -> core::ops::Range<usize> {
        self.start as usize..self.start as usize + self.len()
    }

    /// The slots reserved for the list.
    #[inline]
    fn cap(&self) -> usize {
        cap_for(self.len(), self.len & GROWN != 0)
    }
}

/// The capacity of a list of `len` items (see the module docs).
#[inline]
fn cap_for(len: usize, grown: bool) -> usize {
    if grown {
        len.next_power_of_two().max(4)
    } else {
        len
    }
}

fn slot_index(n: usize) -> u32 {
    u32::try_from(n).expect("list pool past 2^32 slots")
}

/// One pool of lists (see the module docs).
#[derive(Clone, Debug)]
pub struct Pool<T> {
    slots: Vec<T>,
    /// Slots reserved by some list (the sum of their capacities).
    live: usize,
    /// At least as many as the lists holding slots: those the last
    /// compaction kept and those made since. A released list is not
    /// taken off: a copied record shares its source's range, so one list
    /// may be released twice.
    lists: usize,
    /// Dead slots the pool had when its owner last [settled](Self::settle)
    /// it, which [`wants_compact`](Self::wants_compact) does not count
    /// towards the third; zero after a compaction.
    inherited: usize,
}

impl<T> Default for Pool<T> {
    fn default() -> Self {
        Pool {
            slots: Vec::new(),
            live: 0,
            lists: 0,
            inherited: 0,
        }
    }
}

impl<T: Copy> Pool<T> {
    /// Makes room for `n` more slots at the end (see
    /// [`QUARTER_GROWTH_FROM`]).
    #[inline]
    fn make_room(&mut self, n: usize) {
        if self.slots.capacity() - self.slots.len() < n {
            self.grow(n);
        }
    }

    #[cold]
    #[inline(never)]
    fn grow(&mut self, n: usize) {
        let len = self.slots.len();
        // By a quarter of the live slots, not of all: the dead ones are
        // the next compaction's to reclaim, and room in proportion to them
        // would make a pass's memory depend on how much of the pool
        // reading happened to leave dead.
        let step = if len < QUARTER_GROWTH_FROM {
            len.max(4)
        } else {
            self.live / 4
        };
        self.slots.reserve_exact(n.max(step));
    }

    /// The items of `r`.
    #[inline]
    pub fn get(&self, r: &PoolRange) -> &[T] {
        &self.slots[r.slots()]
    }

    /// The items of `r`, writable.
    #[inline]
    pub fn get_mut(&mut self, r: &PoolRange) -> &mut [T] {
        &mut self.slots[r.slots()]
    }

    /// A new exact list holding `items`.
    pub fn alloc(&mut self, items: impl IntoIterator<Item = T>) -> PoolRange {
        let items = items.into_iter();
        let start = self.begin_list(items.size_hint().0);
        self.slots.extend(items);
        self.end_list(start)
    }

    /// Starts a new exact list at the end of the pool, with room for
    /// `reserve` items: push them with [`push_last`](Self::push_last), then
    /// close the list with [`end_list`](Self::end_list) before anything
    /// else is done to the pool. Builds a list whose items are computed one
    /// at a time without gathering them elsewhere first.
    #[inline]
    pub(crate) fn begin_list(&mut self, reserve: usize) -> usize {
        self.make_room(reserve);
        self.slots.len()
    }

    /// Appends `x` to the list begun by [`begin_list`](Self::begin_list).
    #[inline]
    pub(crate) fn push_last(&mut self, x: T) {
        self.make_room(1);
        self.slots.push(x);
    }

    /// Closes the list begun at `start` by [`begin_list`](Self::begin_list).
    #[inline]
    pub(crate) fn end_list(&mut self, start: usize) -> PoolRange {
        let len = self.slots.len() - start;
        self.live += len;
        self.lists += 1;
        PoolRange {
            start: slot_index(start),
            len: slot_index(len),
        }
    }

    /// A new exact list holding a copy of the items of `r`.
    pub fn copy(&mut self, r: &PoolRange) -> PoolRange {
        self.make_room(r.len());
        let start = self.slots.len();
        self.slots.extend_from_within(r.slots());
        self.live += r.len();
        self.lists += 1;
        PoolRange {
            start: slot_index(start),
            len: slot_index(r.len()),
        }
    }

    /// Appends `x` to `r`. Returns true when the list moved, after which
    /// the owner should offer the pool a [`compact`](Self::compact).
    pub fn push(&mut self, r: &mut PoolRange, x: T) -> bool {
        let (len, cap) = (r.len(), r.cap());
        let mut moved = false;
        if len == cap {
            let new_cap = cap_for(len + 1, true);
            if cap > 0 && r.start as usize + cap == self.slots.len() {
                self.make_room(new_cap - cap);
                self.slots.resize(r.start as usize + new_cap, x);
            } else {
                self.make_room(new_cap);
                let start = self.slots.len();
                self.slots.extend_from_within(r.slots());
                self.slots.resize(start + new_cap, x);
                r.start = slot_index(start);
                moved = cap > 0;
            }
            self.live += new_cap - cap;
            // An empty list gets its first slots: a new list.
            self.lists += usize::from(cap == 0);
            r.len |= GROWN;
        }
        self.slots[r.start as usize + len] = x;
        r.len += 1;
        moved
    }

    /// Shortens `r` by one, giving up slots a grown list no longer needs.
    fn shrink(&mut self, r: &mut PoolRange) {
        let cap = r.cap();
        r.len -= 1;
        self.live -= cap - r.cap();
    }

    /// Removes and returns the last item of `r`.
    pub fn pop(&mut self, r: &mut PoolRange) -> Option<T> {
        let len = r.len();
        if len == 0 {
            return None;
        }
        let x = self.slots[r.start as usize + len - 1];
        self.shrink(r);
        Some(x)
    }

    /// Removes item `index` of `r`, shifting later ones down.
    pub fn remove(&mut self, r: &mut PoolRange, index: usize) -> T {
        let s = &mut self.slots[r.slots()];
        let x = s[index];
        s[index..].rotate_left(1);
        self.shrink(r);
        x
    }

    /// Empties `r` and gives its slots back.
    pub fn release(&mut self, r: &mut PoolRange) {
        self.live -= r.cap();
        *r = PoolRange::default();
    }

    /// Replaces the items of `r` with `items`, reusing its slots when they
    /// fit. Returns true when the list moved (see [`push`](Self::push)).
    pub fn replace(&mut self, r: &mut PoolRange, items: &[T]) -> bool {
        if items.len() <= r.cap() {
            // A grown list stays grown; an exact one stays exact, giving
            // up the slots past its new length.
            let grown = r.len & GROWN;
            let cap = r.cap();
            let start = r.start as usize;
            self.slots[start..start + items.len()].copy_from_slice(items);
            r.len = slot_index(items.len()) | grown;
            self.live -= cap - r.cap();
            return false;
        }
        let moved = r.cap() > 0;
        self.release(r);
        *r = self.alloc(items.iter().copied());
        moved
    }

    /// Whether enough of the pool is dead for [`compact`](Self::compact)
    /// to pay, when its owner finds the lists among `records` records (a
    /// compaction visits them all): more than a third of its slots, in a
    /// pool of at least [`COMPACT_MIN_SLOTS`], and at least one slot in
    /// [`COMPACT_RECORDS_PER_DEAD`] records. A compaction then costs O(1)
    /// per dead slot it reclaims, however many records the owner's table
    /// has kept (an arena keeps erased ones): a small pool under a large
    /// table is not swept once per few pushes.
    ///
    /// The dead slots the pool held when it was last
    /// [settled](Self::settle) do not count towards the third: only those
    /// made since do, one for every two live slots, so that whoever makes
    /// them pays for the compaction (the whole pool is then compacted,
    /// inherited slots included).
    #[inline]
    pub fn wants_compact(&self, records: usize) -> bool {
        let dead = self.slots.len() - self.live;
        self.slots.len() >= COMPACT_MIN_SLOTS
            && 2 * dead.saturating_sub(self.inherited) > self.live
            && dead.saturating_mul(COMPACT_RECORDS_PER_DEAD) >= records
    }

    /// Marks the pool's dead slots as inherited: until the next
    /// compaction, [`wants_compact`](Self::wants_compact) asks for one
    /// only once the slots that die from now on are enough by themselves.
    ///
    /// The reader settles the pools it leaves. How much of a pool it
    /// leaves dead, anything up to a third, depends on where its last
    /// compaction fell, not on the module's size; counted, those slots
    /// would make a pass that moves a few lists pay for compacting a
    /// whole pool at one size of a module and not at another. A settled
    /// pool holds at most its live slots twice over before it is
    /// compacted, against one and a half times when nothing is inherited.
    pub fn settle(&mut self) {
        self.inherited = self.slots.len() - self.live;
    }

    /// Slides every list of `ranges` (which must be all the lists of the
    /// pool) down over the dead slots, in place, so a compaction never
    /// holds two copies of the pool; the freed tail is reused by later
    /// lists ([`shrink_to_fit`](Self::shrink_to_fit) gives it back to the
    /// allocator). With `exact`, every list also drops its spare room;
    /// without, grown lists keep it, so a list that was just given room is
    /// not moved again by its next push.
    pub fn compact<'a>(&mut self, ranges: impl Iterator<Item = &'a mut PoolRange>, exact: bool) {
        // Room for the most lists there can be, reserved at once (growing
        // by doubling would copy the list of lists): no more than the
        // owner may hand over, nor than the pool's bound on its lists.
        let (_, most) = ranges.size_hint();
        let most = most.map_or(self.lists, |m| m.min(self.lists));
        let mut lists: Vec<&'a mut PoolRange> = Vec::with_capacity(most);
        for r in ranges {
            if Self::compact_start(r, exact).is_some() {
                lists.push(r);
            }
        }
        lists.sort_unstable_by_key(|r| r.start);
        let mut c = self.compactor(exact);
        for r in lists {
            c.place(r);
        }
    }

    /// For a compaction by [`compactor`](Self::compactor): clears `r`
    /// when the compaction drops it (an empty list, unless it is grown
    /// and `exact` is false), and otherwise returns its start, the order
    /// in which the lists are to be placed.
    #[inline]
    pub fn compact_start(r: &mut PoolRange, exact: bool) -> Option<u32> {
        if r.is_empty() && (exact || r.len & GROWN == 0) {
            *r = PoolRange::default();
            None
        } else {
            Some(r.start)
        }
    }

    /// A compaction that the owner drives: it hands every list that
    /// [`compact_start`](Self::compact_start) keeps to
    /// [`Compactor::place`] in increasing order of start, and the pool is
    /// compact once the compactor is dropped. An owner that can find its
    /// lists again by number sorts (start, number) pairs instead of
    /// references to the lists, which are scattered through its records:
    /// the sort then reads no record, and each list is visited once.
    pub fn compactor(&mut self, exact: bool) -> Compactor<'_, T> {
        Compactor {
            pool: self,
            end: 0,
            placed: 0,
            exact,
        }
    }

    /// Makes room for `n` more slots at the end, when the allocator has it
    /// (a failure only leaves the pool to grow as it fills).
    pub fn try_reserve(&mut self, n: usize) {
        let _ = self.slots.try_reserve(n);
    }

    /// The address where the next slot goes and the end of the room the
    /// slots have (see `parse::prefault`).
    #[cfg(feature = "parallel")]
    pub(crate) fn room(&self) -> (usize, usize) {
        let size = core::mem::size_of::<T>();
        let base = self.slots.as_ptr() as usize;
        (
            base + self.slots.len() * size,
            base + self.slots.capacity() * size,
        )
    }

    /// Slots the pool has room for without growing.
    #[cfg(test)]
    pub(crate) fn capacity(&self) -> usize {
        self.slots.capacity()
    }

    /// Where the slots are (tests check that reserved pools do not move).
    #[cfg(test)]
    pub(crate) fn slots_ptr(&self) -> *const T {
        self.slots.as_ptr()
    }

    /// Gives the room past the last slot back to the allocator.
    pub fn shrink_to_fit(&mut self) {
        self.slots.shrink_to_fit();
    }

    /// Whether any slot is dead.
    #[inline]
    pub fn has_dead(&self) -> bool {
        self.slots.len() > self.live
    }

    /// Slots in the pool, dead ones included.
    pub fn slot_count(&self) -> usize {
        self.slots.len()
    }

    /// Slots reserved by some list.
    pub fn live_count(&self) -> usize {
        self.live
    }

    /// A bound on the lists holding slots, for a compaction to size its
    /// list of them: no fewer than there are, counting those kept by the
    /// last compaction and every list made since.
    pub fn list_bound(&self) -> usize {
        self.lists
    }
}

/// A compaction in progress (see [`Pool::compactor`]).
pub struct Compactor<'p, T: Copy> {
    pool: &'p mut Pool<T>,
    /// Slots placed so far: where the next list goes.
    end: usize,
    /// Lists placed so far.
    placed: usize,
    exact: bool,
}

impl<T: Copy> Compactor<'_, T> {
    /// Slides list `r` down to the end of the lists placed before it.
    /// Lists must come in increasing order of start: moving them so never
    /// overwrites a list not moved yet, as each lands at or below where
    /// it was.
    pub fn place(&mut self, r: &mut PoolRange) {
        let (from, len) = (r.start as usize, r.len());
        debug_assert!(from >= self.end, "lists placed out of order");
        let keep = if self.exact { len } else { r.cap() };
        self.pool.slots.copy_within(from..from + keep, self.end);
        r.start = slot_index(self.end);
        if self.exact {
            r.len = slot_index(len);
        }
        self.end += keep;
        self.placed += 1;
    }
}

impl<T: Copy> Drop for Compactor<'_, T> {
    fn drop(&mut self) {
        self.pool.slots.truncate(self.end);
        self.pool.live = self.end;
        self.pool.lists = self.placed;
        self.pool.inherited = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A full pool doubles while small and grows by a quarter from
    /// [`QUARTER_GROWTH_FROM`] slots on, whether the slots come from a new
    /// list, a copy or a list growing at the end or moving there.
    #[test]
    fn full_pools_grow_by_a_quarter_once_large() {
        // A pool of `n` slots with no spare room, its last list one slot.
        let full = |n: usize| {
            let mut pool: Pool<u32> = Pool::default();
            pool.alloc(0..n as u32 - 1);
            let r = pool.alloc([0]);
            pool.shrink_to_fit();
            assert_eq!(pool.capacity(), n);
            (pool, r)
        };
        let large = QUARTER_GROWTH_FROM * 4;
        let small = QUARTER_GROWTH_FROM / 4;
        let edits: [fn(&mut Pool<u32>, &mut PoolRange); 4] = [
            |p, _| {
                p.alloc([7]);
            },
            |p, _| {
                let one = PoolRange { start: 0, len: 1 };
                p.copy(&one);
            },
            // The last list grows in place.
            |p, r| {
                p.push(r, 7);
            },
            // A list not at the end moves there.
            |p, _| {
                let mut first = PoolRange { start: 0, len: 1 };
                p.push(&mut first, 7);
            },
        ];
        for (k, edit) in edits.iter().enumerate() {
            let (mut pool, mut r) = full(large);
            edit(&mut pool, &mut r);
            let cap = pool.capacity();
            assert!(cap > large, "edit {k}");
            assert!(cap <= large + large / 4, "edit {k}: {cap} slots of room");
            let (mut pool, mut r) = full(small);
            edit(&mut pool, &mut r);
            assert!(pool.capacity() >= 2 * small, "edit {k}");
        }
    }

    /// A large pool grows by a quarter of its live slots: the slots of
    /// released lists do not earn it room (they did: a pool reading left
    /// partly dead grew by more than one left compact, so the memory a
    /// pass took was not in proportion to the module).
    #[test]
    fn large_pools_grow_by_a_quarter_of_their_live_slots() {
        // Half dead, then a one-slot list at the end that needs room.
        let n = QUARTER_GROWTH_FROM * 8;
        let mut pool: Pool<u32> = Pool::default();
        let mut dead = pool.alloc(0..n as u32 / 2);
        pool.alloc(0..n as u32 / 2 - 1);
        let mut last = pool.alloc([0]);
        pool.shrink_to_fit();
        pool.release(&mut dead);
        assert_eq!(pool.live, n / 2);
        pool.push(&mut last, 7);
        let cap = pool.capacity();
        assert!(cap >= n + n / 8, "{cap}");
        assert!(cap <= n + n / 8 + 4, "{cap} slots for {} live", pool.live);
    }

    /// The dead slots that make a compaction due grow with the records
    /// a compaction visits: a pool a third dead is not compacted while a
    /// large table holds its lists, and is once its dead slots reach one
    /// per [`COMPACT_RECORDS_PER_DEAD`] records.
    #[test]
    fn compaction_waits_for_dead_slots_in_proportion_to_records() {
        // A pool of COMPACT_MIN_SLOTS slots in lists of four, every
        // `step`-th list released.
        let released_every = |step: usize| {
            let mut pool: Pool<u32> = Pool::default();
            let mut lists: Vec<PoolRange> = (0..COMPACT_MIN_SLOTS as u32 / 4)
                .map(|k| pool.alloc([k, k, k, k]))
                .collect();
            for r in lists.iter_mut().step_by(step) {
                pool.release(r);
            }
            pool
        };
        let pool = released_every(2);
        let dead = pool.slot_count() - pool.live_count();
        assert_eq!(dead, COMPACT_MIN_SLOTS / 2);
        assert!(pool.wants_compact(COMPACT_MIN_SLOTS / 4));
        assert!(pool.wants_compact(dead * COMPACT_RECORDS_PER_DEAD));
        assert!(!pool.wants_compact(dead * COMPACT_RECORDS_PER_DEAD + 1));
        // Not a third dead: never due, however few the records.
        assert!(!released_every(4).wants_compact(1));
    }

    /// Dead slots a pool held when it was settled do not make a
    /// compaction due: with half its slots dead, a settled pool
    /// waits until the slots that die after settling are one for every two
    /// live ones. The compaction that follows reclaims the inherited ones
    /// too, after which every dead slot counts again.
    #[test]
    fn inherited_dead_slots_do_not_make_a_compaction_due() {
        // Large enough to stay over COMPACT_MIN_SLOTS once compacted.
        let n = 4 * COMPACT_MIN_SLOTS as u32;
        let mut pool: Pool<u32> = Pool::default();
        let mut lists: Vec<PoolRange> = (0..n / 4).map(|k| pool.alloc([k; 4])).collect();
        for r in lists.iter_mut().step_by(2) {
            pool.release(r);
        }
        let records = 1;
        assert!(pool.wants_compact(records));
        pool.settle();
        assert!(!pool.wants_compact(records));
        // Release live lists until the slots dead since settling pass half
        // the live ones.
        let mut made = 0;
        for r in lists.iter_mut().filter(|r| !r.is_empty()) {
            pool.release(r);
            made += 4;
            let due = pool.wants_compact(records);
            assert_eq!(due, 2 * made > pool.live_count(), "{made} dead made");
            if due {
                break;
            }
        }
        assert!(pool.wants_compact(records));
        pool.compact(lists.iter_mut(), false);
        assert!(!pool.has_dead());
        // Nothing inherited any more: the next third dead is due.
        let mut rest = lists.iter_mut().filter(|r| !r.is_empty());
        while !pool.wants_compact(records) {
            let r = rest.next().expect("enough lists to kill a third");
            pool.release(r);
        }
        assert!(3 * (pool.slot_count() - pool.live_count()) > pool.slot_count());
    }

    /// Random pushes, pops, removes, replaces, copies and releases over several
    /// lists agree with plain vectors, through moves and compactions, the
    /// pool's count of reserved slots stays exact, and its bound on the
    /// lists holding slots is never below their number.
    #[test]
    fn lists_behave_like_vectors() {
        let mut seed = 0x9e37_79b9_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut pool: Pool<u32> = Pool::default();
        let mut lists: Vec<(PoolRange, Vec<u32>)> = Vec::new();
        let mut compactions = 0;
        for step in 0..200_000u32 {
            let r = next();
            let pick = (r >> 8) as usize % lists.len().max(1);
            match r % 9 {
                0 if lists.len() < 300 => {
                    let n = (r >> 8) as usize % 5;
                    let v: Vec<u32> = (0..n as u32).map(|k| step * 8 + k).collect();
                    // An owner with no list yet holds an empty range; its
                    // first push makes the list.
                    let range = if n == 0 {
                        PoolRange::default()
                    } else {
                        pool.alloc(v.iter().copied())
                    };
                    lists.push((range, v));
                }
                0 if !lists.is_empty() => {
                    let copy = pool.copy(&lists[pick].0);
                    let v = lists[pick].1.clone();
                    lists.push((copy, v));
                }
                1..=4 if !lists.is_empty() => {
                    let moved = pool.push(&mut lists[pick].0, step);
                    lists[pick].1.push(step);
                    if moved && pool.wants_compact(lists.len()) {
                        pool.compact(lists.iter_mut().map(|(r, _)| r), step % 2 == 0);
                        compactions += 1;
                        // The bound starts again from the lists kept.
                        let kept = lists.iter().filter(|(r, _)| r.cap() > 0).count();
                        assert_eq!(pool.list_bound(), kept, "step {step}");
                    }
                }
                5 if !lists.is_empty() => {
                    let (range, v) = &mut lists[pick];
                    assert_eq!(pool.pop(range), v.pop());
                }
                6 if !lists.is_empty() => {
                    let (range, v) = &mut lists[pick];
                    if !v.is_empty() {
                        let k = (r >> 20) as usize % v.len();
                        assert_eq!(pool.remove(range, k), v.remove(k));
                    }
                }
                7 if !lists.is_empty() => {
                    let n = (r >> 20) as usize % 7;
                    let items: Vec<u32> = (0..n as u32).map(|k| step + k).collect();
                    pool.replace(&mut lists[pick].0, &items);
                    lists[pick].1 = items;
                }
                8 if !lists.is_empty() => {
                    let (mut range, _) = lists.swap_remove(pick);
                    pool.release(&mut range);
                }
                _ => {}
            }
            if step % 997 == 0 {
                for (range, v) in &lists {
                    assert_eq!(pool.get(range), &v[..]);
                }
                let cap: usize = lists.iter().map(|(r, _)| r.cap()).sum();
                assert_eq!(pool.live_count(), cap, "step {step}");
                let holding = lists.iter().filter(|(r, _)| r.cap() > 0).count();
                assert!(pool.list_bound() >= holding, "step {step}");
            }
        }
        for (range, v) in &lists {
            assert_eq!(pool.get(range), &v[..]);
        }
        assert!(compactions > 0, "the sequence never compacted");
        assert!(pool.slot_count() <= 2 * pool.live_count().max(COMPACT_MIN_SLOTS));
    }

    /// Every way of making a list counts it in the bound a compaction
    /// sizes its list of lists by; releasing one does not (a shared range
    /// may be released twice), and a compaction sets the bound to the
    /// lists it kept.
    #[test]
    fn the_list_bound_counts_every_list_made() {
        let mut pool: Pool<u32> = Pool::default();
        let mut a = pool.alloc([1, 2]);
        let mut b = pool.copy(&a);
        let mut c = PoolRange::default();
        pool.push(&mut c, 3);
        let start = pool.begin_list(1);
        pool.push_last(4);
        let mut d = pool.end_list(start);
        assert_eq!(pool.list_bound(), 4);
        // Growing or moving a list that has slots makes no new one.
        pool.push(&mut a, 5);
        pool.push(&mut c, 6);
        assert_eq!(pool.list_bound(), 4);
        pool.release(&mut b);
        assert_eq!(pool.list_bound(), 4);
        pool.compact([&mut a, &mut b, &mut c, &mut d].into_iter(), true);
        assert_eq!(pool.list_bound(), 3);
        assert_eq!(
            (pool.get(&a), pool.get(&c), pool.get(&d)),
            (&[1, 2, 5][..], &[3, 6][..], &[4][..])
        );
    }

    /// A list built item by item holds exactly its items after the lists
    /// before it, is counted live, and grows in place like any other last
    /// list.
    #[test]
    fn lists_built_in_place_are_exact_lists() {
        let mut pool: Pool<u32> = Pool::default();
        let a = pool.alloc([7]);
        let start = pool.begin_list(3);
        for x in [1, 2, 3] {
            pool.push_last(x);
        }
        let mut b = pool.end_list(start);
        assert_eq!((pool.get(&a), pool.get(&b)), (&[7][..], &[1, 2, 3][..]));
        assert_eq!(b.len(), 3);
        assert_eq!((pool.slot_count(), pool.live_count()), (4, 4));
        let empty_start = pool.begin_list(0);
        let empty = pool.end_list(empty_start);
        assert!(empty.is_empty());
        assert!(!pool.push(&mut b, 4), "the last list grows in place");
        assert_eq!(pool.get(&b), &[1, 2, 3, 4]);
        assert_eq!(pool.live_count(), 1 + 4);
    }

    /// A full list at the end of the pool grows in place; one in the
    /// middle moves and leaves its slots dead; compaction drops them.
    #[test]
    fn growth_moves_only_lists_in_the_middle() {
        let mut pool: Pool<u32> = Pool::default();
        let mut a = pool.alloc([1, 2]);
        let mut b = pool.alloc([3]);
        assert!(!pool.push(&mut b, 4), "the last list grows in place");
        assert_eq!(pool.slot_count(), 2 + 4);
        assert!(pool.push(&mut a, 5), "a list in the middle moves");
        assert_eq!(pool.get(&a), &[1, 2, 5]);
        assert_eq!(pool.get(&b), &[3, 4]);
        assert_eq!((pool.slot_count(), pool.live_count()), (2 + 4 + 4, 8));
        for k in 0..6 {
            pool.push(&mut a, 10 + k);
        }
        assert_eq!((a.len(), a.cap()), (9, 16));
        for _ in 0..5 {
            pool.pop(&mut a);
        }
        assert_eq!(
            (a.len(), a.cap()),
            (4, 4),
            "a shrinking list gives slots up"
        );
        assert_eq!(pool.live_count(), 4 + 4);
        pool.compact([&mut a, &mut b].into_iter(), true);
        assert_eq!((pool.slot_count(), pool.live_count()), (6, 6));
        assert_eq!(pool.get(&a), &[1, 2, 5, 10]);
        assert_eq!(pool.get(&b), &[3, 4]);
        assert_eq!(size_of::<PoolRange>(), 8);
    }
}
