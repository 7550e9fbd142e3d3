//! Links the `nvpass-cli` executable at a fixed address on Linux
//! (`-no-pie`), unless the environment variable `NVPASS_CLI_PIE` is set at
//! build time.
//!
//! A position-independent executable is relocated by the dynamic loader
//! each time it starts: about 8,800 relocations that write 44 pages of
//! tables before `main` runs. The driver is started once per input
//! file, like `opt`, so that cost is paid on every run. Measured on the
//! 2-vCPU machine CI runs on, `run --pipeline ''`, medians of 21
//! alternating runs, in two series: libdevice 23.5 → 22.3 ms and
//! 24.7 → 24.0 ms, `cub_kernels.fe` 6.2 → 5.9 ms and 6.3 → 6.2 ms, a
//! two-line module 1.6 → 1.4 ms and 1.6 → 1.5 ms. The code is compiled
//! as before; only the link differs, and the output is the same.
//!
//! The library crates are not affected: this script only adds a link
//! argument to this package's binaries.
//!
//! A build with the C runtime linked in (`-C target-feature=+crt-static`,
//! the default on musl) is left alone: rustc links it as a static PIE,
//! which relocates itself, and adding `-no-pie` to that link made an
//! executable that crashed before `main`. Such a build is put at a fixed
//! address with `-C relocation-model=static` instead (see the README).

fn main() {
    println!("cargo:rerun-if-env-changed=NVPASS_CLI_PIE");
    let linux = std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux");
    let crt_static = std::env::var("CARGO_CFG_TARGET_FEATURE")
        .is_ok_and(|fs| fs.split(',').any(|f| f == "crt-static"));
    if linux && !crt_static && std::env::var_os("NVPASS_CLI_PIE").is_none() {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
