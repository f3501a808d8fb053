//! An independent oracle for `pq_lines::crowded` (Dudeney's crowded chessboard on n × n).
//!
//! This file was written from the problem statement alone, without reading the engine's
//! source (`crowded.rs` nor any code it shares), so that the oracle cannot share a mistake
//! with the code it checks. Only the public API of `pq-lines` is used, and nothing is shared
//! with the other oracle files (`oracle.rs`, `armies_oracle.rs`, `torus.rs`, `common/`).
//!
//! The problem: on an n × n board place exactly n queens, n rooks, 2n − 2 bishops and as
//! many knights as possible, at most one piece per square, so that no two pieces *of the
//! same kind* attack each other. Pieces of another kind neither block a line nor are ever
//! attacked, so two sliders of one kind "attack" exactly when they share a line: queens a
//! row, a column, a diagonal (`r + c`) or an anti-diagonal (`r − c`); rooks a row or a
//! column; bishops a diagonal or an anti-diagonal. Two knights attack when they are a
//! (1, 2) leap apart. K(n) is the largest number of knights over all placements of the
//! other pieces. None exists for n = 1 (one square cannot hold a queen and a rook), for
//! n = 2, 3 (no n-queens solution) nor, as the oracle finds, for n = 4: beside either
//! 4-queens solution no 4 rooks and 6 bishops fit together (a literal Python enumeration
//! over all permutations and combinations agreed on n ≤ 5 while this file was written).
//! For those n every k, 0 included, must be Unsat.
//!
//! How the oracle computes K(n): [`best_for_queens`] takes one n-queens solution (every
//! solution is listed by [`queen_solutions`], none is skipped by symmetry), lists every set
//! of 2n − 2 mutually non-attacking bishops on the other squares ([`bishop_sets`]), then
//! every rook permutation on the squares still free ([`rook_sets`]), and takes the maximum
//! independent set of the knight graph on what is left ([`max_knights`], a plain
//! branch-and-bound with two reduction rules — deliberately not a matching/König
//! argument). The pruned variant skips a bishop set whose free squares, before the rooks
//! are placed, already cannot hold more knights than the best found: the independence
//! number only shrinks when squares are removed, so nothing is lost. For n ≤ 7 the pruned
//! and the fully exhaustive variants are compared (n = 8 too, in an ignored test), and
//! [`max_knights`] is checked against a literal recurrence over every subset of the 4 × 4
//! board and 200 000 subsets of the 5 × 5 one. The enumerators are checked against known
//! counts (n-queens solutions and their classes, 2^n bishop placements, n! and
//! derangements for rooks), and every queen solution is searched on its own, so the
//! oracle also checks that symmetric queen solutions get the same best.
//!
//! Witnesses are checked by [`check_witness`], written from the statement (exact counts,
//! squares on the board, all distinct, no same-kind attack, row-major order), and the
//! checker is itself shown to reject one broken witness of each kind.
//!
//! Oracle values (agreeing with the published K(5) = 5, K(6) = 9, K(7) = 15, K(8) = 21):
//! no placement for n = 1..=4; K(5) = 5, K(6) = 9, K(7) = 15, K(8) = 21. Per class of queen
//! solutions: n = 5, {5, none}; n = 7, {15, 15, 15, 15, 15, 14}; n = 8, all twelve 21.
//!
//! The engine is then asked, for n = 1..=8: K(n) and K(n) − 1 Sat with a witness passing the
//! checker, K(n) + 1 Unsat (k = 0..=3 Unsat when nothing fits); per unit, at each class's
//! best and one more, the number of Sat units equals the oracle's count of classes reaching
//! k, and some unit is Sat iff `decide` is; jobs = 2 gives jobs = 1's verdicts. The oracle
//! for n = 8 takes under a second with the workspace's test profile (opt-level 2) and about
//! 6 s unoptimised; it is computed once per run and shared.

use std::collections::{BTreeMap, HashSet};
use std::sync::OnceLock;

