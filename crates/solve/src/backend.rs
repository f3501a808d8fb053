//! The backends that answer one formula: in-process (varisat, CaDiCaL) and external
//! processes (kissat, minisat, the CaDiCaL binary, any competition-style command).

use std::fmt;
use std::sync::mpsc;
use std::time::Duration;

use pq_encode::Formula;
use rustsat::solvers::{Solve, SolverResult};
use rustsat::types::{Lit, TernaryVal, Var};
use varisat::ExtendFormula;

use crate::answer::{Answer, Assignment};
use crate::control::Limits;
use crate::error::SolveError;
use crate::external::ExternalSolver;
use crate::session::attach_limits;

/// The word of a `--solver-cmd` command that stands for the path of the DRAT proof the
/// solver is to write (`--check-unsat`, `--proof`); without a proof wanted, `/dev/null`.
pub const PROOF_PLACEHOLDER: &str = "{proof}";

/// The word of a `--solver-cmd` command that stands for the CNF file, for solvers that take
/// other arguments after it (kissat and CaDiCaL take the proof after the CNF:
/// `kissat -q {cnf} {proof} --no-binary`); without it the CNF is the last argument.
pub const CNF_PLACEHOLDER: &str = "{cnf}";

/// `solver` (made from a `--solver-cmd` command) with its placeholders filled: every
/// [`PROOF_PLACEHOLDER`] becomes `proof`, and the words after a [`CNF_PLACEHOLDER`] word go
/// after the CNF file.
pub(crate) fn placed(solver: ExternalSolver, proof: &std::path::Path) -> ExternalSolver {
    let fill = |word: &String| word.replace(PROOF_PLACEHOLDER, &proof.display().to_string());
    let mut args: Vec<String> = solver.args.iter().map(fill).collect();
    let mut args_after: Vec<String> = solver.args_after.iter().map(fill).collect();
    if let Some(at) = args.iter().position(|w| w == CNF_PLACEHOLDER) {
        let mut after = args.split_off(at);
        after.remove(0);
        after.append(&mut args_after);
        args_after = after;
    }
    ExternalSolver {
        args,
        args_after,
        ..solver
    }
}

/// An answer and the name of the solver that gave it (a portfolio names the member that
/// won), or why there is none.
pub type Answered = Result<(Answer, String), SolveError>;

/// A solver that answers one formula at a time (no assumptions; what it keeps between calls
/// is its account of answers it rejected, [`Backend::take_rejections`]).
pub trait Backend: Send + Sync {
    /// A short name for output and messages.
    fn name(&self) -> String;

    /// Solves `formula` until `limits` say stop. Stopping (time limit, stop request,
    /// interrupt) is `Ok(Answer::Unknown)`, not an error.
    fn solve_once(&self, formula: &Formula, limits: &Limits) -> Result<Answer, SolveError>;

    /// Solves the DIMACS file at `path`, whose parsed form is `formula`. External solvers
    /// read the file itself, so that they see exactly the bytes a benchmark family ships.
    fn solve_path(
        &self,
        _path: &std::path::Path,
        formula: &Formula,
        limits: &Limits,
    ) -> Result<Answer, SolveError> {
        self.solve_once(formula, limits)
    }

    /// Like [`Backend::solve_once`], also naming the solver that answered: a portfolio
    /// names the member that won.
    fn solve_named(&self, formula: &Formula, limits: &Limits) -> Answered {
        Ok((self.solve_once(formula, limits)?, self.name()))
    }

    /// Like [`Backend::solve_named`], but the answer counts only once a claimed model
    /// satisfies every clause and `judge` accepts it; otherwise it is an error
    /// ([`SolveError::BadModel`], [`SolveError::Rejected`]). A portfolio judges each
    /// member's answer, so that a rejected member never wins the race.
    fn solve_judged(&self, formula: &Formula, limits: &Limits, judge: Judge<'_>) -> Answered {
        judged(formula, self.solve_named(formula, limits)?, judge)
    }

