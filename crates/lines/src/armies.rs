//! `k ≥ 3` armies of queens, each of at least `m`, no queen attacking one of another army
//! (OEIS A328283 for three armies of equal size). The same line labelling with `k` labels:
//! each row and column gets an army, a cell can hold army `j` only if its row and column
//! are `j`'s, and labelling a diagonal `j` kills the other armies' cells on it.
//!
//! **The search, in three levels.**
//! 1. *Row colourings*, one per orbit under row reversal and renaming the armies (all
//!    armies demand the same `m`): the restricted-growth strings `r` (each army first
//!    appears after the armies numbered below it) with `r ≤ rgs(reverse(r))`. Each is a
//!    unit of work: the threads share them, and [`Armies::decide_unit`] searches one, which
//!    is what `--estimate`'s samples time.
//! 2. *Column colourings*, depth first, column by column, pruned by two running bounds and
//!    by the symmetry's lex order: a column colouring whose relabelled prefix falls below
//!    the row colouring cannot be least under transposition, and the pair must finally be
//!    least among its images under the board's symmetries and every renaming of the armies
//!    (checked exactly at the leaf).
//! 3. *Diagonals*, depth first, each labelled with one of the armies present on it.
//!
//! **The bounds** (both exact: no solution is lost). Army `j` has at most `|R_j| · (|C_j| +
//! free columns)` cells, which must reach `m`. And per diagonal family, a diagonal ends with
//! one label, so it holds cells of one army only: Σ over diagonals of the largest army's
//! possible cells on it (`pot`, cells whose row is that army's and whose column is that
//! army's or still free) bounds the total, which must reach `k·m`. The diagonal level
//! applies the same two bounds to the live cells. This is the counting argument of the
//! two-army engine (the "cap sums" of its bounds) on `k` labels; the line labelling itself
//! is Smith, Petrie & Gent's model (CPAIOR 2004) with `k` colours.

use std::sync::atomic::AtomicBool;

use crate::board::{low_bits, Board, MAX_DIAG, MAX_SIDE, SUM};
use crate::pool;
use crate::{Settings, Stats, Stop, Units, Verdict};

/// The most armies.
pub const MAX_ARMIES: usize = 4;

/// The longest side of a board for three or more armies: their counts per diagonal fit
/// in an `i8` and the column level's state stays small, which matters because it is
/// copied at every node (d = 15's step already costs a CPU-week).
pub const MAX_ARMY_SIDE: usize = 16;

/// The diagonals of one family on a board of side at most [`MAX_ARMY_SIDE`].
const ARMY_DIAG: usize = 2 * MAX_ARMY_SIDE - 1;

/// A solution for `k` armies: each army's cells (at least `m` each), row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArmiesWitness {
    /// `cells[j]`: the cells all of whose lines carry army `j`.
    pub cells: Vec<Vec<(usize, usize)>>,
}

/// The answer for `k` armies.
pub type ArmiesVerdict = crate::Verdict<ArmiesWitness>;

/// Decides whether `k` armies of at least `m` queens each fit on `board` (plain boards).
pub fn decide_armies(
    board: &Board,
    k: usize,
    m: usize,
    settings: &Settings,
) -> (ArmiesVerdict, Stats) {
    Armies::new(board, k, m).decide(settings)
}

/// The search of one question (`k` armies of at least `m` on `board`), split into units of
/// work: the row colourings, one per symmetry orbit.
pub struct Armies {
    /// The board searched: the one asked about, or its transpose when that has fewer
    /// rows (there are `k^rows / k!` row colourings to list).
    board: Board,
    /// Whether `board` is the transpose of the one asked about.
    transposed: bool,
    k: usize,
    m: usize,
    /// Every renaming of the armies.
    perms: Vec<[u8; MAX_ARMIES]>,
    /// The row colourings to search, each least in its orbit.
    rows: Vec<Vec<u8>>,
}

