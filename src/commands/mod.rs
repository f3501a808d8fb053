//! One short function per command: each takes its validated job from [`crate::cli`], calls
//! the engine, and hands the result to [`crate::report`]. Commands not moved here yet run
//! in [`crate::run`].

pub mod canon;
pub mod enumerate;
pub mod render;

use std::io;
use std::path::Path;

use anyhow::{Context, Result};

/// The whole of `path`, or of standard input when `None`.
pub fn read_input(path: Option<&Path>) -> Result<String> {
    match path {
        Some(p) => {
            std::fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()))
        }
        None => io::read_to_string(io::stdin()).context("cannot read standard input"),
    }
}
