//! An independent oracle for `pq_lines::armies` (k armies of queens).
//!
//! This file was written from the problem statement alone, without reading the engine's
//! source (nor that of the crates it shares code with), so that the oracle cannot share a
//! mistake with the code it checks. Only the public API of `pq-lines` is used, and nothing
//! is shared with the other oracle files (`oracle.rs`, `torus.rs`, `common/`).
//!
//! The problem: on a board of `rows × cols` squares, place `k` armies of queens, at most one
//! piece per square, each army with at least `m` queens, so that no queen attacks a queen of
//! a *different* army. A queen attacks every square on its row, its column, its diagonal
//! (`r + c` constant) and its anti-diagonal (`r − c` constant); pieces in between do not
//! block. Queens of the same army may attack each other freely.
//!
//! How the oracle works. Two facts make the question monotone in `m`: removing a queen never
//! creates an attack, so if armies of at least `m` fit then armies of exactly `m` fit, and so
//! do armies of exactly `m − 1`. [`fits`] therefore decides "do `k` armies of exactly `m`
//! fit?" and [`best`] raises `m` from 1 until [`fits`] says no.
//!
//! [`fits`] is a depth-first search over the squares in row-major order, giving each square
//! in turn to one of the armies or leaving it empty; the documentation of [`Search`] states
//! its two cuts (a symmetry rule on the army labels and a counting bound) and why neither
//! loses a solution. [`best_naive`] recomputes [`best`] by the most literal method (all
//! `(k + 1)^(rows·cols)` assignments of squares to "empty" or an army, checked pairwise with
//! [`attacks`]) on boards of at most 9 squares, to check the oracle itself.
//!
//! The engine is then compared with the oracle for two, three and four armies on every board
//! of at most 36 squares with sides up to 16, the engine's range (tall, thin ones included:
//! the engine lists the colourings of the shorter side), on the squares up to 8×8 for three
//! armies and on 7×7 for two and four; for each, every `m` from 0 to `best + 1` (`Sat` up to `best`,
//! `Unsat` at `best + 1`). Every `Sat` witness is checked by this file's own attack test;
//! verdicts with two jobs are compared with those with one; the independent units of
//! [`Armies`] are checked to add up to the whole step; and the known values of OEIS A328283
//! (three equal armies on a d×d board, d = 1..=7) are checked with the engine alone.

use pq_lines::armies::{decide_armies, Armies, ArmiesVerdict, ArmiesWitness, MAX_ARMY_SIDE};
use pq_lines::{Board, Settings, Units};

/// A cell of the board as `(row, col)`.
type Cell = (usize, usize);

/// The most armies the engine (and [`Search`]) handles.
const MAX_ARMIES: usize = 4;

/// OEIS A328283, a(1..=7): the largest `m` such that three armies of `m` queens each fit
/// peaceably on a d×d board.
const A328283: [usize; 7] = [0, 0, 0, 1, 1, 2, 3];

/// OEIS A250000, a(1..=6): the largest `m` such that two armies of `m` queens each fit
/// peaceably on a d×d board (used only to check the oracle with `k = 2`).
const A250000: [usize; 6] = [0, 0, 1, 2, 4, 5];

/// Whether a queen on `(r1, c1)` attacks the square `(r2, c2)` (a square counts as attacked
/// by a queen standing on it): same row, column, diagonal or anti-diagonal. The anti-diagonal
/// test `r1 − c1 = r2 − c2` is written as `r1 + c2 = r2 + c1`, the same equation without
/// unsigned subtraction.
fn attacks((r1, c1): Cell, (r2, c2): Cell) -> bool {
    r1 == r2 || c1 == c2 || r1 + c1 == r2 + c2 || r1 + c2 == r2 + c1
}

/// For every square `s = r·cols + c` of a `rows × cols` board, the mask of the squares that
/// share a line with `s` (including `s` itself, since [`attacks`] holds for a queen's own
/// square).
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

