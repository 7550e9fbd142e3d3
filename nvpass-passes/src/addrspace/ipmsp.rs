//! `ipmsp` (`IPMSPPass`): address-space callee specialization.
//!
//! Spec 000 "Address-Space Specialization" / "Specialization Algorithm" /
//! "Call-Site Retargeting" and spec 003 "Address-Space Vote Lattice".
//!
//! # What it does
//!
//! Helpers that take generic `ptr` parameters are specialized for the
//! concrete address spaces their callers pass:
//!
//! 1. Candidates ([`is_candidate`], spec 000 `specialization_candidate`):
//!    defined, not a kernel, not `optnone`/`noinline`/`naked`, not already
//!    specialized (carrying [`NVVM_AS_ATTR`]), with at least one generic
//!    pointer parameter. Functions with interposable linkage (`weak`,
//!    `linkonce`) are also skipped: their body may be replaced at link time.
//!    They seed a worklist in module order.
//! 2. Votes: for each generic pointer parameter, every direct `call` site
//!    contributes the provenance of its argument (the shared classifier in
//!    [`super::provenance`], run on the caller); an unclassifiable argument
//!    poisons the slot (spec 003 `meet_address_vote`). Other uses of the
//!    function (address taken, `invoke`) are not call sites.
//! 3. If some slot is concrete, the target is the function itself when it is
//!    `internal`/`private` and every use is a call site (in-place rewrite),
//!    otherwise a private clone named `<name>.<space>...` (one word per
//!    generic pointer parameter: `global`, `shared`, `const`, `local`,
//!    `tensor`, `dist_shared`, `generic`), made `internal` and
//!    `alwaysinline`. Cloning is charged to the budget (below).
//! 4. The target's concrete parameters get `ptr addrspace(N)` types; inside
//!    the body one `addrspacecast` back to `ptr` keeps the code valid (and
//!    `memspace-opt` later retags the chains it feeds).
//! 5. Return space (spec 000 "Return values are resolved through the same
//!    lattice"): if the target returns a generic pointer and every `ret`
//!    operand has one concrete provenance, the return type becomes
//!    `ptr addrspace(N)`.
//! 6. Matching call sites are retargeted: a replacement call with converted
//!    operands is built before the old call (a constant-expression
//!    `addrspacecast (ptr addrspace(3) @g to ptr)` operand becomes `@g`),
//!    uses of the old result are rewired (through a cast back to `ptr` when
//!    the return space was resolved), and the old call is erased. Call-site
//!    attributes and `!dbg` are copied.
//! 7. An original that is discardable when unused (`linkonce_odr`,
//!    `internal`, ...) and lost its last use is deleted: it is dead, and its
//!    generic calls would otherwise keep poisoning its callees' votes.
//! 8. Affected functions are re-enqueued, in the order they are found:
//!    the callers of the specialized function (spec 000), the candidate
//!    callees of the target, whose arguments just became concrete (this is
//!    what specializes `chain_outer -> chain_inner` chains; the transcript
//!    calls them "callees are affected"), and, when a retargeted call's
//!    return space was resolved, the callees its result reaches in the
//!    caller (`callees_reached`). Spec 000 re-enqueues callers only; a
//!    helper popped before the call whose result it receives was
//!    retargeted would then keep its generic parameter until the pass ran
//!    again, and the pass is meant to reach a fixed point in one run.
//!
//! # Budget and cap
//!
//! [`DO_CLONE_FOR_IP_MSP`] (`--do-clone-for-ip-msp`, or the pipeline option
//! `ipmsp<clone-budget=N>` which wins when given): -1 unlimited (default), 0
//! no clones (in-place rewrites still happen), N at most N clone *attempts*
//! (spec 003: attempt-based). A suppressed clone prints `avoid cloning of`.
//! Reusing an existing clone for the same vote vector is not an attempt.
//!
//! The provenance driver runs with [`K_BUDGET_CAP`]:
//! when a function's analysis visits one block more than 1024 times the
//! function is left unchanged: it is not specialized, and its call sites
//! count as unclassifiable.
//!
//! Each caller's analysis is kept until a change can make it stale. A
//! retargeted call site changes its caller by typed casts of the arguments
//! (no generic pointer reads them) and by the new call, so the caller is
//! analyzed again only when the replaced call returned a generic pointer:
//! no other generic value's element depends on the call, and a stack slot
//! whose address reaches the call escapes before and after. A module where
//! one kernel calls 20,000 helpers would otherwise be analyzed 20,000
//! times.
//!
//! # `nvvm.as`
//!
//! Every target gets the function attribute [`NVVM_AS_ATTR`] whose value
//! lists, for each pointer parameter in order, spec 003's vote: 1/3/4/5/6/7
//! for a concrete space, 1000 (UNDET) for no observation, 2000 (POISON) for
//! a conflict, comma-separated (`"nvvm.as"="1,2000"`). It is the textual
//! form of spec 003's `DenseI32ArrayAttr`; it also marks the function as
//! already specialized.
//!
//! # `--dump-ip-msp`
//!
//! With [`DUMP_IP_MSP`] the pass emits notes built from spec 003's verbatim
//! strings ([`DUMP_INITIAL`], [`DUMP_ARGS_CHANGED`], [`DUMP_ARGS_SUFFIX`],
//! [`DUMP_CLONED`], [`DUMP_AVOID`], [`DUMP_AFFECTED`], [`DUMP_RETURN`]):
//!
//! ```text
//! Initial work list size : 3
//! avoid cloning of helper
//! helper is cloned
//! helper.global : changed in argument memory space (1 arguments)
//! helper.global : return memory space is resolved : 1
//! 2 callees are affected
//! ```
//!
//! # `split-conflicts` (beyond the spec)
//!
//! Spec 003 folds all call sites into one vote per argument, so a helper
//! called with shared memory here and global memory there is poisoned. The
//! option `ipmsp<split-conflicts>` instead groups call sites by their own
//! vote vector (concrete space, or generic where the site's argument is
//! unclassifiable) and makes one clone per distinct vector with at least one
//! concrete entry, charged to the same budget. Call sites with no concrete
//! argument keep calling the original. Off by default (the spec's
//! behaviour).

