//! `pq-sat cube-status DIR`: the results of a cube directory merged (from any number of
//! workers and machines) into what is proven, and with `--check` the whole bundle re-checked
//! from its files.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;
use clap::Args as ClapArgs;
use pq_engine::cube::status::Sample;
use pq_ops::cube_status::CubeStatus;

use crate::args::{parse_jobs, parse_timeout};

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

impl super::Job for CubeStatusArgs {
    fn run(self: Box<Self>) -> Result<u8> {
        let sample = self.sample.map(|k| Sample {
            cubes: usize::try_from(k).unwrap_or(usize::MAX),
            seed: self.seed,
        });
        let jobs = self.jobs.unwrap_or_else(crate::args::default_jobs);
        CubeStatus {
            check: self.check.then_some((self.timeout, jobs, sample)),
            dir: self.dir,
            format: self.report.format.into(),
        }
        .run()
    }
}
