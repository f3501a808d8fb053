//! An independent oracle for `pq_lines::decide` on toroidal boards.
//!
//! This file was written from the problem statement alone, without reading the engine's
//! source (nor that of the crates it shares code with), so that the oracle cannot share a
//! mistake with the code it checks. Only the public API of `pq-lines` is used.
//!
//! The problem: on a `d × d` *toroidal* board (rows, columns and diagonals wrap around the
//! edges), place `w` white and `b` black queens, at most one piece per square, so that no
//! white queen attacks a black queen. A queen on `(r, c)` attacks every square `(r', c')`
//! with `r' = r`, or `c' = c`, or `r' + c' ≡ r + c (mod d)`, or `r' − c' ≡ r − c (mod d)`;
//! pieces in between do not block, and queens of one colour may attack each other.
//!
//! How the oracle works (the method of `oracle.rs`, with the torus attack rule). Let
//! `cover(W)` be the set of squares that share a torus line with some square of a white set
//! `W`; a white queen's own square is on its own row, so `W ⊆ cover(W)`. A black queen may
//! stand on a square exactly when that square is outside `cover(W)`, and black queens never
//! constrain one another, so the most black queens that can accompany `W` is
//! `free(W) = d² − |cover(W)|`, and any smaller number fits too. The *frontier*
//! `f[w] = max { free(W) : |W| = w }` therefore answers every question: `w` white and `b`
//! black queens fit on the torus iff `f[w] ≥ b`.
//!
//! [`frontier`] computes `f` exactly by a depth-first enumeration of white sets as increasing
//! sequences of squares, with `u64` bit masks (so `d ≤ 8`), cutting only at covers that leave
//! no square free. [`frontier_translated`] computes the same `f` a second way, enumerating
//! only the white sets that contain square `(0, 0)`: the torus is invariant under the
//! translations `(r, c) ↦ (r + i, c + j) mod d`, which map torus lines to torus lines, so
//! every nonempty white set has a translate through `(0, 0)` with the same free count.
//! [`frontier_naive`] recomputes `f` for `d ≤ 4` by plain enumeration of all `2^(d²)` subsets
//! with the pairwise attack predicate [`attacks`] and no masks, to check the oracle itself.
//!
//! The engine is then compared with the oracle on tori d = 1..=6 (equal armies) and 3..=5
//! (unequal armies); every `Sat` witness is checked by this file's own torus attack test;
//! and the verdicts with two jobs are compared with those with one on tori 7 and 8.

mod common;

use common::Cell;
use pq_lines::{Board, Demand};

/// Whether a queen on `(r1, c1)` attacks the square `(r2, c2)` of the `d × d` torus (a square
/// counts as attacked by a queen standing on it): same row, same column, same diagonal
/// (`r + c` congruent mod `d`) or same anti-diagonal (`r − c` congruent mod `d`). Both
/// cells must be on the board (`r, c < d`); `r − c` is computed as `r + d − c`, which is
/// congruent to it and never negative.
fn attacks(d: usize, (r1, c1): Cell, (r2, c2): Cell) -> bool {
    r1 == r2 || c1 == c2 || (r1 + c1) % d == (r2 + c2) % d || (r1 + d - c1) % d == (r2 + d - c2) % d
}

/// The attack predicate of the `d × d` torus as a closure on two cells, for `common`.
fn torus_attacks(d: usize) -> impl Fn(Cell, Cell) -> bool {
    move |a, b| attacks(d, a, b)
}

/// For every square `s = r·d + c` of the `d × d` torus, the mask of squares that share a
/// torus line with `s` (including `s` itself).
fn line_masks(d: usize) -> Vec<u64> {
    common::line_masks(d, d, torus_attacks(d))
}

/// The exact frontier of the `d × d` torus: entry `w` (for `w = 0..=d²`) is the largest
/// number of black queens that can accompany `w` white queens. Computed by
/// [`common::frontier`] (whose documentation gives the pruning rule, why it keeps the
/// enumeration exhaustive, and its cost on the 6×6 torus) on the torus line masks.
fn frontier(d: usize) -> Vec<usize> {
    common::frontier(&line_masks(d))
}

/// The same frontier as [`frontier`], using the translation symmetry of the torus: entry 0
/// is `d²` (no white queen, every square free), and the other entries come from the white
/// sets containing square 0, i.e. `(0, 0)`, enumerated as in [`frontier`] (by
/// [`common::explore`]) from the node `{0}`. A nonempty white set `W` containing `(r, c)` is
/// mapped by the translation `(x, y) ↦ (x − r, y − c) mod d` to a set of the same size
/// containing `(0, 0)`; the translation maps each row, column, diagonal and anti-diagonal of
/// the torus onto one of the same kind, so it maps `cover(W)` onto the cover of the image,
/// and the free counts are equal. So the maximum over the sets through `(0, 0)` is the
/// maximum over all sets.
fn frontier_translated(d: usize) -> Vec<usize> {
    let lines = line_masks(d);
    let n = d * d;
    let mut best = vec![0; n + 1];
    best[0] = n;
    common::explore(&lines, 1, 1, lines[0], &mut best);
    best
}

