//! Support code for the lit-style tests: a FileCheck implementation, the
//! RUN-line shell subset, and the runner. Only `tests/lit.rs` includes this.

pub mod filecheck;
pub mod lit_runner;
pub mod shell;

mod filecheck_tests;
mod runner_tests;
mod shell_tests;
