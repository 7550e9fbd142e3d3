//! Type queries: [`TypeKind`] and the [`TypeView`] trait.
//!
//! Types are interned by the host: equal types have equal [`TypeId`]s, so
//! passes compare types with `==`. [`TypeView`] is split from
//! [`IrView`](super::IrView) so that type-only machinery (the
//! [`DataLayout`](crate::datalayout::DataLayout) size calculator) can be used
//! and tested without a whole module.

use super::ids::TypeId;

/// The shape of a type. Payloads are `Copy`; lists (struct fields, function
/// parameters) and names are separate [`TypeView`] queries.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum TypeKind {
    /// `void`.
    Void,
    /// `iN`, with the bit width N (1 ..= 2^23).
    Int(u32),
    /// `half` (IEEE binary16).
    Half,
    /// `bfloat`.
    BFloat,
    /// `float` (IEEE binary32).
    Float,
    /// `double` (IEEE binary64).
    Double,
    /// `x86_fp80`.
    X86Fp80,
    /// `fp128` (IEEE binary128).
    Fp128,
    /// `ppc_fp128`.
    PpcFp128,
    /// `ptr addrspace(N)`; N = 0 for plain `ptr`.
    Ptr(u32),
    /// A literal (`{ i32, i8 }`, `<{ ... }>`) or identified (`%T = type ...`)
    /// struct. Fields come from [`TypeView::struct_fields`], the name from
    /// [`TypeView::struct_name`].
    Struct {
        /// `<{ ... }>`: no padding between fields, ABI alignment 1.
        packed: bool,
        /// `%T = type opaque`: the body is unknown and the type is unsized.
        opaque: bool,
    },
    /// `[len x elem]`.
    Array {
        /// Element count.
        len: u64,
        /// Element type.
        elem: TypeId,
    },
    /// `<len x elem>` or `<vscale x len x elem>`.
    Vector {
        /// Element count (minimum count for scalable vectors).
        len: u32,
        /// Element type.
        elem: TypeId,
        /// `vscale x` form.
        scalable: bool,
    },
    /// A function type; see [`TypeView::func_type_ret`] and
    /// [`TypeView::func_type_params`].
    Func {
        /// Ends in `...`.
        vararg: bool,
    },
    /// `label`.
    Label,
    /// `metadata`.
    Metadata,
    /// `token`.
    Token,
    /// `x86_amx`.
    X86Amx,
    /// `target("name", ...)`; the name comes from [`TypeView::target_ext_name`].
    TargetExt,
    /// A type core does not model.
    Other,
}

impl TypeKind {
    /// `half`, `bfloat`, `float`, `double`, `x86_fp80`, `fp128`, `ppc_fp128`.
    pub const fn is_float(self) -> bool {
        matches!(
            self,
            TypeKind::Half
                | TypeKind::BFloat
                | TypeKind::Float
                | TypeKind::Double
                | TypeKind::X86Fp80
                | TypeKind::Fp128
                | TypeKind::PpcFp128
        )
    }

    /// The address space if this is a pointer type.
    pub const fn ptr_addr_space(self) -> Option<u32> {
        match self {
            TypeKind::Ptr(a) => Some(a),
            _ => None,
        }
    }
}

/// Read-only queries on interned types.
///
/// Every method takes a [`TypeId`] produced by the same host. Methods that ask
/// for a facet a type does not have (fields of an integer) return an empty
/// iterator or `None`; they never panic.
pub trait TypeView {
    /// The shape of `ty`.
    fn type_kind(&self, ty: TypeId) -> TypeKind;

    /// Field types of a struct type in declaration order; empty for opaque
    /// structs and for non-struct types.
    fn struct_fields(&self, ty: TypeId) -> impl Iterator<Item = TypeId> + '_;

    /// The name of an identified struct without the leading `%`
    /// (`"struct.dim3"`); `None` for literal structs and non-struct types.
    fn struct_name(&self, ty: TypeId) -> Option<&str>;

    /// The return type of a function type; `None` if `ty` is not a function type.
    fn func_type_ret(&self, ty: TypeId) -> Option<TypeId>;

    /// The parameter types of a function type, in order; empty if `ty` is not
    /// a function type.
    fn func_type_params(&self, ty: TypeId) -> impl Iterator<Item = TypeId> + '_;

    /// The name of a `target("name", ...)` type; `None` for other types.
    fn target_ext_name(&self, _ty: TypeId) -> Option<&str> {
        None
    }

    /// Field `index` of a struct type; `None` if out of range.
    fn struct_field(&self, ty: TypeId, index: usize) -> Option<TypeId> {
        self.struct_fields(ty).nth(index)
    }
}
