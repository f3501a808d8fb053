//! `pq-sat cube`: one step split into cubes, written as a cube directory
//! ([`pq_engine::cube`]), with a summary of the split.

use std::fs::File;

use anyhow::{Context, Result};
use pq_encode::general::{encode_problem, is_peaceable_queens};
use pq_encode::{dimacs, header, Formula, Instance};
use pq_engine::compress;
use pq_engine::cube::split::{split, Lines, Record};
use pq_engine::cube::write_dir;
use serde::Serialize;

use crate::cli::CubeJob;
use crate::progress::note;
use crate::report::{emit, is_queens_preset};

/// The summary printed on stdout (`--format json`: this object).
#[derive(Serialize)]
struct Summary<'a> {
    /// The cube directory written.
    dir: String,
    /// What the formula is.
    problem: &'a str,
    /// The formula's size.
    variables: u32,
    clauses: usize,
    /// The number of cubes (also `split.cubes`).
    cubes: usize,
    /// The splitter's record, as in the manifest.
    split: &'a Record,
}

/// Encodes (or reads) the formula, splits it and writes the directory.
pub fn run(job: &CubeJob) -> Result<u8> {
    let a = &job.args;
    let (formula, lines, problem) = match &job.problem {
        Some((problem, n)) => {
            let options = a.encoding.options();
            let formula = encode_problem(problem, *n, &options);
            let l = problem.rules.layout;
            // The specialised encoder (and so the colouring model) takes the queens only.
            let lines = (is_peaceable_queens(problem))
                .then(|| Instance::new(l.rows, problem.demands(*n)[0]).ok())
                .flatten()
                .and_then(|i| Lines::of_queens(&i, &options));
            let what = if is_queens_preset(problem) {
                format!("peaceable queens, d = {}, n = {n}", l.rows)
            } else {
                format!("{} at size {n}", problem.summary())
            };
            (formula, lines, what)
        }
        None => {
            let path = a
                .cnf
                .as_deref()
                .expect("validated: --cnf without a problem");
            let formula = read(path)?;
            let lines = Lines::recognise(&formula);
            let what = match header::subject(&formula) {
                (Some(p), Some(n)) if is_queens_preset(&p) => format!(
                    "peaceable queens, d = {}, n = {n} (from {})",
                    p.rules.layout.rows,
                    path.display()
                ),
                (Some(p), Some(n)) => {
                    format!("{} at size {n} (from {})", p.summary(), path.display())
                }
                (Some(p), None) => format!("{} (from {})", p.summary(), path.display()),
                _ => format!("the formula in {}", path.display()),
            };
            (formula, lines, what)
        }
    };
    if lines.is_none() && job.settings.method == pq_engine::cube::split::Method::Auto {
        note!("pq-sat: no line colours to split on (not the queens' colouring model): splitting by look-ahead");
    }
    let split = split(&formula, lines.as_ref(), &job.settings).map_err(anyhow::Error::msg)?;
    let record = serde_json::to_value(&split.record).expect("a record serialises");
    write_dir(
        &a.output,
        &formula,
        split.cubes,
        &job.command,
        &problem,
        record,
    )?;
    let summary = Summary {
        dir: a.output.display().to_string(),
        problem: &problem,
        variables: formula.n_vars,
        clauses: formula.n_clauses(),
        cubes: split.record.cubes,
        split: &split.record,
    };
    emit(a.format, &summary, || text(&summary))?;
    Ok(0)
}

/// The text summary: the count and where it went, then how the cubes were made.
fn text(s: &Summary) -> String {
    let r = s.split;
    let mut out = format!("{} cubes in {} ({})\n", s.cubes, s.dir, s.problem);
    if r.prefix > 0 {
        out += &format!(
            "split on {} line colours ({}): {} cubes, {} dropped by symmetry ({} of 16 symmetries keep the prefix), {} by counts\n",
            r.prefix, r.method, r.line_cubes, r.dropped_by_symmetry, r.symmetries, r.dropped_by_counts
        );
    }
    out += &format!(
        "look-ahead: {} splits (depth at most {}, easy at {} free variables); {} refuted by propagation\n",
        r.lookahead_splits, r.depth, r.free, r.refuted_by_propagation
    );
    out += if r.implied {
        "the formula implies the disjunction of the cubes: it is UNSAT exactly when every cube is\n"
    } else {
        "without lex-leader clauses the cubes are complete up to symmetry: the formula is UNSAT exactly when every cube is, but a cube dropped by symmetry may hold models\n"
    };
    out
}

/// Reads a DIMACS file (compressed ones by their first bytes).
fn read(path: &std::path::Path) -> Result<Formula> {
    let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let input =
        compress::decompressed(file).with_context(|| format!("cannot read {}", path.display()))?;
    dimacs::parse(input).with_context(|| format!("cannot read {}", path.display()))
}