    /// Like [`Backend::solve_judged`] on `formula` with `cube`'s literals as unit clauses
    /// after its own: one cube of cube-and-conquer. The default solves such a copy; an
    /// engine that reads the cube itself (the line engine) needs no copy of the formula.
    fn solve_cube(
        &self,
        formula: &Formula,
        cube: &[Lit],
        limits: &Limits,
        judge: Judge<'_>,
    ) -> Answered {
        self.solve_judged(&with_units(formula, cube), limits, judge)
    }

    /// True when every UNSAT this backend answers comes with a proof the independent
    /// checker verified (`--check-unsat`).
    fn checks_unsat(&self) -> bool {
        false
    }

    /// A session solving `formula` under assumptions and keeping what it learns across
    /// calls, when this backend can open one (the in-process CaDiCaL); `None` otherwise.
    fn session(
        &self,
        _formula: &Formula,
    ) -> Option<Result<Box<dyn crate::session::Session>, SolveError>> {
        None
    }

    /// The answers this backend rejected since the last call, as messages: those of
    /// portfolio members that dropped out of a race another member won (a single solver's
    /// rejection is its error instead). For the caller to report as warnings.
    fn take_rejections(&self) -> Vec<String> {
        Vec::new()
    }
}

/// A check an answer must pass before it counts, beyond the model check every answer gets:
/// e.g. that it does not contradict pq-sat's table of proven values. `Err(reason)` rejects
/// the answer as a solver error ([`SolveError::Rejected`]); the reason reads after the
/// solver's name ("answered UNSAT, but ...").
pub type Judge<'a> = &'a (dyn Fn(&Answer) -> Result<(), String> + Sync);

/// `formula` with `units` as unit clauses after its own clauses.
pub fn with_units(formula: &Formula, units: &[Lit]) -> Formula {
    let mut out = formula.clone();
    for &lit in units {
        out.cnf.add_unit(lit);
    }
    out
}

/// The [`Judge`] that accepts every answer.
pub fn accept_all(_: &Answer) -> Result<(), String> {
    Ok(())
}

/// Solves with `backend` and checks that a claimed model satisfies every clause, so that a
/// solver bug or an output-parsing slip can never reach the decoder. Returns the answer and
/// the name of the solver that gave it.
pub fn solve_checked(backend: &dyn Backend, formula: &Formula, limits: &Limits) -> Answered {
    backend.solve_judged(formula, limits, &accept_all)
}

/// Passes on `solver`'s answer unless it is a model that falsifies a clause of `formula`
/// or `judge` rejects it.
pub fn judged(formula: &Formula, answer: (Answer, String), judge: Judge<'_>) -> Answered {
    let (answer, solver) = checked_model(formula, answer)?;
    match judge(&answer) {
        Ok(()) => Ok((answer, solver)),
        Err(reason) => Err(SolveError::Rejected {
            program: solver,
            reason,
        }),
    }
}

/// Passes on `solver`'s answer unless it is a model that falsifies a clause of `formula`.
pub(crate) fn checked_model(formula: &Formula, (answer, solver): (Answer, String)) -> Answered {
    if let Answer::Sat(model) = &answer {
        if let Some(index) = first_falsified_clause(formula, model) {
            return Err(SolveError::BadModel {
                program: solver,
                clause_index: index + 1,
            });
        }
    }
    Ok((answer, solver))
}

/// The 0-based index of the first clause `model` falsifies, if any.
pub fn first_falsified_clause(formula: &Formula, model: &Assignment) -> Option<usize> {
    formula.cnf.iter().position(|clause| {
        !clause
            .iter()
            .any(|lit| model.satisfies_lit(i64::from(lit.to_ipasir())))
    })
}

/// varisat 0.2.2. It has no way to interrupt a running search, so it runs on a thread of
/// its own; when the limits say stop, that thread is abandoned (it keeps a core busy until
/// pq-sat exits, which is why the default portfolio leaves varisat out).
pub struct Varisat;

impl Backend for Varisat {
    fn name(&self) -> String {
        "varisat".to_string()
    }

    fn solve_once(&self, formula: &Formula, limits: &Limits) -> Result<Answer, SolveError> {
        varisat_solve(formula, limits, None)
    }
}

