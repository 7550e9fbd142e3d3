//! A deduplicating FIFO [`Worklist`] over entity ids, the [`BitSet`] it
//! uses for membership, and an [`OrderedQueue`] of places in a fixed walk
//! order, popped lowest first.

use alloc::collections::VecDeque;
use alloc::vec::Vec;
use core::marker::PhantomData;

use crate::ir::EntityId;

/// A growable set of dense ids, one bit per id.
///
/// The bits cover the ids from the lowest to the highest one inserted, not
/// from zero: the ids of one function in a module of millions are close
/// together and far from zero, and a set of them (a per-function worklist)
/// then costs their spread, not the whole module's.
#[derive(Clone, Debug)]
pub struct BitSet<T: EntityId> {
    /// Bit `b` of `words[k]` stands for id `(base + k) * 64 + b`.
    words: Vec<u64>,
    /// The word index of `words[0]`.
    base: usize,
    _ids: PhantomData<T>,
}

impl<T: EntityId> Default for BitSet<T> {
    fn default() -> Self {
        BitSet {
            words: Vec::new(),
            base: 0,
            _ids: PhantomData,
        }
    }
}

impl<T: EntityId> BitSet<T> {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// The slot of word index `w` in `words`, if the bits cover it.
    fn slot(&self, w: usize) -> Option<usize> {
        w.checked_sub(self.base).filter(|&k| k < self.words.len())
    }

    /// Adds `id`; returns whether it was absent.
    pub fn insert(&mut self, id: T) -> bool {
        let (w, b) = (id.index() / 64, id.index() % 64);
        if self.words.is_empty() {
            self.base = w;
        } else if w < self.base {
            // Grow downwards by at least the current size, so that ids
            // inserted in decreasing order cost amortized constant time.
            let grow = (self.base - w).max(self.words.len()).min(self.base);
            self.words.splice(0..0, core::iter::repeat_n(0, grow));
            self.base -= grow;
        }
        let k = w - self.base;
        if k >= self.words.len() {
            self.words.resize(k + 1, 0);
        }
        let absent = self.words[k] & (1 << b) == 0;
        self.words[k] |= 1 << b;
        absent
    }

    /// Removes `id`; returns whether it was present.
    pub fn remove(&mut self, id: T) -> bool {
        let Some(k) = self.slot(id.index() / 64) else {
            return false;
        };
        let bit = 1 << (id.index() % 64);
        let present = self.words[k] & bit != 0;
        self.words[k] &= !bit;
        present
    }

    /// Whether `id` is in the set.
    pub fn contains(&self, id: T) -> bool {
        self.slot(id.index() / 64)
            .is_some_and(|k| self.words[k] & (1 << (id.index() % 64)) != 0)
    }

    /// Removes every id (keeps the allocation). The next insertion places
    /// the bits afresh, so a set reused for ids elsewhere in the module does
    /// not cover both places.
    pub fn clear(&mut self) {
        self.words.clear();
    }

    /// Number of ids in the set.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// The ids in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = T> + '_ {
        let base = self.base;
        self.words.iter().enumerate().flat_map(move |(wi, &w)| {
            let mut bits = w;
            core::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Some(T::from_index((base + wi) * 64 + b))
            })
        })
    }
}

/// A FIFO queue that holds each id at most once.
///
/// Pushing an id already queued does nothing; once popped, an id may be
/// pushed again (so fixpoint algorithms re-visit values whose inputs
/// changed). Order is first-in first-out, which makes runs deterministic.
#[derive(Clone, Debug)]
pub struct Worklist<T: EntityId> {
    queue: VecDeque<T>,
    queued: BitSet<T>,
}

impl<T: EntityId> Default for Worklist<T> {
    fn default() -> Self {
        Worklist {
            queue: VecDeque::new(),
            queued: BitSet::new(),
        }
    }
}

impl<T: EntityId> Worklist<T> {
    /// An empty worklist.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends `id` unless it is already queued; returns whether it was
    /// appended.
    pub fn push(&mut self, id: T) -> bool {
        let added = self.queued.insert(id);
        if added {
            self.queue.push_back(id);
        }
        added
    }

    /// Pushes every id of `ids` in order (skipping queued ones).
    pub fn extend(&mut self, ids: impl IntoIterator<Item = T>) {
        for id in ids {
            self.push(id);
        }
    }

