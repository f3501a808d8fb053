//! Which SAT engines `solve`'s arguments name: the solvers or the default portfolio, cubes,
//! or an external optimiser for the whole optimisation (the line engine: `line_engine.rs`).

use pq_encode::Symmetry;
use pq_engine::optimise::Strategy;
use pq_engine::optimisers::Optimiser;
use pq_engine::plan::{Cubing, Plan, Solvers};
use pq_engine::proof::ProofFormat;
use pq_io::output;
use pq_solve::BackendSpec;

use super::args::SolveArgs;
use super::validate::{RunSettings, SolveJob, Target};
use crate::args::default_jobs;

/// `solve --backend rc2|clasp`: the optimisation in one run of an external optimiser. With
/// `--check-unsat`, the bound above its optimum is confirmed by the default portfolio of
/// proof-writing solvers (DRAT, checked).
pub(super) fn optimiser_job(
    a: SolveArgs,
    optimiser: Optimiser,
    check_unsat: bool,
) -> Result<SolveJob, String> {
    let name = optimiser.name();
    if a.backend.len() > 1 || !a.solver_cmd.is_empty() {
        return Err(format!("--backend {name} solves the whole optimisation alone: give no other --backend or --solver-cmd"));
    }
    let refused = [
        (
            a.n.is_some(),
            "--n (it maximises n; check one size with a SAT backend)",
        ),
        (
            a.cnf.is_some(),
            "--cnf (it reads pq-sat's own WCNF/OPB export)",
        ),
        (a.proof.is_some(), "--proof"),
        (
            a.certify.is_some(),
            "--certify (a certificate needs pq-sat's own proof: drop --backend)",
        ),
        (
            a.step_timeout.is_some(),
            "--step-timeout (it solves in one step: use --timeout)",
        ),
        (a.strategy != Strategy::Up, "--strategy (it has its own)"),
    ];
    if let Some((_, flag)) = refused.iter().find(|(given, _)| *given) {
        return Err(format!("--backend {name} cannot take {flag}"));
    }
    let Some(problem) = a.problem.load_or_queens(a.dim)? else {
        return Err(format!(
            "--backend {name} optimises a board: give --dim D or --problem FILE"
        ));
    };
    if problem.maximised().is_empty() {
        return Err(format!(
            "--backend {name} maximises: this problem maximises no group (its counts are fixed)"
        ));
    }
    let plan = Plan {
        solvers: Solvers::Default {
            jobs: a.jobs.unwrap_or_else(default_jobs),
        },
        cubing: Cubing::Never,
        jobs: a.jobs.unwrap_or_else(default_jobs),
        lines: None,
        proof: None,
        proof_format: ProofFormat::Drat,
        prover: None,
        check_unsat: check_unsat.then_some(ProofFormat::Drat),
        certify: None,
        policy: output::WritePolicy::from_force(a.replace.force),
    };
    let run = RunSettings { args: a, plan };
    Ok(SolveJob {
        target: Target::OptimiseWith(problem, optimiser),
        run,
    })
}

/// `--cubes auto` for these arguments ([`pq_engine::choice::auto_cubing`]).
pub(super) fn auto_cubing(a: &SolveArgs, solvers: &Solvers, check_unsat: bool) -> Cubing {
    pq_engine::choice::auto_cubing(&pq_engine::choice::CubingRequest {
        solvers,
        jobs: a.jobs.unwrap_or_else(default_jobs),
        one_run: check_unsat
            || a.strategy == Strategy::Incremental
            || a.proof.is_some()
            || a.certify.is_some(),
        lex_leader: a.encoding.options().symmetry == Symmetry::LexLeader,
        probe: a.cube_after.unwrap_or_default(),
    })
}

/// `solve --cubes`: the one solver that solves each cube (default: the in-process
/// CaDiCaL); `--jobs` is then the number of workers, not a portfolio's size.
pub(super) fn cube_solvers(a: &SolveArgs, backends: &[BackendSpec]) -> Result<Solvers, String> {
    let refused = [
        (
            a.strategy == Strategy::Incremental,
            "--strategy incremental (it keeps one solver under assumptions)",
        ),
        (
            a.proof.is_some(),
            "--proof (a cube-and-conquer proof is one per cube: use pq-sat cube, conquer --proof)",
        ),
        (
            a.certify.is_some(),
            "--certify (its proof comes from one solver)",
        ),
    ];
    if let Some((_, flag)) = refused.iter().find(|(given, _)| *given) {
        return Err(format!("--cubes cannot take {flag}"));
    }
    let mut given = backends.to_vec();
    given.extend(a.solver_cmd.iter().map(|c| BackendSpec::Command(c.clone())));
    if given.len() > 1 {
        return Err("--cubes solves every cube with one solver: give at most one --backend or --solver-cmd (--jobs says how many cubes run at once)".into());
    }
    Ok(Solvers::Given(if given.is_empty() {
        vec![pq_engine::cube::CUBE_SOLVER]
    } else {
        given
    }))
}

/// The solvers named by `--backend` and `--solver-cmd`, or the default portfolio.
pub(super) fn solvers(
    backends: &[BackendSpec],
    commands: &[String],
    jobs: Option<usize>,
) -> Result<Solvers, String> {
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
        ));
    }
    Ok(Solvers::Given(given))
}
