//! The encodings against an independent brute-force oracle, and against each other.
//!
//! Every model × cardinality × symmetry combination must give the oracle's answer; lex-leader
//! symmetry breaking must never remove a whole orbit of solutions.

use crate::oracle;

use pq_board::placement::Placement;
use pq_encode::spec::Problem;
use pq_encode::{encode, Bounds, Card, Instance, Model, Options, Symmetry};
use pq_engine::capability::Status;
use pq_engine::sat::pipeline::solve;
use pq_solve::backend::Cadical;
use pq_solve::control::Limits;
use rustsat::solvers::{Solve, SolveIncremental, SolverResult};
use rustsat::types::Lit;

/// Proven values of a(d) (OEIS A250000), used only as test expectations.
fn known_a(d: usize) -> usize {
    [0, 0, 0, 1, 2, 4, 5, 7, 9, 12][d]
}

fn all_options() -> Vec<Options> {
    let mut all = Vec::new();
    for &model in Model::ALL {
        for &card in Card::ALL {
            for &symmetry in Symmetry::ALL {
                // The bound clauses exist for the colouring model only.
                let bounds: &[Bounds] = if model == Model::Colouring {
                    Bounds::ALL
                } else {
                    &[Bounds::None]
                };
                for &bounds in bounds {
                    all.push(Options {
                        model,
                        card,
                        symmetry,
                        bounds,
                    });
                }
            }
        }
    }
    all
}

fn status(d: usize, n: usize, options: &Options) -> Status {
    // Too many queens for the board is UNSAT on its face; the encoder refuses to build it.
    if Instance::new(d, n).is_err() {
        return Status::Unsat;
    }
    solve(
        &Problem::peaceable_queens(d),
        n,
        options,
        &Cadical,
        &Limits::none(),
    )
    .unwrap()
    .status
}

#[test]
fn every_encoding_agrees_with_brute_force_up_to_d5() {
    for d in 1..=5 {
        let a = oracle::optimum(d);
        assert_eq!(a, known_a(d), "the oracle itself is off at d={d}");
        for n in 0..=a + 1 {
            if 2 * n > d * d {
                continue; // rejected before encoding
            }
            let expected = if oracle::feasible(d, n) {
                Status::Sat
            } else {
                Status::Unsat
            };
            for options in all_options() {
                assert_eq!(status(d, n, &options), expected, "d={d} n={n} {options:?}");
            }
        }
    }
}

#[test]
fn lex_leader_keeps_the_answers_up_to_d7() {
    for d in 6..=7 {
        for n in 0..=known_a(d) + 1 {
            let expected = if n <= known_a(d) {
                Status::Sat
            } else {
                Status::Unsat
            };
            for options in all_options() {
                assert_eq!(status(d, n, &options), expected, "d={d} n={n} {options:?}");
            }
        }
    }
}

/// The literals that put `board` on the square variables of `formula`: its queens, and with
/// `exact` also the absence of every other queen.
fn fix_board(formula: &pq_encode::Formula, board: &Placement, exact: bool) -> Vec<Lit> {
    let map = formula.pieces.as_ref().unwrap();
    map.vars
        .iter()
        .filter_map(|v| {
            let present = board.get(v.row, v.col) == Some(v.group);
            let lit = Lit::positive(v.dimacs - 1);
            match (present, exact) {
                (true, _) => Some(lit),
                (false, true) => Some(!lit),
                (false, false) => None,
            }
        })
        .collect()
}

/// Every solution's orbit keeps at least one member under lex-leader, and the constraints
/// do prune: some orbits keep fewer members than they have. For the pairwise and lines models
/// a solution is the exact board; the colouring model places a queen on every square its lines
/// allow, so there a board counts as kept when some solution contains all its queens.
#[test]
fn lex_leader_never_removes_a_whole_orbit() {
    for &model in Model::ALL {
        let exact = model != Model::Colouring;
        let mut pruned_somewhere = false;
        for d in 2..=5 {
            for n in 1..=known_a(d) {
                let options = Options {
                    model,
                    card: Card::Totalizer,
                    symmetry: Symmetry::LexLeader,
                    bounds: Bounds::None,
                };
                let formula = encode(&Instance::new(d, n).unwrap(), &options);
                let mut solver = rustsat_cadical::CaDiCaL::default();
                for clause in &formula.cnf {
                    solver.add_clause_ref(clause).unwrap();
                }
                for board in oracle::all_boards_exact(d, n) {
                    let mut distinct = oracle::images(&board);
                    distinct.sort();
                    distinct.dedup();
                    let kept = distinct
                        .iter()
                        .filter(|img| {
                            let res = solver
                                .solve_assumps(&fix_board(&formula, img, exact))
                                .unwrap();
                            res == SolverResult::Sat
                        })
                        .count();
                    assert!(
                        kept >= 1,
                        "{model:?} d={d} n={n}: the orbit of\n{board:?} is gone"
                    );
                    pruned_somewhere |= kept < distinct.len();
                }
            }
        }
        assert!(pruned_somewhere, "{model:?}: lex-leader removed nothing");
    }
}

/// `solve`'s SAT path builds the queens' colouring formula with the family-sum clauses by
/// default (measured faster: BENCHMARKS.md); `--bounds none` leaves them out, `--certify`
/// never has them (its manifest re-encodes without), and `encode` writes them only when
/// asked. Each answer is the same.
#[test]
fn the_sat_path_takes_the_bound_clauses_by_default_and_written_files_do_not() {
    use crate::util::{code, json, run, stderr, stdout};
    let bounds_of = |args: &[&str]| {
        let out = run(args);
        assert_eq!(code(&out), 30, "{args:?}: {}", stderr(&out));
        let v = json(&out);
        assert_eq!(v["optimum"], 5, "{args:?}");
        v["bounds"].as_str().unwrap_or("none").to_string()
    };
    let solve = [
        "solve",
        "--dim",
        "6",
        "--engine",
        "sat",
        "--format",
        "json",
        "--progress",
        "none",
    ];
    assert_eq!(bounds_of(&solve), "sums");
    assert_eq!(
        bounds_of(&[&solve[..], &["--bounds", "none"]].concat()),
        "none"
    );
    let tmp = tempfile::tempdir().unwrap();
    let cert = tmp.path().join("c6");
    assert_eq!(
        bounds_of(&[&solve[..], &["--certify", cert.to_str().unwrap()]].concat()),
        "none"
    );
    let plain = stdout(&run(&["encode", "--dim", "6", "--n", "5"]));
    assert!(!plain.contains("c bounds sums"));
    let asked = stdout(&run(&[
        "encode", "--dim", "6", "--n", "5", "--bounds", "sums",
    ]));
    assert!(asked.contains("c bounds sums"));
}
