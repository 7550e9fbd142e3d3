//! `kernel-attr-transplant` (KernelAttrTransplanter): migrate legacy
//! `!nvvm.annotations` to function and parameter attributes.
//!
//! Spec 002, "Pass Registration Table" (KernelAttrTransplanter: "move kernel
//! attrs to nvvm.* form") and "Kernel Identity", criterion 3: the pass "walks
//! the legacy !nvvm.annotations metadata list, copies each kernel mark to the
//! modern attribute form, then stamps the source function with
//! nvvm.annotations_transplanted".
//!
//! # What it does
//! For every well-formed entry `!{ptr @f, !"key", value, ...}` of
//! `!nvvm.annotations` whose target is a function, each key below becomes an
//! attribute. The attribute names and value formats are the ones LLVM 20+
//! uses for the same annotations (`llvm/lib/IR/AutoUpgrade.cpp`,
//! `upgradeSingleNVVMAnnotation`, read by the NVPTX back end from LLVM 20 on):
//!
//! | annotation key | attribute |
//! |---|---|
//! | `kernel` (non-zero) | `"nvvm.kernel"` (spec criterion 2); `kernel` = 0 is consumed and stamps nothing |
//! | `maxntidx`/`y`/`z` | `"nvvm.maxntid"="x[,y[,z]]"` |
//! | `reqntidx`/`y`/`z` | `"nvvm.reqntid"="x[,y[,z]]"` |
//! | `cluster_dim_x`/`y`/`z` | `"nvvm.cluster_dim"="x[,y[,z]]"` |
//! | `minctasm` | `"nvvm.minctasm"="n"` |
//! | `maxnreg` | `"nvvm.maxnreg"="n"` |
//! | `maxclusterrank`, `cluster_max_blocks` | `"nvvm.maxclusterrank"="n"` |
//! | `grid_constant` (`!{i32 i, ...}`, 1-based) | parameter attribute `"nvvm.grid_constant"` on parameter i-1 |
//!
//! The three-dimensional attributes merge as LLVM does: the existing value
//! is split at commas, the given dimension is set, missing lower dimensions
//! read `1`, and the list is as long as the highest dimension given
//! (`maxntidx=64` and `maxntidy=2` give `"64,2"`).
//!
//! Every function whose entries carried a non-zero kernel mark is then
//! stamped `"nvvm.annotations_transplanted"`. Only kernels are stamped:
//! criterion 3 makes any function with the marker a kernel, so stamping a
//! device function that merely had `maxnreg` would turn it into one.
//! Functions already stamped when the pass starts are skipped entirely (the
//! spec's "transplanted-and-already-modernized" state), which with the
//! deterministic merge makes the pass idempotent.
//!
//! # What happens to the metadata
//! By default it is **kept**. llc-19 (and every LLVM before 20) reads only
//! `!nvvm.annotations`: without the `kernel` entry a kernel is emitted as
//! `.func` instead of `.entry`, and without `maxntidx` etc. its `.maxntid` /
//! `.reqntid` / `.minnctapersm` / `.maxnreg` directives disappear (checked
//! with llc-19: `"nvvm.kernel"` and `"nvvm.maxntid"` attributes alone give
//! `.visible .func` and no directive). Keeping the metadata keeps llc-19
//! output byte-identical while later nvpass passes read the attributes.
//!
//! With `--kernel-attr-transplant-strip=true` the consumed key/value pairs
//! are removed (an entry left with no pairs is removed; an emptied
//! `!nvvm.annotations` is deleted), as LLVM 20's auto-upgrade does, and each
//! migrated kernel also gets the `ptx_kernel` calling convention so that
//! llc-19 still emits `.entry` for it. In that mode llc-19 loses the launch
//! bound directives (LLVM >= 20 reads them from the attributes).
//!
//! # Not migrated (entry kept as it is)
//! - Entries whose target is a global variable (`texture`, `surface`,
//!   `managed`, `sampler`): globals have no attribute form in LLVM (20+
//!   still reads these from metadata) nor in the nvpass traits.
//! - Keys without an attribute form (`align`, `rdc`, unknown keys), and
//!   pairs whose value is not an integer constant (or, for `grid_constant`,
//!   not a node of integer constants).
//!
//! # Knobs
//! - `--kernel-attr-transplant-strip` (bool, default `false`): remove the
//!   consumed metadata, see above.
//!
//! # Diagnostics
//! - `Passed` remark `Transplanted` per function:
//!   `transplanted N annotation(s) of 'f' to attributes`.
//! - `Missed` remark `NotTransplanted` per kept pair:
//!   `annotation 'key' of 'name' has no attribute form; kept in !nvvm.annotations`.
//! - Warning `MalformedAnnotation` per entry that is not
//!   `!{<value>, !"key", value, ...}`; the entry is kept.
//! - Statistics `NumAnnotationsTransplanted`, `NumKernelsTransplanted`.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

