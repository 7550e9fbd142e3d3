//! The invariants every registered pass must keep, checked on one module.
//!
//! Shared by the adversarial tests, the property tests and the `passes`
//! fuzz target (each includes it with `#[path = ...] mod check;`). For a
//! pipeline and a verified input module:
//!
//! * the run either succeeds or declines with a pass failure or an error
//!   diagnostic (a located refusal is not a bug); it never panics;
//! * after a successful run the verifier accepts the module;
//! * the printed result parses back and prints to the same bytes;
//! * running the pipeline again on the result succeeds and prints the same
//!   bytes (idempotence) for each pass on its own; a pipeline of several
//!   passes must verify on its second run too (a later pass may enable an
//!   earlier one, so it need not be idempotent), or decline it with error
//!   diagnostics only: what a later pass left (an `ipmsp` clone, inlined on
//!   the next run) can let an earlier pass prove an error in the input that
//!   it could not see the first time. A pass failure on the second run is
//!   still a broken invariant;
//! * what the passes do not own survives ([`preserved`]): unknown string
//!   attributes and `!dbg` attachments of surviving functions, and the
//!   module-level named metadata.
//!
//! The pipelines checked are every registered pass on its own (pipeline
//! name, default options) and all of them in registration order, so a pass
//! registered later is covered without touching the tests. [`CONFIGS`]
//! adds each pass option and behaviour knob set away from its default
//! ([`check_config`]), and [`check_sequence`] pipelines in any order of
//! passes and configurations.
#![allow(dead_code)]

use nvpass_core::pass::Session;
use nvpass_core::registry::Registry;
use nvpass_ir::verify::verify_module;
use nvpass_ir::{parse_module, print_module, Module};

/// What happened to one pipeline on one module.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Ran, and every invariant held.
    Held,
    /// The pipeline declined (pass failure or error diagnostic): the
    /// message.
    Declined(String),
}

/// Registered passes the property checks leave out, with the reason.
///
/// None: every registered pass is idempotent on the generated modules.
pub const EXCLUDED_PASSES: &[&str] = &[];

/// The pipelines to check: each registered pass alone (but
/// [`EXCLUDED_PASSES`]), then all of them in registration order.
pub fn pipelines(registry: &Registry<Module>) -> Vec<String> {
    let names: Vec<&str> = registry
        .names()
        .filter(|n| !EXCLUDED_PASSES.contains(n))
        .collect();
    let mut out: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    if names.len() > 1 {
        out.push(names.join(","));
    }
    out
}

/// Runs `pipeline` on a copy of `m`: `Err` when the pipeline declined,
/// else the module after the run.
pub fn run(registry: &Registry<Module>, pipeline: &str, m: &Module) -> Result<Module, String> {
    run_with(registry, pipeline, m, &[])
}

/// [`run`] with global knobs set (`(name, value)`, as `--name=value`).
pub fn run_with(
    registry: &Registry<Module>,
    pipeline: &str,
    m: &Module,
    knobs: &[(&str, &str)],
) -> Result<Module, String> {
    run_or_decline(registry, pipeline, m, knobs).map_err(|d| match d {
        Decline::Failure(why) | Decline::Errors(why) => why,
    })
}

/// Why a run declined.
enum Decline {
    /// A pass failed.
    Failure(String),
    /// The passes ran and reported errors (rendered).
    Errors(String),
}

/// [`run_with`], saying why the pipeline declined.
fn run_or_decline(
    registry: &Registry<Module>,
    pipeline: &str,
    m: &Module,
    knobs: &[(&str, &str)],
) -> Result<Module, Decline> {
    let mut pm = registry
        .build_text(pipeline)
        .unwrap_or_else(|e| panic!("pipeline '{pipeline}' does not build: {e}"));
    let mut values = registry.knob_values().expect("knobs declare");
    for (k, v) in knobs {
        values
            .set(k, v)
            .unwrap_or_else(|e| panic!("knob --{k}={v}: {e}"));
    }
    let mut session = Session::new(values);
    let mut out = m.clone();
    if let Err(e) = pm.run(&mut out, &mut session, &mut []) {
        return Err(Decline::Failure(e.to_string()));
    }
    if session.diags.has_errors() {
        let mut text = String::new();
        for d in session.diags.diagnostics() {
            text.push_str(&d.render_text());
            text.push('\n');
        }
        return Err(Decline::Errors(text));
    }
    Ok(out)
}

fn verify_text(m: &Module) -> Result<(), String> {
    verify_module(m).map_err(|errs| {
        errs.iter()
            .map(|e| e.describe(m))
            .collect::<Vec<_>>()
            .join("\n")
    })
}

