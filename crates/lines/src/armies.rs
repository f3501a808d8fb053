//! `k ≥ 3` armies of queens, each of at least `m`, no queen attacking one of another army
//! (OEIS A328283 for three armies of equal size). The same line labelling with `k` labels:
//! each row and column gets an army, a cell can hold army `j` only if its row and column
//! are `j`'s, and labelling a diagonal `j` kills the other armies' cells on it.
//!
//! Simpler than the two-army search, meant for the boards where the problem is posed
//! (up to about 9×9; `--jobs` threads share the row colourings): the row and column colourings are enumerated (each colour needs
//! `|rows_j|·|cols_j| ≥ m`), one pair per orbit under the board's symmetries and every
//! permutation of the armies (all armies demand the same `m`), then the diagonals are
//! labelled depth first with two bounds, both exact: at least `m` live cells per army, and
//! per diagonal family Σ over diagonals of the largest army count ≥ `k·m` (each army's
//! ≥ `m` cells lie on diagonals of its own label).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use crate::board::{low_bits, Board, MAX_DIAG, SUM};
use crate::{Settings, Stats, Stop};

/// The most armies.
pub const MAX_ARMIES: usize = 4;

/// A solution for `k` armies: each army's cells (at least `m` each), row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArmiesWitness {
    /// `cells[j]`: the cells all of whose lines carry army `j`.
    pub cells: Vec<Vec<(usize, usize)>>,
}

/// The answer for `k` armies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArmiesVerdict {
    /// They fit.
    Sat(ArmiesWitness),
    /// They do not.
    Unsat,
    /// Stopped before an answer.
    Unknown(Stop),
}

/// Decides whether `k` armies of at least `m` queens each fit on `board` (plain boards).
pub fn decide_armies(
    board: &Board,
    k: usize,
    m: usize,
    settings: &Settings,
) -> (ArmiesVerdict, Stats) {
    assert!((2..=MAX_ARMIES).contains(&k), "2 to {MAX_ARMIES} armies");
    assert!(!board.is_torus(), "plain boards only");
    let jobs = settings.jobs.max(1);
    let perms = permutations(k);
    let rows: Vec<Vec<u8>> = (colourings(board.rows(), k).into_iter())
        .filter(|r| least_of_own(r, &perms))
        .collect();
    let cols = colourings(board.cols(), k);
    // The threads take row colourings from one queue; the first witness stops them all.
    let next = AtomicUsize::new(0);
    let found = AtomicBool::new(false);
    let result: Mutex<Option<ArmiesVerdict>> = Mutex::new(None);
    let worker = || {
        let mut search = Search {
            board,
            k,
            m: m as i32,
            live: [[[0; MAX_DIAG]; 2]; MAX_ARMIES],
            nodes: 0,
            settings,
            stop: &found,
            found: None,
        };
        let mut pairs = 0;
        'work: while let Some(r) = rows.get(next.fetch_add(1, Ordering::Relaxed)) {
            let row_sets = sets(r, k);
            for c in &cols {
                let col_sets = sets(c, k);
                let enough = (0..k)
                    .all(|j| (row_sets[j].count_ones() * col_sets[j].count_ones()) as usize >= m);
                if !enough || !least_pair(board, r, c, &perms) {
                    continue;
                }
                pairs += 1;
                let verdict = match search.pair(&row_sets, &col_sets) {
                    Ok(false) => continue,
                    Ok(true) => ArmiesVerdict::Sat(search.found.take().expect("a solution")),
                    Err(Stop::Found) => break 'work,
                    Err(stop) => ArmiesVerdict::Unknown(stop),
                };
                found.store(true, Ordering::Relaxed);
                result
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .get_or_insert(verdict);
                break 'work;
            }
        }
        (search.nodes, pairs)
    };
    let mut stats = Stats {
        jobs,
        row_sets: rows.len(),
        ..Stats::default()
    };
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs).map(|_| scope.spawn(worker)).collect();
        for handle in handles {
            let (nodes, pairs) = handle.join().expect("an armies worker panicked");
            stats.nodes += nodes;
            stats.pairs += pairs;
        }
    });
    let verdict = result
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    (verdict.unwrap_or(ArmiesVerdict::Unsat), stats)
}

/// Every assignment of `k` colours to `n` lines, as colour vectors.
fn colourings(n: usize, k: usize) -> Vec<Vec<u8>> {
    let total = k.pow(n as u32);
    (0..total)
        .map(|mut x| {
            (0..n)
                .map(|_| {
                    let c = (x % k) as u8;
                    x /= k;
                    c
                })
                .collect()
        })
        .collect()
}

/// The lines of each colour, as masks.
fn sets(colouring: &[u8], k: usize) -> Vec<u32> {
    let mut out = vec![0u32; k];
    for (i, &c) in colouring.iter().enumerate() {
        out[c as usize] |= 1 << i;
    }
    out
}