use hashbrown::hash_map::Entry;
use hashbrown::{HashMap, HashSet};
use nvpass_core::diag::RemarkKind;
use nvpass_core::ir::{
    Attr, AttrSlot, CallConv, FuncId, IrEdit, IrView, MdId, MdOperand, ValueKind,
};
use nvpass_core::kernel::{
    nvvm_annotations, NvvmAnnotation, NVVM_ANNOTATIONS, NVVM_ANNOTATIONS_TRANSPLANTED_ATTR,
    NVVM_KERNEL_ATTR,
};
use nvpass_core::knob::{KnobInfo, KnobKind};
use nvpass_core::names;
use nvpass_core::pass::{
    AnyPass, ModulePass, PassContext, PassFailure, PassInfo, PassOptions, PreservedOrChanged,
};
use nvpass_core::stats::StatInfo;

/// Remove consumed `!nvvm.annotations` pairs and give migrated kernels the
/// `ptx_kernel` convention (see module docs, "What happens to the metadata").
pub const STRIP: KnobInfo = KnobInfo {
    name: "kernel-attr-transplant-strip",
    kind: KnobKind::Bool,
    default: "false",
    description: "remove migrated !nvvm.annotations pairs (kernels get ptx_kernel cc)",
};

/// Registry entry of `kernel-attr-transplant`.
pub const INFO: PassInfo = PassInfo {
    name: "kernel-attr-transplant",
    class_name: names::KERNEL_ATTR_TRANSPLANTER,
    description: "move !nvvm.annotations kernel attributes to nvvm.* attribute form",
    knobs: &[STRIP],
    options: &[],
};

/// Key/value pairs migrated.
pub const NUM_ANNOTATIONS: StatInfo = StatInfo {
    name: "NumAnnotationsTransplanted",
    description: "Number of !nvvm.annotations pairs migrated to attributes",
};

/// Kernels stamped `nvvm.annotations_transplanted`.
pub const NUM_KERNELS: StatInfo = StatInfo {
    name: "NumKernelsTransplanted",
    description: "Number of kernels stamped nvvm.annotations_transplanted",
};

/// LLVM 20+ attribute names of the migrated annotations (module docs table).
pub mod attr_names {
    /// `maxntid{x,y,z}`.
    pub const MAXNTID: &str = "nvvm.maxntid";
    /// `reqntid{x,y,z}`.
    pub const REQNTID: &str = "nvvm.reqntid";
    /// `cluster_dim_{x,y,z}`.
    pub const CLUSTER_DIM: &str = "nvvm.cluster_dim";
    /// `minctasm`.
    pub const MINCTASM: &str = "nvvm.minctasm";
    /// `maxnreg`.
    pub const MAXNREG: &str = "nvvm.maxnreg";
    /// `maxclusterrank` / `cluster_max_blocks`.
    pub const MAXCLUSTERRANK: &str = "nvvm.maxclusterrank";
    /// `grid_constant` (parameter attribute).
    pub const GRID_CONSTANT: &str = "nvvm.grid_constant";
}

/// The pass. Stateless.
#[derive(Copy, Clone, Default, Debug)]
pub struct KernelAttrTransplanter;

