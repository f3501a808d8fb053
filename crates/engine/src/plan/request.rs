//! [`Plan::new`]: `solve`'s question as plain data ([`SolveRequest`], no command-line
//! parser) made into a [`Plan`] and its [`Target`], or refused with a [`PlanError`] that
//! names the options at fault. Every rule of what may go with what lives here, so that
//! each can be tested without a command line: which solvers, whether steps are cubed
//! (`choice::auto_cubing`), whether the line engine answers
//! (`choice::line_engine`), who writes the proofs and into which files, and the
//! encoding's defaults.

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

use pq_encode::spec::{Count, Problem};
use pq_encode::{Bounds, Card, Instance, Model, Options, Symmetry};
use pq_io::compress::{stripped, Compression};
use pq_io::output::{same_target, WritePolicy};
use pq_solve::spec::BackendSpec;

use super::choice::{auto_cubing, line_engine, CubingRequest, EngineChoice, EngineRequest};
use super::{Cubing, Plan};
use crate::capability::climb::Strategy;
use crate::capability::{Native, ProofFiles};
use crate::proof::{check_capable, default_prover, ProofFormat};
use crate::sat::maxsat::Optimiser;
use crate::sat::Solvers;

/// Why a request makes no plan: options that contradict each other, the problem, or the
/// engine asked for. The message names the options, in the words of the command line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// A usage error: the request asks for something that cannot be done as asked.
    #[error("{0}")]
    Refused(String),
}

impl From<String> for PlanError {
    fn from(message: String) -> Self {
        PlanError::Refused(message)
    }
}

impl From<&str> for PlanError {
    fn from(message: &str) -> Self {
        PlanError::Refused(message.to_string())
    }
}

/// What a run is asked about.
#[derive(Debug, Clone)]
pub enum Input {
    /// The peaceable queens on a square board of this side (`--dim D`).
    Queens(usize),
    /// A problem read from a file, and the size `--set` gave every group it maximises,
    /// when it gave them all one (those groups are then maximised again in `problem`, so
    /// that the size reaches the engines as `--n` does).
    Problem {
        /// The problem, `--set` applied.
        problem: Problem,
        /// The size `--set` fixed.
        set_n: Option<usize>,
    },
    /// A DIMACS formula solved as it is: a file, or standard input (`None` or `-`).
    Formula(Option<PathBuf>),
}

impl Default for Input {
    fn default() -> Self {
        Input::Formula(None)
    }
}

/// A `--backend` value: a SAT solver, or an external optimiser.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Named {
    /// A SAT solver (one formula at a time).
    Solver(BackendSpec),
    /// An optimiser that solves the whole optimisation in one run.
    Optimiser(Optimiser),
}

impl FromStr for Named {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        if let Ok(o) = s.parse::<Optimiser>() {
            return Ok(Named::Optimiser(o));
        }
        s.parse::<BackendSpec>().map(Named::Solver).map_err(|e| {
            let optimisers: Vec<&str> = Optimiser::ALL.iter().map(|o| o.name()).collect();
            format!("{e}; optimisers: {}", optimisers.join(", "))
        })
    }
}

/// When a SAT step is split into cubes (`--cubes`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CubesWhen {
    /// Where cubes are sound and there are cores to share them (`choice::auto_cubing`).
    #[default]
    Auto,
    /// Every step.
    Always,
    /// No step.
    Never,
}

/// The encoding options given (`--model`, `--card`, `--symmetry`, `--bounds`); those not
/// given take [`Options::default`]'s value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EncodingRequest {
    /// `--model`.
    pub model: Option<Model>,
    /// `--card`.
    pub card: Option<Card>,
    /// `--symmetry`.
    pub symmetry: Option<Symmetry>,
    /// `--bounds`.
    pub bounds: Option<Bounds>,
}

impl EncodingRequest {
    /// The options, defaults filled in.
    pub fn options(&self) -> Options {
        let d = Options::default();
        Options {
            model: self.model.unwrap_or(d.model),
            card: self.card.unwrap_or(d.card),
            symmetry: self.symmetry.unwrap_or(d.symmetry),
            bounds: self.bounds.unwrap_or(d.bounds),
        }
    }

