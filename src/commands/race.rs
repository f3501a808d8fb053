//! `pq-sat race`: solvers against each other on a family.

use super::files;
use crate::args::parse_jobs;
use crate::args::parse_timeout;
use clap::Args as ClapArgs;
use pq_io::output::Output;
use pq_ops::race::Race;
use std::path::Path;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;
use pq_report::race as report;

impl RaceArgs {
    /// Checks the solvers: named once each, and able to write the proofs asked for.
    pub(crate) fn validate(self, check_unsat: bool) -> Result<Race, String> {
        Ok(Race {
            solvers: pq_ops::race::solvers(&self.solver, check_unsat)?,
            check_unsat: check_unsat.then_some(pq_engine::proof::ProofFormat::Drat),
            jobs: self.jobs.unwrap_or_else(crate::args::default_jobs),
            format: self.format.race_format(),
            dir: self.dir,
            timeout: self.timeout,
            plot: self.plot,
            force: self.replace.force,
        })
    }
}

#[derive(ClapArgs, Debug)]
pub(crate) struct RaceArgs {
    #[command(flatten)]
    pub checking: crate::args::CheckUnsatArg,
    /// A family (made by `pq-sat family`), or any folder of *.cnf files
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// A solver: a backend name (kissat, minisat, cadical-bin, cadical, varisat) or a
    /// command with SAT-competition output, e.g. 'cadical -q'. Repeat for each solver
    #[arg(long = "backend", value_name = "B", required = true)]
    pub solver: Vec<String>,
    /// Time limit of each run (one solver on one instance), in seconds
    #[arg(long = "run-timeout", value_name = "SEC", default_value = "60", value_parser = parse_timeout)]
    pub timeout: Duration,
    /// Runs at a time [default: the number of cores]
    #[arg(long, short = 'j', value_name = "N", value_parser = parse_jobs)]
    pub jobs: Option<usize>,
    /// Draw a cactus plot (SVG) into FILE
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    #[command(flatten)]
    pub replace: crate::args::ForceArg,
    /// Output format: text (a table), json (every run) or csv (one row per run)
    #[arg(help_heading = "Output", long, value_enum, value_name = "FORMAT", default_value_t = RaceOutput::Text)]
    pub format: RaceOutput,
}

/// `race --format`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RaceOutput {
    /// The scores table, wrong answers and disputes under it
    Text,
    /// One JSON object with the scores and every run
    Json,
    /// One CSV row per run: file, solver, expected, verdict, seconds, optimum, detail
    Csv,
}

impl RaceOutput {
    fn race_format(self) -> report::RaceFormat {
        match self {
            RaceOutput::Text => report::RaceFormat::Report(pq_report::Format::Text),
            RaceOutput::Json => report::RaceFormat::Report(pq_report::Format::Json),
            RaceOutput::Csv => report::RaceFormat::Csv,
        }
    }
}

impl super::Job for Race {
    fn outputs(&self) -> (Vec<Output<'_>>, bool) {
        (files("--plot", &self.plot), self.force)
    }
    fn input_dirs(&self) -> Vec<&Path> {
        vec![&self.dir]
    }
    fn run(self: Box<Self>) -> Result<u8> {
        (*self).run()
    }
}
