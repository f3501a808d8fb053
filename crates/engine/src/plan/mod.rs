//! The plan of a run: which engine answers each step (SAT solvers one at a time, a
//! portfolio, cubes on several workers, or a native engine that needs no formula), whether
//! it writes a proof, and what counts as an answer. `pq-sat solve` hands its question to
//! [`Plan::new`] as a plain [`SolveRequest`] ([`request`]: every rule of what may go with
//! what) and asks the plan for a step, an optimum or a certificate; the plan picks the
//! engine by what it can do ([`Decide`], [`Prove`], [`Optimise`], [`Native`]), so the
//! report is the same whichever engine answered. `pq-sat enumerate` asks for
//! [`Enumerate`] the same way ([`enumeration`]). [`choice`]: whether the line engine or the
//! SAT path answers, and whether SAT steps are split into cubes.

pub mod choice;
pub mod enumeration;
pub mod request;

pub use request::{Input, Named, PlanError, SolveRequest, Target};

use std::borrow::Cow;
use std::path::PathBuf;
use std::time::Duration;

use pq_encode::general::encode_problem;
use pq_encode::spec::Problem;
use pq_encode::{Formula, Options};
use pq_io::output::WritePolicy;
use pq_solve::backend::{judged, Judge};
use pq_solve::control::{interrupted, Limits};
use pq_solve::portfolio::{default_portfolio, default_specs, Portfolio};
use pq_solve::{answer::Answer, backend::Backend, error::SolveError, spec::BackendSpec};

use crate::enumerate::{Enumerated, OnFound, Request};
use crate::error::EngineError;
use crate::optimise::{optimise, OptimiseOutcome, Progress, RunLimits, Strategy};
use crate::pipeline::{decoded, solve_formula_judged, Outcome, Status};
use crate::proof::certificate::Certificate;
use crate::proof::checked::{verify_unsat, CheckedUnsat};
use crate::proof::{check_capable, prove, ProofFormat};

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

/// Which solver steps are split into cubes.
#[derive(Clone, Debug, PartialEq)]
pub enum Cubing {
    /// None: each step is raced by the solvers.
    Never,
    /// Every step, each cube by the one solver in [`Plan::solvers`].
    Always,
    /// A step the solvers have not answered within `probe`, each cube by `member`.
    After {
        /// How long the solvers try first.
        probe: Duration,
        /// The solver of each cube.
        member: BackendSpec,
    },
}

/// Where a proof of one step goes: the proof, and the CNF it refutes beside it.
#[derive(Debug)]
pub struct ProofFiles {
    /// The proof.
    pub proof: PathBuf,
    /// The CNF it refutes.
    pub cnf_out: PathBuf,
}

/// One step to decide.
#[derive(Clone, Copy)]
pub enum Step<'a> {
    /// A problem at a size (the size of its maximised groups); the SAT path encodes it
    /// with the plan's options, a native engine answers it as it is.
    Problem {
        /// The problem.
        problem: &'a Problem,
        /// The size.
        n: usize,
    },
    /// A formula: encoded from a problem, or read from a file whose header may name one.
    Formula {
        /// The problem, when known.
        problem: Option<&'a Problem>,
        /// The size of its maximised groups (0 when no problem is known).
        n: usize,
        /// The formula.
        formula: &'a Formula,
    },
}

/// One step put to an engine: the step, the limits it runs under and the judge its answer
/// must pass, which travel together from the command to whichever engine answers.
#[derive(Clone, Copy)]
pub struct Query<'a> {
    /// What is decided.
    pub step: Step<'a>,
    /// The time and memory it may take.
    pub limits: &'a Limits,
    /// What the answer must agree with (the table of proven values, say).
    pub judge: Judge<'a>,
}

impl<'a> Step<'a> {
    /// The problem and its size, when the step names a problem.
    pub fn problem(&self) -> Option<(&'a Problem, usize)> {
        match *self {
            Step::Problem { problem, n } => Some((problem, n)),
            Step::Formula { problem, n, .. } => problem.map(|p| (p, n)),
        }
    }
}