    /// The first encoding option given, by its flag.
    pub fn given(&self) -> Option<&'static str> {
        [
            (self.model.is_some(), "--model"),
            (self.card.is_some(), "--card"),
            (self.symmetry.is_some(), "--symmetry"),
            (self.bounds.is_some(), "--bounds"),
        ]
        .into_iter()
        .find_map(|(given, flag)| given.then_some(flag))
    }

    /// `--bounds sums` applies to the colouring model of the peaceable queens (the only
    /// formula that has the line colours it counts with).
    ///
    /// # Errors
    /// Bounds asked for another model or another problem.
    pub fn check_bounds(&self, problem: &Problem) -> Result<(), PlanError> {
        let options = self.options();
        if options.bounds == Bounds::None {
            return Ok(());
        }
        if options.model != Model::Colouring {
            return Err(format!(
                "--bounds {} needs the colouring model (its clauses count on the line colours), not --model {}",
                options.bounds, options.model
            )
            .into());
        }
        if !Bounds::apply_to(problem) {
            return Err(format!(
                "--bounds {} applies to the peaceable queens (--dim D), not to {}",
                options.bounds, problem.name
            )
            .into());
        }
        Ok(())
    }
}

/// The size a run asks about: `n` as given, where the problem maximises some group; a
/// problem whose counts are all fixed has one size (0) and refuses `--n`.
///
/// # Errors
/// `--n` for a problem that maximises no group.
pub fn size_asked(problem: &Problem, n: Option<usize>) -> Result<Option<usize>, PlanError> {
    match (problem.maximised().is_empty(), n) {
        (true, Some(_)) => Err(
            "--n: this problem maximises no group (its counts are fixed; change one with --set GROUP=N)"
                .into(),
        ),
        (true, None) => Ok(Some(0)),
        (false, n) => Ok(n),
    }
}

/// The problem asked at one size when `--set` fixed every group `file` maximises to one
/// count K: `problem` (the file with `--set` applied) with those groups maximised again,
/// and K. Otherwise `problem` as it is and no size.
pub fn sized_by_set(file: &Problem, problem: Problem, set_given: bool) -> (Problem, Option<usize>) {
    let maximised = file.maximised();
    let fixed: Vec<usize> = maximised
        .iter()
        .filter_map(|&g| match problem.counts.get(g) {
            Some(Count::Exactly(k)) => Some(*k),
            _ => None,
        })
        .collect();
    let same_layout = file.rules.groups == problem.rules.groups;
    if !set_given
        || !same_layout
        || maximised.is_empty()
        || fixed.len() != maximised.len()
        || fixed.iter().any(|&k| k != fixed[0])
    {
        return (problem, None);
    }
    let mut sized = problem;
    for g in maximised {
        sized.counts[g] = Count::Maximise;
    }
    (sized, Some(fixed[0]))
}

/// The number of cores: the default portfolio's size and the line engine's threads.
pub fn default_jobs() -> usize {
    pq_io::cores()
}

/// `solve`'s question: what to answer, and how, as the user gave it.
#[derive(Debug, Clone, Default)]
pub struct SolveRequest {
    /// The board, problem or formula.
    pub input: Input,
    /// The size of the maximised groups (`--n`); none: their optimum.
    pub n: Option<usize>,
    /// The solvers and optimisers named (`--backend`), in order.
    pub backends: Vec<Named>,
    /// Solver commands (`--solver-cmd`).
    pub solver_cmds: Vec<String>,
    /// `--jobs`: solvers raced, cube workers or the line engine's threads.
    pub jobs: Option<usize>,
    /// `--engine`.
    pub engine: EngineChoice,
    /// `--cubes`.
    pub cubes: CubesWhen,
    /// `--cube-after`.
    pub cube_after: Option<Duration>,
    /// The encoding options given.
    pub encoding: EncodingRequest,
    /// `--strategy`.
    pub strategy: Strategy,
    /// A limit for each step of an optimisation was given (`--step-timeout`).
    pub step_timeout: bool,
    /// `--proof`.
    pub proof: Option<PathBuf>,
    /// `--cnf-out`.
    pub cnf_out: Option<PathBuf>,
    /// `--proof-format`.
    pub proof_format: Option<ProofFormat>,
    /// `--certify`.
    pub certify: Option<PathBuf>,
    /// `--journal`.
    pub journal: Option<PathBuf>,
    /// `--unit-budget`.
    pub unit_budget: Option<u64>,
    /// `--check-unsat`: every UNSAT needs a checked proof.
    pub check_unsat: bool,
    /// `--force`: outputs may replace earlier files.
    pub force: bool,
}

/// The question a plan answers.
#[derive(Debug, Clone)]
pub enum Target {
    /// A problem at a size (the queens: `--dim D --n N`).
    Size(Problem, usize),
    /// The optimum of a problem's maximised groups (the queens: a(d)).
    Optimum(Problem),
    /// That optimum by an external optimiser.
    OptimiseWith(Problem, Optimiser),
    /// A DIMACS formula as it is: a file, or standard input (`None`).
    Formula(Option<PathBuf>),
}

