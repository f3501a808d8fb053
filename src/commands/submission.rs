//! `pq-sat submission`: a benchmark submission for the SAT Competition, from a pool of
//! instances to a graded, proven, described directory: its arguments; its run is
//! [`pq_ops::submission`].

use super::directory;
use pq_io::output::Output;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;
use clap::Args as ClapArgs;
use pq_ops::submission::{Submission, DEFAULT_POOL};

use crate::args::{parse_jobs, parse_timeout};

#[derive(ClapArgs, Debug)]
pub(crate) struct SubmissionArgs {
    /// The directory to create (it must not exist, or be empty; --force replaces an earlier
    /// submission)
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
    /// The pool of instances: a TOML file of `[[instance]]` entries, each with a series, a
    /// problem (peaceable-queens with dim = D, or a problem file relative to the pool), its
    /// settings (`set = ["board=9x9"]`) and n
    #[arg(long, value_name = "FILE", default_value = DEFAULT_POOL)]
    pub pool: PathBuf,
    /// A racing solver (a backend that writes DRAT proofs: kissat, cadical-bin, cadical,
    /// varisat, or a command with {proof}). Repeat for each; default: kissat and cadical-bin,
    /// the competitions' reference solvers
    #[arg(long = "backend", value_name = "B")]
    pub solver: Vec<String>,
    /// The race's limit per run, in seconds: an instance no solver answers within it is hard
    #[arg(long = "run-timeout", value_name = "SEC", default_value = "300", value_parser = parse_timeout)]
    pub timeout: Duration,
    /// Below this many seconds for the best solver an instance is easy, else medium
    /// [default: 60, or --run-timeout if that is less]
    #[arg(long, value_name = "SEC", value_parser = parse_timeout)]
    pub easy: Option<Duration>,
    /// The limit for proving a status the race left without evidence: an UNSAT solved again
    /// with a DRAT proof and checked; a hard instance given to the line engine for a
    /// witness, then to the first solver with a DRAT proof [default: 10 times --run-timeout]
    #[arg(long, value_name = "SEC", value_parser = parse_timeout)]
    pub prove_timeout: Option<Duration>,
    /// Runs at a time [default: the number of cores]
    #[arg(long, short = 'j', value_name = "N", value_parser = parse_jobs)]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub replace: crate::args::ForceArg,
    #[command(flatten)]
    pub report: crate::args::FormatArg,
}

impl SubmissionArgs {
    /// Checks the solvers (each must write a DRAT proof the checker reads, or its UNSAT
    /// answers could not be proven), the limits and the pool.
    pub(crate) fn validate(self) -> Result<Submission, String> {
        let solvers = pq_ops::submission::solvers(&self.solver)?;
        if let Some(easy) = self.easy.filter(|&e| e > self.timeout) {
            return Err(format!(
                "--easy {} is above --run-timeout {}: nothing could be medium",
                easy.as_secs_f64(),
                self.timeout.as_secs_f64()
            ));
        }
        Ok(Submission {
            pool: pq_ops::submission::pool(&self.pool)?,
            solvers,
            output: self.output,
            timeout: self.timeout,
            easy: self.easy,
            prove_timeout: self.prove_timeout,
            jobs: self.jobs.unwrap_or_else(crate::args::default_jobs),
            command: crate::args::command_line(),
            force: self.replace.force,
            format: self.report.format.into(),
        })
    }
}

impl super::Job for Submission {
    fn outputs(&self) -> (Vec<Output<'_>>, bool) {
        let dir = directory("-o", &self.output, pq_bench::submission::MARKER);
        (vec![dir], self.force)
    }
    fn run(self: Box<Self>) -> Result<u8> {
        (*self).run()
    }
}
