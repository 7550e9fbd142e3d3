//! `process-restrict` (ProcessRestrict): `__restrict__` into `noalias`
//! parameters and LLVM alias-scope metadata.
//!
//! Spec: `004`, "Restrict Processing" (input/output shape, matching
//! predicate, attribute keys, tunables, algorithm, failure modes) and
//! "Operational Knobs" (process-restrict enable, propagate-only and
//! multi-level modes).
//!
//! # What it does, per defined function
//!
//! 1. **Idempotency.** A function carrying `"nvvm.restrict_processed"` (or
//!    the front-end spelling `"user_specified_restrict_processed"`, which is
//!    canonicalized) is left alone, so `process-restrict,process-restrict`
//!    is the same as one run.
//! 2. **Roots** ([`roots`]). A pointer parameter is restricted iff it
//!    carries `"user_specified_restrict_scope"`/`"..._keyword"` (or their
//!    canonical `"nvvm.restrict_*"` spellings), or the *function* carries
//!    them (the spec's example puts the keys in the function attribute list
//!    and restricts every pointer parameter; `sret` is excluded), or it is
//!    `noalias`. The last is clang's form: clang already writes `noalias` on
//!    `__restrict__` parameters and no key. Those become scopes too, because
//!    scopes survive inlining and `noalias` parameters do not (the caller's
//!    accesses stay disambiguated once the callee is inlined into it).
//! 3. **Canonical keys.** Every front-end key is copied to its canonical key
//!    ([`CANONICAL_KEYS`]); the front-end keys stay (spec: later diagnostic
//!    passes need the original spelling). Restricted pointer parameters gain
//!    `noalias`. Clang-form roots get no keys: the spec gives them no scope
//!    ID and `noalias` is already their canonical form.
//! 4. **Propagation** ([`propagate`]): every `load`, `store`, `atomicrmw` and
//!    `cmpxchg` whose pointer is derived from roots through
//!    `getelementptr`, `bitcast`, `addrspacecast`, `phi` and `select` (every
//!    incoming value derived) is stamped. Front-end IR spills parameters to
//!    stack slots first, so a private single-store `alloca` is looked
//!    through (see [`propagate`]).
//! 5. **Metadata** ([`scopes`]): one anonymous domain per function named
//!    `restrict.domain.<function>`, one scope per root named
//!    `restrict.scope.<id>.<argument>` (`<id>` is the key's scope ID, or
//!    `noalias` for clang's form). An access derived from root set S gets
//!    `!alias.scope !{scopes of S}` and, if any scope is left,
//!    `!noalias !{every other scope of the function}`. A PHI or select of
//!    two roots carries both scopes (spec: "the PHI inherits both"), which
//!    LLVM's scoped-noalias AA reads as "may alias either, no alias with the
//!    rest".
//! 6. The function is marked `"nvvm.restrict_processed"` (every definition,
//!    as the spec's `processRestrict` does, whether or not it had roots).
//!
//! # Threads
//!
//! Steps 1, 2 and 4 (idempotency check, roots, struct diagnostics, derived
//! accesses, the restrict metadata already in place) only read the IR; the
//! root search and the derived-access walk are the larger part of the
//! pass's time. They run for a window of functions at once on
//! [`PassContext::threads`] threads ([`plan_and_apply`]), each into a plan;
//! the plans are applied (keys, `noalias`, marker, domain and scopes,
//! stamps, diagnostics, statistics) one function at a time in module order,
//! so the output does not depend on the thread count. In a plain loop the
//! derived accesses of `f` are found after `f`'s keys, `noalias` and marker
//! are added; the walk reads no attribute, so finding them before gives the
//! same set. The analysis of `f` reads only `f`'s attributes, body, and the
//! metadata attached in `f`; applying the plan of another function `g`
//! changes `g`'s attributes, creates `g`'s own distinct domain and scope
//! nodes and attaches lists to `g`'s accesses, none of which `f` reads.
//!
//! # Knobs
//!
//! | knob | default | effect |
//! |---|---|---|
//! | `process-restrict` | 1 | master enable; 0 makes the pass a no-op |
//! | `allow-restrict-in-struct` | 0 | propagate from pointer fields of a restrict-annotated `byval` struct |
//! | `apply-multi-level-restrict` | 0 | a pointer loaded through a derived pointer is derived too (same scopes) |
//! | `dump-process-restrict` | 0 | print each function's roots (before) and stamped accesses (after) as notes |
//! | `process-restrict-propagate-only` | 0 | propagate-only mode (also the pipeline option `process-restrict<propagate-only>`) |
//!
//! **Propagate-only** (spec "Operational Knobs": "Reapplies already-stamped
//! scopes after another pass creates new derived values") touches only
//! functions already marked processed: it finds the function's own domain
//! and scopes by name on existing accesses, reuses them (creating a scope
//! only for a root none of whose accesses survived), and stamps accesses
//! created since — by inlining a callee into a processed caller, by cloning,
//! by a pass that inserts casts. It adds no keys, no `noalias` and no
//! marker. A clone renamed by its creator finds no domain of its own name
//! and gets a fresh one; the stamps it inherited stay (they are still true).
//!
//! # Diagnostics
//!
//! - warning `function contains restrict keyword in struct` when a key sits
//!   on an aggregate parameter (`ptr byval(%struct.S)` or a first-class
//!   struct) and `allow-restrict-in-struct` is off; the parameter is not
//!   propagated and the rest of the function is processed. A warning and not
//!   an error: ignoring restrict is always correct, only slower.
//! - missed remark `RestrictInStructNotPropagated` when the knob is on but
//!   the struct is passed as a first-class value or its memory is written or
//!   escapes (then a field may change between loads).
//! - passed remark `RestrictProcessed` per function with roots.
//!
//! # Choices where the spec is silent
//!
//! - With `allow-restrict-in-struct`, each pointer field (by constant byte
//!   offset) of the `byval` struct is its own root, covering every load of
//!   that field; loads at unknown offsets are not roots.
//! - The spec's worker also stamps `"nvvm.restrict_scope"` on derived SSA
//!   values; LLVM values carry no attributes, so only parameters do, and the
//!   derived relation lives in the access metadata.
//! - No address-space filter: restrict is a provenance relation (spec:
//!   "Restrict metadata is not a proof of address space"), valid in every
//!   state space.
//! - Calls (`memcpy` through a restricted pointer, ...) are not stamped.
//! - `dump-process-restrict` cannot print IR from a `no_std` pass over the
//!   traits; it prints what the pass decided, per function, as notes.
//! - Scope lists already on an access keep the scopes of other domains;
//!   only this function's domain is replaced (see [`scopes`]).

