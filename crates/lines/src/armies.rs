//! `k ≥ 3` armies of queens, each of at least `m`, no queen attacking one of another army
//! (OEIS A328283 for three armies of equal size). The same line labelling with `k` labels:
//! each row and column gets an army, a cell can hold army `j` only if its row and column
//! are `j`'s, and labelling a diagonal `j` kills the other armies' cells on it.
//!
//! **The search, in three levels.** Colourings are read from both ends of the board
//! inward (lines `0, d − 1, 1, d − 2, …`), so that mirror images compare early.
//! 1. *Row colourings*, one per orbit under row reversal and renaming the armies (all
//!    armies demand the same `m`): the restricted-growth strings `r` in that order (each
//!    army first appears after the armies numbered below it) with `r ≤ rgs(reverse(r))`.
//!    Each is a unit of work: the threads share them, and [`Armies::decide_unit`] searches
//!    one, which is what `--estimate`'s samples time.
//! 2. *Column colourings*, depth first, in the same order, pruned by the bounds below and
//!    by the lex order of three images that keep the row colouring's place: the mirrored
//!    pair (a column colouring above its mirror image is cut once each pair of mirror
//!    columns is coloured), the transposed pair (a column colouring whose renamed prefix
//!    falls below the row colouring) and the pair turned a quarter (the same for the
//!    mirror image). The pair must finally be least among its images under the board's
//!    symmetries and every renaming of the armies (checked exactly at the leaf).
//! 3. *Diagonals*, depth first, each labelled with one of the armies present on it.
//!
//! **The bounds** (all exact: no solution is lost; each has the property test
//! `a_column_node_the_bounds_cut_has_no_solution_below_it`). Write `R_j`, `C_j` for army
//! `j`'s rows and columns, `free` for the columns not yet coloured.
//! - *Columns needed.* Army `j` has at most `|R_j| · |C_j|` cells, so it needs `need_j =
//!   ⌈m / |R_j|⌉ − |C_j|` more columns (at least 0). The free columns go to one army each,
//!   so `Σ_j need_j ≤ free`, and army `j` can take at most `need_j + spare` of them
//!   (`spare = free − Σ_j need_j`).
//! - *Weighted family sums.* For weights `w_j ≥ 0`, `Σ_j w_j · count_j ≥ m · Σ_j w_j`. A
//!   diagonal ends with one label, so only one army's cells on it count: per diagonal
//!   family, `Σ_j w_j · count_j ≤ Σ_i max_j w_j · x_ij` for any `x_ij` at least army `j`'s
//!   final cells on diagonal `i`. Two such `x` are known: `min(pot_ij, fixed_ij + need_j +
//!   spare)` (`pot`: cells in `j`'s rows whose column is `j`'s or free; `fixed`: those whose
//!   column is `j`'s already; a diagonal meets a column once, so each column `j` still takes
//!   adds at most one cell to it), and `fixed_ij` itself plus what the free columns can add:
//!   a column of army `j` raises `Σ_i max_j w_j · fixed_ij` by at most `w_j · |R_j|` (its
//!   `|R_j|` cells lie on distinct diagonals), and army `j` takes at least `need_j` of them.
//!   The weights are every set of two or more armies (weight 1: the "cap sums" of the
//!   two-army engine) and, for three armies, each army doubled against the other two.
//!
//! The diagonal level applies the per-army count and the sum over every army to the live
//! cells. The line labelling itself is Smith, Petrie & Gent's model (CPAIOR 2004) with `k`
//! colours.

use std::sync::atomic::AtomicBool;

use crate::board::{low_bits, Board, MAX_DIAG, MAX_SIDE, SUM};
use crate::pool;
use crate::{Settings, Stats, Stop, Units, Verdict};

/// The most armies.
pub const MAX_ARMIES: usize = 4;