impl Armies {
    /// Lists the row colourings of `k` armies of at least `m` on `board` (plain boards with
    /// sides up to [`MAX_ARMY_SIDE`], `2 ≤ k ≤` [`MAX_ARMIES`]).
    pub fn new(board: &Board, k: usize, m: usize) -> Armies {
        assert!((2..=MAX_ARMIES).contains(&k), "2 to {MAX_ARMIES} armies");
        assert!(!board.is_torus(), "plain boards only");
        assert!(
            board.rows().max(board.cols()) <= MAX_ARMY_SIDE,
            "sides up to {MAX_ARMY_SIDE}"
        );
        let transposed = board.rows() > board.cols();
        let board = if transposed {
            Board::new(board.cols(), board.rows()).expect("the same sides")
        } else {
            board.clone()
        };
        let perms = permutations(k);
        let mut rows = Vec::new();
        if m > 0 {
            let mut r = vec![0u8; board.rows()];
            growth_strings(&mut r, 0, 0, k, &mut |r| {
                if row_worth_searching(&board, k, m, r) {
                    rows.push(r.to_vec());
                }
            });
        }
        Armies {
            board,
            transposed,
            k,
            m,
            perms,
            rows,
        }
    }

    /// Unit `i`: its row colouring (of the board searched, which is the transpose of the
    /// one asked about when that has more rows than columns), army `j` as `j`.
    pub fn unit(&self, i: usize) -> &[u8] {
        &self.rows[i]
    }

    /// Searches unit `i` (`< units()`) alone, on this thread: `Unsat` means no solution
    /// has this row colouring.
    pub fn decide_unit(&self, i: usize, settings: &Settings) -> (ArmiesVerdict, Stats) {
        let never = AtomicBool::new(false);
        let mut search = Search::new(self, settings, &never);
        let searched = match search.row(&self.rows[i]) {
            Ok(found) => Ok(found.then(|| self.turned_back(search.found.take()))),
            Err(stop) => Err(stop),
        };
        ArmiesVerdict::of_unit(searched, search.nodes, search.pairs)
    }
}

impl Units for Armies {
    type Witness = ArmiesWitness;

    fn units(&self) -> usize {
        self.rows.len()
    }

    fn decide_units(
        &self,
        ids: &[usize],
        settings: &Settings,
        finished: &(dyn Fn(usize) + Sync),
    ) -> (Verdict<Self::Witness>, Stats) {
        if self.m == 0 {
            let cells = vec![Vec::new(); self.k];
            let stats = Stats {
                jobs: settings.jobs.max(1),
                row_sets: ids.len(),
                ..Stats::default()
            };
            return (ArmiesVerdict::Sat(ArmiesWitness { cells }), stats);
        }
        let found = AtomicBool::new(false);
        let (outcome, stats) = pool::run(ids, settings, finished, &found, || {
            Search::new(self, settings, &found)
        });
        let verdict = outcome.verdict(
            ArmiesVerdict::Sat,
            ArmiesVerdict::Unsat,
            ArmiesVerdict::Unknown,
        );
        (verdict, stats)
    }
}

impl Armies {
    /// A witness of the board searched, on the board asked about.
    fn turned_back(&self, found: Option<ArmiesWitness>) -> ArmiesWitness {
        let mut w = found.expect("a solution");
        if self.transposed {
            for cells in &mut w.cells {
                for cell in cells.iter_mut() {
                    *cell = (cell.1, cell.0);
                }
                cells.sort_unstable();
            }
        }
        w
    }
}

/// Calls `visit` with every restricted-growth string of length `r.len()` over `k` letters
/// whose positions before `at` are `r[..at]` (`used`: the letters among them).
fn growth_strings(r: &mut [u8], at: usize, used: u8, k: usize, visit: &mut dyn FnMut(&[u8])) {
    if at == r.len() {
        visit(r);
        return;
    }
    for colour in 0..=used.min(k as u8 - 1) {
        r[at] = colour;
        growth_strings(r, at + 1, used.max(colour + 1), k, visit);
    }
}