use pq_lines::crowded::{Crowded, CrowdedVerdict, CrowdedWitness};
use pq_lines::{Settings, Units};

/// A square as (row, column).
type Sq = (usize, usize);

/// The largest side this oracle handles (squares are bits of a `u64`).
const MAX_N: usize = 8;

/// Bit of square (r, c) on an n × n board.
fn bit(n: usize, r: usize, c: usize) -> u64 {
    1u64 << (r * n + c)
}

/// All squares of the board as a mask.
fn full(n: usize) -> u64 {
    if n * n == 64 {
        u64::MAX
    } else {
        (1u64 << (n * n)) - 1
    }
}

/// Squares of a mask, row-major.
fn squares(n: usize, mask: u64) -> Vec<Sq> {
    (0..n * n)
        .filter(|&i| mask >> i & 1 == 1)
        .map(|i| (i / n, i % n))
        .collect()
}

/// Whether two squares are a knight's (1, 2) leap apart.
fn knight_leap(a: Sq, b: Sq) -> bool {
    let dr = a.0.abs_diff(b.0);
    let dc = a.1.abs_diff(b.1);
    (dr == 1 && dc == 2) || (dr == 2 && dc == 1)
}

/// For each square, the mask of squares a knight's leap away.
fn knight_neighbours(n: usize) -> Vec<u64> {
    let mut nb = vec![0u64; n * n];
    for r in 0..n {
        for c in 0..n {
            for r2 in 0..n {
                for c2 in 0..n {
                    if knight_leap((r, c), (r2, c2)) {
                        nb[r * n + c] |= bit(n, r2, c2);
                    }
                }
            }
        }
    }
    nb
}

/// Maximum independent set of the knight graph restricted to `s` (exact).
///
/// Branch and bound on bitmasks. Two reductions, each of which keeps some maximum
/// independent set: a vertex with no neighbour in `s` is in every maximal set, so take it;
/// a vertex `v` with exactly one neighbour `u` can be taken, because in a maximum set that
/// holds `u` (hence not `v`) we may swap `u` for `v`. Otherwise branch on a vertex `v` of
/// largest degree: either `v` is in the set (drop `v` and its neighbours) or not (drop `v`).
fn max_knights(nb: &[u64], s: u64) -> u32 {
    if s == 0 {
        return 0;
    }
    let mut best_v = usize::MAX;
    let mut best_deg = 0u32;
    let mut rest = s;
    while rest != 0 {
        let v = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let deg = (nb[v] & s).count_ones();
        if deg <= 1 {
            return 1 + max_knights(nb, s & !(nb[v] | 1u64 << v));
        }
        if deg > best_deg {
            best_deg = deg;
            best_v = v;
        }
    }
    let v = best_v;
    let take = 1 + max_knights(nb, s & !(nb[v] | 1u64 << v));
    let leave = max_knights(nb, s & !(1u64 << v));
    take.max(leave)
}

/// The independence number of every subset of an n × n board (n ≤ 5), by the literal
/// recurrence on the lowest square: left out, or taken (and its neighbours dropped).
fn max_knights_table(n: usize) -> Vec<u8> {
    assert!(n <= 5);
    let nb = knight_neighbours(n);
    let size = 1usize << (n * n);
    let mut t = vec![0u8; size];
    for s in 1..size {
        let v = s.trailing_zeros() as usize;
        let without = t[s & !(1 << v)];
        let with = 1 + t[s & !(1 << v) & !(nb[v] as usize)];
        t[s] = without.max(with);
    }
    t
}

