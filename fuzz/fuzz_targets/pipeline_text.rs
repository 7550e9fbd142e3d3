//! Pipeline text: `Pipeline::parse` never panics, its errors lie inside the
//! text, and the canonical `Display` text parses back to an equal pipeline
//! and prints to itself. Building it against the registry never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nvpass_core::pipeline::Pipeline;
use nvpass_core::registry::Registry;
use nvpass_ir::Module;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match Pipeline::parse(text) {
        Ok(p) => {
            let canon = p.to_string();
            let back = Pipeline::parse(&canon)
                .unwrap_or_else(|e| panic!("canonical text {canon:?} does not parse: {e}"));
            assert_eq!(back.entries.len(), p.entries.len());
            for (a, b) in back.entries.iter().zip(&p.entries) {
                assert_eq!(a.name, b.name);
                let ka: Vec<_> = a.options.iter().map(|o| (&o.key, &o.value)).collect();
                let kb: Vec<_> = b.options.iter().map(|o| (&o.key, &o.value)).collect();
                assert_eq!(ka, kb);
            }
            assert_eq!(back.to_string(), canon);
            let registry: Registry<Module> = nvpass_passes::registry();
            let _ = registry.validate(&p);
            let _ = registry.build(&p);
        }
        Err(e) => {
            assert!(e.pos <= text.len(), "error past the end: {e}");
            let _ = e.to_source_error("--passes", text).to_string();
        }
    }
});