/// Whether row colouring `r` (a restricted-growth string) is least in its orbit under
/// reversal and renaming, uses every army, and leaves each army enough columns:
/// `|R_j| · |C_j| ≥ m` needs `Σ_j ⌈m / |R_j|⌉ ≤ cols`.
fn row_worth_searching(board: &Board, k: usize, m: usize, r: &[u8]) -> bool {
    let mut counts = [0usize; MAX_ARMIES];
    for &c in r {
        counts[c as usize] += 1;
    }
    if counts[..k].contains(&0) {
        return false;
    }
    let needed: usize = counts[..k].iter().map(|&a| m.div_ceil(a)).sum();
    if needed > board.cols() {
        return false;
    }
    let mut reversed = [0u8; MAX_SIDE];
    let n = r.len();
    for (i, &c) in r.iter().enumerate() {
        reversed[n - 1 - i] = c;
    }
    relabel(&mut reversed[..n]);
    r <= &reversed[..n]
}

/// Renames the letters of `x` in order of first appearance (the least image of `x` under
/// renaming).
fn relabel(x: &mut [u8]) {
    let mut name = [u8::MAX; MAX_ARMIES];
    let mut next = 0;
    for c in x.iter_mut() {
        let slot = &mut name[*c as usize];
        if *slot == u8::MAX {
            *slot = next;
            next += 1;
        }
        *c = *slot;
    }
}

/// Every permutation of `0..k`.
fn permutations(k: usize) -> Vec<[u8; MAX_ARMIES]> {
    let mut out = Vec::new();
    let mut p = [0u8; MAX_ARMIES];
    fn extend(p: &mut [u8; MAX_ARMIES], at: usize, k: usize, out: &mut Vec<[u8; MAX_ARMIES]>) {
        if at == k {
            out.push(*p);
            return;
        }
        for v in 0..k as u8 {
            if !p[..at].contains(&v) {
                p[at] = v;
                extend(p, at + 1, k, out);
            }
        }
    }
    extend(&mut p, 0, k, &mut out);
    out
}

/// `x` with its letters renamed by `perm`, reversed when `reverse`, into `out`.
fn image(x: &[u8], perm: &[u8; MAX_ARMIES], reverse: bool, out: &mut [u8; MAX_SIDE]) {
    let n = x.len();
    for (i, &c) in x.iter().enumerate() {
        out[if reverse { n - 1 - i } else { i }] = perm[c as usize];
    }
}

/// Whether `(r, c)` is least (rows, then columns, lexicographically) among its images under
/// row reversal, column reversal, transposition (square boards) and renaming the armies.
fn least_pair(square: bool, r: &[u8], c: &[u8], perms: &[[u8; MAX_ARMIES]]) -> bool {
    let me = (r, c);
    let (mut a, mut b) = ([0u8; MAX_SIDE], [0u8; MAX_SIDE]);
    for p in perms {
        for rr in [false, true] {
            image(r, p, rr, &mut a);
            for cr in [false, true] {
                image(c, p, cr, &mut b);
                let (a, b) = (&a[..r.len()], &b[..c.len()]);
                if (a, b) < me || (square && (b, a) < me) {
                    return false;
                }
            }
        }
    }
    true
}

/// The sets of armies, as bit masks (`0` unused).
const SETS: usize = 1 << MAX_ARMIES;

/// Adds `delta` (±1) to `counts[owner]` and keeps `caps` (Σ over the diagonals of the
/// largest count among each set's armies) up to date: a set's largest count moves with
/// `owner`'s exactly when `owner`'s is above every other army's of the set (before a
/// decrease, after an increase), that is for the sets of `owner` and armies it is above.
#[inline(always)]
fn bump(counts: &mut [i8; MAX_ARMIES], caps: &mut [i16; SETS], owner: usize, delta: i8, k: usize) {
    let top = if delta < 0 {
        counts[owner]
    } else {
        counts[owner] + 1
    };
    counts[owner] += delta;
    let mut above = 0;
    for (a, &p) in counts[..k].iter().enumerate() {
        if a != owner && top > p {
            above |= 1 << a;
        }
    }
    // Sets of two or more armies only: a single army's cap is its cell count, which the
    // count bound already reads.
    let mut sub = above;
    while sub != 0 {
        caps[sub | 1 << owner] += i16::from(delta);
        sub = (sub - 1) & above;
    }
}

