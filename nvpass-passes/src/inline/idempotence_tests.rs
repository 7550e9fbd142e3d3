//! `inline` is idempotent for every model and under non-default budgets:
//! on generated modules (the property tests' generator), a second run
//! prints the same module as the first.

use alloc::string::String;
use std::format;

use nvpass_core::pass::Session;
use nvpass_ir::{parse_module, print_module, Module};

#[path = "../../../nvpass-ir/tests/support/gen.rs"]
mod gen;

/// Seeds of the generator used here (the property test covers 200 seeds
/// with default knobs and the default model).
const SEEDS: u64 = 40;

fn run(src: &str, pipeline: &str, knobs: &[(&str, &str)]) -> (String, u64) {
    let registry = crate::registry::<Module>();
    let mut pm = registry.build_text(pipeline).unwrap();
    let mut values = registry.knob_values().unwrap();
    for (k, v) in knobs {
        values.set(k, v).unwrap();
    }
    let mut session = Session::new(values);
    let mut m = parse_module(src.as_bytes()).unwrap();
    pm.run(&mut m, &mut session, &mut []).unwrap();
    let inlined = session.stats.get("inline", &super::cost::NUM_INLINED);
    (print_module(&m), inlined)
}

#[test]
fn second_run_changes_nothing_for_every_model_and_budget() {
    let knob_sets: [&[(&str, &str)]; 4] = [
        &[],
        &[("inline-budget", "60")],
        &[("inline-total-budget", "400")],
        &[("inline-threshold", "40"), ("inline-adj-budget1", "100")],
    ];
    let mut inlined_somewhere = 0u64;
    for seed in 0..SEEDS {
        let src = gen::module(&mut gen::XorShift::new(seed), gen::Limits::default());
        for model in ["nvidia", "llvm", "cgscc"] {
            let pipeline = format!("inline<model={model}>");
            for knobs in knob_sets {
                let (once, n) = run(&src, &pipeline, knobs);
                inlined_somewhere += n;
                let (twice, again) = run(&once, &pipeline, knobs);
                assert_eq!(
                    again, 0,
                    "seed {seed}, {pipeline}, {knobs:?}: the second run inlined"
                );
                assert!(
                    once == twice,
                    "seed {seed}, {pipeline}, {knobs:?}: the second run changed the module"
                );
            }
        }
    }
    // The modules give the inliner work (so the property is not vacuous).
    assert!(inlined_somewhere > 100, "{inlined_somewhere}");
}
