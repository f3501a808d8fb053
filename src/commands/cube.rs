//! `pq-sat cube`: one step split into cubes, written as a cube directory
//! ([`pq_engine::cube`]), with a summary of the split.

use pq_solve::output::WritePolicy;
use std::fs::File;
use std::path::Path;

use anyhow::{Context, Result};
use pq_encode::general::{encode_problem, is_peaceable_queens};
use pq_encode::{dimacs, header, Formula, Instance};
use pq_engine::compress;
use pq_engine::cube::estimate::{Estimate, Interval, Settings};
use pq_engine::cube::split::{split, Lines, Progress, Record};
use pq_engine::cube::{write_dir, Status};
use serde::Serialize;

use crate::cli::CubeJob;
use crate::files::write_svg;
use crate::plot::{estimate_svg, Predicted};
use crate::progress::note;
use crate::report::{emit, is_queens_preset};

/// The summary printed on stdout (`--format json`: this object).
#[derive(Serialize)]
struct Summary {
    /// The cube directory written.
    dir: String,
    /// What the formula is.
    problem: String,
    /// The formula's size.
    variables: u32,
    clauses: usize,
    /// The number of cubes (also `split.cubes`).
    cubes: usize,
    /// The splitter's record, as in the manifest.
    split: Record,
    /// With --estimate: the prediction.
    #[serde(skip_serializing_if = "Option::is_none")]
    estimate: Option<Estimate>,
}

/// Splits (or takes the existing directory) and, with `--estimate`, predicts the cost of
/// conquering the cubes.
pub fn run(job: &CubeJob) -> Result<u8> {
    let a = &job.args;
    let (dir, summary) = match (&a.dir, &a.output) {
        (Some(dir), _) => {
            super::input_dir(dir, "cube", "make one with `pq-sat cube ... -o DIR`")?;
            (dir.clone(), None)
        }
        (None, Some(output)) => (output.clone(), Some(split_into(job, output)?)),
        (None, None) => unreachable!("clap requires -o DIR or DIR"),
    };
    let estimate = if a.estimate {
        Some(estimate(job, &dir)?)
    } else {
        None
    };
    match (summary, estimate) {
        (Some(mut summary), estimate) => {
            summary.estimate = estimate;
            emit(a.format, &summary, || {
                let mut out = text(&summary);
                if let Some(e) = &summary.estimate {
                    out += &estimate_text(e);
                }
                out
            })?;
        }
        (None, Some(e)) => emit(a.format, &e, || estimate_text(&e))?,
        (None, None) => unreachable!("clap requires --estimate with DIR"),
    }
    Ok(0)
}

/// Solves a sample of the cubes in `dir` and predicts the rest.
fn estimate(job: &CubeJob, dir: &Path) -> Result<Estimate> {
    let a = &job.args;
    let spec = a.backend.clone().unwrap_or(pq_engine::cube::CUBE_SOLVER);
    let backend = super::member(&spec, job.check_unsat)?;
    let settings = Settings {
        sample: a.sample.map_or(30, |k| k as usize),
        seed: a.seed.unwrap_or(1),
        timeout: a.timeout,
    };
    let e = pq_engine::cube::estimate::estimate(dir, backend.as_ref(), &settings, &mut |s, k| {
        note!(
            "pq-sat: cube {} ({k} of the sample): {} in {:.3} s",
            s.id,
            status_name(s.status),
            s.seconds
        );
    })?;
    if let Some(path) = &a.plot {
        let points: Vec<Predicted> = (e.wall.iter())
            .map(|w| Predicted {
                workers: w.workers,
                seconds: w.seconds.estimate,
                low: w.seconds.low,
                high: w.seconds.high,
            })
            .collect();
        let title = format!(
            "{} cubes, sample of {} ({})",
            e.cubes,
            e.sample.len(),
            e.solver
        );
        let policy = WritePolicy::from_force(job.args.force);
        write_svg(
            path,
            &estimate_svg(&points, e.total_cpu.estimate, &title)?,
            policy,
        )?;
    }
    Ok(e)
}

fn status_name(s: Status) -> &'static str {
    match s {
        Status::Sat => "SAT",
        Status::Unsat => "UNSAT",
        Status::Unknown => "unknown",
    }
}

/// Seconds for people: seconds, minutes, hours or days.
fn duration(s: f64) -> String {
    match s {
        s if s < 120.0 => format!("{s:.2} s"),
        s if s < 7200.0 => format!("{:.1} min", s / 60.0),
        s if s < 172_800.0 => format!("{:.1} h", s / 3600.0),
        s => format!("{:.1} days", s / 86400.0),
    }
}

