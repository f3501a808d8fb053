//! The SAT path: formulas encoded by pq-encode and answered by the backends of
//! [`pq_solve`] (one solver, a portfolio, or cubes), in the capability terms of
//! [`crate::capability`]. [`pipeline`]: one formula through a backend, its model decoded and
//! validated; [`optimise`](mod@optimise): the SAT strategies of the climb to an optimum; [`enumerate`](mod@enumerate):
//! every placement by blocking clauses; [`maxsat`]: the optimum through MaxSAT solvers.

pub mod enumerate;
pub mod maxsat;
pub mod optimise;
pub mod pipeline;

use std::borrow::Cow;

use pq_encode::general::encode_problem;
use pq_encode::spec::Problem;
use pq_encode::{Formula, Options};
use pq_io::output::WritePolicy;
use pq_solve::backend::judged;
use pq_solve::control::Limits;
use pq_solve::portfolio::{default_portfolio, default_specs, Portfolio};
use pq_solve::{answer::Answer, backend::Backend, error::SolveError, spec::BackendSpec};

use crate::capability::climb::Strategy;
use crate::capability::listing::{Enumerated, OnFound, Request};
use crate::capability::{
    Climb, Decide, Decided, Enumerate, Optimise, Optimised, ProofFiles, Prove, Query, Status, Step,
};
use crate::error::EngineError;
use crate::proof::checked::{verify_unsat, CheckedUnsat};
use crate::proof::{check_capable, prove, ProofFormat};
use optimise::optimise;
use pipeline::{decoded, solve_formula_judged};

/// The backend `spec` names; with `check_unsat`, wrapped so that its UNSAT answers count
/// only with a proof in that format that the independent checker verified.
///
/// # Errors
/// A solver that is not installed, or cannot write the proofs asked for.
pub fn member(
    spec: &BackendSpec,
    check_unsat: Option<ProofFormat>,
) -> Result<Box<dyn Backend>, SolveError> {
    Ok(match check_unsat {
        None => spec.resolve()?,
        Some(format) => {
            Box::new(CheckedUnsat::new(spec, format).map_err(EngineError::Unsupported)?)
        }
    })
}

/// The solver (or portfolio) that answers each formula; with `check_unsat`, each solver
/// writes a proof of every UNSAT in that format, which is checked before the answer counts
/// (the default portfolio then takes only solvers that write proofs).
///
/// # Errors
/// As [`member`].
pub fn portfolio(
    solvers: &Solvers,
    check_unsat: Option<ProofFormat>,
) -> Result<Box<dyn Backend>, SolveError> {
    let specs = match solvers {
        Solvers::Given(list) => list.clone(),
        Solvers::Default { jobs } => match check_unsat {
            None => return Ok(Box::new(default_portfolio(*jobs))),
            Some(format) => default_specs(*jobs, |spec| check_capable(spec, format).is_ok()),
        },
    };
    let mut members = Vec::new();
    for spec in &specs {
        members.push(member(spec, check_unsat)?);
    }
    Ok(match members.len() {
        1 => members.remove(0),
        _ => Box::new(Portfolio::new(members)),
    })
}

/// The formula of `step`: its own, or its problem encoded with `options`.
fn formula_of<'a>(
    step: Step<'a>,
    options: &Options,
) -> (Option<&'a Problem>, usize, Cow<'a, Formula>) {
    match step {
        Step::Formula {
            problem,
            n,
            formula,
        } => (problem, n, Cow::Borrowed(formula)),
        Step::Problem { problem, n } => (
            Some(problem),
            n,
            Cow::Owned(encode_problem(problem, n, options)),
        ),
    }
}

/// SAT solvers deciding a formula: one backend, a portfolio or cubes; a problem given
/// without its formula is encoded with `options`.
pub(crate) struct SatSolvers {
    /// The backend.
    pub backend: Box<dyn Backend>,
    /// The encoding of a problem given without its formula.
    pub options: Options,
}

impl Decide for SatSolvers {
    fn take_rejections(&self) -> Vec<String> {
        self.backend.take_rejections()
    }

    fn decide(&self, query: Query<'_>) -> Result<Decided, SolveError> {
        let (problem, n, formula) = formula_of(query.step, &self.options);
        let (backend, limits) = (self.backend.as_ref(), query.limits);
        let outcome = solve_formula_judged(problem, n, &formula, backend, limits, query.judge);
        Ok(Decided {
            engine: self.backend.name(),
            ..Decided::of(outcome?)
        })
    }
}

