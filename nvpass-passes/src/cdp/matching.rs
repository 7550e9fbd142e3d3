//! Recognizing CDP call sites and what they refer to: spec 002 "Matching
//! Predicate", the variant flag, the launched child kernel, and the pairing
//! of a parameter buffer with the launch that consumes it.
//!
//! Both passes, and the `cdp` pair, read the IR through these functions
//! only, so they agree on what a CDP call is.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::cell::OnceCell;

use hashbrown::HashSet;
use nvpass_core::cdp::{
    cdp_function_names, classify_cdp_entry, classify_cdp_stub, parse_variant_flag, CdpEntryKind,
    CdpVariant, CDP_VARIANT_ATTR,
};
use nvpass_core::ir::{
    Attr, AttrSlot, Callee, ConstKind, FuncId, InstId, IrView, Linkage, MdOperand, Opcode, ValueId,
    ValueKind,
};
use nvpass_core::kernel::is_kernel_function;
use nvpass_core::par::par_map_funcs;

/// Where a CDP call's callee comes from.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(super) enum Origin {
    /// A high-level entry point (`cudaLaunchDevice`, plain or mangled): the
    /// passes rewrite these.
    Entry,
    /// A runtime stub of this variant (`__cudaCDP2LaunchDeviceV2`): already
    /// rewritten; recognized so that a buffer and its launch still pair up
    /// when one of them was rewritten first.
    Stub(CdpVariant),
}

/// The operand layout of a CDP call.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(super) enum Layout {
    /// `cudaLaunchDevice(kernel, buffer, grid, block, smem, stream)` and the
    /// launch stubs called the same way.
    LaunchWithGeometry,
    /// `cudaLaunchDeviceV2(buffer, stream)` and the launch stubs called the
    /// same way: the child and geometry travel with the buffer.
    LaunchBufferOnly,
    /// `cudaGetParameterBuffer(alignment, size)`.
    LegacyBuffer,
    /// `cudaGetParameterBufferV2(kernel, grid, block, smem)` and every
    /// buffer stub.
    BufferWithGeometry,
}

/// Kernel operand of [`Layout::LaunchWithGeometry`] and
/// [`Layout::BufferWithGeometry`] calls.
pub(super) const KERNEL: usize = 0;
/// Buffer operand of a [`Layout::LaunchWithGeometry`] call.
pub(super) const LAUNCH_BUFFER: usize = 1;
/// Grid, block and shared-memory operands of a
/// [`Layout::LaunchWithGeometry`] call, in the order the V2 buffer
/// allocation takes them after the kernel.
pub(super) const LAUNCH_GEOMETRY: [usize; 3] = [2, 3, 4];
/// Buffer operand of a [`Layout::LaunchBufferOnly`] call.
pub(super) const V2_LAUNCH_BUFFER: usize = 0;
/// Stream operand of a [`Layout::LaunchBufferOnly`] call.
pub(super) const V2_LAUNCH_STREAM: usize = 1;

/// One recognized CDP call.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(super) struct Site {
    /// The `call` instruction.
    pub call: InstId,
    /// Launch or parameter buffer.
    pub kind: CdpEntryKind,
    /// Entry point or stub.
    pub origin: Origin,
    /// Operand layout.
    pub layout: Layout,
}

impl Site {
    /// The operand holding the parameter buffer of a launch.
    fn buffer_operand(&self) -> Option<usize> {
        match self.layout {
            Layout::LaunchWithGeometry => Some(LAUNCH_BUFFER),
            Layout::LaunchBufferOnly => Some(V2_LAUNCH_BUFFER),
            Layout::LegacyBuffer | Layout::BufferWithGeometry => None,
        }
    }
}

/// Classifies `call` as a CDP call: a direct `call` (not `invoke`) of an
/// entry point or stub with enough arguments for its layout. Calls with too
/// few arguments are not CDP calls and stay untouched.
pub(super) fn site<M: IrView + ?Sized>(m: &M, call: InstId) -> Option<Site> {
    if m.opcode(call) != Opcode::Call {
        return None;
    }
    let Some(Callee::Direct(f)) = m.callee(call) else {
        return None;
    };
    let name = m.func_name(f);
    let (kind, origin, v2) = if let Some(e) = classify_cdp_entry(name) {
        (e.kind, Origin::Entry, Some(e.is_v2))
    } else {
        let (kind, variant) = classify_cdp_stub(name)?;
        (kind, Origin::Stub(variant), None)
    };
    let nargs = m.call_args(call).count();
    let layout = match (kind, v2) {
        (CdpEntryKind::Launch, Some(false)) if nargs >= 5 => Layout::LaunchWithGeometry,
        (CdpEntryKind::Launch, Some(true)) if nargs >= 1 => Layout::LaunchBufferOnly,
        (CdpEntryKind::Launch, None) if nargs >= 5 => Layout::LaunchWithGeometry,
        (CdpEntryKind::Launch, None) if nargs >= 1 => Layout::LaunchBufferOnly,
        (CdpEntryKind::ParameterBuffer, Some(false)) => Layout::LegacyBuffer,
        (CdpEntryKind::ParameterBuffer, _) if nargs >= 4 => Layout::BufferWithGeometry,
        _ => return None,
    };
    Some(Site {
        call,
        kind,
        origin,
        layout,
    })
}