/// Every n-queens solution, as masks (none skipped by symmetry).
fn queen_solutions(n: usize) -> Vec<u64> {
    fn go(n: usize, r: usize, cols: u64, d1: u64, d2: u64, mask: u64, out: &mut Vec<u64>) {
        if r == n {
            out.push(mask);
            return;
        }
        for c in 0..n {
            let a = r + c;
            let b = r + n - 1 - c;
            if cols >> c & 1 == 0 && d1 >> a & 1 == 0 && d2 >> b & 1 == 0 {
                go(
                    n,
                    r + 1,
                    cols | 1 << c,
                    d1 | 1 << a,
                    d2 | 1 << b,
                    mask | bit(n, r, c),
                    out,
                );
            }
        }
    }
    let mut out = Vec::new();
    go(n, 0, 0, 0, 0, 0, &mut out);
    out
}

/// Calls `f` on every set of 2n − 2 mutually non-attacking bishops on squares outside
/// `blocked`. The 2n − 1 diagonals `r + c = d` each hold at most one bishop, so such a set
/// leaves exactly one of them empty: walk the diagonals, on each either place one bishop
/// (on a free square whose anti-diagonal is unused) or use the single allowed skip.
fn bishop_sets(n: usize, blocked: u64, f: &mut impl FnMut(u64)) {
    fn go(
        n: usize,
        d: usize,
        skipped: bool,
        anti: u64,
        blocked: u64,
        mask: u64,
        f: &mut impl FnMut(u64),
    ) {
        if d == 2 * n - 1 {
            if skipped {
                f(mask);
            }
            return;
        }
        for r in 0..n {
            if d < r || d - r >= n {
                continue;
            }
            let c = d - r;
            let a = r + n - 1 - c;
            if blocked & bit(n, r, c) == 0 && anti >> a & 1 == 0 {
                go(
                    n,
                    d + 1,
                    skipped,
                    anti | 1 << a,
                    blocked,
                    mask | bit(n, r, c),
                    f,
                );
            }
        }
        if !skipped {
            go(n, d + 1, true, anti, blocked, mask, f);
        }
    }
    go(n, 0, false, 0, blocked, 0, f);
}

/// Calls `f` on every placement of n non-attacking rooks (one per row and column) on
/// squares outside `blocked`.
fn rook_sets(n: usize, blocked: u64, f: &mut impl FnMut(u64)) {
    fn go(n: usize, r: usize, cols: u64, blocked: u64, mask: u64, f: &mut impl FnMut(u64)) {
        if r == n {
            f(mask);
            return;
        }
        for c in 0..n {
            if cols >> c & 1 == 0 && blocked & bit(n, r, c) == 0 {
                go(n, r + 1, cols | 1 << c, blocked, mask | bit(n, r, c), f);
            }
        }
    }
    go(n, 0, 0, blocked, 0, f);
}

/// The oracle's best placement for one queen solution: the most knights and a witness
/// (queens, rooks, bishops, knights masks), or `None` when no rooks and bishops fit.
#[derive(Clone, Copy, Debug)]
struct Best {
    knights: u32,
    queens: u64,
    rooks: u64,
    bishops: u64,
}

/// The best placement with the queens on `queens`; `prune` as in the module docs.
fn best_for_queens(n: usize, nb: &[u64], queens: u64, prune: bool) -> Option<Best> {
    let all = full(n);
    let mut best: Option<Best> = None;
    bishop_sets(n, queens, &mut |bishops| {
        let free = all & !queens & !bishops;
        if prune {
            if let Some(b) = best {
                if max_knights(nb, free) <= b.knights {
                    return;
                }
            }
        }
        rook_sets(n, queens | bishops, &mut |rooks| {
            let k = max_knights(nb, free & !rooks);
            if best.is_none_or(|b| k > b.knights) {
                best = Some(Best {
                    knights: k,
                    queens,
                    rooks,
                    bishops,
                });
            }
        });
    });
    best
}

/// A maximum independent knight set inside `s` with `want` knights (found by plain
/// search, only used to turn the oracle's numbers into a checkable witness).
fn knight_set(nb: &[u64], s: u64, want: u32) -> u64 {
    fn go(nb: &[u64], s: u64, want: u32, chosen: u64) -> Option<u64> {
        if want == 0 {
            return Some(chosen);
        }
        if s == 0 || max_knights(nb, s) < want {
            return None;
        }
        let v = s.trailing_zeros() as usize;
        go(nb, s & !(nb[v] | 1 << v), want - 1, chosen | 1 << v)
            .or_else(|| go(nb, s & !(1 << v), want, chosen))
    }
    go(nb, s, want, 0).expect("the independence number promised this many knights")
}

