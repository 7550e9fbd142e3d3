//! Attributes of functions, parameters, return values and call sites.
//!
//! Attributes that nvpass reasons about have structured forms; everything
//! else, including attributes newer than this reader (`captures(...)`,
//! `range(...)`, `memory(...)`), is kept as verbatim text so it survives a
//! round trip unchanged.

use crate::entity::{Sym, Type};
use crate::intern::Interner;
use crate::short::ShortVec;
use smallvec::SmallVec;

/// One attribute.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Attr {
    /// A bare keyword: `noinline`, `nounwind`, `noundef`, ...
    Enum(Sym),
    /// A keyword with an integer: `align 8`, `dereferenceable(16)`,
    /// `alignstack(4)`. `paren` records which spelling was used.
    Int {
        /// Keyword.
        kind: Sym,
        /// Value.
        value: u64,
        /// Written `kind(value)` rather than `kind value`.
        paren: bool,
    },
    /// A keyword with a type: `byval(%T)`, `sret(%T)`, `elementtype(i32)`.
    Type {
        /// Keyword.
        kind: Sym,
        /// Type operand.
        ty: Type,
    },
    /// A string attribute `"key"` or `"key"="value"`.
    Str {
        /// Key.
        key: Sym,
        /// Value, if written.
        value: Option<Sym>,
    },
    /// Anything else, verbatim (e.g. `memory(argmem: read)`,
    /// `range(i32 0, 1024)`, `captures(none)`, `uwtable(sync)`).
    Raw {
        /// Leading keyword, for lookup.
        kind: Sym,
        /// The whole attribute text as written.
        text: Sym,
    },
}

impl Attr {
    /// The keyword (or string key) naming this attribute.
    pub fn key(&self) -> Sym {
        match *self {
            Attr::Enum(k) => k,
            Attr::Int { kind, .. } | Attr::Type { kind, .. } | Attr::Raw { kind, .. } => kind,
            Attr::Str { key, .. } => key,
        }
    }

    /// True for string attributes.
    pub fn is_string(&self) -> bool {
        matches!(self, Attr::Str { .. })
    }
}

/// The attributes of one slot (function, return value, one parameter or a
/// call site), plus references to attribute groups (`#N`).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct AttrSet {
    /// Attributes written inline, in source order.
    pub attrs: SmallVec<[Attr; 1]>,
    /// Attribute groups referenced as `#N`, in source order (two inline:
    /// a set names one group, rarely two).
    pub groups: ShortVec<u32, 2>,
}

impl AttrSet {
    /// True when the set has no attribute and no group reference.
    pub fn is_empty(&self) -> bool {
        self.attrs.is_empty() && self.groups.is_empty()
    }

    /// Finds an inline attribute by keyword or string key.
    pub fn find(&self, key: Sym) -> Option<&Attr> {
        self.attrs.iter().find(|a| a.key() == key)
    }

    /// Finds an enum or string attribute by name, without interning.
    pub fn find_named<'a>(&'a self, strings: &Interner, name: &str) -> Option<&'a Attr> {
        let s = strings.lookup(name.as_bytes())?;
        self.find(s)
    }
}

/// An attribute group `attributes #N = { ... }`.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct AttrGroup {
    /// The group number `N`.
    pub id: u32,
    /// The attributes.
    pub attrs: SmallVec<[Attr; 8]>,
}