/// Spec 002 "Matching Predicate", fourth clause: the parent is "a device
/// function that the backend will lower to PTX": a definition in this
/// module whose body is emitted, so not `available_externally`.
pub(super) fn is_lowered<M: IrView + ?Sized>(m: &M, f: FuncId) -> bool {
    !m.func_is_declaration(f) && m.func_linkage(f) != Linkage::AvailableExternally
}

/// Every CDP call in functions lowered to PTX, in module order.
///
/// The CDP functions are found by looking up the few CDP names
/// ([`cdp_function_names`]), and their calls in their use lists: a direct
/// call's called operand is the function itself ([`Callee::Direct`]), so
/// every such call is one of its uses ([`crate::uses::direct_calls_by_caller`]).
/// A module without a CDP function is not walked at all, and one with some
/// reads only their calls, put in layout order function by function
/// ([`crate::uses::in_layout_order`]: only a block holding several is
/// walked).
pub(super) fn sites<M: IrView + ?Sized>(m: &M) -> Sites {
    sites_on(m, 1)
}

/// The CDP calls of a module ([`sites`]): each caller's together, in
/// layout order, the callers in module order. Read as a slice of
/// [`Site`]s; [`Sites::by_caller`] also gives each call's function,
/// which the list knows without asking the IR.
#[derive(Default, Debug)]
pub(super) struct Sites {
    list: Vec<Site>,
    /// Each caller with at least one call, and where its calls end in
    /// `list`.
    callers: Vec<(FuncId, usize)>,
}

impl Sites {
    /// Each caller with its calls.
    pub(super) fn by_caller(&self) -> impl Iterator<Item = (FuncId, &[Site])> + '_ {
        let mut start = 0;
        self.callers.iter().map(move |&(f, end)| {
            let calls = &self.list[start..end];
            start = end;
            (f, calls)
        })
    }
}

impl core::ops::Deref for Sites {
    type Target = [Site];

    fn deref(&self) -> &[Site] {
        &self.list
    }
}

/// [`sites`], the functions read on `threads` threads (the same list).
pub(super) fn sites_on<M: IrView + ?Sized>(m: &M, threads: usize) -> Sites {
    // The CDP names are a short fixed list: look each one up.
    let cdp_funcs: Vec<FuncId> = cdp_function_names()
        .filter_map(|n| m.func_by_name(n))
        .collect();
    let calls = crate::uses::direct_calls_by_caller(m, &cdp_funcs, |i| m.opcode(i) == Opcode::Call);
    if calls.is_empty() {
        return Sites::default();
    }
    let callers: Vec<FuncId> = m.funcs().filter(|f| calls.contains_key(f)).collect();
    let per_caller = par_map_funcs(m, &callers, threads, |m, f| {
        if !is_lowered(m, f) {
            return Vec::new();
        }
        let ordered = crate::uses::in_layout_order(m, f, calls[&f].clone());
        ordered
            .into_iter()
            .filter_map(|i| site(m, i))
            .collect::<Vec<_>>()
    });
    let mut sites = Sites::default();
    for (f, found) in callers.into_iter().zip(per_caller) {
        if !found.is_empty() {
            sites.list.extend(found);
            sites.callers.push((f, sites.list.len()));
        }
    }
    sites
}

/// `v` with cast instructions and cast constant expressions peeled off.
pub(super) fn strip_casts<M: IrView + ?Sized>(m: &M, mut v: ValueId) -> ValueId {
    // Bounded so that malformed (cyclic) input cannot loop forever.
    for _ in 0..64 {
        let next = match m.value_kind(v) {
            ValueKind::Inst(i) if m.opcode(i).is_cast() => m.operand(i, 0),
            ValueKind::Constant(ConstKind::Expr(op)) if op.is_cast() => m.const_operands(v).next(),
            _ => None,
        };
        match next {
            Some(n) => v = n,
            None => break,
        }
    }
    v
}