/// The largest of `pot` among the armies of `set`.
fn most(pot: &[i8; MAX_ARMIES], set: usize) -> i32 {
    let among = pot.iter().enumerate().filter(|&(j, _)| set & (1 << j) != 0);
    among.map(|(_, &p)| i32::from(p)).max().unwrap_or(0)
}

/// What the column level's bounds count, for one row colouring and the columns so far.
#[derive(Clone, Copy)]
struct Counts {
    /// How many columns each army has.
    col_count: [i32; MAX_ARMIES],
    /// `pot[f][i][j]`: cells of diagonal `i` of family `f` whose row is army `j`'s and
    /// whose column is `j`'s or not yet coloured.
    pot: [[[i8; MAX_ARMIES]; ARMY_DIAG]; 2],
    /// `cap[f][s]`: Σ over family `f`'s diagonals of the largest `pot` on it among the
    /// armies of the set `s` (a bit mask of two or more armies); those armies' `|s|·m`
    /// cells must fit in it.
    cap: [[i16; SETS]; 2],
    /// `fixed[f][i][j]`: cells of diagonal `i` of family `f` in army `j`'s rows and in
    /// columns already coloured `j`.
    fixed: [[[i8; MAX_ARMIES]; ARMY_DIAG]; 2],
    /// `fixed_cap[f][s]`: Σ over family `f`'s diagonals of the largest `fixed` among the
    /// armies of `s`. An uncoloured column will keep the cells of one army's rows only, at
    /// most `widest[s]` of them: so the armies of `s` end with at most `fixed_cap[f][s] +
    /// free · widest[s]` cells, often less than `cap[f][s]` while most columns are free.
    fixed_cap: [[i16; SETS]; 2],
}

/// One worker's search: a row colouring, its column colourings, their diagonals.
struct Search<'a> {
    armies: &'a Armies,
    board: &'a Board,
    k: usize,
    m: i32,
    /// The row colouring being searched, its armies' rows as masks and their sizes.
    row: &'a [u8],
    row_sets: [u32; MAX_ARMIES],
    row_count: [i32; MAX_ARMIES],
    /// `widest[s]`: the most rows of one army of the set `s`.
    widest: [i32; SETS],
    /// The column colouring so far.
    col: [u8; MAX_SIDE],
    /// The counts the bounds read, saved and restored around each column's colour.
    counts: Counts,
    /// `live[j][f][i]`: army `j`'s live cells on diagonal `i` of family `f`, as rows.
    live: [[[u32; MAX_DIAG]; 2]; MAX_ARMIES],
    nodes: u64,
    /// The node count at which this unit's budget runs out.
    limit: u64,
    pairs: u64,
    settings: &'a Settings<'a>,
    /// Raised by the worker that finds a solution (or stops).
    stop: &'a AtomicBool,
    found: Option<ArmiesWitness>,
}

impl pool::UnitSearch for Search<'_> {
    type Witness = ArmiesWitness;

    fn search(&mut self, i: usize, budget: Option<u64>) -> Result<Option<ArmiesWitness>, Stop> {
        self.limit = budget.map_or(u64::MAX, |b| self.nodes.saturating_add(b));
        let armies = self.armies;
        Ok(self
            .row(&armies.rows[i])?
            .then(|| armies.turned_back(self.found.take())))
    }

    fn counts(&self) -> (u64, u64) {
        (self.nodes, self.pairs)
    }
}

impl<'a> Search<'a> {
    fn new(armies: &'a Armies, settings: &'a Settings<'a>, stop: &'a AtomicBool) -> Self {
        Search {
            armies,
            board: &armies.board,
            k: armies.k,
            m: armies.m as i32,
            row: &[],
            row_sets: [0; MAX_ARMIES],
            row_count: [0; MAX_ARMIES],
            col: [0; MAX_SIDE],
            counts: Counts {
                col_count: [0; MAX_ARMIES],
                pot: [[[0; MAX_ARMIES]; ARMY_DIAG]; 2],
                cap: [[0; SETS]; 2],
                fixed: [[[0; MAX_ARMIES]; ARMY_DIAG]; 2],
                fixed_cap: [[0; SETS]; 2],
            },
            widest: [0; SETS],
            live: [[[0; MAX_DIAG]; 2]; MAX_ARMIES],
            nodes: 0,
            limit: u64::MAX,
            pairs: 0,
            settings,
            stop,
            found: None,
        }
    }

