//! Properties of every registered pass on generated modules.
//!
//! 200 modules from the structured generator (`nvpass-ir/tests/support/
//! gen.rs`, seeds 0..200 of a xorshift stream) exercise the shapes the
//! passes care about: kernels marked by calling convention or
//! `!nvvm.annotations`, pointers in four address spaces and casts between
//! them, `noalias` parameters, recursive and `alwaysinline` call graphs,
//! CDP launches, debug info and unknown metadata. For each module and for
//! each registered pass on its own and all of them in a row
//! (`support/check.rs`):
//!
//! * the pass either declines with a diagnostic or its output verifies;
//! * the output prints and parses back to the same bytes;
//! * running the pass again changes nothing (idempotence);
//! * unknown attributes, debug info and named metadata survive.
//!
//! The first 100 modules also run each pass option and behaviour knob set
//! away from its default (`check::CONFIGS`), with the same properties, and
//! the first 60 five pipelines each of passes and configurations in random
//! order (held to what the registered pipeline is held to).
//!
//! The registry is iterated, so passes registered later are covered
//! without editing this file. Where `opt-19` is installed, LLVM's verifier
//! also judges every generated input and, for every fourth module, the
//! output of the whole registered pipeline.

#[path = "../../nvpass-ir/tests/support/check.rs"]
mod check;
#[path = "../../nvpass-ir/tests/support/gen.rs"]
mod gen;

use nvpass_core::pipeline::Pipeline;
use nvpass_ir::{print_module, Module};
use std::path::PathBuf;
use std::process::Command;

const MODULES: u64 = 200;

/// Modules each configuration of `check::CONFIGS` runs on (the first of
/// the [`MODULES`]): there are more configurations than passes.
const CONFIG_MODULES: u64 = 100;

fn generated(seed: u64) -> String {
    gen::module(&mut gen::XorShift::new(seed), gen::Limits::default())
}

#[test]
fn every_pass_on_generated_modules() {
    let registry = nvpass_passes::registry::<Module>();
    let pipelines = check::pipelines(&registry);
    println!("pipelines checked: {pipelines:?}");
    let (mut held, mut declined) = (0usize, 0usize);
    for seed in 0..MODULES {
        let src = generated(seed);
        let m = check::load(src.as_bytes())
            .unwrap_or_else(|e| panic!("seed {seed}: generated module: {e}"));
        for p in &pipelines {
            if let Some(dir) = std::env::var_os("NVPASS_PROPERTY_TRACE") {
                // Trace each check and keep the module, to reproduce a hang
                // or failure with nvpass-cli.
                eprintln!("seed {seed}: {p}");
                let _ = std::fs::write(PathBuf::from(dir).join(format!("seed{seed}.ll")), &src);
            }
            match check::check(&registry, p, &m) {
                Ok(check::Outcome::Held) => held += 1,
                Ok(check::Outcome::Declined(_)) => declined += 1,
                Err(e) => panic!("seed {seed}: {e}"),
            }
        }
    }
    println!("{held} runs held every property, {declined} declined");
    assert_eq!(held + declined, pipelines.len() * MODULES as usize);
}

/// Every pass option and behaviour knob set away from its default
/// (`check::CONFIGS`), on the first [`CONFIG_MODULES`] modules: the same
/// properties, with the knobs set for both runs (a budget counted per run
/// only needs its second run to verify).
#[test]
fn every_configuration_on_generated_modules() {
    let registry = nvpass_passes::registry::<Module>();
    let mut held = vec![0usize; check::CONFIGS.len()];
    for seed in 0..CONFIG_MODULES {
        let src = generated(seed);
        let m = check::load(src.as_bytes())
            .unwrap_or_else(|e| panic!("seed {seed}: generated module: {e}"));
        for (k, config) in check::CONFIGS.iter().enumerate() {
            match check::check_config(&registry, config, &m) {
                Ok(check::Outcome::Held) => held[k] += 1,
                Ok(check::Outcome::Declined(_)) => {}
                Err(e) => panic!("seed {seed}: {e}"),
            }
        }
    }
    // No configuration is simply refused: each ran to the end, and held,
    // on at least a quarter of the modules.
    for (config, n) in check::CONFIGS.iter().zip(&held) {
        println!("{n:4} held: {} {:?}", config.pipeline, config.knobs);
        assert!(
            *n >= CONFIG_MODULES as usize / 4,
            "{config:?} held on {n} modules only"
        );
    }
}

