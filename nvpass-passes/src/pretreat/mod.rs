//! `pretreat` (spec class `Pretreat`, C++ `mlir::nvvm::PretreatPass`):
//! the first cleanup after the front end, making the IR uniform without
//! changing its behaviour.
//!
//! Spec 002 "Pretreat": 19 independent, idempotent rewrite rules, run in
//! the canonical order of [`PRETREAT_RULES`] (the spec's table "The 19
//! Metric-Ordered Cleanups"; numbers, names and order are data in
//! `nvpass_core::pretreat`). As in the spec's `pretreat_module`, rules 1–18
//! run on every defined function in module order (declarations are
//! skipped) and rule 19 once on the module afterwards. No rule simplifies
//! arithmetic (spec "Failure Modes": "Aggressive optimization in
//! pretreat"); every rewrite replaces a value by one it provably equals,
//! or deletes something with no effect.
//!
//! | # | file | rule, and the choice made where the spec is loose |
//! |---|---|---|
//! | 1 | `annotations.rs` | Drop the `!"kernel", i32 1` annotation of a function marked `"nvvm.annotations_transplanted"` *and* `ptx_kernel`. LLVM 19's NVPTX back end reads kernel-ness from the annotation, falling back to the calling convention only when there is none, so stripping it from a `ccc` function would turn its `.entry` into a `.func`. Other keys (`maxntidx`, ...) are kept: the back end reads them from metadata only. |
//! | 2 | `casts.rs` | `bitcast (bitcast x)` casts `x` directly; to `x` itself when the types agree. |
//! | 3 | `casts.rs` | `addrspacecast (addrspacecast x to A) to typeof(x)` is `x` (instructions and constant expressions). |
//! | 4 | `mem.rs` | `llvm.lifetime.*(i64 N, ptr %alloca)` with `N` = the alloca's size gets `N = -1`. |
//! | 5 | `mem.rs` | Delete `llvm.mem{cpy,move,set}*` with constant length 0 (volatile too, as InstCombine does). |
//! | 6 | `casts.rs` | `bitcast` of a constant: same-type casts fold to the operand; int/fp of one width to the reinterpreted literal. |
//! | 7 | `casts.rs` | A GEP with all-zero indices and its base's type is its base. |
//! | 8 | `casts.rs` | `sext x` → `zext x` (in place) for `x` a constant `>= 0`, a `zext`, an `and` with a mask `>= 0`, or an `lshr` by a constant `>= 1`. |
//! | 9 | `intrinsics.rs` | Remove `convergent` from calls to (and declarations of) the intrinsic families in `NON_CONVERGENT_INTRINSIC_PREFIXES`. |
//! | 10 | `intrinsics.rs` | "Placeholder" = the legacy `llvm.ptx.read.<sreg>` names, redirected to `llvm.nvvm.read.ptx.sreg.<sreg>`; and `llvm.nvvm.kernel.placeholder()` (the spec's example), deleted. |
//! | 11 | `debug.rs` | Only a declare of an `undef`/`poison` address becomes `llvm.dbg.value`: converting the declare of a live alloca is correct only together with promoting it, which Pretreat does not do. `#dbg_declare` records are left alone. |
//! | 12 | `select.rs` | `select (xor c, true), C1, C2` → `select c, C2, C1` for constant arms: operands reordered, nothing added; skipped with `!prof`. |
//! | 13 | `intrinsics.rs` | Delete `llvm.assume(i1 <constant>)` without operand bundles. |
//! | 14 | `mem.rs` | An `undef`/`poison` memory-intrinsic length becomes 0. |
//! | 15 | `fp.rs` | Non-canonical NaN literals become the canonical quiet NaN, only as operands of `fadd`/`fsub`/`fmul`/`fdiv`/`frem`/`fcmp`, where LLVM leaves NaN payloads and signs unspecified anyway. |
//! | 16 | `loops.rs` | Drop vectorizer/interleave/distribute/pipeline/LICM-versioning loop hints; keep `mustprogress` (semantic), `unroll.*` (NVPTX honours it), and anything unknown. |
//! | 17 | `annotations.rs` | A function with a kernel annotation and neither `"nvvm.kernel"` nor `"nvvm.annotations_transplanted"` gets `"nvvm.kernel"`. The metadata is kept (the back end needs it) and the transplanted marker is not stamped (the transplanter did not run), which keeps rules 1 and 17 from undoing each other's work on a second run. |
//! | 18 | `cfg.rs` | Delete all blocks unreachable from the entry at once (unreachable loops included), fixing `phi`s. |
//! | 19 | `ctors.rs` | Drop null-function entries of `llvm.global_{c,d}tors`; delete the global when none is left. |
//!
//! ## Rules 5 and 14
//!
//! The spec's order runs 5 before 14, yet its failure mode says "running
//! cleanup 5 before cleanup 14 leaves `memcpy(_, _, undef)`" and cleanup 14
//! exists "so cleanup 5 can delete them". The order stays as numbered; the
//! one hand-off the spec states is honoured by re-running rule 5 on a
//! function right after rule 14 changed it. So one run deletes an
//! undef-length `memcpy`, and the pass stays idempotent. With rule 5
//! disabled (`--pretreat-disable=5`), rule 14's output, a zero-length call,
//! survives: the spec's failure mode.
//!
//! ## One census walk instead of 18 scans
//!
//! Each round first takes a census of the function (`census.rs`): one walk
//! recording which rules can find their starting shape at all. The other
//! rules are skipped, which is unobservable: a skipped rule would have
//! rewritten nothing. Once a rule changes the body a new census is taken
//! for the rules still to run, so the census always describes the body as
//! it is, and the next round starts from the last one taken. On libdevice
//! this halves the pass's time.
//!
//! With several threads ([`PassContext::threads`], the CLI's `-j`), the
//! first census of every function is taken ahead, on all threads, for a
//! window of functions at a time ([`par_map_funcs_with`], each thread
//! keeping one memo of callee rules for the window: nothing is rewritten
//! while the window's censuses are taken); the rules then run function by
//! function as before. A census taken before the functions
//! ahead of it in the window were rewritten still over-approximates: what
//! a function rule changes outside its own function is a declaration
//! losing `convergent` (rule 9), which only clears a census bit, or a
//! placeholder declaration erased once nothing calls it (rule 10), which
//! the function in question then does not call either. A set bit only
//! makes a rule look, so the output does not depend on the thread count
//! (`census_matches_full_runs` checks it).
//!
//! ## Knobs
//!
//! - `--pretreat-disable=LIST`: comma-separated rule numbers or names
//!   (`5,14`, `unreachable-blocks`) to skip. An unknown entry is an error.
//!
//! ## Statistics and diagnostics
//!
//! One `-stats` counter per rule, named after the rule, counting its
//! rewrites. The only diagnostic is the error for a bad knob value.
//!
//! ## IR trait additions
//!
//! `IrEdit::set_cast_opcode` (rule 8 keeps the value's name and metadata),
//! `IrEdit::erase_blocks` (rule 18: unreachable loops), `IrEdit::array_type_of`
//! and `IrEdit::retype_global_initializer` (rule 19 shrinks the array),
//! `IrView::metadata_value_operand` (rule 11 reads the declared address).