/// The depth-first search behind [`fits`]: `k` armies of exactly `m ≥ 1` queens each.
///
/// A node is a partial assignment of the squares `0..s` (row-major), each empty or given to
/// one army; it holds, per army `j`, `count[j]` (its queens) and `cover[j]` (the OR of the
/// line masks of its squares: every square it attacks, its own squares included). A square
/// `t` may go to army `j` iff no *other* army covers it; since attacking is symmetric, that
/// is exactly "a queen of `j` on `t` attacks no queen of another army". So every node is a
/// valid partial placement, and a leaf with every count at `m` is a solution.
///
/// Exhaustiveness. Without cuts, every assignment of the squares to {empty, army 0..k−1}
/// with valid placements and counts at most `m` is the path that gives square 0 its value,
/// then square 1, …; a solution with exactly `m` per army is such an assignment. The cuts:
///
/// * Symmetry of the labels. Armies are interchangeable (the conditions do not mention
///   their names), so every solution can be relabelled so that the armies, ordered by their
///   first square in row-major order, are 0, 1, 2, …. The search only produces such
///   labellings: a square may go to an army already used (`j < used`) or to the next unused
///   one (`j = used`), never to a later unused one. The relabelled copy of any solution is
///   thus still reached.
/// * Counting bound. Each army `j` still short of `m` can only gain squares of index `≥ s`
///   that no other army covers (`avail[j]`); covers only grow along a path, so `avail[j]`
///   only shrinks. If `count[j] + |avail[j]| < m`, or if the squares in the union of the
///   `avail[j]` (each can serve one army) are fewer than the total still needed, no
///   extension of the node is a solution, and the node is cut.
///
/// An army at `m` takes no more squares (solutions with exactly `m` suffice, see the module
/// documentation).
struct Search<'a> {
    /// Line masks of the squares ([`line_masks`]).
    lines: &'a [u64],
    /// Number of armies, `1..=MAX_ARMIES`.
    k: usize,
    /// Queens per army, at least 1.
    m: usize,
    /// Per army, the squares its queens attack (their own squares included).
    cover: [u64; MAX_ARMIES],
    /// Per army, its queens so far.
    count: [usize; MAX_ARMIES],
    /// Armies `0..used` have at least one queen; the others none.
    used: usize,
}

impl Search<'_> {
    /// The squares covered by the armies other than `j`.
    fn others(&self, j: usize) -> u64 {
        (0..self.k)
            .filter(|&i| i != j)
            .fold(0, |mask, i| mask | self.cover[i])
    }

    /// Whether the partial assignment of the squares `0..s` extends to a solution.
    fn extend(&mut self, s: usize) -> bool {
        let n = self.lines.len();
        let all = if n == 64 { !0 } else { (1u64 << n) - 1 };
        let undecided = (!0u64).checked_shl(s as u32).unwrap_or(0) & all;
        let mut needed = 0;
        let mut union = 0;
        for j in 0..self.k {
            let need = self.m - self.count[j];
            if need == 0 {
                continue;
            }
            let avail = undecided & !self.others(j);
            if (avail.count_ones() as usize) < need {
                return false;
            }
            needed += need;
            union |= avail;
        }
        if needed == 0 {
            return true;
        }
        if (union.count_ones() as usize) < needed {
            return false;
        }
        // Some army still needs a square of index ≥ s, and the bound found one: s < n.
        let bit = 1u64 << s;
        for j in 0..self.k.min(self.used + 1) {
            if self.count[j] == self.m || self.others(j) & bit != 0 {
                continue;
            }
            let (cover, used) = (self.cover[j], self.used);
            self.cover[j] |= self.lines[s];
            self.count[j] += 1;
            if j == self.used {
                self.used += 1;
            }
            let found = self.extend(s + 1);
            self.cover[j] = cover;
            self.count[j] -= 1;
            self.used = used;
            if found {
                return true;
            }
        }
        // Square s left empty.
        self.extend(s + 1)
    }
}

/// Whether `k` armies of `m` queens each fit peaceably on the board whose line masks are
/// `lines` (exhaustive: see [`Search`]). `m = 0` always fits.
fn fits(lines: &[u64], k: usize, m: usize) -> bool {
    assert!((1..=MAX_ARMIES).contains(&k));
    if m == 0 {
        return true;
    }
    let mut search = Search {
        lines,
        k,
        m,
        cover: [0; MAX_ARMIES],
        count: [0; MAX_ARMIES],
        used: 0,
    };
    search.extend(0)
}

/// The largest `m` such that `k` armies of `m` queens each fit peaceably on `rows × cols`:
/// [`fits`] for `m = 1, 2, …` until it fails (the question is monotone in `m`).
fn best(rows: usize, cols: usize, k: usize) -> usize {
    let lines = line_masks(rows, cols);
    let mut m = 0;
    while fits(&lines, k, m + 1) {
        m += 1;
    }
    m
}

