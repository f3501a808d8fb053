//! One short function per command: each takes its validated job from [`crate::cli`], calls
//! the engine, and hands the result to [`pq_report`]. This module owns what every command
//! shares: Ctrl-C, exit codes, and the few helpers more than one command uses.

pub(crate) mod canon;
pub(crate) mod check;
pub(crate) mod conquer;
pub(crate) mod cube;
pub(crate) mod cube_status;
pub(crate) mod decode;
pub(crate) mod encode;
pub(crate) mod enumerate;
pub(crate) mod estimate;
pub(crate) mod family;
pub(crate) mod hash;
pub(crate) mod race;
pub(crate) mod render;
pub(crate) mod solve;
pub(crate) mod solve_cube;
pub(crate) mod submission;

use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, Result};
use pq_engine::pipeline::Status;
use pq_io::output::Output;
use pq_solve::control::interrupted;
use pq_solve::Backend;

// Exit codes. A decision (one formula, one size) exits as in the SAT competition: 10 SAT,
// 20 UNSAT, 0 unknown. An optimisation exits as in the MaxSAT Evaluation: 30 the optimum
// proven, 10 a solution whose optimality is not proven (a time limit), 20 no solution at
// all, 0 nothing known. The shell's habit (0 for "done") would say "proven" and "gave up"
// the same way; these codes are what scripts around SAT and MaxSAT solvers already read.
// Errors are 1, usage errors 2 (clap's), Ctrl-C 130 (the shell's 128 + SIGINT).

/// SAT; for an optimisation, a solution not proven optimal.
pub(crate) const EXIT_SAT: u8 = 10;
/// UNSAT; for an optimisation, not even the smallest size has a solution.
pub(crate) const EXIT_UNSAT: u8 = 20;
/// An optimisation's optimum, proven (the MaxSAT Evaluation's `s OPTIMUM FOUND`).
pub(crate) const EXIT_OPTIMUM: u8 = 30;
/// `decode`: the answer's model falsifies a clause of the formula.
pub(crate) const EXIT_WRONG_MODEL: u8 = 3;
/// `decode`: the formula has no pq-sat variable map to read a board through.
pub(crate) const EXIT_NOT_PQ_SAT: u8 = 4;
/// The shell's code for "stopped by Ctrl-C" (128 + SIGINT).
pub(crate) const EXIT_INTERRUPTED: u8 = 130;

/// Checks that `dir`, an input directory of kind `what` ("family", "certificate"), is
/// there before anything inside it is read, so that a mistyped name is reported as itself
/// with `make` (how to make one), not as a missing file inside it.
pub(crate) fn input_dir(dir: &Path, what: &str, make: &str) -> Result<()> {
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

/// A command's validated job: what it reads and writes, checked before it runs (no output
/// is an input, none replaces a file without `--force`), and how it runs. Each command
/// implements it in its own file; the dispatch is one line per command in [`crate::cli`].
pub(crate) trait Job: std::fmt::Debug {
    /// The files and directories it writes, and whether `--force` lets existing ones be
    /// replaced.
    fn outputs(&self) -> (Vec<Output<'_>>, bool) {
        (Vec::new(), false)
    }
    /// The files it reads, which no output may overwrite, with the flag that named each.
    fn inputs(&self) -> Vec<(&'static str, &Path)> {
        Vec::new()
    }
    /// The directories it reads (a cube directory, a family), in which no output may
    /// replace a file.
    fn input_dirs(&self) -> Vec<&Path> {
        Vec::new()
    }
    /// Runs it; the exit code.
    fn run(self: Box<Self>) -> Result<u8>;
}

/// The output file `path`, named by `flag`.
pub(crate) fn file<'a>(flag: &'static str, path: &'a Path) -> Output<'a> {
    Output {
        flag,
        path,
        dir: None,
    }
}

/// The output files of an option given any number of times (or none).
pub(crate) fn files<'a>(
    flag: &'static str,
    paths: impl IntoIterator<Item = &'a std::path::PathBuf>,
) -> Vec<Output<'a>> {
    paths.into_iter().map(|p| file(flag, p)).collect()
}

