//! Byte-string interner: every name, keyword and verbatim piece of text in a
//! module is stored once and named by a [`Sym`].
//!
//! All strings live back to back in one byte buffer; a symbol is the index of
//! its end offset. The lookup table holds only symbols and hashes the bytes
//! they name, so each string is stored exactly once and interning a new one
//! costs no allocation of its own.
//!
//! Most strings a reader interns are short and come again soon: local names
//! used by the next instructions, attribute and attachment kinds, the
//! callee of the next call. A small direct-mapped cache of short strings
//! answers those from a few kilobytes that stay in the processor
//! cache; the table, which for a large module does not, is probed only on a
//! miss.
//!
//! Every interner starts with the attribute keywords core knows
//! ([`AttrKind::ALL`]) interned in order, so the symbol of a keyword is its
//! [`AttrKind::index`] ([`Interner::kind_sym`]): asking whether a function
//! or call has `noinline` compares symbols without hashing the keyword.
//! The string attributes that mark kernels ([`STR_KEYS`]), which passes
//! ask about for every function, are watched for as strings are added, so
//! whether one is interned, and as what, is known without hashing it
//! ([`Interner::str_key_sym`]); in most modules none is, and the question
//! is answered at once.

use crate::direct::DirectMap;
use crate::entity::Sym;
use alloc::vec::Vec;
use core::hash::BuildHasher;
use cranelift_entity::{EntityRef, PrimaryMap};
use hashbrown::{DefaultHashBuilder, HashTable};
use nvpass_core::ir::AttrKind;
use nvpass_core::kernel::{
    LEGACY_KERNEL_ATTR, NVVM_ANNOTATIONS_TRANSPLANTED_ATTR, NVVM_KERNEL_ATTR,
};

/// String attribute keys every interner watches for: the kernel marks of
/// `nvpass_core::kernel`, which `is_kernel_function` asks about for every
/// function, in every module (most have none of them).
pub const STR_KEYS: [&str; 3] = [
    NVVM_KERNEL_ATTR,
    NVVM_ANNOTATIONS_TRANSPLANTED_ATTR,
    LEGACY_KERNEL_ATTR,
];

/// Interns byte strings. Names in LLVM IR may hold any byte once escapes are
/// decoded, so the interner stores bytes, not `str`.
#[derive(Clone)]
pub struct Interner {
    /// Every interned string, concatenated in interning order.
    bytes: Vec<u8>,
    /// End offset of each symbol's bytes in `bytes` (its start is the
    /// previous symbol's end).
    ends: PrimaryMap<Sym, usize>,
    /// The symbols, hashed by their bytes.
    map: HashTable<Sym>,
    hasher: DefaultHashBuilder,
    /// Recently interned short strings ([`FRONT_SLOTS`] slots).
    front: DirectMap<FrontKey, Sym, FRONT_SLOTS>,
    /// The symbols of [`STR_KEYS`], in order, once interned.
    str_keys: [Option<Sym>; STR_KEYS.len()],
}

impl Default for Interner {
    fn default() -> Self {
        let mut i = Interner {
            bytes: Vec::new(),
            ends: PrimaryMap::new(),
            map: HashTable::new(),
            hasher: DefaultHashBuilder::default(),
            front: DirectMap::default(),
            str_keys: [None; STR_KEYS.len()],
        };
        for &k in AttrKind::ALL {
            i.intern_in_table(k.name().as_bytes());
        }
        i
    }
}

impl Interner {
    /// Creates an interner holding only the attribute keywords (see the
    /// module docs).
    pub fn new() -> Self {
        Self::default()
    }

    /// The symbol of attribute keyword `k`, interned by every interner
    /// from the start.
    #[inline]
    pub fn kind_sym(&self, k: AttrKind) -> Sym {
        Sym::new(k.index())
    }

    /// For `key` one of [`STR_KEYS`], its symbol if it was interned
    /// (`Some(None)` if not), found without hashing it; `None` for other
    /// keys (passed over at once when their length differs).
    #[inline]
    pub fn str_key_sym(&self, key: &str) -> Option<Option<Sym>> {
        let n = STR_KEYS.iter().position(|&k| k == key)?;
        Some(self.str_keys[n])
    }

    /// Returns the symbol for `bytes`, adding it if new.
    pub fn intern(&mut self, bytes: &[u8]) -> Sym {
        let Some(key) = FrontKey::new(bytes) else {
            return self.intern_in_table(bytes);
        };
        let i = key.slot();
        if let Some(&s) = self.front.get(i, &key) {
            return s;
        }
        let s = self.intern_in_table(bytes);
        self.front.set(i, key, s);
        s
    }