mod annotations;
mod casts;
mod census;
mod cfg;
mod ctors;
mod debug;
mod fp;
mod intrinsics;
mod loops;
mod mem;
mod select;
mod util;

use alloc::format;
use alloc::vec::Vec;

use hashbrown::HashSet;
use nvpass_core::ir::{FuncId, IrEdit};
use nvpass_core::knob::{KnobInfo, KnobKind};
use nvpass_core::names::PRETREAT;
use nvpass_core::par::{par_map_funcs_with, WINDOW_PER_THREAD};
use nvpass_core::pass::{
    AnyPass, ModulePass, PassContext, PassFailure, PassInfo, PreservedOrChanged,
};
use nvpass_core::pretreat::{PretreatRule, RuleScope, PRETREAT_RULES};
use nvpass_core::registry::Registry;
use nvpass_core::stats::StatInfo;

/// `--pretreat-disable=5,14`: rules to skip, by number or name.
pub const PRETREAT_DISABLE: KnobInfo = KnobInfo {
    name: "pretreat-disable",
    kind: KnobKind::Str,
    default: "",
    description: "comma-separated Pretreat rules (numbers 1-19 or names) to skip",
};

/// The pass description.
pub const INFO: PassInfo = PassInfo {
    name: "pretreat",
    class_name: PRETREAT,
    description: "early IR cleanup before NVPTX (spec 002 Pretreat: 19 ordered cleanups)",
    knobs: &[PRETREAT_DISABLE],
    options: &[],
};