/// The image of square (r, c) under the board symmetry `t` (0..8).
fn transform(n: usize, t: usize, (r, c): Sq) -> Sq {
    let m = n - 1;
    match t {
        0 => (r, c),
        1 => (c, m - r),
        2 => (m - r, m - c),
        3 => (m - c, r),
        4 => (r, m - c),
        5 => (m - r, c),
        6 => (c, r),
        _ => (m - c, m - r),
    }
}

/// The smallest image of a mask under the eight symmetries (the orbit's name).
fn canonical(n: usize, mask: u64) -> u64 {
    (0..8)
        .map(|t| {
            squares(n, mask)
                .into_iter()
                .map(|sq| {
                    let (r, c) = transform(n, t, sq);
                    bit(n, r, c)
                })
                .fold(0, |a, b| a | b)
        })
        .min()
        .unwrap()
}

/// The oracle's full answer for n: per queen solution, its best placement.
struct Oracle {
    n: usize,
    per_queens: Vec<(u64, Option<Best>)>,
}

impl Oracle {
    fn new(n: usize, prune: bool) -> Oracle {
        assert!((1..=MAX_N).contains(&n));
        let nb = knight_neighbours(n);
        let per_queens = queen_solutions(n)
            .into_iter()
            .map(|q| (q, best_for_queens(n, &nb, q, prune)))
            .collect();
        Oracle { n, per_queens }
    }

    /// K(n), or `None` when no placement of the other pieces exists.
    fn k(&self) -> Option<u32> {
        self.per_queens
            .iter()
            .filter_map(|(_, b)| b.map(|b| b.knights))
            .max()
    }

    /// A witness with K(n) knights, built from the oracle's own search.
    fn witness(&self) -> Option<CrowdedWitness> {
        let n = self.n;
        let nb = knight_neighbours(n);
        let b = self
            .per_queens
            .iter()
            .filter_map(|(_, b)| *b)
            .max_by_key(|b| b.knights)?;
        let left = full(n) & !b.queens & !b.rooks & !b.bishops;
        let knights = knight_set(&nb, left, b.knights);
        Some(CrowdedWitness {
            queens: squares(n, b.queens),
            rooks: squares(n, b.rooks),
            bishops: squares(n, b.bishops),
            knights: squares(n, knights),
        })
    }

    /// Per orbit of queen solutions under the eight symmetries: the best knight count
    /// (`None`: no placement), checking that every member of an orbit agrees.
    fn per_orbit(&self) -> BTreeMap<u64, Option<u32>> {
        let mut orbits: BTreeMap<u64, Option<u32>> = BTreeMap::new();
        for &(q, b) in &self.per_queens {
            let v = b.map(|b| b.knights);
            let prev = orbits.entry(canonical(self.n, q)).or_insert(v);
            assert_eq!(*prev, v, "n = {}: symmetric queens disagree", self.n);
        }
        orbits
    }
}

