//! Helpers of the program's tests: the library tests' helpers (bundled assets and their sizes),
//! and a way to run the program.
#![allow(dead_code)] // each test binary uses a different part

#[path = "../../../../tests/common/mod.rs"]
mod library;

pub use library::*;

/// Runs the `obbtree` program with `args` and `NO_COLOR` set, and returns what it did.
pub fn obbtree(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_obbtree"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}