/// Solves with varisat on a thread of its own, writing a DRAT proof to `proof` if given
/// (complete when this returns an answer).
pub(crate) fn varisat_solve(
    formula: &Formula,
    limits: &Limits,
    proof: Option<Box<dyn std::io::Write + Send>>,
) -> Result<Answer, SolveError> {
    let n_vars = formula.n_vars as usize;
    let mut cnf = varisat::CnfFormula::new();
    // Only the variables the clauses use (a header may declare two billion); the model
    // still covers all `n_vars`.
    cnf.set_var_count(formula.used_vars() as usize);
    let loaded = load(formula, limits, |clause| {
        let lits: Vec<varisat::Lit> = clause
            .iter()
            .map(|l| varisat::Lit::from_dimacs(l.to_ipasir() as isize))
            .collect();
        cnf.add_clause(&lits);
        Ok::<(), std::convert::Infallible>(())
    });
    if !matches!(loaded, Ok(true)) {
        return Ok(Answer::Unknown(limits.unknown_reason()));
    }
    let failed = |message| SolveError::in_process("varisat", message);
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("varisat".into())
        .spawn(move || {
            let clock = crate::cpu::CpuClock::start();
            let mut solver = varisat::Solver::new();
            if let Some(target) = proof {
                // Must come before the first clause.
                solver.write_proof(target, varisat::ProofFormat::Drat);
            }
            solver.add_formula(&cnf);
            let result = solver.solve().map(|sat| {
                if !sat {
                    return Answer::Unsat;
                }
                let model = solver.model().unwrap_or_default();
                let lits: Vec<i64> = model.iter().map(|l| l.to_dimacs() as i64).collect();
                Answer::Sat(Assignment::from_dimacs_lits(n_vars, &lits))
            });
            // Flushes the proof; harmless without one.
            let closed = solver.close_proof();
            let result = result.and_then(|r| closed.map(|()| r));
            // The receiver is gone when the caller gave up waiting: nothing to do.
            let _ = tx.send((result.map_err(|e| e.to_string()), clock.seconds()));
        })
        .map_err(|e| failed(format!("could not start its thread: {e}")))?;
    // Polling lets a stop request or an interrupt end the wait as promptly as a deadline.
    loop {
        if limits.should_stop() {
            return Ok(Answer::Unknown(limits.unknown_reason()));
        }
        let pause = limits
            .remaining()
            .map_or(POLL, |left| left.min(POLL))
            .max(Duration::from_millis(1));
        match rx.recv_timeout(pause) {
            Ok((result, cpu)) => {
                crate::cpu::count_helper(cpu);
                return result.map_err(failed);
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(failed("the solver thread panicked".into()))
            }
        }
    }
}

/// How often a waiting thread looks at its limits.
const POLL: Duration = Duration::from_millis(10);

/// CaDiCaL 2.2.1 through rustsat-cadical; the limits are polled by a terminator callback
/// (the library has no wall-clock limit of its own).
pub struct Cadical;

impl Backend for Cadical {
    fn name(&self) -> String {
        "cadical".to_string()
    }

    fn solve_once(&self, formula: &Formula, limits: &Limits) -> Result<Answer, SolveError> {
        cadical_solve(formula, limits, None, None)
    }

    fn session(
        &self,
        formula: &Formula,
    ) -> Option<Result<Box<dyn crate::session::Session>, SolveError>> {
        Some(crate::session::CadicalSession::with(formula).map(|s| Box::new(s) as _))
    }
}

/// One of CaDiCaL's pre-set option configurations (its `configure` call).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tuning {
    /// `--sat`: options for satisfiable instances (stable search only, less elimination).
    /// The default solver of cubes: on the 266 row cubes of 10/15 it took 0.80 of the
    /// default's time (BENCHMARKS.md, "Cube-and-conquer").
    Sat,
    /// `--unsat`: options for unsatisfiable instances (focused search only). 0.70 of the
    /// default's time on the monolithic 10/15, slower on its cubes.
    Unsat,
}

