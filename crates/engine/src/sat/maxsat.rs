//! External optimisers: a MaxSAT solver on pq-sat's WCNF and a pseudo-Boolean solver on its
//! OPB ([`pq_encode::maxsat`]), each solving the whole optimisation in one run, their
//! answers checked like every other answer.
//!
//! - [`Optimiser::Rc2`]: RC2, PySAT's core-guided MaxSAT solver (Ignatiev, Morgado &
//!   Marques-Silva, "RC2: an efficient MaxSAT solver", JSAT 11, 2019), run as
//!   `python3 -m pysat.examples.rc2 -vv FILE.wcnf` (`-vv` prints the model) (PyPI `python-sat`);
//! - [`Optimiser::Clasp`]: clasp, the conflict-driven answer-set and PB solver of Potassco
//!   (Gebser, Kaufmann & Schaub, "Conflict-driven answer set solving: from theory to
//!   practice", AIJ 187, 2012), which reads OPB natively (Debian `clasp`).
//!
//! Both answer in the competitions' output conventions (`s OPTIMUM FOUND`, `o` the
//! objective, `v` the model). pq-sat believes none of it unchecked: the model must satisfy
//! every hard constraint of the file, its objective must be the `o` claimed, it is decoded
//! with the file's variable map and validated by the independent validator
//! ([`crate::capability::validated`]), and the size its board shows must be the optimum
//! claimed (and agree with the table of proven values, [`pq_solve::known`]). That the next size
//! does not fit is the optimiser's word, marked unverified, unless a proof-checking backend
//! confirms it (the `confirm` backend of [`optimise_with`]: pq-sat's own formula one above, a checked UNSAT).

use std::collections::HashSet;
use std::io::Read;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use pq_board::placement::Placement;
use pq_encode::maxsat::{export, Export, Optimisation};
use pq_encode::spec::Problem;
use pq_encode::Options;
use pq_solve::answer::Answer;
use pq_solve::backend::Backend;
use pq_solve::control::Limits;
use pq_solve::error::SolveError;
use pq_solve::external::process::{supervise, End, STDOUT_CAP};

use super::pipeline::solve;
use crate::capability::climb::{Method, OptimiseOutcome, Step};
use crate::capability::{validated, Status};
use crate::error::EngineError;

/// An external optimiser pq-sat can run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Optimiser {
    /// RC2 (PySAT) on WCNF.
    Rc2,
    /// clasp on OPB.
    Clasp,
}

impl Optimiser {
    /// Every optimiser, in the order messages list them.
    pub const ALL: [Optimiser; 2] = [Optimiser::Rc2, Optimiser::Clasp];

    /// The name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Optimiser::Rc2 => "rc2",
            Optimiser::Clasp => "clasp",
        }
    }

    /// The file format it reads.
    pub fn export(self) -> Export {
        match self {
            Optimiser::Rc2 => Export::Wcnf,
            Optimiser::Clasp => Export::Opb,
        }
    }

    /// How to install it.
    pub fn hint(self) -> &'static str {
        match self {
            Optimiser::Rc2 => "python3 -m pip install python-sat (or run scripts/setup.sh)",
            Optimiser::Clasp => "apt-get install clasp (or run scripts/setup.sh)",
        }
    }

    /// The command that solves `file` (RC2 tells WCNF from CNF by the `.wcnf` name).
    fn command(self, file: &Path) -> Command {
        match self {
            Optimiser::Rc2 => {
                let mut cmd = Command::new("python3");
                cmd.args(["-m", "pysat.examples.rc2", "-vv"]).arg(file);
                cmd
            }
            Optimiser::Clasp => {
                let mut cmd = Command::new("clasp");
                cmd.arg(file);
                cmd
            }
        }
    }

    /// `Ok` when it is installed here; otherwise the error says how to install it. Call it
    /// before solvers run: the probe is a child process of its own.
    ///
    /// # Errors
    /// [`SolveError::NotInstalled`].
    pub fn check_installed(self) -> Result<(), SolveError> {
        let probe = match self {
            Optimiser::Rc2 => Command::new("python3")
                .args(["-c", "import pysat.examples.rc2"])
                .output(),
            Optimiser::Clasp => Command::new("clasp").arg("--version").output(),
        };
        match probe {
            Ok(out) if out.status.success() => Ok(()),
            _ => Err(SolveError::NotInstalled {
                program: self.name().into(),
                hint: format!("install it: {}", self.hint()),
            }),
        }
    }
}

