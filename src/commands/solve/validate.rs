//! `solve`'s validation: the arguments checked into a [`SolveJob`], whose [`Plan`] says
//! which engine answers and with which proofs.

use pq_encode::spec::Problem;
use pq_encode::{Card, Instance, Model, Symmetry};
use pq_engine::optimise::Strategy;
use pq_engine::optimisers::Optimiser;
use pq_engine::plan::{Cubing, Plan, ProofFiles, Solvers};
use pq_engine::proof::ProofFormat;
use pq_solve::output::{self, same_target};
use pq_solve::BackendSpec;

use super::args::{BackendArg, CubesWhen, EngineChoice, SolveArgs};
use crate::cli::{checkable, default_jobs, problem_size};

/// What `solve` answers, validated.
#[derive(Debug)]
pub struct SolveJob {
    /// One size, an optimum, or a file.
    pub target: Target,
    /// The arguments and the plan they make.
    pub run: RunSettings,
}

/// The question `solve` answers.
#[derive(Debug)]
pub enum Target {
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
pub struct RunSettings {
    /// The arguments as given.
    pub args: SolveArgs,
    /// Which engine answers, with which proofs.
    pub plan: Plan,
}

/// `solve`: one size, an optimum, or a DIMACS file.
pub fn validate(a: SolveArgs, check_unsat: bool) -> Result<SolveJob, String> {
    let optimisers: Vec<Optimiser> = a
        .backend
        .iter()
        .filter_map(|b| match b {
            BackendArg::Optimiser(o) => Some(*o),
            BackendArg::Solver(_) => None,
        })
        .collect();
    if let Some(&optimiser) = optimisers.first() {
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
    let problem = a.problem.load_or_queens(a.dim)?;
    if a.step_timeout.is_some() && (problem.is_none() || a.n.is_some()) {
        return Err("--step-timeout applies to optimisation (--dim without --n); use --timeout for a single formula".into());
    }
    let proof_format = a.proof_format.unwrap_or_else(|| {
        a.proof
            .as_deref()
            .map_or(ProofFormat::Drat, ProofFormat::from_path)
    });
    // Proofs and certificates come from one solver: a portfolio's would come from whichever
    // member happened to win.
    let prover = if a.proof.is_some() || a.certify.is_some() {
        match &solvers {
            Solvers::Given(list) if list.len() > 1 => {
                return Err(
                    "--proof and --certify take one --backend (a proof comes from one solver)"
                        .into(),
                )
            }
            Solvers::Given(list) => {
                pq_engine::proof::check_capable(&list[0], proof_format)?;
                Some(list[0].clone())
            }
            Solvers::Default { .. } => Some(pq_engine::proof::default_prover(proof_format)),
        }
    } else {
        None
    };
    let proof = match &a.proof {
        None => None,
        Some(_) if a.dim.is_some() && a.n.is_none() => {
            return Err("--proof applies to a single formula (--n, or --cnf); to certify an optimum use --certify DIR".into())
        }
        Some(proof) => {
            refuse_compressed_name("--proof", proof)?;
            let cnf_out = a.cnf_out.clone().unwrap_or_else(|| proof.with_extension("cnf"));
            refuse_compressed_name("--cnf-out", &cnf_out)?;
            if a.cnf_out.is_none() && same_target(&cnf_out, proof) {
                return Err(format!(
                    "--proof {}: the CNF written beside the proof takes the proof's name with .cnf, which is the proof itself; the proof file must not end in .cnf: name it .drat or .lrat, or give --cnf-out",
                    proof.display()
                ));
            }
            if a.cnf_out.is_none() && a.cnf.as_ref().is_some_and(|c| same_target(c, &cnf_out)) {
                return Err(format!(
                    "the CNF written beside the proof would overwrite the input {}; give --cnf-out",
                    cnf_out.display()
                ));
            }
            Some(ProofFiles {
                proof: proof.clone(),
                cnf_out,
            })
        }
    };
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
        CubesWhen::Auto => auto_cubing(&a, &solvers, check_unsat.is_some()),
    };
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
        policy: output::WritePolicy::from_force(a.force),
    };
    let run = RunSettings { args: a, plan };
    let a = &run.args;
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
        && pq_encode::general::is_peaceable_queens(&problem)
        && problem.maximised() == [0, 1]
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

/// `solve --backend rc2|clasp`: the optimisation in one run of an external optimiser. With
/// `--check-unsat`, the bound above its optimum is confirmed by the default portfolio of
/// proof-writing solvers (DRAT, checked).
fn optimiser_job(
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
        policy: output::WritePolicy::from_force(a.force),
    };
    let run = RunSettings { args: a, plan };
    Ok(SolveJob {
        target: Target::OptimiseWith(problem, optimiser),
        run,
    })
}