impl Plan {
    /// The plan of `req`: what is answered ([`Plan::target`]), by which engine, with which
    /// proofs.
    ///
    /// # Errors
    /// A request that contradicts itself or asks an engine for what it cannot do; a
    /// solver named for `--check-unsat` or `--proof` that writes no proof of that format.
    pub fn new(req: SolveRequest) -> Result<Plan, PlanError> {
        let mut req = req;
        if let Input::Formula(Some(path)) = &req.input {
            if path.as_os_str() == "-" {
                req.input = Input::Formula(None);
            }
        }
        let optimisers: Vec<Optimiser> = (req.backends.iter())
            .filter_map(|b| match b {
                Named::Optimiser(o) => Some(*o),
                Named::Solver(_) => None,
            })
            .collect();
        if let Some(&optimiser) = optimisers.first() {
            return optimiser_plan(req, optimiser);
        }
        let backends: Vec<BackendSpec> = (req.backends.iter())
            .filter_map(|b| match b {
                Named::Solver(spec) => Some(spec.clone()),
                Named::Optimiser(_) => None,
            })
            .collect();
        let solvers = if req.cubes == CubesWhen::Always {
            cube_solvers(&req, &backends)?
        } else {
            solvers(&backends, &req.solver_cmds, req.jobs)?
        };
        let (problem, set_n) = match &req.input {
            Input::Queens(d) => (Some(Problem::peaceable_queens(*d)), None),
            Input::Problem { problem, set_n } => (Some(problem.clone()), *set_n),
            Input::Formula(_) => (None, None),
        };
        if let (Some(k), Some(n)) = (set_n, req.n) {
            return Err(format!("--n {n} and --set fix the size of the maximised groups twice (--set gives {k}): give one").into());
        }
        if set_n.is_some() && req.certify.is_some() {
            return Err("--certify certifies an optimum, and --set fixed the size of every maximised group: as asked, the problem maximises no group".into());
        }
        if set_n.is_some() {
            req.n = set_n;
        }
        if req.step_timeout && (problem.is_none() || req.n.is_some()) {
            return Err("--step-timeout applies to optimisation (--dim without --n); use --timeout for a single formula".into());
        }
        let (proof_format, prover, proof) = proofs(&req, &solvers)?;
        if req.check_unsat && req.proof.as_ref().is_some_and(|p| p.as_os_str() == "-") {
            return Err("--check-unsat checks a file; a certificate on standard output is checked by the program it is piped into: --proof - | pq-check -".into());
        }
        let check_unsat = req.check_unsat.then_some(proof_format);
        if let (Some(format), Solvers::Given(list)) = (check_unsat, &solvers) {
            for spec in list {
                check_capable(spec, format).map_err(|e| format!("--check-unsat: {e}"))?;
            }
        }
        if check_unsat.is_some() && req.strategy == Strategy::Incremental && req.n.is_none() {
            return Err("--check-unsat cannot check --strategy incremental (its UNSAT answers come under assumptions, without a clausal proof); use --strategy up or bisect".into());
        }
        let jobs = req.jobs.unwrap_or_else(default_jobs);
        let cubing = match req.cubes {
            CubesWhen::Always => Cubing::Always,
            CubesWhen::Never => Cubing::Never,
            // A formula read as it is (a file or standard input) is never split on its own.
            CubesWhen::Auto if problem.is_none() => Cubing::Never,
            CubesWhen::Auto => auto_cubing(&CubingRequest {
                solvers: &solvers,
                jobs,
                one_run: check_unsat.is_some()
                    || req.strategy == Strategy::Incremental
                    || req.proof.is_some()
                    || req.certify.is_some(),
                lex_leader: req.encoding.options().symmetry == Symmetry::LexLeader,
                probe: req.cube_after.unwrap_or_default(),
            }),
        };
        if req.cube_after.is_some() && !matches!(cubing, Cubing::After { .. }) {
            return Err("--cube-after: no step is split into cubes here (auto splits the queens' steps with --jobs 2 or more, one --backend, lex-leader symmetry, and no --proof, --certify, --check-unsat or --strategy incremental); leave it out".into());
        }
        let native = chosen_engine(&req, problem.as_ref(), jobs)?;
        // The line engine proves by its own search tree.
        let prover = match &native {
            Some(_) if prover.is_some() => Some(BackendSpec::Lines),
            _ => prover,
        };
        let mut plan = Plan {
            target: Target::Formula(None),
            solvers,
            cubing,
            jobs,
            native,
            proof,
            proof_format,
            prover,
            check_unsat,
            certify: req.certify.clone(),
            policy: WritePolicy::from_force(req.force),
            options: req.encoding.options(),
            strategy: req.strategy,
        };
        let Some(problem) = problem else {
            if req.n.is_some() {
                return Err("--n needs --dim D (or --problem FILE)".into());
            }
            if let Some(flag) = req.encoding.given() {
                return Err(format!(
                    "{flag} only applies when pq-sat builds the formula (--dim); a CNF file is solved as it is"
                )
                .into());
            }
            if req.certify.is_some() {
                return Err("--certify needs --dim (it certifies a(d))".into());
            }
            let Input::Formula(path) = req.input else {
                unreachable!("only a formula comes without a problem")
            };
            plan.target = Target::Formula(path);
            return Ok(plan);
        };
        req.encoding.check_bounds(&problem)?;
        if req.encoding.bounds.is_some() && req.certify.is_some() {
            return Err("--certify re-encodes the formula from its manifest, which names no --bounds: leave --bounds out".into());
        }
        if req.encoding.bounds.is_some() && req.strategy == Strategy::Incremental && req.n.is_none()
        {
            return Err("--strategy incremental encodes every size in one formula, without --bounds: use --strategy up".into());
        }
        if req.certify.is_some() && problem.maximised().is_empty() {
            return Err("--certify certifies an optimum: this problem maximises no group (its counts are fixed)".into());
        }
        let n = size_asked(&problem, req.n)?;
        if let (Input::Queens(dim), Some(n)) = (&req.input, n) {
            // Checked as a queens instance for its messages ("too many queens").
            Instance::new(*dim, n).map_err(|e| e.to_string())?;
        }
        if n.is_none() && req.proof.is_some() {
            return Err("--proof needs one formula: fix the size of the maximised groups with --n N (or --set GROUP=N)".into());
        }
        if n.is_none() && req.strategy == Strategy::Incremental {
            // It solves under assumptions in the in-process CaDiCaL only.
            if let Solvers::Given(list) = &plan.solvers {
                if let Some(other) = list.iter().find(|b| **b != BackendSpec::Cadical) {
                    return Err(format!(
                        "--strategy incremental solves under assumptions in the in-process CaDiCaL; it cannot use {other}"
                    )
                    .into());
                }
            }
            if matches!(req.input, Input::Queens(_)) && plan.options.card != Card::Totalizer {
                return Err(
                    "--strategy incremental needs --card totalizer (its outputs are the assumptions)"
                        .into(),
                );
            }
        }
        // The family-sum clauses are the default where they were measured to win: the SAT
        // path's own formulas for the peaceable queens on the colouring model (a(10) from
        // scratch: 30.9 s → 17.0 s; BENCHMARKS.md, "The family-sum bound as clauses"). Not
        // for --certify (its manifest re-encodes without them) nor one incremental formula;
        // a written CNF (`encode`, `family`, `cube`) states them only when asked.
        let default_bounds = req.encoding.bounds.is_none()
            && plan.options.model == Model::Colouring
            && Bounds::apply_to(&problem)
            && req.certify.is_none()
            && !(req.strategy == Strategy::Incremental && n.is_none());
        if default_bounds {
            plan.options.bounds = Bounds::Sums;
        }
        plan.target = match n {
            Some(n) => Target::Size(problem, n),
            None => Target::Optimum(problem),
        };
        Ok(plan)
    }
}

