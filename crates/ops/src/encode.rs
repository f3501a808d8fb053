//! `pq-sat encode`: the formula of a problem at one size as DIMACS, or its optimisation as
//! WCNF or OPB, for any solver to read.

use std::io;
use std::path::Path;

use anyhow::Result;
use pq_encode::dimacs;
use pq_encode::maxsat::{self, Export};
use pq_encode::spec::Problem;
use pq_io::compress;
use pq_io::output::WritePolicy;
use pq_report::files::write_atomically;

use crate::sizes;

/// The one formula `encode` writes.
#[derive(Debug, Clone, Copy)]
pub enum Encoded {
    /// "At least n of each maximised group", as DIMACS.
    Size(usize),
    /// The optimisation (maximise n), as WCNF or OPB.
    Export(Export),
}

/// Writes the formula to `--output` (atomically, compressed when the name ends in .xz, .gz
/// or .bz2) or standard output.
pub fn run(
    problem: &Problem,
    what: Encoded,
    options: &pq_encode::Options,
    output: Option<&Path>,
    force: bool,
) -> Result<u8> {
    match what {
        Encoded::Size(n) => {
            let formula = pq_encode::general::encode_problem(problem, n, options);
            sizes(&formula);
            write(output, force, |w| dimacs::write(&formula, w))?;
        }
        Encoded::Export(format) => {
            let opt = maxsat::export(problem, options, format)?;
            sizes(&opt.formula);
            write(output, force, |w| opt.write(w))?;
        }
    }
    Ok(0)
}

/// Writes with `body` to `--output` or standard output.
fn write(
    output: Option<&Path>,
    force: bool,
    body: impl FnOnce(&mut dyn io::Write) -> io::Result<()>,
) -> Result<()> {
    match output {
        Some(path) => write_atomically(path, WritePolicy::from_force(force), |w| {
            compress::write_as_named(path, w, body)
        })?,
        None => body(&mut io::stdout().lock())?,
    }
    Ok(())
}
