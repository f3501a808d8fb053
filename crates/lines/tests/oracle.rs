//! An independent oracle for `pq_lines::decide`.
//!
//! This file was written from the problem statement alone, without reading the engine's
//! source (nor that of the crates it shares code with), so that the oracle cannot share a
//! mistake with the code it checks. Only the public API of `pq-lines` is used.
//!
//! The problem: on a board of `rows × cols` squares, place `w` white and `b` black queens,
//! at most one piece per square, so that no white queen attacks a black queen. A queen
//! attacks every square on its row, its column, its diagonal (`r + c` constant) and its
//! anti-diagonal (`r − c` constant); pieces in between do not block.
//!
//! How the oracle works. Let `cover(W)` be the set of squares that share a line with some
//! square of a white set `W`. A white queen's own square is on its own row, so `W ⊆ cover(W)`.
//! A black queen may stand on a square exactly when that square is outside `cover(W)` (it is
//! then neither occupied by a white queen nor attacked by one), and black queens never
//! constrain one another. So the most black queens that can accompany `W` is
//! `free(W) = rows·cols − |cover(W)|`, and any smaller number fits too. The *frontier*
//! `f[w] = max { free(W) : |W| = w }` therefore answers every question: `w` white and `b`
//! black queens fit iff `f[w] ≥ b`.
//!
//! [`frontier`] computes `f` exactly by a depth-first enumeration of white sets as increasing
//! sequences of squares, with bit masks (`u64`, boards of at most 64 squares); the single
//! pruning rule, and why it keeps the enumeration exhaustive, is documented at
//! [`common::frontier`] (the enumeration is shared with `torus.rs` in `common/mod.rs`).
//! [`frontier_naive`] recomputes `f` for small boards by plain enumeration of all `2^(rows·cols)`
//! subsets with a pairwise attack predicate and no masks of lines, to check the oracle itself.
//!
//! The engine is then compared with the oracle on squares up to 6×6, several rectangles and
//! unequal armies; every `Sat` witness is checked by this file's own attack test; the verdicts
//! with two jobs are compared with those with one; and the known values of OEIS A250000
//! (the largest equal armies on a d×d board, d = 1..=8) are checked with the engine alone.

mod common;

use common::Cell;
use pq_lines::{Board, Demand};

/// OEIS A250000, a(1..=8): the largest `m` such that `m` white and `m` black queens fit
/// peaceably on a d×d board.
const A250000: [usize; 8] = [0, 0, 1, 2, 4, 5, 7, 9];

/// Whether a queen on `(r1, c1)` attacks the square `(r2, c2)` (a square is counted as
/// attacked by a queen standing on it): same row, column, diagonal or anti-diagonal.
/// The anti-diagonal test `r1 − c1 = r2 − c2` is written as `r1 + c2 = r2 + c1`, which is
/// the same equation without unsigned subtraction.
fn attacks((r1, c1): Cell, (r2, c2): Cell) -> bool {
    r1 == r2 || c1 == c2 || r1 + c1 == r2 + c2 || r1 + c2 == r2 + c1
}

/// The exact frontier of a `rows × cols` board: entry `w` (for `w = 0..=rows·cols`) is the
/// largest number of black queens that can accompany `w` white queens. Computed by
/// [`common::frontier`] (whose documentation gives the pruning rule and why it keeps the
/// enumeration exhaustive) on the line masks of [`attacks`].
fn frontier(rows: usize, cols: usize) -> Vec<usize> {
    common::frontier(&common::line_masks(rows, cols, attacks))
}

/// The same frontier as [`frontier`], by plain enumeration of every white set with the
/// pairwise predicate [`attacks`] ([`common::frontier_naive`]); boards of at most 16 squares.
fn frontier_naive(rows: usize, cols: usize) -> Vec<usize> {
    common::frontier_naive(rows, cols, attacks)
}

/// Checks a witness on the `rows × cols` board independently with [`common::check_witness`]
/// under [`attacks`]. Panics with the case in the message otherwise.
fn check_witness(rows: usize, cols: usize, demand: (usize, usize), white: &[Cell], black: &[Cell]) {
    let name = format!("{rows}x{cols}");
    common::check_witness(&name, (rows, cols), demand, (white, black), attacks);
}

/// Asks the engine whether the armies of `demand` fit peaceably on `rows × cols` with `jobs`
/// worker threads ([`common::engine`]: witnesses checked under [`attacks`], `Unknown` is a
/// panic). Square boards are built with `Board::square`, the others with `Board::new`.
fn engine(rows: usize, cols: usize, demand: Demand, jobs: usize) -> bool {
    let board = if rows == cols {
        Board::square(rows)
    } else {
        Board::new(rows, cols)
    }
    .expect("a valid board");
    let name = format!("{rows}x{cols}");
    common::engine(&board, &name, (rows, cols), demand, jobs, attacks)
}

/// Compares the engine with the oracle on one board for every demand in `demands`,
/// collecting all disagreements before failing.
fn compare(rows: usize, cols: usize, demands: impl IntoIterator<Item = (usize, usize)>) {
    let name = format!("{rows}x{cols}");
    common::compare(&name, &frontier(rows, cols), demands, |demand| {
        engine(rows, cols, demand, 1)
    });
}

/// The witness checker itself accepts a hand-checked peaceable placement on 3×3.
#[test]
fn witness_checker_accepts_a_peaceable_placement() {
    check_witness(3, 3, (1, 2), &[(0, 0)], &[(1, 2), (2, 1)]);
}