impl std::str::FromStr for Optimiser {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Optimiser::ALL
            .into_iter()
            .find(|o| o.name() == s)
            .ok_or_else(|| format!("unknown optimiser '{s}'"))
    }
}

/// What an optimiser's output claims.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Claim {
    /// The `s` line's word: `OPTIMUM FOUND`, `SATISFIABLE`, `UNSATISFIABLE`, `UNKNOWN`.
    pub status: Option<String>,
    /// The last `o` line: the objective of the model given.
    pub objective: Option<i64>,
    /// The variables the `v` lines set true (DIMACS indices); `None` without `v` lines.
    pub true_vars: Option<HashSet<u32>>,
}

/// Reads the competition output: `s`, the last `o`, and every `v` line (integers `-3`, or
/// OPB names `-x3`); other lines are ignored. The error says which line is wrong.
///
/// # Errors
/// A `v` literal or an `o` value that is not a number, a variable beyond `n_vars`, or two `s`
/// lines.
pub(crate) fn parse_output(text: &str, n_vars: u32) -> Result<Claim, String> {
    let mut claim = Claim::default();
    for line in text.lines() {
        let (key, rest) = line.split_at(line.len().min(2));
        match key {
            "s " => {
                if claim.status.is_some() {
                    return Err("two 's' lines".into());
                }
                claim.status = Some(rest.trim().to_string());
            }
            "o " => {
                let o = rest
                    .trim()
                    .parse()
                    .map_err(|_| format!("bad 'o' line '{line}'"))?;
                claim.objective = Some(o);
            }
            "v " => {
                let set = claim.true_vars.get_or_insert_with(HashSet::new);
                for token in rest.split_whitespace() {
                    let (negated, name) = match token.strip_prefix('-') {
                        Some(t) => (true, t),
                        None => (false, token),
                    };
                    let name = name.strip_prefix('x').unwrap_or(name);
                    let var: u32 = name
                        .parse()
                        .map_err(|_| format!("'{token}' in a 'v' line is not a literal"))?;
                    if var > n_vars {
                        return Err(format!(
                            "'v' line literal {token} is beyond the {n_vars} variables of the file"
                        ));
                    }
                    if var != 0 && !negated {
                        set.insert(var);
                    }
                }
            }
            _ => {}
        }
    }
    Ok(claim)
}

/// Solves the optimisation of `problem` (its encoding `options`) with `optimiser` within
/// `limits`; with `confirm` (a backend whose UNSAT answers are checked), the claim that one
/// more does not fit is confirmed by it on pq-sat's own formula. The outcome is the
/// optimiser's as [`crate::sat::optimise::optimise`] reports one: a step at the optimum (its
/// witness) and a step one above (the optimiser's UNSAT, `verified: false`; or counting, or
/// the confirming backend's checked UNSAT).
///
/// # Errors
/// The optimiser is missing or fails, or its answer does not hold up (a model that breaks a
/// constraint, an objective or a board that is not the optimum claimed, a claim the table
/// of proven values or the confirming backend refutes).
pub fn optimise_with(
    problem: &Problem,
    options: &Options,
    optimiser: Optimiser,
    limits: &Limits,
    confirm: Option<&dyn Backend>,
) -> Result<OptimiseOutcome, SolveError> {
    optimiser.check_installed()?;
    let opt = export(problem, options, optimiser.export())
        .map_err(|e| SolveError::from(EngineError::Optimiser(e.to_string())))?;
    let dir = pq_io::output::scratch_dir()?;
    let file = dir
        .path()
        .join(format!("instance.{}", optimiser.export().name()));
    let write = || -> std::io::Result<()> {
        opt.write(std::io::BufWriter::new(std::fs::File::create(&file)?))
    };
    write().map_err(SolveError::io(&file))?;
    let target = Target {
        problem,
        options,
        opt: &opt,
        file: &file,
    };
    solve_file(&target, optimiser, limits, confirm)
}

