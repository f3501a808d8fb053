//! `pq-sat render`: an SVG picture of a placement read back from pq-sat's output.

use super::{files, problem_input};
use super::{picture, PlacementJob};
use crate::args::ProblemArgs;
use anyhow::Result;
use clap::Args as ClapArgs;
use pq_io::output::Output;
use pq_io::output::WritePolicy;
use std::path::Path;
use std::path::PathBuf;

use pq_report::input::read_placement;

/// Draws the placement in `path` (or standard input) into `output` (or standard output).
fn run(job: &RenderJob) -> Result<u8> {
    let (a, problem) = (&job.args, job.problem.as_ref());
    let read = read_placement(&super::read_input(a.file.as_deref())?, problem)?;
    let svg = picture(&read.problem, &read.placement, None);
    match &a.output {
        Some(p) => pq_report::files::write_svg(p, &svg, WritePolicy::from_force(a.replace.force))?,
        None => pq_report::emit_text(&svg)?,
    }
    Ok(0)
}

#[derive(ClapArgs, Debug)]
pub(crate) struct RenderArgs {
    /// pq-sat JSON output, or a text board ("-" or nothing = standard input)
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// The problem a text board belongs to (its symbols); JSON reports name their own
    #[command(flatten)]
    pub problem: ProblemArgs,
    /// Write the SVG to FILE (atomically) instead of standard output
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub replace: crate::args::ForceArg,
}

/// The placement to draw, validated: the problem it belongs to, if `--problem` names one.
pub(crate) type RenderJob = PlacementJob<RenderArgs>;

impl RenderArgs {
    /// Reads `--problem` (the placement itself is read when the command runs).
    pub(crate) fn validate(self) -> Result<RenderJob, String> {
        PlacementJob::load(self, |args| &args.problem)
    }
}

impl super::Job for RenderJob {
    fn outputs(&self) -> (Vec<Output<'_>>, bool) {
        (files("-o", &self.args.output), self.args.replace.force)
    }
    fn inputs(&self) -> Vec<(&'static str, &Path)> {
        let mut inputs = problem_input(self.args.problem.problem.as_deref());
        inputs.extend(self.args.file.as_deref().map(|p| ("FILE", p)));
        inputs
    }
    fn run(self: Box<Self>) -> Result<u8> {
        run(&self)
    }
}
