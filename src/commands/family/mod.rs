//! `pq-sat family`: a benchmark family of DIMACS files with its manifest.

use super::{directory, problem_input};
use anyhow::Result;
use pq_bench::family::{write_family, Event, Verify};
use pq_io::output::Output;
use pq_report::progress::note;
use std::path::Path;

use super::Interruptible;

mod args;

pub(crate) use args::{FamilyArgs, FamilyJob};

/// Writes the family of `spec` into `--output`; with `--verify`, each status is solved first
/// (within that time per instance) by the default portfolio.
/// With `check_unsat`, an UNSAT counts only with a checked proof in that format.
fn run(job: &FamilyJob) -> Result<u8> {
    let (spec, a, check_unsat) = (&job.spec, &job.args, job.check_unsat);
    let portfolio;
    let verify = match a.verify {
        Some(timeout) => {
            let jobs = crate::args::default_jobs();
            portfolio = pq_engine::plan::portfolio(
                &pq_engine::plan::Solvers::Default { jobs },
                check_unsat,
            )?;
            Some(Verify {
                backend: portfolio.as_ref(),
                timeout,
            })
        }
        None => None,
    };
    let manifest = {
        let _guard = Interruptible::enter();
        let policy = pq_io::output::WritePolicy::from_force(a.replace.force);
        write_family(
            spec,
            &a.output,
            verify.as_ref(),
            policy,
            &mut |event| match event {
                Event::Instance(e) if verify.is_some() => {
                    note!("pq-sat: {}: {} ({})", e.file, e.expected.name(), e.source);
                }
                Event::Instance(_) => {}
                Event::Optimum {
                    member,
                    optimum,
                    seconds,
                } => note!(
                    "pq-sat: {}: optimum n = {optimum} ({seconds:.2} s)",
                    member.label()
                ),
            },
        )
    };
    if let Some(v) = &verify {
        super::warn_rejections(v.backend);
    }
    let manifest = manifest?;
    pq_report::race::family(&manifest, &a.output, a.report.format.into())?;
    Ok(0)
}

impl super::Job for FamilyJob {
    fn outputs(&self) -> (Vec<Output<'_>>, bool) {
        let dir = directory("-o", &self.args.output, pq_bench::family::manifest::MARKER);
        (vec![dir], self.args.replace.force)
    }
    fn inputs(&self) -> Vec<(&'static str, &Path)> {
        problem_input(self.args.problem.as_deref())
    }
    fn run(self: Box<Self>) -> Result<u8> {
        run(&self)
    }
}
