//! Attributes of functions, parameters, return values and call sites.
//!
//! Attributes that nvpass reasons about have structured forms; everything
//! else, including attributes newer than this reader (`captures(...)`,
//! `range(...)`, `memory(...)`), is kept as verbatim text so it survives a
//! round trip unchanged.

use crate::entity::{Sym, Type};
use crate::intern::Interner;
use crate::short::ShortVec;
use alloc::sync::Arc;
use core::ops::Deref;
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

/// A list of attributes in one pointer: empty costs no allocation, and a
/// non-empty list can be shared ([`Module::share_attr_list`](crate::Module::share_attr_list):
/// the reader and attribute edits give equal lists one copy, as most
/// parameters and functions repeat a few lists). Reads go through `Deref`
/// to a slice; changes copy a shared list first.
///
/// Lists compare and hash as their slices, so a table of lists can be
/// searched with a slice (`Borrow<[Attr]>`).
#[derive(Clone, Debug, Default)]
pub struct AttrList(Option<Arc<SmallVec<[Attr; 2]>>>);

impl PartialEq for AttrList {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) if Arc::ptr_eq(a, b) => true,
            _ => **self == **other,
        }
    }
}

impl Eq for AttrList {}

impl core::hash::Hash for AttrList {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        (**self).hash(state);
    }
}

impl core::borrow::Borrow<[Attr]> for AttrList {
    fn borrow(&self) -> &[Attr] {
        self
    }
}

impl Deref for AttrList {
    type Target = [Attr];

    #[inline]
    fn deref(&self) -> &[Attr] {
        self.0.as_deref().map_or(&[], |v| v.as_slice())
    }
}

impl<'a> IntoIterator for &'a AttrList {
    type Item = &'a Attr;
    type IntoIter = core::slice::Iter<'a, Attr>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl FromIterator<Attr> for AttrList {
    fn from_iter<I: IntoIterator<Item = Attr>>(iter: I) -> Self {
        let v: SmallVec<[Attr; 2]> = iter.into_iter().collect();
        AttrList((!v.is_empty()).then(|| Arc::new(v)))
    }
}

impl AttrList {
    /// The list's items, writable (a shared list is copied first).
    fn items_mut(&mut self) -> &mut SmallVec<[Attr; 2]> {
        Arc::make_mut(self.0.get_or_insert_with(Default::default))
    }

    /// Drops the allocation of a list left empty.
    fn tidy(&mut self) {
        if self.0.as_ref().is_some_and(|v| v.is_empty()) {
            self.0 = None;
        }
    }

    /// Appends an attribute.
    pub fn push(&mut self, a: Attr) {
        self.items_mut().push(a);
    }

    /// Appends attributes.
    pub fn extend(&mut self, attrs: impl IntoIterator<Item = Attr>) {
        let mut attrs = attrs.into_iter().peekable();
        if attrs.peek().is_some() {
            self.items_mut().extend(attrs);
        }
    }

    /// Keeps the attributes for which `keep` holds.
    pub fn retain(&mut self, mut keep: impl FnMut(&Attr) -> bool) {
        if self.iter().all(&mut keep) {
            return;
        }
        self.items_mut().retain(|a| keep(a));
        self.tidy();
    }

    /// How many lists hold this one's allocation (0 when empty).
    pub(crate) fn holders(&self) -> usize {
        self.0.as_ref().map_or(0, Arc::strong_count)
    }

    /// Whether `self` and `other` share one allocation (or are both empty).
    pub fn shares(&self, other: &AttrList) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }
}

/// The attributes of one slot (function, return value, one parameter or a
/// call site), plus references to attribute groups (`#N`).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct AttrSet {
    /// Attributes written inline, in source order.
    pub attrs: AttrList,
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
