//! Interned LLVM types.
//!
//! Types are hash-consed: two structurally equal literal types share one
//! [`Type`] id, so type equality is id equality. Named (identified) struct
//! types are distinct by name; their body is set after creation, because
//! LLVM allows forward references and recursive structs.

use crate::entity::{Sym, Type};
use alloc::vec::Vec;
use cranelift_entity::packed_option::PackedOption;
use cranelift_entity::PrimaryMap;
use hashbrown::HashMap;
use smallvec::SmallVec;

/// Floating-point formats.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum FloatKind {
    /// `half` (IEEE binary16).
    Half,
    /// `bfloat`.
    BFloat,
    /// `float` (IEEE binary32).
    Float,
    /// `double` (IEEE binary64).
    Double,
    /// `fp128` (IEEE binary128).
    Fp128,
    /// `x86_fp80`.
    X86Fp80,
    /// `ppc_fp128`.
    PpcFp128,
}

impl FloatKind {
    /// The keyword LLVM uses for this format.
    pub fn keyword(self) -> &'static str {
        match self {
            FloatKind::Half => "half",
            FloatKind::BFloat => "bfloat",
            FloatKind::Float => "float",
            FloatKind::Double => "double",
            FloatKind::Fp128 => "fp128",
            FloatKind::X86Fp80 => "x86_fp80",
            FloatKind::PpcFp128 => "ppc_fp128",
        }
    }

    /// Width in bits of the storage format.
    pub fn bits(self) -> u32 {
        match self {
            FloatKind::Half | FloatKind::BFloat => 16,
            FloatKind::Float => 32,
            FloatKind::Double => 64,
            FloatKind::X86Fp80 => 80,
            FloatKind::Fp128 | FloatKind::PpcFp128 => 128,
        }
    }
}

/// The structure of a type.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum TypeData {
    /// `void`.
    Void,
    /// `label`.
    Label,
    /// `metadata`.
    Metadata,
    /// `token`.
    Token,
    /// `x86_amx` / `x86_mmx` and other rare first-class keywords, verbatim.
    Keyword(Sym),
    /// `iN`.
    Int(u32),
    /// A floating-point type.
    Float(FloatKind),
    /// `ptr addrspace(N)` (opaque pointer).
    Ptr(u32),
    /// `[N x T]`.
    Array(u64, Type),
    /// `<N x T>` or `<vscale x N x T>`.
    Vector {
        /// Element count (minimum count when scalable).
        len: u32,
        /// Element type.
        elem: Type,
        /// `vscale x` present.
        scalable: bool,
    },
    /// A literal struct `{ T, ... }` or `<{ T, ... }>`.
    Struct {
        /// Field types.
        fields: SmallVec<[Type; 4]>,
        /// Packed (`<{ }>`).
        packed: bool,
    },
    /// An identified struct `%name`; its body lives in [`TypeTable::named_body`].
    Named(Sym),
    /// A function type `R (P, ...)`.
    Func {
        /// Return type.
        ret: Type,
        /// Parameter types.
        params: SmallVec<[Type; 4]>,
        /// Ends with `...`.
        vararg: bool,
    },
    /// `target("name", types..., ints...)`.
    TargetExt {
        /// The quoted name.
        name: Sym,
        /// Type parameters.
        types: SmallVec<[Type; 2]>,
        /// Integer parameters.
        ints: SmallVec<[u32; 2]>,
    },
}

/// Body of an identified struct type.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub enum NamedBody {
    /// Declared with `= type opaque`, or referenced but never defined.
    #[default]
    Opaque,
    /// `= type { ... }` / `= type <{ ... }>`.
    Body {
        /// Field types.
        fields: Vec<Type>,
        /// Packed.
        packed: bool,
    },
}

/// All types of a module, hash-consed. `void` is always there: it is the
/// first type of every table.
#[derive(Clone)]
pub struct TypeTable {
    data: PrimaryMap<Type, TypeData>,
    map: HashMap<TypeData, Type>,
    /// Bodies of identified structs, keyed by the `Named` type id.
    named: HashMap<Type, NamedBody>,
    /// Identified structs in definition order (the order they are printed).
    named_order: Vec<Type>,
    /// The ids of the common scalar types, once interned.
    scalars: Scalars,
}

/// Ids of the scalar types the reader asks for on almost every operand:
/// `iN` up to 128 bits, `ptr` in address spaces 0 to 15, the float kinds
/// and `void`. Filled as they are interned (types are never removed), so
/// finding one again costs an array read instead of hashing a `TypeData`.
#[derive(Clone)]
struct Scalars {
    ints: [PackedOption<Type>; 129],
    ptrs: [PackedOption<Type>; 16],
    floats: [PackedOption<Type>; 8],
    void: PackedOption<Type>,
}

impl Default for Scalars {
    fn default() -> Self {
        let none = PackedOption::default();
        Scalars {
            ints: [none; 129],
            ptrs: [none; 16],
            floats: [none; 8],
            void: none,
        }
    }
}

