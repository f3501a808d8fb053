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
//! pruning rule, and why it keeps the enumeration exhaustive, is documented there.
//! [`frontier_naive`] recomputes `f` for small boards by plain enumeration of all `2^(rows·cols)`
//! subsets with a pairwise attack predicate and no masks of lines, to check the oracle itself.
//!
//! The engine is then compared with the oracle on squares up to 6×6, several rectangles and
//! unequal armies; every `Sat` witness is checked by this file's own attack test; the verdicts
//! with two jobs are compared with those with one; and the known values of OEIS A250000
//! (the largest equal armies on a d×d board, d = 1..=8) are checked with the engine alone.

use pq_lines::{decide, Board, Demand, Settings, Verdict};

/// OEIS A250000, a(1..=8): the largest `m` such that `m` white and `m` black queens fit
/// peaceably on a d×d board.
const A250000: [usize; 8] = [0, 0, 1, 2, 4, 5, 7, 9];

/// Whether a queen on `(r1, c1)` attacks the square `(r2, c2)` (a square is counted as
/// attacked by a queen standing on it): same row, column, diagonal or anti-diagonal.
/// The anti-diagonal test `r1 − c1 = r2 − c2` is written as `r1 + c2 = r2 + c1`, which is
/// the same equation without unsigned subtraction.
fn attacks((r1, c1): (usize, usize), (r2, c2): (usize, usize)) -> bool {
    r1 == r2 || c1 == c2 || r1 + c1 == r2 + c2 || r1 + c2 == r2 + c1
}

/// For every square `s = r·cols + c`, the mask of squares that share a line with `s`
/// (including `s` itself).
fn line_masks(rows: usize, cols: usize) -> Vec<u64> {
    let n = rows * cols;
    assert!(n <= 64, "the oracle works on boards of at most 64 squares");
    (0..n)
        .map(|s| {
            (0..n)
                .filter(|&t| attacks((s / cols, s % cols), (t / cols, t % cols)))
                .fold(0u64, |mask, t| mask | 1u64 << t)
        })
        .collect()
}

/// The depth-first enumeration behind [`frontier`]: `cover` is the cover of the white set
/// chosen so far (`count` squares, all of index `< next`); records its free count, then
/// extends it by each square of index `≥ next` in turn.
fn explore(lines: &[u64], next: usize, count: usize, cover: u64, best: &mut [usize]) {
    let free = lines.len() - cover.count_ones() as usize;
    if free > best[count] {
        best[count] = free;
    }
    if free == 0 {
        // Covers only grow when white queens are added, so every superset of this white set
        // also has free count 0, which `best` already holds (it starts at 0 everywhere).
        return;
    }
    for (s, &mask) in lines.iter().enumerate().skip(next) {
        explore(lines, s + 1, count + 1, cover | mask, best);
    }
}

/// The exact frontier of a `rows × cols` board: entry `w` (for `w = 0..=rows·cols`) is the
/// largest number of black queens that can accompany `w` white queens.
///
/// Exhaustiveness. Every white set `W = {s1 < s2 < … < sw}` corresponds to exactly one path of
/// the recursion, the one that picks `s1`, then `s2`, …; the node reached after picking
/// `s1..sk` holds `cover({s1..sk})`, computed as the OR of the line masks. The only cut is at a
/// node whose free count is 0: then for the set `W` through that node, `cover(W)` contains the
/// node's cover (covers are monotone under inclusion), so `free(W) = 0`, and `best[|W|] ≥ 0`
/// holds from the start (`w ≤ rows·cols` white queens always fit alone, with 0 black ones).
/// Every white set not cut is visited and its free count recorded at `best[|W|]`, so each
/// entry is the maximum over all white sets of its size.
///
/// Cost. The nodes expanded are the white sets with a nonzero free count, i.e. those that
/// avoid every line through some square `t`: at most `Σ_t 2^(n − |lines(t)|)` of them, where
/// `|lines(t)| ≥ 16` on 6×6, so a few million nodes on 6×6 (each trying at most 36 children)
/// and far fewer on smaller boards.
fn frontier(rows: usize, cols: usize) -> Vec<usize> {
    let lines = line_masks(rows, cols);
    let mut best = vec![0; rows * cols + 1];
    explore(&lines, 0, 0, 0, &mut best);
    best
}

