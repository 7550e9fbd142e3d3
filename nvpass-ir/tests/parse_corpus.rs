//! Parses every module of the local corpus, if present.

use nvpass_ir::parse_module;
use std::path::Path;
use std::time::Instant;

#[test]
fn corpus_parses() {
    let dir = Path::new("/root/.cache/nvpass-corpus/ll");
    if !dir.exists() {
        println!(
            "note: corpus directory {} not found; skipping",
            dir.display()
        );
        return;
    }
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "ll"))
        .collect();
    entries.sort();
    assert!(!entries.is_empty());
    for path in entries {
        let src = std::fs::read(&path).unwrap();
        let t = Instant::now();
        let m = match parse_module(&src) {
            Ok(m) => m,
            Err(e) => panic!("{}", e.render(&path.display().to_string(), &src)),
        };
        let el = t.elapsed();
        let nfuncs = m.func_ids().count();
        let ndefs = m.func_ids().filter(|&f| m.funcs[f].is_definition).count();
        let ninsts = m.insts.len();
        println!(
            "{}: {} funcs ({} defined), {} globals, {} insts, {} md, {:?}",
            path.file_name().unwrap().to_string_lossy(),
            nfuncs,
            ndefs,
            m.global_ids().count(),
            ninsts,
            m.md_numbered.len(),
            el
        );
        assert!(nfuncs > 0);
        assert!(ndefs > 0);
        assert!(ninsts > 0);
        assert!(m.triple.is_some());
        assert!(m.datalayout.is_some());
        assert!(!m.attr_groups.is_empty());
        // Every defined function has blocks, each ending in a terminator.
        for f in m.func_ids() {
            if !m.funcs[f].is_definition {
                continue;
            }
            let mut nb = 0;
            for b in m.func_blocks(f) {
                nb += 1;
                assert!(m.terminator(b).is_some());
            }
            assert!(nb > 0);
        }
        // No placeholder survives.
        for (_, v) in m.values.iter() {
            assert!(!matches!(v.kind, nvpass_ir::value::ValueKind::Placeholder));
        }
    }
}