use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use hashbrown::{HashMap, HashSet};
use nvpass_core::addrspace::{AsLattice, ConcreteSpace};
use nvpass_core::diag::{Diagnostic, Severity};
use nvpass_core::ir::{
    Attr, AttrKey, AttrKind, AttrSlot, Callee, EditError, FuncId, InstId, IrEdit, IrView, Linkage,
    Opcode, TypeKind, ValueId, ValueKind,
};
use nvpass_core::kernel::KernelSet;
use nvpass_core::knob::{KnobInfo, KnobKind};
use nvpass_core::pass::{
    AnyPass, ModulePass, PassContext, PassFailure, PassInfo, PassOptions, PreservedOrChanged,
};
use nvpass_core::stats::StatInfo;

use super::provenance::{self, Provenance, ProvenanceOptions, K_BUDGET_CAP};
use super::rewrite::Converter;
use super::{call_sites, space_word, unique_name};
use crate::uses::direct_callees;

/// Function attribute publishing the inferred argument spaces.
///
/// Spec 003 "I08 Type Converter": installs a `"nvvm.as"` function attribute
/// with the inferred AS values.
pub const NVVM_AS_ATTR: &str = "nvvm.as";

/// Clone budget knob `DoCloneForIpMsp`: -1 unlimited (default), 0 none,
/// N attempts.
///
/// Spec 003 "Clone-budget DoCloneForIpMsp"; spec 000 "The clone budget has
/// three modes".
pub const DO_CLONE_FOR_IP_MSP: KnobInfo = KnobInfo {
    name: "do-clone-for-ip-msp",
    kind: KnobKind::Int,
    default: "-1",
    description: "Maximal number of callees specialized for a call base (-1 unlimited, 0 none)",
};

/// Transcript switch `DumpIpMsp`.
///
/// Spec 003 "Verbatim --dump-ip-msp transcript strings".
pub const DUMP_IP_MSP: KnobInfo = KnobInfo {
    name: "dump-ip-msp",
    kind: KnobKind::Bool,
    default: "false",
    description: "Print the IPMSP worklist transcript",
};

/// Pipeline option overriding [`DO_CLONE_FOR_IP_MSP`] for one pass instance
/// (`ipmsp<clone-budget=4>`).
///
/// Spec 003 "Clone-budget DoCloneForIpMsp" (same three modes).
pub const OPT_CLONE_BUDGET: KnobInfo = KnobInfo {
    name: "clone-budget",
    kind: KnobKind::Int,
    default: "-1",
    description: "Clone budget for this instance (overrides --do-clone-for-ip-msp)",
};

