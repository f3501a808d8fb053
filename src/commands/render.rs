//! `pq-sat render`: an SVG picture of a placement read back from pq-sat's output; its run is
//! [`pq_ops::placement::render`].

use super::files;
use super::PlacementJob;
use crate::args::PlacementArgs;
use anyhow::Result;
use clap::Args as ClapArgs;
use pq_io::output::Output;
use std::path::Path;
use std::path::PathBuf;

#[derive(ClapArgs, Debug)]
pub(crate) struct RenderArgs {
    #[command(flatten)]
    pub placement: PlacementArgs,
    /// Write the SVG to FILE (atomically) instead of standard output (`-`: standard output)
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub replace: crate::args::ForceArg,
}

/// The placement to draw, validated: the problem it belongs to, if `--problem` names one.
pub(crate) type RenderJob = PlacementJob<RenderArgs>;

impl RenderArgs {
    /// Reads `--problem` (the placement itself is read when the command runs).
    pub(crate) fn validate(mut self) -> Result<RenderJob, String> {
        self.output = crate::args::file_or_stdout(self.output);
        PlacementJob::load(self, |args| &args.placement)
    }
}

impl super::Job for RenderJob {
    fn outputs(&self) -> (Vec<Output<'_>>, bool) {
        (files("-o", &self.args.output), self.args.replace.force)
    }
    fn inputs(&self) -> Vec<(&'static str, &Path)> {
        self.args.placement.inputs()
    }
    fn run(self: Box<Self>) -> Result<u8> {
        let a = &self.args;
        let (file, output) = (a.placement.file.as_deref(), a.output.as_deref());
        pq_ops::placement::render(file, self.problem.as_ref(), output, a.replace.force)
    }
}