const fn rule_stats() -> [StatInfo; 19] {
    let mut out = [StatInfo {
        name: "",
        description: "",
    }; 19];
    let mut i = 0;
    while i < 19 {
        out[i] = StatInfo {
            name: PRETREAT_RULES[i].name,
            description: PRETREAT_RULES[i].cleanup,
        };
        i += 1;
    }
    out
}

/// One `-stats` counter per rule (index = number - 1).
pub const RULE_STATS: [StatInfo; 19] = rule_stats();

/// The Pretreat pass.
#[derive(Default, Debug)]
pub struct Pretreat;

/// Parses a `--pretreat-disable` list into a 19-entry "disabled" mask.
fn parse_disabled(text: &str) -> Result<[bool; 19], alloc::string::String> {
    let mut out = [false; 19];
    for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let rule: Option<&PretreatRule> = match item.parse::<u8>() {
            Ok(n) => nvpass_core::pretreat::rule(n),
            Err(_) => PRETREAT_RULES.iter().find(|r| r.name == item),
        };
        match rule {
            Some(r) => out[usize::from(r.number) - 1] = true,
            None => {
                return Err(format!(
                    "unknown Pretreat rule '{item}' (expected 1-19 or a rule name)"
                ))
            }
        }
    }
    Ok(out)
}

/// Runs function rule `number` (1..=18) on `f`; returns its rewrite count.
pub fn run_function_rule<M: IrEdit + ?Sized>(m: &mut M, number: u8, f: FuncId) -> u64 {
    match number {
        1 => annotations::strip_consumed_annotations(m, f),
        2 => casts::canonicalize_bitcast_chains(m, f),
        3 => casts::drop_noop_addrspace_casts(m, f),
        4 => mem::normalize_lifetime_sizes(m, f),
        5 => mem::delete_zero_length_mem_intrinsics(m, f),
        6 => casts::constant_fold_casts(m, f),
        7 => casts::collapse_zero_index_geps(m, f),
        8 => casts::canonicalize_int_extensions(m, f),
        9 => intrinsics::strip_spurious_convergent(m, f),
        10 => intrinsics::rewrite_sreg_placeholders(m, f),
        11 => debug::normalize_dbg_declare(m, f),
        12 => select::canonicalize_select_constants(m, f),
        13 => intrinsics::strip_dead_assume(m, f),
        14 => mem::normalize_undef_memcpy_lengths(m, f),
        15 => fp::canonicalize_fp_specials(m, f),
        16 => loops::strip_discarded_loop_metadata(m, f),
        17 => annotations::lift_kernel_metadata_to_attr(m, f),
        18 => cfg::remove_unreachable_blocks(m, f),
        _ => 0,
    }
}

/// Runs module rule `number` (19); returns its rewrite count.
pub fn run_module_rule<M: IrEdit + ?Sized>(m: &mut M, number: u8) -> u64 {
    match number {
        19 => ctors::drop_empty_ctor_dtor_entries(m),
        _ => 0,
    }
}

