//! Which engine answers a run, the line engine or the SAT path, and whether the SAT path
//! splits hard steps into cubes: the policy `solve` applies, from plain requests (no
//! command-line parser), so that each is one function with tests of its own. `auto` takes the line engine where it answers the problem and nothing given
//! needs a SAT solver; `--engine lines` refuses, by name, what the line engine cannot take.

use std::path::Path;
use std::time::Duration;

use pq_encode::spec::Problem;
use pq_solve::spec::BackendSpec;

use crate::lines::LineEngine;
use crate::plan::Cubing;
use crate::proof::ProofFormat;
use crate::sat::Solvers;

/// Which engine was asked for (`--engine`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EngineChoice {
    /// The line engine where it applies and nothing asks for a SAT solver, else SAT.
    #[default]
    Auto,
    /// The native branch-and-bound on the line labelling (no CNF).
    Lines,
    /// Encode into CNF and solve with SAT solvers.
    Sat,
}

/// What the choice depends on: the engine asked for, the problem (none for a formula read
/// as it is) and the options given, named as the user gave them.
#[derive(Clone, Debug, Default)]
pub(crate) struct EngineRequest<'a> {
    /// `--engine`.
    pub engine: EngineChoice,
    /// The problem; `None` for a DIMACS formula solved as it is.
    pub problem: Option<&'a Problem>,
    /// UNSAT counts only with a checked proof (`--check-unsat`).
    pub check_unsat: bool,
    /// Where the proof of an UNSAT goes (`--proof`), if asked.
    pub proof: Option<&'a Path>,
    /// Its format, if given (`--proof-format`).
    pub proof_format: Option<ProofFormat>,
    /// A certificate bundle is asked for (`--certify`).
    pub certify: bool,
    /// The line engine's journal (`--journal`).
    pub journal: Option<&'a Path>,
    /// The line engine's node budget per unit (`--unit-budget`).
    pub unit_budget: Option<u64>,
    /// Worker threads.
    pub jobs: usize,
    /// The solvers named (`--backend`, `--solver-cmd`), in that order: the SAT path's.
    pub solvers: Vec<&'static str>,
    /// The other options given that only the SAT path uses (`--cnf`, `--cubes`, an
    /// encoding flag, ...), in the order a refusal names the first.
    pub sat_only: Vec<&'static str>,
}