/// The function `v` names once casts are stripped.
fn as_function<M: IrView + ?Sized>(m: &M, v: ValueId) -> Option<FuncId> {
    match m.value_kind(strip_casts(m, v)) {
        ValueKind::Function(f) => Some(f),
        _ => None,
    }
}

/// The variant flag a call site carries itself.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(super) enum Flag {
    /// No [`CDP_VARIANT_ATTR`] attribute.
    Missing,
    /// A readable flag.
    Variant(CdpVariant),
    /// A flag whose value is not a known variant (the value).
    Unreadable(String),
}

/// Reads the [`CDP_VARIANT_ATTR`] call-site attribute of `call`.
pub(super) fn own_flag<M: IrView + ?Sized>(m: &M, call: InstId) -> Flag {
    let value = m
        .call_attrs(call, AttrSlot::Function)
        .find_map(|a| match a {
            Attr::Str(k, v) if k == CDP_VARIANT_ATTR => Some(v),
            _ => None,
        });
    match value {
        None => Flag::Missing,
        Some(v) => match parse_variant_flag(v) {
            Some(variant) => Flag::Variant(variant),
            None => Flag::Unreadable(v.to_string()),
        },
    }
}

/// The variant a call site settles on, and its own unreadable flag value
/// (for a warning), if any.
///
/// Order: the call's own readable flag; else its partner's (the buffer a
/// launch launches, or the one launch that consumes a buffer): its readable
/// flag, or the variant of the stub it was already rewritten to; else CDP-1
/// (spec 002 "Failure Modes": "Variant flag missing ... rewritten to CDP-1
/// by default"). Taking the partner's flag keeps a buffer and its launch on
/// one ABI when only one of the two calls is tagged.
pub(super) fn variant<M: IrView + ?Sized>(m: &M, s: &Site) -> (CdpVariant, Option<String>) {
    let unreadable = match own_flag(m, s.call) {
        Flag::Variant(v) => return (v, None),
        Flag::Missing => None,
        Flag::Unreadable(text) => Some(text),
    };
    let partner = match s.kind {
        CdpEntryKind::Launch => buffer_of_launch(m, s),
        CdpEntryKind::ParameterBuffer => match launches_of_buffer(m, s.call).as_slice() {
            [one] => Some(*one),
            _ => None,
        },
    };
    let from_partner = partner.and_then(|p| match (own_flag(m, p.call), p.origin) {
        (Flag::Variant(v), _) => Some(v),
        (_, Origin::Stub(v)) => Some(v),
        _ => None,
    });
    (from_partner.unwrap_or_default(), unreadable)
}

/// The buffer allocation whose result a launch passes as its buffer
/// (through casts).
pub(super) fn buffer_of_launch<M: IrView + ?Sized>(m: &M, launch: &Site) -> Option<Site> {
    let buf = m.operand(launch.call, launch.buffer_operand()?)?;
    match m.value_kind(strip_casts(m, buf)) {
        ValueKind::Inst(i) => site(m, i).filter(|s| s.kind == CdpEntryKind::ParameterBuffer),
        _ => None,
    }
}

/// The launches (entry points or stubs) that pass the result of `buffer`,
/// directly or through cast instructions, as their buffer operand.
pub(super) fn launches_of_buffer<M: IrView + ?Sized>(m: &M, buffer: InstId) -> Vec<Site> {
    let mut out: Vec<Site> = Vec::new();
    let Some(result) = m.inst_result(buffer) else {
        return out;
    };
    let mut seen: HashSet<ValueId> = HashSet::new();
    let mut todo = alloc::vec![result];
    while let Some(v) = todo.pop() {
        if !seen.insert(v) {
            continue;
        }
        for u in m.inst_users(v) {
            if m.opcode(u).is_cast() {
                todo.extend(m.inst_result(u));
            } else if let Some(s) = site(m, u).filter(|s| s.kind == CdpEntryKind::Launch) {
                let is_buffer_use = s
                    .buffer_operand()
                    .and_then(|k| m.operand(u, k))
                    .is_some_and(|op| op == v);
                if is_buffer_use && !out.contains(&s) {
                    out.push(s);
                }
            }
        }
    }
    out
}

