//! The plan of a run: which engine answers each step (SAT solvers one at a time, a
//! portfolio, cubes on several workers, or a native engine that needs no formula), whether
//! it writes a proof, and what counts as an answer. `pq-sat solve` hands its question to
//! [`Plan::new`] as a plain [`SolveRequest`] ([`request`]: every rule of what may go with
//! what) and asks the plan for a step, an optimum or a certificate; the plan picks the
//! engine by what it can do ([`Decide`], [`Prove`], [`Optimise`], [`Native`]), so the
//! report is the same whichever engine answered. `pq-sat enumerate` asks for
//! [`Enumerate`](crate::capability::Enumerate) the same way ([`enumeration`]). [`choice`]: whether the line engine or the
//! SAT path answers, and whether SAT steps are split into cubes.

pub mod choice;
pub mod enumeration;
pub mod request;

pub use request::{Input, Named, PlanError, SolveRequest, Target};

use std::path::PathBuf;
use std::time::Duration;

use pq_encode::spec::Problem;
use pq_encode::Options;
use pq_io::output::WritePolicy;
use pq_solve::control::interrupted;
use pq_solve::{backend::Backend, error::SolveError, spec::BackendSpec};

use crate::capability::climb::{OptimiseOutcome, RunLimits, Strategy};
use crate::capability::{Decide, Decided, Engine, Native, Optimise, ProofFiles, Prove, Query};
use crate::proof::certificate::Certificate;
use crate::proof::{default_prover, ProofFormat};
use crate::sat::{member, portfolio, SatOptimiser, SatProver, SatSolvers, Solvers};

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
            Some(engine) => engine.prover(self.policy, check),
            None => Box::new(SatProver {
                spec,
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
        let step = (problem, optimum + 1);
        let certify_prover = |files: &ProofFiles| self.certify_prover(prover, files, step, options);
        let request = crate::proof::certificate::Request {
            problem,
            optimum,
            witness,
            options: *options,
            prover: &certify_prover,
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

impl Plan {
    /// What proves the step `n` above a certified optimum into `files` (in the bundle's
    /// staging folder, so nothing is replaced; unchecked, since the bundle's own check
    /// follows). A clausal proof comes from the solver `spec` reading pq-sat's encoding
    /// (`lines`: the line engine's tree as DRAT of that formula), so that the CNF beside it is
    /// the one a fresh encoding of the claim gives; a step that counting alone refutes (more
    /// pieces than squares) is encoded by the general encoder, which the line engine does
    /// not read, and the default solver of the format proves it. A search certificate comes
    /// from the native engine's certifier.
    fn certify_prover<'a>(
        &'a self,
        spec: &BackendSpec,
        files: &ProofFiles,
        (problem, n): (&Problem, usize),
        options: &Options,
    ) -> Box<dyn Prove + 'a> {
        let trivial = pq_encode::Instance::new(problem.rules.layout.rows, n).is_err();
        let spec = match files {
            ProofFiles::Search { .. } => match &self.native {
                Some(engine) => return engine.certifier(),
                None => spec.clone(),
            },
            ProofFiles::Clausal { format, .. } if trivial && *spec == BackendSpec::Lines => {
                default_prover(*format)
            }
            ProofFiles::Clausal { .. } => spec.clone(),
        };
        Box::new(SatProver {
            spec,
            policy: WritePolicy::Keep,
            options: *options,
            check: false,
        })
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
