//! `solve`'s validation: the arguments made into the engine's [`SolveRequest`], whose
//! [`Plan`] says which engine answers and with which proofs; what is left here is the
//! output's own rules (`--format competition`, `--svg`).

use pq_engine::plan::request::Input;
use pq_engine::plan::{Named, Plan, SolveRequest, Target};

use super::args::{SolveArgs, SolveFormat};

/// How to run the solvers and show their answer: `solve`'s arguments and the plan they
/// make.
#[derive(Debug)]
pub(crate) struct SolveJob {
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
    if let (SolveFormat::Competition, Some(Named::Optimiser(o))) = (
        a.format,
        a.backend.iter().find(|b| matches!(b, Named::Optimiser(_))),
    ) {
        return Err(format!("--format competition: {} answers in its own output; give it the WCNF or OPB file itself (`pq-sat encode --format wcnf`), or leave --backend {} out to have pq-sat's optimiser print the MaxSAT Evaluation's lines", o.name(), o.name()));
    }
    let input = match (a.dim, a.problem.load_sized()?) {
        (_, Some((problem, set_n))) => Input::Problem { problem, set_n },
        (Some(d), None) => Input::Queens(d),
        (None, None) => Input::Formula(a.cnf.clone()),
    };
    let sized = a.n.is_some() || matches!(input, Input::Problem { set_n: Some(_), .. });
    let plan = Plan::new(request(&a, input, check_unsat)).map_err(|e| e.to_string())?;
    let is_formula = matches!(plan.target, Target::Formula(_));
    if a.format == SolveFormat::Competition && sized && !is_formula {
        return Err("--format competition prints the model of a formula in its own variables: write the formula with `pq-sat encode ... > q.cnf`, then `pq-sat solve q.cnf --format competition` (and `pq-sat decode q.cnf ANSWER` reads such an answer back as a board); an optimisation (no --n) prints the MaxSAT Evaluation's lines for `encode --format wcnf`".into());
    }
    if is_formula && a.svg.is_some() {
        return Err("--svg needs a board: --dim D or --problem FILE".into());
    }
    if !is_formula && a.cnf.is_some() {
        return Err("--cnf solves a DIMACS file as it is; it cannot be combined with --problem (the file's header names its problem)".into());
    }
    Ok(SolveJob { args: a, plan })
}

/// The engine's request: `solve`'s arguments as plain data.
fn request(a: &SolveArgs, input: Input, check_unsat: bool) -> SolveRequest {
    SolveRequest {
        input,
        n: a.n,
        backends: a.backend.clone(),
        solver_cmds: a.solver_cmd.clone(),
        jobs: a.jobs,
        engine: a.engine.into(),
        cubes: a.cubes.into(),
        cube_after: a.cube_after,
        encoding: a.encoding.request(),
        strategy: a.strategy,
        step_timeout: a.step_timeout.is_some(),
        proof: a.proof.clone(),
        cnf_out: a.cnf_out.clone(),
        proof_format: a.proof_format,
        certify: a.certify.clone(),
        journal: a.journal.clone(),
        unit_budget: a.unit_budget,
        check_unsat,
        force: a.replace.force,
    }
}