/// The child kernel a CDP call launches (or allocates a buffer for), when
/// it resolves to a function of this module: the kernel operand of
/// geometry-carrying calls; through the buffer for `cudaLaunchDeviceV2`;
/// through the one consuming launch for `cudaGetParameterBuffer`.
pub(super) fn child<M: IrView + ?Sized>(m: &M, s: &Site) -> Option<FuncId> {
    match s.layout {
        Layout::LaunchWithGeometry | Layout::BufferWithGeometry => {
            as_function(m, m.operand(s.call, KERNEL)?)
        }
        Layout::LaunchBufferOnly => {
            let buf = buffer_of_launch(m, s)?;
            (buf.layout == Layout::BufferWithGeometry)
                .then(|| as_function(m, m.operand(buf.call, KERNEL)?))
                .flatten()
        }
        Layout::LegacyBuffer => match launches_of_buffer(m, s.call).as_slice() {
            [one] if one.layout == Layout::LaunchWithGeometry => child(m, one),
            _ => None,
        },
    }
}

/// Named metadata listing legacy kernel marks, `!{ptr @f, !"kernel", i32 1}`.
pub(super) const NVVM_ANNOTATIONS: &str = "nvvm.annotations";

/// The kernels of a module: spec 002's predicate
/// ([`is_kernel_function`]) or a legacy `!nvvm.annotations` kernel mark.
///
/// Clang 19 marks CUDA kernels only with `!nvvm.annotations`
/// (`!{ptr @k, !"kernel", i32 1}`); spec 002's criterion 3 covers such
/// kernels only after KernelAttrTransplanter has stamped
/// `nvvm.annotations_transplanted`. The pipeline order puts that pass
/// before CDP expansion, but a CDP pass run on its own must not reject a
/// clang kernel, so a function with a legacy mark counts as a kernel too:
/// exactly the set the transplanter would stamp.
///
/// The marks are read only when a child fails the predicate: after
/// KernelAttrTransplanter every kernel passes it, and reading every mark
/// of a module with 11,296 kernels (one value record each, scattered over
/// the module) took 2.2 ms.
pub(super) struct Kernels {
    annotated: OnceCell<HashSet<FuncId>>,
}

impl Kernels {
    /// Kernel identity, with no mark read yet.
    pub(super) fn new() -> Kernels {
        Kernels {
            annotated: OnceCell::new(),
        }
    }

    /// The functions `!nvvm.annotations` marks as kernels.
    fn read_marks<M: IrView + ?Sized>(m: &M) -> HashSet<FuncId> {
        let mut annotated = HashSet::new();
        for node in m.named_md(NVVM_ANNOTATIONS) {
            let ops: Vec<MdOperand<'_>> = m.md_operands(node).collect();
            // Operands come in (key, value) pairs after the function.
            let Some(MdOperand::Value(fv)) = ops.first() else {
                continue;
            };
            let Some(f) = as_function(m, *fv) else {
                continue;
            };
            let marked = ops[1..].chunks(2).any(|kv| match kv {
                [MdOperand::String("kernel"), MdOperand::Value(v)] => m.const_int(*v) == Some(1),
                _ => false,
            });
            if marked {
                annotated.insert(f);
            }
        }
        annotated
    }

    /// Whether `f` is a kernel. `m` must be the module of every earlier
    /// call (the marks are read once, on the first function that fails the
    /// predicate).
    pub(super) fn is_kernel<M: IrView + ?Sized>(&self, m: &M, f: FuncId) -> bool {
        is_kernel_function(m, f)
            || self
                .annotated
                .get_or_init(|| Self::read_marks(m))
                .contains(&f)
    }
}

/// A CDP call whose child is a function but not a kernel.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(super) struct BadTarget {
    /// The offending call.
    pub call: InstId,
    /// The function containing it.
    pub caller: FuncId,
    /// The launched non-kernel.
    pub callee: FuncId,
}

/// Spec 002 "Matching Predicate", second clause, over every entry-point
/// call of `sites`: the launched child must be a kernel. Each bad launch is
/// reported once: at the launch; at a `cudaGetParameterBufferV2` only when
/// no launch consumes it. Children that do not resolve to a function
/// (a kernel pointer loaded from memory) are not checked, as in the spec's
/// `if (child && !isKernelFunction(child))`.
pub(super) fn bad_targets<M: IrView + ?Sized>(
    m: &M,
    sites: &[Site],
    kernels: &Kernels,
) -> Vec<BadTarget> {
    let mut out = Vec::new();
    for s in sites.iter().filter(|s| s.origin == Origin::Entry) {
        let report = match s.layout {
            Layout::LaunchWithGeometry | Layout::LaunchBufferOnly => true,
            Layout::BufferWithGeometry => launches_of_buffer(m, s.call).is_empty(),
            Layout::LegacyBuffer => false,
        };
        if !report {
            continue;
        }
        if let Some(callee) = child(m, s).filter(|&c| !kernels.is_kernel(m, c)) {
            out.push(BadTarget {
                call: s.call,
                caller: m.inst_func(s.call),
                callee,
            });
        }
    }
    out
}