/// Checks a witness against the statement: n queens, n rooks, 2n − 2 bishops and at least
/// `k` knights, on the board, on distinct squares, row-major sorted, and no two pieces of
/// one kind attacking each other.
fn check_witness(n: usize, k: usize, w: &CrowdedWitness) -> Result<(), String> {
    let kinds: [(&str, &Vec<Sq>); 4] = [
        ("queens", &w.queens),
        ("rooks", &w.rooks),
        ("bishops", &w.bishops),
        ("knights", &w.knights),
    ];
    if w.queens.len() != n {
        return Err(format!("{} queens, want {n}", w.queens.len()));
    }
    if w.rooks.len() != n {
        return Err(format!("{} rooks, want {n}", w.rooks.len()));
    }
    if w.bishops.len() + 2 != 2 * n {
        return Err(format!("{} bishops, want 2n - 2", w.bishops.len()));
    }
    if w.knights.len() < k {
        return Err(format!("{} knights, want at least {k}", w.knights.len()));
    }
    let mut seen = HashSet::new();
    for (name, list) in kinds {
        for &(r, c) in list {
            if r >= n || c >= n {
                return Err(format!("{name}: ({r}, {c}) is off the {n} x {n} board"));
            }
            if !seen.insert((r, c)) {
                return Err(format!("{name}: ({r}, {c}) holds two pieces"));
            }
        }
        if list.windows(2).any(|p| p[0] >= p[1]) {
            return Err(format!("{name}: not sorted row-major: {list:?}"));
        }
    }
    let same_row = |a: Sq, b: Sq| a.0 == b.0;
    let same_col = |a: Sq, b: Sq| a.1 == b.1;
    let same_diag = |a: Sq, b: Sq| a.0 + a.1 == b.0 + b.1;
    let same_anti = |a: Sq, b: Sq| a.0 + b.1 == b.0 + a.1;
    let pairs = |list: &Vec<Sq>, attacks: &dyn Fn(Sq, Sq) -> bool, name: &str| {
        for (i, &a) in list.iter().enumerate() {
            for &b in &list[i + 1..] {
                if attacks(a, b) {
                    return Err(format!("{name}: {a:?} attacks {b:?}"));
                }
            }
        }
        Ok(())
    };
    pairs(
        &w.queens,
        &|a, b| same_row(a, b) || same_col(a, b) || same_diag(a, b) || same_anti(a, b),
        "queens",
    )?;
    pairs(&w.rooks, &|a, b| same_row(a, b) || same_col(a, b), "rooks")?;
    pairs(
        &w.bishops,
        &|a, b| same_diag(a, b) || same_anti(a, b),
        "bishops",
    )?;
    pairs(&w.knights, &knight_leap, "knights")?;
    Ok(())
}

/// The oracle (pruned search) for n, computed once per test binary and shared by the tests.
fn oracle(n: usize) -> &'static Oracle {
    static CACHE: [OnceLock<Oracle>; MAX_N + 1] = [const { OnceLock::new() }; MAX_N + 1];
    CACHE[n].get_or_init(|| Oracle::new(n, true))
}

/// K(n) as this oracle computes it, or `None` when nothing fits.
fn oracle_k(n: usize) -> Option<u32> {
    oracle(n).k()
}

fn settings(jobs: usize) -> Settings<'static> {
    Settings {
        jobs,
        ..Settings::default()
    }
}

/// Sat (with the witness checked) or Unsat; anything else fails the test.
fn engine_sat(n: usize, k: usize, jobs: usize) -> bool {
    let (verdict, _stats) = Crowded::new(n, k).decide(&settings(jobs));
    match verdict {
        CrowdedVerdict::Sat(w) => {
            if let Err(e) = check_witness(n, k, &w) {
                panic!("n = {n}, k = {k}, jobs = {jobs}: bad witness ({e}): {w:?}");
            }
            true
        }
        CrowdedVerdict::Unsat => false,
        CrowdedVerdict::Unknown(why) => {
            panic!("n = {n}, k = {k}, jobs = {jobs}: Unknown ({why:?})")
        }
    }
}

fn unit_sat(c: &Crowded, n: usize, k: usize, i: usize) -> bool {
    let (verdict, _stats) = c.decide_unit(i, &settings(1));
    match verdict {
        CrowdedVerdict::Sat(w) => {
            if let Err(e) = check_witness(n, k, &w) {
                panic!("n = {n}, k = {k}, unit {i}: bad witness ({e}): {w:?}");
            }
            true
        }
        CrowdedVerdict::Unsat => false,
        CrowdedVerdict::Unknown(why) => panic!("n = {n}, k = {k}, unit {i}: Unknown ({why:?})"),
    }
}