    /// Removes and returns the oldest id.
    pub fn pop(&mut self) -> Option<T> {
        let id = self.queue.pop_front()?;
        self.queued.remove(id);
        Some(id)
    }

    /// Whether `id` is currently queued.
    pub fn contains(&self, id: T) -> bool {
        self.queued.contains(id)
    }

    /// Number of queued ids.
    pub fn len(&self) -> usize {
        self.queue.len()
    }

    /// Whether nothing is queued.
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// Drops every queued id.
    pub fn clear(&mut self) {
        self.queue.clear();
        self.queued.clear();
    }
}

impl<T: EntityId> Extend<T> for Worklist<T> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, ids: I) {
        Worklist::extend(self, ids);
    }
}

/// A set of places `0..n` in a fixed walk order, popped lowest first.
///
/// An inliner walks the functions of a module in one order and re-queues
/// the ones whose inputs changed; a re-queued place may lie before or
/// after the walk's current one. One bit per place, and one summary bit
/// per word of places, so that finding the lowest queued place reads at
/// most `n / 4096` summary words, and inserting or popping costs a few
/// instructions (an ordered tree set costs hundreds per insertion).
#[derive(Clone, Debug, Default)]
pub struct OrderedQueue {
    /// Bit `b` of `words[k]`: place `64 * k + b` is queued.
    words: Vec<u64>,
    /// Bit `b` of `summary[s]`: `words[64 * s + b]` is not zero.
    summary: Vec<u64>,
    /// No summary word below this one is non-zero.
    low: usize,
}

impl OrderedQueue {
    /// A queue of places `0..n` holding none of them.
    pub fn new(n: usize) -> Self {
        let words = n.div_ceil(64);
        OrderedQueue {
            words: alloc::vec![0; words],
            summary: alloc::vec![0; words.div_ceil(64)],
            low: 0,
        }
    }

    /// A queue of places `0..n` holding all of them.
    pub fn full(n: usize) -> Self {
        let mut q = OrderedQueue::new(n);
        q.words.fill(!0);
        if !n.is_multiple_of(64) {
            if let Some(last) = q.words.last_mut() {
                *last = (1 << (n % 64)) - 1;
            }
        }
        let words = q.words.len();
        q.summary.fill(!0);
        if !words.is_multiple_of(64) {
            if let Some(last) = q.summary.last_mut() {
                *last = (1 << (words % 64)) - 1;
            }
        }
        q
    }

    /// Queues place `p` (which must be below the `n` the queue was made
    /// with); returns whether it was not queued yet.
    pub fn insert(&mut self, p: usize) -> bool {
        let (w, b) = (p / 64, p % 64);
        let absent = self.words[w] & (1 << b) == 0;
        self.words[w] |= 1 << b;
        self.summary[w / 64] |= 1 << (w % 64);
        self.low = self.low.min(w / 64);
        absent
    }

    /// Removes and returns the lowest queued place.
    pub fn pop_first(&mut self) -> Option<usize> {
        while self.low < self.summary.len() && self.summary[self.low] == 0 {
            self.low += 1;
        }
        let s = *self.summary.get(self.low)?;
        let w = self.low * 64 + s.trailing_zeros() as usize;
        let word = self.words[w];
        let b = word.trailing_zeros() as usize;
        self.words[w] = word & (word - 1);
        if self.words[w] == 0 {
            self.summary[self.low] &= !(1 << (w % 64));
        }
        Some(w * 64 + b)
    }