/// How a run is answered, validated.
#[derive(Debug)]
pub struct Plan {
    /// What is answered.
    pub target: Target,
    /// The SAT solvers (unused when [`Plan::native`] answers).
    pub solvers: Solvers,
    /// Which steps go to cubes, and on how many workers.
    pub cubing: Cubing,
    /// The number of cube workers.
    pub jobs: usize,
    /// The native engine, when it answers instead of the SAT solvers.
    pub native: Option<Box<dyn Native>>,
    /// The proof of one step asked for (`--proof`).
    pub proof: Option<ProofFiles>,
    /// The format of that proof, or of the certificate's.
    pub proof_format: ProofFormat,
    /// The one solver that writes that proof or certificate (`lines`: the line engine).
    pub prover: Option<BackendSpec>,
    /// Every UNSAT needs a checked proof in this format before it counts.
    pub check_unsat: Option<ProofFormat>,
    /// Where the certificate of an optimum goes (`--certify`).
    pub certify: Option<PathBuf>,
    /// Whether outputs may replace earlier ones.
    pub policy: WritePolicy,
    /// The options of the formulas the SAT path encodes.
    pub options: Options,
    /// How an optimisation climbs on the SAT path.
    pub strategy: Strategy,
}

/// One step answered, whichever engine answered it.
pub struct Decided {
    /// The engine's name as reports show it.
    pub engine: String,
    /// The validated answer.
    pub outcome: Outcome,
    /// The line engine's node counts.
    pub search: Option<pq_lines::Stats>,
    /// Whether a proof was asked for, and its size when one was written (UNSAT only).
    pub proof_bytes: Option<Option<u64>>,
    /// The formula options the answer is about, when a formula was solved or proved.
    pub options: Option<Options>,
}

impl Decided {
    /// `outcome` as its solver answered it, with nothing else to report.
    pub(crate) fn of(outcome: Outcome) -> Decided {
        Decided {
            engine: outcome.solver.clone(),
            outcome,
            search: None,
            proof_bytes: None,
            options: None,
        }
    }
}

/// An optimum found, whichever engine climbed to it.
pub struct Optimised {
    /// The engine's name.
    pub engine: String,
    /// The run's outcome.
    pub outcome: OptimiseOutcome,
    /// The strategy it climbed by.
    pub strategy: Strategy,
    /// The line engine's node counts.
    pub search: Option<pq_lines::Stats>,
    /// The options of the formulas solved (the SAT path).
    pub options: Option<Options>,
    /// The options a certificate's formula is written with.
    pub certified: Options,
}