// ---------------------------------------------------------------------------------------
// The oracle checked against itself and against literal methods.
// ---------------------------------------------------------------------------------------

#[test]
fn max_knights_matches_the_subset_recurrence() {
    // Every subset of the 4 × 4 board.
    let t4 = max_knights_table(4);
    let nb4 = knight_neighbours(4);
    for s in 0..1u64 << 16 {
        assert_eq!(
            max_knights(&nb4, s),
            u32::from(t4[s as usize]),
            "4x4 {s:#x}"
        );
    }
    // Pseudo-random subsets of the 5 × 5 board, sparse to dense.
    let t5 = max_knights_table(5);
    let nb5 = knight_neighbours(5);
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    for i in 0..200_000u32 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let s = match i % 3 {
            0 => x,
            1 => x | x >> 25,
            _ => x & x >> 25,
        } & full(5);
        assert_eq!(
            max_knights(&nb5, s),
            u32::from(t5[s as usize]),
            "5x5 {s:#x}"
        );
    }
    // Whole boards: the known independence numbers (ceil(n^2 / 2) for n >= 3; 4 for 2 x 2).
    for (n, want) in [
        (1, 1),
        (2, 4),
        (3, 5),
        (4, 8),
        (5, 13),
        (6, 18),
        (7, 25),
        (8, 32),
    ] {
        assert_eq!(max_knights(&knight_neighbours(n), full(n)), want, "n = {n}");
    }
}

#[test]
fn enumerations_have_the_known_sizes() {
    // n-queens solutions (OEIS A000170) and their classes under symmetry (A002562).
    for (n, all, classes) in [
        (1, 1, 1),
        (2, 0, 0),
        (3, 0, 0),
        (4, 2, 1),
        (5, 10, 2),
        (6, 4, 1),
        (7, 40, 6),
        (8, 92, 12),
    ] {
        let sols = queen_solutions(n);
        assert_eq!(sols.len(), all, "n = {n}");
        let orbits: HashSet<u64> = sols.iter().map(|&q| canonical(n, q)).collect();
        assert_eq!(orbits.len(), classes, "n = {n}");
    }
    // 2n - 2 non-attacking bishops on an empty board: 2^n ways (A000079 for n >= 2).
    for n in 2..=8 {
        let mut count = 0u64;
        bishop_sets(n, 0, &mut |b| {
            assert_eq!(b.count_ones() as usize, 2 * n - 2);
            count += 1;
        });
        assert_eq!(count, 1 << n, "n = {n}");
    }
    // Rook permutations on an empty board: n!; avoiding the diagonal: derangements.
    for (n, perms, derangements) in [(1, 1, 0), (4, 24, 9), (5, 120, 44), (6, 720, 265)] {
        let mut count = 0u64;
        rook_sets(n, 0, &mut |_| count += 1);
        assert_eq!(count, perms, "n = {n}");
        let diagonal = (0..n).map(|i| bit(n, i, i)).fold(0, |a, b| a | b);
        let mut count = 0u64;
        rook_sets(n, diagonal, &mut |_| count += 1);
        assert_eq!(count, derangements, "n = {n}");
    }
}

#[test]
fn pruned_oracle_equals_exhaustive_oracle() {
    for n in 1..=7 {
        let pruned = oracle(n);
        let exhaustive = Oracle::new(n, false);
        assert_eq!(pruned.k(), exhaustive.k(), "n = {n}");
        let p: Vec<_> = pruned.per_orbit().into_iter().collect();
        let e: Vec<_> = exhaustive.per_orbit().into_iter().collect();
        assert_eq!(p, e, "n = {n}");
    }
}

