//! A deduplicating FIFO [`Worklist`] over entity ids, and the [`BitSet`] it
//! uses for membership.

use alloc::collections::VecDeque;
use alloc::vec::Vec;
use core::marker::PhantomData;

use crate::ir::EntityId;

/// A growable set of dense ids, one bit per id.
#[derive(Clone, Debug)]
pub struct BitSet<T: EntityId> {
    words: Vec<u64>,
    _ids: PhantomData<T>,
}

impl<T: EntityId> Default for BitSet<T> {
    fn default() -> Self {
        BitSet {
            words: Vec::new(),
            _ids: PhantomData,
        }
    }
}

impl<T: EntityId> BitSet<T> {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `id`; returns whether it was absent.
    pub fn insert(&mut self, id: T) -> bool {
        let (w, b) = (id.index() / 64, id.index() % 64);
        if w >= self.words.len() {
            self.words.resize(w + 1, 0);
        }
        let absent = self.words[w] & (1 << b) == 0;
        self.words[w] |= 1 << b;
        absent
    }

    /// Removes `id`; returns whether it was present.
    pub fn remove(&mut self, id: T) -> bool {
        let present = self.contains(id);
        if present {
            self.words[id.index() / 64] &= !(1 << (id.index() % 64));
        }
        present
    }

    /// Whether `id` is in the set.
    pub fn contains(&self, id: T) -> bool {
        self.words
            .get(id.index() / 64)
            .is_some_and(|w| w & (1 << (id.index() % 64)) != 0)
    }

    /// Removes every id (keeps the allocation).
    pub fn clear(&mut self) {
        self.words.iter_mut().for_each(|w| *w = 0);
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
        self.words.iter().enumerate().flat_map(|(wi, &w)| {
            let mut bits = w;
            core::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Some(T::from_index(wi * 64 + b))
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
}