pub mod propagate;
pub mod roots;
pub mod scopes;

use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use nvpass_core::diag::{Diagnostic, RemarkKind, Severity};
use nvpass_core::ir::{Attr, AttrKey, AttrKind, AttrSlot, FuncId, InstId, IrEdit, IrView};
use nvpass_core::knob::{KnobInfo, KnobKind};
use nvpass_core::par::plan_and_apply;
use nvpass_core::pass::{
    AnyPass, ModulePass, PassContext, PassFailure, PassInfo, PassOptions, PreservedOrChanged,
};
use nvpass_core::registry::Registry;
use nvpass_core::stats::StatInfo;

use roots::{Origin, Root, StructRefusal};

/// Spec 004, "Attribute Keys": front-end per-pointer scope ID.
pub const FE_SCOPE: &str = "user_specified_restrict_scope";
/// Spec 004, "Attribute Keys": front-end keyword form (`restrict` vs
/// `__restrict__`).
pub const FE_KEYWORD: &str = "user_specified_restrict_keyword";
/// Spec 004, "Attribute Keys": front-end function-level idempotency marker.
pub const FE_PROCESSED: &str = "user_specified_restrict_processed";
/// Spec 004, "Attribute Keys": canonical per-pointer scope ID.
pub const NVVM_SCOPE: &str = "nvvm.restrict_scope";
/// Spec 004, "Attribute Keys": canonical keyword form.
pub const NVVM_KEYWORD: &str = "nvvm.restrict_keyword";
/// Spec 004, "Attribute Keys" and "Algorithm": the function-level
/// idempotency marker that prevents re-entry.
pub const NVVM_PROCESSED: &str = "nvvm.restrict_processed";
/// Spec 004, "Attribute Keys" table: front-end key to canonical key.
pub const CANONICAL_KEYS: [(&str, &str); 3] = [
    (FE_SCOPE, NVVM_SCOPE),
    (FE_KEYWORD, NVVM_KEYWORD),
    (FE_PROCESSED, NVVM_PROCESSED),
];
/// Spec 004, "Attribute Keys" (last paragraph): the diagnostic for a
/// restrict-qualified pointer inside a struct field.
pub const DIAG_RESTRICT_IN_STRUCT: &str = "function contains restrict keyword in struct";
/// Spec 004, "Input and Output IR Shape": prefix of the per-function domain
/// name (`restrict.domain.k`).
pub const DOMAIN_NAME_PREFIX: &str = "restrict.domain.";
/// Spec 004, "Input and Output IR Shape": prefix of a scope name
/// (`restrict.scope.1.a`).
pub const SCOPE_NAME_PREFIX: &str = "restrict.scope.";
/// Spec 004, "Input and Output IR Shape": the access's own scopes.
pub const MD_ALIAS_SCOPE: &str = "alias.scope";
/// Spec 004, "Input and Output IR Shape": the scopes the access does not
/// alias.
pub const MD_NOALIAS: &str = "noalias";
/// Calls a spill slot may be passed to (`llvm.lifetime.start/end`); see
/// [`propagate`]. Not from the spec: LLVM's stack-slot lifetime markers.
pub const LIFETIME_INTRINSIC_PREFIX: &str = "llvm.lifetime.";