/// The n = 8 oracle without its pruning: about 2 s with the workspace's test profile
/// (opt-level 2) but 12 s unoptimised, so left out of the default run.
#[test]
#[ignore = "slow: the exhaustive n = 8 oracle takes 2 s optimised, 12 s at opt-level 0"]
fn pruned_oracle_equals_exhaustive_oracle_n8() {
    let exhaustive = Oracle::new(8, false);
    assert_eq!(exhaustive.k(), Some(21));
    let p: Vec<_> = oracle(8).per_orbit().into_iter().collect();
    let e: Vec<_> = exhaustive.per_orbit().into_iter().collect();
    assert_eq!(p, e);
}

#[test]
fn oracle_values_and_its_witnesses() {
    let want = [None, None, None, None, Some(5), Some(9), Some(15), Some(21)];
    for n in 1..=8 {
        let o = oracle(n);
        assert_eq!(o.k(), want[n - 1], "n = {n}");
        match (o.k(), o.witness()) {
            (Some(k), Some(w)) => check_witness(n, k as usize, &w).unwrap(),
            (None, None) => {}
            other => panic!("n = {n}: {other:?}"),
        }
    }
}

#[test]
fn checker_rejects_broken_witnesses() {
    let good = oracle(6).witness().unwrap();
    check_witness(6, 9, &good).unwrap();
    assert!(check_witness(6, 10, &good).is_err(), "too few knights");
    assert!(check_witness(7, 9, &good).is_err(), "wrong n");

    let mut w = good.clone();
    w.queens.pop();
    assert!(check_witness(6, 9, &w).is_err(), "five queens");
    let mut w = good.clone();
    w.bishops.pop();
    assert!(check_witness(6, 9, &w).is_err(), "nine bishops");
    let mut w = good.clone();
    w.rooks.pop();
    assert!(check_witness(6, 9, &w).is_err(), "five rooks");
    let mut w = good.clone();
    w.knights[0] = (6, 0);
    w.knights.sort_unstable();
    assert!(check_witness(6, 9, &w).is_err(), "off the board");
    let mut w = good.clone();
    w.knights[0] = w.queens[0];
    w.knights.sort_unstable();
    assert!(check_witness(6, 9, &w).is_err(), "a shared square");
    let mut w = good.clone();
    w.knights.reverse();
    assert!(check_witness(6, 9, &w).is_err(), "not sorted");

    // A same-kind attack for each kind: one piece moved onto a free square that its
    // neighbour in the list attacks.
    for kind in 0..4 {
        let mut w = good.clone();
        let list = match kind {
            0 => &mut w.queens,
            1 => &mut w.rooks,
            2 => &mut w.bishops,
            _ => &mut w.knights,
        };
        let a = list[0];
        // Queens and rooks: same row; bishops: same diagonal; knights: a leap away.
        let candidates: Vec<Sq> = (0..6)
            .flat_map(|r| (0..6).map(move |c| (r, c)))
            .filter(|&s| match kind {
                0 | 1 => s.0 == a.0,
                2 => s.0 + s.1 == a.0 + a.1,
                _ => knight_leap(s, a),
            })
            .filter(|s| *s != a)
            .collect();
        let used: HashSet<Sq> = [&good.queens, &good.rooks, &good.bishops, &good.knights]
            .into_iter()
            .flatten()
            .copied()
            .collect();
        let Some(&s) = candidates.iter().find(|s| !used.contains(s)) else {
            continue;
        };
        list[1] = s;
        list.sort_unstable();
        assert!(
            check_witness(6, 9, &w).is_err(),
            "kind {kind}: attack not seen"
        );
    }
}

// ---------------------------------------------------------------------------------------
// The engine against the oracle.
// ---------------------------------------------------------------------------------------

/// For n with no placement of the other pieces, every k is Unsat; otherwise K(n) is Sat
/// with a valid witness and K(n) + 1 is Unsat.
fn engine_matches_oracle(n: usize) {
    match oracle_k(n) {
        None => {
            for k in 0..=3 {
                assert!(
                    !engine_sat(n, k, 1),
                    "n = {n}, k = {k}: no placement exists"
                );
            }
        }
        Some(k) => {
            let k = k as usize;
            assert!(engine_sat(n, k, 1), "n = {n}: K(n) = {k} must be Sat");
            if k > 0 {
                assert!(
                    engine_sat(n, k - 1, 1),
                    "n = {n}: k = {} must be Sat",
                    k - 1
                );
            }
            assert!(
                !engine_sat(n, k + 1, 1),
                "n = {n}: k = {} must be Unsat",
                k + 1
            );
        }
    }
}

