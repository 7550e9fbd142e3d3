//! Attributes of functions, parameters, return values and call sites.
//!
//! One [`Attr`] covers the four shapes LLVM attributes come in:
//!
//! | LLVM text | [`Attr`] |
//! |---|---|
//! | `alwaysinline`, `noalias`, `convergent` | [`Attr::Enum`] |
//! | `align 8`, `dereferenceable(16)` | [`Attr::Int`] |
//! | `byval(%struct.S)`, `sret(i32)` | [`Attr::Type`] |
//! | `"nvvm.kernel"`, `"key"="value"` | [`Attr::Str`] (value `""` when absent) |
//! | `memory(read)`, `nofpclass(nan)`, anything else | [`Attr::Unknown`] (verbatim text) |
//!
//! Hosts must preserve [`Attr::Unknown`] text verbatim (STYLE principle 4).

use super::ids::TypeId;

macro_rules! attr_kinds {
    ($( $(#[$doc:meta])* $variant:ident = $text:literal, )*) => {
        /// The LLVM attribute keywords core knows by name.
        ///
        /// Whether a kind carries an integer or a type is given by
        /// [`AttrKind::shape`]. Keywords not listed here travel as
        /// [`Attr::Unknown`].
        #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum AttrKind {
            $( $(#[$doc])* $variant, )*
        }

        impl AttrKind {
            /// Every kind, in declaration order.
            pub const ALL: &'static [AttrKind] = &[$(AttrKind::$variant,)*];

            /// The position of this kind in [`AttrKind::ALL`], so hosts can
            /// keep a table indexed by kind.
            pub const fn index(self) -> usize {
                self as usize
            }

            /// The LLVM textual keyword (`"alwaysinline"`, `"byval"`, ...).
            pub const fn name(self) -> &'static str {
                match self {
                    $(AttrKind::$variant => $text,)*
                }
            }

            /// Looks a keyword up; `None` for keywords core does not model.
            pub fn from_name(name: &str) -> Option<AttrKind> {
                match name {
                    $($text => Some(AttrKind::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

attr_kinds! {
    /// `alwaysinline`
    AlwaysInline = "alwaysinline",
    /// `noinline`
    NoInline = "noinline",
    /// `inlinehint`
    InlineHint = "inlinehint",
    /// `optnone`
    OptNone = "optnone",
    /// `optsize`
    OptSize = "optsize",
    /// `minsize`
    MinSize = "minsize",
    /// `naked`
    Naked = "naked",
    /// `convergent`
    Convergent = "convergent",
    /// `noreturn`
    NoReturn = "noreturn",
    /// `nounwind`
    NoUnwind = "nounwind",
    /// `norecurse`
    NoRecurse = "norecurse",
    /// `willreturn`
    WillReturn = "willreturn",
    /// `mustprogress`
    MustProgress = "mustprogress",
    /// `nofree`
    NoFree = "nofree",
    /// `nosync`
    NoSync = "nosync",
    /// `nocallback`
    NoCallback = "nocallback",
    /// `noduplicate`
    NoDuplicate = "noduplicate",
    /// `nomerge`
    NoMerge = "nomerge",
    /// `nobuiltin`
    NoBuiltin = "nobuiltin",
    /// `builtin`
    Builtin = "builtin",
    /// `cold`
    Cold = "cold",
    /// `hot`
    Hot = "hot",
    /// `returns_twice`
    ReturnsTwice = "returns_twice",
    /// `speculatable`
    Speculatable = "speculatable",
    /// `readnone` (parameter form; functions use `memory(...)`, an unknown attr)
    ReadNone = "readnone",
    /// `readonly`
    ReadOnly = "readonly",
    /// `writeonly`
    WriteOnly = "writeonly",
    /// `noalias`
    NoAlias = "noalias",
    /// `nocapture`
    NoCapture = "nocapture",
    /// `nonnull`
    NonNull = "nonnull",
    /// `noundef`
    NoUndef = "noundef",
    /// `returned`
    Returned = "returned",
    /// `signext`
    SExt = "signext",
    /// `zeroext`
    ZExt = "zeroext",
    /// `inreg`
    InReg = "inreg",
    /// `nest`
    Nest = "nest",
    /// `immarg`
    ImmArg = "immarg",
    /// `align <n>` / `align(<n>)` (integer: the alignment in bytes)
    Align = "align",
    /// `alignstack(<n>)` (integer: bytes)
    AlignStack = "alignstack",
    /// `dereferenceable(<n>)` (integer: bytes)
    Dereferenceable = "dereferenceable",
    /// `dereferenceable_or_null(<n>)` (integer: bytes)
    DereferenceableOrNull = "dereferenceable_or_null",
    /// `byval(<ty>)`
    ByVal = "byval",
    /// `byref(<ty>)`
    ByRef = "byref",
    /// `sret(<ty>)`
    StructRet = "sret",
    /// `inalloca(<ty>)`
    InAlloca = "inalloca",
    /// `preallocated(<ty>)`
    Preallocated = "preallocated",
    /// `elementtype(<ty>)`
    ElementType = "elementtype",
}

/// What an [`AttrKind`] carries.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum AttrShape {
    /// No payload: [`Attr::Enum`].
    Enum,
    /// An integer payload: [`Attr::Int`].
    Int,
    /// A type payload: [`Attr::Type`].
    Type,
}

impl AttrKind {
    /// The payload this kind carries.
    pub const fn shape(self) -> AttrShape {
        match self {
            AttrKind::Align
            | AttrKind::AlignStack
            | AttrKind::Dereferenceable
            | AttrKind::DereferenceableOrNull => AttrShape::Int,
            AttrKind::ByVal
            | AttrKind::ByRef
            | AttrKind::StructRet
            | AttrKind::InAlloca
            | AttrKind::Preallocated
            | AttrKind::ElementType => AttrShape::Type,
            _ => AttrShape::Enum,
        }
    }
}

/// One attribute. Strings borrow from the host (queries) or the caller (edits).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Attr<'a> {
    /// A keyword without payload, e.g. `alwaysinline`.
    Enum(AttrKind),
    /// A keyword with an integer, e.g. `align 8` is `Int(Align, 8)`.
    Int(AttrKind, u64),
    /// A keyword with a type, e.g. `byval(%struct.S)`.
    Type(AttrKind, TypeId),
    /// A string attribute `"key"="value"`; a bare `"key"` has value `""`.
    Str(&'a str, &'a str),
    /// An attribute core does not model, as its exact source text
    /// (`memory(argmem: read)`, `uwtable(sync)`, `range(i32 0, 10)`, ...).
    Unknown(&'a str),
}

impl<'a> Attr<'a> {
    /// The key identifying this attribute within one attribute list: two
    /// attributes with equal keys cannot both be present.
    pub fn key(&self) -> AttrKey<'a> {
        match *self {
            Attr::Enum(k) | Attr::Int(k, _) | Attr::Type(k, _) => AttrKey::Kind(k),
            Attr::Str(k, _) => AttrKey::Str(k),
            Attr::Unknown(text) => AttrKey::Other(unknown_keyword(text)),
        }
    }
}

/// The leading keyword of an unknown attribute's text (`"memory"` for
/// `memory(read)`).
fn unknown_keyword(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
        .unwrap_or(text.len());
    &text[..end]
}

/// Identifies an attribute within a list regardless of its payload.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum AttrKey<'a> {
    /// A known keyword.
    Kind(AttrKind),
    /// A string attribute's key.
    Str(&'a str),
    /// An unknown attribute's leading keyword (text before `(` or space).
    Other(&'a str),
}

impl AttrKey<'_> {
    /// Whether `attr` has this key.
    pub fn matches(&self, attr: &Attr<'_>) -> bool {
        attr.key() == *self
    }
}

/// Which attribute list of a function or call site.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum AttrSlot {
    /// Function attributes (after the parameter list / `#N` groups).
    Function,
    /// Return-value attributes.
    Return,
    /// Attributes of parameter / argument `n` (0-based).
    Param(u32),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for (i, &k) in AttrKind::ALL.iter().enumerate() {
            assert_eq!(AttrKind::from_name(k.name()), Some(k));
            assert_eq!(k.index(), i);
        }
        assert_eq!(AttrKind::from_name("memory"), None);
    }

    #[test]
    fn keys() {
        assert_eq!(
            Attr::Int(AttrKind::Align, 8).key(),
            AttrKey::Kind(AttrKind::Align)
        );
        assert_eq!(
            Attr::Str("nvvm.kernel", "").key(),
            AttrKey::Str("nvvm.kernel")
        );
        assert_eq!(
            Attr::Unknown("memory(argmem: read)").key(),
            AttrKey::Other("memory")
        );
        assert!(AttrKey::Str("a").matches(&Attr::Str("a", "b")));
        assert!(!AttrKey::Str("a").matches(&Attr::Unknown("a")));
    }

    #[test]
    fn shapes() {
        assert_eq!(AttrKind::ByVal.shape(), AttrShape::Type);
        assert_eq!(AttrKind::Align.shape(), AttrShape::Int);
        assert_eq!(AttrKind::NoAlias.shape(), AttrShape::Enum);
    }
}
