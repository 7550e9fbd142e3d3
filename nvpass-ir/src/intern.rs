//! Byte-string interner: every name, keyword and verbatim piece of text in a
//! module is stored once and named by a [`Sym`].

use crate::entity::Sym;
use alloc::boxed::Box;
use cranelift_entity::PrimaryMap;
use hashbrown::HashMap;

/// Interns byte strings. Names in LLVM IR may hold any byte once escapes are
/// decoded, so the interner stores bytes, not `str`.
#[derive(Default, Clone)]
pub struct Interner {
    strings: PrimaryMap<Sym, Box<[u8]>>,
    map: HashMap<Box<[u8]>, Sym>,
}

impl Interner {
    /// Creates an empty interner.
    pub fn new() -> Self {
        Self::default()
    }

    /// Returns the symbol for `bytes`, adding it if new.
    pub fn intern(&mut self, bytes: &[u8]) -> Sym {
        if let Some(&s) = self.map.get(bytes) {
            return s;
        }
        let boxed: Box<[u8]> = bytes.into();
        let s = self.strings.push(boxed.clone());
        self.map.insert(boxed, s);
        s
    }

    /// Returns the symbol for `bytes` if it was interned.
    pub fn lookup(&self, bytes: &[u8]) -> Option<Sym> {
        self.map.get(bytes).copied()
    }

    /// The bytes of a symbol.
    pub fn get(&self, s: Sym) -> &[u8] {
        &self.strings[s]
    }

    /// The text of a symbol; invalid UTF-8 is replaced by U+FFFD.
    pub fn text(&self, s: Sym) -> alloc::borrow::Cow<'_, str> {
        alloc::string::String::from_utf8_lossy(&self.strings[s])
    }

    /// Number of interned strings.
    pub fn len(&self) -> usize {
        self.strings.len()
    }

    /// True when nothing is interned.
    pub fn is_empty(&self) -> bool {
        self.strings.is_empty()
    }

    /// All symbols in interning order.
    pub fn iter(&self) -> impl Iterator<Item = (Sym, &[u8])> {
        self.strings.iter().map(|(s, b)| (s, &**b))
    }
}
