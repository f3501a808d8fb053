//! `pq-sat cube-status DIR`: the results of a cube directory merged (from any number of
//! workers and machines) into what is proven, and with `--check` the whole bundle re-checked
//! from its files.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args as ClapArgs;
use pq_engine::cube::status::{check_bundle, merged, summary, Sample, Verdict};
use pq_solve::control::Limits;

use super::open_cube_dir as open;
use super::{unless_interrupted, Interruptible, EXIT_SAT, EXIT_UNSAT};
use crate::args::{parse_jobs, parse_timeout};
use pq_report::cube::CubeTotals;
use pq_report::emit;

/// `pq-sat cube-status`.
#[derive(ClapArgs, Debug)]
pub(crate) struct CubeStatusArgs {
    /// The cube directory
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Re-check the whole bundle from its files: the formula's hashes, every cube's proof
    /// (against the formula plus the cube), the completeness proof, by the independent
    /// checker; exit 0 only when everything checks
    #[arg(long)]
    pub check: bool,
    /// Give up on the checks after SEC seconds (an error)
    #[arg(long, value_name = "SEC", value_parser = parse_timeout, requires = "check")]
    pub timeout: Option<Duration>,
    /// With --check: check N cubes' proofs at a time (each its own checker process; the
    /// findings are printed in cube order) [default: the number of cores]
    #[arg(long, short = 'j', value_name = "N", value_parser = parse_jobs, requires = "check")]
    pub jobs: Option<usize>,
    /// With --check: a spot check of K cubes instead of every one, drawn uniformly from the
    /// recorded UNSAT cubes (an open directory's too): for a bundle whose proofs were dropped,
    /// a full check makes every proof again and costs as much as the run did. The output says
    /// it was a sample; the exit code is 1 when a sampled check fails
    #[arg(long, value_name = "K", requires = "check", value_parser = clap::value_parser!(u64).range(1..))]
    pub sample: Option<u64>,
    /// With --sample: the seed of the draw (the same seed draws the same cubes)
    #[arg(long, value_name = "S", default_value_t = 1, requires = "sample")]
    pub seed: u64,
    #[command(flatten)]
    pub report: crate::args::FormatArg,
}

/// `cube-status DIR [--check]`.
fn run(a: &CubeStatusArgs) -> Result<u8> {
    let dir = open(&a.dir)?;
    // Checked, the completeness proof shows the cubes cover the formula; unchecked, the
    // split must be re-derived (or such a proof be on disk).
    let summary = if a.check {
        merged(&dir)?
    } else {
        summary(&dir)?
    };
    let mut totals = CubeTotals::of(&dir, &summary);
    if a.check {
        let _guard = Interruptible::enter();
        let jobs = a.jobs.unwrap_or_else(crate::args::default_jobs);
        let sample = a.sample.map(|k| Sample {
            cubes: usize::try_from(k).unwrap_or(usize::MAX),
            seed: a.seed,
        });
        let findings = check_bundle(&dir, &Limits::timeout(a.timeout), jobs, sample)
            .with_context(|| format!("cannot check the bundle in {}", dir.path.display()))?;
        totals = totals.with_checks(&findings, sample.is_some());
    }
    let placement = summary.witness.as_ref().and_then(|(_, p)| p.as_ref());
    emit(a.report.format.into(), &totals, || {
        totals.text(dir.problem.as_ref(), placement)
    })?;
    if totals.checked == Some(false) || totals.spot_checked == Some(false) {
        return Ok(1);
    }
    Ok(unless_interrupted(match summary.verdict {
        Verdict::Sat => EXIT_SAT,
        Verdict::Unsat => EXIT_UNSAT,
        Verdict::Open => 0,
    }))
}

impl super::Job for CubeStatusArgs {
    fn run(self: Box<Self>) -> Result<u8> {
        run(&self)
    }
}