/// The same frontier as [`frontier`], by the most literal method: every subset of the squares
/// as the white set, and for each square outside it a pairwise check with [`attacks`] against
/// every white queen ([`common::frontier_naive`]). Only for tori of at most 16 squares.
fn frontier_naive(d: usize) -> Vec<usize> {
    common::frontier_naive(d, d, torus_attacks(d))
}

/// Checks a witness on the `d × d` torus independently with [`common::check_witness`] under
/// the torus rule [`attacks`]. Panics with the case in the message otherwise.
fn check_witness(d: usize, demand: (usize, usize), white: &[Cell], black: &[Cell]) {
    let name = format!("torus {d}");
    common::check_witness(&name, (d, d), demand, (white, black), torus_attacks(d));
}

/// Asks the engine whether the armies of `demand` fit peaceably on the `d × d` torus with
/// `jobs` worker threads ([`common::engine`]: witnesses checked under the torus rule,
/// `Unknown` is a panic).
fn engine(d: usize, demand: Demand, jobs: usize) -> bool {
    let board = Board::torus(d).expect("a valid torus");
    let name = format!("torus {d}");
    common::engine(&board, &name, (d, d), demand, jobs, torus_attacks(d))
}

/// Compares the engine with the oracle on the `d × d` torus for every demand in `demands`,
/// collecting all disagreements before failing.
fn compare(d: usize, demands: impl IntoIterator<Item = (usize, usize)>) {
    let name = format!("torus {d}");
    common::compare(&name, &frontier(d), demands, |demand| engine(d, demand, 1));
}

/// The largest `m` with `f[m] ≥ m`: the most queens of each colour that fit on the torus
/// whose frontier is `f`.
fn largest_equal(f: &[usize]) -> usize {
    (0..f.len()).filter(|&m| f[m] >= m).max().unwrap_or(0)
}

/// The attack rule itself, on hand-checked pairs: wrapped diagonals and anti-diagonals
/// attack on the torus, and knight-like offsets do not.
#[test]
fn attack_rule_hand_checks() {
    // 5×5: (0, 0) and (1, 4): r + c is 0 and 5 ≡ 0, the wrapped diagonal.
    assert!(attacks(5, (0, 0), (1, 4)));
    // 5×5: (0, 4) and (1, 0): r − c is −4 ≡ 1 and 1, the wrapped anti-diagonal.
    assert!(attacks(5, (0, 4), (1, 0)));
    // 5×5: (0, 0) and (1, 2): r + c 0 vs 3, r − c 0 vs −1 ≡ 4: no line shared.
    assert!(!attacks(5, (0, 0), (1, 2)));
    // 5×5: (0, 0) and (2, 1) and (3, 4): knight-like, no line.
    assert!(!attacks(5, (0, 0), (2, 1)));
    assert!(!attacks(5, (0, 0), (3, 4)));
    // 4×4: (0, 0) and (2, 2) share the anti-diagonal; (0, 1) and (2, 3) too.
    assert!(attacks(4, (0, 0), (2, 2)));
    assert!(attacks(4, (0, 1), (2, 3)));
    // 4×4: (0, 0) and (1, 2): r + c 0 vs 3, r − c 0 vs −1 ≡ 3.
    assert!(!attacks(4, (0, 0), (1, 2)));
    // The 2×2 torus: every square attacks every other.
    for s in 0..4 {
        for t in 0..4 {
            assert!(attacks(2, (s / 2, s % 2), (t / 2, t % 2)));
        }
    }
    // Symmetric on the 6×6 torus.
    for s in 0..36 {
        for t in 0..36 {
            let (a, b) = ((s / 6, s % 6), (t / 6, t % 6));
            assert_eq!(attacks(6, a, b), attacks(6, b, a), "{a:?} {b:?}");
        }
    }
}

/// The witness checker itself accepts a hand-checked peaceable placement on the 5×5 torus:
/// white (0, 0); black (1, 2) and (2, 1) (as in [`attack_rule_hand_checks`]) and (3, 4)
/// (r + c = 7 ≡ 2, r − c = −1 ≡ 4; neither is 0).
#[test]
fn witness_checker_accepts_a_peaceable_placement() {
    check_witness(5, (1, 3), &[(0, 0)], &[(1, 2), (2, 1), (3, 4)]);
}

/// The witness checker itself rejects an attack that exists only through the wrap-around
/// (on a plain 5×5 board (0, 0) and (1, 4) share no line).
#[test]
#[should_panic(expected = "attacks black")]
fn witness_checker_rejects_a_wrapped_attack() {
    check_witness(5, (1, 1), &[(0, 0)], &[(1, 4)]);
}

