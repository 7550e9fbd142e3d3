//! `force-inline` (`ForceInlinePass`): spec 000 "Force-Inline Decision",
//! followed by InlineMustPass (spec 002) unless `mark-only` is given.
//!
//! # The decision
//!
//! For each defined function without `alwaysinline`, in spec 000's priority
//! order (earlier reasons win):
//!
//! 1. **Kernel** ([`is_kernel_function`]): forced even over `noinline`.
//! 2. **Image handle** (see below): forced even over `noinline`.
//! 3. `noinline` stops here.
//! 4. **Large parameters**: the sum of ABI slot sizes exceeds
//!    [`LARGE_PARAM_BYTES`] (checked as the sum grows, like the spec's loop).
//!    A slot is the parameter's allocation size (for a `byval(<ty>)`
//!    parameter, the size of `<ty>`: that is what `.param` space carries),
//!    rounded up to the pointer ABI alignment for pointer-like values
//!    (pointers and vectors of pointers), and at least
//!    [`MIN_PARAM_SLOT_BYTES`].
//! 5. **Large return**: the return type's allocation size exceeds
//!    [`LARGE_RETURN_BYTES`].
//!
//! A yes writes LLVM's `alwaysinline`, the source of truth (spec 000: "treat
//! the LLVM attribute as the source of truth"; nvpass has no cached flag
//! field to mirror), and emits the analysis remark `ForceInline` naming the
//! reason. Functions that already have `alwaysinline` are skipped, so the
//! step is idempotent.
//!
//! # Choices where the spec is silent
//!
//! - **Kernels.** A kernel is marked like any other forced function. On
//!   NVPTX nothing calls a kernel, so the mark changes no call; it only
//!   records the decision (spec 000 lists "Kernel" first) and makes any
//!   call a host IR might have to a kernel inlinable.
//! - **`noinline` on a forced kernel or image-handle function** is removed
//!   when `alwaysinline` is added: LLVM's verifier rejects the pair
//!   ("Attributes 'noinline and alwaysinline' are incompatible").
//! - **`optnone`** functions are not marked: LLVM requires `optnone` to
//!   come with `noinline` and rejects `alwaysinline` next to it. The remark
//!   `ForceInlineSkipped` says so.
//! - **Return payload of `sret` functions**: the `sret` pointer is an
//!   ordinary pointer parameter in PTX, so only the IR return type counts.
//! - **Image/sampler handles in opaque-pointer IR.** A parameter is an
//!   image or sampler handle when any of these holds:
//!   1. its type is a target extension type named in
//!      [`IMAGE_HANDLE_TARGET_EXT_NAMES`] (`target("nvvm.image")`,
//!      `target("spirv.Image", ...)`, ...);
//!   2. its type, or the type carried by one of its type attributes
//!      (`byval`, `byref`, `elementtype`, `sret`, ...), is a named struct
//!      whose name, after a `struct.`/`class.`/`union.`/`opencl.` prefix,
//!      is one of [`IMAGE_HANDLE_STRUCT_NAMES`] (`%struct.rdoimage`,
//!      `%opencl.sampler`); opaque pointers carry no pointee, so these
//!      attributes are the only place the typedef survives;
//!   3. `!nvvm.annotations` has `!{ptr @f, !"rdoimage"|"wroimage"|"sampler", i32 k}`
//!      for parameter `k` ([`IMAGE_HANDLE_ANNOTATION_KEYS`], the form
//!      LLVM's NVPTX back end reads with `isImageReadOnly`/`isSampler`);
//!   4. some direct call passes, for this parameter, a global annotated
//!      `"texture"`, `"surface"` or `"sampler"`
//!      ([`TEXTURE_GLOBAL_ANNOTATION_KEYS`]); those annotations name
//!      globals, never parameters, so this is how they reach a signature.
//!
//!   Bindless texture objects (`i64` values used by `tex.unified`
//!   intrinsics) are ordinary integers and are not handles.
//!
//! # Knobs and options
//!
//! Option `mark-only`: run only the decision (spec 000's attribute-only
//! pass). InlineMustPass's knob `disable-inlined-alloca-merging` applies to
//! the inlining step.