/// The prediction as a table.
fn estimate_text(e: &Estimate) -> String {
    let count = |st| e.sample.iter().filter(|s| s.status == st).count();
    let times = e.sample.iter().map(|s| s.seconds);
    let largest = times.clone().fold(0.0, f64::max);
    let mean = times.sum::<f64>() / e.sample.len().max(1) as f64;
    let range = |i: &Interval| format!("{} to {}", duration(i.low), duration(i.high));
    let pct = (e.confidence * 100.0).round();
    let mut out = format!(
        "estimate for {} cubes from a sample of {} ({}{}, one cube at a time, seed {}): {} UNSAT, {} SAT, {} unknown\n",
        e.cubes,
        e.sample.len(),
        e.solver,
        if e.proofs_checked {
            ", every UNSAT with its proof written and checked"
        } else {
            ""
        },
        e.seed,
        count(Status::Unsat),
        count(Status::Sat),
        count(Status::Unknown)
    );
    out += &format!(
        "sampled cube times: mean {}, largest {}\n",
        duration(mean),
        duration(largest)
    );
    out += &format!(
        "total CPU time: {} ({pct}% interval {})\n",
        duration(e.total_cpu.estimate),
        range(&e.total_cpu)
    );
    out += &format!("{:>8}  {:>12}  {pct}% interval\n", "workers", "wall time");
    for w in &e.wall {
        out += &format!(
            "{:>8}  {:>12}  {}\n",
            w.workers,
            duration(w.seconds.estimate),
            range(&w.seconds)
        );
    }
    if let Some(id) = e.sat {
        out += &format!("cube {id} is SAT: the formula is satisfiable, and conquering stops at the first SAT cube (the times above are for all cubes)\n");
    }
    if e.lower_bound {
        out += "some sampled cubes reached --timeout: every time above is a lower bound\n";
    }
    out += "the intervals cover the sampling error only: a cube harder than every sampled one can set the wall time when there are about as many workers as cubes\n";
    out
}

/// Encodes (or reads) the formula, splits it and writes the directory at `output`.
fn split_into(job: &CubeJob, output: &Path) -> Result<Summary> {
    let a = &job.args;
    let (formula, lines, problem) = if let Some((problem, n)) = &job.problem {
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
    } else {
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
    };
    if lines.is_none() && job.settings.method == pq_engine::cube::split::Method::Auto {
        note!("pq-sat: no line colours to split on (not the queens' colouring model): splitting by look-ahead");
    }
    // A large split takes minutes: a line every few seconds says how far it has got (Ctrl-C
    // ends the command at once; nothing is written before the split is done).
    let started = std::time::Instant::now();
    let shown = std::cell::Cell::new(started);
    let tick = |p: Progress| {
        if shown.get().elapsed() >= std::time::Duration::from_secs(5) {
            shown.set(std::time::Instant::now());
            note!(
                "pq-sat: splitting: {} of {} first-stage cubes looked at, {} cubes so far ({:.0} s)",
                p.done,
                p.total,
                p.cubes,
                started.elapsed().as_secs_f64()
            );
        }
        false
    };
    let mut split =
        split(&formula, lines.as_ref(), &job.settings, &tick).map_err(anyhow::Error::msg)?;
    let record = serde_json::to_value(&split.record).expect("a record serialises");
    let formula = split.extended.take().unwrap_or(formula);
    write_dir(
        output,
        &formula,
        split.cubes,
        &job.command,
        &problem,
        record,
        WritePolicy::from_force(job.args.force),
    )?;
    let summary = Summary {
        dir: output.display().to_string(),
        problem,
        variables: formula.n_vars,
        clauses: formula.n_clauses(),
        cubes: split.record.cubes,
        split: split.record,
        estimate: None,
    };
    Ok(summary)
}

/// The text summary: the count and where it went, then how the cubes were made.
fn text(s: &Summary) -> String {
    let r = &s.split;
    let mut out = format!("{} cubes in {} ({})\n", s.cubes, s.dir, s.problem);
    if r.method == pq_engine::cube::split::Method::Counts.name() {
        out += &format!(
            "split on the numbers of white rows and columns (counters added to the formula): {} pairs, {} dropped by symmetry, {} by counts\n",
            r.line_cubes, r.dropped_by_symmetry, r.dropped_by_counts
        );
    } else if r.prefix > 0 {
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