/// Spec 004, "Tunables": `process-restrict` (default 1), master enable.
pub const KNOB_PROCESS_RESTRICT: KnobInfo = KnobInfo {
    name: "process-restrict",
    kind: KnobKind::Bool,
    default: "true",
    description: "master enable of restrict processing",
};
/// Spec 004, "Tunables": `allow-restrict-in-struct` (default 0).
pub const KNOB_ALLOW_RESTRICT_IN_STRUCT: KnobInfo = KnobInfo {
    name: "allow-restrict-in-struct",
    kind: KnobKind::Bool,
    default: "false",
    description: "propagate restrict from pointer fields of a restrict-annotated byval struct",
};
/// Spec 004, "Tunables": `apply-multi-level-restrict` (default 0).
pub const KNOB_APPLY_MULTI_LEVEL_RESTRICT: KnobInfo = KnobInfo {
    name: "apply-multi-level-restrict",
    kind: KnobKind::Bool,
    default: "false",
    description: "walk through two or more levels of pointer indirection",
};
/// Spec 004, "Tunables": `dump-process-restrict` (default 0).
pub const KNOB_DUMP_PROCESS_RESTRICT: KnobInfo = KnobInfo {
    name: "dump-process-restrict",
    kind: KnobKind::Bool,
    default: "false",
    description: "print each function's restrict roots and stamped accesses",
};
/// Spec 004, "Operational Knobs": "Propagate-only restrict mode" (the spec
/// names no flag; this name is nvpass's).
pub const KNOB_PROPAGATE_ONLY: KnobInfo = KnobInfo {
    name: "process-restrict-propagate-only",
    kind: KnobKind::Bool,
    default: "false",
    description: "only re-apply existing restrict scopes in processed functions",
};
/// Pipeline option `process-restrict<propagate-only>`: the same mode as
/// [`KNOB_PROPAGATE_ONLY`] for one pass instance.
pub const OPT_PROPAGATE_ONLY: KnobInfo = KnobInfo {
    name: "propagate-only",
    kind: KnobKind::Bool,
    default: "false",
    description: "only re-apply existing restrict scopes in processed functions",
};

/// Spec 004, "Restrict Processing": the pass.
pub const INFO: PassInfo = PassInfo {
    name: "process-restrict",
    class_name: "ProcessRestrict",
    description: "turn __restrict__ into noalias parameters and alias-scope metadata",
    knobs: &[
        KNOB_PROCESS_RESTRICT,
        KNOB_ALLOW_RESTRICT_IN_STRUCT,
        KNOB_APPLY_MULTI_LEVEL_RESTRICT,
        KNOB_DUMP_PROCESS_RESTRICT,
        KNOB_PROPAGATE_ONLY,
    ],
    options: &[OPT_PROPAGATE_ONLY],
};

