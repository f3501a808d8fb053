//! `pq-sat canon`: the canonical form of a placement and the size of its orbit; its run is
//! [`pq_ops::placement::canon`].

use super::problem_input;
use super::PlacementJob;
use crate::args::ProblemArgs;
use anyhow::Result;
use clap::Args as ClapArgs;
use std::path::Path;
use std::path::PathBuf;

#[derive(ClapArgs, Debug)]
pub(crate) struct CanonArgs {
    /// The board file ("-" or nothing = standard input)
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// The problem a text board belongs to (its symbols and symmetries); JSON reports name
    /// their own
    #[command(flatten)]
    pub problem: ProblemArgs,
    #[command(flatten)]
    pub report: crate::args::FormatArg,
}

/// The placement to put in canonical form, validated: the problem it belongs to, if
/// `--problem` names one.
pub(crate) type CanonJob = PlacementJob<CanonArgs>;

impl CanonArgs {
    /// Reads `--problem` (the placement itself is read when the command runs).
    pub(crate) fn validate(self) -> Result<CanonJob, String> {
        PlacementJob::load(self, |args| &args.problem)
    }
}

impl super::Job for CanonJob {
    fn inputs(&self) -> Vec<(&'static str, &Path)> {
        problem_input(self.args.problem.problem.as_deref())
    }
    fn run(self: Box<Self>) -> Result<u8> {
        let (file, problem) = (self.args.file.as_deref(), self.problem.as_ref());
        pq_ops::placement::canon(file, problem, self.args.report.format.into())
    }
}
