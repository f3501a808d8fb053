//! `pq-sat solve`: any problem at one size, its optimum, or a DIMACS file as it is. Its
//! arguments make the engine's [`pq_engine::plan::Plan`]; its run is [`pq_ops::solve`].

use super::{directory, file, files, problem_input};
use pq_io::output::Output;
use std::path::Path;

use anyhow::Result;

mod args;
mod validate;

pub(crate) use args::SolveArgs;
pub(crate) use validate::{validate, SolveJob};

impl super::Job for SolveJob {
    fn outputs(&self) -> (Vec<Output<'_>>, bool) {
        let mut out = files("--svg", &self.args.svg);
        if let Some(files) = &self.plan.proof {
            if !files.to_stdout() {
                out.push(file("--proof", files.proof()));
            }
            out.extend(files.cnf().map(|cnf| file("--cnf-out", cnf)));
        }
        if let Some(dir) = &self.args.certify {
            out.push(directory(
                "--certify",
                dir,
                pq_engine::proof::certificate::MARKER,
            ));
        }
        (out, self.args.replace.force)
    }
    fn inputs(&self) -> Vec<(&'static str, &Path)> {
        let mut inputs = problem_input(self.args.problem.problem.as_deref());
        inputs.extend(self.args.cnf.as_deref().map(|p| ("--cnf", p)));
        inputs
    }
    fn run(self: Box<Self>) -> Result<u8> {
        let SolveJob { args, plan } = *self;
        pq_ops::solve::Solve {
            plan,
            timeout: args.timeout,
            step_timeout: args.step_timeout,
            progress: args.progress.into(),
            format: args.format.report(),
            competition: args.format == args::SolveFormat::Competition,
            svg: args.svg,
            force: args.replace.force,
        }
        .run()
    }
}