use alloc::string::ToString;
use alloc::vec::Vec;

use hashbrown::HashSet;
use nvpass_core::diag::RemarkKind;
use nvpass_core::ir::{
    Attr, AttrKey, AttrKind, AttrSlot, FuncId, GlobalId, IrEdit, IrView, MdOperand, TypeId,
    TypeKind, ValueId, ValueKind,
};
use nvpass_core::kernel::is_kernel_function;
use nvpass_core::knob::{KnobInfo, KnobKind};
use nvpass_core::pass::{
    ModulePass, PassContext, PassFailure, PassInfo, PassOptions, PreservedOrChanged,
};
use nvpass_core::stats::StatInfo;

use super::must;

/// Parameter payloads above this many bytes force inlining.
///
/// Spec 000 "Force-Inline Decision": "Aligned parameter payload exceeds 384
/// bytes"; `if (total > 384) return true;`.
pub const LARGE_PARAM_BYTES: u64 = 384;

/// Return payloads above this many bytes force inlining.
///
/// Spec 000 "Force-Inline Decision": "Return payload exceeds 144 bytes";
/// `return dl.alloc_size(ret) > 144;`.
pub const LARGE_RETURN_BYTES: u64 = 144;

/// Smallest ABI slot a parameter occupies.
///
/// Spec 000: "Each parameter contributes at least 4 bytes";
/// `return max(bytes, 4);`.
pub const MIN_PARAM_SLOT_BYTES: u64 = 4;

/// Target extension type names that are image or sampler handles.
///
/// Spec 000 "Force-Inline Decision", reason "Image handle": "Any argument
/// carries an image/sampler typedef". Choice: the NVVM-style names and
/// LLVM's SPIR-V image types (the target extension types LLVM defines for
/// images and samplers).
pub const IMAGE_HANDLE_TARGET_EXT_NAMES: [&str; 7] = [
    "nvvm.image",
    "nvvm.sampler",
    "nvvm.texture",
    "nvvm.surface",
    "spirv.Image",
    "spirv.SampledImage",
    "spirv.Sampler",
];

/// Named (opaque) struct types that are image or sampler handles.
///
/// Spec 000 "Force-Inline Decision": "an image/sampler typedef such as
/// wroimage, rdoimage, or sampler".
pub const IMAGE_HANDLE_STRUCT_NAMES: [&str; 3] = ["wroimage", "rdoimage", "sampler"];

/// Prefixes stripped from a struct name before comparing it with
/// [`IMAGE_HANDLE_STRUCT_NAMES`] (clang's and OpenCL's spellings).
pub const IMAGE_HANDLE_STRUCT_PREFIXES: [&str; 4] = ["struct.", "class.", "union.", "opencl."];

/// `!nvvm.annotations` keys that mark parameter `k` of a function as an
/// image or sampler handle (`!{ptr @f, !"rdoimage", i32 k}`).
///
/// Spec 000 "Force-Inline Decision", "Image handle" (the same typedef names).
pub const IMAGE_HANDLE_ANNOTATION_KEYS: [&str; 3] = ["rdoimage", "wroimage", "sampler"];

/// `!nvvm.annotations` keys that mark a global as a texture, surface or
/// sampler reference (`!{ptr @tex, !"texture", i32 1}`).
///
/// Spec 000 "Force-Inline Decision", "Image handle"; the issue's "texture/
/// surface annotations".
pub const TEXTURE_GLOBAL_ANNOTATION_KEYS: [&str; 3] = ["texture", "surface", "sampler"];

/// The named metadata holding NVVM annotations.
pub const NVVM_ANNOTATIONS: &str = "nvvm.annotations";

