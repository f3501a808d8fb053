//! `pq-sat cube`: one step split into cubes, written as a cube directory, with a summary of
//! the split; its run is [`pq_ops::cube`].

use super::{directory, files, problem_input};
use pq_engine::cube::estimate::Settings;
use pq_io::output::Output;
use pq_ops::cube::{Cube, Sampling, Split};
use std::path::Path;
use std::path::PathBuf;

use anyhow::Result;

mod args;

pub(crate) use args::{CubeArgs, CubeJob};

/// Splits (or takes the existing directory) and, with `--estimate`, predicts the cost of
/// conquering the cubes.
impl super::Job for CubeJob {
    fn outputs(&self) -> (Vec<Output<'_>>, bool) {
        let mut out: Vec<Output> = (self.args.output.iter())
            .map(|path| directory("-o", path, pq_engine::cube::MARKER))
            .collect();
        out.extend(files("--plot", &self.args.plot));
        (out, self.args.replace.force)
    }
    fn inputs(&self) -> Vec<(&'static str, &Path)> {
        let mut inputs = problem_input(self.args.problem.problem.as_deref());
        inputs.extend(self.args.cnf.as_deref().map(|p| ("--cnf", p)));
        inputs
    }
    fn input_dirs(&self) -> Vec<&Path> {
        self.args.dir.iter().map(PathBuf::as_path).collect()
    }
    fn run(self: Box<Self>) -> Result<u8> {
        let CubeJob {
            args: a,
            problem,
            settings,
            command,
            check_unsat,
        } = *self;
        let split = a.output.is_some().then(|| Split {
            problem,
            cnf: a.cnf.clone(),
            options: a.encoding.options(),
            settings,
            command,
        });
        let estimate = a.estimate.then(|| Sampling {
            backend: a.backend.clone().unwrap_or(pq_engine::cube::CUBE_SOLVER),
            check_unsat,
            settings: Settings {
                sample: a.sample.map_or(30, |k| k as usize),
                seed: a.seed.unwrap_or(1),
                timeout: a.timeout,
            },
            plot: a.plot.clone(),
        });
        Cube {
            // clap requires -o DIR or DIR.
            dir: a.output.or(a.dir).expect("clap requires -o DIR or DIR"),
            split,
            estimate,
            force: a.replace.force,
            format: a.report.format.into(),
        }
        .run()
    }
}