/// An exported optimisation on disk, with what it was made from.
pub struct Target<'a> {
    /// The problem it optimises.
    pub problem: &'a Problem,
    /// Its encoding options (pq-sat's own formula for a confirming UNSAT uses them too).
    pub options: &'a Options,
    /// The export, in the optimiser's format.
    pub opt: &'a Optimisation,
    /// The file holding exactly `opt`'s text (a `.wcnf` name for RC2).
    pub file: &'a Path,
}

/// [`optimise_with`] on a file already written: `target.file` holds `target.opt` in
/// `optimiser`'s format (a race's instance file). The caller checks first that the
/// optimiser is installed ([`Optimiser::check_installed`]): not here, because a probe
/// started beside supervised solvers (a race's other runs) is a stray their supervisor
/// kills.
///
/// # Errors
/// As [`optimise_with`].
pub fn solve_file(
    target: &Target,
    optimiser: Optimiser,
    limits: &Limits,
    confirm: Option<&dyn Backend>,
) -> Result<OptimiseOutcome, SolveError> {
    let (problem, options, opt, file) = (target.problem, target.options, target.opt, target.file);
    let start = Instant::now();
    let name = optimiser.name();
    if opt.export != optimiser.export() {
        return Err(SolveError::from(EngineError::Optimiser(format!(
            "{name} reads {}, not {}",
            optimiser.export().name(),
            opt.export.name()
        ))));
    }
    let run = supervise(
        name,
        optimiser.command(file),
        None,
        limits,
        STDOUT_CAP,
        |mut pipe| {
            let mut text = String::new();
            pipe.read_to_string(&mut text).map(|_| text)
        },
    )?;
    let failed = |reason: String| SolveError::SolverFailed {
        program: name.into(),
        reason,
        stderr: run.stderr.clone(),
    };
    let mut outcome = OptimiseOutcome::default();
    match &run.end {
        End::Stopped(reason) => outcome.reason = Some(reason.clone()),
        End::Interrupted => outcome.reason = Some("interrupted".into()),
        End::Cut(reason) => return Err(failed(reason.clone())),
        End::Exited(status) => {
            use std::os::unix::process::ExitStatusExt;
            if let Some(signal) = status.signal() {
                return Err(failed(format!("killed by signal {signal}")));
            }
            let Some(Ok(text)) = run.stdout else {
                return Err(failed("its output could not be read".into()));
            };
            let claim = parse_output(&text, opt.formula.n_vars).map_err(failed)?;
            judge(problem, opt, name, &claim, run.seconds, &mut outcome)?;
        }
    }
    if let (Some(backend), None) = (confirm, &outcome.reason) {
        confirm_bound(problem, options, name, backend, limits, &mut outcome)?;
    }
    outcome.seconds = start.elapsed().as_secs_f64();
    Ok(outcome)
}

