//! Whether the line engine answers `solve` (`--engine`), and what it refuses.

use pq_encode::spec::Problem;
use pq_engine::optimise::Strategy;
use pq_engine::proof::ProofFormat;

use super::args::{CubesWhen, EngineChoice, SolveArgs};
use crate::args::default_jobs;

/// `--engine`: the line engine when it is asked for (refusing what it cannot do, by name), or
/// with `auto` when the problem is one it answers and nothing asks for a SAT solver.
pub(super) fn line_engine(
    a: &SolveArgs,
    problem: Option<&Problem>,
    check_unsat: bool,
) -> Result<Option<pq_engine::lines::LineEngine>, String> {
    if a.engine == EngineChoice::Sat {
        if a.journal.is_some() {
            return Err("--journal records the line engine's units of work; it cannot be used with --engine sat".into());
        }
        if a.unit_budget.is_some() {
            return Err("--unit-budget orders the line engine's units of work; it cannot be used with --engine sat".into());
        }
        return Ok(None);
    }
    // The engine writes its search tree as a DRAT proof of one step of the queens on a
    // square board, so `--proof`, `--certify` and `--check-unsat` go to it there, under
    // `auto` too (its proofs are smaller and faster to check than a SAT solver's:
    // BENCHMARKS.md, "Tree proofs"); any other SAT-only option still means the SAT path.
    let square_queens = problem.is_some_and(|p| p.shape().queens_side().is_some());
    let tree_proof = a.engine == EngineChoice::Lines || square_queens;
    let search_format = a.proof_format == Some(ProofFormat::Search);
    if search_format {
        if a.proof.is_none() {
            return Err("--proof-format search is the format of --proof: give --proof FILE (or --proof - for standard output)".into());
        }
        if a.engine == EngineChoice::Sat {
            return Err("--proof-format search writes the line engine's search; it cannot be used with --engine sat (use drat or lrat)".into());
        }
        if !square_queens {
            return Err("--proof-format search: search certificates cover the peaceable queens on a square board (--dim D)".into());
        }
    }
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
        (a.cubes != CubesWhen::Auto, "--cubes"),
        (a.cube_after.is_some(), "--cube-after"),
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
    let engine = || pq_engine::lines::LineEngine {
        jobs: a.jobs.unwrap_or_else(default_jobs),
        journal: a.journal.clone(),
        unit_budget: a.unit_budget,
    };
    let engine_flag = if a.journal.is_some() {
        Some("--journal")
    } else if a.unit_budget.is_some() {
        Some("--unit-budget")
    } else {
        None
    };
    if let (true, Some(flag)) = (search_format, given) {
        return Err(format!(
            "--proof-format search needs the line engine, which cannot take {flag}"
        ));
    }
    if a.engine == EngineChoice::Auto && engine_flag.is_none() {
        return Ok((given.is_none() && unsupported.is_none()).then(engine));
    }
    // --journal and --unit-budget ask for the line engine as --engine lines does.
    let needs;
    let asked = if let (EngineChoice::Auto, Some(flag)) = (a.engine, engine_flag) {
        needs = format!("{flag} needs the line engine, which");
        needs.as_str()
    } else {
        "--engine lines"
    };
    if let Some(flag) = given {
        if a.journal.is_some() {
            return Err(format!(
                "--journal records the line engine's units of work, and the line engine cannot take {flag}"
            ));
        }
        return Err(format!(
            "{asked} answers without a SAT solver: it cannot take {flag}; use --engine sat"
        ));
    }
    if let Some(why) = unsupported {
        return Err(format!("{asked} cannot answer this problem: {why}"));
    }
    if a.unit_budget.is_some() && problem.is_some_and(|p| p.rules.groups.len() == 2) {
        return Err("--unit-budget orders the units of three or more armies and of Dudeney's board; two armies are searched row set by row set, which it would not change".into());
    }
    Ok(Some(engine()))
}
