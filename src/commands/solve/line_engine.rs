//! `--engine`: the request the engine's choice is made from ([`pq_engine::choice`]), built
//! from `solve`'s arguments.

use pq_encode::spec::Problem;
use pq_engine::choice::{EngineChoice as Choice, EngineRequest};
use pq_engine::optimise::Strategy;

use super::args::{CubesWhen, EngineChoice, SolveArgs};
use crate::args::default_jobs;

/// The line engine when it answers this `solve`, `None` for the SAT path.
pub(super) fn line_engine(
    a: &SolveArgs,
    problem: Option<&Problem>,
    check_unsat: bool,
) -> Result<Option<pq_engine::lines::LineEngine>, String> {
    let solvers = [
        (!a.backend.is_empty(), "--backend"),
        (!a.solver_cmd.is_empty(), "--solver-cmd"),
    ];
    let sat_only = [
        (a.cnf.is_some(), "--cnf (it reads no formula)"),
        (a.cubes != CubesWhen::Auto, "--cubes"),
        (a.cube_after.is_some(), "--cube-after"),
        (
            a.strategy != Strategy::Up,
            "--strategy (it raises n until UNSAT)",
        ),
    ];
    let given = |list: &[(bool, &'static str)]| -> Vec<&'static str> {
        list.iter().filter(|(g, _)| *g).map(|(_, f)| *f).collect()
    };
    let request = EngineRequest {
        engine: match a.engine {
            EngineChoice::Auto => Choice::Auto,
            EngineChoice::Lines => Choice::Lines,
            EngineChoice::Sat => Choice::Sat,
        },
        problem,
        check_unsat,
        proof: a.proof.as_deref(),
        proof_format: a.proof_format,
        certify: a.certify.is_some(),
        journal: a.journal.as_deref(),
        unit_budget: a.unit_budget,
        jobs: a.jobs.unwrap_or_else(default_jobs),
        solvers: given(&solvers),
        sat_only: given(&sat_only)
            .into_iter()
            .chain(a.encoding.given())
            .collect(),
    };
    pq_engine::choice::line_engine(&request)
}