/// Restricted pointer families found (arguments and struct fields).
pub const NUM_ROOTS: StatInfo = StatInfo {
    name: "NumRestrictRoots",
    description: "Number of restricted pointer families",
};
/// Accesses whose scope lists were set or changed.
pub const NUM_STAMPED: StatInfo = StatInfo {
    name: "NumAccessesStamped",
    description: "Number of loads/stores given alias-scope metadata",
};

/// Registers `process-restrict`.
pub fn register<M: IrEdit + ?Sized>(r: &mut Registry<M>) {
    if r.register(&INFO, ctor::<M>).is_err() {
        debug_assert!(false, "pass name {} registered twice", INFO.name);
    }
}

/// Registry constructor.
pub fn ctor<M: IrEdit + ?Sized>(opts: &PassOptions) -> Result<AnyPass<M>, String> {
    Ok(AnyPass::Transform(Box::new(ProcessRestrict {
        propagate_only: opts.bool(&OPT_PROPAGATE_ONLY),
    })))
}

/// The pass; see the module docs.
#[derive(Clone, Debug, Default)]
pub struct ProcessRestrict {
    /// Propagate-only mode for this instance (pipeline option).
    pub propagate_only: bool,
}

/// Knob values of one run.
#[derive(Copy, Clone, Debug)]
struct Config {
    allow_struct: bool,
    multi_level: bool,
    dump: bool,
    propagate_only: bool,
}

impl<M: IrEdit + ?Sized> ModulePass<M> for ProcessRestrict {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(
        &mut self,
        m: &mut M,
        cx: &mut PassContext<'_>,
    ) -> Result<PreservedOrChanged, PassFailure> {
        if !cx.knob_bool(&KNOB_PROCESS_RESTRICT) {
            return Ok(PreservedOrChanged::Preserved);
        }
        let cfg = Config {
            allow_struct: cx.knob_bool(&KNOB_ALLOW_RESTRICT_IN_STRUCT),
            multi_level: cx.knob_bool(&KNOB_APPLY_MULTI_LEVEL_RESTRICT),
            dump: cx.knob_bool(&KNOB_DUMP_PROCESS_RESTRICT),
            propagate_only: self.propagate_only || cx.knob_bool(&KNOB_PROPAGATE_ONLY),
        };
        let funcs: Vec<FuncId> = m.funcs().filter(|&f| !m.func_is_declaration(f)).collect();
        let mut changed = false;
        let threads = cx.threads();
        let analyze = |m: &M, f| analyze_function(m, f, cfg);
        plan_and_apply(m, &funcs, threads, analyze, |m, f, plan| {
            changed |= apply_plan(m, cx, f, plan, cfg)?;
            Ok(())
        })?;
        Ok(PreservedOrChanged::from_changed(changed))
    }
}

fn note(name: &str, func: &str, text: String) -> Diagnostic {
    Diagnostic::new(Severity::Note, INFO.name, name)
        .in_function(func)
        .text(text)
}

fn edit_failure(func: &str, e: nvpass_core::ir::EditError) -> PassFailure {
    PassFailure::new(format!("process-restrict: @{func}: {e}"))
}

/// What the read-only analysis of one function decided; [`apply_plan`]
/// carries it out.
enum Plan {
    /// Steps 2-5 do not apply (processed and not re-propagating, or
    /// unprocessed in propagate-only mode); the marker's canonical spelling
    /// may have to be added.
    Skip {
        /// Add `"nvvm.restrict_processed"`.
        add_marker: bool,
    },
    /// Process the function.
    Process(Box<Work>),
}

/// The analysis of a function that is processed.
struct Work {
    fname: String,
    /// Struct warnings and remarks, then the `DumpBefore` note (if any).
    diags: Vec<Diagnostic>,
    roots: Vec<Root>,
    /// Derived accesses in layout order with their roots.
    accesses: Vec<(InstId, propagate::RootSet)>,
    /// This function's restrict metadata found in place.
    existing: scopes::Existing,
}

