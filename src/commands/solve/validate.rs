//! `solve`'s validation: the arguments checked into a [`SolveJob`], whose [`Plan`] says
//! which engine answers and with which proofs.

use pq_encode::spec::Problem;
use pq_encode::{Card, Instance, Model};
use pq_engine::optimise::Strategy;
use pq_engine::optimisers::Optimiser;
use pq_engine::plan::{Cubing, Plan, Solvers};
use pq_io::output;
use pq_solve::BackendSpec;

use super::args::{BackendArg, CubesWhen, SolveArgs, SolveFormat};
use super::engines::{auto_cubing, cube_solvers, optimiser_job, solvers};
use super::line_engine::line_engine;
use super::proofs::proofs;
use crate::args::{checkable, default_jobs, problem_size};

/// What `solve` answers, validated.
#[derive(Debug)]
pub(crate) struct SolveJob {
    /// One size, an optimum, or a file.
    pub target: Target,
    /// The arguments and the plan they make.
    pub run: RunSettings,
}

/// The question `solve` answers.
#[derive(Debug)]
pub(crate) enum Target {
    /// A problem at a size (the queens: `--dim D --n N`).
    Size(Problem, usize),
    /// The optimum of a problem's maximised groups (the queens: a(d)).
    Optimum(Problem),
    /// That optimum by an external optimiser.
    OptimiseWith(Problem, Optimiser),
    /// The DIMACS formula of `--cnf` (or standard input) as it is.
    Cnf,
}

/// How to run the solvers and show their answer: `solve`'s arguments and the plan they
/// make.
#[derive(Debug)]
pub(crate) struct RunSettings {
    /// The arguments as given.
    pub args: SolveArgs,
    /// Which engine answers, with which proofs.
    pub plan: Plan,
}