/// Why a function is force-inlined (spec 000's reason table).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum ForceInlineReason {
    /// "Function is an NVVM/PTX kernel entry."
    Kernel,
    /// "Any argument carries an image/sampler typedef."
    ImageHandle,
    /// "Aligned parameter payload exceeds 384 bytes."
    LargeParams,
    /// "Return payload exceeds 144 bytes."
    LargeReturn,
}

impl ForceInlineReason {
    /// The remark's `Reason` value.
    pub const fn as_str(self) -> &'static str {
        match self {
            ForceInlineReason::Kernel => "kernel",
            ForceInlineReason::ImageHandle => "image handle",
            ForceInlineReason::LargeParams => "large parameters",
            ForceInlineReason::LargeReturn => "large return",
        }
    }

    /// Whether the reason overrides a `noinline` attribute.
    pub const fn overrides_noinline(self) -> bool {
        matches!(
            self,
            ForceInlineReason::Kernel | ForceInlineReason::ImageHandle
        )
    }
}

/// Option `mark-only`: run only the attribute decision.
pub const OPT_MARK_ONLY: KnobInfo = KnobInfo {
    name: "mark-only",
    kind: KnobKind::Bool,
    default: "false",
    description: "Only add alwaysinline (spec 000); do not run InlineMustPass",
};

/// `force-inline`.
pub const FORCE_INLINE_INFO: PassInfo = PassInfo {
    name: "force-inline",
    class_name: "ForceInlinePass",
    description: "Mark functions the .param ABI cannot carry alwaysinline, then inline them",
    knobs: must::INLINE_MUST_KNOBS,
    options: &[OPT_MARK_ONLY],
};

/// Statistic: functions marked by the decision.
pub const NUM_FORCED: StatInfo = StatInfo {
    name: "NumForceInlined",
    description: "Number of functions marked alwaysinline by the force-inline decision",
};

/// Size in bytes of one parameter slot (spec 000 `param_slot_size`), for
/// the parameter of type `ty` (the `byval` type for `byval` parameters,
/// which is then not pointer-like).
pub fn param_slot_size<M: IrView + ?Sized>(m: &M, ty: TypeId) -> u64 {
    let mut bytes = m.alloc_size(ty).unwrap_or(0);
    let pointer_like = match m.type_kind(ty) {
        TypeKind::Ptr(_) => true,
        TypeKind::Vector { elem, .. } => matches!(m.type_kind(elem), TypeKind::Ptr(_)),
        _ => false,
    };
    if pointer_like {
        let align = m.abi_align(ty).unwrap_or(1).max(1);
        bytes = bytes.div_ceil(align) * align;
    }
    bytes.max(MIN_PARAM_SLOT_BYTES)
}

/// The type whose bytes parameter `k` of `f`, of type `ty`, puts in
/// `.param` space.
fn param_payload_type<M: IrView + ?Sized>(m: &M, f: FuncId, k: usize, ty: TypeId) -> TypeId {
    m.type_attr(f, AttrSlot::Param(k as u32), AttrKind::ByVal)
        .unwrap_or(ty)
}

/// The types of `f`'s parameters, read from its function type (they are
/// its parameters' types), so that deciding about a function reads no
/// parameter record: most decisions need nothing else of them.
fn param_types<M: IrView + ?Sized>(m: &M, f: FuncId) -> impl Iterator<Item = TypeId> + '_ {
    m.func_type_params(m.func_type(f))
}

/// Spec 000 `has_large_param_payload`.
pub fn has_large_param_payload<M: IrView + ?Sized>(m: &M, f: FuncId) -> bool {
    let mut total = 0u64;
    for (k, ty) in param_types(m, f).enumerate() {
        total = total.saturating_add(param_slot_size(m, param_payload_type(m, f, k, ty)));
        if total > LARGE_PARAM_BYTES {
            return true;
        }
    }
    false
}