/// Pipeline flag `ipmsp<split-conflicts>`: one clone per distinct call-site
/// vote vector instead of poisoning conflicting arguments.
///
/// Not in the specs: issue 7 "Beyond the spec".
pub const OPT_SPLIT_CONFLICTS: KnobInfo = KnobInfo {
    name: "split-conflicts",
    kind: KnobKind::Bool,
    default: "false",
    description: "Clone once per distinct call-site vote vector instead of poisoning conflicts",
};

/// Transcript: seed size. Spec 003 verbatim string `Initial work list size :`.
pub const DUMP_INITIAL: &str = "Initial work list size :";
/// Transcript: resolved parameter slots, first part. Spec 003 verbatim
/// string ` : changed in argument memory space (`.
pub const DUMP_ARGS_CHANGED: &str = " : changed in argument memory space (";
/// Transcript: resolved parameter slots, last part. Spec 003 verbatim
/// string ` arguments)`.
pub const DUMP_ARGS_SUFFIX: &str = " arguments)";
/// Transcript: successful clone. Spec 003 verbatim string ` is cloned`.
pub const DUMP_CLONED: &str = " is cloned";
/// Transcript: budget-suppressed clone. Spec 003 verbatim string
/// `avoid cloning of`.
pub const DUMP_AVOID: &str = "avoid cloning of";
/// Transcript: re-enqueued functions. Spec 003 verbatim string
/// ` callees are affected`.
pub const DUMP_AFFECTED: &str = " callees are affected";
/// Transcript: resolved return space. Spec 003 verbatim string
/// ` : return memory space is resolved :`.
pub const DUMP_RETURN: &str = " : return memory space is resolved :";

/// Pass description.
pub const INFO: PassInfo = PassInfo {
    name: "ipmsp",
    class_name: "IPMSPPass",
    description: "Specialize generic-pointer callees for the address spaces their callers pass",
    knobs: &[DO_CLONE_FOR_IP_MSP, DUMP_IP_MSP],
    options: &[OPT_CLONE_BUDGET, OPT_SPLIT_CONFLICTS],
};

const NUM_CLONED: StatInfo = StatInfo {
    name: "NumCloned",
    description: "Number of specialized clones created",
};
const NUM_IN_PLACE: StatInfo = StatInfo {
    name: "NumRewrittenInPlace",
    description: "Number of functions specialized in place",
};
const NUM_RETARGETED: StatInfo = StatInfo {
    name: "NumCallsRetargeted",
    description: "Number of call sites retargeted to a specialized callee",
};

/// The pass; see the module docs.
#[derive(Clone, Debug, Default)]
pub struct Ipmsp {
    /// Clone budget from `ipmsp<clone-budget=N>`, overriding the knob.
    pub budget: Option<i64>,
    /// `ipmsp<split-conflicts>`.
    pub split_conflicts: bool,
}

/// Builds the pass from its pipeline options.
pub fn construct<M: IrEdit + ?Sized>(opts: &PassOptions) -> Result<AnyPass<M>, String> {
    Ok(AnyPass::Transform(Box::new(Ipmsp {
        budget: opts
            .values()
            .explicit(OPT_CLONE_BUDGET.name)
            .map(|_| opts.int(&OPT_CLONE_BUDGET)),
        split_conflicts: opts.bool(&OPT_SPLIT_CONFLICTS),
    })))
}

/// Whether parameter `k` of `f` is a generic pointer that may be
/// specialized: ABI pointers (`byval`, `byref`, `sret`, `inalloca`,
/// `preallocated`) keep their type, the NVPTX parameter ABI depends on it.
pub fn is_specializable_param<M: IrView + ?Sized>(ir: &M, f: FuncId, k: usize) -> bool {
    let Some(p) = ir.param(f, k) else {
        return false;
    };
    ir.type_kind(ir.value_type(p)) == TypeKind::Ptr(0)
        && ![
            AttrKind::ByVal,
            AttrKind::ByRef,
            AttrKind::StructRet,
            AttrKind::InAlloca,
            AttrKind::Preallocated,
        ]
        .into_iter()
        .any(|a| ir.has_attr(f, AttrSlot::Param(k as u32), AttrKey::Kind(a)))
}

