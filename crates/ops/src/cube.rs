//! `pq-sat cube`: one step split into cubes, written as a cube directory
//! ([`pq_engine::cube`]), with a summary of the split, and the cost of conquering them
//! estimated from a sample.

use std::path::{Path, PathBuf};

use anyhow::Result;
use pq_encode::spec::Problem;
use pq_engine::cube::estimate::{Estimate, Settings};
use pq_engine::cube::make::{make, Prepared};
use pq_engine::cube::split::Progress;
use pq_engine::proof::ProofFormat;
use pq_io::output::WritePolicy;
use pq_report::emit;
use pq_report::files::write_svg;
use pq_report::plot::estimate_picture;
use pq_report::progress::note;
use pq_report::split::{estimate_text, split_text, status_name, SplitSummary};
use pq_solve::control::Limits;
use pq_solve::input::read_formula;
use pq_solve::spec::BackendSpec;

/// A split to make, an estimate to take, or both.
#[derive(Debug)]
pub struct Cube {
    /// The cube directory to write (with [`Cube::split`]) or to read.
    pub dir: PathBuf,
    /// The split to make, if any.
    pub split: Option<Split>,
    /// The estimate to take, if any.
    pub estimate: Option<Sampling>,
    /// Whether output files may be replaced.
    pub force: bool,
    /// How the report is printed.
    pub format: pq_report::Format,
}

/// What is split, and how.
#[derive(Debug)]
pub struct Split {
    /// The problem and the size of its maximised groups, or `None` for a formula file.
    pub problem: Option<(Problem, usize)>,
    /// The formula file, without a problem.
    pub cnf: Option<PathBuf>,
    /// The problem's encoding options.
    pub options: pq_encode::Options,
    /// The splitter's settings.
    pub settings: pq_engine::cube::split::Settings,
    /// The command line, for the manifest.
    pub command: String,
}

/// An estimate of the conquest's cost from a sample of cubes.
#[derive(Debug)]
pub struct Sampling {
    /// The solver of the sample.
    pub backend: BackendSpec,
    /// The sample's UNSAT cubes proved and checked in this format, if any.
    pub check_unsat: Option<ProofFormat>,
    /// The sample's size, seed and limit.
    pub settings: Settings,
    /// Where to draw the sample's times, if anywhere.
    pub plot: Option<PathBuf>,
}

impl Cube {
    /// Splits and estimates; exit 0.
    pub fn run(&self) -> Result<u8> {
        let summary = if let Some(split) = &self.split {
            Some(split_into(split, &self.dir, self.force)?)
        } else {
            crate::input_dir(&self.dir, "cube", "make one with `pq-sat cube ... -o DIR`")?;
            None
        };
        let estimate = match &self.estimate {
            Some(sampling) => Some(estimate(sampling, &self.dir, self.force)?),
            None => None,
        };
        match (summary, estimate) {
            (Some(mut summary), estimate) => {
                summary.estimate = estimate;
                emit(self.format, &summary, || {
                    let mut out = split_text(&summary);
                    if let Some(e) = &summary.estimate {
                        out += &estimate_text(e);
                    }
                    out
                })?;
            }
            (None, Some(e)) => emit(self.format, &e, || estimate_text(&e))?,
            (None, None) => {}
        }
        Ok(0)
    }
}

fn estimate(a: &Sampling, dir: &Path, force: bool) -> Result<Estimate> {
    let backend = pq_engine::sat::member(&a.backend, a.check_unsat)?;
    let e =
        pq_engine::cube::estimate::estimate(dir, backend.as_ref(), &a.settings, &mut |s, k| {
            note!(
                "pq-sat: cube {} ({k} of the sample): {} in {:.3} s ({:.3} s cpu)",
                s.id,
                status_name(s.status),
                s.seconds,
                s.cpu_seconds
            );
        })?;
    if let Some(path) = &a.plot {
        write_svg(path, &estimate_picture(&e)?, WritePolicy::from_force(force))?;
    }
    Ok(e)
}

fn split_into(job: &Split, output: &Path, force: bool) -> Result<SplitSummary> {
    let prepared = if let Some((problem, n)) = &job.problem {
        Prepared::encode(problem, *n, &job.options)
    } else {
        let path = job
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
    let policy = WritePolicy::from_force(force);
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