/// The same frontier as [`frontier`], by the most literal method: every subset of the squares
/// as the white set, and for each square outside it a pairwise check against every white
/// queen. Exponential with no cut, so only for boards of at most 16 squares.
fn frontier_naive(rows: usize, cols: usize) -> Vec<usize> {
    let n = rows * cols;
    assert!(
        n <= 16,
        "the naive oracle is for boards of at most 16 squares"
    );
    let cell = |s: usize| (s / cols, s % cols);
    let mut best = vec![0; n + 1];
    for set in 0u32..1 << n {
        let whites: Vec<usize> = (0..n).filter(|&s| set >> s & 1 == 1).collect();
        let free = (0..n)
            .filter(|&t| set >> t & 1 == 0)
            .filter(|&t| whites.iter().all(|&s| !attacks(cell(s), cell(t))))
            .count();
        let w = whites.len();
        best[w] = best[w].max(free);
    }
    best
}

/// Checks a witness independently: every cell inside the board, no cell twice, the two
/// colours disjoint, at least the demanded number of each colour, and no white queen
/// attacking a black one. Panics with the case in the message otherwise.
fn check_witness(
    rows: usize,
    cols: usize,
    demand: (usize, usize),
    white: &[(usize, usize)],
    black: &[(usize, usize)],
) {
    let case = format!("{rows}x{cols}, {} white, {} black", demand.0, demand.1);
    let mut seen = vec![false; rows * cols];
    for &(r, c) in white.iter().chain(black) {
        assert!(
            r < rows && c < cols,
            "{case}: cell ({r}, {c}) is off the board"
        );
        let s = r * cols + c;
        assert!(
            !seen[s],
            "{case}: cell ({r}, {c}) appears twice in the witness"
        );
        seen[s] = true;
    }
    assert!(
        white.len() >= demand.0,
        "{case}: only {} white queens",
        white.len()
    );
    assert!(
        black.len() >= demand.1,
        "{case}: only {} black queens",
        black.len()
    );
    for &w in white {
        for &b in black {
            assert!(!attacks(w, b), "{case}: white {w:?} attacks black {b:?}");
        }
    }
}

/// Asks the engine whether the armies of `demand` fit peaceably on `rows × cols` with `jobs`
/// worker threads; checks the witness of a `Sat` answer with [`check_witness`] and panics on
/// `Unknown` (no deadline or stop request is ever set here). Square boards are built with
/// `Board::square`, the others with `Board::new`.
fn engine(rows: usize, cols: usize, demand: Demand, jobs: usize) -> bool {
    let (white, black) = (demand.white, demand.black);
    let board = if rows == cols {
        Board::square(rows)
    } else {
        Board::new(rows, cols)
    }
    .expect("a valid board");
    let settings = Settings {
        jobs,
        ..Settings::default()
    };
    let answer = decide(&board, demand, &settings);
    match answer.verdict {
        Verdict::Sat(witness) => {
            check_witness(rows, cols, (white, black), &witness.white, &witness.black);
            true
        }
        Verdict::Unsat => false,
        Verdict::Unknown(_) => {
            panic!("{rows}x{cols}, {white} white, {black} black: Unknown without a deadline")
        }
    }
}

/// Compares the engine with the oracle on one board for every demand in `demands`,
/// collecting all disagreements before failing.
fn compare(rows: usize, cols: usize, demands: impl IntoIterator<Item = (usize, usize)>) {
    let f = frontier(rows, cols);
    let mut wrong = Vec::new();
    for (w, b) in demands {
        let expected = f[w] >= b;
        let demand = if w == b {
            Demand::equal(w)
        } else {
            Demand { white: w, black: b }
        };
        let got = engine(rows, cols, demand, 1);
        if got != expected {
            wrong.push(format!(
                "{rows}x{cols} ({w} white, {b} black): engine says {}, oracle says {} (frontier[{w}] = {})",
                if got { "Sat" } else { "Unsat" },
                if expected { "Sat" } else { "Unsat" },
                f[w],
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "engine disagrees with the oracle:\n{}",
        wrong.join("\n")
    );
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