/// Spec 000 `specialization_candidate` (see the module docs).
///
/// `kernels` is the module's kernel set, computed once per run.
pub fn is_candidate<M: IrView + ?Sized>(ir: &M, f: FuncId, kernels: &KernelSet) -> bool {
    let fa = |k| ir.has_attr(f, AttrSlot::Function, AttrKey::Kind(k));
    !ir.func_is_declaration(f)
        && !ir.func_name(f).starts_with("llvm.")
        && !kernels.contains(f)
        && !fa(AttrKind::OptNone)
        && !fa(AttrKind::NoInline)
        && !fa(AttrKind::Naked)
        && !ir.func_linkage(f).is_interposable()
        && !ir.has_attr(f, AttrSlot::Function, AttrKey::Str(NVVM_AS_ATTR))
        && (0..ir.num_params(f)).any(|k| is_specializable_param(ir, f, k))
}

/// One vote vector: per parameter, the concrete space to give it (`None`:
/// leave as is).
type Votes = Vec<Option<ConcreteSpace>>;

/// An attribute with owned strings, to copy attributes across edits.
enum OwnedAttr {
    Enum(AttrKind),
    Int(AttrKind, u64),
    Type(AttrKind, nvpass_core::ir::TypeId),
    Str(String, String),
    Unknown(String),
}

impl OwnedAttr {
    fn from(a: Attr<'_>) -> OwnedAttr {
        match a {
            Attr::Enum(k) => OwnedAttr::Enum(k),
            Attr::Int(k, v) => OwnedAttr::Int(k, v),
            Attr::Type(k, t) => OwnedAttr::Type(k, t),
            Attr::Str(k, v) => OwnedAttr::Str(k.to_string(), v.to_string()),
            Attr::Unknown(s) => OwnedAttr::Unknown(s.to_string()),
        }
    }
    fn get(&self) -> Attr<'_> {
        match self {
            OwnedAttr::Enum(k) => Attr::Enum(*k),
            OwnedAttr::Int(k, v) => Attr::Int(*k, *v),
            OwnedAttr::Type(k, t) => Attr::Type(*k, *t),
            OwnedAttr::Str(k, v) => Attr::Str(k, v),
            OwnedAttr::Unknown(s) => Attr::Unknown(s),
        }
    }
}

struct Run<'c, 'a> {
    cx: &'c mut PassContext<'a>,
    dump: bool,
    budget: i64,
    attempts: i64,
    prov: HashMap<FuncId, Option<Provenance>>,
    /// The module's kernels, computed once: clones are never kernels.
    kernels: KernelSet,
    clones: HashMap<(FuncId, Votes), FuncId>,
    changed: bool,
}

impl Run<'_, '_> {
    fn note(&mut self, text: String) {
        if self.dump {
            let d = Diagnostic::new(Severity::Note, INFO.name, "DumpIpMsp").text(text);
            self.cx.emit(d);
        }
    }

    fn provenance<M: IrView + ?Sized>(&mut self, ir: &M, f: FuncId) -> Option<&Provenance> {
        self.prov
            .entry(f)
            .or_insert_with(|| {
                let opts = ProvenanceOptions {
                    budget_cap: Some(K_BUDGET_CAP),
                    conservative: false,
                };
                provenance::analyze_in(ir, f, opts, &self.kernels).ok()
            })
            .as_ref()
    }

    /// The per-site element of each generic pointer parameter (`None` for
    /// other parameters).
    fn site_votes<M: IrView + ?Sized>(
        &mut self,
        ir: &M,
        f: FuncId,
        site: InstId,
    ) -> Vec<Option<AsLattice>> {
        let generic: Vec<bool> = (0..ir.num_params(f))
            .map(|k| is_specializable_param(ir, f, k))
            .collect();
        let args: Vec<ValueId> = ir.call_args(site).collect();
        let caller = ir.inst_func(site);
        let prov = self.provenance(ir, caller);
        generic
            .iter()
            .enumerate()
            .map(|(k, &g)| {
                g.then(|| {
                    let l = match (prov, args.get(k)) {
                        (Some(p), Some(&a)) => p.of(ir, a),
                        _ => AsLattice::Top,
                    };
                    // Spec 003: a failed classification poisons the slot;
                    // only a concrete answer is a valid observation.
                    match l {
                        AsLattice::Known(_) => l,
                        _ => AsLattice::Top,
                    }
                })
            })
            .collect()
    }
}

fn concrete(v: &[Option<AsLattice>]) -> Votes {
    v.iter()
        .map(|l| match l {
            Some(AsLattice::Known(s)) => Some(*s),
            _ => None,
        })
        .collect()
}

