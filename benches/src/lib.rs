//! Benchmark support for nvpass: the synthetic module generator ([`gen`])
//! and helpers shared by the criterion benchmarks and the `gen`/`scale`
//! binaries.

pub mod gen;
pub mod heap;

use std::path::PathBuf;

/// The real-IR corpus directory (`$NVPASS_CORPUS/ll` or
/// `~/.cache/nvpass-corpus/ll`), when it exists.
pub fn corpus_dir() -> Option<PathBuf> {
    let base = std::env::var_os("NVPASS_CORPUS")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/nvpass-corpus"))
        })?;
    let dir = base.join("ll");
    dir.is_dir().then_some(dir)
}

/// The corpus modules benchmarked by name (those present), as
/// `(name, bytes)`.
pub fn corpus_modules() -> Vec<(String, Vec<u8>)> {
    let Some(dir) = corpus_dir() else {
        return Vec::new();
    };
    ["libdevice.ll", "cub_kernels.fe.ll", "generic_helpers.fe.ll"]
        .iter()
        .filter_map(|n| {
            Some((
                n.trim_end_matches(".ll").to_string(),
                std::fs::read(dir.join(n)).ok()?,
            ))
        })
        .collect()
}