/// `--backend rc2|clasp`: the optimisation in one run of an external optimiser. With
/// `--check-unsat`, the bound above its optimum is confirmed by the default portfolio of
/// proof-writing solvers (DRAT, checked).
fn optimiser_plan(req: SolveRequest, optimiser: Optimiser) -> Result<Plan, PlanError> {
    let name = optimiser.name();
    if req.backends.len() > 1 || !req.solver_cmds.is_empty() {
        return Err(format!("--backend {name} solves the whole optimisation alone: give no other --backend or --solver-cmd").into());
    }
    let refused = [
        (
            req.n.is_some(),
            "--n (it maximises n; check one size with a SAT backend)",
        ),
        (
            matches!(req.input, Input::Formula(Some(_))),
            "--cnf (it reads pq-sat's own WCNF/OPB export)",
        ),
        (req.proof.is_some(), "--proof"),
        (
            req.certify.is_some(),
            "--certify (a certificate needs pq-sat's own proof: drop --backend)",
        ),
        (
            req.step_timeout,
            "--step-timeout (it solves in one step: use --timeout)",
        ),
        (req.strategy != Strategy::Up, "--strategy (it has its own)"),
    ];
    if let Some((_, flag)) = refused.iter().find(|(given, _)| *given) {
        return Err(format!("--backend {name} cannot take {flag}").into());
    }
    let problem = match req.input {
        Input::Queens(d) => Problem::peaceable_queens(d),
        Input::Problem { problem, set_n } if set_n.is_none() => problem,
        Input::Problem { .. } => {
            return Err(format!(
                "--backend {name} maximises: this problem maximises no group (its counts are fixed)"
            )
            .into())
        }
        Input::Formula(_) => {
            return Err(format!(
                "--backend {name} optimises a board: give --dim D or --problem FILE"
            )
            .into())
        }
    };
    if problem.maximised().is_empty() {
        return Err(format!(
            "--backend {name} maximises: this problem maximises no group (its counts are fixed)"
        )
        .into());
    }
    let jobs = req.jobs.unwrap_or_else(default_jobs);
    Ok(Plan {
        target: Target::OptimiseWith(problem, optimiser),
        solvers: Solvers::Default { jobs },
        cubing: Cubing::Never,
        jobs,
        native: None,
        proof: None,
        proof_format: ProofFormat::Drat,
        prover: None,
        check_unsat: req.check_unsat.then_some(ProofFormat::Drat),
        certify: None,
        policy: WritePolicy::from_force(req.force),
        options: req.encoding.options(),
        strategy: req.strategy,
    })
}