fn as_attr_value(votes: &[Option<AsLattice>]) -> String {
    let mut s = String::new();
    for l in votes.iter().flatten() {
        if !s.is_empty() {
            s.push(',');
        }
        s.push_str(&l.to_vote().to_string());
    }
    s
}

fn edit_err(e: EditError) -> PassFailure {
    PassFailure::new(format!("ipmsp: {e}"))
}

/// Gives parameter `k` of `f` the type `ptr addrspace(n)`, keeping the body
/// valid through one cast back to `ptr` at the entry.
fn retype_param<M: IrEdit + ?Sized>(
    ir: &mut M,
    f: FuncId,
    k: usize,
    n: u32,
) -> Result<(), EditError> {
    let p = ir.param(f, k).ok_or(EditError::OutOfRange)?;
    let mut uses: Vec<(InstId, usize)> = Vec::new();
    for u in ir.inst_users(p) {
        for (idx, o) in ir.operands(u).enumerate() {
            if o == p && !uses.contains(&(u, idx)) {
                uses.push((u, idx));
            }
        }
    }
    let ty = ir.ptr_type(n);
    ir.set_param_type(f, k, ty)?;
    if uses.is_empty() {
        return Ok(());
    }
    let at = super::rewrite::after_def(ir, p).ok_or(EditError::Unsupported("empty entry"))?;
    let generic = ir.ptr_type(0);
    let back = ir.build_cast(at, Opcode::AddrSpaceCast, p, generic)?;
    for (u, idx) in uses {
        ir.set_pointer_operand(u, idx, back)?;
    }
    Ok(())
}

/// Spec 000 `resolve_return_address_space`: the concrete space of every
/// `ret` operand, if they agree; the return type is then narrowed.
fn resolve_return<M: IrEdit + ?Sized>(
    ir: &mut M,
    f: FuncId,
    kernels: &KernelSet,
) -> Result<Option<ConcreteSpace>, EditError> {
    if ir.type_kind(ir.ret_type(f)) != TypeKind::Ptr(0) {
        return Ok(None);
    }
    let opts = ProvenanceOptions {
        budget_cap: Some(K_BUDGET_CAP),
        conservative: false,
    };
    let Ok(prov) = provenance::analyze_in(ir, f, opts, kernels) else {
        return Ok(None);
    };
    let mut rets = Vec::new();
    let mut acc = AsLattice::Bottom;
    for b in ir.blocks(f).collect::<Vec<_>>() {
        for i in ir.insts(b) {
            if ir.opcode(i) == Opcode::Ret {
                if let Some(v) = ir.operand(i, 0) {
                    acc = acc.meet(prov.of(ir, v));
                    rets.push((i, v));
                }
            }
        }
    }
    let AsLattice::Known(s) = acc else {
        return Ok(None);
    };
    let n = s.addr_space().0;
    let mut conv = Converter::default();
    let mut new_ops = Vec::new();
    for &(i, v) in &rets {
        new_ops.push((i, conv.view_in(ir, v, n, i)?));
    }
    let ty = ir.ptr_type(n);
    ir.set_ret_type(f, ty)?;
    for (i, nv) in new_ops {
        ir.set_pointer_operand(i, 0, nv)?;
    }
    Ok(Some(s))
}

/// Spec 000 "Call-Site Retargeting": replaces call `call` by a call of
/// `target` with operands converted to `votes`. `conv` is shared by the
/// call sites retargeted together, so that an argument passed at many of
/// them (a kernel's pointer parameter handed to one helper at every call)
/// has its cast looked up once, not once per call among all its users.
/// Returns the cast back to `ptr` that now stands for the old result when
/// `target`'s return space was resolved.
fn retarget<M: IrEdit + ?Sized>(
    ir: &mut M,
    conv: &mut Converter,
    call: InstId,
    target: FuncId,
    votes: &Votes,
) -> Result<Option<ValueId>, EditError> {
    let args: Vec<ValueId> = ir.call_args(call).collect();
    let mut new_args = Vec::with_capacity(args.len());
    for (k, &a) in args.iter().enumerate() {
        let v = match votes.get(k).copied().flatten() {
            Some(s) => conv.view_in(ir, a, s.addr_space().0, call)?,
            None => a,
        };
        new_args.push(v);
    }
    let mut attrs: Vec<(AttrSlot, OwnedAttr)> = Vec::new();
    let slots = [AttrSlot::Function, AttrSlot::Return]
        .into_iter()
        .chain((0..args.len() as u32).map(AttrSlot::Param));
    for slot in slots {
        for a in ir.call_attrs(call, slot) {
            attrs.push((slot, OwnedAttr::from(a)));
        }
    }
    let dbg = ir.inst_md(call, "dbg");
    let (fty, fv) = (ir.func_type(target), ir.func_value(target));
    let new = ir.build_call(call, fty, fv, &new_args)?;
    for (slot, a) in &attrs {
        ir.add_call_attr(new, *slot, a.get())?;
    }
    if dbg.is_some() {
        ir.set_inst_md(new, "dbg", dbg);
    }
    let mut resolved = None;
    if let (Some(old), Some(nr)) = (ir.inst_result(call), ir.inst_result(new)) {
        let rep = if ir.value_type(old) == ir.value_type(nr) {
            nr
        } else {
            let ty = ir.value_type(old);
            let cast = ir.build_cast(call, Opcode::AddrSpaceCast, nr, ty)?;
            resolved = Some(cast);
            cast
        };
        ir.replace_all_uses(old, rep)?;
    }
    ir.erase_inst(call)?;
    Ok(resolved)
}

