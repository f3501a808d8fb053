//! `pq-sat estimate`: what one step costs the line engine, from a random sample of its
//! units of work; its run is [`pq_ops::estimate`].

use super::{files, problem_input};
use pq_io::output::Output;
use std::path::Path;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;
use clap::Args as ClapArgs;
use pq_encode::spec::Problem;
use pq_encode::Instance;
use pq_engine::lines::estimate::EstimateSettings;

use crate::args::{parse_dim, parse_n, parse_timeout, problem_size, ProblemArgs};

#[derive(ClapArgs, Debug)]
pub(crate) struct EstimateArgs {
    /// Board side d (1 to 32): the peaceable queens on d×d (needs --n)
    #[arg(long, value_name = "D", value_parser = parse_dim, conflicts_with = "problem")]
    pub dim: Option<usize>,
    /// The step: army size n (with --problem: the size of the groups it maximises)
    #[arg(long, value_name = "N", value_parser = parse_n, allow_hyphen_values = true)]
    pub n: Option<usize>,
    #[command(flatten)]
    pub problem: ProblemArgs,
    /// How many units to search [default: 30]
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub sample: Option<u64>,
    /// The seed of the sample and of the bootstrap [default: 1]
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// A time limit per unit, in seconds (a unit that reaches it counts with the limit,
    /// and the prediction is then a lower bound)
    #[arg(long = "unit-timeout", value_name = "SEC", value_parser = parse_timeout)]
    pub timeout: Option<Duration>,
    /// Draw the predicted wall time against the workers (SVG, log scales, with the
    /// intervals and the perfect speed-up) into FILE
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// Replace an existing --plot file
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub report: crate::args::FormatArg,
}

/// A validated `estimate`: the problem and its step.
#[derive(Debug)]
pub(crate) struct EstimateJob {
    /// The arguments as given.
    pub args: EstimateArgs,
    /// The problem.
    pub problem: Problem,
    /// The size of its maximised groups.
    pub n: usize,
}

impl EstimateArgs {
    /// The problem and step to estimate, refused here if the line engine cannot answer it.
    pub(crate) fn validate(self) -> Result<EstimateJob, String> {
        let problem = self.problem.load_or_queens(self.dim)?.ok_or(
            "estimate needs a step: --dim D --n N (the peaceable queens) or --problem FILE --n N",
        )?;
        let n = problem_size(&problem, self.n)?
            .ok_or("estimate predicts one step: give its size, --n N")?;
        if let Some(dim) = self.dim {
            Instance::new(dim, n).map_err(|e| e.to_string())?;
        }
        if let Some(why) = pq_engine::lines::unsupported(&problem) {
            return Err(format!(
                "estimate predicts the line engine's search, which cannot answer this problem: {why}; for the SAT path, split the step with `pq-sat cube ... -o DIR --estimate`"
            ));
        }
        Ok(EstimateJob {
            args: self,
            problem,
            n,
        })
    }
}

impl super::Job for EstimateJob {
    fn outputs(&self) -> (Vec<Output<'_>>, bool) {
        (files("--plot", &self.args.plot), self.args.force)
    }
    fn inputs(&self) -> Vec<(&'static str, &Path)> {
        problem_input(self.args.problem.problem.as_deref())
    }
    fn run(self: Box<Self>) -> Result<u8> {
        let EstimateJob { args, problem, n } = *self;
        pq_ops::estimate::Estimate {
            problem,
            n,
            settings: EstimateSettings {
                sample: args.sample.map_or(30, |k| k as usize),
                seed: args.seed.unwrap_or(1),
                timeout: args.timeout,
            },
            plot: args.plot,
            force: args.force,
            format: args.report.format.into(),
        }
        .run()
    }
}