/// One proof-writing SAT solver.
pub(crate) struct SatProver {
    /// The solver.
    pub spec: BackendSpec,
    /// Whether the proof may replace an earlier file.
    pub policy: WritePolicy,
    /// The encoding of a problem given without its formula.
    pub options: Options,
    /// Whether the proof is checked before its UNSAT counts.
    pub check: bool,
}

impl Prove for SatProver {
    fn prove(&self, query: Query<'_>, files: &ProofFiles) -> Result<Decided, SolveError> {
        let ProofFiles::Clausal { format, proof, cnf } = files else {
            return Err(SolveError::from(EngineError::Unsupported(format!(
                "{} writes a clausal proof (DRAT or LRAT); a search certificate comes from the line engine",
                self.spec
            ))));
        };
        let (check, limits, format) = (self.check, query.limits, *format);
        let (problem, n, formula) = formula_of(query.step, &self.options);
        let formula = formula.as_ref();
        let paths = (cnf.as_path(), proof.as_path());
        let proved = prove(&self.spec, formula, paths, format, limits, self.policy)?;
        let (mut answer, solver) = judged(formula, (proved.answer, proved.solver), query.judge)?;
        let checked = answer == Answer::Unsat && check;
        if checked {
            answer = verify_unsat(solver.clone(), cnf, proof, format, limits)?;
        }
        let mut outcome = decoded(problem, n, formula, answer, solver, proved.seconds)?;
        if outcome.status == Status::Unsat {
            outcome.verified = Some(checked);
        }
        Ok(Decided {
            proof_bytes: Some(proved.proof_bytes),
            ..Decided::of(outcome)
        })
    }
}

/// SAT solvers climbing by a strategy, on formulas encoded with `options`.
pub(crate) struct SatOptimiser {
    /// The backend of every step.
    pub backend: Box<dyn Backend>,
    /// The encoding's options.
    pub options: Options,
    /// How it climbs.
    pub strategy: Strategy,
}

impl Optimise for SatOptimiser {
    fn name(&self) -> String {
        self.backend.name()
    }

    fn take_rejections(&self) -> Vec<String> {
        self.backend.take_rejections()
    }

    fn optimise(&self, climb: Climb<'_>) -> Result<Optimised, SolveError> {
        let outcome = optimise(
            climb.problem,
            &self.options,
            self.strategy,
            self.backend.as_ref(),
            climb.limits,
            climb.on_progress,
        );
        Ok(Optimised {
            engine: self.backend.name(),
            outcome: outcome?,
            strategy: self.strategy,
            search: None,
            options: Some(self.options),
            certified: self.options,
        })
    }
}

/// Which solvers answer each formula.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Solvers {
    /// The ones the user named (one, or a portfolio).
    Given(Vec<BackendSpec>),
    /// The default portfolio of this many members.
    Default {
        /// Members running at once.
        jobs: usize,
    },
}

impl Solvers {
    /// The names under which the `--solver-cmd` solvers answer (their commands).
    pub fn command_names(&self) -> Vec<String> {
        match self {
            Solvers::Given(list) => list
                .iter()
                .filter_map(|spec| match spec {
                    BackendSpec::Command(cmd) => Some(cmd.trim().to_string()),
                    _ => None,
                })
                .collect(),
            Solvers::Default { .. } => Vec::new(),
        }
    }
}

/// The SAT path's enumeration ([`enumerate`]: blocking clauses in an incremental
/// CaDiCaL session, each orbit once), its optimum proven by the in-process CaDiCaL.
pub(crate) struct SatEnumerator {
    /// `--check-unsat`: the UNSAT above the optimum needs a checked proof in this format.
    pub check_unsat: Option<ProofFormat>,
}

impl Enumerate for SatEnumerator {
    fn optimum(&self, problem: &Problem) -> Result<(usize, f64), SolveError> {
        // Made only when asked for: a size given needs no proof of an optimum.
        let solver = member(&BackendSpec::Cadical, self.check_unsat)?;
        enumerate::optimum_size_with(problem, solver.as_ref())
    }

    fn enumerate(&self, request: &Request, limits: &Limits, on_found: OnFound<'_>) -> Enumerated {
        enumerate::enumerate(request, limits, on_found)
    }
}