/// The same as [`best`], by the most literal method: every assignment of the squares to
/// "empty" or one of the `k` armies (a number in base `k + 1`, one digit per square), kept if
/// no two queens of different armies are related by [`attacks`], scored by its smallest
/// army. Boards of at most 9 squares.
fn best_naive(rows: usize, cols: usize, k: usize) -> usize {
    let n = rows * cols;
    assert!(
        n <= 9,
        "the naive oracle is for boards of at most 9 squares"
    );
    let cell = |s: usize| (s / cols, s % cols);
    let base = k + 1;
    let mut best = 0;
    let mut army = vec![0; n];
    for code in 0..base.pow(n as u32) {
        let mut rest = code;
        for digit in &mut army {
            *digit = rest % base;
            rest /= base;
        }
        let peaceful = (0..n).all(|s| {
            (0..n).all(|t| {
                army[s] == 0 || army[t] == 0 || army[s] == army[t] || !attacks(cell(s), cell(t))
            })
        });
        if peaceful {
            let smallest = (1..=k)
                .map(|j| army.iter().filter(|&&a| a == j).count())
                .min()
                .unwrap_or(0);
            best = best.max(smallest);
        }
    }
    best
}

/// Checks a witness for `k` armies of `m` on the `rows × cols` board independently: exactly
/// `k` armies, every cell on the board, no cell twice (within or across armies), at least
/// `m` cells per army, and no two cells of different armies related by [`attacks`]. Panics
/// with the case in the message otherwise.
fn check_witness(rows: usize, cols: usize, k: usize, m: usize, witness: &ArmiesWitness) {
    let case = format!("{rows}x{cols}, k = {k}, m = {m}");
    let cells = &witness.cells;
    assert_eq!(
        cells.len(),
        k,
        "{case}: the witness has {} armies",
        cells.len()
    );
    let mut seen = vec![false; rows * cols];
    for (j, army) in cells.iter().enumerate() {
        for &(r, c) in army {
            assert!(
                r < rows && c < cols,
                "{case}: army {j}'s cell ({r}, {c}) is off the board"
            );
            let s = r * cols + c;
            assert!(
                !seen[s],
                "{case}: cell ({r}, {c}) appears twice in the witness"
            );
            seen[s] = true;
        }
        assert!(
            army.len() >= m,
            "{case}: army {j} has only {} cells",
            army.len()
        );
    }
    for (i, a) in cells.iter().enumerate() {
        for (j, b) in cells.iter().enumerate().skip(i + 1) {
            for &p in a {
                for &q in b {
                    assert!(
                        !attacks(p, q),
                        "{case}: army {i}'s cell {p:?} attacks army {j}'s cell {q:?}"
                    );
                }
            }
        }
    }
}

/// The board `rows × cols`: `Board::square` for squares, `Board::new` for the others.
fn board(rows: usize, cols: usize) -> Board {
    if rows == cols {
        Board::square(rows)
    } else {
        Board::new(rows, cols)
    }
    .expect("a valid board")
}

/// Turns a verdict into "fits?", checking a `Sat` witness with [`check_witness`]; `Unknown`
/// (no deadline or stop is ever set here) is a panic.
fn judge(rows: usize, cols: usize, k: usize, m: usize, verdict: ArmiesVerdict) -> bool {
    match verdict {
        ArmiesVerdict::Sat(witness) => {
            check_witness(rows, cols, k, m, &witness);
            true
        }
        ArmiesVerdict::Unsat => false,
        ArmiesVerdict::Unknown(stop) => {
            panic!("{rows}x{cols}, k = {k}, m = {m}: Unknown ({stop:?}) with no deadline")
        }
    }
}

/// Asks the engine whether `k` armies of `m` fit on `rows × cols` with `jobs` threads.
fn engine(rows: usize, cols: usize, k: usize, m: usize, jobs: usize) -> bool {
    let settings = Settings {
        jobs,
        ..Settings::default()
    };
    let (verdict, _stats) = decide_armies(&board(rows, cols), k, m, &settings);
    judge(rows, cols, k, m, verdict)
}