/// Pipelines drawn from a fixed seed, [`SEQUENCE_STEPS`] steps long at
/// most, each step a registered pass or one of `check::CONFIGS`, on the
/// first [`SEQUENCE_MODULES`] modules, [`SEQUENCES_PER_MODULE`] pipelines
/// each:
/// passes in orders neither the single-pass checks nor the registered
/// pipeline run (an inliner after `ipmsp`, `cdp` after `kernel-arg-elim`,
/// `pretreat` last). Held to what any pipeline of several passes is held
/// to (`check::check_sequence`). `NVPASS_SEQUENCE_MODULES` runs more
/// modules.
#[test]
fn random_pipelines_on_generated_modules() {
    let registry = nvpass_passes::registry::<Module>();
    let names: Vec<&str> = registry.names().collect();
    let modules = std::env::var("NVPASS_SEQUENCE_MODULES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(SEQUENCE_MODULES);
    let mut pick = gen::XorShift::new(0x5eed);
    let (mut held, mut declined, mut conflicting) = (0usize, 0usize, 0usize);
    let mut orders = std::collections::HashSet::new();
    for seed in 0..modules {
        let src = generated(seed);
        let m = check::load(src.as_bytes())
            .unwrap_or_else(|e| panic!("seed {seed}: generated module: {e}"));
        for _ in 0..SEQUENCES_PER_MODULE {
            let len = 2 + (pick.next_u64() % (SEQUENCE_STEPS as u64 - 1)) as usize;
            let steps: Vec<check::Step<'_>> = (0..len)
                .map(|_| check::nth_step(&names, pick.next_u64() as usize))
                .collect();
            match check::check_sequence(&registry, &steps, &m) {
                Ok(Some(check::Outcome::Held)) => held += 1,
                Ok(Some(check::Outcome::Declined(_))) => declined += 1,
                Ok(None) => conflicting += 1,
                Err(e) => panic!("seed {seed}: {steps:?}: {e}"),
            }
            if let Some((pipeline, _)) = check::sequence(&steps) {
                orders.insert(pipeline);
            }
        }
    }
    println!("{held} held, {declined} declined, {conflicting} with conflicting knobs; {} distinct pipelines", orders.len());
    let drawn = (modules * SEQUENCES_PER_MODULE) as usize;
    assert_eq!(held + declined + conflicting, drawn);
    // The draw is not degenerate: at least half of the pipelines differ
    // from each other, and at least half run to the end.
    assert!(
        orders.len() * 2 >= drawn,
        "{} distinct of {drawn}",
        orders.len()
    );
    assert!(held * 2 >= drawn, "{held} of {drawn} held");
}

/// Modules [`random_pipelines_on_generated_modules`] runs on.
const SEQUENCE_MODULES: u64 = 60;

/// Pipelines drawn for each of those modules.
const SEQUENCES_PER_MODULE: u64 = 5;

/// Steps in a drawn pipeline: 2 to this many.
const SEQUENCE_STEPS: usize = 6;

/// The generator's modules differ from seed to seed and cover every shape
/// it knows (so a generator regression cannot silently shrink the
/// property test).
#[test]
fn generator_covers_its_shapes() {
    let all: String = (0..MODULES).map(generated).collect();
    for shape in [
        "ptx_kernel",
        "!nvvm.annotations",
        "alwaysinline",
        "noinline",
        "addrspacecast",
        "ptr addrspace(3)",
        "noalias",
        "phi ",
        "switch ",
        "@cudaLaunchDevice(ptr @",
        "!DISubprogram",
        "!nvpass.fuzz",
        "\"nvpass-unknown\"=\"kept\"",
        "atomicrmw",
        "maxntidx",
    ] {
        assert!(
            all.contains(shape),
            "no generated module contains `{shape}`"
        );
    }
    assert_ne!(generated(1), generated(2));
    assert_eq!(generated(7), generated(7));
}

/// Generated modules are valid LLVM IR, and the whole registered pipeline
/// leaves valid LLVM IR, by `opt-19 -passes=verify`.
#[test]
fn llvm_verifier_accepts_inputs_and_outputs() {
    if Command::new("opt-19").arg("--version").output().is_err() {
        println!("note: opt-19 not installed; skipping");
        return;
    }
    let registry = nvpass_passes::registry::<Module>();
    let all: Vec<&str> = registry.names().collect();
    let all = all.join(",");
    let dir = std::env::temp_dir().join(format!("nvpass-properties-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let opt_verify = |path: &PathBuf, what: &str| {
        let out = Command::new("opt-19")
            .args(["-passes=verify", "-disable-output"])
            .arg(path)
            .output()
            .expect("run opt-19");
        assert!(
            out.status.success(),
            "{what}: opt-19 rejects {}:\n{}",
            path.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    };
    for seed in 0..MODULES {
        let src = generated(seed);
        let path = dir.join(format!("gen{seed}.ll"));
        std::fs::write(&path, &src).unwrap();
        opt_verify(&path, &format!("seed {seed}"));
        if seed % 4 == 0 && !all.is_empty() {
            let m = check::load(src.as_bytes()).unwrap();
            if let Ok(out) = check::run(&registry, &all, &m) {
                let path = dir.join(format!("gen{seed}.out.ll"));
                std::fs::write(&path, print_module(&out)).unwrap();
                opt_verify(&path, &format!("seed {seed} after '{all}'"));
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Each registered pass is reachable by both spellings, and its pipeline
/// text prints back to itself.
#[test]
fn registered_names_round_trip_as_pipelines() {
    let registry = nvpass_passes::registry::<Module>();
    for e in registry.entries() {
        for name in [e.info.name, e.info.class_name] {
            let p = Pipeline::parse(name).unwrap_or_else(|err| panic!("{name}: {err}"));
            assert_eq!(p.to_string(), name);
            registry
                .build(&p)
                .unwrap_or_else(|err| panic!("{name} does not build: {err}"));
        }
    }
}

/// A pipeline's second run may prove an error in the input that its first
/// run could not see, and the checks take that as a refusal, not a broken
/// invariant. `@f` does an atomic through what `@first` returns, its first
/// argument, and calls itself with a local `alloca`. On the first run,
/// `ipmsp` clones `@f` for the local argument (`@f.local`) and `@first` for
/// the constant one (`@first.generic.const`), after the inliners have run.
/// On the second, `force-inline` inlines the `alwaysinline` clone of
/// `@first` into `@f.local`, and `memspace-opt` then sees the atomic on
/// local memory there, which is an error (found by the `passes` fuzz
/// target).
#[test]
fn a_pipeline_may_prove_an_error_on_its_second_run() {
    let src = r#"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@table = internal addrspace(4) constant i32 0, align 4

define void @f(ptr %p, i1 %again) {
entry:
  %slot = alloca i32, align 4
  %q = call ptr @first(ptr %p, ptr addrspacecast (ptr addrspace(4) @table to ptr))
  %old = atomicrmw add ptr %q, i32 1 seq_cst, align 4
  br i1 %again, label %recurse, label %done
recurse:
  call void @f(ptr %slot, i1 false)
  br label %done
done:
  ret void
}

define ptr @first(ptr %x, ptr %y) {
entry:
  ret ptr %x
}
"#;
    let registry = nvpass_passes::registry::<Module>();
    let all = check::pipelines(&registry).pop().expect("a pipeline");
    let m = check::load(src.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    let once = check::run(&registry, &all, &m).expect("the first run succeeds");
    let text = print_module(&once);
    assert!(text.contains("define internal void @f.local("), "{text}");
    assert!(text.contains("@first.generic.const("), "{text}");
    let why = match check::run(&registry, &all, &once) {
        Ok(_) => panic!("the second run succeeded"),
        Err(why) => why,
    };
    assert!(why.contains("Cannot do atomic on local memory"), "{why}");
    match check::check(&registry, &all, &m) {
        Ok(check::Outcome::Declined(why)) => assert!(why.starts_with("second run: "), "{why}"),
        other => panic!("{other:?}"),
    }
}
