//! [`ShortVec`]: a 16-byte list for the instruction table's short lists.
//!
//! An instruction's block operands and metadata attachments are usually
//! absent or one or two long. `SmallVec` keeps a `usize` capacity next to
//! its inline items, so it takes 24 bytes even for two 4-byte blocks. This
//! list keeps up to `N` items inline with a one-byte length, and a longer
//! list in a boxed `Vec`: 16 bytes when the inline items fit in 12 (two
//! blocks, or one attachment). It is written without `unsafe`: unused inline
//! slots hold copies of the first item.

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::ops::{Deref, DerefMut};

/// A list of `Copy` items with up to `N` (at most 255) of them inline.
///
/// It dereferences to a slice, so reading it works as for a `Vec`; the
/// growing and shrinking methods are the `Vec` ones that the IR uses.
#[derive(Clone)]
pub struct ShortVec<T: Copy, const N: usize>(Repr<T, N>);

#[derive(Clone)]
enum Repr<T: Copy, const N: usize> {
    /// No items.
    Empty,
    /// `len` items, `1 <= len <= N`; the slots after them repeat item 0.
    Inline(u8, [T; N]),
    /// More than `N` items (or a list that once had more). Boxed so that
    /// the spilled form costs 8 bytes of the list, not a `Vec`'s 24.
    #[allow(clippy::box_collection)]
    Heap(Box<Vec<T>>),
}

impl<T: Copy, const N: usize> ShortVec<T, N> {
    const FITS: () = assert!(N >= 1 && N <= 255, "ShortVec holds 1 to 255 items inline");

    /// An empty list (no allocation).
    pub const fn new() -> Self {
        ShortVec(Repr::Empty)
    }

    /// The items as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        match &self.0 {
            Repr::Empty => &[],
            Repr::Inline(n, items) => &items[..*n as usize],
            Repr::Heap(v) => v,
        }
    }

    /// The items as a mutable slice.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        match &mut self.0 {
            Repr::Empty => &mut [],
            Repr::Inline(n, items) => &mut items[..*n as usize],
            Repr::Heap(v) => v,
        }
    }

    /// The list's items, moved to a heap `Vec` with room for `extra` more.
    fn spill(&mut self, extra: usize) -> &mut Vec<T> {
        if !matches!(self.0, Repr::Heap(_)) {
            let items = self.as_slice();
            let mut v = Vec::with_capacity((items.len() + extra).max(2 * N));
            v.extend_from_slice(items);
            self.0 = Repr::Heap(Box::new(v));
        }
        match &mut self.0 {
            Repr::Heap(v) => v,
            _ => unreachable!("spilled just above"),
        }
    }

    /// Appends `x`.
    #[inline]
    pub fn push(&mut self, x: T) {
        let () = Self::FITS;
        match &mut self.0 {
            Repr::Empty => self.0 = Repr::Inline(1, [x; N]),
            Repr::Inline(n, items) if (*n as usize) < N => {
                items[*n as usize] = x;
                *n += 1;
            }
            Repr::Heap(v) => v.push(x),
            Repr::Inline(..) => self.spill(1).push(x),
        }
    }

    /// Removes and returns the last item.
    pub fn pop(&mut self) -> Option<T> {
        let last = *self.as_slice().last()?;
        let len = self.len();
        self.truncate(len - 1);
        Some(last)
    }

    /// Inserts `x` at `index`, shifting the items after it.
    ///
    /// # Panics
    /// When `index > len`.
    pub fn insert(&mut self, index: usize, x: T) {
        let len = self.len();
        assert!(
            index <= len,
            "insertion index {index} is past the end ({len})"
        );
        self.push(x);
        self.as_mut_slice()[index..].rotate_right(1);
    }

    /// Removes and returns the item at `index`, shifting the items after it.
    ///
    /// # Panics
    /// When `index >= len`.
    pub fn remove(&mut self, index: usize) -> T {
        let s = self.as_mut_slice();
        let x = s[index];
        s[index..].rotate_left(1);
        let len = s.len();
        self.truncate(len - 1);
        x
    }

    /// Keeps the first `len` items.
    pub fn truncate(&mut self, len: usize) {
        if len == 0 {
            self.0 = Repr::Empty;
            return;
        }
        match &mut self.0 {
            Repr::Empty => {}
            // Compared as usize: `len as u8` would wrap for 256 and up.
            Repr::Inline(n, _) if len < *n as usize => *n = len as u8,
            Repr::Inline(..) => {}
            Repr::Heap(v) => v.truncate(len),
        }
    }

    /// Removes every item (and frees a heap buffer).
    pub fn clear(&mut self) {
        self.0 = Repr::Empty;
    }

    /// Keeps the items for which `keep` returns true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        let s = self.as_mut_slice();
        let mut kept = 0;
        for i in 0..s.len() {
            if keep(&s[i]) {
                s[kept] = s[i];
                kept += 1;
            }
        }
        self.truncate(kept);
    }

    /// Appends the items of `items`.
    pub fn extend_from_slice(&mut self, items: &[T]) {
        if self.len() + items.len() > N {
            self.spill(items.len()).extend_from_slice(items);
        } else {
            for &x in items {
                self.push(x);
            }
        }
    }
}