#[test]
fn engine_n1_to_3_have_no_placement() {
    for n in 1..=3 {
        engine_matches_oracle(n);
    }
}

#[test]
fn engine_n4() {
    engine_matches_oracle(4);
}

#[test]
fn engine_n5() {
    engine_matches_oracle(5);
}

#[test]
fn engine_n6() {
    engine_matches_oracle(6);
}

#[test]
fn engine_n7() {
    engine_matches_oracle(7);
}

#[test]
fn engine_n8() {
    engine_matches_oracle(8);
}

/// Units are the queen solutions up to symmetry: where anything fits (n ≥ 5) their number
/// matches the oracle's orbits, and for each k the number of Sat units equals the number of
/// orbits whose best reaches k; some unit is Sat iff `decide` is Sat. Where nothing fits
/// (n ≤ 4) the number of units is not pinned (for n = 1 the engine reports 0 units although
/// the 1 × 1 board has one queen solution, which cannot hold the rook), only that no unit
/// is Sat.
#[test]
fn units_agree_with_the_oracle_and_with_decide() {
    for n in 1..=8 {
        let o = oracle(n);
        let orbits = o.per_orbit();
        // The best of each orbit and one more (so the multiset of the units' bests is
        // pinned down), and 0 (Unsat for every unit when nothing fits).
        let mut ks: Vec<usize> = orbits
            .values()
            .flatten()
            .flat_map(|&b| [b as usize, b as usize + 1])
            .collect();
        ks.push(0);
        ks.sort_unstable();
        ks.dedup();
        for k in ks {
            let c = Crowded::new(n, k);
            if o.k().is_some() {
                assert_eq!(c.units(), orbits.len(), "n = {n}: units");
            }
            let sat_units = (0..c.units()).filter(|&i| unit_sat(&c, n, k, i)).count();
            let want = orbits
                .values()
                .filter(|b| b.is_some_and(|b| b as usize >= k))
                .count();
            assert_eq!(sat_units, want, "n = {n}, k = {k}: Sat units");
            assert_eq!(
                sat_units > 0,
                engine_sat(n, k, 1),
                "n = {n}, k = {k}: decide"
            );
        }
    }
}

#[test]
fn two_jobs_agree_with_one() {
    for n in 1..=8 {
        let top = oracle_k(n).map_or(1, |k| k as usize + 1);
        for k in [0, top.saturating_sub(1), top] {
            assert_eq!(
                engine_sat(n, k, 2),
                engine_sat(n, k, 1),
                "n = {n}, k = {k}: jobs 2 vs 1"
            );
        }
    }
}

/// A first pass with a node budget per unit (`Settings::unit_budget`) reorders the work,
/// never the answer: K(n) Sat with a valid witness, K(n) + 1 Unsat, on one and two threads.
#[test]
fn a_first_pass_budget_keeps_every_answer() {
    for n in 5..=8 {
        let k = oracle_k(n).expect("something fits from n = 5") as usize;
        for jobs in [1, 2] {
            let budgeted = Settings {
                jobs,
                unit_budget: Some(1),
                ..Settings::default()
            };
            match Crowded::new(n, k).decide(&budgeted).0 {
                CrowdedVerdict::Sat(w) => check_witness(n, k, &w).unwrap(),
                other => panic!("n = {n}, k = {k}, jobs = {jobs}: {other:?}"),
            }
            let (verdict, _) = Crowded::new(n, k + 1).decide(&budgeted);
            assert_eq!(verdict, CrowdedVerdict::Unsat, "n = {n}, k = {}", k + 1);
        }
    }
}