impl Tuning {
    /// The name after `cadical-`.
    pub fn name(self) -> &'static str {
        match self {
            Tuning::Sat => "sat",
            Tuning::Unsat => "unsat",
        }
    }

    fn config(self) -> rustsat_cadical::Config {
        match self {
            Tuning::Sat => rustsat_cadical::Config::Sat,
            Tuning::Unsat => rustsat_cadical::Config::Unsat,
        }
    }
}

/// The in-process CaDiCaL with a pre-set configuration.
pub struct CadicalTuned(pub Tuning);

impl Backend for CadicalTuned {
    fn name(&self) -> String {
        // As `--backend` names it (`BackendSpec`'s display).
        format!("cadical-{}", self.0.name())
    }

    fn solve_once(&self, formula: &Formula, limits: &Limits) -> Result<Answer, SolveError> {
        cadical_solve(formula, limits, None, Some(self.0))
    }
}

/// Solves with an in-process CaDiCaL, configured by `tuning` if given, tracing a proof to
/// `proof` if given (complete when this returns: the solver is dropped first).
pub(crate) fn cadical_solve(
    formula: &Formula,
    limits: &Limits,
    proof: Option<(&std::path::Path, rustsat_cadical::ProofFormat)>,
    tuning: Option<Tuning>,
) -> Result<Answer, SolveError> {
    let err = |e: &dyn fmt::Display| SolveError::in_process("cadical", e);
    let mut solver = rustsat_cadical::CaDiCaL::default();
    if let Some((path, format)) = proof {
        // CaDiCaL crashes on a proof path it cannot open, so make sure it can; and the trace
        // must start before the first clause.
        std::fs::File::create(path).map_err(SolveError::io(path))?;
        solver.trace_proof(path, format).map_err(|e| err(&e))?;
    }
    // After the trace, so that nothing the trace sets overrides the configuration. (LRAT
    // with either configuration gave proofs `rate` rejects, e.g. 6/6 without lex-leader,
    // in either order: the tuned solvers therefore write DRAT only, see prove.rs.)
    if let Some(tuning) = tuning {
        solver
            .set_configuration(tuning.config())
            .map_err(|e| err(&e))?;
    }
    // Only the variables the clauses use: a header's declared count may be two billion.
    let used = formula.used_vars();
    if used > 0 {
        solver.reserve(Var::new(used - 1)).map_err(|e| err(&e))?;
    }
    // A traced proof is left incomplete when the limits stop the loading, which the
    // caller's Unknown tells it.
    if !load(formula, limits, |clause| solver.add_clause_ref(clause)).map_err(|e| err(&e))? {
        return Ok(Answer::Unknown(limits.unknown_reason()));
    }
    attach_limits(&mut solver, limits);
    let answer = match solver.solve().map_err(|e| err(&e))? {
        SolverResult::Sat => {
            // The declared variables no clause uses are false without being stored.
            let mut model = Assignment::all_false(formula.n_vars as usize);
            for v in 0..used {
                let value = solver.lit_val(Var::new(v).pos_lit()).map_err(|e| err(&e))?;
                model.set(v as usize + 1, value == TernaryVal::True);
            }
            Answer::Sat(model)
        }
        SolverResult::Unsat => Answer::Unsat,
        SolverResult::Interrupted => Answer::Unknown(limits.unknown_reason()),
    };
    // A traced proof is complete only once the solver is gone.
    drop(solver);
    Ok(answer)
}

/// Gives every clause of `formula` to `add` (an in-process solver's), looking at `limits`
/// every 1,024 clauses: loading a big formula takes seconds, and neither a time
/// limit nor Ctrl-C may wait for it. Returns false when the limits stopped it first.
///
/// # Errors
///
/// The first error of `add`.
pub fn load<E>(
    formula: &Formula,
    limits: &Limits,
    mut add: impl FnMut(&rustsat::types::Clause) -> Result<(), E>,
) -> Result<bool, E> {
    for (i, clause) in formula.cnf.iter().enumerate() {
        if i % LOAD_CHECK == 0 && limits.should_stop() {
            return Ok(false);
        }
        add(clause)?;
    }
    Ok(true)
}

/// How many clauses are loaded between two looks at the limits: a few microseconds of work,
/// and the look (a clock read) costs far less.
const LOAD_CHECK: usize = 1024;