/// The witness checker itself rejects a cell holding both colours.
#[test]
#[should_panic(expected = "appears twice")]
fn witness_checker_rejects_a_shared_cell() {
    check_witness(3, (1, 1), &[(1, 1)], &[(1, 1)]);
}

/// The oracle itself: the depth-first frontier equals the naive one for d = 1..=4, and the
/// translation-reduced one for d = 1..=6; the 1×1 and 2×2 tori have the hand-computed
/// frontiers (on 2×2 every square attacks every other).
#[test]
fn oracle_matches_other_enumerations() {
    assert_eq!(frontier(1), vec![1, 0]);
    assert_eq!(frontier(2), vec![4, 0, 0, 0, 0]);
    for d in 1..=4 {
        assert_eq!(frontier(d), frontier_naive(d), "torus {d}");
    }
    for d in 1..=6 {
        assert_eq!(frontier(d), frontier_translated(d), "torus {d}");
    }
}

/// The oracle itself: each frontier starts at `d²`, ends at 0, is non-increasing, symmetric
/// in the two colours (`f[w] ≥ b` iff `f[b] ≥ w`, since the torus attack relation is
/// symmetric), and never above the plain board's frontier computed independently here by the
/// naive method ([`common::frontier_naive`] with the plain attack rule written out here;
/// every plain attack is a torus attack, so torus covers are larger).
#[test]
fn oracle_sanity() {
    for d in 1..=6 {
        let f = frontier(d);
        let n = d * d;
        assert_eq!(
            f[0], n,
            "torus {d}: no white queen leaves every square free"
        );
        assert_eq!(f[n], 0, "torus {d}: a full white board leaves nothing");
        assert!(f.windows(2).all(|p| p[0] >= p[1]), "torus {d}: {f:?}");
        for w in 0..=n {
            for b in 0..=n {
                assert_eq!(f[w] >= b, f[b] >= w, "torus {d}: ({w}, {b}) {f:?}");
            }
        }
    }
    for d in 1..=4 {
        let torus = frontier(d);
        let plain_attacks = |(r1, c1): Cell, (r2, c2): Cell| {
            r1 == r2 || c1 == c2 || r1 + c1 == r2 + c2 || r1 + c2 == r2 + c1
        };
        let plain = common::frontier_naive(d, d, plain_attacks);
        assert!(
            torus.iter().zip(&plain).all(|(t, p)| t <= p),
            "torus {d}: {torus:?} exceeds the plain board's {plain:?}"
        );
    }
}

/// Prints the oracle's frontiers and the largest equal armies it finds on tori d = 1..=6
/// (for comparison with OEIS A279405; run with `--nocapture` to see them) and checks that the engine agrees at
/// that value (`Sat`) and one above it (`Unsat`).
#[test]
fn largest_equal_armies() {
    let mut values = Vec::new();
    for d in 1..=6 {
        let f = frontier(d);
        println!("torus {d}: frontier {f:?}");
        let a = largest_equal(&f);
        values.push(a);
        assert!(engine(d, Demand::equal(a), 1), "torus {d}: no {a} + {a}");
        if 2 * (a + 1) <= d * d {
            assert!(
                !engine(d, Demand::equal(a + 1), 1),
                "torus {d}: engine finds {} + {}",
                a + 1,
                a + 1
            );
        }
    }
    println!("largest equal armies on tori d = 1..=6 (oracle): {values:?}");
}

/// Tori d = 1..=6, equal armies m = 0..=d²/4 + 1 (skipping `2m > d²`, which cannot fit).
#[test]
fn tori_equal_armies() {
    for d in 1..=6 {
        compare(
            d,
            (0..=d * d / 4 + 1)
                .filter(|&m| 2 * m <= d * d)
                .map(|m| (m, m)),
        );
    }
}

/// Unequal armies on tori d = 3, 4, 5: every pair `(w, b)` with `0 ≤ w, b ≤ d²/2`.
#[test]
fn tori_unequal_armies() {
    for d in 3..=5 {
        let half = d * d / 2;
        compare(d, (0..=half).flat_map(|w| (0..=half).map(move |b| (w, b))));
    }
}

/// Two worker threads give the same verdicts as one on tori 7 and 8 (witnesses checked);
/// the verdicts are printed (run with `--nocapture`).
#[test]
fn two_jobs_agree_with_one() {
    for (d, m) in [(7, 3), (7, 4), (7, 5), (8, 8), (8, 9)] {
        let one = engine(d, Demand::equal(m), 1);
        let two = engine(d, Demand::equal(m), 2);
        assert_eq!(
            one, two,
            "torus {d}, m = {m}: jobs 1 says {one}, jobs 2 says {two}"
        );
        println!("torus {d}, m = {m}: {}", if one { "Sat" } else { "Unsat" });
    }
}
