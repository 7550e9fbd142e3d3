//! Byte-string interner: every name, keyword and verbatim piece of text in a
//! module is stored once and named by a [`Sym`].
//!
//! All strings live back to back in one byte buffer; a symbol is the index of
//! its end offset. The lookup table holds only symbols and hashes the bytes
//! they name, so each string is stored exactly once and interning a new one
//! costs no allocation of its own.

use crate::entity::Sym;
use alloc::vec::Vec;
use core::hash::BuildHasher;
use cranelift_entity::{EntityRef, PrimaryMap};
use hashbrown::{DefaultHashBuilder, HashTable};

/// Interns byte strings. Names in LLVM IR may hold any byte once escapes are
/// decoded, so the interner stores bytes, not `str`.
#[derive(Default, Clone)]
pub struct Interner {
    /// Every interned string, concatenated in interning order.
    bytes: Vec<u8>,
    /// End offset of each symbol's bytes in `bytes` (its start is the
    /// previous symbol's end).
    ends: PrimaryMap<Sym, usize>,
    /// The symbols, hashed by their bytes.
    map: HashTable<Sym>,
    hasher: DefaultHashBuilder,
}

impl Interner {
    /// Creates an empty interner.
    pub fn new() -> Self {
        Self::default()
    }

    /// Returns the symbol for `bytes`, adding it if new.
    pub fn intern(&mut self, bytes: &[u8]) -> Sym {
        let hash = self.hasher.hash_one(bytes);
        let (buf, ends) = (&self.bytes, &self.ends);
        if let Some(&s) = self.map.find(hash, |&s| span(buf, ends, s) == bytes) {
            return s;
        }
        self.bytes.extend_from_slice(bytes);
        let s = self.ends.push(self.bytes.len());
        let (buf, ends, hasher) = (&self.bytes, &self.ends, &self.hasher);
        self.map
            .insert_unique(hash, s, |&t| hasher.hash_one(span(buf, ends, t)));
        s
    }

    /// Returns the symbol for `bytes` if it was interned.
    pub fn lookup(&self, bytes: &[u8]) -> Option<Sym> {
        let hash = self.hasher.hash_one(bytes);
        self.map
            .find(hash, |&s| span(&self.bytes, &self.ends, s) == bytes)
            .copied()
    }

    /// The bytes of a symbol.
    pub fn get(&self, s: Sym) -> &[u8] {
        span(&self.bytes, &self.ends, s)
    }

    /// The text of a symbol; invalid UTF-8 is replaced by U+FFFD.
    pub fn text(&self, s: Sym) -> alloc::borrow::Cow<'_, str> {
        alloc::string::String::from_utf8_lossy(self.get(s))
    }

    /// Number of interned strings.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// True when nothing is interned.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// All symbols in interning order.
    pub fn iter(&self) -> impl Iterator<Item = (Sym, &[u8])> {
        self.ends.keys().map(move |s| (s, self.get(s)))
    }

    /// Bytes of string data held (for memory accounting).
    pub fn data_len(&self) -> usize {
        self.bytes.len()
    }
}

/// The bytes of `s`: from the previous symbol's end to its own.
fn span<'a>(bytes: &'a [u8], ends: &PrimaryMap<Sym, usize>, s: Sym) -> &'a [u8] {
    let end = ends[s];
    let start = match s.index() {
        0 => 0,
        i => ends[Sym::new(i - 1)],
    };
    &bytes[start..end]
}