impl<T: Copy, const N: usize> Default for ShortVec<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy, const N: usize> Deref for ShortVec<T, N> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T: Copy, const N: usize> DerefMut for ShortVec<T, N> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        self.as_mut_slice()
    }
}

impl<T: Copy, const N: usize> Extend<T> for ShortVec<T, N> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        for x in iter {
            self.push(x);
        }
    }
}

impl<T: Copy, const N: usize> FromIterator<T> for ShortVec<T, N> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut v = Self::new();
        v.extend(iter);
        v
    }
}

impl<T: Copy, const N: usize> From<&[T]> for ShortVec<T, N> {
    fn from(items: &[T]) -> Self {
        let mut v = Self::new();
        v.extend_from_slice(items);
        v
    }
}

impl<T: Copy, const N: usize, const K: usize> From<[T; K]> for ShortVec<T, N> {
    fn from(items: [T; K]) -> Self {
        Self::from(&items[..])
    }
}

impl<'a, T: Copy, const N: usize> IntoIterator for &'a ShortVec<T, N> {
    type Item = &'a T;
    type IntoIter = core::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl<'a, T: Copy, const N: usize> IntoIterator for &'a mut ShortVec<T, N> {
    type Item = &'a mut T;
    type IntoIter = core::slice::IterMut<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_mut_slice().iter_mut()
    }
}

impl<T: Copy + PartialEq, const N: usize> PartialEq for ShortVec<T, N> {
    /// Item by item: equality of slices of integers becomes a call to the
    /// C library's `memcmp`, which costs more than comparing the few items
    /// these lists hold (the attribute groups of every call's attribute
    /// sets are compared when equal call payloads are shared while reading).
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (self.as_slice(), other.as_slice());
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
    }
}

impl<T: Copy + Eq, const N: usize> Eq for ShortVec<T, N> {}

