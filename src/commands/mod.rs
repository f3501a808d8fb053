//! One short function per command: each takes its validated job from [`crate::cli`], calls
//! the engine, and hands the result to [`crate::report`]. [`run`] dispatches a job and
//! owns what every command shares: the backend named on the command line, Ctrl-C, exit
//! codes.

pub mod canon;
pub mod check;
pub mod docs;
pub mod enumerate;
pub mod family;
pub mod race;
pub mod render;
pub mod solve;

use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, Result};
use pq_engine::Status;
use pq_solve::control::interrupted;
use pq_solve::portfolio::{default_portfolio, Portfolio};
use pq_solve::Backend;

use crate::cli::{Job, Solvers};

/// Exit codes of the SAT competition, used for single answers.
pub const EXIT_SAT: u8 = 10;
/// See [`EXIT_SAT`].
pub const EXIT_UNSAT: u8 = 20;
/// The shell's code for "stopped by Ctrl-C" (128 + SIGINT).
pub const EXIT_INTERRUPTED: u8 = 130;

/// Runs `job`; the result is the exit code.
pub fn run(job: Job) -> Result<u8> {
    match job {
        Job::Encode(problem, n, a) => solve::encode(&problem, n, &a),
        Job::Solve(problem, n, run) => solve::at_size(&problem, n, &run),
        Job::Optimise(problem, run) => solve::optimum(&problem, &run),
        Job::SolveCnf(run) => solve::formula(&run),
        Job::Enumerate(request, n, a) => enumerate::run(request, n, &a),
        Job::Canon(problem, a) => canon::run(&a, problem.as_ref()),
        Job::Render(problem, a) => render::run(&a, problem.as_ref()),
        Job::Family(spec, a) => family::run(&spec, &a),
        Job::Race(a, solvers) => race::run(&a, solvers),
        Job::CheckProof(a) => check::proof(&a),
        Job::CheckCertificate(a) => check::certificate(&a),
        Job::Solvers(format) => check::solvers(format),
        Job::Completions(shell) => docs::completions(shell),
        Job::Man(command) => docs::man(command.as_deref()),
    }
}

static INTERRUPTIBLE: AtomicBool = AtomicBool::new(false);

/// True while a solver runs that reports what it knows when interrupted; otherwise Ctrl-C
/// simply ends pq-sat.
pub fn interruptible() -> bool {
    INTERRUPTIBLE.load(Ordering::SeqCst)
}

/// Marks the solving part of a job as interruptible for as long as it lives.
pub struct Interruptible;

impl Interruptible {
    /// Ctrl-C now stops the solvers and lets the job report.
    pub fn enter() -> Interruptible {
        INTERRUPTIBLE.store(true, Ordering::SeqCst);
        Interruptible
    }
}

impl Drop for Interruptible {
    fn drop(&mut self) {
        INTERRUPTIBLE.store(false, Ordering::SeqCst);
    }
}

/// The solver (or portfolio) that answers each formula.
pub fn backend(solvers: &Solvers) -> Result<Box<dyn Backend>> {
    Ok(match solvers {
        Solvers::Given(list) if list.len() == 1 => list[0].resolve()?,
        Solvers::Given(list) => Box::new(Portfolio::new(
            list.iter()
                .map(|spec| spec.resolve())
                .collect::<Result<Vec<_>, _>>()?,
        )),
        Solvers::Default { jobs } => Box::new(default_portfolio(*jobs)),
    })
}

/// The exit code of a finished job: `code`, unless Ctrl-C cut it short.
pub fn unless_interrupted(code: u8) -> u8 {
    if interrupted() {
        EXIT_INTERRUPTED
    } else {
        code
    }
}

/// 10 for SAT, 20 for UNSAT, 0 for unknown.
pub fn status_code(status: Status) -> u8 {
    match status {
        Status::Sat => EXIT_SAT,
        Status::Unsat => EXIT_UNSAT,
        Status::Unknown => 0,
    }
}

/// The whole of `path`, or of standard input when `None` or `-`.
pub fn read_input(path: Option<&Path>) -> Result<String> {
    match path.filter(|p| p.as_os_str() != "-") {
        Some(p) => {
            std::fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()))
        }
        None => io::read_to_string(io::stdin()).context("cannot read standard input"),
    }
}