/// One attribute edit derived from an annotation pair.
enum Edit {
    /// A kernel mark (`true` if non-zero).
    Kernel(bool),
    /// Set dimension `dim` (0..3) of three-vector attribute `attr`.
    Dim(&'static str, usize, u64),
    /// Set scalar attribute `attr`.
    Scalar(&'static str, u64),
    /// `"nvvm.grid_constant"` on these 0-based parameters.
    GridConstant(Vec<u32>),
}

/// The edit a `(key, value)` pair asks for; `None` if it has no attribute
/// form or its value does not fit.
fn classify<M: IrView + ?Sized>(
    ir: &M,
    f: FuncId,
    key: &str,
    value: MdOperand<'_>,
) -> Option<Edit> {
    let int = |v: MdOperand<'_>| match v {
        MdOperand::Value(v) => ir.const_uint(v).and_then(|x| u64::try_from(x).ok()),
        _ => None,
    };
    let dim = |rest: &str| ["x", "y", "z"].iter().position(|d| *d == rest);
    if key == "kernel" {
        return int(value).map(|v| Edit::Kernel(v != 0));
    }
    for (prefix, attr) in [
        ("maxntid", attr_names::MAXNTID),
        ("reqntid", attr_names::REQNTID),
        ("cluster_dim_", attr_names::CLUSTER_DIM),
    ] {
        if let Some(d) = key.strip_prefix(prefix).and_then(dim) {
            return int(value).map(|v| Edit::Dim(attr, d, v));
        }
    }
    let scalar = match key {
        "minctasm" => attr_names::MINCTASM,
        "maxnreg" => attr_names::MAXNREG,
        "maxclusterrank" | "cluster_max_blocks" => attr_names::MAXCLUSTERRANK,
        "grid_constant" => {
            let MdOperand::Node(node) = value else {
                return None;
            };
            let n = ir.num_params(f) as u64;
            let mut params = Vec::new();
            for op in ir.md_operands(node) {
                let i = int(op)?;
                if i == 0 || i > n {
                    return None;
                }
                params.push((i - 1) as u32);
            }
            return Some(Edit::GridConstant(params));
        }
        _ => return None,
    };
    int(value).map(|v| Edit::Scalar(scalar, v))
}

/// LLVM's `upgradeNVVMFnVectorAttr` merge: existing `"x[,y[,z]]"` with
/// dimension `dim` set to `value`.
fn merge_dims(existing: Option<&str>, dim: usize, value: u64) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut rest = existing.unwrap_or("");
    while parts.len() < 3 && !rest.is_empty() {
        let (part, tail) = rest.split_once(',').unwrap_or((rest, ""));
        parts.push(part.trim().to_string());
        rest = tail;
    }
    while parts.len() <= dim {
        parts.push("1".to_string());
    }
    parts[dim] = value.to_string();
    parts.join(",")
}

/// A metadata operand that outlives the borrow of the module.
enum OwnedOp {
    Str(String),
    Other(MdOperand<'static>),
}

impl OwnedOp {
    fn from(op: MdOperand<'_>) -> OwnedOp {
        match op {
            MdOperand::String(s) => OwnedOp::Str(s.to_string()),
            MdOperand::Node(n) => OwnedOp::Other(MdOperand::Node(n)),
            MdOperand::Value(v) => OwnedOp::Other(MdOperand::Value(v)),
            MdOperand::Null => OwnedOp::Other(MdOperand::Null),
            MdOperand::Other => OwnedOp::Other(MdOperand::Other),
        }
    }

    fn as_op(&self) -> MdOperand<'_> {
        match self {
            OwnedOp::Str(s) => MdOperand::String(s),
            OwnedOp::Other(op) => *op,
        }
    }
}

/// One operand of the rebuilt `!nvvm.annotations` in strip mode.
enum NewEntry {
    /// Unchanged entry.
    Keep(MdId),
    /// Entry rebuilt from its target and its kept pairs.
    Rebuild(MdId, Vec<OwnedOp>),
}

