//! `pq-sat canon`: the canonical form of a placement and the size of its orbit.

use super::problem_input;
use super::PlacementJob;
use crate::args::ProblemArgs;
use anyhow::Result;
use clap::Args as ClapArgs;
use pq_board::symmetry::SymmetryGroup;
use std::path::Path;
use std::path::PathBuf;

use pq_report::input::read_placement;
use pq_report::{emit, Canon, Subject};

/// Reads a placement (of `problem`, or of the problem its report names, or a queens board)
/// from `path` or standard input and prints its orbit's canonical member.
fn run(job: &CanonJob) -> Result<u8> {
    let (a, problem) = (&job.args, job.problem.as_ref());
    let read = read_placement(&super::read_input(a.file.as_deref())?, problem)?;
    let (problem, p) = (&read.problem, &read.placement);
    // Groups are interchangeable when their demands agree; the maximised groups share one
    // size, so any size of theirs tells the same symmetries.
    let n = problem
        .maximised()
        .iter()
        .map(|&g| p.count(g))
        .min()
        .unwrap_or(0);
    let demands = problem.demands(n);
    let group = SymmetryGroup::bounded(&problem.rules, &demands)?;
    let canonical = group.canonical(p);
    let report = Canon {
        subject: Subject::of(problem, Some(n)),
        canonical: pq_report::rows(&problem.rules, &canonical),
        orbit_size: group.orbit_size(p),
        is_canonical: group.is_canonical(p),
    };
    emit(a.report.format.into(), &report, || {
        let mut text = format!("# orbit of {}\n", report.orbit_size);
        for row in &report.canonical {
            text.push_str(row);
            text.push('\n');
        }
        if problem.preset().needs_legend() {
            let symbols = pq_board::placement::Placement::symbols(&problem.rules);
            text.push_str(&pq_report::legend(&problem.rules, &symbols, None));
        }
        text
    })?;
    Ok(0)
}

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
        run(&self)
    }
}