/// Checks `claim` (the optimiser `name`'s answer on `opt`, made for `problem`) and records
/// what it establishes in `outcome`.
fn judge(
    problem: &Problem,
    opt: &Optimisation,
    name: &str,
    claim: &Claim,
    seconds: f64,
    outcome: &mut OptimiseOutcome,
) -> Result<(), SolveError> {
    let rejected = |reason: String| SolveError::Rejected {
        program: name.into(),
        reason,
    };
    let status = claim.status.as_deref().unwrap_or("");
    // Without an objective (nothing can be maximised: K = 0) any model is optimal.
    let optimal = status == "OPTIMUM FOUND" || (status == "SATISFIABLE" && opt.bound() == 0);
    match status {
        "UNSATISFIABLE" => {
            // With every group maximised the empty board is a solution: "infeasible" is
            // then a solver's error, never a result (and so is any answer the table refutes).
            if problem.maximised().len() == problem.rules.groups.len() {
                return Err(rejected(
                    "answered UNSATISFIABLE, but every group is maximised, so the empty board is a solution".into(),
                ));
            }
            pq_solve::known::agrees(problem, 0, &Answer::Unsat).map_err(rejected)?;
            outcome.infeasible = true;
            outcome
                .steps
                .push(solver_step(0, Status::Unsat, name, seconds, None));
            return Ok(());
        }
        "OPTIMUM FOUND" | "SATISFIABLE" => {}
        "UNKNOWN" | "" => {
            outcome.reason = Some(format!("{name} gave no answer ('s {status}')"));
            return Ok(());
        }
        other => {
            return Err(SolveError::SolverFailed {
                program: name.into(),
                reason: format!("unknown answer 's {other}'"),
                stderr: String::new(),
            })
        }
    }
    let Some(true_vars) = &claim.true_vars else {
        return Err(rejected(format!(
            "answered '{status}' without a model ('v' lines)"
        )));
    };
    let value = |v: u32| true_vars.contains(&v);
    if let Some(v) = opt.violation(value) {
        return Err(rejected(format!("returned a model that {v}")));
    }
    let objective = opt.objective(value);
    if opt.bound() > 0 && claim.objective != Some(objective) {
        return Err(rejected(format!(
            "claimed the objective {} but its model's is {objective}",
            claim.objective.map_or("(none)".into(), |o| o.to_string())
        )));
    }
    let (n, placement, witness_n) = model_placement(problem, opt, value, name)?;
    let shown = witness_n.unwrap_or(0);
    if optimal && shown != n {
        return Err(rejected(format!(
            "claimed the optimum {n}, but its own board has {shown} in its smallest maximised group"
        )));
    }
    pq_solve::known::agrees(
        problem,
        n,
        &Answer::Sat(pq_solve::answer::Assignment::all_false(0)),
    )
    .map_err(|e| rejected(format!("(its board, size {n}) {e}")))?;
    let mut step = solver_step(n, Status::Sat, name, seconds, None);
    step.witness_n = witness_n;
    outcome.steps.push(step);
    outcome.best = Some((n, placement));
    if !optimal {
        outcome.reason = Some(format!("{name} stopped before proving its best optimal"));
        return Ok(());
    }
    if n + 1 > opt.bound() {
        outcome.steps.push(Step {
            n: n + 1,
            status: Status::Unsat,
            method: Method::TooManyQueens,
            solver: None,
            seconds: 0.0,
            witness_n: None,
            verified: None,
        });
    } else {
        pq_solve::known::agrees(problem, n + 1, &Answer::Unsat)
            .map_err(|e| rejected(format!("claimed the optimum {n}: that is, {} {e}", n + 1)))?;
        outcome
            .steps
            .push(solver_step(n + 1, Status::Unsat, name, 0.0, Some(false)));
    }
    outcome.optimum = Some(n);
    Ok(())
}

/// The placement a model of `opt` (made for `problem`) encodes, as `name` answered it: its
/// size `n` read from the ladder, its board decoded through the piece map and passed by the
/// independent validator (trimmed to `n`), and the smallest maximised group of the board
/// before trimming. The model must already satisfy every hard constraint
/// ([`Optimisation::violation`]).
///
/// # Errors
/// Two pieces on one square, or a board the validator refuses.
pub fn model_placement(
    problem: &Problem,
    opt: &Optimisation,
    value: impl Fn(u32) -> bool,
    name: &str,
) -> Result<(usize, Placement, Option<usize>), SolveError> {
    let n = opt
        .size_of(opt.objective(&value))
        .expect("the ladder counts within its bound");
    let map = opt
        .formula
        .pieces
        .as_ref()
        .expect("pq-sat files map their pieces");
    let raw = map
        .decode(value)
        .map_err(|(r, c)| SolveError::InvalidBoard {
            backend: name.into(),
            details: format!("two pieces on row {}, column {}", r + 1, c + 1),
        })?;
    let (placement, witness_n) = validated(problem, n, &raw, name)?;
    Ok((n, placement, witness_n))
}

/// A step a solver decided.
fn solver_step(n: usize, status: Status, name: &str, seconds: f64, verified: Option<bool>) -> Step {
    Step {
        n,
        status,
        method: Method::Solver,
        solver: Some(name.into()),
        seconds,
        witness_n: None,
        verified: if status == Status::Unsat {
            verified.or(Some(false))
        } else {
            verified
        },
    }
}

