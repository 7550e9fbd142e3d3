//! A host IR other than the reference one runs the threaded passes: the
//! tile IR is `Sync`, and `memspace-opt`, `process-restrict` and
//! `kernel-info` leave the same module and diagnostics with 1 and 4
//! threads.

mod common;

use common::canonical;
use common::program::tile;
use nvpass_core::pass::Session;
use nvpass_example_tile_ir::Module;

// With nvpass-core's `parallel` feature the passes share `&Module` between
// threads.
const _: () = {
    const fn assert_sync<T: Sync + ?Sized>() {}
    assert_sync::<Module>();
    // Else 4 threads would run as 1.
    assert!(nvpass_core::par::PARALLEL);
};

/// The module after `pipeline` and its diagnostics in emission order.
fn run(pipeline: &str, threads: usize) -> (String, Vec<String>) {
    let r = nvpass_passes::registry::<Module>();
    let mut pm = r.build_text(pipeline).expect("pipeline builds");
    let mut session = Session::new(r.knob_values().expect("knobs declare")).with_threads(threads);
    let mut m = tile();
    pm.run(&mut m, &mut session, &mut [])
        .unwrap_or_else(|e| panic!("pipeline '{pipeline}' failed: {e}"));
    let diags = session
        .diags
        .diagnostics()
        .iter()
        .map(|d| d.render_text())
        .collect();
    (canonical(&m), diags)
}

#[test]
fn same_with_one_and_four_threads() {
    for pipeline in [
        "memspace-opt",
        "process-restrict",
        "kernel-info",
        "kernel-attr,ipmsp,memspace-opt,process-restrict,kernel-info",
    ] {
        let one = run(pipeline, 1);
        assert_eq!(one, run(pipeline, 4), "{pipeline}");
        if pipeline == "kernel-info" {
            assert!(!one.1.is_empty(), "kernel-info reported nothing");
        }
    }
}