/// Compares the engine with the oracle on every board of `boards` for `k` armies and every
/// `m = 0..=best + 1`, collecting all disagreements before failing.
fn compare(boards: &[(usize, usize)], k: usize) {
    let mut wrong = Vec::new();
    for &(rows, cols) in boards {
        let b = best(rows, cols, k);
        for m in 0..=b + 1 {
            let expected = m <= b;
            let got = engine(rows, cols, k, m, 1);
            if got != expected {
                wrong.push(format!(
                    "{rows}x{cols}, k = {k}, m = {m}: expected {}, engine says {}",
                    if expected { "Sat" } else { "Unsat" },
                    if got { "Sat" } else { "Unsat" },
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "disagreements:\n{}", wrong.join("\n"));
}

/// Every board `rows × cols` with `rows, cols ≥ 1` and at most `n` squares (sides at most
/// [`MAX_ARMY_SIDE`], the engine's range for armies).
fn boards_up_to(n: usize) -> Vec<(usize, usize)> {
    let side = MAX_ARMY_SIDE;
    (1..=n.min(side))
        .flat_map(|rows| (1..=(n / rows).min(side)).map(move |cols| (rows, cols)))
        .collect()
}

/// The witness checker itself accepts a hand-checked peaceable placement of three armies of
/// one on 4×4: (0, 0), (1, 2) and (3, 1) share no line.
#[test]
fn witness_checker_accepts_a_peaceable_placement() {
    let witness = ArmiesWitness {
        cells: vec![vec![(0, 0)], vec![(1, 2)], vec![(3, 1)]],
    };
    check_witness(4, 4, 3, 1, &witness);
}

/// The witness checker itself accepts same-army attacks: (0, 0) and (0, 1) share a row but
/// are in one army, and (1, 3) is on none of their lines.
#[test]
fn witness_checker_accepts_same_army_attacks() {
    let witness = ArmiesWitness {
        cells: vec![vec![(0, 0), (0, 1)], vec![(1, 3)]],
    };
    check_witness(3, 4, 2, 1, &witness);
}

/// The witness checker itself rejects two armies on a common anti-diagonal (`r − c`
/// constant) two squares apart.
#[test]
#[should_panic(expected = "attacks")]
fn witness_checker_rejects_an_attack() {
    let witness = ArmiesWitness {
        cells: vec![vec![(0, 0)], vec![(2, 2)], vec![(1, 3)]],
    };
    check_witness(4, 4, 3, 1, &witness);
}

/// The witness checker itself rejects a cell given to two armies.
#[test]
#[should_panic(expected = "appears twice")]
fn witness_checker_rejects_a_shared_cell() {
    let witness = ArmiesWitness {
        cells: vec![vec![(0, 0)], vec![(0, 0)], vec![(1, 2)]],
    };
    check_witness(4, 4, 3, 1, &witness);
}

/// The witness checker itself rejects an army that is too small.
#[test]
#[should_panic(expected = "has only")]
fn witness_checker_rejects_a_small_army() {
    let witness = ArmiesWitness {
        cells: vec![vec![(0, 0), (0, 1)], vec![(1, 3)], vec![(3, 2)]],
    };
    check_witness(4, 4, 3, 2, &witness);
}

/// The witness checker itself rejects a cell off the board.
#[test]
#[should_panic(expected = "off the board")]
fn witness_checker_rejects_an_outside_cell() {
    let witness = ArmiesWitness {
        cells: vec![vec![(0, 0)], vec![(1, 2)], vec![(3, 4)]],
    };
    check_witness(4, 4, 3, 1, &witness);
}

/// The oracle itself: [`best`] equals [`best_naive`] for two, three and four armies on every
/// board of at most 9 squares.
#[test]
fn oracle_matches_naive_enumeration() {
    for (rows, cols) in boards_up_to(9) {
        for k in 2..=4 {
            assert_eq!(
                best(rows, cols, k),
                best_naive(rows, cols, k),
                "{rows}x{cols}, k = {k}"
            );
        }
    }
}

/// The oracle itself: it reproduces A250000 (two armies) for d = 1..=6 and A328283 (three
/// armies) for d = 1..=7, is invariant under transposing the board, and does not grow with
/// the number of armies (dropping an army keeps a placement peaceable).
#[test]
fn oracle_sanity() {
    for d in 1..=7 {
        if d <= 6 {
            assert_eq!(best(d, d, 2), A250000[d - 1], "{d}x{d}, k = 2");
        }
        assert_eq!(best(d, d, 3), A328283[d - 1], "{d}x{d}, k = 3");
    }
    for (rows, cols) in boards_up_to(30) {
        let per_k: Vec<usize> = (2..=4).map(|k| best(rows, cols, k)).collect();
        assert!(
            per_k.windows(2).all(|p| p[0] >= p[1]),
            "{rows}x{cols}: {per_k:?} for k = 2, 3, 4"
        );
        for (k, &b) in (2..=4).zip(&per_k) {
            assert_eq!(
                b,
                best(cols, rows, k),
                "{rows}x{cols} against its transpose"
            );
        }
    }
}

/// Three armies on every board of at most 36 squares, `m = 0..=best + 1`.
#[test]
fn three_armies_small_boards() {
    compare(&boards_up_to(36), 3);
}

/// Three armies on the squares 3×3 to 8×8, `m = 0..=best + 1`.
#[test]
fn three_armies_squares() {
    compare(&[(3, 3), (4, 4), (5, 5), (6, 6), (7, 7), (8, 8)], 3);
}

/// Four armies on every board of at most 36 squares and on 7×7, `m = 0..=best + 1`.
#[test]
fn four_armies_small_boards() {
    let mut boards = boards_up_to(36);
    boards.push((7, 7));
    compare(&boards, 4);
}

/// Two armies (the engine's smallest `k`) on every board of at most 36 squares and on 7×7,
/// `m = 0..=best + 1`.
#[test]
fn two_armies_small_boards() {
    let mut boards = boards_up_to(36);
    boards.push((7, 7));
    compare(&boards, 2);
}

/// Two worker threads give the same verdicts as one (witnesses checked).
#[test]
fn two_jobs_agree_with_one() {
    for (rows, cols, k, m) in [
        (5, 5, 3, 1),
        (5, 5, 3, 2),
        (6, 6, 3, 2),
        (6, 6, 3, 3),
        (4, 4, 4, 1),
        (4, 4, 4, 2),
        (4, 5, 3, 2),
        (7, 7, 3, 3),
        (7, 7, 3, 4),
    ] {
        let one = engine(rows, cols, k, m, 1);
        let two = engine(rows, cols, k, m, 2);
        assert_eq!(
            one, two,
            "{rows}x{cols}, k = {k}, m = {m}: jobs 1 says {one}, jobs 2 says {two}"
        );
    }
}

/// The units of [`Armies`] add up: a step is `Sat` iff some unit is, every `Sat` unit's
/// witness is valid, and no unit is `Unknown`.
#[test]
fn units_add_up() {
    for (rows, cols, k, m) in [
        (4, 4, 3, 1),
        (4, 4, 3, 2),
        (5, 5, 3, 1),
        (5, 5, 3, 2),
        (3, 5, 3, 1),
        (3, 5, 3, 2),
        (4, 4, 4, 1),
        (4, 4, 4, 2),
        (6, 6, 3, 3),
    ] {
        let settings = Settings::default();
        let board = board(rows, cols);
        let armies = Armies::new(&board, k, m);
        // Every unit is decided (not stopping at the first Sat), so that every unit's
        // witness is checked and none may be Unknown.
        let per_unit: Vec<bool> = (0..armies.units())
            .map(|i| judge(rows, cols, k, m, armies.decide_unit(i, &settings).0))
            .collect();
        let some_unit = per_unit.contains(&true);
        let whole = engine(rows, cols, k, m, 1);
        assert_eq!(
            some_unit,
            whole,
            "{rows}x{cols}, k = {k}, m = {m}: {} units say {some_unit}, the step says {whole}",
            armies.units()
        );
        assert_eq!(
            whole,
            m <= best(rows, cols, k),
            "{rows}x{cols}, k = {k}, m = {m}: against the oracle"
        );
    }
}

/// The known values of A328283 for d = 1..=7, with the engine alone: `Sat` at `m = 0` and
/// at `a(d)`, `Unsat` at `a(d) + 1`.
#[test]
fn known_values_a328283() {
    for d in 1..=7 {
        let a = A328283[d - 1];
        assert!(engine(d, d, 3, 0, 1), "{d}x{d}: engine refuses m = 0");
        assert!(
            engine(d, d, 3, a, 1),
            "{d}x{d}: engine finds no three armies of {a}"
        );
        let b = a + 1;
        assert!(
            !engine(d, d, 3, b, 1),
            "{d}x{d}: engine finds three armies of {b}"
        );
    }
}