/// The most rounds of the function rules run on one function (each round
/// after the first only happens when the previous one changed something).
pub const MAX_ROUNDS: usize = 8;

impl Pretreat {
    /// Spec 002 `pretreat_module`, skipping the rules in `disabled`;
    /// returns the rewrite count of each rule (index = number - 1).
    pub fn run_rules<M: IrEdit + ?Sized>(m: &mut M, disabled: &[bool; 19]) -> [u64; 19] {
        Self::run_rules_with(m, disabled, true, 1)
    }

    /// [`Pretreat::run_rules`], taking the first census of the functions
    /// on `threads` threads (see the module docs); the result does not
    /// depend on `threads`.
    pub fn run_rules_on<M: IrEdit + ?Sized>(
        m: &mut M,
        disabled: &[bool; 19],
        threads: usize,
    ) -> [u64; 19] {
        Self::run_rules_with(m, disabled, true, threads)
    }

    /// [`Pretreat::run_rules`]; with `use_census` false every function
    /// rule scans every function and every change starts another round
    /// (the reference behaviour the census and the function-level shortcut
    /// of `census.rs` must reproduce).
    fn run_rules_with<M: IrEdit + ?Sized>(
        m: &mut M,
        disabled: &[bool; 19],
        use_census: bool,
        threads: usize,
    ) -> [u64; 19] {
        let funcs: Vec<FuncId> = m.funcs().collect();
        let mut run = RuleRun {
            disabled,
            use_census,
            kernel_marks: annotations::legacy_kernel_marks(m),
            callees: census::CalleeRules::default(),
            counts: [0; 19],
        };
        // With several threads, the first census of every function of a
        // window is taken on all of them before the window is rewritten
        // (see the module docs).
        let ahead = use_census && threads > 1;
        let window = if ahead {
            threads.saturating_mul(WINDOW_PER_THREAD)
        } else {
            funcs.len().max(1)
        };
        for chunk in funcs.chunks(window) {
            let first: Vec<Option<census::RuleMask>> = if ahead {
                // Each thread keeps one callee memo for the window (no rule
                // runs before the window's censuses are all taken).
                par_map_funcs_with(
                    &*m,
                    chunk,
                    threads,
                    census::CalleeRules::default,
                    |callees, m, f| {
                        (!m.func_is_declaration(f)).then(|| census::census(m, f, callees))
                    },
                )
            } else {
                Vec::new()
            };
            for (k, &f) in chunk.iter().enumerate() {
                if !m.func_is_declaration(f) {
                    run.function(m, f, first.get(k).copied().flatten());
                }
            }
        }
        for r in PRETREAT_RULES
            .iter()
            .filter(|r| r.scope == RuleScope::Module)
        {
            let k = usize::from(r.number) - 1;
            if !disabled[k] {
                run.counts[k] += run_module_rule(m, r.number);
            }
        }
        run.counts
    }
}

/// The state of one run of the function rules over a module.
struct RuleRun<'a> {
    disabled: &'a [bool; 19],
    use_census: bool,
    /// Functions `!nvvm.annotations` marks as kernels (rule 17).
    kernel_marks: HashSet<FuncId>,
    callees: census::CalleeRules,
    /// Rewrites per rule (index = number - 1).
    counts: [u64; 19],
}