/// The witness checker itself rejects a white queen attacking a black one along an
/// anti-diagonal (`r − c` constant) two squares away.
#[test]
#[should_panic(expected = "attacks black")]
fn witness_checker_rejects_an_attack() {
    check_witness(3, 3, (1, 1), &[(0, 0)], &[(2, 2)]);
}

/// The witness checker itself rejects a cell holding both colours.
#[test]
#[should_panic(expected = "appears twice")]
fn witness_checker_rejects_a_shared_cell() {
    check_witness(3, 3, (1, 1), &[(1, 1)], &[(1, 1)]);
}

/// The oracle itself: the depth-first frontier equals the naive one on every board of at
/// most 16 squares used below.
#[test]
fn oracle_matches_naive_enumeration() {
    for (rows, cols) in [
        (1, 1),
        (1, 4),
        (2, 2),
        (2, 3),
        (3, 3),
        (2, 5),
        (3, 4),
        (4, 3),
        (2, 7),
        (3, 5),
        (4, 4),
    ] {
        assert_eq!(
            frontier(rows, cols),
            frontier_naive(rows, cols),
            "{rows}x{cols}"
        );
    }
}

/// The oracle itself: it reproduces A250000 for d = 1..=6, is non-increasing, symmetric in
/// the two colours (`f[w] ≥ b` iff `f[b] ≥ w`, since attacking is symmetric) and invariant
/// under transposing the board.
#[test]
fn oracle_sanity() {
    for d in 1..=6 {
        let f = frontier(d, d);
        let a = A250000[d - 1];
        assert!(f[a] >= a, "{d}x{d}: oracle misses a({d}) = {a}");
        assert!(f[a + 1] < a + 1, "{d}x{d}: oracle exceeds a({d}) = {a}");
    }
    for (rows, cols) in [(3, 3), (4, 4), (3, 5), (5, 5), (4, 5), (2, 7), (6, 6)] {
        let f = frontier(rows, cols);
        let n = rows * cols;
        assert_eq!(
            f[0], n,
            "{rows}x{cols}: no white queen leaves every square free"
        );
        assert_eq!(f[n], 0, "{rows}x{cols}: a full white board leaves nothing");
        assert!(f.windows(2).all(|p| p[0] >= p[1]), "{rows}x{cols}: {f:?}");
        for w in 0..=n {
            for b in 0..=n {
                assert_eq!(f[w] >= b, f[b] >= w, "{rows}x{cols}: ({w}, {b}) {f:?}");
            }
        }
        if rows != cols {
            assert_eq!(
                f,
                frontier(cols, rows),
                "{rows}x{cols} against its transpose"
            );
        }
    }
}

/// Squares d = 1..=6, equal armies m = 0..=d²/4 + 1.
#[test]
fn squares_equal_armies() {
    for d in 1..=6 {
        compare(d, d, (0..=d * d / 4 + 1).map(|m| (m, m)));
    }
}

/// Rectangles, equal armies m = 0..=rows·cols/2.
#[test]
fn rectangles_equal_armies() {
    for (rows, cols) in [
        (1, 4),
        (2, 3),
        (2, 5),
        (3, 4),
        (4, 3),
        (3, 5),
        (4, 5),
        (5, 4),
        (2, 7),
    ] {
        compare(rows, cols, (0..=rows * cols / 2).map(|m| (m, m)));
    }
}

/// Unequal armies: every pair `(w, b)` with `0 ≤ w, b ≤ rows·cols/2`.
#[test]
fn unequal_armies() {
    for (rows, cols) in [(3, 3), (4, 4), (3, 5), (5, 5)] {
        let half = rows * cols / 2;
        compare(
            rows,
            cols,
            (0..=half).flat_map(|w| (0..=half).map(move |b| (w, b))),
        );
    }
}

/// Unequal armies on larger boards (up to 36 squares, where the oracle is still exact and
/// quick): every pair `(w, b)` with `0 ≤ w, b ≤ rows·cols/2`.
#[test]
fn unequal_armies_larger_boards() {
    for (rows, cols) in [
        (6, 6),
        (4, 6),
        (6, 4),
        (5, 6),
        (3, 7),
        (4, 7),
        (5, 7),
        (1, 9),
        (2, 9),
    ] {
        let half = rows * cols / 2;
        compare(
            rows,
            cols,
            (0..=half).flat_map(|w| (0..=half).map(move |b| (w, b))),
        );
    }
}

/// Two worker threads give the same verdicts as one on larger cases (witnesses checked).
#[test]
fn two_jobs_agree_with_one() {
    for (d, m) in [(7, 7), (7, 8), (8, 9), (8, 10)] {
        let one = engine(d, d, Demand::equal(m), 1);
        let two = engine(d, d, Demand::equal(m), 2);
        assert_eq!(
            one, two,
            "{d}x{d}, m = {m}: jobs 1 says {one}, jobs 2 says {two}"
        );
    }
}

/// The known values of A250000 for d = 1..=8, with the engine alone: `Sat` at `a(d)` and
/// `Unsat` at `a(d) + 1`.
#[test]
fn known_values_a250000() {
    for d in 1..=8 {
        let a = A250000[d - 1];
        assert!(
            engine(d, d, Demand::equal(a), 1),
            "{d}x{d}: engine finds no {a} + {a}"
        );
        let b = a + 1;
        assert!(
            !engine(d, d, Demand::equal(b), 1),
            "{d}x{d}: engine finds {b} + {b}"
        );
    }
}