/// The line engine when it answers the run, `None` for the SAT path; an error (a usage
/// error, in words that name the options) when the request contradicts itself.
pub(crate) fn line_engine(req: &EngineRequest) -> Result<Option<LineEngine>, String> {
    if req.engine == EngineChoice::Sat {
        if req.journal.is_some() {
            return Err("--journal records the line engine's units of work; it cannot be used with --engine sat".into());
        }
        if req.unit_budget.is_some() {
            return Err("--unit-budget orders the line engine's units of work; it cannot be used with --engine sat".into());
        }
        return Ok(None);
    }
    // The engine writes its search tree as a DRAT proof of one step of the queens on a
    // square board, so `--proof`, `--certify` and `--check-unsat` go to it there, under
    // `auto` too (its proofs are smaller and faster to check than a SAT solver's:
    // BENCHMARKS.md, "Tree proofs"); any other SAT-only option still means the SAT path.
    let square_queens = req.problem.is_some_and(pq_encode::general::specialised);
    let tree_proof = req.engine == EngineChoice::Lines || square_queens;
    let search_format = req.proof_format == Some(ProofFormat::Search);
    if search_format {
        if req.proof.is_none() && !req.certify {
            return Err("--proof-format search is the format of --proof or --certify: give --proof FILE (or --proof - for standard output), or --certify DIR".into());
        }
        if !square_queens {
            return Err("--proof-format search: search certificates cover the peaceable queens on a square board (--dim D)".into());
        }
    }
    let proof_refused = if !tree_proof {
        Some("--proof")
    } else if !square_queens {
        Some("--proof (it writes proofs for the peaceable queens on a square board, --dim D)")
    } else if req.proof_format == Some(ProofFormat::Lrat)
        || req.proof.map(ProofFormat::from_path) == Some(ProofFormat::Lrat)
    {
        Some("an LRAT proof (its search tree is written as DRAT)")
    } else {
        None
    };
    let proof_options = [
        (
            req.proof.is_some() && proof_refused.is_some(),
            proof_refused.unwrap_or_default(),
        ),
        (
            req.certify && proof_refused.is_some(),
            "--certify (it certifies the peaceable queens on a square board, --dim D)",
        ),
        (
            req.check_unsat && (req.proof.is_none() || proof_refused.is_some()),
            "--check-unsat without --proof (it checks the proof it writes)",
        ),
    ];
    let given = (req.solvers.first().copied())
        .or(proof_options.iter().find(|(g, _)| *g).map(|(_, f)| *f))
        .or(req.sat_only.first().copied());
    let unsupported = match req.problem {
        None => Some("it needs a board: --dim D or --problem FILE".to_string()),
        Some(p) => crate::lines::unsupported(p),
    };
    let engine = || LineEngine {
        journal: req.journal.map(Path::to_path_buf),
        unit_budget: req.unit_budget,
        ..LineEngine::on(req.jobs)
    };
    let engine_flag = if req.journal.is_some() {
        Some("--journal")
    } else if req.unit_budget.is_some() {
        Some("--unit-budget")
    } else {
        None
    };
    if let (true, Some(flag)) = (search_format, given) {
        return Err(format!(
            "--proof-format search needs the line engine, which cannot take {flag}"
        ));
    }
    if req.engine == EngineChoice::Auto && engine_flag.is_none() {
        return Ok((given.is_none() && unsupported.is_none()).then(engine));
    }
    // --journal and --unit-budget ask for the line engine as --engine lines does.
    let needs;
    let asked = if let (EngineChoice::Auto, Some(flag)) = (req.engine, engine_flag) {
        needs = format!("{flag} needs the line engine, which");
        needs.as_str()
    } else {
        "--engine lines"
    };
    if let Some(flag) = given {
        if req.journal.is_some() {
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
    if req.unit_budget.is_some() && req.problem.is_some_and(|p| p.rules.groups.len() == 2) {
        return Err("--unit-budget orders the units of three or more armies and of Dudeney's board; two armies are searched row set by row set, which it would not change".into());
    }
    Ok(Some(engine()))
}

/// What `--cubes auto` decides from.
#[derive(Clone, Debug)]
pub(crate) struct CubingRequest<'a> {
    /// The solvers of each step.
    pub solvers: &'a Solvers,
    /// Worker threads.
    pub jobs: usize,
    /// Something asks for what only one solver's run gives: a proof or a certificate
    /// bundle, one incremental solver under assumptions, or (`--check-unsat`) a checked
    /// proof of every UNSAT.
    pub one_run: bool,
    /// The formula breaks symmetries with lex-leader clauses.
    pub lex_leader: bool,
    /// How long the solvers try a step before it is split (`--cube-after`).
    pub probe: Duration,
}

/// `--cubes auto`: hard steps go to cubes when there are cores to spread them over and
/// nothing asks for what one solver's run gives (a proof, a certificate, an incremental
/// search, or with `--check-unsat` a checked proof of every UNSAT), the cubes' UNSAT proves
/// the step's (lex-leader symmetry: the split drops only cubes the formula refutes), and
/// one solver is there to solve the cubes.
pub(crate) fn auto_cubing(req: &CubingRequest) -> Cubing {
    let member = match req.solvers {
        Solvers::Default { .. } => crate::cube::CUBE_SOLVER,
        // A --solver-cmd is run as given: an arbitrary program need not tolerate running
        // once per cube, side by side (shared files, memory); --cubes asks for it explicitly.
        Solvers::Given(list) if list.len() == 1 && !matches!(list[0], BackendSpec::Command(_)) => {
            list[0].clone()
        }
        Solvers::Given(_) => return Cubing::Never,
    };
    let eligible = req.jobs >= 2 && !req.one_run && req.lex_leader;
    if !eligible {
        return Cubing::Never;
    }
    Cubing::After {
        probe: req.probe,
        member,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_splits_on_two_cores_with_one_solver_and_nothing_that_needs_one_run() {
        let default = Solvers::Default { jobs: 2 };
        let base = CubingRequest {
            solvers: &default,
            jobs: 2,
            one_run: false,
            lex_leader: true,
            probe: Duration::ZERO,
        };
        assert!(matches!(
            auto_cubing(&base),
            Cubing::After { member, .. } if member == crate::cube::CUBE_SOLVER
        ));
        let kissat = Solvers::Given(vec![BackendSpec::Kissat]);
        assert!(matches!(
            auto_cubing(&CubingRequest {
                solvers: &kissat,
                ..base.clone()
            }),
            Cubing::After {
                member: BackendSpec::Kissat,
                ..
            }
        ));
        let two = Solvers::Given(vec![BackendSpec::Kissat, BackendSpec::Minisat]);
        let command = Solvers::Given(vec![BackendSpec::Command("x".into())]);
        for never in [
            CubingRequest {
                jobs: 1,
                ..base.clone()
            },
            CubingRequest {
                one_run: true,
                ..base.clone()
            },
            CubingRequest {
                lex_leader: false,
                ..base.clone()
            },
            CubingRequest {
                solvers: &two,
                ..base.clone()
            },
            CubingRequest {
                solvers: &command,
                ..base.clone()
            },
        ] {
            assert!(matches!(auto_cubing(&never), Cubing::Never), "{never:?}");
        }
    }

    fn queens(d: usize) -> Problem {
        Problem::peaceable_queens(d)
    }

    fn chosen(req: &EngineRequest) -> bool {
        line_engine(req).unwrap().is_some()
    }

    #[test]
    fn auto_takes_the_line_engine_unless_an_option_needs_a_sat_solver() {
        let q = queens(8);
        let base = EngineRequest {
            problem: Some(&q),
            jobs: 2,
            ..EngineRequest::default()
        };
        assert!(chosen(&base));
        for sat in [
            EngineRequest {
                solvers: vec!["--backend"],
                ..base.clone()
            },
            EngineRequest {
                sat_only: vec!["--cubes"],
                ..base.clone()
            },
            EngineRequest {
                check_unsat: true,
                ..base.clone()
            },
            EngineRequest {
                engine: EngineChoice::Sat,
                ..base.clone()
            },
            EngineRequest {
                problem: None,
                ..base.clone()
            },
        ] {
            assert!(!chosen(&sat), "{sat:?}");
        }
        // A proof of the queens on a square board is the engine's own tree.
        let proof = Path::new("p.drat");
        let proved = EngineRequest {
            proof: Some(proof),
            check_unsat: true,
            ..base.clone()
        };
        assert_eq!(line_engine(&proved).unwrap().map(|e| e.jobs), Some(2));
    }

    #[test]
    fn what_the_line_engine_cannot_take_is_refused_by_name() {
        let q = queens(8);
        let lines = EngineRequest {
            engine: EngineChoice::Lines,
            problem: Some(&q),
            jobs: 1,
            ..EngineRequest::default()
        };
        let refused = |req: EngineRequest, needle: &str| {
            let e = line_engine(&req).unwrap_err();
            assert!(e.contains(needle), "{needle}: {e}");
        };
        refused(
            EngineRequest {
                sat_only: vec!["--cubes"],
                ..lines.clone()
            },
            "cannot take --cubes",
        );
        refused(
            EngineRequest {
                proof: Some(Path::new("p.lrat")),
                ..lines.clone()
            },
            "LRAT",
        );
        refused(
            EngineRequest {
                engine: EngineChoice::Sat,
                journal: Some(Path::new("j")),
                ..lines.clone()
            },
            "--journal",
        );
        refused(
            EngineRequest {
                unit_budget: Some(5),
                ..lines.clone()
            },
            "two armies",
        );
        refused(
            EngineRequest {
                proof_format: Some(ProofFormat::Search),
                ..lines.clone()
            },
            "give --proof FILE",
        );
        let torus = {
            let mut t = q.clone();
            t.rules.layout.torus = true;
            t
        };
        refused(
            EngineRequest {
                problem: Some(&torus),
                proof: Some(Path::new("p.drat")),
                ..lines.clone()
            },
            "square board",
        );
    }
}