/// The directory `path` written whole by `flag`, recognised as pq-sat's by `marker`.
pub(crate) fn directory<'a>(
    flag: &'static str,
    path: &'a Path,
    marker: pq_io::output::Marker,
) -> Output<'a> {
    Output {
        flag,
        path,
        dir: Some(marker),
    }
}

/// `--problem FILE`, when given, as an input.
pub(crate) fn problem_input(problem: Option<&Path>) -> Vec<(&'static str, &Path)> {
    problem.map(|p| ("--problem", p)).into_iter().collect()
}

static INTERRUPTIBLE: AtomicBool = AtomicBool::new(false);

/// True while a solver runs that reports what it knows when interrupted; otherwise Ctrl-C
/// simply ends pq-sat.
pub(crate) fn interruptible() -> bool {
    INTERRUPTIBLE.load(Ordering::SeqCst)
}

/// Marks the solving part of a job as interruptible for as long as it lives.
pub(crate) struct Interruptible;

impl Interruptible {
    /// Ctrl-C now stops the solvers and lets the job report.
    pub(crate) fn enter() -> Interruptible {
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
pub(crate) fn warn_rejections(backend: &dyn Backend) {
    backend
        .take_rejections()
        .into_iter()
        .for_each(warn_rejection);
}

/// Prints a warning for an answer a portfolio rejected while another solver's won: the
/// result stands, but a solver gave a wrong or unchecked answer.
pub(crate) fn warn_rejection(rejection: String) {
    eprintln!("pq-sat: warning: {rejection}; another solver's answer was used");
}

/// The exit code of a finished job: `code`, unless Ctrl-C cut it short.
pub(crate) fn unless_interrupted(code: u8) -> u8 {
    if interrupted() {
        EXIT_INTERRUPTED
    } else {
        code
    }
}

/// The exit code of an optimisation: 30 optimum proven, 10 a solution not proven optimal,
/// 20 no solution at all, 0 nothing known.
pub(crate) fn optimum_code(outcome: &pq_engine::optimise::OptimiseOutcome) -> u8 {
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
pub(crate) fn status_code(status: Status) -> u8 {
    match status {
        Status::Sat => EXIT_SAT,
        Status::Unsat => EXIT_UNSAT,
        Status::Unknown => 0,
    }
}

/// The whole of `path`, or of standard input when `None` or `-`.
pub(crate) fn read_input(path: Option<&Path>) -> Result<String> {
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

/// A command on one placement (`render`, `canon`), validated: the problem it belongs to, if
/// `--problem` names one (the placement itself is read when the command runs).
#[derive(Debug)]
pub(crate) struct PlacementJob<A> {
    /// The problem file given, with its `--set` values.
    pub(crate) problem: Option<pq_encode::spec::Problem>,
    /// The arguments as given.
    pub(crate) args: A,
}

impl<A> PlacementJob<A> {
    /// Reads the problem that `problem` finds in `args` (`--problem`, `--set`).
    pub(crate) fn load(
        args: A,
        problem: impl Fn(&A) -> &crate::args::ProblemArgs,
    ) -> Result<Self, String> {
        let problem = problem(&args).load()?;
        Ok(PlacementJob { problem, args })
    }
}

/// Opens the cube directory `dir`, with messages that say what it is not.
pub(crate) fn open_cube_dir(dir: &std::path::Path) -> Result<pq_engine::cube::conquer::CubeDir> {
    input_dir(dir, "cube", "make one with `pq-sat cube`")?;
    Ok(pq_engine::cube::conquer::CubeDir::open(dir)?)
}

/// The picture of a placement of `problem`, titled with the problem's name; the queens
/// preset's picture is titled `title`, by default `peaceable queens on DxD`.
pub(crate) fn picture(
    problem: &pq_encode::spec::Problem,
    p: &pq_board::placement::Placement,
    title: Option<&str>,
) -> String {
    let title = problem.preset().title_or(problem, title);
    pq_board::svg::placement_svg(&problem.rules, p, Some(&title))
}

/// With `-v`: the size of the formula about to be written or solved.
pub(crate) fn sizes(formula: &pq_encode::Formula) {
    pq_report::progress::detail!(
        "pq-sat: formula: {} variables, {} clauses",
        formula.n_vars,
        formula.n_clauses()
    );
}
