//! A direct-mapped cache: a fixed number of slots, each holding the last
//! key stored there and its value. The reader and the module keep small ones
//! in front of their hash tables, for lookups that come again soon (short
//! strings, plain call payloads): a hit reads one slot that stays in the
//! processor cache, and a miss falls through to the table.

use alloc::boxed::Box;

/// `N` slots (a power of two) of keys `K` and values `V`. Keys are compared
/// whole, so a hit always returns the value stored with an equal key.
#[derive(Clone)]
pub(crate) struct DirectMap<K, V, const N: usize> {
    slots: Box<[Option<(K, V)>]>,
}

impl<K: Clone, V: Clone, const N: usize> Default for DirectMap<K, V, N> {
    fn default() -> Self {
        const { assert!(N.is_power_of_two()) };
        DirectMap {
            slots: alloc::vec![None; N].into_boxed_slice(),
        }
    }
}

impl<K: Eq, V, const N: usize> DirectMap<K, V, N> {
    /// The slot of a key whose hash is `h` (multiply-shift: the high bits
    /// of the product).
    #[inline]
    pub(crate) fn slot(h: u64) -> usize {
        (h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - N.trailing_zeros())) as usize
    }

    /// The value stored with `key` in slot `i`, if that slot holds it.
    #[inline]
    pub(crate) fn get(&self, i: usize, key: &K) -> Option<&V> {
        match &self.slots[i] {
            Some((k, v)) if k == key => Some(v),
            _ => None,
        }
    }

    /// Stores `key` and `value` in slot `i`, replacing what it held.
    pub(crate) fn set(&mut self, i: usize, key: K, value: V) {
        self.slots[i] = Some((key, value));
    }
}