/// Confirms the UNSAT the optimiser's claim rests on (one above its optimum, or size 0 when
/// it found nothing feasible) with `backend` on pq-sat's own formula: a checked UNSAT is
/// recorded as a verified step; a validated model refutes the optimiser (an error); no
/// answer leaves the claim unverified.
fn confirm_bound(
    problem: &Problem,
    options: &Options,
    name: &str,
    backend: &dyn Backend,
    limits: &Limits,
    outcome: &mut OptimiseOutcome,
) -> Result<(), SolveError> {
    let unverified = outcome
        .steps
        .iter()
        .rfind(|s| s.status == Status::Unsat && s.method == Method::Solver)
        .map(|s| s.n);
    let Some(n) = unverified else {
        return Ok(());
    };
    let checked = solve(problem, n, options, backend, limits)?;
    match checked.status {
        Status::Unsat => {
            let step = solver_step(
                n,
                Status::Unsat,
                &checked.solver,
                checked.seconds,
                checked.verified,
            );
            outcome.steps.push(step);
            Ok(())
        }
        Status::Sat => Err(SolveError::Rejected {
            program: name.into(),
            reason: format!(
                "claimed that size {n} does not fit, but {} found a validated placement of that size",
                checked.solver
            ),
        }),
        Status::Unknown => Ok(()),
    }
}

