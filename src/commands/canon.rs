//! `pq-sat canon`: the canonical form of a placement and the size of its orbit; its run is
//! [`pq_ops::placement::canon`].

use super::PlacementJob;
use crate::args::PlacementArgs;
use anyhow::Result;
use clap::Args as ClapArgs;
use std::path::Path;

#[derive(ClapArgs, Debug)]
pub(crate) struct CanonArgs {
    #[command(flatten)]
    pub placement: PlacementArgs,
    #[command(flatten)]
    pub report: crate::args::FormatArg,
}

/// The placement to put in canonical form, validated: the problem it belongs to, if
/// `--problem` names one.
pub(crate) type CanonJob = PlacementJob<CanonArgs>;

impl CanonArgs {
    /// Reads `--problem` (the placement itself is read when the command runs).
    pub(crate) fn validate(self) -> Result<CanonJob, String> {
        PlacementJob::load(self, |args| &args.placement)
    }
}

impl super::Job for CanonJob {
    fn inputs(&self) -> Vec<(&'static str, &Path)> {
        self.args.placement.inputs()
    }
    fn run(self: Box<Self>) -> Result<u8> {
        let (file, problem) = (self.args.placement.file.as_deref(), self.problem.as_ref());
        pq_ops::placement::canon(file, problem, self.args.report.format.into())
    }
}