/// The longest side of a board for three or more armies: the column level keeps a count
/// per diagonal in a byte lane, `2 · 16 − 1` diagonals to 32 lanes.
pub const MAX_ARMY_SIDE: usize = 16;

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
    /// The order in which colourings are compared (and columns coloured): the lines from
    /// both ends inward ([`ends_inward`]).
    row_order: Vec<usize>,
    col_order: Vec<usize>,
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
        let (row_order, col_order) = (ends_inward(board.rows()), ends_inward(board.cols()));
        let mut rows = Vec::new();
        if m > 0 {
            let mut s = vec![0u8; board.rows()];
            growth_strings(&mut s, 0, 0, k, &mut |s| {
                let mut r = vec![0u8; s.len()];
                for (&at, &colour) in row_order.iter().zip(s) {
                    r[at] = colour;
                }
                if row_worth_searching(&board, k, m, &r, &row_order) {
                    rows.push(r);
                }
            });
        }
        Armies {
            board,
            transposed,
            k,
            m,
            perms,
            row_order,
            col_order,
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

/// The first line of a k-army search certificate (docs/search-certificate.md, §A5).
pub const CERTIFICATE_MAGIC: &str = "pq-armies-certificate 1";

impl Armies {
    /// The code of unit `i`'s row colouring, `Σ_t r(o_t) · k^(d − 1 − t)` with `o` the
    /// order from both ends inward: units are numbered in code order, and a certificate's
    /// `rows LO HI` is a range of codes.
    pub fn code(&self, i: usize) -> u64 {
        let r = &self.rows[i];
        (self.row_order.iter()).fold(0, |code, &at| code * self.k as u64 + u64::from(r[at]))
    }

    /// `k^d`: the end of the range of codes.
    pub fn codes(&self) -> u64 {
        (self.k as u64).pow(self.board.rows() as u32)
    }

    /// Searches the units whose codes lie in `lo..hi` (all of them: `0..k^d`) and writes
    /// their search certificate (docs/search-certificate.md, §A5) to `out` when none has a
    /// solution: one column tree per unit, in code order, with every cut named by its
    /// rule and every child an orbit test drops named by its test. Units finish in any
    /// order on `settings.jobs` threads; each one's bytes wait in memory until those
    /// before it are written. A Sat or stopped search writes no end, so a checker refuses
    /// what it gets.
    ///
    /// # Errors
    /// A board other than a square one, a range outside `0..=k^d`, or a write that failed
    /// (the search is then stopped).
    pub fn certify(
        &self,
        (lo, hi): (u64, u64),
        settings: &Settings,
        out: &mut (dyn std::io::Write + Send),
    ) -> Result<(ArmiesVerdict, Stats), crate::certificate::CertifyError> {
        use crate::certificate::CertifyError;
        use std::sync::atomic::Ordering;
        if !self.board.is_square() {
            return Err(CertifyError::Board(format!(
                "a {}×{} board, for {} armies",
                self.board.rows(),
                self.board.cols(),
                self.k
            )));
        }
        let all = self.codes();
        if lo > hi || hi > all {
            return Err(CertifyError::Range { lo, hi, all });
        }
        let weights: Vec<String> = (weights(self.k).iter())
            .map(|w| {
                let w: Vec<String> = w[..self.k].iter().map(u8::to_string).collect();
                w.join(":")
            })
            .collect();
        let sizes = vec![self.m.to_string(); self.k].join(" ");
        let group: usize = 8 * (1..=self.k).product::<usize>();
        write!(
            out,
            "{CERTIFICATE_MAGIC}\nboard square {}\narmies {sizes}\nsymmetry {group}\nweights {}\nrows {lo} {hi}\nbegin\n",
            self.board.rows(),
            weights.join(" ")
        )?;
        let ids: Vec<usize> = (0..self.rows.len())
            .filter(|&i| (lo..hi).contains(&self.code(i)))
            .collect();
        let failed = AtomicBool::new(false);
        let asked = || failed.load(Ordering::Relaxed) || (settings.asked_to_stop)();
        let inner = Settings {
            jobs: settings.jobs,
            deadline: settings.deadline,
            asked_to_stop: &asked,
            unit_budget: None,
        };
        // The units' bytes in code order: `rank[i]` is unit `i`'s place among `ids`.
        let rank: std::collections::HashMap<usize, usize> =
            ids.iter().enumerate().map(|(at, &i)| (i, at)).collect();
        let sequencer = std::sync::Mutex::new((
            out,
            0usize,
            std::collections::BTreeMap::<usize, Vec<u8>>::new(),
            0u64,
            None::<std::io::Error>,
        ));
        let pair_nodes = std::sync::atomic::AtomicU64::new(0);
        let sink = |i: usize, bytes: Vec<u8>, pairs: u64| {
            pair_nodes.fetch_add(pairs, Ordering::Relaxed);
            let mut guard = sequencer
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let (out, next, waiting, nodes, error) = &mut *guard;
            waiting.insert(rank[&i], bytes);
            while let Some(bytes) = waiting.remove(next) {
                *next += 1;
                *nodes += bytes.len() as u64;
                if error.is_none() {
                    if let Err(e) = out.write_all(&bytes) {
                        *error = Some(e);
                        failed.store(true, Ordering::Relaxed);
                    }
                }
            }
        };
        let (verdict, stats) = if self.m == 0 {
            self.decide_units(&ids, &inner, &|_| {})
        } else {
            let found = AtomicBool::new(false);
            let (outcome, stats) = pool::run(&ids, &inner, &|_| {}, &found, || Search {
                trace: Some(Vec::new()),
                sink: Some(&sink),
                ..Search::new(self, &inner, &found)
            });
            let verdict = outcome.verdict(
                ArmiesVerdict::Sat,
                ArmiesVerdict::Unsat,
                ArmiesVerdict::Unknown,
            );
            (verdict, stats)
        };
        let (out, next, _, nodes, error) = sequencer
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(e) = error {
            return Err(e.into());
        }
        if verdict == ArmiesVerdict::Unsat {
            out.write_all(&[0xFF])?;
            let pairs = pair_nodes.load(Ordering::Relaxed);
            writeln!(out, "end {next} {pairs} {nodes}")?;
        }
        out.flush()?;
        Ok((verdict, stats))
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

/// Whether row colouring `r` (a restricted-growth string when read in `order`) is least
/// in its orbit under reversal and renaming, read in `order`, uses every army, and leaves
/// each army enough columns: `|R_j| · |C_j| ≥ m` needs `Σ_j ⌈m / |R_j|⌉ ≤ cols`.
fn row_worth_searching(board: &Board, k: usize, m: usize, r: &[u8], order: &[usize]) -> bool {
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
    let n = r.len();
    let (mut me, mut reversed) = ([0u8; MAX_SIDE], [0u8; MAX_SIDE]);
    let identity = [0, 1, 2, 3];
    image(r, &identity, false, order, &mut me[..n]);
    image(r, &identity, true, order, &mut reversed[..n]);
    relabel(&mut reversed[..n]);
    me[..n] <= reversed[..n]
}

/// The lines `0..n` from both ends inward: `0, n − 1, 1, n − 2, …`. Colourings are compared
/// in this order, and columns coloured in it, so that a column colouring can be compared
/// with its mirror image (`c ≤ reverse(c)`, which the least pair of an orbit satisfies) as
/// soon as each pair of mirror columns is coloured, and with the row colouring
/// (transposition) column by column.
fn ends_inward(n: usize) -> Vec<usize> {
    (0..n)
        .map(|t| if t % 2 == 0 { t / 2 } else { n - 1 - t / 2 })
        .collect()
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

/// `x` with its letters renamed by `perm`, reversed when `reverse`, read in `order`, into
/// `out`.
fn image(x: &[u8], perm: &[u8; MAX_ARMIES], reverse: bool, order: &[usize], out: &mut [u8]) {
    let n = x.len();
    for (o, &at) in out.iter_mut().zip(order) {
        *o = perm[x[if reverse { n - 1 - at } else { at }] as usize];
    }
}

/// Whether `(r, c)` is least (rows, then columns, lexicographically, each read in its
/// order) among its images under row reversal, column reversal, transposition (square
/// boards) and renaming the armies.
fn least_pair(
    square: bool,
    (r, c): (&[u8], &[u8]),
    (row_order, col_order): (&[usize], &[usize]),
    perms: &[[u8; MAX_ARMIES]],
) -> bool {
    let (nr, nc) = (r.len(), c.len());
    let (mut mr, mut mc) = ([0u8; MAX_SIDE], [0u8; MAX_SIDE]);
    // `permutations` lists the identity first: the pair itself, read in its orders.
    image(r, &perms[0], false, row_order, &mut mr[..nr]);
    image(c, &perms[0], false, col_order, &mut mc[..nc]);
    let me = (&mr[..nr], &mc[..nc]);
    let (mut a, mut b) = ([0u8; MAX_SIDE], [0u8; MAX_SIDE]);
    let (mut at, mut bt) = ([0u8; MAX_SIDE], [0u8; MAX_SIDE]);
    for p in perms {
        for rr in [false, true] {
            image(r, p, rr, row_order, &mut a[..nr]);
            if square {
                image(r, p, rr, col_order, &mut bt[..nr]);
            }
            for cr in [false, true] {
                image(c, p, cr, col_order, &mut b[..nc]);
                if (&a[..nr], &b[..nc]) < me {
                    return false;
                }
                if square {
                    image(c, p, cr, row_order, &mut at[..nc]);
                    if (&at[..nc], &bt[..nr]) < me {
                        return false;
                    }
                }
            }
        }
    }
    true
}

/// One lane per diagonal of a family: `2 · MAX_ARMY_SIDE − 1` of them, padded to a whole
/// number of vector registers so that the loops over them vectorise.
const LANES: usize = 32;

/// A count per diagonal of one family.
type Lanes = [u8; LANES];

/// The weights of the column level's weighted bounds, one row per bound (armies past `k`
/// unused): every set of two or more armies with weight 1 (the "cap sums"), and for three
/// armies each army doubled against the other two. Σ_j w_j · count_j ≤ Σ over a family's
/// diagonals of max_j w_j · (army `j`'s cells on it), since a diagonal keeps one army's
/// cells; a demand of `m` each needs `m · Σ_j w_j`.
fn weights(k: usize) -> Vec<[u8; MAX_ARMIES]> {
    let mut out = Vec::new();
    // In the order that cuts soonest: every army, then each doubled, then the smaller sets.
    out.push(std::array::from_fn(|j| u8::from(j < k)));
    if k == 3 {
        for j in 0..3 {
            let mut w = [1, 1, 1, 0];
            w[j] = 2;
            out.push(w);
        }
    }
    for set in (1usize..(1 << k) - 1).rev() {
        if set.count_ones() > 1 {
            out.push(std::array::from_fn(|j| u8::from(set & (1 << j) != 0)));
        }
    }
    out
}

/// `Σ_i max_j w_j · lanes[j][i]` over the armies with a weight (`doubled[j]` is
/// `2 · lanes[j]`). The weights of [`weights`] are 0, 1 and 2 only: a larger one would
/// need its own multiple of the lanes, and reading it as 2 would make the cap too small,
/// which would cut nodes that have solutions.
#[inline(always)]
fn weighted_cap(w: &[u8; MAX_ARMIES], lanes: &[Lanes], doubled: &[Lanes]) -> i32 {
    let mut most = [0u8; LANES];
    for (j, &wj) in w.iter().enumerate().take(lanes.len()) {
        let x = match wj {
            0 => continue,
            1 => &lanes[j],
            2 => &doubled[j],
            _ => unreachable!("a weight of {wj}: the lanes hold no multiple but 1 and 2"),
        };
        for (m, &v) in most.iter_mut().zip(x) {
            *m = (*m).max(v);
        }
    }
    most.iter().map(|&v| i32::from(v)).sum()
}

/// Lane-wise `a += b` (`sign` 1) or `a -= b` (`sign` −1), eight lanes to a `u64`: no lane
/// leaves `0..=255` (a count of cells), so no carry crosses into the next.
#[inline(always)]
fn add_lanes(a: &mut Lanes, b: &Lanes, sign: i8) {
    for (x, y) in a.chunks_exact_mut(8).zip(b.chunks_exact(8)) {
        let (u, v) = (
            u64::from_ne_bytes(x.try_into().expect("8 lanes")),
            u64::from_ne_bytes(y.try_into().expect("8 lanes")),
        );
        let sum = if sign > 0 {
            u.wrapping_add(v)
        } else {
            u.wrapping_sub(v)
        };
        x.copy_from_slice(&sum.to_ne_bytes());
    }
}

/// One weighted bound of the column level, for one row colouring.
struct Bound {
    /// The armies' weights `w_j` ([`weights`]).
    w: [u8; MAX_ARMIES],
    /// `w_j · |R_j|`: the most a column of army `j` adds to the weighted fixed cap.
    gain: [i32; MAX_ARMIES],
    /// The largest gain.
    widest: i32,
    /// `m · Σ_j w_j`.
    want: i32,
}

/// What the column level's bounds count, for one row colouring and the columns so far.
struct Counts {
    /// How many columns each army has.
    col_count: [i32; MAX_ARMIES],
    /// `pot[f][j][i]`: cells of diagonal `i` of family `f` whose row is army `j`'s and
    /// whose column is `j`'s or not yet coloured.
    pot: [[Lanes; MAX_ARMIES]; 2],
    /// `fixed[f][j][i]`: cells of diagonal `i` of family `f` in army `j`'s rows and in
    /// columns already coloured `j`.
    fixed: [[Lanes; MAX_ARMIES]; 2],
    /// `column[c][j][f]`: the cells of column `c` in army `j`'s rows, per diagonal of
    /// family `f` (what colouring column `c` adds to `fixed` or takes from `pot`).
    column: Vec<[[Lanes; 2]; MAX_ARMIES]>,
}

/// A column colouring (or its mirror image) read colour by colour against the row
/// colouring, renamed in order of first appearance: the transposed pair is smaller than
/// the pair once the renamed colouring falls below the row colouring.
#[derive(Clone, Copy)]
struct Lex {
    /// Whether the renamed colouring equals the row colouring so far (past that, nothing
    /// more is read).
    equal: bool,
    /// The new name of each army, `u8::MAX` until it appears.
    name: [u8; MAX_ARMIES],
    /// The armies named so far.
    named: u8,
}

impl Lex {
    /// Reads the next `colour` against the row colouring's `row`: false when the renamed
    /// colouring falls below the row colouring.
    fn read(&mut self, colour: u8, row: u8) -> bool {
        if !self.equal {
            return true;
        }
        let slot = &mut self.name[colour as usize];
        if *slot == u8::MAX {
            *slot = self.named;
            self.named += 1;
        }
        self.equal = *slot == row;
        *slot >= row
    }
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
    /// `⌈m / |R_j|⌉`: the columns army `j` needs in all.
    columns_needed: [i32; MAX_ARMIES],
    /// The column level's weighted bounds, for this row colouring.
    bounds: Vec<Bound>,
    /// The column colouring so far.
    col: [u8; MAX_SIDE],
    /// The counts the bounds read, updated and restored around each column's colour.
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
    /// The certificate's bytes of the unit being searched, when one is written
    /// ([`Armies::certify`]); `None` in a plain search.
    trace: Option<Vec<u8>>,
    /// Depth-`cols` column subtrees written (a column leaf, not least, or a diagonal tree),
    /// for the certificate's trailer.
    pair_nodes: u64,
    /// Where a certifying search hands each unit's bytes and pair nodes when the unit has
    /// no solution.
    sink: Option<&'a (dyn Fn(usize, Vec<u8>, u64) + Sync)>,
}

impl pool::UnitSearch for Search<'_> {
    type Witness = ArmiesWitness;

    fn search(&mut self, i: usize, budget: Option<u64>) -> Result<Option<ArmiesWitness>, Stop> {
        self.limit = budget.map_or(u64::MAX, |b| self.nodes.saturating_add(b));
        let armies = self.armies;
        if let Some(trace) = &mut self.trace {
            trace.clear();
        }
        let pair_nodes = self.pair_nodes;
        let found = self.row(&armies.rows[i])?;
        if let (false, Some(sink), Some(trace)) = (found, self.sink, &mut self.trace) {
            sink(i, std::mem::take(trace), self.pair_nodes - pair_nodes);
        }
        Ok(found.then(|| armies.turned_back(self.found.take())))
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
            columns_needed: [0; MAX_ARMIES],
            col: [0; MAX_SIDE],
            counts: Counts {
                col_count: [0; MAX_ARMIES],
                pot: [[[0; LANES]; MAX_ARMIES]; 2],
                fixed: [[[0; LANES]; MAX_ARMIES]; 2],
                column: vec![[[[0; LANES]; 2]; MAX_ARMIES]; armies.board.cols()],
            },
            bounds: Vec::new(),
            live: [[[0; MAX_DIAG]; 2]; MAX_ARMIES],
            nodes: 0,
            limit: u64::MAX,
            pairs: 0,
            settings,
            stop,
            found: None,
            trace: None,
            pair_nodes: 0,
            sink: None,
        }
    }

    /// Writes `byte` to the certificate, when one is written.
    #[inline(always)]
    fn note(&mut self, byte: u8) {
        if let Some(trace) = &mut self.trace {
            trace.push(byte);
        }
    }

    /// Searches every column colouring with row colouring `row`: `Ok(true)` with a
    /// solution in `found`.
    fn row(&mut self, row: &'a [u8]) -> Result<bool, Stop> {
        self.start(row);
        if let Some(cut) = self.column_cut(self.board.cols()) {
            self.note(cut);
            return Ok(false);
        }
        let lex = Lex {
            equal: self.board.is_square(),
            name: [u8::MAX; MAX_ARMIES],
            named: 0,
        };
        self.columns(0, [lex; 2], true)
    }

    /// Sets up the column level for row colouring `row` (every army in it), no column
    /// coloured.
    fn start(&mut self, row: &'a [u8]) {
        self.row = row;
        self.row_sets = [0; MAX_ARMIES];
        self.row_count = [0; MAX_ARMIES];
        for (r, &j) in row.iter().enumerate() {
            self.row_sets[j as usize] |= 1 << r;
            self.row_count[j as usize] += 1;
        }
        let counts = &mut self.counts;
        counts.col_count = [0; MAX_ARMIES];
        counts.pot = [[[0; LANES]; MAX_ARMIES]; 2];
        counts.fixed = [[[0; LANES]; MAX_ARMIES]; 2];
        for (c, column) in counts.column.iter_mut().enumerate() {
            *column = [[[0; LANES]; 2]; MAX_ARMIES];
            for (r, &j) in row.iter().enumerate() {
                let (s, d) = self.board.cell_diagonals(r, c);
                column[j as usize][0][s] += 1;
                column[j as usize][1][d] += 1;
            }
            for (f, pot) in counts.pot.iter_mut().enumerate() {
                for (j, lanes) in pot.iter_mut().enumerate() {
                    add_lanes(lanes, &column[j][f], 1);
                }
            }
        }
        let (row_count, m) = (self.row_count, self.m);
        self.columns_needed = row_count.map(|r| if r > 0 { (m + r - 1) / r } else { 0 });
        self.bounds = (weights(self.k).into_iter())
            .map(|w| {
                let gain: [i32; MAX_ARMIES] =
                    std::array::from_fn(|j| i32::from(w[j]) * row_count[j]);
                Bound {
                    w,
                    gain,
                    widest: gain.iter().copied().max().unwrap_or(0),
                    want: m * w.iter().map(|&x| i32::from(x)).sum::<i32>(),
                }
            })
            .collect();
    }

    /// The first bound that rules out `m` of each army with `free` columns uncoloured, as
    /// its certificate byte (docs/search-certificate.md, §A5: `0x89` the columns needed,
    /// `0xA0 | f << 4 | b` the cap sum and `0xC0 | f << 4 | b` the fixed cap of family `f`
    /// with the `b`-th weights); `None` when none does.
    fn column_cut(&self, free: usize) -> Option<u8> {
        let (k, free) = (self.k, free as i32);
        let counts = &self.counts;
        // The columns each army still needs, `|R_j| · |C_j| ≥ m`: the free columns must
        // cover them all, and an army can take at most its need and the spare ones.
        let mut need = [0i32; MAX_ARMIES];
        let mut needed = 0;
        for (j, n) in need.iter_mut().enumerate().take(k) {
            *n = (self.columns_needed[j] - counts.col_count[j]).max(0);
            needed += *n;
        }
        if needed > free {
            return Some(0x89);
        }
        let spare = free - needed;
        // Army `j`'s cells on a diagonal: at most its `pot`, and at most its `fixed` and
        // one per column it can still take (a diagonal meets a column once). Each also
        // doubled, for the weights 2.
        let mut live = [[[0u8; LANES]; MAX_ARMIES]; 2];
        let mut live2 = live;
        let mut fixed2 = live;
        for f in 0..2 {
            for j in 0..k {
                let room = (need[j] + spare).min(i32::from(u8::MAX / 4)) as u8;
                let (pot, fixed) = (&counts.pot[f][j], &counts.fixed[f][j]);
                for i in 0..LANES {
                    live[f][j][i] = pot[i].min(fixed[i] + room);
                    live2[f][j][i] = 2 * live[f][j][i];
                    fixed2[f][j][i] = 2 * fixed[i];
                }
            }
        }
        for (index, b) in self.bounds.iter().enumerate() {
            // A column of army `j` adds at most `w_j` per cell to the fixed cap, and has
            // `|R_j|` cells.
            let forced: i32 = (0..k).map(|j| need[j] * b.gain[j]).sum();
            let fixed_room = forced + spare * b.widest;
            for f in 0..2 {
                let named = (f as u8) << 4 | index as u8;
                if weighted_cap(&b.w, &live[f][..k], &live2[f][..k]) < b.want {
                    return Some(0xA0 | named);
                }
                if weighted_cap(&b.w, &counts.fixed[f][..k], &fixed2[f][..k]) + fixed_room < b.want
                {
                    return Some(0xC0 | named);
                }
            }
        }
        None
    }

    /// Colours column `c` with army `j` (`sign` 1) or takes that back (`sign` −1): its
    /// cells in army `j`'s rows are fixed, the others stop counting.
    fn colour(&mut self, c: usize, j: usize, sign: i8) {
        let counts = &mut self.counts;
        for (a, cells) in counts.column[c].iter().enumerate().take(self.k) {
            for (f, cells) in cells.iter().enumerate() {
                if a == j {
                    add_lanes(&mut counts.fixed[f][a], cells, sign);
                } else {
                    add_lanes(&mut counts.pot[f][a], cells, -sign);
                }
            }
        }
        counts.col_count[j] += i32::from(sign);
    }

    /// Polls the stop conditions every few thousand nodes.
    fn poll(&mut self) -> Result<(), Stop> {
        self.nodes += 1;
        pool::poll(self.nodes, 16_384, self.stop, self.settings, self.limit)
    }

    /// Colours the columns from the `t`-th of the order on ([`ends_inward`]), depth first.
    /// On square boards, `lex[0]` compares the column colouring so far with the row
    /// colouring (below it, the transposed pair would be smaller) and `lex[1]` its mirror
    /// image (column `c` read as column `cols − 1 − c`; below it, the pair turned a quarter
    /// would be smaller), the mirror image once each pair of mirror columns is coloured.
    /// `mirror_equal` says the colouring so far equals its mirror image: below it, the
    /// mirrored pair would be smaller.
    fn columns(&mut self, t: usize, lex: [Lex; 2], mirror_equal: bool) -> Result<bool, Stop> {
        self.poll()?;
        let cols = self.board.cols();
        let armies = self.armies;
        if t == cols {
            self.pair_nodes += 1;
            let square = self.board.is_square();
            let orders = (&armies.row_order[..], &armies.col_order[..]);
            if !least_pair(square, (self.row, &self.col[..cols]), orders, &armies.perms) {
                self.note(0x8A);
                return Ok(false);
            }
            self.pairs += 1;
            let mut col_sets = [0u32; MAX_ARMIES];
            for (i, &j) in self.col[..cols].iter().enumerate() {
                col_sets[j as usize] |= 1 << i;
            }
            return self.pair(&col_sets);
        }
        self.note(0x88);
        let (order, square) = (&armies.col_order, self.board.is_square());
        let c = order[t];
        // The mirror column, when it is the one coloured just before.
        let mirror = (t % 2 == 1).then(|| order[t - 1]);
        for j in 0..self.k as u8 {
            let mut next = lex;
            // The orbit test that drops this colour, as its certificate byte: 0x8B the
            // transposed pair, 0x8C the pair turned a quarter.
            let dropped = match mirror {
                // Off square boards there is no transposition (and `lex` is never equal).
                _ if !square => None,
                _ if !next[0].read(j, self.row[c]) => Some(0x8B),
                // The mirror image reads this pair of columns the other way round.
                Some(m) => (!(next[1].read(j, self.row[m])
                    && next[1].read(self.col[m], self.row[c])))
                .then_some(0x8C),
                None if t == cols - 1 => (!next[1].read(j, self.row[c])).then_some(0x8C),
                None => None,
            };
            if let Some(byte) = dropped {
                self.note(byte);
                continue;
            }
            let still_mirror = match mirror {
                // Above its mirror image (0x8D).
                Some(m) if mirror_equal && self.col[m] > j => {
                    self.note(0x8D);
                    continue;
                }
                Some(m) => mirror_equal && self.col[m] == j,
                None => mirror_equal,
            };
            self.col[c] = j;
            self.colour(c, j as usize, 1);
            let found = match self.column_cut(cols - t - 1) {
                None => self.columns(t + 1, next, still_mirror),
                Some(cut) => {
                    // A column leaf at depth `cols` is a pair node of the trailer too.
                    self.pair_nodes += u64::from(t + 1 == cols);
                    self.note(cut);
                    Ok(false)
                }
            };
            self.colour(c, j as usize, -1);
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

    /// The first rule that cuts the diagonal node, as its certificate byte: `0x80 | j`
    /// fewer than `m` live cells of army `j`, `0xA0 | f << 4` the sum over family `f` of
    /// each diagonal's largest army (the weights `1:…:1`, the first of [`weights`]).
    fn diagonal_cut(&self) -> Option<u8> {
        if let Some(j) = (0..self.k).find(|&j| self.count(j) < self.m) {
            return Some(0x80 | j as u8);
        }
        let nd = self.board.diagonals();
        (0..2)
            .find(|&f| {
                let total: i32 = (0..nd)
                    .map(|i| {
                        (0..self.k)
                            .map(|j| self.live[j][f][i].count_ones() as i32)
                            .max()
                            .unwrap_or(0)
                    })
                    .sum();
                total < self.k as i32 * self.m
            })
            .map(|f| 0xA0 | (f as u8) << 4)
    }

    fn dfs(&mut self) -> Result<bool, Stop> {
        self.poll()?;
        if let Some(cut) = self.diagonal_cut() {
            self.note(cut);
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
        self.note((f as u8) << 6 | i as u8);
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
        let identity = [0, 1, 2, 3];
        for (n, k) in [(4, 3), (5, 3), (6, 3), (5, 4)] {
            let board = Board::new(n, 12).unwrap();
            let armies = Armies::new(&board, k, 1);
            let perms = permutations(k);
            let natural: Vec<usize> = (0..n).collect();
            // An orbit's name: its least member, read in the natural order.
            let orbit = |r: &[u8]| {
                let mut least = r.to_vec();
                let mut buf = [0u8; MAX_SIDE];
                for p in &perms {
                    for rev in [false, true] {
                        image(r, p, rev, &natural, &mut buf[..n]);
                        least = least.min(buf[..n].to_vec());
                    }
                }
                least
            };
            let orbits: std::collections::BTreeSet<_> = (all(n, k).into_iter())
                .filter(|r| (0..k as u8).all(|j| r.contains(&j)))
                .map(|r| orbit(&r))
                .collect();
            let listed: std::collections::BTreeSet<_> =
                armies.rows.iter().map(|r| orbit(r)).collect();
            assert_eq!(listed.len(), armies.rows.len(), "no orbit twice");
            assert_eq!(listed, orbits, "{n} rows, {k} armies");
            let mut buf = [0u8; MAX_SIDE];
            for r in &armies.rows {
                image(r, &identity, false, &natural, &mut buf[..n]);
                assert_eq!(&buf[..n], &r[..], "the identity image");
            }
        }
    }

    /// The most `m` such that every army keeps `m` cells, over every labelling of the
    /// diagonals, for a full row and column colouring of a `d × d` board: each diagonal
    /// takes one of the armies with a cell on it (another label would keep nothing there).
    fn best_over_diagonals(d: usize, rows: &[u8], cols: &[u8], k: usize) -> usize {
        let mut cells = Vec::new();
        for (r, &a) in rows.iter().enumerate() {
            for (c, &b) in cols.iter().enumerate() {
                if a == b {
                    cells.push((r + c, d + r - c, a as usize));
                }
            }
        }
        let lines = 4 * d;
        let mut choices = vec![Vec::new(); lines];
        for &(x, y, a) in &cells {
            for line in [x, 2 * d + y] {
                if !choices[line].contains(&a) {
                    choices[line].push(a);
                }
            }
        }
        fn go(
            at: usize,
            label: &mut Vec<usize>,
            choices: &[Vec<usize>],
            cells: &[(usize, usize, usize)],
            d: usize,
            k: usize,
        ) -> usize {
            if at == choices.len() {
                let mut count = vec![0; k];
                for &(x, y, a) in cells {
                    if label[x] == a && label[2 * d + y] == a {
                        count[a] += 1;
                    }
                }
                return count.into_iter().min().unwrap_or(0);
            }
            if choices[at].is_empty() {
                return go(at + 1, label, choices, cells, d, k);
            }
            let mut best = 0;
            for &a in &choices[at] {
                label[at] = a;
                best = best.max(go(at + 1, label, choices, cells, d, k));
            }
            best
        }
        go(0, &mut vec![usize::MAX; lines], &choices, &cells, d, k)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

        /// A node of the column level that its bounds cut has no solution below it: no
        /// colouring of the free columns and labelling of the diagonals gives every army
        /// `m` cells.
        #[test]
        fn a_column_node_the_bounds_cut_has_no_solution_below_it(
            d in 4usize..=6,
            seed in proptest::collection::vec(0u8..3, 12),
            free in 0usize..=3,
            m in 1usize..=4,
        ) {
            let k = 3;
            let (rows, prefix) = (&seed[..d], &seed[6..6 + d - free]);
            proptest::prop_assume!((0..k as u8).all(|j| rows.contains(&j)));
            let board = Board::square(d).unwrap();
            let armies = Armies::new(&board, k, m);
            let settings = Settings::default();
            let never = AtomicBool::new(false);
            let mut search = Search::new(&armies, &settings, &never);
            search.start(rows);
            for (c, &j) in prefix.iter().enumerate() {
                search.colour(c, j as usize, 1);
            }
            if search.column_cut(d - prefix.len()).is_some() {
                let free = d - prefix.len();
                let mut cols = prefix.to_vec();
                cols.resize(d, 0);
                for x in 0..k.pow(free as u32) {
                    let mut y = x;
                    for col in cols.iter_mut().skip(prefix.len()) {
                        *col = (y % k) as u8;
                        y /= k;
                    }
                    let best = best_over_diagonals(d, rows, &cols, k);
                    proptest::prop_assert!(best < m, "rows {rows:?} columns {cols:?} keep {best} of each");
                }
            }
        }
    }

    fn certificate(
        d: usize,
        k: usize,
        m: usize,
        range: Option<(u64, u64)>,
        jobs: usize,
    ) -> (ArmiesVerdict, Vec<u8>) {
        let armies = Armies::new(&Board::square(d).unwrap(), k, m);
        let settings = Settings {
            jobs,
            ..Settings::default()
        };
        let mut out = Vec::new();
        let range = range.unwrap_or((0, armies.codes()));
        let (verdict, _) = armies.certify(range, &settings, &mut out).unwrap();
        (verdict, out)
    }

    /// The body between `begin` and the `0xFF` byte, and the trailer's counts.
    fn body(cert: &[u8]) -> (Vec<u8>, [u64; 3]) {
        let begin = String::from_utf8_lossy(cert).find("begin\n").unwrap() + 6;
        let end = cert.iter().rposition(|&b| b == 0xFF).unwrap();
        let trailer = std::str::from_utf8(&cert[end + 1..]).unwrap();
        let counts: Vec<u64> = trailer
            .strip_prefix("end ")
            .and_then(|t| t.strip_suffix('\n'))
            .unwrap()
            .split(' ')
            .map(|w| w.parse().unwrap())
            .collect();
        (cert[begin..end].to_vec(), counts.try_into().unwrap())
    }

    /// Three armies of 3 do not fit on 6 × 6 (A328283: 2): the certificate's header is the
    /// format's, its body's bytes are its nodes and each is a node of the format, and it
    /// uses every kind of node a column tree has.
    #[test]
    fn a_k_army_certificate_is_as_the_format_says() {
        let (verdict, cert) = certificate(6, 3, 3, None, 1);
        assert_eq!(verdict, ArmiesVerdict::Unsat);
        let text = String::from_utf8_lossy(&cert);
        assert!(text.starts_with(
            "pq-armies-certificate 1\nboard square 6\narmies 3 3 3\nsymmetry 48\nweights 1:1:1 2:1:1 1:2:1 1:1:2 0:1:1 1:0:1 1:1:0\nrows 0 729\nbegin\n"
        ), "{text}");
        let (body, [rows, pairs, nodes]) = body(&cert);
        assert_eq!(nodes, body.len() as u64);
        let armies = Armies::new(&Board::square(6).unwrap(), 3, 3);
        assert_eq!(rows, armies.units() as u64);
        assert!(pairs > 0);
        let valid = |b: u8| {
            b < 0x80 && (b & 0x3F) <= 10
                || (0x80..=0x82).contains(&b)
                || (0x88..=0x8D).contains(&b)
                || (0xA0..=0xA6).contains(&b)
                || (0xB0..=0xB6).contains(&b)
                || (0xC0..=0xC6).contains(&b)
                || (0xD0..=0xD6).contains(&b)
        };
        assert!(body.iter().all(|&b| valid(b)), "an invalid byte");
        for kind in [0x88, 0x89, 0x8A, 0x8B, 0x8C, 0x8D] {
            assert!(body.contains(&kind), "no node {kind:#x}");
        }
        let (verdict, cert) = certificate(6, 3, 2, None, 1);
        assert!(matches!(verdict, ArmiesVerdict::Sat(_)));
        assert!(!cert.contains(&0xFF));
    }

    /// Threads write the same certificate, and two ranges of codes that split `0..k^d`
    /// write bodies that join into the whole one, their counts adding up.
    #[test]
    fn threads_and_ranges_write_the_same_k_army_trees() {
        for (d, k, m) in [(7, 3, 4), (5, 4, 2)] {
            let (verdict, one) = certificate(d, k, m, None, 1);
            assert_eq!(verdict, ArmiesVerdict::Unsat, "{d} {k} {m}");
            assert_eq!(one, certificate(d, k, m, None, 3).1);
            let all = (k as u64).pow(d as u32);
            let cut = all / 3;
            let (a, b) = (
                body(&certificate(d, k, m, Some((0, cut)), 2).1),
                body(&certificate(d, k, m, Some((cut, all)), 2).1),
            );
            let whole = body(&one);
            assert_eq!([a.0, b.0].concat(), whole.0);
            assert_eq!([0, 1, 2].map(|x| a.1[x] + b.1[x]), whole.1);
        }
    }

    #[test]
    fn a_k_army_certificate_refuses_a_rectangle_and_a_range_past_the_codes() {
        let settings = Settings::default();
        let rectangle = Armies::new(&Board::new(4, 5).unwrap(), 3, 2);
        assert!(rectangle
            .certify((0, 1), &settings, &mut Vec::new())
            .is_err());
        let square = Armies::new(&Board::square(4).unwrap(), 3, 2);
        assert!(square.certify((0, 82), &settings, &mut Vec::new()).is_err());
    }

    /// The symmetry breaking searches each orbit of pairs (row and column colourings
    /// under the board's symmetries and renaming the armies) exactly once: on UNSAT steps,
    /// where every unit is searched to its end, the pairs reaching the diagonals are as
    /// many as the orbits of pairs that pass the column level's bounds with every column
    /// coloured (bounds that every image of a pair passes alike).
    #[test]
    fn each_orbit_of_pairs_is_searched_once() {
        for (d, m) in [(5, 2), (6, 3), (7, 4)] {
            let board = Board::square(d).unwrap();
            let armies = Armies::new(&board, 3, m);
            let settings = Settings::default();
            let mut searched = 0;
            for i in 0..armies.units() {
                let (verdict, stats) = armies.decide_unit(i, &settings);
                assert!(matches!(verdict, ArmiesVerdict::Unsat), "{d}/{m}");
                searched += stats.pairs;
            }
            let never = AtomicBool::new(false);
            let mut search = Search::new(&armies, &settings, &never);
            let everything = all(d, 3);
            let natural: Vec<usize> = (0..d).collect();
            let mut orbits = std::collections::BTreeSet::new();
            for r in &everything {
                if !(0..3u8).all(|j| r.contains(&j)) {
                    continue;
                }
                search.start(r);
                for c in &everything {
                    for (x, &j) in c.iter().enumerate() {
                        search.colour(x, j as usize, 1);
                    }
                    if search.column_cut(0).is_none() {
                        let (mut a, mut b) = ([0u8; MAX_SIDE], [0u8; MAX_SIDE]);
                        let mut least = (r.clone(), c.clone());
                        for p in &armies.perms {
                            for rr in [false, true] {
                                image(r, p, rr, &natural, &mut a[..d]);
                                for cr in [false, true] {
                                    image(c, p, cr, &natural, &mut b[..d]);
                                    least = least.min((a[..d].to_vec(), b[..d].to_vec()));
                                    least = least.min((b[..d].to_vec(), a[..d].to_vec()));
                                }
                            }
                        }
                        orbits.insert(least);
                    }
                    for (x, &j) in c.iter().enumerate() {
                        search.colour(x, j as usize, -1);
                    }
                }
            }
            assert!(!orbits.is_empty(), "{d}/{m}: some pair passes");
            assert_eq!(searched, orbits.len() as u64, "{d}/{m}");
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