/// Spec 000 `has_large_return_payload`.
pub fn has_large_return_payload<M: IrView + ?Sized>(m: &M, f: FuncId) -> bool {
    let ret = m.ret_type(f);
    if m.type_kind(ret) == TypeKind::Void {
        return false;
    }
    m.alloc_size(ret).unwrap_or(0) > LARGE_RETURN_BYTES
}

fn is_handle_struct<M: IrView + ?Sized>(m: &M, ty: TypeId) -> bool {
    let Some(name) = m.struct_name(ty) else {
        return false;
    };
    let base = IMAGE_HANDLE_STRUCT_PREFIXES
        .iter()
        .find_map(|p| name.strip_prefix(p))
        .unwrap_or(name);
    IMAGE_HANDLE_STRUCT_NAMES.contains(&base)
}

fn is_handle_type<M: IrView + ?Sized>(m: &M, ty: TypeId) -> bool {
    match m.type_kind(ty) {
        TypeKind::TargetExt => m
            .target_ext_name(ty)
            .is_some_and(|n| IMAGE_HANDLE_TARGET_EXT_NAMES.contains(&n)),
        TypeKind::Struct { .. } => is_handle_struct(m, ty),
        _ => false,
    }
}

/// The `!nvvm.annotations` facts the decision reads.
#[derive(Clone, Debug, Default)]
pub struct HandleAnnotations {
    /// `(function, parameter index)` annotated as image or sampler.
    pub params: HashSet<(FuncId, u64)>,
    /// Globals annotated as texture, surface or sampler.
    pub globals: HashSet<GlobalId>,
}

impl HandleAnnotations {
    /// Reads `!nvvm.annotations`.
    pub fn read<M: IrView + ?Sized>(m: &M) -> HandleAnnotations {
        let mut out = HandleAnnotations::default();
        for node in m.named_md(NVVM_ANNOTATIONS) {
            let ops: Vec<MdOperand<'_>> = m.md_operands(node).collect();
            for pair in ops.windows(3).step_by(1) {
                let [MdOperand::Value(v), MdOperand::String(key), MdOperand::Value(n)] = pair
                else {
                    continue;
                };
                // The key first: most entries are kernel marks, and the
                // kind of the value they name is a read elsewhere in memory.
                if !IMAGE_HANDLE_ANNOTATION_KEYS.contains(key)
                    && !TEXTURE_GLOBAL_ANNOTATION_KEYS.contains(key)
                {
                    continue;
                }
                match m.value_kind(*v) {
                    ValueKind::Function(f) if IMAGE_HANDLE_ANNOTATION_KEYS.contains(key) => {
                        if let Some(k) = m.const_uint(*n) {
                            out.params.insert((f, k as u64));
                        }
                    }
                    ValueKind::Global(g) if TEXTURE_GLOBAL_ANNOTATION_KEYS.contains(key) => {
                        out.globals.insert(g);
                    }
                    _ => {}
                }
            }
        }
        out
    }
}

/// The global a call argument denotes, looking through constant casts.
fn global_of<M: IrView + ?Sized>(m: &M, mut v: ValueId) -> Option<GlobalId> {
    for _ in 0..4 {
        match m.value_kind(v) {
            ValueKind::Global(g) => return Some(g),
            ValueKind::Constant(nvpass_core::ir::ConstKind::Expr(op)) if op.is_cast() => {
                v = m.const_operands(v).next()?;
            }
            _ => return None,
        }
    }
    None
}

/// Whether some parameter of `f` is an image or sampler handle (the four
/// forms in the module docs).
pub fn has_image_or_sampler_argument<M: IrView + ?Sized>(
    m: &M,
    f: FuncId,
    ann: &HandleAnnotations,
) -> bool {
    for (k, ty) in param_types(m, f).enumerate() {
        if is_handle_type(m, ty) || ann.params.contains(&(f, k as u64)) {
            return true;
        }
        let typed = m
            .attr_types(f, AttrSlot::Param(k as u32))
            .any(|t| is_handle_type(m, t));
        if typed {
            return true;
        }
    }
    if ann.globals.is_empty() {
        return false;
    }
    let fv = m.func_value(f);
    m.inst_users(fv).any(|c| {
        m.callee(c) == Some(nvpass_core::ir::Callee::Direct(f))
            && m.call_args(c)
                .any(|a| global_of(m, a).is_some_and(|g| ann.globals.contains(&g)))
    })
}

