//! The line engine's counts of boards (`enumerate --engine lines`) against an independent
//! brute-force count (`oracle/counts.rs`, written from the problem statement alone: every
//! white set, the cells no white queen attacks, the least member of each orbit under the
//! problem's own group), on every kind of board the engine lists: square, rectangle and
//! torus, equal and unequal armies, both up to symmetry and in total.
//!
//! The engine prunes under its own group, which on the torus is larger than the problem's
//! (the multipliers u with gcd(u, d) = 1): a count that forgot that lost boards from d = 7 on.

#[path = "oracle/counts.rs"]
mod counts;

use pq_encode::spec::Problem;
use pq_engine::capability::listing::{Request, UpTo};
use pq_engine::lines::enumerate::enumerate;
use pq_solve::control::Limits;

/// The engine's (orbits, total) for `white` white and `black` black queens.
fn engine(rows: usize, cols: usize, torus: bool, white: usize, black: usize) -> (u64, u64) {
    let mut problem = Problem::peaceable_queens(rows);
    problem.set("board", &format!("{rows}x{cols}")).unwrap();
    problem
        .set("torus", if torus { "true" } else { "false" })
        .unwrap();
    // White fixed, black maximised: the request's n is black's count.
    problem.set("white", &white.to_string()).unwrap();
    let orbits = {
        let request = Request::new(problem.clone(), black, UpTo::Symmetry, false);
        let s = enumerate(2, &request, &Limits::none(), &mut |_, _| {}).unwrap();
        assert!(s.complete);
        (s.count as u64, s.total_boards as u64)
    };
    let request = Request::new(problem, black, UpTo::Total, false);
    let s = enumerate(2, &request, &Limits::none(), &mut |_, _| {}).unwrap();
    assert!(s.complete);
    assert_eq!(s.count, s.total_boards, "every board once in total mode");
    assert_eq!(
        s.total_boards as u64, orbits.1,
        "the orbit sizes add up to the total"
    );
    orbits
}

fn agree(rows: usize, cols: usize, torus: bool, white: usize, black: usize) {
    assert_eq!(
        engine(rows, cols, torus, white, black),
        counts::count(rows, cols, torus, white, black),
        "{rows}x{cols}{} with {white} white and {black} black",
        if torus { " torus" } else { "" }
    );
}

#[test]
fn the_torus_up_to_d7_and_at_d8() {
    for d in 1..=6 {
        for n in 1..=d {
            agree(d, d, true, n, n);
        }
    }
    // 69 orbits and 42,042 boards at n = 4; 371 and 284,592 at n = 3.
    for n in 2..=5 {
        agree(7, 7, true, n, n);
    }
    agree(8, 8, true, 8, 8);
}

#[test]
fn square_boards() {
    // Every n on d ≤ 6; around the optimum (7 and 9) above, where the boards are fewer.
    for d in 1..=6 {
        for n in 1..=d {
            agree(d, d, false, n, n);
        }
    }
    for n in 6..=8 {
        agree(7, 7, false, n, n);
    }
    agree(8, 8, false, 9, 9);
}

#[test]
fn rectangles_and_unequal_armies() {
    for (rows, cols) in [(2, 3), (3, 5), (4, 6), (5, 7)] {
        for n in 1..=(rows * cols / 6).max(1) {
            agree(rows, cols, false, n, n);
        }
    }
    for (d, torus, white, black) in [
        (5, false, 2, 4),
        (5, false, 4, 2),
        (6, false, 3, 6),
        (5, true, 1, 3),
        (7, true, 2, 5),
    ] {
        agree(d, d, torus, white, black);
    }
    agree(5, 7, false, 3, 6);
}
