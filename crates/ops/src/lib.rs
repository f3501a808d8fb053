//! pq-ops: what each pq-sat command does once its arguments are read, as cargo's `ops`
//! are to its `commands`. The binary parses and validates a command's arguments into the
//! plain settings of a module here (no clap), whose `run` calls the engine, hands the
//! result to [`pq_report`] and returns the exit code. This root holds what every command
//! shares: the exit codes, Ctrl-C, and the few helpers more than one command uses.

pub mod check;
pub mod conquer;
pub mod cube;
pub mod cube_status;
pub mod decode;
pub mod encode;
pub mod enumerate;
pub mod estimate;
pub mod family;
pub mod hash;
pub mod placement;
pub mod race;
pub mod solve;
pub mod solve_cube;
pub mod submission;
pub mod values;

use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, Result};
use pq_engine::capability::Status;
use pq_solve::backend::Backend;
use pq_solve::control::interrupted;

// Exit codes. A decision (one formula, one size) exits as in the SAT competition: 10 SAT,
// 20 UNSAT, 0 unknown. An optimisation exits as in the MaxSAT Evaluation: 30 the optimum
// proven, 10 a solution whose optimality is not proven (a time limit), 20 no solution at
// all, 0 nothing known. The shell's habit (0 for "done") would say "proven" and "gave up"
// the same way; these codes are what scripts around SAT and MaxSAT solvers already read.
// Errors are 1, usage errors 2 (clap's), Ctrl-C 130 (the shell's 128 + SIGINT).

/// SAT; for an optimisation, a solution not proven optimal.
pub const EXIT_SAT: u8 = 10;
/// UNSAT; for an optimisation, not even the smallest size has a solution.
pub const EXIT_UNSAT: u8 = 20;
/// An optimisation's optimum, proven (the MaxSAT Evaluation's `s OPTIMUM FOUND`).
pub const EXIT_OPTIMUM: u8 = 30;
/// `decode`: the answer's model falsifies a clause of the formula.
pub const EXIT_WRONG_MODEL: u8 = 3;
/// `decode`: the formula has no pq-sat variable map to read a board through.
pub const EXIT_NOT_PQ_SAT: u8 = 4;
/// The shell's code for "stopped by Ctrl-C" (128 + SIGINT).
pub const EXIT_INTERRUPTED: u8 = 130;

/// Checks that `dir`, an input directory of kind `what` ("family", "certificate"), is
/// there before anything inside it is read, so that a mistyped name is reported as itself
/// with `make` (how to make one), not as a missing file inside it.
pub fn input_dir(dir: &Path, what: &str, make: &str) -> Result<()> {
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => anyhow::bail!(
            "{} is not a directory; give a {what} directory ({make})",
            dir.display()
        ),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            anyhow::bail!("{}: no such {what} directory ({make})", dir.display())
        }
        Err(e) => anyhow::bail!("{}: {}", dir.display(), pq_solve::error::os_message(&e)),
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

/// Prints a warning for each answer `backend` rejected while another solver's answer won.
pub fn warn_rejections(backend: &dyn Backend) {
    backend
        .take_rejections()
        .into_iter()
        .for_each(warn_rejection);
}

/// Prints a warning for an answer a portfolio rejected while another solver's won: the
/// result stands, but a solver gave a wrong or unchecked answer.
pub fn warn_rejection(rejection: String) {
    eprintln!("pq-sat: warning: {rejection}; another solver's answer was used");
}

/// The exit code of a finished job: `code`, unless Ctrl-C cut it short.
pub fn unless_interrupted(code: u8) -> u8 {
    if interrupted() {
        EXIT_INTERRUPTED
    } else {
        code
    }
}

/// The exit code of an optimisation: 30 optimum proven, 10 a solution not proven optimal,
/// 20 no solution at all, 0 nothing known.
pub fn optimum_code(outcome: &pq_engine::capability::climb::OptimiseOutcome) -> u8 {
    if outcome.infeasible {
        EXIT_UNSAT
    } else if outcome.optimum.is_some() {
        EXIT_OPTIMUM
    } else if outcome.best.is_some() {
        EXIT_SAT
    } else {
        0
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
    if let Some(p) = path.filter(|p| p.as_os_str() != "-") {
        return Ok(pq_io::output::read_input_text(
            p,
            pq_io::output::MAX_TEXT_INPUT,
        )?);
    }
    use std::io::Read;
    let cap = pq_io::output::MAX_TEXT_INPUT;
    let text =
        io::read_to_string(io::stdin().take(cap + 1)).context("cannot read standard input")?;
    if text.len() as u64 > cap {
        anyhow::bail!("standard input has more than the {cap} bytes pq-sat reads there");
    }
    Ok(text)
}

/// Opens the cube directory `dir`, with messages that say what it is not.
pub fn open_cube_dir(dir: &std::path::Path) -> Result<pq_engine::cube::conquer::CubeDir> {
    input_dir(dir, "cube", "make one with `pq-sat cube`")?;
    Ok(pq_engine::cube::conquer::CubeDir::open(dir)?)
}

/// The picture of a placement of `problem`, titled with the problem's name; the queens
/// preset's picture is titled `title`, by default `peaceable queens on DxD`.
pub fn picture(
    problem: &pq_encode::spec::Problem,
    p: &pq_board::placement::Placement,
    title: Option<&str>,
) -> String {
    let title = problem.preset().title_or(problem, title);
    pq_board::svg::placement_svg(&problem.rules, p, Some(&title))
}

/// With `-v`: the size of the formula about to be written or solved.
pub fn sizes(formula: &pq_encode::Formula) {
    pq_report::progress::detail!(
        "pq-sat: formula: {} variables, {} clauses",
        formula.n_vars,
        formula.n_clauses()
    );
}
