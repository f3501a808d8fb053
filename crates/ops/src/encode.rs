//! `pq-sat encode`: the formula of a problem at one size as DIMACS, or its optimisation as
//! WCNF or OPB, for any solver to read.

use std::io;
use std::path::Path;

use anyhow::Result;
use pq_encode::maxsat::{self, Export, Optimisation};
use pq_encode::spec::Problem;
use pq_encode::{dimacs, Formula};
use pq_engine::plan::request::{size_asked, EncodingRequest};
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

/// What `encode` writes for `problem`, given the size `n` (`--n`), the export `format`
/// (`None`: DIMACS) and the encoding options asked; `dim` says the problem came from
/// `--dim D` (for the message that asks for `--n`). Refusals are in the command line's
/// words.
pub fn asked(
    problem: &Problem,
    n: Option<usize>,
    format: Option<Export>,
    encoding: &EncodingRequest,
    dim: bool,
) -> Result<Encoded, String> {
    if let Some(format) = format {
        if n.is_some() {
            return Err(format!("--format {}: the file states the optimisation (maximise n); leave out --n (a fixed size is --format dimacs)", format.name()));
        }
        if encoding.bounds.is_some() {
            return Err(format!(
                "--bounds: the {} export states no bound clauses; leave it out",
                format.name()
            ));
        }
        if problem.maximised().is_empty() {
            return Err(format!("--format {}: this problem maximises no group, so there is nothing to optimise (maximise one with --set GROUP=max, or write --format dimacs)", format.name()));
        }
        return Ok(Encoded::Export(format));
    }
    encoding.check_bounds(problem).map_err(|e| e.to_string())?;
    let Some(n) = size_asked(problem, n).map_err(|e| e.to_string())? else {
        return Err(if dim {
            "encode needs --dim D and --n N (or --problem FILE)".into()
        } else {
            "this problem maximises some groups: give their size with --n N (or --set GROUP=N)"
                .into()
        });
    };
    Ok(Encoded::Size(n))
}

/// A formula `encode` built: the problem at one size, or its optimisation.
#[derive(Debug, Clone)]
pub enum Built {
    /// The formula at one size, written as DIMACS.
    Cnf(Formula),
    /// The optimisation, written in its export format.
    Export(Optimisation),
}

impl Built {
    /// Encodes what `what` asks for `problem` with `options`.
    pub fn new(problem: &Problem, what: Encoded, options: &pq_encode::Options) -> Result<Built> {
        Ok(match what {
            Encoded::Size(n) => Built::Cnf(pq_encode::general::encode_problem(problem, n, options)),
            Encoded::Export(format) => Built::Export(maxsat::export(problem, options, format)?),
        })
    }

    /// Its clauses (an export's hard clauses), header and variable map.
    pub fn formula(&self) -> &Formula {
        match self {
            Built::Cnf(formula) => formula,
            Built::Export(opt) => &opt.formula,
        }
    }

    /// Writes it to `output` (atomically, compressed when the name ends in .xz, .gz or
    /// .bz2; an existing file only with `force`) or standard output.
    pub fn write(&self, output: Option<&Path>, force: bool) -> Result<()> {
        match self {
            Built::Cnf(formula) => write(output, force, |w| dimacs::write(formula, w)),
            Built::Export(opt) => write(output, force, |w| opt.write(w)),
        }
    }
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
    let built = Built::new(problem, what, options)?;
    sizes(built.formula());
    built.write(output, force)?;
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