/// `solve`: one size, an optimum, or a DIMACS file.
pub(crate) fn validate(mut a: SolveArgs, check_unsat: bool) -> Result<SolveJob, String> {
    // `solve FILE` is `solve --cnf FILE`, a SAT solver's habit.
    if let Some(file) = a.file.take() {
        a.cnf = Some(file);
    }
    let optimisers: Vec<Optimiser> = a
        .backend
        .iter()
        .filter_map(|b| match b {
            BackendArg::Optimiser(o) => Some(*o),
            BackendArg::Solver(_) => None,
        })
        .collect();
    if let Some(&optimiser) = optimisers.first() {
        if a.format == SolveFormat::Competition {
            return Err(format!("--format competition: {} answers in its own output; give it the WCNF or OPB file itself (`pq-sat encode --format wcnf`), or leave --backend {} out to have pq-sat's optimiser print the MaxSAT Evaluation's lines", optimiser.name(), optimiser.name()));
        }
        return optimiser_job(a, optimiser, check_unsat);
    }
    let backends: Vec<BackendSpec> = a
        .backend
        .iter()
        .filter_map(|b| match b {
            BackendArg::Solver(spec) => Some(spec.clone()),
            BackendArg::Optimiser(_) => None,
        })
        .collect();
    let solvers = if a.cubes == CubesWhen::Always {
        cube_solvers(&a, &backends)?
    } else {
        solvers(&backends, &a.solver_cmd, a.jobs)?
    };
    // A size given as `--set GROUP=K` is the question `--n K` asks, and is answered so.
    let (problem, set_n) = match a.problem.load_sized()? {
        Some((p, k)) => (Some(p), k),
        None => (a.dim.map(Problem::peaceable_queens), None),
    };
    if let (Some(k), Some(n)) = (set_n, a.n) {
        return Err(format!("--n {n} and --set fix the size of the maximised groups twice (--set gives {k}): give one"));
    }
    if set_n.is_some() && a.certify.is_some() {
        return Err("--certify certifies an optimum, and --set fixed the size of every maximised group: as asked, the problem maximises no group".into());
    }
    if set_n.is_some() {
        a.n = set_n;
    }
    if a.step_timeout.is_some() && (problem.is_none() || a.n.is_some()) {
        return Err("--step-timeout applies to optimisation (--dim without --n); use --timeout for a single formula".into());
    }
    let (proof_format, prover, proof) = proofs(&a, &solvers)?;
    if check_unsat && a.proof.as_ref().is_some_and(|p| p.as_os_str() == "-") {
        return Err("--check-unsat checks a file; a certificate on standard output is checked by the program it is piped into: --proof - | pq-check -".into());
    }
    let check_unsat = check_unsat.then_some(proof_format);
    if let (Some(format), Solvers::Given(list)) = (check_unsat, &solvers) {
        for spec in list {
            checkable(spec, format)?;
        }
    }
    if check_unsat.is_some() && a.strategy == Strategy::Incremental && a.n.is_none() {
        return Err("--check-unsat cannot check --strategy incremental (its UNSAT answers come under assumptions, without a clausal proof); use --strategy up or bisect".into());
    }
    let cubing = match a.cubes {
        CubesWhen::Always => Cubing::Always,
        CubesWhen::Never => Cubing::Never,
        // A formula read as it is (a file or standard input) is never split on its own.
        CubesWhen::Auto if problem.is_none() => Cubing::Never,
        CubesWhen::Auto => auto_cubing(&a, &solvers, check_unsat.is_some()),
    };
    if a.cube_after.is_some() && !matches!(cubing, Cubing::After { .. }) {
        return Err("--cube-after: no step is split into cubes here (auto splits the queens' steps with --jobs 2 or more, one --backend, lex-leader symmetry, and no --proof, --certify, --check-unsat or --strategy incremental); leave it out".into());
    }
    let lines = line_engine(&a, problem.as_ref(), check_unsat.is_some())?;
    // The line engine proves by its own search tree.
    let prover = match &lines {
        Some(_) if prover.is_some() => Some(BackendSpec::Lines),
        _ => prover,
    };
    let plan = Plan {
        solvers,
        cubing,
        jobs: a.jobs.unwrap_or_else(default_jobs),
        lines,
        proof,
        proof_format,
        prover,
        check_unsat,
        certify: a.certify.clone(),
        policy: output::WritePolicy::from_force(a.replace.force),
    };
    let run = RunSettings { args: a, plan };
    let a = &run.args;
    if a.format == SolveFormat::Competition && problem.is_some() && a.n.is_some() {
        return Err("--format competition prints the model of a formula in its own variables: write the formula with `pq-sat encode ... > q.cnf`, then `pq-sat solve q.cnf --format competition` (and `pq-sat decode q.cnf ANSWER` reads such an answer back as a board); an optimisation (no --n) prints the MaxSAT Evaluation's lines for `encode --format wcnf`".into());
    }
    let Some(problem) = problem else {
        if a.n.is_some() {
            return Err("--n needs --dim D (or --problem FILE)".into());
        }
        if a.svg.is_some() {
            return Err("--svg needs a board: --dim D or --problem FILE".into());
        }
        if let Some(flag) = a.encoding.given() {
            return Err(format!(
                "{flag} only applies when pq-sat builds the formula (--dim); a CNF file is solved as it is"
            ));
        }
        if a.certify.is_some() {
            return Err("--certify needs --dim (it certifies a(d))".into());
        }
        return Ok(SolveJob {
            target: Target::Cnf,
            run,
        });
    };
    if a.cnf.is_some() {
        return Err("--cnf solves a DIMACS file as it is; it cannot be combined with --problem (the file's header names its problem)".into());
    }
    a.encoding.check_bounds(&problem)?;
    if a.encoding.bounds.is_some() && a.certify.is_some() {
        return Err("--certify re-encodes the formula from its manifest, which names no --bounds: leave --bounds out".into());
    }
    if a.encoding.bounds.is_some() && a.strategy == Strategy::Incremental && a.n.is_none() {
        return Err("--strategy incremental encodes every size in one formula, without --bounds: use --strategy up".into());
    }
    if a.certify.is_some() && problem.maximised().is_empty() {
        return Err("--certify certifies an optimum: this problem maximises no group (its counts are fixed)".into());
    }
    let n = problem_size(&problem, a.n)?;
    if let (Some(dim), Some(n)) = (a.dim, n) {
        // Checked as a queens instance for its messages ("too many queens").
        Instance::new(dim, n).map_err(|e| e.to_string())?;
    }
    if n.is_none() && a.proof.is_some() {
        return Err("--proof needs one formula: fix the size of the maximised groups with --n N (or --set GROUP=N)".into());
    }
    if n.is_none() && a.strategy == Strategy::Incremental {
        // It solves under assumptions in the in-process CaDiCaL only.
        if let Solvers::Given(list) = &run.plan.solvers {
            if let Some(other) = list.iter().find(|b| **b != BackendSpec::Cadical) {
                return Err(format!(
                    "--strategy incremental solves under assumptions in the in-process CaDiCaL; it cannot use {other}"
                ));
            }
        }
        if a.dim.is_some() && a.encoding.options().card != Card::Totalizer {
            return Err(
                "--strategy incremental needs --card totalizer (its outputs are the assumptions)"
                    .into(),
            );
        }
    }
    // The family-sum clauses are the default where they were measured to win: the SAT
    // path's own formulas for the peaceable queens on the colouring model (a(10) from
    // scratch: 30.9 s → 17.0 s; BENCHMARKS.md, "The family-sum bound as clauses"). Not for
    // --certify (its manifest re-encodes without them) nor one incremental formula; a
    // written CNF (`encode`, `family`, `cube`) states them only when asked.
    let default_bounds = a.encoding.bounds.is_none()
        && a.encoding.options().model == Model::Colouring
        && problem.shape().optimum_is_a_of_d().is_some()
        && a.certify.is_none()
        && !(a.strategy == Strategy::Incremental && n.is_none());
    let mut run = run;
    if default_bounds {
        run.args.encoding.bounds = Some(pq_encode::Bounds::Sums);
    }
    let target = match n {
        Some(n) => Target::Size(problem, n),
        None => Target::Optimum(problem),
    };
    Ok(SolveJob { target, run })
}