/// Writes `formula` as DIMACS to `path`, for a solver: its header declares only the
/// variables the clauses use (kissat refuses, and the CaDiCaL binary dies allocating, a
/// header of two billion unused variables); for pq-sat's own formulas that is the same
/// header. Returns the declared count, the length of model to expect.
pub fn write_cnf(formula: &Formula, path: &std::path::Path) -> Result<usize, SolveError> {
    let file = std::fs::File::create(path).map_err(SolveError::io(path))?;
    let used = formula.used_vars();
    pq_encode::dimacs::write_declaring(formula, used, file).map_err(SolveError::io(path))?;
    Ok(used as usize)
}

impl Backend for ExternalSolver {
    fn name(&self) -> String {
        self.name.clone()
    }

    /// Writes the formula to a temporary DIMACS file (removed afterwards) and runs the
    /// solver on it.
    fn solve_once(&self, formula: &Formula, limits: &Limits) -> Result<Answer, SolveError> {
        let dir = pq_io::output::scratch_dir()?;
        let path = dir.path().join("formula.cnf");
        let used = write_cnf(formula, &path)?;
        let mut answer = self.solve_file(&path, used, limits)?;
        if let Answer::Sat(model) = &mut answer {
            model.cover(formula.n_vars as usize);
        }
        Ok(answer)
    }

    fn solve_path(
        &self,
        path: &std::path::Path,
        formula: &Formula,
        limits: &Limits,
    ) -> Result<Answer, SolveError> {
        self.solve_file(path, formula.n_vars as usize, limits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::control::Stop;
    use pq_encode::{encode, Instance, Options};

    #[test]
    fn loading_stops_when_the_limits_say_so() {
        let pairwise = Options {
            model: pq_encode::Model::Pairwise,
            ..Options::default()
        };
        let formula = encode(&Instance::new(12, 10).unwrap(), &pairwise);
        assert!(formula.cnf.len() > 2 * LOAD_CHECK, "{}", formula.cnf.len());
        let stop = Stop::default();
        let limits = Limits::none().with_stop(&stop);
        let mut added = 0;
        let done = load(&formula, &limits, |_| {
            added += 1;
            if added == 10 {
                stop.request();
            }
            Ok::<(), ()>(())
        });
        assert_eq!(done, Ok(false));
        assert_eq!(added, LOAD_CHECK, "stopped at the next look at the limits");

        let mut added = 0;
        let done = load(&formula, &Limits::none(), |_| {
            added += 1;
            Ok::<(), ()>(())
        });
        assert_eq!((done, added), (Ok(true), formula.cnf.len()));
    }

    #[test]
    fn in_process_solvers_do_not_load_past_a_deadline() {
        let formula = encode(&Instance::new(12, 10).unwrap(), &Options::default());
        let past = Limits::timeout(Some(Duration::ZERO));
        for answer in [
            cadical_solve(&formula, &past, None, None).unwrap(),
            varisat_solve(&formula, &past, None).unwrap(),
        ] {
            assert!(
                matches!(answer, Answer::Unknown(ref r) if r.contains("time limit")),
                "{answer:?}"
            );
        }
    }

    #[test]
    fn command_placeholders_put_the_proof_and_the_cnf_where_the_command_says() {
        let solver = |args: &[&str]| ExternalSolver {
            name: "s".into(),
            program: "/bin/true".into(),
            args: args.iter().map(std::string::ToString::to_string).collect(),
            args_after: Vec::new(),
            convention: crate::external::Convention::Competition,
        };
        let p = std::path::Path::new("/tmp/p.drat");
        let s = placed(solver(&["-q", "{cnf}", "{proof}", "--no-binary"]), p);
        assert_eq!(
            (s.args, s.args_after),
            (
                vec!["-q".to_string()],
                vec!["/tmp/p.drat".to_string(), "--no-binary".to_string()]
            )
        );
        let s = placed(solver(&["--proof={proof}"]), p);
        assert_eq!(s.args, ["--proof=/tmp/p.drat"]);
        assert!(s.args_after.is_empty());
    }
}
