//! `pq-sat family`: a benchmark family of DIMACS files with its manifest; its run is
//! [`pq_ops::family`].

use super::{directory, problem_input};
use anyhow::Result;
use pq_io::output::Output;
use std::path::Path;

mod args;

pub(crate) use args::{FamilyArgs, FamilyJob};

impl super::Job for FamilyJob {
    fn outputs(&self) -> (Vec<Output<'_>>, bool) {
        let dir = directory("-o", &self.args.output, pq_bench::family::manifest::MARKER);
        (vec![dir], self.args.replace.force)
    }
    fn inputs(&self) -> Vec<(&'static str, &Path)> {
        problem_input(self.args.problem.as_deref())
    }
    fn run(self: Box<Self>) -> Result<u8> {
        let a = &self.args;
        let format = a.report.format.into();
        let (output, force) = (&a.output, a.replace.force);
        pq_ops::family::run(
            &self.spec,
            output,
            a.verify,
            self.check_unsat,
            force,
            format,
        )
    }
}