/// Steps 1, 2 and 4 for `f`: which roots, which accesses, which
/// diagnostics. Reads only `f`'s attributes, body and the metadata attached
/// in it (see "Threads" in the module docs).
fn analyze_function<M: IrView + ?Sized>(m: &M, f: FuncId, cfg: Config) -> Plan {
    let fname = m.func_name(f).to_string();
    let has = |key: &str| m.str_attr(f, AttrSlot::Function, key).is_some();
    let processed = has(NVVM_PROCESSED) || has(FE_PROCESSED);
    if processed != cfg.propagate_only {
        // Processed and not re-propagating: only the marker's canonical
        // spelling may be missing. Unprocessed in propagate-only mode:
        // nothing was stamped yet, so there is nothing to re-apply.
        return Plan::Skip {
            add_marker: processed && !has(NVVM_PROCESSED),
        };
    }

    let mut diags = Vec::new();
    let found = roots::find_roots(m, f);
    let mut roots: Vec<Root> = found.roots;
    for sp in &found.structs {
        let arg = roots::arg_display_name(m, f, sp.param);
        if !cfg.allow_struct {
            if !cfg.propagate_only {
                let loc = m.inst_users(sp.value).find_map(|i| m.debug_loc(i));
                diags.push(
                    Diagnostic::warning(INFO.name, "RestrictInStruct")
                        .in_function(fname.as_str())
                        .at(loc)
                        .text(DIAG_RESTRICT_IN_STRUCT)
                        .text(" (function '")
                        .arg("Function", fname.clone())
                        .text("', parameter '%")
                        .arg("Argument", arg)
                        .text("')"),
                );
            }
            continue;
        }
        match roots::struct_field_roots(m, f, sp) {
            Ok(rs) => roots.extend(rs),
            Err(why) => {
                let reason = match why {
                    StructRefusal::ByValue => "the struct is passed by value",
                    StructRefusal::Escapes => "the struct memory is written or escapes",
                };
                diags.push(
                    Diagnostic::remark(
                        RemarkKind::Missed,
                        INFO.name,
                        "RestrictInStructNotPropagated",
                    )
                    .in_function(fname.as_str())
                    .text("restrict in struct parameter '%")
                    .arg("Argument", arg)
                    .text("' not propagated: ")
                    .arg("Reason", reason),
                );
            }
        }
    }

    if cfg.dump && !roots.is_empty() {
        let list: Vec<String> = roots
            .iter()
            .map(|r| {
                let how = match (r.in_struct, r.origin) {
                    (true, _) => "struct field",
                    (false, Origin::ParamKey) => "parameter key",
                    (false, Origin::FunctionKey) => "function key",
                    (false, Origin::NoAlias) => "noalias",
                };
                format!("{} ({how})", r.scope_name)
            })
            .collect();
        diags.push(note(
            "DumpBefore",
            &fname,
            format!(
                "process-restrict before @{fname}: roots {}",
                list.join(", ")
            ),
        ));
    }

    let mut accesses = Vec::new();
    let mut existing = scopes::Existing::default();
    if !roots.is_empty() {
        let derived = propagate::derived_accesses(m, &roots, cfg.multi_level);
        if !derived.is_empty() {
            let domain_name = format!("{DOMAIN_NAME_PREFIX}{fname}");
            existing = scopes::scan(m, f, &domain_name);
            for b in m.blocks(f) {
                for i in m.insts(b) {
                    if let Some(set) = derived.get(&i) {
                        accesses.push((i, set.clone()));
                    }
                }
            }
        }
    }
    Plan::Process(Box::new(Work {
        fname,
        diags,
        roots,
        accesses,
        existing,
    }))
}

