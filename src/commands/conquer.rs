//! `pq-sat conquer DIR`: every open cube of a cube directory solved on `--jobs` workers, or
//! `--emit slurm`: the job array that does it on a cluster; its run is [`pq_ops::conquer`].

use super::files;
use pq_io::output::Output;
use std::path::Path;
use std::path::PathBuf;

use anyhow::Result;
use clap::{Args as ClapArgs, ValueEnum};
use pq_ops::conquer::{Conquer, SlurmScript};
use pq_report::slurm::Slurm;

use crate::args::{parse_jobs, CubeSolverArgs, ProgressMode};

/// What `conquer --emit` writes instead of solving.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Emit {
    /// An `sbatch` script: a Slurm job array with one task per cube
    Slurm,
}

/// `pq-sat conquer`.
#[derive(ClapArgs, Debug)]
pub(crate) struct ConquerArgs {
    #[command(flatten)]
    pub checking: crate::args::CheckUnsatArg,
    /// The cube directory (made by `pq-sat cube`)
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Worker threads, each solving one cube at a time [default: the number of cores]
    #[arg(long, short = 'j', value_name = "N", value_parser = parse_jobs)]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub solver: CubeSolverArgs,
    /// Each worker keeps one in-process CaDiCaL and solves its cubes under assumptions,
    /// keeping what it learnt from one cube to the next (no proofs)
    #[arg(long, conflicts_with_all = ["backend", "solver_cmd", "proof"])]
    pub incremental: bool,
    /// Progress on stderr: auto (a live line on a terminal, one line per cube otherwise),
    /// lines, or none
    #[arg(long, value_enum, default_value_t = ProgressMode::Auto)]
    pub progress: ProgressMode,
    #[command(flatten)]
    pub report: crate::args::FormatArg,
    /// Write a script for a cluster's scheduler instead of solving: slurm (an sbatch job
    /// array running `pq-sat solve-cube DIR $SLURM_ARRAY_TASK_ID` per cube)
    #[arg(
        long,
        value_enum,
        value_name = "ENGINE",
        conflicts_with = "incremental"
    )]
    pub emit: Option<Emit>,
    /// Where --emit writes the script (atomically) [default: standard output]
    #[arg(short, long, value_name = "FILE", requires = "emit")]
    pub output: Option<PathBuf>,
    /// Replace an existing --output
    #[arg(long, requires = "output")]
    pub force: bool,
    /// Slurm: each task's time limit (sbatch --time, e.g. 1:00:00)
    #[arg(
        long,
        value_name = "TIME",
        default_value = "1:00:00",
        requires = "emit"
    )]
    pub time: String,
    /// Slurm: each task's memory (sbatch --mem, e.g. 4G)
    #[arg(long, value_name = "MEM", default_value = "4G", requires = "emit")]
    pub mem: String,
    /// Slurm: at most M tasks at once (sbatch --array=1-N%M) [default: no limit]
    #[arg(long, value_name = "M", requires = "emit")]
    pub max_running: Option<usize>,
    /// Slurm: the partition (sbatch --partition)
    #[arg(long, value_name = "NAME", requires = "emit")]
    pub partition: Option<String>,
}

impl ConquerArgs {
    /// Checks the solver and the scheduler's settings.
    pub(crate) fn validate(self, check_unsat: bool) -> Result<Conquer, String> {
        if self.max_running == Some(0) {
            return Err("--max-running must be at least 1".into());
        }
        let slurm = self.emit.map(|Emit::Slurm| SlurmScript {
            settings: Slurm {
                partition: self.partition,
                time: self.time,
                mem: self.mem,
                max_running: self.max_running,
                timeout: self.solver.timeout,
                written_by: crate::args::command_line(),
            },
            output: self.output,
            force: self.force,
        });
        Ok(Conquer {
            solver: self.solver.validated(check_unsat)?,
            dir: self.dir,
            jobs: self.jobs.unwrap_or_else(crate::args::default_jobs),
            incremental: self.incremental,
            cube_timeout: self.solver.timeout,
            progress: self.progress.into(),
            format: self.report.format.into(),
            slurm,
        })
    }
}

impl super::Job for Conquer {
    fn outputs(&self) -> (Vec<Output<'_>>, bool) {
        match &self.slurm {
            Some(s) => (files("-o", &s.output), s.force),
            None => (Vec::new(), false),
        }
    }
    fn input_dirs(&self) -> Vec<&Path> {
        vec![&self.dir]
    }
    fn run(self: Box<Self>) -> Result<u8> {
        self.as_ref().run()
    }
}