/// A kept entry to rebuild in strip mode: target and remaining pairs.
struct Rebuild {
    node: MdId,
    kept: Vec<usize>,
}

impl<M: IrEdit + ?Sized> ModulePass<M> for KernelAttrTransplanter {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(
        &mut self,
        m: &mut M,
        cx: &mut PassContext<'_>,
    ) -> Result<PreservedOrChanged, PassFailure> {
        let strip = cx.knob_bool(&STRIP);
        let already: HashSet<FuncId> = m
            .funcs()
            .filter(|&f| {
                m.str_attr(f, AttrSlot::Function, NVVM_ANNOTATIONS_TRANSPLANTED_ATTR)
                    .is_some()
            })
            .collect();

        // Phase 1 (read): decide every edit.
        let mut edits: Vec<(FuncId, Edit)> = Vec::new();
        let mut rebuilds: Vec<Rebuild> = Vec::new();
        let mut diags = Vec::new();
        let mut per_func: Vec<(FuncId, u64)> = Vec::new();
        // Position of each function in `per_func` (first-seen order is kept).
        let mut per_func_index: HashMap<FuncId, usize> = HashMap::new();
        let entries: Vec<(MdId, Option<NvvmAnnotation<'_>>)> = nvvm_annotations(&*m).collect();
        for (node, entry) in &entries {
            let Some(entry) = entry else {
                diags.push(
                    cx.warning("MalformedAnnotation")
                        .text(format!(
                            "malformed !{NVVM_ANNOTATIONS} entry {node} (expected !{{<value>, !\"key\", value, ...}}); kept"
                        )),
                );
                continue;
            };
            let target_name = match m.value_kind(entry.target) {
                ValueKind::Function(f) => String::from(m.func_name(f)),
                ValueKind::Global(g) => String::from(m.global_name(g)),
                _ => String::from("<value>"),
            };
            let f = entry.target_func(&*m);
            if f.is_some_and(|f| already.contains(&f)) {
                continue;
            }
            let mut kept = Vec::new();
            let mut consumed = 0u64;
            for (i, &(key, value)) in entry.props.iter().enumerate() {
                match f.and_then(|f| classify(&*m, f, key, value).map(|e| (f, e))) {
                    Some(fe) => {
                        edits.push(fe);
                        consumed += 1;
                    }
                    None => {
                        kept.push(i);
                        let mut d = cx
                            .remark(RemarkKind::Missed, "NotTransplanted")
                            .text("annotation '")
                            .arg("Key", key.to_string())
                            .text("' of '")
                            .arg("Target", target_name.clone())
                            .text(format!(
                                "' has no attribute form; kept in !{NVVM_ANNOTATIONS}"
                            ));
                        if f.is_some() {
                            d = d.in_function(target_name.clone());
                        }
                        diags.push(d);
                    }
                }
            }
            if let (Some(f), true) = (f, consumed > 0) {
                match per_func_index.entry(f) {
                    Entry::Occupied(e) => per_func[*e.get()].1 += consumed,
                    Entry::Vacant(e) => {
                        e.insert(per_func.len());
                        per_func.push((f, consumed));
                    }
                }
                if strip {
                    rebuilds.push(Rebuild { node: *node, kept });
                }
            }
        }

        // Strip mode: the new operand list of !nvvm.annotations, as owned
        // data (the reads borrow `m`).
        let mut new_list: Option<Vec<NewEntry>> = None;
        if strip && !rebuilds.is_empty() {
            let mut list = Vec::new();
            let by_node: HashMap<MdId, &Rebuild> = rebuilds.iter().map(|r| (r.node, r)).collect();
            for (node, _) in &entries {
                match by_node.get(node).copied() {
                    None => list.push(NewEntry::Keep(*node)),
                    Some(r) if r.kept.is_empty() => {}
                    Some(r) => {
                        let ops: Vec<MdOperand<'_>> = m.md_operands(*node).collect();
                        let mut owned = vec![OwnedOp::from(ops[0])];
                        for &i in &r.kept {
                            owned.push(OwnedOp::from(ops[1 + 2 * i]));
                            owned.push(OwnedOp::from(ops[2 + 2 * i]));
                        }
                        list.push(NewEntry::Rebuild(*node, owned));
                    }
                }
            }
            new_list = Some(list);
        }
        drop(entries);
        for d in diags {
            cx.emit(d);
        }

        // Phase 2 (write): apply the edits in entry order.
        let mut kernels: Vec<FuncId> = Vec::new();
        let mut kernel_set: HashSet<FuncId> = HashSet::new();
        for (f, edit) in &edits {
            let f = *f;
            match edit {
                Edit::Kernel(true) => {
                    m.add_attr(f, AttrSlot::Function, Attr::Str(NVVM_KERNEL_ATTR, ""));
                    if kernel_set.insert(f) {
                        kernels.push(f);
                    }
                }
                Edit::Kernel(false) => {}
                Edit::Dim(attr, dim, v) => {
                    let merged = merge_dims(m.str_attr(f, AttrSlot::Function, attr), *dim, *v);
                    m.add_attr(f, AttrSlot::Function, Attr::Str(attr, &merged));
                }
                Edit::Scalar(attr, v) => {
                    let v = v.to_string();
                    m.add_attr(f, AttrSlot::Function, Attr::Str(attr, &v));
                }
                Edit::GridConstant(params) => {
                    for &p in params {
                        m.add_attr(
                            f,
                            AttrSlot::Param(p),
                            Attr::Str(attr_names::GRID_CONSTANT, ""),
                        );
                    }
                }
            }
        }
        for &f in &kernels {
            m.add_attr(
                f,
                AttrSlot::Function,
                Attr::Str(NVVM_ANNOTATIONS_TRANSPLANTED_ATTR, ""),
            );
            if strip {
                m.set_call_conv(f, CallConv::PtxKernel);
            }
        }
        if let Some(list) = new_list {
            let mut ops = Vec::new();
            for item in list {
                match item {
                    NewEntry::Keep(node) => ops.push(node),
                    NewEntry::Rebuild(node, owned) => {
                        let md_ops: Vec<MdOperand<'_>> = owned.iter().map(OwnedOp::as_op).collect();
                        let distinct = m.md_is_distinct(node);
                        ops.push(m.create_md_node(&md_ops, distinct).unwrap_or(node));
                    }
                }
            }
            m.set_named_md(NVVM_ANNOTATIONS, &ops);
        }

        let mut total = 0;
        for &(f, n) in &per_func {
            total += n;
            if !cx.remarks_enabled() {
                continue;
            }
            let name = String::from(m.func_name(f));
            let d = cx
                .remark(RemarkKind::Passed, "Transplanted")
                .in_function(name.clone())
                .text("transplanted ")
                .arg("NumAnnotations", n.to_string())
                .text(" annotation(s) of '")
                .arg("Function", name)
                .text("' to attributes");
            cx.emit(d);
        }
        cx.add_stat(&NUM_ANNOTATIONS, total);
        cx.add_stat(&NUM_KERNELS, kernels.len() as u64);
        Ok(PreservedOrChanged::from_changed(
            total > 0 || !kernels.is_empty(),
        ))
    }
}

/// Registry constructor.
pub fn ctor<M: IrEdit + ?Sized>(_: &PassOptions) -> Result<AnyPass<M>, String> {
    Ok(AnyPass::Transform(Box::new(KernelAttrTransplanter)))
}

#[cfg(test)]
mod tests {
    use super::merge_dims;

    #[test]
    fn merge_like_llvm() {
        assert_eq!(merge_dims(None, 0, 64), "64");
        assert_eq!(merge_dims(Some("64"), 1, 2), "64,2");
        assert_eq!(merge_dims(None, 2, 4), "1,1,4");
        assert_eq!(merge_dims(Some("64,2"), 0, 32), "32,2");
        assert_eq!(merge_dims(Some("1, 2 ,3"), 1, 5), "1,5,3");
    }
}