/// Steps 3, 5 and 6 for `f` from its plan, with its diagnostics and
/// statistics; returns whether the IR changed.
fn apply_plan<M: IrEdit + ?Sized>(
    m: &mut M,
    cx: &mut PassContext<'_>,
    f: FuncId,
    plan: Plan,
    cfg: Config,
) -> Result<bool, PassFailure> {
    let work = match plan {
        Plan::Skip { add_marker } => {
            if add_marker {
                m.add_attr(f, AttrSlot::Function, Attr::Str(NVVM_PROCESSED, ""));
            }
            return Ok(add_marker);
        }
        Plan::Process(work) => *work,
    };
    let Work {
        fname,
        diags,
        roots,
        accesses,
        existing,
    } = work;
    for d in diags {
        cx.emit(d);
    }
    let mut changed = false;
    if !cfg.propagate_only {
        // The marker is new, so the IR changes whatever else happens.
        roots::canonicalize_keys(m, f, AttrSlot::Function);
        for i in 0..m.num_params(f) as u32 {
            roots::canonicalize_keys(m, f, AttrSlot::Param(i));
        }
        for r in roots.iter().filter(|r| !r.in_struct) {
            let slot = AttrSlot::Param(r.param);
            if !m.has_attr(f, slot, AttrKey::Kind(AttrKind::NoAlias)) {
                m.add_attr(f, slot, Attr::Enum(AttrKind::NoAlias));
            }
        }
        m.add_attr(f, AttrSlot::Function, Attr::Str(NVVM_PROCESSED, ""));
        changed = true;
    }
    if roots.is_empty() {
        return Ok(changed);
    }

    let mut n_changed = 0u64;
    if !accesses.is_empty() {
        let domain = match existing.domain {
            Some(d) => d,
            None => {
                let domain_name = format!("{DOMAIN_NAME_PREFIX}{fname}");
                scopes::create_domain(m, &domain_name).map_err(|e| edit_failure(&fname, e))?
            }
        };
        let mut scope_ids = Vec::with_capacity(roots.len());
        for r in &roots {
            let s = match existing.scopes.get(&r.scope_name) {
                Some(&s) => s,
                None => scopes::create_scope(m, domain, &r.scope_name)
                    .map_err(|e| edit_failure(&fname, e))?,
            };
            scope_ids.push(s);
        }
        let mut st = scopes::Stamper::new(domain, scope_ids, existing);
        for (i, set) in &accesses {
            if st.stamp(m, *i, set).map_err(|e| edit_failure(&fname, e))? {
                n_changed += 1;
            }
        }
    }
    changed |= n_changed > 0;
    cx.add_stat(&NUM_ROOTS, roots.len() as u64);
    cx.add_stat(&NUM_STAMPED, n_changed);
    cx.emit(
        cx.remark(RemarkKind::Passed, "RestrictProcessed")
            .in_function(fname.as_str())
            .arg("Roots", roots.len().to_string())
            .text(" restricted pointer families, ")
            .arg("Accesses", accesses.len().to_string())
            .text(" accesses in their scopes"),
    );

    if cfg.dump {
        let mut text = format!(
            "process-restrict after @{fname}: {} accesses stamped",
            accesses.len()
        );
        for (i, set) in &accesses {
            let what = m.opcode(*i).name();
            let name = m
                .inst_result(*i)
                .and_then(|v| m.value_name(v))
                .map(|n| format!(" %{n}"))
                .unwrap_or_default();
            let ptr = m
                .mem_ptr(*i)
                .and_then(|p| m.value_name(p))
                .map(|n| format!(" %{n}"))
                .unwrap_or_default();
            let own: Vec<&str> = set
                .iter()
                .map(|&k| roots[k as usize].scope_name.as_str())
                .collect();
            text.push_str(&format!(
                "; {what}{name} via{ptr} in {{{}}}",
                own.join(", ")
            ));
        }
        cx.emit(note("DumpAfter", &fname, text));
    }
    Ok(changed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nvpass_core::knob::KnobValues;

    #[test]
    fn registered_under_both_names_with_valid_knobs() {
        let mut r = Registry::<nvpass_ir::Module>::new();
        register(&mut r);
        assert!(r.lookup("process-restrict").is_some());
        assert!(r.lookup("ProcessRestrict").is_some());
        for k in INFO.knobs.iter().chain(INFO.options) {
            k.default_value().unwrap();
        }
        let mut v = KnobValues::new();
        v.declare(INFO.knobs).unwrap();
    }
}