/// A model of `problem`'s WCNF export (encoded with `options`, as `pq-sat encode --format
/// wcnf` writes it) whose board is an image of `witness` (`n` pieces in each maximised
/// group) and whose cost is `K − n`: what a MaxSAT solver would answer with that board. The
/// export breaks symmetries, so the witness itself may not extend to a model, but one of
/// its images does (every orbit keeps a lex-leader member); each image is tried, its
/// pieces and the ladder fixed as units, by the in-process CaDiCaL. The model is checked
/// against every hard clause and its cost recomputed before it is returned.
///
/// # Errors
/// No image extends to a model (a bug: the export would lose a solution), or the solver
/// failed.
pub fn wcnf_model(
    problem: &Problem,
    options: &Options,
    n: usize,
    witness: &pq_board::placement::Placement,
    limits: &Limits,
) -> Result<(Optimisation, pq_solve::answer::Assignment), SolveError> {
    use rustsat::types::Lit;
    let opt = export(problem, options, Export::Wcnf)
        .map_err(|e| SolveError::from(EngineError::Optimiser(e.to_string())))?;
    let map = (opt.formula.pieces.as_ref()).ok_or_else(|| {
        SolveError::from(EngineError::Optimiser("the export has no piece map".into()))
    })?;
    let lit = |dimacs: u32, value: bool| {
        let l = Lit::positive(dimacs - 1);
        if value {
            l
        } else {
            !l
        }
    };
    let ladder: Vec<Lit> = (opt.ladder.iter().enumerate())
        .map(|(k, &y)| lit(y, k < n))
        .collect();
    let symmetries = pq_board::symmetry::symmetries(&problem.rules, &problem.demands(n));
    for image in pq_board::symmetry::images(&symmetries, witness) {
        let mut units: Vec<Lit> = (map.vars.iter())
            .map(|v| lit(v.dimacs, image.get(v.row, v.col) == Some(v.group)))
            .collect();
        units.extend(&ladder);
        let (answer, _) = pq_solve::backend::Cadical.solve_cube(
            &opt.formula,
            &units,
            limits,
            &pq_solve::backend::accept_all,
        )?;
        match answer {
            Answer::Sat(model) => {
                let value = |v: u32| model.value(v as usize);
                if let Some(why) = opt.violation(value) {
                    return Err(SolveError::from(EngineError::Optimiser(format!(
                        "the completed WCNF model {why}"
                    ))));
                }
                let cost = opt.objective(value);
                if opt.size_of(cost) != Some(n) {
                    return Err(SolveError::from(EngineError::Optimiser(format!(
                        "the completed WCNF model costs {cost}, not K - {n}"
                    ))));
                }
                return Ok((opt, model));
            }
            Answer::Unsat => {}
            Answer::Unknown(reason) => {
                return Err(SolveError::from(EngineError::Optimiser(reason)))
            }
        }
    }
    Err(SolveError::from(EngineError::Optimiser(format!(
        "no image of the board with {n} of each extends to a model of the WCNF export"
    ))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_output_dialects_are_read() {
        let rc2 = "c cost: 2\ns OPTIMUM FOUND\no 2\nv 1 -2 3 0\n";
        let claim = parse_output(rc2, 3).unwrap();
        assert_eq!(claim.status.as_deref(), Some("OPTIMUM FOUND"));
        assert_eq!(claim.objective, Some(2));
        assert_eq!(claim.true_vars, Some(HashSet::from([1, 3])));
        let clasp = "o -1\no -2\nv -x1 x2\nv x3\ns OPTIMUM FOUND\n";
        let claim = parse_output(clasp, 3).unwrap();
        assert_eq!(claim.objective, Some(-2), "the last 'o' line");
        assert_eq!(claim.true_vars, Some(HashSet::from([2, 3])));
        assert!(parse_output("v 4\n", 3).unwrap_err().contains("beyond"));
        assert!(parse_output("v y1\n", 3).is_err());
        assert!(parse_output("o many\n", 3).is_err());
        assert!(parse_output("s A\ns B\n", 3).is_err());
    }

    fn judged(claim: &Claim, format: Export) -> Result<OptimiseOutcome, SolveError> {
        let problem = Problem::peaceable_queens(4);
        let opt = export(&problem, &Options::default(), format).unwrap();
        let mut outcome = OptimiseOutcome::default();
        judge(&problem, &opt, "liar", claim, 0.0, &mut outcome).map(|()| outcome)
    }

    /// The true vars of a model of `opt`'s hard clauses with exactly `n` ladder outputs set
    /// (CaDiCaL), if there is one.
    fn model_at(opt: &Optimisation, n: usize) -> Option<HashSet<u32>> {
        use rustsat::solvers::{Solve, SolverResult};
        use rustsat::types::{Lit, TernaryVal, Var};
        let mut solver = rustsat_cadical::CaDiCaL::default();
        solver.add_cnf(opt.formula.cnf.clone()).unwrap();
        for (k, &y) in opt.ladder.iter().enumerate() {
            let lit = Lit::positive(y - 1);
            solver.add_unit(if k < n { lit } else { !lit }).unwrap();
        }
        if solver.solve().unwrap() != SolverResult::Sat {
            return None;
        }
        let vars = 1..=opt.formula.n_vars;
        let set = |v: &u32| solver.lit_val(Var::new(v - 1).pos_lit()).unwrap() == TernaryVal::True;
        Some(vars.filter(set).collect())
    }

    #[test]
    fn an_honest_optimum_stands_and_a_short_one_falls() {
        let problem = Problem::peaceable_queens(4);
        let opt = export(&problem, &Options::default(), Export::Wcnf).unwrap();
        // a(4) = 2, K = 4: cost 2.
        let claim = Claim {
            status: Some("OPTIMUM FOUND".into()),
            objective: Some(2),
            true_vars: model_at(&opt, 2),
        };
        let outcome = judged(&claim, Export::Wcnf).unwrap();
        assert_eq!(outcome.optimum, Some(2));
        let (n, board) = outcome.best.unwrap();
        assert_eq!((n, board.count(0), board.count(1)), (2, 2, 2));
        let last = outcome.steps.last().unwrap();
        assert_eq!(
            (last.n, last.verified),
            (3, Some(false)),
            "the optimiser's word"
        );
        // A model with one output fewer, called optimal: its objective is honest, but the
        // table of proven values refutes the claim that 2 do not fit.
        let short = Claim {
            objective: Some(3),
            true_vars: model_at(&opt, 1),
            ..claim.clone()
        };
        let err = judged(&short, Export::Wcnf).unwrap_err().to_string();
        assert!(err.contains("liar") && err.contains("rejected"), "{err}");
        // The right model with a forged objective.
        let forged = Claim {
            objective: Some(1),
            ..claim
        };
        let err = judged(&forged, Export::Wcnf).unwrap_err().to_string();
        assert!(
            err.contains("claimed the objective 1 but its model's is 2"),
            "{err}"
        );
    }

    #[test]
    fn claims_that_do_not_hold_up_are_rejected() {
        // No model.
        let bare = Claim {
            status: Some("OPTIMUM FOUND".into()),
            objective: Some(2),
            true_vars: None,
        };
        assert!(judged(&bare, Export::Wcnf)
            .unwrap_err()
            .to_string()
            .contains("without a model"));
        // The all-false model breaks the colouring model's clauses.
        let empty = Claim {
            true_vars: Some(HashSet::new()),
            ..bare.clone()
        };
        let err = judged(&empty, Export::Opb).unwrap_err().to_string();
        assert!(err.contains("liar") && err.contains("violates"), "{err}");
        let unknown = Claim {
            status: Some("UNKNOWN".into()),
            ..Claim::default()
        };
        let outcome = judged(&unknown, Export::Wcnf).unwrap();
        assert!(outcome.optimum.is_none() && outcome.reason.is_some());
    }
}