/// `--engine`: the line engine when it is asked for (refusing what it cannot do, by name), or
/// with `auto` when the problem is one it answers and nothing asks for a SAT solver.
fn line_engine(
    a: &SolveArgs,
    problem: Option<&Problem>,
    check_unsat: bool,
) -> Result<Option<pq_engine::lines::LineEngine>, String> {
    if a.engine == EngineChoice::Sat {
        return Ok(None);
    }
    // The engine writes its search tree as a DRAT proof of one step of the queens on a
    // square board, so `--proof`, `--certify` and `--check-unsat` go to it there, under
    // `auto` too (its proofs are smaller and faster to check than a SAT solver's:
    // BENCHMARKS.md, "Tree proofs"); any other SAT-only option still means the SAT path.
    let square_queens = problem.is_some_and(|p| {
        let l = &p.rules.layout;
        pq_encode::general::is_peaceable_queens(p) && !l.torus && l.rows == l.cols
    });
    let tree_proof = a.engine == EngineChoice::Lines || square_queens;
    let proof_refused = if !tree_proof {
        Some("--proof")
    } else if !square_queens {
        Some("--proof (it writes proofs for the peaceable queens on a square board, --dim D)")
    } else if a.proof_format == Some(ProofFormat::Lrat)
        || a.proof.as_deref().map(ProofFormat::from_path) == Some(ProofFormat::Lrat)
    {
        Some("an LRAT proof (its search tree is written as DRAT)")
    } else {
        None
    };
    let sat_only = [
        (!a.backend.is_empty(), "--backend"),
        (!a.solver_cmd.is_empty(), "--solver-cmd"),
        (
            a.proof.is_some() && proof_refused.is_some(),
            proof_refused.unwrap_or_default(),
        ),
        (
            a.certify.is_some() && proof_refused.is_some(),
            "--certify (it certifies the peaceable queens on a square board, --dim D)",
        ),
        (
            check_unsat && (a.proof.is_none() || proof_refused.is_some()),
            "--check-unsat without --proof (it checks the proof it writes)",
        ),
        (a.cnf.is_some(), "--cnf (it reads no formula)"),
        (a.cubes == CubesWhen::Always, "--cubes"),
        (
            a.strategy != Strategy::Up,
            "--strategy (it raises n until UNSAT)",
        ),
    ];
    let given = sat_only
        .iter()
        .find(|(given, _)| *given)
        .map(|(_, flag)| *flag)
        .or(a.encoding.given());
    let unsupported = match problem {
        None => Some("it needs a board: --dim D or --problem FILE".to_string()),
        Some(p) => pq_engine::lines::unsupported(p),
    };
    if a.engine == EngineChoice::Auto {
        return Ok((given.is_none() && unsupported.is_none()).then(|| {
            pq_engine::lines::LineEngine {
                jobs: a.jobs.unwrap_or_else(default_jobs),
            }
        }));
    }
    if let Some(flag) = given {
        return Err(format!(
            "--engine lines answers without a SAT solver: it cannot take {flag}; use --engine sat"
        ));
    }
    if let Some(why) = unsupported {
        return Err(format!("--engine lines cannot answer this problem: {why}"));
    }
    Ok(Some(pq_engine::lines::LineEngine {
        jobs: a.jobs.unwrap_or_else(default_jobs),
    }))
}

/// `--cubes auto`: hard steps go to cubes when there are cores to spread them over and
/// nothing asks for what one solver's run gives (a proof, a certificate, an incremental
/// search, or with `--check-unsat` a checked proof of every UNSAT), the cubes' UNSAT proves
/// the step's (lex-leader symmetry: the split drops only cubes the formula refutes), and
/// one solver is there to solve the cubes.
fn auto_cubing(a: &SolveArgs, solvers: &Solvers, check_unsat: bool) -> Cubing {
    let member = match solvers {
        Solvers::Default { .. } => pq_engine::cube::CUBE_SOLVER,
        // A --solver-cmd is run as given: an arbitrary program need not tolerate running
        // once per cube, side by side (shared files, memory); --cubes asks for it explicitly.
        Solvers::Given(list) if list.len() == 1 && !matches!(list[0], BackendSpec::Command(_)) => {
            list[0].clone()
        }
        Solvers::Given(_) => return Cubing::Never,
    };
    let eligible = a.jobs.unwrap_or_else(default_jobs) >= 2
        && !check_unsat
        && a.strategy != Strategy::Incremental
        && a.proof.is_none()
        && a.certify.is_none()
        && a.cnf.is_none()
        && a.encoding.options().symmetry == Symmetry::LexLeader;
    if !eligible {
        return Cubing::Never;
    }
    Cubing::After {
        probe: a.cube_after,
        member,
    }
}

/// `solve --cubes`: the one solver that solves each cube (default: the in-process
/// CaDiCaL); `--jobs` is then the number of workers, not a portfolio's size.
fn cube_solvers(a: &SolveArgs, backends: &[BackendSpec]) -> Result<Solvers, String> {
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
fn solvers(
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

/// Refuses a compressed name (`.xz`, `.gz`, `.bz2`) for a file that is written as plain text
/// beside a proof: the proof's solver reads the CNF and writes the proof as they are, and the
/// checker checks that pair. Compressing them afterwards would keep files other than the
/// ones checked; `check-proof` reads the pair compressed by the user.
fn refuse_compressed_name(option: &str, path: &std::path::Path) -> Result<(), String> {
    use pq_engine::compress::{stripped, Compression};
    match Compression::of_name(path) {
        Compression::None => Ok(()),
        c => Err(format!(
            "{option} {}: the CNF and proof of --proof are written as plain text (the solver and the checker read them as they are), not {}; name it {} and compress the pair afterwards if you like: check-proof reads compressed files",
            path.display(),
            c.name(),
            stripped(path).display()
        )),
    }
}