/// Parses, verifies and prints `src`, checking the print/parse fixpoint;
/// returns the module. `Err` describes the broken invariant.
pub fn load(src: &[u8]) -> Result<Module, String> {
    let m = parse_module(src).map_err(|e| e.render("input.ll", src))?;
    verify_text(&m).map_err(|e| format!("input does not verify:\n{e}"))?;
    fixpoint(&m)?;
    Ok(m)
}

/// print -> parse -> print gives identical bytes; returns the text.
pub fn fixpoint(m: &Module) -> Result<String, String> {
    let once = print_module(m);
    let again = parse_module(once.as_bytes()).map_err(|e| {
        format!(
            "printed module does not parse:\n{}",
            e.render("printed.ll", once.as_bytes())
        )
    })?;
    let twice = print_module(&again);
    if once != twice {
        return Err(format!(
            "print/parse is not a fixpoint:\n{}",
            first_difference(&once, &twice)
        ));
    }
    Ok(once)
}

/// The first differing line of two texts, for messages.
pub fn first_difference(a: &str, b: &str) -> String {
    for (i, (x, y)) in a.lines().zip(b.lines()).enumerate() {
        if x != y {
            return format!("line {}:\n- {x}\n+ {y}", i + 1);
        }
    }
    format!("{} lines vs {} lines", a.lines().count(), b.lines().count())
}

/// A pass checked with pass options or global knobs other than the
/// defaults [`pipelines`] runs with.
#[derive(Debug)]
pub struct Config {
    /// The pipeline text (one pass, possibly with `<options>`).
    pub pipeline: &'static str,
    /// Global knobs set for both runs, as `--name=value`.
    pub knobs: &'static [(&'static str, &'static str)],
    /// Whether the second run must change nothing. A budget that counts
    /// per run (clone attempts, inlining cost) lets the second run do what
    /// the first run's budget refused, so those configurations need only
    /// verify on their second run, as a pipeline of several passes does.
    pub idempotent: bool,
}

/// The configurations [`check_config`] covers: every pass option and
/// every global knob that changes what a pass does, each set away from its
/// default (the trace knobs, which only add notes, are covered by
/// `nvpass-passes/tests/threads.rs`; `--enable-ml-inliner`'s other modes
/// only refuse to run).
pub const CONFIGS: &[Config] = &[
    Config::new("inline<model=llvm>", &[]),
    Config::new("inline<model=cgscc>", &[]),
    Config::new(
        "inline<model=llvm>",
        &[("inline-enable-cost-benefit-analysis", "true")],
    ),
    Config::new("inline<model=llvm>", &[("inline-threshold", "0")]),
    Config::new("inline<model=llvm>", &[("inline-threshold", "100000")]),
    Config::new(
        "inline<model=llvm>",
        &[
            ("inline-size-allowance", "0"),
            ("inline-memaccess-cost", "10"),
        ],
    ),
    Config::new(
        "inline<model=cgscc>",
        &[("function-inline-cost-multiplier", "1")],
    ),
    Config::new("inline", &[("nv-inline-all", "true")]),
    Config::new("inline", &[("aggressive-inline", "true")]),
    Config::new("inline", &[("inline-budget", "0")]),
    Config::per_run("inline", &[("inline-budget", "60")]),
    Config::per_run("inline", &[("inline-total-budget", "100")]),
    Config::new("inline", &[("inline-adj-budget1", "0")]),
    Config::new("inline", &[("disable-inlined-alloca-merging", "true")]),
    Config::new(
        "inline",
        &[
            ("inline-switchctrl", "1"),
            ("inline-numswitchfunc", "50"),
            ("inline-maxswitchcases", "2"),
        ],
    ),
    Config::new("inline-must", &[("nv-inline-all", "true")]),
    Config::new("force-inline", &[("nv-inline-all", "true")]),
    Config::new("force-inline<mark-only>", &[]),
    Config::per_run("ipmsp<clone-budget=1>", &[]),
    Config::new("ipmsp<split-conflicts>", &[]),
    Config::new("ipmsp", &[("do-clone-for-ip-msp", "0")]),
    Config::per_run("ipmsp", &[("do-clone-for-ip-msp", "1")]),
    Config::new("byval-ref<max-clones=0>", &[]),
    Config::new("byval-ref<max-clones=1>", &[]),
    Config::new("process-restrict<propagate-only>", &[]),
    Config::new("process-restrict", &[("allow-restrict-in-struct", "true")]),
    Config::new(
        "process-restrict",
        &[("apply-multi-level-restrict", "true")],
    ),
    Config::new(
        "process-restrict",
        &[("process-restrict-propagate-only", "true")],
    ),
    Config::new("process-restrict", &[("process-restrict", "false")]),
    Config::new("memspace-opt", &[("memspace-opt-conservative", "true")]),
    Config::new("memspace-opt", &[("memspace-opt-alias-merge", "none")]),
    Config::new("memspace-opt", &[("memspace-opt-alias-merge", "unified")]),
    Config::new("memspace-opt", &[("memspace-opt-enable", "false")]),
    Config::new("kernel-arg-elim", &[("kernel-arg-elim-change-abi", "true")]),
    Config::new(
        "kernel-attr-transplant",
        &[("kernel-attr-transplant-strip", "true")],
    ),
    Config::new(
        "pretreat",
        &[("pretreat-disable", "1,3,5,7,9,11,13,15,17,19")],
    ),
    Config::new(
        "pretreat",
        &[("pretreat-disable", "2,4,6,8,10,12,14,16,18")],
    ),
];