/// The functions called directly with an argument whose provenance can
/// follow from `v` (see [`super::provenance`]): calls reached from `v`
/// through `getelementptr`, `bitcast`, `addrspacecast`, `freeze`, `phi` and
/// `select`, and through the loads of a stack slot `v` is stored into.
///
/// When a retargeted call's return space is resolved, its result (`v`, the
/// cast back to `ptr`) stops being an unclassifiable call result, and the
/// sites that pass it on may now vote for a concrete space. Their callees
/// are revisited in the same run: a callee popped before the call was
/// retargeted would otherwise keep its generic parameter until a second
/// run, and `ipmsp` would not be idempotent. Walking the uses keeps this
/// proportional to what the result reaches, where revisiting every callee
/// of the caller would cost a kernel calling many pointer-returning
/// helpers the square of their number. A slot reached this way is followed
/// through every load of it, which may revisit a callee for nothing but
/// misses none.
fn callees_reached<M: IrView + ?Sized>(ir: &M, v: ValueId) -> Vec<FuncId> {
    /// A value whose uses are followed, or a stack slot whose loads are.
    #[derive(Copy, Clone, PartialEq, Eq, Hash)]
    enum Node {
        Value(ValueId),
        Slot(ValueId),
    }
    let mut out = Vec::new();
    let mut found: HashSet<FuncId> = HashSet::new();
    let mut seen: HashSet<Node> = HashSet::new();
    let mut stack = alloc::vec![Node::Value(v)];
    seen.insert(Node::Value(v));
    while let Some(node) = stack.pop() {
        let (Node::Value(x) | Node::Slot(x)) = node;
        for i in ir.inst_users(x) {
            let next = match (node, ir.opcode(i)) {
                (
                    _,
                    Opcode::GetElementPtr
                    | Opcode::BitCast
                    | Opcode::AddrSpaceCast
                    | Opcode::Freeze,
                ) if ir.operand(i, 0) == Some(x) => ir.inst_result(i).map(|r| match node {
                    Node::Value(_) => Node::Value(r),
                    Node::Slot(_) => Node::Slot(r),
                }),
                (Node::Value(_), Opcode::Phi | Opcode::Select) => {
                    ir.inst_result(i).map(Node::Value)
                }
                (Node::Value(_), Opcode::Store) if ir.operand(i, 0) == Some(x) => ir
                    .operand(i, 1)
                    .and_then(|p| stack_slot(ir, p))
                    .map(Node::Slot),
                (Node::Slot(_), Opcode::Load) => ir.inst_result(i).map(Node::Value),
                (Node::Value(_), op) if op.is_call() => {
                    if let Some(Callee::Direct(c)) = ir.callee(i) {
                        if ir.call_args(i).any(|a| a == x) && found.insert(c) {
                            out.push(c);
                        }
                    }
                    None
                }
                _ => None,
            };
            if let Some(n) = next {
                if seen.insert(n) {
                    stack.push(n);
                }
            }
        }
    }
    out
}

/// The `alloca` that pointer `p` addresses, seen through `getelementptr`,
/// `bitcast` and `addrspacecast`.
fn stack_slot<M: IrView + ?Sized>(ir: &M, mut p: ValueId) -> Option<ValueId> {
    loop {
        let ValueKind::Inst(i) = ir.value_kind(p) else {
            return None;
        };
        match ir.opcode(i) {
            Opcode::Alloca => return Some(p),
            Opcode::GetElementPtr | Opcode::BitCast | Opcode::AddrSpaceCast => {
                p = ir.operand(i, 0)?;
            }
            _ => return None,
        }
    }
}