/// Spec 000 `should_force_inline`: the reason to force `f`, if any.
pub fn should_force_inline<M: IrView + ?Sized>(
    m: &M,
    f: FuncId,
    ann: &HandleAnnotations,
) -> Option<ForceInlineReason> {
    let has = |k| m.has_attr(f, AttrSlot::Function, AttrKey::Kind(k));
    if m.func_is_declaration(f) || has(AttrKind::AlwaysInline) {
        return None;
    }
    if is_kernel_function(m, f) {
        return Some(ForceInlineReason::Kernel);
    }
    if has_image_or_sampler_argument(m, f, ann) {
        return Some(ForceInlineReason::ImageHandle);
    }
    if has(AttrKind::NoInline) {
        return None;
    }
    if has_large_param_payload(m, f) {
        return Some(ForceInlineReason::LargeParams);
    }
    if has_large_return_payload(m, f) {
        return Some(ForceInlineReason::LargeReturn);
    }
    None
}

/// Runs the decision over the module; returns whether anything changed.
pub fn mark_force_inline<M: IrEdit + ?Sized>(m: &mut M, cx: &mut PassContext<'_>) -> bool {
    let ann = HandleAnnotations::read(m);
    let decided: Vec<(FuncId, ForceInlineReason)> = m
        .funcs()
        .filter_map(|f| should_force_inline(m, f, &ann).map(|r| (f, r)))
        .collect();
    let mut changed = false;
    for (f, reason) in decided {
        // The name is only for remarks: copied when one is built.
        if m.has_attr(f, AttrSlot::Function, AttrKey::Kind(AttrKind::OptNone)) {
            let name = m.func_name(f).to_string();
            let d = cx
                .remark(RemarkKind::Missed, "ForceInlineSkipped")
                .in_function(name.clone())
                .arg("Callee", name)
                .text(" not marked alwaysinline (")
                .arg("Reason", reason.as_str())
                .text("): optnone function attribute");
            cx.emit(d);
            continue;
        }
        let always = Attr::Enum(AttrKind::AlwaysInline);
        if reason.overrides_noinline() {
            let noinline = AttrKey::Kind(AttrKind::NoInline);
            m.replace_attr(f, AttrSlot::Function, noinline, always);
        } else {
            m.add_attr(f, AttrSlot::Function, always);
        }
        changed = true;
        cx.add_stat(&NUM_FORCED, 1);
        if cx.remarks_enabled() {
            let name = m.func_name(f).to_string();
            let d = cx
                .remark(RemarkKind::Analysis, "ForceInline")
                .in_function(name.clone())
                .arg("Callee", name)
                .text(" marked alwaysinline: ")
                .arg("Reason", reason.as_str());
            cx.emit(d);
        }
    }
    changed
}

/// The `force-inline` pass.
#[derive(Clone, Debug)]
pub struct ForceInline {
    mark_only: bool,
}

impl ForceInline {
    /// From pipeline options.
    pub fn new(opts: &PassOptions) -> ForceInline {
        ForceInline {
            mark_only: opts.bool(&OPT_MARK_ONLY),
        }
    }
}

impl<M: IrEdit + ?Sized> ModulePass<M> for ForceInline {
    fn info(&self) -> &'static PassInfo {
        &FORCE_INLINE_INFO
    }

    fn run(
        &mut self,
        m: &mut M,
        cx: &mut PassContext<'_>,
    ) -> Result<PreservedOrChanged, PassFailure> {
        let marked = mark_force_inline(m, cx);
        let inlined = !self.mark_only && must::run_inline_must(m, cx);
        Ok(PreservedOrChanged::from_changed(marked || inlined))
    }
}