impl Config {
    /// A configuration whose second run must change nothing.
    const fn new(pipeline: &'static str, knobs: &'static [(&'static str, &'static str)]) -> Config {
        Config {
            pipeline,
            knobs,
            idempotent: true,
        }
    }

    /// A configuration with a budget counted per run.
    const fn per_run(
        pipeline: &'static str,
        knobs: &'static [(&'static str, &'static str)],
    ) -> Config {
        Config {
            idempotent: false,
            ..Config::new(pipeline, knobs)
        }
    }
}

/// Checks one of [`CONFIGS`] on the verified module `m`, as [`check`]
/// checks a pipeline, with its knobs set on both runs.
pub fn check_config(
    registry: &Registry<Module>,
    config: &Config,
    m: &Module,
) -> Result<Outcome, String> {
    check_with(
        registry,
        config.pipeline,
        config.knobs,
        config.idempotent,
        m,
    )
    .map_err(|e| format!("{:?}: {e}", config.knobs))
}

/// One step of a pipeline built by [`sequence`]: a registered pass with
/// its default options, or one of [`CONFIGS`].
#[derive(Copy, Clone, Debug)]
pub enum Step<'a> {
    /// A registered pipeline name.
    Pass(&'a str),
    /// A configuration (its pipeline text and knobs).
    Config(&'a Config),
}

/// The `k`-th step (modulo their number) a drawn pipeline chooses from:
/// the registered pipeline names `names`, then [`CONFIGS`].
pub fn nth_step<'a>(names: &[&'a str], k: usize) -> Step<'a> {
    let k = k % (names.len() + CONFIGS.len());
    match names.get(k) {
        Some(name) => Step::Pass(name),
        None => Step::Config(&CONFIGS[k - names.len()]),
    }
}

/// The pipeline of `steps` in order, with the knobs of every
/// configuration among them set for the whole run; `None` when two steps
/// set one knob to different values (no run honours both).
pub fn sequence<'a>(steps: &[Step<'a>]) -> Option<(String, Vec<(&'a str, &'a str)>)> {
    let mut passes = Vec::with_capacity(steps.len());
    let mut knobs: Vec<(&str, &str)> = Vec::new();
    for step in steps {
        match *step {
            Step::Pass(name) => passes.push(name),
            Step::Config(c) => {
                passes.push(c.pipeline);
                for &(k, v) in c.knobs {
                    match knobs.iter().find(|(known, _)| *known == k) {
                        Some(&(_, set)) if set != v => return None,
                        Some(_) => {}
                        None => knobs.push((k, v)),
                    }
                }
            }
        }
    }
    Some((passes.join(","), knobs))
}

