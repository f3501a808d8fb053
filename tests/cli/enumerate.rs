//! `enumerate` against an independent brute-force enumerator: every board, every orbit, and
//! the maximal configurations.

use crate::oracle;

use std::collections::BTreeSet;

use pq_board::placement::{Placement, Rules};
use pq_board::symmetry::SymmetryGroup;
use pq_encode::spec::Problem;
use pq_encode::{Card, Model, Options, Symmetry};
use pq_engine::enumerate::{enumerate, Found, Request, Summary, UpTo};
use pq_solve::control::Limits;

/// Whether `b` is its orbit's canonical member under the queens' 16 symmetries.
fn is_canonical(b: &Placement) -> bool {
    SymmetryGroup::new(&Rules::peaceable_queens(b.rows), &[0, 0]).is_canonical(b)
}

fn run(d: usize, n: usize, up_to: UpTo, maximal: bool, model: Model) -> (Summary, Vec<Found>) {
    let request = Request {
        problem: Problem::peaceable_queens(d),
        n,
        up_to,
        maximal,
        options: Options {
            model,
            card: Card::Totalizer,
            symmetry: Symmetry::None,
        },
        limit: None,
    };
    let mut found = Vec::new();
    let summary = enumerate(&request, &Limits::none(), &mut |f, _| found.push(f.clone())).unwrap();
    assert!(summary.complete);
    (summary, found)
}

fn set(boards: impl IntoIterator<Item = Placement>) -> BTreeSet<Placement> {
    boards.into_iter().collect()
}

/// Up to symmetry always; every board separately too when `with_total` (slow where the
/// boards number in the tens of thousands, and implied by the orbit sizes' sum anyway).
fn check_against(
    expected: &[Placement],
    d: usize,
    n: usize,
    maximal: bool,
    model: Model,
    with_total: bool,
) {
    let what = format!("d={d} n={n} maximal={maximal} {model:?}");
    if with_total {
        let (total, boards) = run(d, n, UpTo::Total, maximal, model);
        assert_eq!(total.count, expected.len(), "{what}: total");
        assert_eq!(
            set(boards.into_iter().map(|f| f.placement)),
            set(expected.iter().cloned()),
            "{what}"
        );
    }

    let (orbits, reps) = run(d, n, UpTo::Symmetry, maximal, model);
    assert_eq!(
        orbits.count,
        oracle::count_orbits(expected),
        "{what}: orbits"
    );
    assert_eq!(
        orbits.total_boards,
        expected.len(),
        "{what}: orbit sizes sum to the total"
    );
    for f in &reps {
        assert_eq!(16 % f.orbit_size, 0, "{what}: orbit size {}", f.orbit_size);
        assert!(is_canonical(&f.placement));
        assert_eq!(f.orbit_size, oracle::orbit_size(&f.placement));
    }
}

#[test]
fn exact_boards_match_brute_force_up_to_d5() {
    for d in 1..=5 {
        for n in 0..=oracle::optimum(d) {
            let expected = oracle::all_boards_exact(d, n);
            for model in [Model::Lines, Model::Pairwise] {
                check_against(&expected, d, n, false, model, true);
            }
        }
    }
}

#[test]
fn exact_boards_match_brute_force_at_d6() {
    let d = 6;
    for n in 0..=oracle::optimum(d) {
        let expected = oracle::all_boards_exact(d, n);
        check_against(&expected, d, n, false, Model::Lines, false);
    }
}

/// Every board separately at d = 6: up to 97,208 boards (n = 3), one blocking clause each,
/// about two minutes; kept apart so that it runs beside the other tests.
#[test]
fn every_exact_board_at_d6() {
    let d = 6;
    for n in 0..=oracle::optimum(d) {
        let expected = oracle::all_boards_exact(d, n);
        let (total, boards) = run(d, n, UpTo::Total, false, Model::Lines);
        assert_eq!(total.count, expected.len(), "d=6 n={n}");
        assert_eq!(
            set(boards.into_iter().map(|f| f.placement)),
            set(expected),
            "d=6 n={n}"
        );
    }
}

#[test]
fn maximal_configurations_match_brute_force_up_to_d5() {
    for d in 1..=5 {
        for n in 0..=oracle::optimum(d) {
            let expected = oracle::all_maximal(d, n);
            check_against(&expected, d, n, true, Model::Lines, true);
            let (summary, _) = run(d, n, UpTo::Symmetry, true, Model::Lines);
            let unequal = expected
                .iter()
                .filter(|b| b.count(0) != b.count(1))
                .filter(|b| is_canonical(b))
                .count();
            assert_eq!(summary.unequal, unequal, "d={d} n={n}: unequal armies");
        }
    }
}

#[test]
fn maximal_configurations_match_brute_force_at_d6() {
    let d = 6;
    for n in 0..=oracle::optimum(d) {
        let expected = oracle::all_maximal(d, n);
        check_against(&expected, d, n, true, Model::Lines, false);
    }
}