/// Every permutation of `0..k`.
fn permutations(k: usize) -> Vec<Vec<u8>> {
    if k == 0 {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for p in permutations(k - 1) {
        for at in 0..=p.len() {
            let mut q = p.clone();
            q.insert(at, (k - 1) as u8);
            out.push(q);
        }
    }
    out
}

/// `colouring` with its colours renamed by `perm`, reversed when `reverse`.
fn image(colouring: &[u8], perm: &[u8], reverse: bool) -> Vec<u8> {
    let mut out: Vec<u8> = colouring.iter().map(|&c| perm[c as usize]).collect();
    if reverse {
        out.reverse();
    }
    out
}

/// Whether the row colouring is least among its own images (reversal, renaming): a least
/// pair's rows must be.
fn least_of_own(r: &[u8], perms: &[Vec<u8>]) -> bool {
    perms.iter().all(|p| {
        [false, true]
            .iter()
            .all(|&rev| r <= image(r, p, rev).as_slice())
    })
}

/// Whether `(r, c)` is least (rows, then columns, lexicographically) among its images under
/// row reversal, column reversal, transposition (square boards) and renaming the armies.
fn least_pair(board: &Board, r: &[u8], c: &[u8], perms: &[Vec<u8>]) -> bool {
    let me = (r, c);
    for p in perms {
        for rr in [false, true] {
            for cr in [false, true] {
                let (a, b) = (image(r, p, rr), image(c, p, cr));
                if (a.as_slice(), b.as_slice()) < me {
                    return false;
                }
                if board.is_square() && (b.as_slice(), a.as_slice()) < me {
                    return false;
                }
            }
        }
    }
    true
}

struct Search<'a> {
    board: &'a Board,
    k: usize,
    m: i32,
    /// `live[j][f][i]`: army `j`'s live cells on diagonal `i` of family `f`, as rows.
    live: [[[u32; MAX_DIAG]; 2]; MAX_ARMIES],
    nodes: u64,
    settings: &'a Settings<'a>,
    /// Raised by the worker that finds a solution (or stops).
    stop: &'a AtomicBool,
    found: Option<ArmiesWitness>,
}

impl Search<'_> {
    /// Searches one pair of colourings: `Ok(true)` with a solution in `found`.
    fn pair(&mut self, rows: &[u32], cols: &[u32]) -> Result<bool, Stop> {
        for j in 0..self.k {
            let (r, c) = (rows[j], cols[j] & low_bits(self.board.cols()));
            self.board.diagonal_masks(r, c, &mut self.live[j]);
        }
        self.dfs()
    }

    fn count(&self, j: usize) -> i32 {
        let nd = self.board.diagonals();
        self.live[j][SUM][..nd]
            .iter()
            .map(|x| x.count_ones() as i32)
            .sum()
    }

    fn feasible(&self) -> bool {
        if (0..self.k).any(|j| self.count(j) < self.m) {
            return false;
        }
        let nd = self.board.diagonals();
        (0..2).all(|f| {
            let total: i32 = (0..nd)
                .map(|i| {
                    (0..self.k)
                        .map(|j| self.live[j][f][i].count_ones() as i32)
                        .max()
                        .unwrap_or(0)
                })
                .sum();
            total >= self.k as i32 * self.m
        })
    }

    fn dfs(&mut self) -> Result<bool, Stop> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(16_384) {
            if self.stop.load(Ordering::Relaxed) {
                return Err(Stop::Found);
            }
            if (self.settings.asked_to_stop)() {
                return Err(Stop::Asked);
            }
            if self.settings.deadline.is_some_and(|d| Instant::now() >= d) {
                return Err(Stop::Deadline);
            }
        }
        if !self.feasible() {
            return Ok(false);
        }
        // The diagonal whose second-largest army is largest.
        let nd = self.board.diagonals();
        let mut best = None;
        let mut best_score = 0;
        for f in 0..2 {
            for i in 0..nd {
                let mut counts: Vec<u32> = (0..self.k)
                    .map(|j| self.live[j][f][i].count_ones())
                    .collect();
                counts.sort_unstable_by(|a, b| b.cmp(a));
                if counts[1] > best_score {
                    best_score = counts[1];
                    best = Some((f, i));
                }
            }
        }
        let Some((f, i)) = best else {
            let cells = (0..self.k)
                .map(|j| {
                    let mut out = Vec::new();
                    for d in 0..nd {
                        let mut rows = self.live[j][SUM][d];
                        while rows != 0 {
                            let r = rows.trailing_zeros() as usize;
                            rows &= rows - 1;
                            out.push((r, self.board.column(SUM, d, r)));
                        }
                    }
                    out.sort_unstable();
                    out
                })
                .collect();
            self.found = Some(ArmiesWitness { cells });
            return Ok(true);
        };
        // Each army present on it, the largest first: labelling it with an absent army
        // would kill every cell on it, never better.
        let mut order: Vec<usize> = (0..self.k).filter(|&j| self.live[j][f][i] != 0).collect();
        order.sort_by_key(|&j| std::cmp::Reverse(self.live[j][f][i].count_ones()));
        for label in order {
            let saved = self.live;
            for j in (0..self.k).filter(|&j| j != label) {
                let mut rows = self.live[j][f][i];
                self.live[j][f][i] = 0;
                while rows != 0 {
                    let r = rows.trailing_zeros() as usize;
                    rows &= rows - 1;
                    let other = self.board.cross(f, i, r);
                    self.live[j][1 - f][other] &= !(1 << r);
                }
            }
            let found = self.dfs();
            self.live = saved;
            if found != Ok(false) {
                return found;
            }
        }
        Ok(false)
    }
}