/// `--cubes always`: the one solver that solves each cube (default: the in-process
/// CaDiCaL); `--jobs` is then the number of workers, not a portfolio's size.
fn cube_solvers(req: &SolveRequest, backends: &[BackendSpec]) -> Result<Solvers, PlanError> {
    let refused = [
        (
            req.strategy == Strategy::Incremental,
            "--strategy incremental (it keeps one solver under assumptions)",
        ),
        (
            req.proof.is_some(),
            "--proof (a cube-and-conquer proof is one per cube: use pq-sat cube, conquer --proof)",
        ),
        (
            req.certify.is_some(),
            "--certify (its proof comes from one solver)",
        ),
    ];
    if let Some((_, flag)) = refused.iter().find(|(given, _)| *given) {
        return Err(format!("--cubes cannot take {flag}").into());
    }
    let mut given = backends.to_vec();
    given.extend(
        req.solver_cmds
            .iter()
            .map(|c| BackendSpec::Command(c.clone())),
    );
    if given.len() > 1 {
        return Err("--cubes solves every cube with one solver: give at most one --backend or --solver-cmd (--jobs says how many cubes run at once)".into());
    }
    Ok(Solvers::Given(if given.is_empty() {
        vec![crate::cube::CUBE_SOLVER]
    } else {
        given
    }))
}

/// The solvers named by `--backend` and `--solver-cmd`, or the default portfolio.
fn solvers(
    backends: &[BackendSpec],
    commands: &[String],
    jobs: Option<usize>,
) -> Result<Solvers, PlanError> {
    let mut given = backends.to_vec();
    for cmd in commands {
        if cmd.trim().is_empty() {
            return Err("--solver-cmd needs a command".into());
        }
        given.push(BackendSpec::Command(cmd.clone()));
    }
    if given.is_empty() {
        return Ok(Solvers::Default {
            jobs: jobs.unwrap_or_else(default_jobs),
        });
    }
    if let Some(jobs) = jobs.filter(|&j| j < given.len()) {
        return Err(format!(
            "{} solvers were named but --jobs is {jobs}: a portfolio runs all its solvers at once",
            given.len()
        )
        .into());
    }
    Ok(Solvers::Given(given))
}

