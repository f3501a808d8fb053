//! The optimiser finds the proven values of a(d) with every in-process backend.

use crate::oracle;
use pq_encode::spec::Problem;
use pq_encode::Options;
use pq_engine::capability::climb::{OptimiseOutcome, RunLimits, Strategy};
use pq_engine::capability::Status;
use pq_engine::sat::optimise::optimise;
use pq_solve::backend::Backend;
use pq_solve::backend::{Cadical, Varisat};

/// Proven values of a(d) (OEIS A250000), used only as test expectations.
const KNOWN: [(usize, usize); 9] = [
    (1, 0),
    (2, 0),
    (3, 1),
    (4, 2),
    (5, 4),
    (6, 5),
    (7, 7),
    (8, 9),
    (9, 12),
];

fn run(d: usize, strategy: Strategy, backend: &dyn Backend) -> OptimiseOutcome {
    optimise(
        &Problem::peaceable_queens(d),
        &Options::default(),
        strategy,
        backend,
        &RunLimits::default(),
        &mut |_| {},
    )
    .unwrap()
}

fn assert_optimum(d: usize, expected: usize, backend: &dyn Backend) {
    assert_optimum_with(d, expected, Strategy::Up, backend);
}

fn assert_optimum_with(d: usize, expected: usize, strategy: Strategy, backend: &dyn Backend) {
    let outcome = run(d, strategy, backend);
    assert_eq!(
        outcome.optimum,
        Some(expected),
        "{} {strategy:?} d={d}",
        backend.name()
    );
    let (best, board) = outcome.best.as_ref().expect("a witness");
    assert_eq!(*best, expected);
    assert!(oracle::is_peaceable(board, d, expected));
    assert_eq!(board.count(0), expected);
    assert_eq!(board.count(1), expected);
    // The proof: an UNSAT step at exactly one above the optimum.
    assert!(
        outcome
            .steps
            .iter()
            .any(|s| s.n == expected + 1 && s.status == Status::Unsat),
        "{strategy:?} d={d}: no UNSAT step at {}",
        expected + 1
    );
    assert!(outcome.reason.is_none());
}

#[test]
fn cadical_finds_a_of_d_up_to_8() {
    for &(d, a) in &KNOWN[..8] {
        assert_optimum(d, a, &Cadical);
    }
}

#[test]
fn varisat_finds_a_of_d_up_to_8() {
    for &(d, a) in &KNOWN[..8] {
        assert_optimum(d, a, &Varisat);
    }
}

#[test]
fn the_default_finds_a_of_9() {
    let (d, a) = KNOWN[8];
    let backend = pq_solve::spec::BackendSpec::default().resolve().unwrap();
    assert_optimum(d, a, backend.as_ref());
}

#[test]
fn incremental_finds_a_of_d_up_to_8() {
    for &(d, a) in &KNOWN[..8] {
        assert_optimum_with(d, a, Strategy::Incremental, &Cadical);
    }
}

#[test]
fn bisect_finds_a_of_d_up_to_8() {
    for &(d, a) in &KNOWN[..8] {
        assert_optimum_with(d, a, Strategy::Bisect, &Cadical);
        assert_optimum_with(d, a, Strategy::Bisect, &Varisat);
    }
}