    /// Searches every column colouring with row colouring `row`: `Ok(true)` with a
    /// solution in `found`.
    fn row(&mut self, row: &'a [u8]) -> Result<bool, Stop> {
        self.row = row;
        self.row_sets = [0; MAX_ARMIES];
        self.row_count = [0; MAX_ARMIES];
        for (r, &j) in row.iter().enumerate() {
            self.row_sets[j as usize] |= 1 << r;
            self.row_count[j as usize] += 1;
        }
        self.counts.col_count = [0; MAX_ARMIES];
        self.counts.pot = [[[0; MAX_ARMIES]; ARMY_DIAG]; 2];
        for (r, &j) in row.iter().enumerate() {
            for c in 0..self.board.cols() {
                let (s, d) = self.board.cell_diagonals(r, c);
                self.counts.pot[0][s][j as usize] += 1;
                self.counts.pot[1][d][j as usize] += 1;
            }
        }
        self.counts.fixed = [[[0; MAX_ARMIES]; ARMY_DIAG]; 2];
        self.counts.fixed_cap = [[0; SETS]; 2];
        for set in 1..1 << self.k {
            self.widest[set] = most(&self.row_count.map(|c| c as i8), set);
        }
        let nd = self.board.diagonals();
        for f in 0..2 {
            for set in (1..1usize << self.k).filter(|s| s.count_ones() > 1) {
                self.counts.cap[f][set] = (0..nd)
                    .map(|i| most(&self.counts.pot[f][i], set) as i16)
                    .sum();
            }
        }
        if !self.columns_feasible(self.board.cols()) {
            return Ok(false);
        }
        self.columns(0, true, [u8::MAX; MAX_ARMIES], 0)
    }

    /// Whether the bounds still allow `m` of each army with `free` columns uncoloured.
    fn columns_feasible(&self, free: usize) -> bool {
        let enough = (0..self.k)
            .all(|j| self.row_count[j] * (self.counts.col_count[j] + free as i32) >= self.m);
        let free = free as i32;
        enough
            && (0..2).all(|f| {
                (1..1usize << self.k)
                    .filter(|s| s.count_ones() > 1)
                    .all(|set| {
                        let bound = i32::from(self.counts.cap[f][set]).min(
                            i32::from(self.counts.fixed_cap[f][set]) + free * self.widest[set],
                        );
                        bound >= set.count_ones() as i32 * self.m
                    })
            })
    }

    /// Colours column `c` with army `j`: its cells in army `j`'s rows are fixed, the
    /// others stop counting.
    fn colour(&mut self, c: usize, j: usize) {
        let k = self.k;
        let counts = &mut self.counts;
        for r in 0..self.board.rows() {
            let owner = self.row[r] as usize;
            let (s, d) = self.board.cell_diagonals(r, c);
            for (f, i) in [(0, s), (1, d)] {
                if owner == j {
                    bump(
                        &mut counts.fixed[f][i],
                        &mut counts.fixed_cap[f],
                        owner,
                        1,
                        k,
                    );
                } else {
                    bump(&mut counts.pot[f][i], &mut counts.cap[f], owner, -1, k);
                }
            }
        }
        counts.col_count[j] += 1;
    }

    /// Polls the stop conditions every few thousand nodes.
    fn poll(&mut self) -> Result<(), Stop> {
        self.nodes += 1;
        pool::poll(self.nodes, 16_384, self.stop, self.settings, self.limit)
    }