    fn intern_in_table(&mut self, bytes: &[u8]) -> Sym {
        let hash = self.hasher.hash_one(bytes);
        let (buf, ends) = (&self.bytes, &self.ends);
        if let Some(&s) = self.map.find(hash, |&s| span(buf, ends, s) == bytes) {
            return s;
        }
        self.bytes.extend_from_slice(bytes);
        let s = self.ends.push(self.bytes.len());
        if let Some(n) = STR_KEYS.iter().position(|k| k.as_bytes() == bytes) {
            self.str_keys[n] = Some(s);
        }
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

    /// Number of interned strings, the attribute keywords included.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// True when nothing is interned (never: the attribute keywords
    /// always are).
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

/// Slots of the short-string cache.
const FRONT_SLOTS: usize = 1024;

/// Longest string the short-string cache holds.
const FRONT_MAX: usize = 16;

/// A short string as two words and its length. Strings of 8 to 16 bytes
/// keep their first and last eight bytes (the two overlap below 16), those
/// of 4 to 7 their first and last four, shorter ones their first, middle and
/// last byte: with the length, the words name the string exactly.
#[derive(Copy, Clone, PartialEq, Eq)]
struct FrontKey {
    lo: u64,
    hi: u64,
    len: u64,
}

impl FrontKey {
    #[inline]
    fn new(b: &[u8]) -> Option<FrontKey> {
        let n = b.len();
        let word = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or_default());
        let half = |i: usize| {
            u64::from(u32::from_le_bytes(
                b[i..i + 4].try_into().unwrap_or_default(),
            ))
        };
        let (lo, hi) = match n {
            0 => (0, 0),
            1..=3 => (
                u64::from(b[0]) | u64::from(b[n / 2]) << 8 | u64::from(b[n - 1]) << 16,
                0,
            ),
            4..=7 => (half(0) | half(n - 4) << 32, 0),
            8..=FRONT_MAX => (word(0), word(n - 8)),
            _ => return None,
        };
        Some(FrontKey {
            lo,
            hi,
            len: n as u64,
        })
    }

    /// The slot this string maps to.
    #[inline]
    fn slot(&self) -> usize {
        DirectMap::<FrontKey, Sym, FRONT_SLOTS>::slot(self.lo ^ self.hi.rotate_left(29) ^ self.len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Strings of every length around the cached limit, each interned many
    /// times among others that share or evict its slot, keep one symbol.
    #[test]
    fn cached_and_uncached_strings_keep_their_symbols() {
        let mut i = Interner::new();
        let names: Vec<Vec<u8>> = (0..5000u32)
            .map(|n| {
                let mut v = alloc::format!("n{n}").into_bytes();
                v.resize(n as usize % (FRONT_MAX + 4), b'x');
                v
            })
            .collect();
        let first: Vec<Sym> = names.iter().map(|n| i.intern(n)).collect();
        for round in 0..3 {
            for (n, s) in names.iter().zip(&first).rev() {
                assert_eq!(i.intern(n), *s, "round {round}");
                assert_eq!(i.get(*s), &n[..]);
            }
        }
        let distinct: hashbrown::HashSet<&[u8]> = names
            .iter()
            .map(|n| &n[..])
            .chain(AttrKind::ALL.iter().map(|k| k.name().as_bytes()))
            .collect();
        assert_eq!(i.len(), distinct.len());
        // The empty string and one of zero bytes are different strings.
        let e = i.intern(b"");
        let z = i.intern(b"\0");
        assert_ne!(e, z);
        assert_eq!(i.intern(b""), e);
        assert_eq!(i.intern(b"\0"), z);
    }

    /// Each attribute keyword is interned from the start under the symbol
    /// [`Interner::kind_sym`] names, and interning it again finds it there.
    /// A kernel-marking string key is known as soon as it is interned, by
    /// whichever path, and not before.
    #[test]
    fn keywords_are_interned_at_their_index() {
        let mut i = Interner::new();
        assert_eq!(i.len(), AttrKind::ALL.len());
        for k in STR_KEYS {
            assert_eq!(i.str_key_sym(k), Some(None), "{k}");
        }
        let a = i.intern(STR_KEYS[0].as_bytes());
        let b = i.intern(STR_KEYS[1].as_bytes());
        assert_eq!(i.str_key_sym(STR_KEYS[0]), Some(Some(a)));
        assert_eq!(i.str_key_sym(STR_KEYS[1]), Some(Some(b)));
        assert_eq!(i.str_key_sym(STR_KEYS[2]), Some(None));
        assert_eq!(i.clone().str_key_sym(STR_KEYS[1]), Some(Some(b)));
        assert_eq!(i.str_key_sym("nvvm.kernelx"), None);
        assert_eq!(i.str_key_sym("noinline"), None);
        for &k in AttrKind::ALL {
            assert_eq!(i.get(i.kind_sym(k)), k.name().as_bytes());
            assert_eq!(i.intern(k.name().as_bytes()), i.kind_sym(k));
            assert_eq!(i.lookup(k.name().as_bytes()), Some(i.kind_sym(k)));
        }
        let c = i.clone();
        assert_eq!(c.get(c.kind_sym(AttrKind::NoInline)), b"noinline");
    }

    /// Two strings of one length that differ in one byte, wherever it is,
    /// have different keys.
    #[test]
    fn keys_see_every_byte() {
        for n in 1..=FRONT_MAX {
            let base = alloc::vec![b'a'; n];
            let k = FrontKey::new(&base);
            for at in 0..n {
                let mut other = base.clone();
                other[at] = b'b';
                assert!(FrontKey::new(&other) != k, "length {n}, byte {at}");
            }
        }
        assert!(FrontKey::new(&[b'a'; FRONT_MAX + 1]).is_none());
    }
}