impl Scalars {
    /// The cache slot of `data`, when it is one of the cached types.
    fn slot(&mut self, data: &TypeData) -> Option<&mut PackedOption<Type>> {
        match *data {
            TypeData::Int(bits) => self.ints.get_mut(bits as usize),
            TypeData::Ptr(a) => self.ptrs.get_mut(a as usize),
            TypeData::Float(k) => self.floats.get_mut(k as usize),
            TypeData::Void => Some(&mut self.void),
            _ => None,
        }
    }
}

impl Default for TypeTable {
    fn default() -> Self {
        let mut t = TypeTable {
            data: PrimaryMap::new(),
            map: HashMap::new(),
            named: HashMap::new(),
            named_order: Vec::new(),
            scalars: Scalars::default(),
        };
        t.intern(TypeData::Void);
        t
    }
}

impl TypeTable {
    /// Creates a table holding only `void`.
    pub fn new() -> Self {
        Self::default()
    }

    /// The `void` type, without interning (every table has it).
    #[inline]
    pub fn void_type(&self) -> Type {
        Type::from_u32(0)
    }

    /// Interns a type.
    pub fn intern(&mut self, data: TypeData) -> Type {
        let cached = self.scalars.slot(&data).and_then(|s| s.expand());
        if let Some(t) = cached {
            return t;
        }
        if let Some(&t) = self.map.get(&data) {
            return t;
        }
        let t = self.data.push(data.clone());
        if let Some(slot) = self.scalars.slot(&data) {
            *slot = t.into();
        }
        if let TypeData::Named(_) = data {
            self.named.insert(t, NamedBody::Opaque);
            self.named_order.push(t);
        }
        self.map.insert(data, t);
        t
    }

    /// The structure of `t`.
    pub fn get(&self, t: Type) -> &TypeData {
        &self.data[t]
    }

    /// Number of distinct types.
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// True when no type was interned.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Shorthand for `iN`.
    pub fn int(&mut self, bits: u32) -> Type {
        self.intern(TypeData::Int(bits))
    }

    /// `iN`, when it was interned and `bits` is at most 128; no hashing.
    #[inline]
    pub fn cached_int(&self, bits: u32) -> Option<Type> {
        self.scalars.ints.get(bits as usize)?.expand()
    }

    /// `ptr addrspace(n)`, when it was interned and `n` is below 16; no
    /// hashing.
    #[inline]
    pub fn cached_ptr(&self, addrspace: u32) -> Option<Type> {
        self.scalars.ptrs.get(addrspace as usize)?.expand()
    }

    /// Float type `k`, when it was interned; no hashing.
    #[inline]
    pub fn cached_float(&self, k: FloatKind) -> Option<Type> {
        self.scalars.floats.get(k as usize)?.expand()
    }

    /// Shorthand for `ptr addrspace(n)`.
    pub fn ptr(&mut self, addrspace: u32) -> Type {
        self.intern(TypeData::Ptr(addrspace))
    }

    /// Shorthand for `void`.
    pub fn void(&mut self) -> Type {
        self.intern(TypeData::Void)
    }

    /// The body of identified struct `t` (Opaque if `t` is not identified).
    pub fn named_body(&self, t: Type) -> &NamedBody {
        static OPAQUE: NamedBody = NamedBody::Opaque;
        self.named.get(&t).unwrap_or(&OPAQUE)
    }

    /// Sets the body of identified struct `t`.
    pub fn set_named_body(&mut self, t: Type, body: NamedBody) {
        self.named.insert(t, body);
    }

    /// Identified struct types in creation order.
    pub fn named_types(&self) -> &[Type] {
        &self.named_order
    }

    /// Fields of a literal or identified struct (empty for other types).
    pub fn struct_fields(&self, t: Type) -> (&[Type], bool) {
        match &self.data[t] {
            TypeData::Struct { fields, packed } => (fields, *packed),
            TypeData::Named(_) => match self.named_body(t) {
                NamedBody::Body { fields, packed } => (fields, *packed),
                NamedBody::Opaque => (&[], false),
            },
            _ => (&[], false),
        }
    }

    /// True for `void`.
    pub fn is_void(&self, t: Type) -> bool {
        matches!(self.data[t], TypeData::Void)
    }

    /// The address space if `t` is a pointer.
    pub fn ptr_addrspace(&self, t: Type) -> Option<u32> {
        match self.data[t] {
            TypeData::Ptr(a) => Some(a),
            _ => None,
        }
    }

    /// Integer width if `t` is an integer type.
    pub fn int_bits(&self, t: Type) -> Option<u32> {
        match self.data[t] {
            TypeData::Int(b) => Some(b),
            _ => None,
        }
    }

    /// Return type, parameters and varargness of a function type.
    pub fn func_sig(&self, t: Type) -> Option<(Type, &[Type], bool)> {
        match &self.data[t] {
            TypeData::Func {
                ret,
                params,
                vararg,
            } => Some((*ret, params, *vararg)),
            _ => None,
        }
    }
}
