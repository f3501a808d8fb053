//! The validation of the arguments into a [`Job`]: everything clap cannot check, so that
//! a job that starts has everything it needs.

use pq_io::output;

use super::{Args, Command};
use crate::commands::check::SolversJob;
use crate::commands::Job;

impl Args {
    /// Checks what clap cannot; the error is a usage error (exit code 2). Outputs that
    /// are one file, or that would overwrite an input, are refused here; what is on disk
    /// at the outputs is checked by [`run`] before the job runs.
    pub(crate) fn into_job(self) -> Result<Box<dyn Job>, String> {
        let job = self.validated()?;
        paths(job.as_ref())
            .check_distinct()
            .map_err(|e| e.to_string())?;
        Ok(job)
    }

    fn validated(self) -> Result<Box<dyn Job>, String> {
        // Only the commands that take a solver's UNSAT as an answer have the flag; within
        // them, only these uses do.
        let (check_unsat, checks) = match &self.command {
            Command::Solve(a) => (a.checking.check_unsat, true),
            Command::Race(a) => (a.checking.check_unsat, true),
            Command::SolveCube(a) => (a.checking.check_unsat, true),
            Command::Conquer(a) => (a.checking.check_unsat, !a.incremental),
            Command::Cube(a) => (a.checking.check_unsat, a.estimate),
            Command::Family(a) => (a.checking.check_unsat, a.verify.is_some()),
            // The optimum found first (the enumeration's own end is no solver's answer).
            Command::Enumerate(a) => (a.checking.check_unsat, a.subject.n.is_none()),
            _ => (false, true),
        };
        if check_unsat && !checks {
            return Err("--check-unsat applies to `solve`, `race`, `family --verify`, `enumerate` without --n, `solve-cube`, `conquer` (not --incremental) and `cube --estimate`, the commands that take a solver's UNSAT as an answer".into());
        }
        fn boxed<J: Job + 'static>(job: J) -> Box<dyn Job> {
            Box::new(job)
        }
        match self.command {
            Command::Encode(a) => a.validate().map(boxed),
            Command::Solve(a) => crate::commands::solve::validate(a, check_unsat).map(boxed),
            Command::Decode(a) => Ok(boxed(a)),
            Command::Enumerate(a) => a.validate(check_unsat).map(boxed),
            Command::Canon(a) => a.validate().map(boxed),
            Command::Family(a) => a.validate(check_unsat).map(boxed),
            Command::Cube(a) => a.validate(check_unsat).map(boxed),
            Command::Estimate(a) => a.validate().map(boxed),
            Command::SolveCube(a) => a.validate(check_unsat).map(boxed),
            Command::Conquer(a) => a.validate(check_unsat).map(boxed),
            Command::CubeStatus(a) => Ok(boxed(a)),
            Command::Race(a) => a.validate(check_unsat).map(boxed),
            Command::Submission(a) => a.validate().map(boxed),
            Command::CheckProof(a) => Ok(boxed(a)),
            Command::CheckCertificate(a) => Ok(boxed(a)),
            Command::Hash(a) => Ok(boxed(a)),
            Command::Render(a) => a.validate().map(boxed),
            Command::Solvers { format } => Ok(boxed(SolversJob(format))),
            Command::Completions { shell } => Ok(boxed(super::docs::Completions(shell))),
            Command::Man { command } => super::docs::Man::new(command).map(boxed),
        }
    }
}

/// What `job` reads and writes, for the checks of [`output::Paths`].
fn paths(job: &dyn Job) -> output::Paths<'_> {
    let (outputs, force) = job.outputs();
    output::Paths {
        outputs,
        inputs: job.inputs(),
        input_dirs: job.input_dirs(),
        force,
    }
}

/// Runs `job`; the result is the exit code. Every output path is checked first
/// ([`output::Paths::prepare`]), so that nothing is solved for a result that could not be
/// written; each command passes `--force` on to its writes as a [`output::WritePolicy`].
pub(crate) fn run(job: Box<dyn Job>) -> anyhow::Result<u8> {
    paths(job.as_ref()).prepare().map_err(anyhow::Error::msg)?;
    job.run()
}
