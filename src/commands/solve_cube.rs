//! `pq-sat solve-cube DIR ID`: one cube of a cube directory solved and recorded, or with
//! `--completeness` the proof that the cubes cover the formula; its run is
//! [`pq_ops::solve_cube`].

use std::path::PathBuf;

use anyhow::Result;
use clap::Args as ClapArgs;
use pq_ops::solve_cube::{SolveCube, Task};

use crate::args::CubeSolverArgs;

/// `pq-sat solve-cube`.
#[derive(ClapArgs, Debug)]
pub(crate) struct SolveCubeArgs {
    #[command(flatten)]
    pub checking: crate::args::CheckUnsatArg,
    /// The cube directory (made by `pq-sat cube`)
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// The cube's id (1 to the number of cubes: a job array's index, or a line of `seq`)
    #[arg(value_name = "ID", required_unless_present = "completeness")]
    pub id: Option<usize>,
    #[command(flatten)]
    pub solver: CubeSolverArgs,
    /// Instead of a cube, prove the cube set complete: the formula plus the negation of
    /// every cube is UNSAT (its proof goes to DIR/proofs/completeness.drat with --proof)
    #[arg(long, conflicts_with = "id")]
    pub completeness: bool,
    /// Do nothing when the cube already has a SAT or UNSAT result (print it): a
    /// resubmitted job array, or a rerun of the same list, solves only the open cubes
    #[arg(long)]
    pub resume: bool,
    /// Exit 0 whenever the answer was found and recorded, also for SAT and UNSAT (for job
    /// schedulers that count any other exit code as a failed job); errors still exit 1
    #[arg(long)]
    pub exit_zero: bool,
    #[command(flatten)]
    pub report: crate::args::FormatArg,
}

/// The cube to solve, validated.
impl SolveCubeArgs {
    /// Checks that the solver writes the proofs asked for.
    pub(crate) fn validate(self, check_unsat: bool) -> Result<SolveCube, String> {
        let task = match self.id {
            Some(id) => Task::Cube {
                id,
                resume: self.resume,
                exit_zero: self.exit_zero,
            },
            None => Task::Completeness,
        };
        Ok(SolveCube {
            solver: self.solver.validated(check_unsat)?,
            timeout: self.solver.timeout,
            dir: self.dir,
            task,
            format: self.report.format.into(),
        })
    }
}

impl super::Job for SolveCube {
    fn run(self: Box<Self>) -> Result<u8> {
        self.as_ref().run()
    }
}