/// What decides one step: a problem at a size, or the formula given (`formula`, encoded
/// from `problem` or read from a file). An engine that reads no formula gets `None`.
pub trait Decide {
    /// Answers a portfolio rejected since the last call, while another member's won.
    fn take_rejections(&self) -> Vec<String> {
        Vec::new()
    }
    /// Decides the step under `limits`; the answer must pass `judge`.
    fn decide(&self, query: Query<'_>) -> Result<Decided, SolveError>;
}

/// What writes a proof of an UNSAT step into `files` (and checks it, when built to).
pub trait Prove {
    /// Decides the step, writing the proof on UNSAT; the answer must pass the query's judge.
    fn prove(&self, query: Query<'_>, files: &ProofFiles) -> Result<Decided, SolveError>;
}

/// What climbs to the optimum of a problem's maximised groups.
pub trait Optimise {
    /// The name reports show.
    fn name(&self) -> String;
    /// Answers a portfolio rejected while another member's won.
    fn take_rejections(&self) -> Vec<String> {
        Vec::new()
    }
    /// Climbs to the climb's optimum under its limits, telling it of each step.
    fn optimise(&self, climb: Climb<'_>) -> Result<Optimised, SolveError>;
}

/// One optimum put to an optimiser: the problem, the limits of the run and of each step, and
/// who hears of each step's progress.
pub struct Climb<'a> {
    /// The problem whose maximised groups are climbed.
    pub problem: &'a Problem,
    /// The run's and each step's limits.
    pub limits: &'a RunLimits,
    /// Told of each step as it starts and ends.
    pub on_progress: &'a mut dyn FnMut(Progress),
}

/// What lists every placement of a problem at one size (or one per symmetry orbit).
pub trait Enumerate {
    /// The size listed when none is given: the problem's optimum, with the seconds it took
    /// to prove it.
    fn optimum(&self, problem: &Problem) -> Result<(usize, f64), SolveError>;
    /// Lists `request`'s placements until done or `limits` say stop, telling `on_found` of
    /// each as it is found.
    fn enumerate(&self, request: &Request, limits: &Limits, on_found: OnFound<'_>) -> Enumerated;
}

/// An engine that answers problems itself, with no formula (the line engine): it decides
/// steps, climbs to optima and writes proofs of its own.
pub trait Native: Decide + Optimise + std::fmt::Debug + Send + Sync {
    /// What writes its proofs in `format`, replacing earlier files as `policy` says, and
    /// checks each before its UNSAT counts when `check` says so.
    fn prover(&self, format: ProofFormat, policy: WritePolicy, check: bool) -> Box<dyn Prove + '_>;
}

/// The engine of one call: the plan's native engine, borrowed, or SAT solvers made for the
/// call.
pub enum Engine<'a, T: ?Sized> {
    /// The plan's own engine.
    Held(&'a T),
    /// One made for the call.
    Made(Box<T>),
}

impl<T: ?Sized> std::ops::Deref for Engine<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        match self {
            Engine::Held(engine) => engine,
            Engine::Made(engine) => engine,
        }
    }
}

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

/// One proof-writing SAT solver, in a proof format.
pub(crate) struct SatProver {
    /// The solver.
    pub spec: BackendSpec,
    /// The proof's format.
    pub format: ProofFormat,
    /// Whether the proof may replace an earlier file.
    pub policy: WritePolicy,
    /// The encoding of a problem given without its formula.
    pub options: Options,
    /// Whether the proof is checked before its UNSAT counts.
    pub check: bool,
}

impl Prove for SatProver {
    fn prove(&self, query: Query<'_>, files: &ProofFiles) -> Result<Decided, SolveError> {
        let (check, limits) = (self.check, query.limits);
        let (problem, n, formula) = formula_of(query.step, &self.options);
        let formula = formula.as_ref();
        let paths = (files.cnf_out.as_path(), files.proof.as_path());
        let proved = prove(&self.spec, formula, paths, self.format, limits, self.policy)?;
        let (mut answer, solver) = judged(formula, (proved.answer, proved.solver), query.judge)?;
        let checked = answer == Answer::Unsat && check;
        if checked {
            answer = verify_unsat(
                solver.clone(),
                &files.cnf_out,
                &files.proof,
                self.format,
                limits,
            )?;
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

impl Plan {
    /// Whether the engine reads a formula (the SAT path) or answers the problem itself.
    pub fn needs_formula(&self) -> bool {
        self.native.is_none()
    }

    /// The backend of every SAT step: the solvers named, with [`Cubing::Always`] one
    /// solver solving cubes on the workers, and with [`Cubing::After`] the solvers first
    /// and the cubes for a step still open after the probe.
    ///
    /// # Errors
    /// As [`member`].
    pub fn step_backend(&self) -> Result<Box<dyn Backend>, SolveError> {
        let solvers = portfolio(&self.solvers, self.check_unsat)?;
        let cubed = |member: Box<dyn Backend>| crate::cube::backend::Cubed {
            member,
            jobs: self.jobs,
            settings: crate::cube::split::Settings {
                method: crate::cube::split::Method::Auto,
                prefix: None,
                depth: None,
                free: None,
            },
            incremental: false,
        };
        Ok(match &self.cubing {
            Cubing::Never => solvers,
            Cubing::Always => Box::new(cubed(solvers)),
            Cubing::After {
                probe,
                member: spec,
            } => Box::new(crate::cube::backend::AutoCubes {
                first: solvers,
                probe: *probe,
                cubes: cubed(member(spec, self.check_unsat)?),
            }),
        })
    }

    /// The engine that decides each step.
    ///
    /// # Errors
    /// As [`member`].
    pub fn decider(&self) -> Result<Engine<'_, dyn Decide + '_>, SolveError> {
        Ok(match &self.native {
            Some(engine) => Engine::Held(engine.as_ref()),
            None => Engine::Made(Box::new(SatSolvers {
                backend: self.step_backend()?,
                options: self.options,
            })),
        })
    }

    /// The engine that writes the proof of `--proof`, when one is asked for.
    pub fn prover(&self) -> Option<Box<dyn Prove + '_>> {
        self.proof.as_ref()?;
        let spec = self.prover.clone()?;
        let check = self.check_unsat.is_some();
        Some(match &self.native {
            Some(engine) => engine.prover(self.proof_format, self.policy, check),
            None => Box::new(SatProver {
                spec,
                format: self.proof_format,
                policy: self.policy,
                options: self.options,
                check,
            }),
        })
    }

    /// The engine that climbs to an optimum: the native engine, or the SAT path by the
    /// plan's strategy on formulas encoded with its options.
    ///
    /// # Errors
    /// As [`member`].
    pub fn optimiser(&self) -> Result<Engine<'_, dyn Optimise + '_>, SolveError> {
        if let Some(engine) = &self.native {
            return Ok(Engine::Held(engine.as_ref()));
        }
        // The incremental strategy always solves in the in-process CaDiCaL (checked when
        // the plan was made).
        let backend: Box<dyn Backend> = match self.strategy {
            Strategy::Incremental => Box::new(pq_solve::backend::Cadical),
            _ => self.step_backend()?,
        };
        Ok(Engine::Made(Box::new(SatOptimiser {
            backend,
            options: self.options,
            strategy: self.strategy,
        })))
    }

    /// Decides one step (a problem at a size, or the formula given): by the prover when
    /// a proof is asked for (the proof and its CNF are written on UNSAT), otherwise by the
    /// step's engine; the answer must pass `judge` and comes back decoded and validated.
    /// `on_rejection` hears each answer a portfolio rejected while another member's won.
    ///
    /// # Errors
    /// A solver that fails or cannot be started, a proof that cannot be written or that the
    /// checker rejects, an answer the judge or the validator rejects.
    pub fn decide(
        &self,
        query: Query<'_>,
        on_rejection: &mut dyn FnMut(String),
    ) -> Result<Decided, SolveError> {
        if let (Some(prover), Some(files)) = (self.prover(), &self.proof) {
            return prover.prove(query, files);
        }
        let decider = self.decider()?;
        let decided = decider.decide(query);
        decider.take_rejections().into_iter().for_each(on_rejection);
        decided
    }

    /// With `--certify`, once the optimum is proven, writes its certificate bundle (the
    /// witness, and a checked proof one above) with formulas encoded with `options`;
    /// `on_start` hears what is about to be proven. `None` when no certificate is asked for
    /// or the run was interrupted.
    ///
    /// # Errors
    /// An optimum that was not proven, or a certificate that could not be written.
    pub fn certify(
        &self,
        problem: &Problem,
        options: &Options,
        outcome: &OptimiseOutcome,
        limits: &RunLimits,
        on_start: &mut dyn FnMut(&str),
    ) -> Result<Option<(PathBuf, Certificate)>, CertifyError> {
        let (Some(dir), Some(prover)) = (&self.certify, &self.prover) else {
            return Ok(None);
        };
        if interrupted() {
            return Ok(None);
        }
        let (Some(optimum), Some((_, witness))) = (outcome.optimum, &outcome.best) else {
            return Err(CertifyError::NotProven(
                outcome.reason.as_deref().unwrap_or("stopped").to_string(),
            ));
        };
        let claim = crate::proof::certificate::claim(problem, optimum);
        on_start(&format!(
            "certifying {claim}: proving {} impossible with {prover} ({} proof)",
            optimum + 1,
            self.proof_format.name().to_uppercase()
        ));
        let request = crate::proof::certificate::Request {
            problem,
            optimum,
            witness,
            options: *options,
            prover: prover.clone(),
            format: self.proof_format,
            solve_limits: limits.run.clone(),
            policy: self.policy,
        };
        let cert =
            crate::proof::certificate::write_certificate(dir, &request).map_err(|source| {
                CertifyError::Write {
                    claim,
                    dir: dir.clone(),
                    source,
                }
            })?;
        Ok(Some((dir.clone(), cert)))
    }
}

/// Why no certificate was written.
#[derive(Debug, thiserror::Error)]
pub enum CertifyError {
    /// The optimisation stopped before it proved its optimum.
    #[error("no certificate written: the optimum was not proven ({0})")]
    NotProven(String),
    /// Proving or writing failed.
    #[error("cannot certify {claim} into {}", dir.display())]
    Write {
        /// What was to be certified.
        claim: String,
        /// Where.
        dir: PathBuf,
        /// Why it failed.
        #[source]
        source: SolveError,
    },
}