impl RuleRun<'_> {
    /// The function rules on `f`, round after round; `first` is a census
    /// of `f` taken ahead, if one was.
    fn function<M: IrEdit + ?Sized>(
        &mut self,
        m: &mut M,
        f: FuncId,
        first: Option<census::RuleMask>,
    ) {
        let use_census = self.use_census;
        // Changes that leave the body alone (rules 1 and 17) neither need a
        // new census nor start a new round (see `census::FUNCTION_LEVEL`).
        let body_rules = if use_census {
            !census::FUNCTION_LEVEL
        } else {
            census::ALL_FUNCTION_RULES
        };
        // Rules that can find nothing in `f` are skipped (see `census.rs`).
        // The census is retaken after every change to the body, so it
        // always describes the body as it is: a new round starts from the
        // last one taken.
        let take_census = |m: &M, callees: &mut census::CalleeRules| {
            if use_census {
                census::census(m, f, callees)
            } else {
                census::ALL_FUNCTION_RULES
            }
        };
        let mut may = match first {
            Some(c) => c,
            None => take_census(m, &mut self.callees),
        };
        // One round applies rules 1..=18 in the spec's order. A later rule
        // can expose work for an earlier one (rule 7 collapsing a GEP
        // between two addrspacecasts hands rule 3 a round trip), so rounds
        // repeat until one changes nothing: the pass is then idempotent
        // while every rule still runs in the spec's order.
        for _round in 0..MAX_ROUNDS {
            let mut round_changes = 0;
            for r in PRETREAT_RULES
                .iter()
                .filter(|r| r.scope == RuleScope::Function)
            {
                let k = usize::from(r.number) - 1;
                if self.disabled[k] || may & census::bit(r.number) == 0 {
                    continue;
                }
                let mut n = if r.number == 17 {
                    annotations::lift_if_marked(m, f, self.kernel_marks.contains(&f))
                } else {
                    run_function_rule(m, r.number, f)
                };
                self.counts[k] += n;
                // Rule 14 exists "so cleanup 5 can delete" what it rewrote.
                if r.number == 14 && n > 0 && !self.disabled[4] {
                    let d = run_function_rule(m, 5, f);
                    self.counts[4] += d;
                    n += d;
                }
                // The census was taken of the function before this change:
                // take it again for the rules still to run.
                if n > 0 && body_rules & census::bit(r.number) != 0 {
                    round_changes += n;
                    if census::STALE_CALLEE_RULES & census::bit(r.number) != 0 {
                        self.callees.clear();
                    }
                    may = take_census(m, &mut self.callees);
                }
            }
            if round_changes == 0 {
                break;
            }
        }
    }
}

impl<M: IrEdit + ?Sized> ModulePass<M> for Pretreat {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(
        &mut self,
        m: &mut M,
        cx: &mut PassContext<'_>,
    ) -> Result<PreservedOrChanged, PassFailure> {
        let disabled = match parse_disabled(&cx.knob_str(&PRETREAT_DISABLE)) {
            Ok(d) => d,
            Err(msg) => {
                let e = cx.error("BadKnob").text(msg.clone());
                cx.emit(e);
                return Err(PassFailure::new(msg));
            }
        };
        let counts = Self::run_rules_on(m, &disabled, cx.threads());
        for (stat, &n) in RULE_STATS.iter().zip(&counts) {
            cx.add_stat(stat, n);
        }
        Ok(PreservedOrChanged::from_changed(
            counts.iter().any(|&n| n > 0),
        ))
    }
}

/// Registers `pretreat` / `Pretreat`.
pub fn register<M: IrEdit + ?Sized>(r: &mut Registry<M>) {
    let added = r.register(&INFO, |_| {
        Ok(AnyPass::Transform(alloc::boxed::Box::new(Pretreat)))
    });
    debug_assert!(added.is_ok(), "pretreat registered twice");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knob_parsing() {
        let d = parse_disabled("5, 14,unreachable-blocks").unwrap();
        let on: Vec<usize> = (0..19).filter(|&i| d[i]).map(|i| i + 1).collect();
        assert_eq!(on, [5, 14, 18]);
        assert_eq!(parse_disabled("").unwrap(), [false; 19]);
        assert!(parse_disabled("0").is_err());
        assert!(parse_disabled("20").is_err());
        assert!(parse_disabled("nope").is_err());
        assert!(PRETREAT_DISABLE.default_value().is_ok());
    }

    #[test]
    fn stats_follow_the_table() {
        for (s, r) in RULE_STATS.iter().zip(&PRETREAT_RULES) {
            assert_eq!(s.name, r.name);
        }
    }
}