    /// Whether nothing is queued.
    pub fn is_empty(&self) -> bool {
        self.summary[self.low.min(self.summary.len())..]
            .iter()
            .all(|&s| s == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{FuncId, ValueId};
    use alloc::vec;

    #[test]
    fn fifo_and_dedup() {
        let mut w = Worklist::new();
        let v = ValueId::new;
        assert!(w.push(v(3)));
        assert!(w.push(v(130)));
        assert!(!w.push(v(3)));
        w.extend([v(1), v(130), v(2)]);
        assert_eq!(w.len(), 4);
        assert!(w.contains(v(130)));
        assert_eq!(w.pop(), Some(v(3)));
        assert!(!w.contains(v(3)));
        // Popped ids may be queued again, at the back.
        assert!(w.push(v(3)));
        let order: Vec<_> = core::iter::from_fn(|| w.pop()).collect();
        assert_eq!(order, vec![v(130), v(1), v(2), v(3)]);
        assert!(w.is_empty());
        w.push(v(9));
        w.clear();
        assert_eq!(w.pop(), None);
        assert!(!w.contains(v(9)));
    }

    /// Places come out lowest first, each once however often it was
    /// queued, including places queued behind the last one popped; a full
    /// queue holds exactly `0..n`.
    #[test]
    fn ordered_queue_pops_lowest_first() {
        let n = 64 * 64 * 3 + 17;
        let mut q = OrderedQueue::new(n);
        assert!(q.is_empty());
        assert_eq!(q.pop_first(), None);
        for p in [9000, 3, n - 1, 4096, 3, 64] {
            q.insert(p);
        }
        assert!(!q.insert(9000));
        assert_eq!(q.pop_first(), Some(3));
        assert_eq!(q.pop_first(), Some(64));
        // Behind the last place popped, and in the same word as another.
        assert!(q.insert(0));
        assert!(q.insert(4097));
        let rest: Vec<usize> = core::iter::from_fn(|| q.pop_first()).collect();
        assert_eq!(rest, vec![0, 4096, 4097, 9000, n - 1]);
        assert!(q.is_empty());
        for n in [0, 1, 63, 64, 65, 4096, 4097, n] {
            let mut q = OrderedQueue::full(n);
            let all: Vec<usize> = core::iter::from_fn(|| q.pop_first()).collect();
            assert_eq!(all, (0..n).collect::<Vec<_>>(), "n = {n}");
            assert!(q.is_empty());
        }
    }

    #[test]
    fn bitset() {
        let mut s = BitSet::new();
        assert!(s.insert(FuncId::new(0)));
        assert!(s.insert(FuncId::new(64)));
        assert!(s.insert(FuncId::new(200)));
        assert!(!s.insert(FuncId::new(64)));
        assert_eq!(s.len(), 3);
        assert!(!s.contains(FuncId::new(1000)));
        assert_eq!(
            s.iter().collect::<Vec<_>>(),
            vec![FuncId::new(0), FuncId::new(64), FuncId::new(200)]
        );
        assert!(s.remove(FuncId::new(64)));
        assert!(!s.remove(FuncId::new(64)));
        assert!(!s.remove(FuncId::new(5000)));
        s.clear();
        assert!(s.is_empty());
    }

    /// Ids far from zero cost their spread, inserted in any order, and the
    /// set answers as a set from zero would.
    #[test]
    fn bitset_covers_only_the_spread_of_its_ids() {
        let v = |i: usize| ValueId::new(i as u32);
        let far = 50_000_000;
        let mut s = BitSet::new();
        // Decreasing, increasing and scattered insertions around `far`.
        let ids: Vec<usize> = (0..300)
            .rev()
            .map(|k| far + 7 * k)
            .chain((0..300).map(|k| far + 5000 + 3 * k))
            .chain([far - 1, far + 64 * 40 + 63, far - 640])
            .collect();
        for &i in &ids {
            assert!(s.insert(v(i)), "{i}");
            assert!(s.contains(v(i)), "{i}");
        }
        for &i in &ids {
            assert!(!s.insert(v(i)), "{i}");
        }
        let span_words = (far + 5000 + 3 * 299) / 64 - (far - 640) / 64 + 1;
        assert!(
            s.words.len() <= 2 * span_words,
            "{} words for a spread of {span_words}",
            s.words.len()
        );
        let mut sorted = ids.clone();
        sorted.sort_unstable();
        assert_eq!(
            s.iter().collect::<Vec<_>>(),
            sorted.iter().map(|&i| v(i)).collect::<Vec<_>>()
        );
        assert_eq!(s.len(), ids.len());
        for i in [0, 63, 64, far - 641, far + 6, far + 100_000] {
            assert!(!s.contains(v(i)), "{i}");
            assert!(!s.remove(v(i)), "{i}");
        }
        assert!(s.remove(v(far - 640)));
        assert!(!s.contains(v(far - 640)));
        assert_eq!(s.len(), ids.len() - 1);
        // Growing down to id 0.
        assert!(s.insert(v(0)));
        assert!(s.contains(v(0)) && s.contains(v(far)));
        assert_eq!(s.iter().next(), Some(v(0)));
        s.clear();
        assert!(s.is_empty());
        assert!(!s.contains(v(far)));
        // Reused after clearing, the set covers only what it holds now.
        assert!(s.insert(v(2 * far)));
        assert_eq!(s.words.len(), 1);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![v(2 * far)]);
    }
}
