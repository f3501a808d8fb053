//! `pq-sat cube`: one step split into cubes, written as a cube directory
//! ([`pq_engine::cube`]), with a summary of the split.

use super::{directory, files, problem_input};
use pq_io::output::Output;
use std::path::Path;
use std::path::PathBuf;

use anyhow::Result;
use pq_engine::cube::estimate::{Estimate, Settings};
use pq_engine::cube::make::{make, Prepared};
use pq_engine::cube::split::Progress;
use pq_io::output::WritePolicy;
use pq_report::emit;
use pq_report::files::write_svg;
use pq_report::plot::estimate_picture;
use pq_report::progress::note;
use pq_report::split::{estimate_text, split_text, status_name, SplitSummary};
use pq_solve::control::Limits;
use pq_solve::input::read_formula;

mod args;

pub(crate) use args::{CubeArgs, CubeJob};

/// Splits (or takes the existing directory) and, with `--estimate`, predicts the cost of
/// conquering the cubes.
fn run(job: &CubeJob) -> Result<u8> {
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
            emit(a.report.format.into(), &summary, || {
                let mut out = split_text(&summary);
                if let Some(e) = &summary.estimate {
                    out += &estimate_text(e);
                }
                out
            })?;
        }
        (None, Some(e)) => emit(a.report.format.into(), &e, || estimate_text(&e))?,
        (None, None) => unreachable!("clap requires --estimate with DIR"),
    }
    Ok(0)
}

/// Solves a sample of the cubes in `dir` and predicts the rest.
fn estimate(job: &CubeJob, dir: &Path) -> Result<Estimate> {
    let a = &job.args;
    let spec = a.backend.clone().unwrap_or(pq_engine::cube::CUBE_SOLVER);
    let backend = pq_engine::plan::member(&spec, job.check_unsat)?;
    let settings = Settings {
        sample: a.sample.map_or(30, |k| k as usize),
        seed: a.seed.unwrap_or(1),
        timeout: a.timeout,
    };
    let e = pq_engine::cube::estimate::estimate(dir, backend.as_ref(), &settings, &mut |s, k| {
        note!(
            "pq-sat: cube {} ({k} of the sample): {} in {:.3} s ({:.3} s cpu)",
            s.id,
            status_name(s.status),
            s.seconds,
            s.cpu_seconds
        );
    })?;
    if let Some(path) = &a.plot {
        let policy = WritePolicy::from_force(job.args.replace.force);
        write_svg(path, &estimate_picture(&e)?, policy)?;
    }
    Ok(e)
}

/// Encodes (or reads) the formula, splits it and writes the directory at `output`.
fn split_into(job: &CubeJob, output: &Path) -> Result<SplitSummary> {
    let a = &job.args;
    let prepared = if let Some((problem, n)) = &job.problem {
        Prepared::encode(problem, *n, &a.encoding.options())
    } else {
        let path = a
            .cnf
            .as_deref()
            .expect("validated: --cnf without a problem");
        Prepared::read(read_formula(Some(path), &Limits::none())?, path)
    };
    if prepared.lines.is_none() && job.settings.method == pq_engine::cube::split::Method::Auto {
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
    let policy = WritePolicy::from_force(job.args.replace.force);
    let made = make(prepared, &job.settings, output, &job.command, policy, &tick)?;
    Ok(SplitSummary {
        dir: output.display().to_string(),
        problem: made.problem,
        variables: made.variables,
        clauses: made.clauses,
        cubes: made.record.cubes,
        split: made.record,
        estimate: None,
    })
}

impl super::Job for CubeJob {
    fn outputs(&self) -> (Vec<Output<'_>>, bool) {
        let mut out: Vec<Output> = (self.args.output.iter())
            .map(|path| directory("-o", path, pq_engine::cube::MARKER))
            .collect();
        out.extend(files("--plot", &self.args.plot));
        (out, self.args.replace.force)
    }
    fn inputs(&self) -> Vec<(&'static str, &Path)> {
        let mut inputs = problem_input(self.args.problem.problem.as_deref());
        inputs.extend(self.args.cnf.as_deref().map(|p| ("--cnf", p)));
        inputs
    }
    fn input_dirs(&self) -> Vec<&Path> {
        self.args.dir.iter().map(PathBuf::as_path).collect()
    }
    fn run(self: Box<Self>) -> Result<u8> {
        run(&self)
    }
}