/// Whether `f` was rewritten in place (it then carries [`NVVM_AS_ATTR`]).
fn in_place_done<M: IrView + ?Sized>(ir: &M, f: FuncId) -> bool {
    ir.has_attr(f, AttrSlot::Function, AttrKey::Str(NVVM_AS_ATTR))
}

/// The functions `f`'s instructions name: direct callees and function
/// addresses used as operands (a CDP launch's child kernel, a stored
/// function pointer). When `f` is deleted these may have lost their last
/// use, so they are revisited in the same run; otherwise a second run would
/// delete them and `ipmsp` would not be idempotent.
fn referenced_functions<M: IrView + ?Sized>(ir: &M, f: FuncId) -> Vec<FuncId> {
    let mut out = direct_callees(ir, f);
    let mut seen: HashSet<FuncId> = out.iter().copied().collect();
    for b in ir.blocks(f) {
        for i in ir.insts(b) {
            for v in ir.operands(i) {
                if let ValueKind::Function(g) = ir.value_kind(v) {
                    if seen.insert(g) {
                        out.push(g);
                    }
                }
            }
        }
    }
    out
}

impl<M: IrEdit + ?Sized> ModulePass<M> for Ipmsp {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(
        &mut self,
        ir: &mut M,
        cx: &mut PassContext<'_>,
    ) -> Result<PreservedOrChanged, PassFailure> {
        let budget = self
            .budget
            .unwrap_or_else(|| cx.knob_int(&DO_CLONE_FOR_IP_MSP));
        let dump = cx.knob_bool(&DUMP_IP_MSP);
        let mut run = Run {
            cx,
            dump,
            budget,
            attempts: 0,
            prov: HashMap::new(),
            kernels: KernelSet::compute(ir),
            clones: HashMap::new(),
            changed: false,
        };
        let mut wl: nvpass_core::worklist::Worklist<FuncId> =
            nvpass_core::worklist::Worklist::new();
        for f in ir.funcs().collect::<Vec<_>>() {
            if is_candidate(ir, f, &run.kernels) {
                wl.push(f);
            }
        }
        run.note(format!("{DUMP_INITIAL} {}", wl.len()));
        let (mut n_cloned, mut n_in_place, mut n_calls) = (0u64, 0u64, 0u64);
        let mut erased: HashSet<FuncId> = HashSet::new();
        while let Some(f) = wl.pop() {
            if erased.contains(&f)
                || !is_candidate(ir, f, &run.kernels)
                || run.provenance(ir, f).is_none()
            {
                continue;
            }
            let (sites, all_sites) = call_sites(ir, f);
            let per_site: Vec<Vec<Option<AsLattice>>> =
                sites.iter().map(|&s| run.site_votes(ir, f, s)).collect();
            let nparams = ir.num_params(f);
            // Groups of (vote vector with lattice detail, sites).
            let mut groups: Vec<(Vec<Option<AsLattice>>, Vec<InstId>)> = Vec::new();
            if self.split_conflicts {
                for (k, v) in per_site.iter().enumerate() {
                    match groups.iter_mut().find(|(g, _)| concrete(g) == concrete(v)) {
                        Some((_, s)) => s.push(sites[k]),
                        None => groups.push((v.clone(), alloc::vec![sites[k]])),
                    }
                }
            } else {
                let mut votes: Vec<Option<AsLattice>> = (0..nparams)
                    .map(|k| is_specializable_param(ir, f, k).then_some(AsLattice::Bottom))
                    .collect();
                for v in &per_site {
                    for (slot, obs) in votes.iter_mut().zip(v) {
                        if let (Some(s), Some(o)) = (slot.as_mut(), obs) {
                            *s = s.meet(*o);
                        }
                    }
                }
                groups.push((votes, sites.clone()));
            }
            // In the order found, so that the worklist's order (and with it
            // the transcript and the order clones are made in) does not
            // depend on hashing.
            let mut affected: Vec<FuncId> = Vec::new();
            let ngroups = groups.len();
            for (lat, gsites) in groups {
                let votes = concrete(&lat);
                if votes.iter().all(Option::is_none) || gsites.is_empty() {
                    continue;
                }
                let in_place =
                    ngroups == 1 && all_sites && ir.func_linkage(f).is_local() && nparams > 0;
                let target = if in_place {
                    n_in_place += 1;
                    f
                } else if let Some(&c) = run.clones.get(&(f, votes.clone())) {
                    c
                } else {
                    let name = ir.func_name(f).to_string();
                    if run.budget == 0 || (run.budget > 0 && run.attempts >= run.budget) {
                        run.note(format!("{DUMP_AVOID} {name}"));
                        continue;
                    }
                    run.attempts += 1;
                    let mut base = name.clone();
                    for l in lat.iter().flatten() {
                        base.push('.');
                        base.push_str(match l {
                            AsLattice::Known(s) => space_word(*s),
                            _ => "generic",
                        });
                    }
                    let cname = unique_name(ir, &base);
                    let (c, _) = ir.clone_function(f, &cname).map_err(edit_err)?;
                    ir.set_linkage(c, Linkage::Internal);
                    ir.add_attr(c, AttrSlot::Function, Attr::Enum(AttrKind::AlwaysInline));
                    run.clones.insert((f, votes.clone()), c);
                    run.note(format!("{name}{DUMP_CLONED}"));
                    n_cloned += 1;
                    c
                };
                run.changed = true;
                if !ir.has_attr(target, AttrSlot::Function, AttrKey::Str(NVVM_AS_ATTR)) {
                    let mut count = 0;
                    for (k, v) in votes.iter().enumerate() {
                        if let Some(s) = v {
                            retype_param(ir, target, k, s.addr_space().0).map_err(edit_err)?;
                            count += 1;
                        }
                    }
                    let text = as_attr_value(&lat);
                    ir.add_attr(target, AttrSlot::Function, Attr::Str(NVVM_AS_ATTR, &text));
                    let tname = ir.func_name(target).to_string();
                    run.note(format!(
                        "{tname}{DUMP_ARGS_CHANGED}{count}{DUMP_ARGS_SUFFIX}"
                    ));
                    if let Some(s) = resolve_return(ir, target, &run.kernels).map_err(edit_err)? {
                        run.note(format!("{tname}{DUMP_RETURN} {}", s.addr_space().0));
                    }
                    run.prov.remove(&target);
                }
                // Retargeting only adds casts and replaces calls, so the
                // casts it remembers stay in place for the next site.
                let mut conv = Converter::default();
                for &site in &gsites {
                    let caller = ir.inst_func(site);
                    // Retargeting adds only typed casts of the arguments
                    // and replaces the call: the caller's analysis changes
                    // only through a generic pointer the call returns (see
                    // the module docs).
                    let stale = ir
                        .inst_result(site)
                        .is_some_and(|r| provenance::is_generic_ptr(ir, r));
                    let resolved =
                        retarget(ir, &mut conv, site, target, &votes).map_err(edit_err)?;
                    if let Some(r) = resolved {
                        affected.extend(callees_reached(ir, r));
                    }
                    n_calls += 1;
                    if stale {
                        run.prov.remove(&caller);
                    }
                    affected.push(caller);
                }
                for g in direct_callees(ir, target) {
                    affected.push(g);
                }
            }
            // A discardable original that lost every use is deleted, so that
            // its generic calls no longer poison its callees.
            if !in_place_done(ir, f)
                && ir.func_linkage(f).is_discardable_if_unused()
                && ir.has_no_uses(ir.func_value(f))
            {
                let callees = referenced_functions(ir, f);
                if ir.erase_function(f).is_ok() {
                    erased.insert(f);
                    run.prov.remove(&f);
                    affected.extend(callees);
                }
            }
            let mut pushed = 0;
            for g in affected {
                if !erased.contains(&g) && is_candidate(ir, g, &run.kernels) && wl.push(g) {
                    pushed += 1;
                }
            }
            if pushed > 0 {
                run.note(format!("{pushed}{DUMP_AFFECTED}"));
            }
        }
        let changed = run.changed;
        cx_stats(run.cx, n_cloned, n_in_place, n_calls);
        Ok(PreservedOrChanged::from_changed(changed))
    }
}

fn cx_stats(cx: &mut PassContext<'_>, cloned: u64, in_place: u64, calls: u64) {
    cx.add_stat(&NUM_CLONED, cloned);
    cx.add_stat(&NUM_IN_PLACE, in_place);
    cx.add_stat(&NUM_RETARGETED, calls);
}