    /// Colours columns `c..` depth first. On square boards, `equal` says the column
    /// colouring so far, renamed in order of first appearance (`name`, `named` armies
    /// so far), equals the row colouring's prefix: below it, the transposed pair would be
    /// smaller.
    fn columns(
        &mut self,
        c: usize,
        equal: bool,
        name: [u8; MAX_ARMIES],
        named: u8,
    ) -> Result<bool, Stop> {
        self.poll()?;
        let cols = self.board.cols();
        if c == cols {
            let square = self.board.is_square();
            if !least_pair(square, self.row, &self.col[..cols], &self.armies.perms) {
                return Ok(false);
            }
            self.pairs += 1;
            let mut col_sets = [0u32; MAX_ARMIES];
            for (i, &j) in self.col[..cols].iter().enumerate() {
                col_sets[j as usize] |= 1 << i;
            }
            return self.pair(&col_sets);
        }
        let lex = equal && self.board.is_square();
        for j in 0..self.k {
            let (mut name, mut named, mut still_equal) = (name, named, false);
            if lex {
                if name[j] == u8::MAX {
                    name[j] = named;
                    named += 1;
                }
                if name[j] < self.row[c] {
                    continue;
                }
                still_equal = name[j] == self.row[c];
            }
            self.col[c] = j as u8;
            let saved = self.counts;
            self.colour(c, j);
            let found = if self.columns_feasible(cols - c - 1) {
                self.columns(c + 1, still_equal, name, named)
            } else {
                Ok(false)
            };
            self.counts = saved;
            if found != Ok(false) {
                return found;
            }
        }
        Ok(false)
    }

    /// Searches the diagonals of one pair of colourings: `Ok(true)` with a solution in
    /// `found`.
    fn pair(&mut self, cols: &[u32; MAX_ARMIES]) -> Result<bool, Stop> {
        for (j, &c) in cols.iter().enumerate().take(self.k) {
            let (r, c) = (self.row_sets[j], c & low_bits(self.board.cols()));
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
        self.poll()?;
        if !self.feasible() {
            return Ok(false);
        }
        // The diagonal whose second-largest army is largest.
        let nd = self.board.diagonals();
        let mut best = None;
        let mut best_score = 0;
        for f in 0..2 {
            for i in 0..nd {
                let mut counts = [0u32; MAX_ARMIES];
                for (j, count) in counts.iter_mut().enumerate().take(self.k) {
                    *count = self.live[j][f][i].count_ones();
                }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every colouring of `n` lines with `k` letters.
    fn all(n: usize, k: usize) -> Vec<Vec<u8>> {
        (0..k.pow(n as u32))
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

    /// The row colourings are exactly one per orbit under reversal and renaming among
    /// those using every army (with `m = 1`, no count rules anything out).
    #[test]
    fn one_row_colouring_per_orbit() {
        for (n, k) in [(4, 3), (5, 3), (6, 3), (5, 4)] {
            let board = Board::new(n, 12).unwrap();
            let armies = Armies::new(&board, k, 1);
            let perms = permutations(k);
            let mut orbits = std::collections::BTreeSet::new();
            for r in all(n, k) {
                if (0..k as u8).all(|j| r.contains(&j)) {
                    let mut least = r.clone();
                    let mut buf = [0u8; MAX_SIDE];
                    for p in &perms {
                        for rev in [false, true] {
                            image(&r, p, rev, &mut buf);
                            least = least.min(buf[..n].to_vec());
                        }
                    }
                    orbits.insert(least);
                }
            }
            let listed: std::collections::BTreeSet<_> = armies.rows.iter().cloned().collect();
            assert_eq!(listed.len(), armies.rows.len(), "no row colouring twice");
            assert_eq!(listed, orbits, "{n} rows, {k} armies");
        }
    }

    /// The units together give the whole answer: a step is SAT iff some unit is.
    #[test]
    fn the_units_add_up_to_the_answer() {
        let board = Board::square(7).unwrap();
        for m in [3, 4] {
            let armies = Armies::new(&board, 3, m);
            let (whole, _) = armies.decide(&Settings::default());
            let any = (0..armies.units()).any(|i| {
                matches!(
                    armies.decide_unit(i, &Settings::default()).0,
                    ArmiesVerdict::Sat(_)
                )
            });
            assert_eq!(matches!(whole, ArmiesVerdict::Sat(_)), any, "m = {m}");
        }
    }
}
