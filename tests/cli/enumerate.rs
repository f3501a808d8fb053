//! `enumerate` against an independent brute-force enumerator: every board, every orbit, and
//! the maximal configurations.

use crate::oracle;

use std::collections::BTreeSet;

use pq_board::placement::{Placement, Rules};
use pq_board::symmetry::SymmetryGroup;
use pq_encode::spec::Problem;
use pq_encode::{Card, Model, Options, Symmetry};
use pq_engine::capability::listing::{Found, Request, Summary, UpTo};
use pq_engine::sat::enumerate::enumerate;
use pq_solve::control::Limits;

/// Whether `b` is its orbit's canonical member under the queens' 16 symmetries.
fn is_canonical(b: &Placement) -> bool {
    SymmetryGroup::new(&Rules::peaceable_queens(b.rows), &[0, 0]).is_canonical(b)
}

fn run(d: usize, n: usize, up_to: UpTo, maximal: bool, model: Model) -> (Summary, Vec<Found>) {
    run_split(d, n, up_to, maximal, model, 0, 1)
}

/// [`run`] on cubes that fix `split` squares, solved by `jobs` threads.
fn run_split(
    d: usize,
    n: usize,
    up_to: UpTo,
    maximal: bool,
    model: Model,
    split: usize,
    jobs: usize,
) -> (Summary, Vec<Found>) {
    let request = Request {
        problem: Problem::peaceable_queens(d),
        n,
        up_to,
        maximal,
        options: Options {
            model,
            card: Card::Totalizer,
            symmetry: Symmetry::None,
            ..Options::default()
        },
        limit: None,
        split,
        jobs,
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

/// The search split into cubes (each orbit counted in the cube of its lex-leader member)
/// finds exactly the brute-force boards and orbits, each once.
#[test]
fn split_searches_match_brute_force() {
    for (d, split) in [(4, 2), (5, 3), (6, 4)] {
        for n in 1..=oracle::optimum(d) {
            for maximal in [false, true] {
                let expected = if maximal {
                    oracle::all_maximal(d, n)
                } else {
                    oracle::all_boards_exact(d, n)
                };
                let what = format!("d={d} n={n} maximal={maximal} split={split}");
                let (orbits, reps) =
                    run_split(d, n, UpTo::Symmetry, maximal, Model::Lines, split, 2);
                assert_eq!(orbits.count, oracle::count_orbits(&expected), "{what}");
                assert_eq!(orbits.total_boards, expected.len(), "{what}");
                let reps = set(reps.into_iter().map(|f| f.placement));
                assert_eq!(reps.len(), orbits.count, "{what}: an orbit listed twice");
                assert!(reps.iter().all(is_canonical), "{what}");
                if d < 6 {
                    let (_, boards) =
                        run_split(d, n, UpTo::Total, maximal, Model::Pairwise, split, 2);
                    let boards = set(boards.into_iter().map(|f| f.placement));
                    assert_eq!(boards, set(expected.iter().cloned()), "{what}: total");
                }
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

#[test]
fn cli_splits_on_cubes_with_jobs_and_refuses_a_bad_split() {
    use crate::util::{code, json, run, stderr};
    let one = json(&run(&[
        "enumerate",
        "--dim",
        "6",
        "--engine",
        "sat",
        "--count",
        "--format",
        "json",
    ]));
    // The SAT path's split (auto lists these boards on the line engine).
    let out = run(&[
        "enumerate",
        "--dim",
        "6",
        "--jobs",
        "2",
        "--engine",
        "sat",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let split = json(&out);
    // --jobs 2 splits on 4 squares by default: 3^4 cubes for two colours.
    assert_eq!(
        (split["cubes"].as_u64(), split["jobs"].as_u64()),
        (Some(81), Some(2))
    );
    assert_eq!(split["count"], one["count"]);
    assert_eq!(split["total_boards"], one["total_boards"]);
    assert_eq!(one["cubes"], 1);
    for bad in ["13", "x", "2.5"] {
        let out = run(&["enumerate", "--dim", "5", "--split", bad]);
        assert_eq!(code(&out), 2, "--split {bad}");
        assert!(stderr(&out).contains("--split must be a whole number from 0 to 12"));
    }
}