/// Properties over every lit input of this pass, through the reference IR.
#[cfg(all(test, feature = "std"))]
mod idempotence {
    use super::*;
    use nvpass_ir::{parse_module, print_module};

    /// One run reaches a fixpoint: a second run rewrites nothing and prints
    /// the same text (spec 002: each cleanup is idempotent).
    #[test]
    fn second_run_changes_nothing() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/lit/pretreat");
        let mut seen = 0;
        for entry in std::fs::read_dir(dir).expect("lit directory") {
            let path = entry.expect("entry").path();
            if path.extension().is_none_or(|e| e != "ll") {
                continue;
            }
            let src = std::fs::read(&path).expect("read");
            let mut m = parse_module(&src).expect("parse");
            Pretreat::run_rules(&mut m, &[false; 19]);
            let once = print_module(&m);
            let mut again = parse_module(once.as_bytes()).expect("reparse");
            let counts = Pretreat::run_rules(&mut again, &[false; 19]);
            assert_eq!(counts, [0; 19], "{}: second run rewrote", path.display());
            assert_eq!(print_module(&again), once, "{}", path.display());
            seen += 1;
        }
        assert!(seen >= 21);
    }

    /// Skipping the rules the census rules out changes nothing: on every
    /// lit input of every pass (and the corpus, when built), running with
    /// and without the census gives the same counts and the same IR.
    #[test]
    fn census_matches_full_runs() {
        let lit = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/lit");
        let mut files = Vec::new();
        for dir in std::fs::read_dir(lit).expect("lit directory") {
            let dir = dir.expect("entry").path();
            if dir.is_dir() {
                for entry in std::fs::read_dir(&dir).expect("lit subdirectory") {
                    files.push(entry.expect("entry").path());
                }
            }
        }
        if let Some(home) = std::env::var_os("HOME") {
            let corpus = std::path::Path::new(&home).join(".cache/nvpass-corpus/ll");
            if let Ok(rd) = std::fs::read_dir(corpus) {
                files.extend(rd.filter_map(|e| e.ok()).map(|e| e.path()));
            }
        }
        let mut compared = 0;
        let mut rewriting = 0;
        for path in files {
            if path.extension().is_none_or(|e| e != "ll") {
                continue;
            }
            let src = std::fs::read(&path).expect("read");
            // Inputs of error tests do not parse; they have nothing to check.
            let Ok(mut full) = parse_module(&src) else {
                continue;
            };
            let mut fast = parse_module(&src).expect("parses twice");
            let mut ahead = parse_module(&src).expect("parses three times");
            let full_counts = Pretreat::run_rules_with(&mut full, &[false; 19], false, 1);
            let fast_counts = Pretreat::run_rules_with(&mut fast, &[false; 19], true, 1);
            // The first censuses taken ahead on two threads: every one of
            // a window is taken before any function of it is rewritten,
            // and on these inputs one window holds every function, so
            // each is as old as it can be when it is used.
            let ahead_counts = Pretreat::run_rules_with(&mut ahead, &[false; 19], true, 2);
            assert_eq!(fast_counts, full_counts, "{}", path.display());
            assert_eq!(ahead_counts, full_counts, "{}", path.display());
            let text = print_module(&full);
            assert_eq!(print_module(&fast), text, "{}", path.display());
            assert_eq!(print_module(&ahead), text, "{}", path.display());
            compared += 1;
            rewriting += usize::from(full_counts.iter().any(|&n| n > 0));
        }
        assert!(compared >= 100, "only {compared} inputs compared");
        assert!(rewriting >= 20, "only {rewriting} inputs had rewrites");
    }
}