impl<T: Copy + Hash, const N: usize> Hash for ShortVec<T, N> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl<T: Copy + fmt::Debug, const N: usize> fmt::Debug for ShortVec<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::{format, vec};

    /// Every operation against a `Vec` doing the same, across the inline
    /// and heap forms.
    #[test]
    fn behaves_like_a_vec() {
        let mut s: ShortVec<u32, 2> = ShortVec::new();
        let mut v: Vec<u32> = Vec::new();
        let check = |s: &ShortVec<u32, 2>, v: &Vec<u32>| assert_eq!(s.as_slice(), &v[..]);
        for x in 0..5 {
            s.push(x);
            v.push(x);
            check(&s, &v);
        }
        assert_eq!(s.remove(1), v.remove(1));
        check(&s, &v);
        s.insert(0, 9);
        v.insert(0, 9);
        check(&s, &v);
        s.retain(|&x| x != 3);
        v.retain(|&x| x != 3);
        check(&s, &v);
        assert_eq!(s.pop(), v.pop());
        check(&s, &v);
        s.truncate(1);
        v.truncate(1);
        check(&s, &v);
        s.clear();
        v.clear();
        check(&s, &v);
        assert_eq!(s.pop(), None);
        // The inline form: insert at the front and remove down to empty.
        s.push(1);
        s.insert(0, 2);
        assert_eq!(s.as_slice(), &[2, 1]);
        s[1] = 7;
        assert_eq!(s.remove(0), 2);
        assert_eq!(s.remove(0), 7);
        assert!(s.is_empty());
        s.extend_from_slice(&[1, 2]);
        s.extend_from_slice(&[3]);
        assert_eq!(s.as_slice(), &[1, 2, 3]);
        let t: ShortVec<u32, 2> = [4, 5, 6].into_iter().collect();
        assert_eq!(t, ShortVec::from([4, 5, 6]));
        assert_eq!(t.iter().sum::<u32>(), 15);
        assert_eq!(format!("{t:?}"), "[4, 5, 6]");
        assert_eq!(vec![1u32, 2], ShortVec::<u32, 2>::from([1, 2]).to_vec());
    }

    /// Random operation sequences (a fixed-seed generator, so a failure
    /// reproduces) against a `Vec`, with one and with two inline slots.
    #[test]
    fn random_operations_match_a_vec() {
        fn run<const N: usize>(seed: u64) {
            let mut state = seed;
            let mut next = |bound: usize| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (state >> 33) as usize % bound.max(1)
            };
            let mut s: ShortVec<u32, N> = ShortVec::new();
            let mut v: Vec<u32> = Vec::new();
            for step in 0..400 {
                let x = step as u32;
                match next(9) {
                    0..=2 => {
                        s.push(x);
                        v.push(x);
                    }
                    3 => {
                        let i = next(v.len() + 1);
                        s.insert(i, x);
                        v.insert(i, x);
                    }
                    4 if !v.is_empty() => {
                        let i = next(v.len());
                        assert_eq!(s.remove(i), v.remove(i));
                    }
                    5 => assert_eq!(s.pop(), v.pop()),
                    6 => {
                        // Past the end too: a no-op, as for a `Vec`.
                        let n = next(v.len() + 3);
                        s.truncate(n);
                        v.truncate(n);
                    }
                    7 => {
                        let m = next(3) as u32 + 2;
                        s.retain(|&y| y % m != 0);
                        v.retain(|&y| y % m != 0);
                    }
                    _ => {
                        let k = next(4);
                        let items: Vec<u32> = (0..k as u32).map(|j| x * 10 + j).collect();
                        s.extend_from_slice(&items);
                        v.extend_from_slice(&items);
                    }
                }
                assert_eq!(s.as_slice(), &v[..], "seed {seed}, step {step}");
                assert_eq!(s.clone(), ShortVec::from(&v[..]));
            }
        }
        for seed in 0..50 {
            run::<1>(seed);
            run::<2>(seed);
        }
    }

    /// Two lists are equal exactly when they hold the same items in the
    /// same order, whether their items sit inline or on the heap.
    #[test]
    fn lists_are_equal_by_their_items() {
        let lists: [&[u32]; 7] = [&[], &[1], &[2], &[1, 2], &[2, 1], &[1, 2, 3], &[1, 2, 4]];
        for a in lists {
            for b in lists {
                let (x, y) = (ShortVec::<u32, 2>::from(a), ShortVec::<u32, 2>::from(b));
                assert_eq!(x == y, a == b, "{a:?} against {b:?}");
            }
        }
        // Spilled to the heap, then cut back to what fits inline.
        let mut spilled: ShortVec<u32, 2> = ShortVec::from([1, 2, 3]);
        spilled.truncate(2);
        assert_eq!(spilled, ShortVec::from([1, 2]));
        assert_ne!(spilled, ShortVec::from([1]));
    }

    /// Truncating past the end is a no-op, however far past (a length of
    /// 256 or more must not wrap to a small one).
    #[test]
    fn truncating_past_the_end_keeps_every_item() {
        for len in [2, 3, 255, 256, 257, 513, usize::MAX] {
            let mut s: ShortVec<u32, 2> = ShortVec::from([1, 2]);
            s.truncate(len);
            assert_eq!(s.as_slice(), &[1, 2], "truncate({len})");
        }
    }

    #[test]
    #[should_panic(expected = "past the end")]
    fn insert_past_the_end_panics_as_vec_does() {
        let mut s: ShortVec<u32, 2> = ShortVec::from([1]);
        s.insert(2, 0);
    }

    #[test]
    fn short_lists_take_sixteen_bytes() {
        use core::mem::size_of;
        assert_eq!(size_of::<ShortVec<crate::Block, 2>>(), 16);
        assert_eq!(size_of::<ShortVec<crate::metadata::Attachment, 1>>(), 16);
    }
}