/// Checks the pipeline of `steps` ([`sequence`]) on the verified module
/// `m`, held to what a pipeline of several passes is held to: both runs
/// verify, the first prints to a fixpoint and keeps what the passes do not
/// own. `Ok(None)` when the steps' knobs conflict.
pub fn check_sequence(
    registry: &Registry<Module>,
    steps: &[Step<'_>],
    m: &Module,
) -> Result<Option<Outcome>, String> {
    let Some((pipeline, knobs)) = sequence(steps) else {
        return Ok(None);
    };
    check_with(registry, &pipeline, &knobs, false, m)
        .map(Some)
        .map_err(|e| format!("{knobs:?}: {e}"))
}

/// Checks `pipeline` on the verified module `m`. `Err` describes the
/// broken invariant.
pub fn check(registry: &Registry<Module>, pipeline: &str, m: &Module) -> Result<Outcome, String> {
    check_with(registry, pipeline, &[], true, m)
}

/// [`check`] with global knobs set on both runs (`(name, value)`, as
/// `--name=value`); with `idempotent` false, a single pass is held only to
/// what a pipeline of several is held to on its second run.
fn check_with(
    registry: &Registry<Module>,
    pipeline: &str,
    knobs: &[(&str, &str)],
    idempotent: bool,
    m: &Module,
) -> Result<Outcome, String> {
    let once = match run_with(registry, pipeline, m, knobs) {
        Ok(out) => out,
        Err(why) => return Ok(Outcome::Declined(why)),
    };
    verify_text(&once).map_err(|e| format!("'{pipeline}': output does not verify:\n{e}"))?;
    let text = fixpoint(&once).map_err(|e| format!("'{pipeline}': {e}"))?;
    preserved(&print_module(m), &text).map_err(|e| format!("'{pipeline}': {e}"))?;
    let several = pipeline.contains(',') || !idempotent;
    let twice = match run_or_decline(registry, pipeline, &once, knobs) {
        Ok(twice) => twice,
        // An error the first run's later passes made provable (see the
        // module docs).
        Err(Decline::Errors(why)) if several => {
            return Ok(Outcome::Declined(format!("second run: {why}")));
        }
        Err(Decline::Failure(why) | Decline::Errors(why)) => {
            return Err(format!("'{pipeline}': second run declined: {why}"));
        }
    };
    let text2 = print_module(&twice);
    if text == text2 {
        return Ok(Outcome::Held);
    }
    if !several {
        return Err(format!(
            "'{pipeline}': running twice differs from running once:\n{}",
            first_difference(&text, &text2)
        ));
    }
    // A pipeline of several passes may let a later pass enable an earlier
    // one's rewrite on the next run, so only each pass on its own must be
    // idempotent; every run of the pipeline must still verify. Two such
    // cases keep the registered pipeline from converging in one run (seed
    // 28 of `every_pass_on_generated_modules` shows both):
    // kernel-attr-transplant's marker lets pretreat's rule 1 strip a
    // migrated annotation, and ipmsp's clones are internal `alwaysinline`
    // functions that only the inliners registered before it consume
    // (`inline-must,ipmsp` run twice on a helper called with a global
    // pointer differs), after which pretreat folds the casts the inlined
    // clone left.
    verify_text(&twice)
        .map_err(|e| format!("'{pipeline}': second output does not verify:\n{e}"))?;
    Ok(Outcome::Held)
}

/// [`check`] for every pipeline of [`pipelines`]; returns how many held
/// and how many declined.
pub fn check_all(registry: &Registry<Module>, m: &Module) -> Result<(usize, usize), String> {
    let (mut held, mut declined) = (0, 0);
    for p in pipelines(registry) {
        match check(registry, &p, m)? {
            Outcome::Held => held += 1,
            Outcome::Declined(_) => declined += 1,
        }
    }
    Ok((held, declined))
}

/// The `define` line of each function in printed text, by name.
fn define_lines(text: &str) -> Vec<(&str, &str)> {
    text.lines()
        .filter(|l| l.starts_with("define "))
        .filter_map(|l| {
            let at = l.find(" @")? + 2;
            let end = l[at..].find('(')? + at;
            Some((&l[at..end], l))
        })
        .collect()
}

/// Checks that `after` (a pass's output) keeps what no nvpass pass means
/// to remove from `before` (its input): for every function defined in
/// both, the unknown attribute `"nvpass-unknown"="kept"` and a `!dbg`
/// attachment on the `define` line; and every named metadata line of
/// `before` (`!llvm.module.flags`, `!llvm.dbg.cu`, `!nvvmir.version`, ...)
/// except `!nvvm.annotations` (kernel passes rewrite it).
pub fn preserved(before: &str, after: &str) -> Result<(), String> {
    let after_defs = define_lines(after);
    for (name, line) in define_lines(before) {
        let Some((_, now)) = after_defs.iter().find(|(n, _)| *n == name) else {
            continue;
        };
        for mark in ["\"nvpass-unknown\"=\"kept\"", " !dbg !"] {
            if line.contains(mark) && !now.contains(mark) {
                return Err(format!(
                    "@{name} lost `{}`:\n- {line}\n+ {now}",
                    mark.trim()
                ));
            }
        }
    }
    for line in before.lines() {
        let named = line.starts_with('!')
            && !line.starts_with("!nvvm.annotations")
            && line
                .split_once(" = ")
                .is_some_and(|(n, _)| !n[1..].starts_with(|c: char| c.is_ascii_digit()));
        if named {
            let name = line.split_once(" = ").unwrap().0;
            if !after.lines().any(|l| l.starts_with(&format!("{name} = "))) {
                return Err(format!("named metadata {name} was dropped"));
            }
        }
    }
    Ok(())
}