/// The native engine when it answers, `None` for the SAT path ([`line_engine`], from the
/// options given by name).
fn chosen_engine(
    req: &SolveRequest,
    problem: Option<&Problem>,
    jobs: usize,
) -> Result<Option<Box<dyn Native>>, PlanError> {
    let flags = |list: &[(bool, &'static str)]| -> Vec<&'static str> {
        list.iter().filter(|(g, _)| *g).map(|(_, f)| *f).collect()
    };
    let request = EngineRequest {
        engine: req.engine,
        problem,
        check_unsat: req.check_unsat,
        proof: req.proof.as_deref(),
        proof_format: req.proof_format,
        certify: req.certify.is_some(),
        journal: req.journal.as_deref(),
        unit_budget: req.unit_budget,
        jobs,
        solvers: flags(&[
            (
                req.backends.iter().any(|b| matches!(b, Named::Solver(_))),
                "--backend",
            ),
            (!req.solver_cmds.is_empty(), "--solver-cmd"),
        ]),
        sat_only: flags(&[
            (
                matches!(req.input, Input::Formula(Some(_))),
                "--cnf (it reads no formula)",
            ),
            (req.cubes != CubesWhen::Auto, "--cubes"),
            (req.cube_after.is_some(), "--cube-after"),
            (
                req.strategy != Strategy::Up,
                "--strategy (it raises n until UNSAT)",
            ),
        ])
        .into_iter()
        .chain(req.encoding.given())
        .collect(),
    };
    let engine = line_engine(&request)?;
    Ok(engine.map(|e| Box::new(e) as Box<dyn Native>))
}

/// `--proof`, `--proof-format` and `--certify`: the proofs' format, the one solver that
/// writes them (a portfolio's would come from whichever member happened to win), and the
/// files of `--proof`.
fn proofs(
    req: &SolveRequest,
    solvers: &Solvers,
) -> Result<(ProofFormat, Option<BackendSpec>, Option<ProofFiles>), PlanError> {
    let proof_format = req.proof_format.unwrap_or_else(|| {
        req.proof
            .as_deref()
            .map_or(ProofFormat::Drat, ProofFormat::from_path)
    });
    let prover = if proof_format == ProofFormat::Search
        && (req.proof.is_some() || req.certify.is_some())
    {
        // The line engine writes it; which engine answers is settled by `line_engine`,
        // which refuses --engine sat and SAT-only options with this format.
        if req.engine == EngineChoice::Sat || !req.backends.is_empty() {
            let flag = if req.backends.is_empty() {
                "--engine sat"
            } else {
                "--backend"
            };
            return Err(format!(
                "--proof-format search writes the line engine's search; it cannot be used with {flag} (use drat or lrat)"
            )
            .into());
        }
        Some(BackendSpec::Lines)
    } else if req.proof.is_some() || req.certify.is_some() {
        match solvers {
            Solvers::Given(list) if list.len() > 1 => {
                return Err(
                    "--proof and --certify take one --backend (a proof comes from one solver)"
                        .into(),
                )
            }
            Solvers::Given(list) => {
                check_capable(&list[0], proof_format)?;
                Some(list[0].clone())
            }
            Solvers::Default { .. } => Some(default_prover(proof_format)),
        }
    } else {
        None
    };
    let input_cnf = match &req.input {
        Input::Formula(path) => path.as_deref(),
        _ => None,
    };
    let proof = match &req.proof {
        None => None,
        Some(_) if matches!(req.input, Input::Queens(_)) && req.n.is_none() => {
            return Err("--proof applies to a single formula (--n, or --cnf); to certify an optimum use --certify DIR".into())
        }
        Some(proof) if proof_format == ProofFormat::Search => {
            if req.cnf_out.is_some() {
                return Err("--cnf-out: a search certificate needs no formula beside it (pq-check reads its claim from its header)".into());
            }
            if req.certify.is_some() {
                return Err("--certify writes its own bundle (with --proof-format search, its UNSAT half is a search certificate): give --certify DIR or --proof FILE, not both".into());
            }
            if Compression::of_name(proof) != Compression::None {
                return Err(format!(
                    "--proof {}: a search certificate is written as it is checked; to compress it, stream it: --proof - | xz > FILE.xz (xz -dc FILE.xz | pq-check - checks it)",
                    proof.display()
                )
                .into());
            }
            Some(ProofFiles::Search {
                sink: proof.clone(),
            })
        }
        Some(proof) if proof.as_os_str() == "-" => {
            return Err("--proof -: only a search certificate (--proof-format search) streams to standard output; a DRAT or LRAT proof goes to a file beside its CNF".into())
        }
        Some(proof) => {
            refuse_compressed_name("--proof", proof)?;
            let cnf_out = (req.cnf_out.clone()).unwrap_or_else(|| proof.with_extension("cnf"));
            refuse_compressed_name("--cnf-out", &cnf_out)?;
            if req.cnf_out.is_none() && same_target(&cnf_out, proof) {
                return Err(format!(
                    "--proof {}: the CNF written beside the proof takes the proof's name with .cnf, which is the proof itself; the proof file must not end in .cnf: name it .drat or .lrat, or give --cnf-out",
                    proof.display()
                )
                .into());
            }
            if req.cnf_out.is_none() && input_cnf.is_some_and(|c| same_target(c, &cnf_out)) {
                return Err(format!(
                    "the CNF written beside the proof would overwrite the input {}; give --cnf-out",
                    cnf_out.display()
                )
                .into());
            }
            Some(ProofFiles::Clausal {
                format: proof_format,
                proof: proof.clone(),
                cnf: cnf_out,
            })
        }
    };
    Ok((proof_format, prover, proof))
}

/// Refuses a compressed name (`.xz`, `.gz`, `.bz2`) for a file that is written as plain
/// text beside a proof: the proof's solver reads the CNF and writes the proof as they are,
/// and the checker checks that pair. Compressing them afterwards would keep files other
/// than the ones checked; `check-proof` reads the pair compressed by the user.
///
/// # Errors
/// A compressed name.
pub(crate) fn refuse_compressed_name(option: &str, path: &Path) -> Result<(), PlanError> {
    match Compression::of_name(path) {
        Compression::None => Ok(()),
        c => Err(format!(
            "{option} {}: the CNF and proof of --proof are written as plain text (the solver and the checker read them as they are), not {}; name it {} and compress the pair afterwards if you like: check-proof reads compressed files",
            path.display(),
            c.name(),
            stripped(path).display()
        )
        .into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn queens(d: usize) -> SolveRequest {
        SolveRequest {
            input: Input::Queens(d),
            jobs: Some(2),
            ..SolveRequest::default()
        }
    }

    fn refused(req: SolveRequest, needle: &str) {
        match Plan::new(req) {
            Err(PlanError::Refused(e)) => assert!(e.contains(needle), "{needle}: {e}"),
            Ok(plan) => panic!("{needle}: planned {:?}", plan.target),
        }
    }

    #[test]
    fn a_board_without_a_size_is_an_optimum_by_the_line_engine() {
        let plan = Plan::new(queens(8)).unwrap();
        assert!(
            matches!(plan.target, Target::Optimum(ref p) if p.shape().queens_side() == Some(8))
        );
        assert!(plan.native.is_some() && !plan.needs_formula());
        assert_eq!((plan.proof.is_none(), plan.prover.is_none()), (true, true));
        let sized = Plan::new(SolveRequest {
            n: Some(9),
            ..queens(8)
        })
        .unwrap();
        assert!(matches!(sized.target, Target::Size(_, 9)));
    }

    #[test]
    fn the_sat_path_splits_its_steps_and_states_the_family_sums() {
        let plan = Plan::new(SolveRequest {
            engine: EngineChoice::Sat,
            ..queens(8)
        })
        .unwrap();
        assert!(plan.native.is_none());
        assert!(matches!(plan.cubing, Cubing::After { .. }));
        assert_eq!(plan.options.bounds, Bounds::Sums);
        // Not where a certificate re-encodes without them, nor where nothing counts colours.
        let certified = Plan::new(SolveRequest {
            engine: EngineChoice::Sat,
            certify: Some("c".into()),
            ..queens(8)
        })
        .unwrap();
        assert_eq!(certified.options.bounds, Bounds::None);
        assert!(matches!(certified.cubing, Cubing::Never));
        let lines_model = Plan::new(SolveRequest {
            encoding: EncodingRequest {
                model: Some(Model::Lines),
                ..EncodingRequest::default()
            },
            ..queens(8)
        })
        .unwrap();
        assert!(
            lines_model.native.is_none(),
            "an encoding flag means the SAT path"
        );
        assert_eq!(lines_model.options.bounds, Bounds::None);
    }

    #[test]
    fn a_formula_is_solved_as_it_is() {
        for path in [None, Some(PathBuf::from("-"))] {
            let plan = Plan::new(SolveRequest {
                input: Input::Formula(path),
                ..SolveRequest::default()
            })
            .unwrap();
            assert!(matches!(plan.target, Target::Formula(None)));
            assert!(matches!(plan.cubing, Cubing::Never));
            assert!(plan.needs_formula());
        }
        let file = SolveRequest {
            input: Input::Formula(Some("q.cnf".into())),
            ..SolveRequest::default()
        };
        refused(
            SolveRequest {
                encoding: EncodingRequest {
                    card: Some(Card::SeqCounter),
                    ..EncodingRequest::default()
                },
                ..file.clone()
            },
            "--card only applies",
        );
        refused(
            SolveRequest {
                n: Some(3),
                ..file.clone()
            },
            "--n needs --dim",
        );
        refused(
            SolveRequest {
                proof: Some("q.drat".into()),
                cnf_out: None,
                input: Input::Formula(Some("q.cnf".into())),
                ..SolveRequest::default()
            },
            "would overwrite the input",
        );
    }

    #[test]
    fn options_that_contradict_each_other_are_refused_by_name() {
        refused(
            SolveRequest {
                step_timeout: true,
                n: Some(4),
                ..queens(6)
            },
            "--step-timeout applies to optimisation",
        );
        refused(
            SolveRequest {
                proof: Some("p.drat".into()),
                engine: EngineChoice::Sat,
                ..queens(6)
            },
            "--proof applies to a single formula",
        );
        refused(
            SolveRequest {
                proof: Some("p.drat.xz".into()),
                n: Some(5),
                ..queens(6)
            },
            "written as plain text",
        );
        refused(
            SolveRequest {
                proof: Some("p.cnf".into()),
                n: Some(5),
                ..queens(6)
            },
            "must not end in .cnf",
        );
        refused(
            SolveRequest {
                proof: Some("-".into()),
                n: Some(5),
                ..queens(6)
            },
            "only a search certificate",
        );
        refused(
            SolveRequest {
                cube_after: Some(Duration::from_secs(1)),
                jobs: Some(1),
                engine: EngineChoice::Sat,
                ..queens(6)
            },
            "--cube-after",
        );
        refused(
            SolveRequest {
                backends: vec![
                    Named::Solver(BackendSpec::Kissat),
                    Named::Solver(BackendSpec::Minisat),
                ],
                jobs: Some(1),
                ..queens(6)
            },
            "--jobs is 1",
        );
        refused(
            SolveRequest {
                n: Some(30),
                ..queens(6)
            },
            "queens",
        );
        refused(
            SolveRequest {
                strategy: Strategy::Incremental,
                encoding: EncodingRequest {
                    card: Some(Card::SeqCounter),
                    ..EncodingRequest::default()
                },
                ..queens(6)
            },
            "--card totalizer",
        );
    }

    #[test]
    fn a_size_set_in_the_file_is_asked_as_n() {
        let problem = Problem::peaceable_queens(6);
        let set = |n: Option<usize>| SolveRequest {
            input: Input::Problem {
                problem: problem.clone(),
                set_n: Some(5),
            },
            n,
            ..SolveRequest::default()
        };
        let plan = Plan::new(set(None)).unwrap();
        assert!(matches!(plan.target, Target::Size(_, 5)));
        refused(set(Some(5)), "twice");
    }

    #[test]
    fn an_external_optimiser_takes_the_whole_optimisation_alone() {
        let rc2 = SolveRequest {
            backends: vec![Named::Optimiser(Optimiser::ALL[0])],
            ..queens(6)
        };
        let plan = Plan::new(rc2.clone()).unwrap();
        assert!(matches!(plan.target, Target::OptimiseWith(_, o) if o == Optimiser::ALL[0]));
        assert!(plan.native.is_none() && plan.check_unsat.is_none());
        refused(
            SolveRequest {
                n: Some(5),
                ..rc2.clone()
            },
            "cannot take --n",
        );
        refused(
            SolveRequest {
                input: Input::Formula(None),
                ..rc2.clone()
            },
            "optimises a board",
        );
        refused(
            SolveRequest {
                backends: vec![
                    Named::Optimiser(Optimiser::ALL[0]),
                    Named::Solver(BackendSpec::Kissat),
                ],
                ..rc2
            },
            "alone",
        );
    }

    #[test]
    fn a_search_certificate_is_the_line_engines_and_nothing_else() {
        let search = SolveRequest {
            proof: Some("-".into()),
            proof_format: Some(ProofFormat::Search),
            n: Some(5),
            ..queens(6)
        };
        let plan = Plan::new(search.clone()).unwrap();
        assert!(plan.native.is_some());
        assert_eq!(plan.prover, Some(BackendSpec::Lines));
        refused(
            SolveRequest {
                engine: EngineChoice::Sat,
                ..search.clone()
            },
            "--engine sat",
        );
        refused(
            SolveRequest {
                check_unsat: true,
                ..search.clone()
            },
            "pq-check -",
        );
        refused(
            SolveRequest {
                cnf_out: Some("x.cnf".into()),
                proof: Some("c.search".into()),
                ..search
            },
            "--cnf-out",
        );
    }

    #[test]
    fn a_size_for_a_problem_that_maximises_nothing_is_refused() {
        let mut fixed = Problem::peaceable_queens(4);
        for c in &mut fixed.counts {
            *c = Count::Exactly(2);
        }
        assert_eq!(size_asked(&fixed, None), Ok(Some(0)));
        assert!(size_asked(&fixed, Some(2)).is_err());
        let queens = Problem::peaceable_queens(4);
        assert_eq!(size_asked(&queens, Some(2)), Ok(Some(2)));
        let (sized, n) = sized_by_set(&queens, fixed, true);
        assert_eq!(n, Some(2));
        assert_eq!(sized.maximised(), queens.maximised());
    }
}
