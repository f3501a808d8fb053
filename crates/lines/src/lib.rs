//! pq-lines: a native branch-and-bound for the peaceable armies of queens, on the line
//! labelling. No SAT solver and no CNF: bit masks, running bounds, every core.
//!
//! **The labelling.** For `m ≥ 1`, `m` white and `m` black queens fit on a board iff its
//! lines (rows, columns, both diagonal families) can be labelled W or B so that at least
//! `m` cells have all four lines W and at least `m` all four B: label each line by the
//! colour standing on it (empty lines anyhow); conversely fill every all-W and all-B cell.
//! This is the line-colouring model of Smith, Petrie & Gent, "Models and symmetry breaking
//! for 'peaceable armies of queens'" (CPAIOR 2004), searched as in the public
//! branch-and-bound of github farev/Matematica (`conjectures/peaceable-queens/`, whose
//! NOTE.md proves the rules; this crate shares no code with it).
//!
//! **The search.** Choose the white rows `S` and white columns `T` (one pair per symmetry
//! orbit, [`symmetry`]); white cells lie in `S × T`, black ones in `S̄ × T̄`. Then label
//! the diagonals depth first, pruned by counting bounds ([`search`](crate) module docs
//! list them, each proven exact). The pair-level product bound `|S||T| ≥ m`,
//! `(rows−|S|)(cols−|T|) ≥ m` cuts pairs before any search.
//!
//! ```
//! use pq_lines::{decide, Board, Demand, Settings, Verdict};
//! let board = Board::square(6).unwrap();
//! let step = |m| decide(&board, Demand::equal(m), &Settings::default()).verdict;
//! assert!(matches!(step(5), Verdict::Sat(_)));
//! assert!(matches!(step(6), Verdict::Unsat)); // a(6) = 5
//! ```

pub mod armies;
pub mod board;
pub mod certificate;
pub mod crowded;
mod pool;
pub mod proof;
mod search;
pub mod symmetry;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

pub use board::Board;
pub use search::Stop;

use board::reverse;
pub use search::Rule;
use search::{Control, Found, NoTree, Search};
use symmetry::Group;

/// What the engine refuses.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum Error {
    /// A side outside `1..=32`.
    #[error("a {rows}×{cols} board is outside the line engine's range (sides 1 to {max})", max = board::MAX_SIDE)]
    Size {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
}

/// How many cells each colour needs: `m` and `m` for the peaceable queens, two numbers for
/// armies of different sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Demand {
    /// White pieces needed.
    pub white: usize,
    /// Black pieces needed.
    pub black: usize,
}

impl Demand {
    /// `m` of each colour.
    pub fn equal(m: usize) -> Demand {
        Demand { white: m, black: m }
    }

    /// Whether swapping the colours maps the problem onto itself.
    fn symmetric(self) -> bool {
        self.white == self.black
    }
}

/// How to run a search.
pub struct Settings<'a> {
    /// Worker threads (at least 1).
    pub jobs: usize,
    /// Give up at this instant.
    pub deadline: Option<Instant>,
    /// Polled every few thousand nodes: true stops the search (Ctrl-C, a rival's answer).
    pub asked_to_stop: &'a (dyn Fn() -> bool + Sync),
    /// Search the units of [`armies::Armies`] and [`crowded::Crowded`] first for at most
    /// this many nodes each, then the units that ran out to their end (`None`: each unit
    /// to its end at once): a step with a solution behind a few slow units finds it
    /// sooner. See the `pool` module.
    pub unit_budget: Option<u64>,
}

impl Default for Settings<'_> {
    fn default() -> Self {
        Settings {
            jobs: 1,
            deadline: None,
            asked_to_stop: &|| false,
            unit_budget: None,
        }
    }
}

/// A solution: the line labelling's rows and columns and every cell it leaves to each
/// colour (at least `m` of each; a placement takes any `m` of them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Witness {
    /// The white rows, bit `r` for row `r`.
    pub white_rows: u32,
    /// The white columns, bit `c` for column `c`.
    pub white_cols: u32,
    /// Cells `(row, col)` all of whose lines are white, in row-major order.
    pub white: Vec<(usize, usize)>,
    /// Cells all of whose lines are black, in row-major order.
    pub black: Vec<(usize, usize)>,
}

/// An engine's answer to "do they fit?": for two armies (`Verdict`, its witness the
/// labelling's cells), for `k` armies ([`armies::ArmiesVerdict`]) and for Dudeney's board
/// ([`crowded::CrowdedVerdict`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict<W = Witness> {
    /// They fit: a placement with at least the numbers asked.
    Sat(W),
    /// They do not: every unit of the search was searched to its end.
    Unsat,
    /// The search stopped before an answer.
    Unknown(Stop),
}

/// A search cut into units that are each searched whole (the row colourings of
/// [`armies::Armies`], the queens' orbits of [`crowded::Crowded`]), so that a journal can
/// record every unit finished and a later run skip them.
pub trait Units {
    /// What a solution is.
    type Witness;

    /// The number of units, numbered from 0.
    fn units(&self) -> usize;

    /// Searches the units `ids` on `settings.jobs` threads, the first witness stopping
    /// them all, and calls `finished(i)` as each unit `i` is searched to its end without a
    /// solution (from the worker threads, in any order).
    fn decide_units(
        &self,
        ids: &[usize],
        settings: &Settings,
        finished: &(dyn Fn(usize) + Sync),
    ) -> (Verdict<Self::Witness>, Stats);

    /// Searches every unit.
    fn decide(&self, settings: &Settings) -> (Verdict<Self::Witness>, Stats) {
        let all: Vec<usize> = (0..self.units()).collect();
        self.decide_units(&all, settings, &|_| {})
    }
}

/// What the search did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Search nodes (one per labelling step visited, the root of each pair included).
    pub nodes: u64,
    /// `(S, T)` pairs searched (least in their orbit, passing the product bound).
    pub pairs: u64,
    /// Row sets `S` whose pairs were all searched.
    pub row_sets_done: usize,
    /// Row sets in the work list.
    pub row_sets: usize,
    /// Worker threads used.
    pub jobs: usize,
    /// Units (row sets, row colourings) an earlier run had searched, by its journal.
    pub resumed: usize,
}

impl Stats {
    /// Adds the workers' counts (`pool::run_workers`).
    fn add(&mut self, (nodes, pairs, done): pool::Counts) {
        self.nodes += nodes;
        self.pairs += pairs;
        self.row_sets_done += done;
    }
}

impl<W> Verdict<W> {
    /// The verdict of one unit searched alone on this thread (`decide_unit`), from what its
    /// search returned (a solution, none, or where it stopped), with its counts.
    pub(crate) fn of_unit(
        searched: Result<Option<W>, Stop>,
        nodes: u64,
        pairs: u64,
    ) -> (Self, Stats) {
        let verdict = match searched {
            Ok(Some(w)) => Verdict::Sat(w),
            Ok(None) => Verdict::Unsat,
            Err(stop) => Verdict::Unknown(stop),
        };
        let stats = Stats {
            nodes,
            pairs,
            row_sets_done: usize::from(matches!(verdict, Verdict::Unsat)),
            row_sets: 1,
            jobs: 1,
            resumed: 0,
        };
        (verdict, stats)
    }
}

/// A verdict and the work it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// Sat, Unsat or Unknown.
    pub verdict: Verdict,
    /// Node and pair counts.
    pub stats: Stats,
}

/// The row sets `S` worth searching for `demand` on `board`: least in their own orbit and
/// with some column count that passes the product bound. The work list of
/// [`search_rows`], in the order it is searched.
pub fn row_sets(board: &Board, demand: Demand) -> Vec<u32> {
    let group = Group::of(board, demand.symmetric());
    (0..=board.row_mask())
        .filter(|&s| group.row_candidate(s) && column_counts(board, demand, s).is_some())
        .collect()
}

/// The column counts `|T|` that pass the product bound with row set `s`, as a range.
fn column_counts(board: &Board, demand: Demand, s: u32) -> Option<(usize, usize)> {
    let a = s.count_ones() as usize;
    let (rows, cols) = (board.rows(), board.cols());
    let ok = |b: usize| a * b >= demand.white && (rows - a) * (cols - b) >= demand.black;
    let lo = (0..=cols).find(|&b| ok(b))?;
    let hi = (0..=cols).rev().find(|&b| ok(b))?;
    Some((lo, hi))
}

/// Decides whether `demand.white` white and `demand.black` black queens fit on `board`.
pub fn decide(board: &Board, demand: Demand, settings: &Settings) -> Answer {
    search_rows(board, demand, &row_sets(board, demand), settings)
}

/// Line labels fixed before the search: a cube of the colouring formula (rows, columns
/// and diagonals given a colour).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fixed {
    /// The rows whose colour is fixed (a mask) and which of them are white.
    pub rows: (u32, u32),
    /// The columns whose colour is fixed and which of them are white.
    pub cols: (u32, u32),
    /// Diagonals with a fixed colour: `(family, index, white)`, family 0 the `r + c`
    /// diagonals (index `r + c`), family 1 the `r − c` ones (index `r − c + cols − 1`).
    pub diagonals: Vec<(usize, usize, bool)>,
}

/// Searches the least pairs `(S, T)` that agree with `fixed`, its diagonals labelled before
/// the search: Sat if one of them has a solution, Unsat if none has. This is exactly "the
/// colouring formula with lex-leader clauses, plus the cube `fixed`, is satisfiable": the
/// formula keeps the labellings whose `(S, T)` is least in the order of its lex-leader
/// clauses (rows 0, 1, … then columns, black before white), and among those with one
/// `(S, T)` some one is lex-least overall.
///
/// That order is [`row_sets`]'s order of the half-turn's images: comparing `(S, T)` from
/// row 0 on is comparing the reversed masks as integers, and the half-turn reverses both
/// masks while commuting with every symmetry, so it maps the pairs least in one order onto
/// those least in the other. The cube is turned, searched as [`decide`] searches, and the
/// witness turned back.
pub fn search_fixed(board: &Board, demand: Demand, fixed: &Fixed, settings: &Settings) -> Answer {
    if board.is_torus() {
        // The torus has no such formula; its pairs are least in the masks' order.
        return search_turned(board, demand, fixed, settings);
    }
    let (rows, cols) = (board.rows(), board.cols());
    let mut answer = search_turned(board, demand, &fixed.turned(board), settings);
    if let Verdict::Sat(w) = &mut answer.verdict {
        let back = |cells: &mut Vec<(usize, usize)>| {
            for cell in cells.iter_mut() {
                *cell = (rows - 1 - cell.0, cols - 1 - cell.1);
            }
            cells.sort_unstable();
        };
        w.white_rows = reverse(w.white_rows, rows);
        w.white_cols = reverse(w.white_cols, cols);
        back(&mut w.white);
        back(&mut w.black);
    }
    answer
}

impl Fixed {
    /// The cube turned by the half-turn (row `r` to `rows − 1 − r`, column `c` to
    /// `cols − 1 − c`, diagonal `i` of either family to `2·side − 2 − i`), its diagonals
    /// sorted and without repeats: the same cube in the masks' order ([`search_fixed`]).
    pub fn turned(&self, board: &Board) -> Fixed {
        let last = board.diagonals() - 1;
        let turn = |(mask, value): (u32, u32), n: usize| (reverse(mask, n), reverse(value, n));
        let mut diagonals: Vec<(usize, usize, bool)> = (self.diagonals.iter())
            .map(|&(f, i, white)| (f, last - i, white))
            .collect();
        diagonals.sort_unstable();
        diagonals.dedup();
        Fixed {
            rows: turn(self.rows, board.rows()),
            cols: turn(self.cols, board.cols()),
            diagonals,
        }
    }

    /// The row sets, in increasing order, that this cube (in the masks' order) allows and
    /// that may start a least pair passing the product bound: every subset of its free rows
    /// (scanning all `2^d` per cube cost more than a row cube's search at 14/29).
    pub(crate) fn row_sets(&self, board: &Board, demand: Demand) -> Vec<u32> {
        let (mask, value) = self.rows;
        let group = Group::of(board, demand.symmetric());
        let free = board.row_mask() & !mask;
        let mut rows = Vec::new();
        let mut sub = free;
        loop {
            let s = (value & mask) | sub;
            if group.row_candidate(s) && column_counts(board, demand, s).is_some() {
                rows.push(s);
            }
            if sub == 0 {
                break;
            }
            sub = (sub - 1) & free;
        }
        rows.reverse();
        rows
    }
}

/// [`search_fixed`] in the masks' order.
fn search_turned(board: &Board, demand: Demand, fixed: &Fixed, settings: &Settings) -> Answer {
    let rows = fixed.row_sets(board, demand);
    run_with(
        board,
        demand,
        &rows,
        fixed,
        settings,
        None,
        &|| NoTree,
        &|_, _| {},
    )
}

/// Searches every least pair `(S, T)` whose `S` is in `rows` (a slice of [`row_sets`]):
/// Sat if one of them has a solution, Unsat if none has. Splitting [`row_sets`] into
/// slices splits the work into independent pieces (cubes).
pub fn search_rows(board: &Board, demand: Demand, rows: &[u32], settings: &Settings) -> Answer {
    search_rows_noting(board, demand, rows, settings, &|_| {})
}

/// [`search_rows`], calling `finished(i)` as each `rows[i]` is searched to its end without
/// a solution (from the worker threads, in any order): what a journal records so that an
/// interrupted step can go on where it stopped.
pub fn search_rows_noting(
    board: &Board,
    demand: Demand,
    rows: &[u32],
    settings: &Settings,
    finished: &(dyn Fn(usize) + Sync),
) -> Answer {
    let done = |at: usize, _: &mut NoTree| finished(at);
    run_with(
        board,
        demand,
        rows,
        &Fixed::default(),
        settings,
        None,
        &|| NoTree,
        &done,
    )
}

/// Every solution of `demand` on `board` among the least pairs `(S, T)`: the live cells of
/// each node where no diagonal holds both colours, the search going on past each. Every
/// labelling with at least the demanded cells of each colour leaves a subset of one such
/// node's cells, and every orbit of solutions (under the board's symmetries, and the colour
/// swap when the demand is equal) has a member with a least pair: so the boards these
/// cells make meet every orbit of boards, each several times over (an empty line's label
/// is free). [`Answer::verdict`] is Sat with the first of them, Unsat when there is none,
/// or Unknown when the search stopped before the end (the list is then incomplete).
pub fn enumerate(board: &Board, demand: Demand, settings: &Settings) -> (Answer, Vec<Witness>) {
    let every = Mutex::new(Vec::new());
    let rows = row_sets(board, demand);
    let mut answer = run_with(
        board,
        demand,
        &rows,
        &Fixed::default(),
        settings,
        Some(&every),
        &|| NoTree,
        &|_, _| {},
    );
    let every = every
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let (Verdict::Unsat, Some(first)) = (&answer.verdict, every.first()) {
        answer.verdict = Verdict::Sat(first.clone());
    }
    (answer, every)
}

/// The threads of [`search_rows`], [`search_fixed`], [`enumerate`] (which passes `every`,
/// where each worker adds the solutions of its pairs) and the certificates: each worker has
/// a tree of its own (`tree()` makes one), told of every node, and `done_row(i, tree)` is
/// called as each `rows[i]` is searched to its end without a solution.
#[allow(clippy::too_many_arguments)]
fn run_with<T: search::Tree>(
    board: &Board,
    demand: Demand,
    rows: &[u32],
    fixed: &Fixed,
    settings: &Settings,
    every: Option<&Mutex<Vec<Witness>>>,
    tree: &(dyn Fn() -> T + Sync),
    done_row: &(dyn Fn(usize, &mut T) + Sync),
) -> Answer {
    let jobs = settings.jobs.max(1);
    let group = Group::of(board, demand.symmetric());
    let next = AtomicUsize::new(0);
    let found = AtomicBool::new(false);
    let solution: Mutex<Option<Witness>> = Mutex::new(None);
    let stopped: Mutex<Option<Stop>> = Mutex::new(None);
    let control = Control {
        found: &found,
        asked: settings.asked_to_stop,
        deadline: settings.deadline,
    };
    let worker = || {
        let mut search = Search::new(board, demand, tree());
        if every.is_some() {
            search.every = Some(Vec::new());
        }
        let (mut pairs, mut done) = (0u64, 0usize);
        'work: loop {
            let at = next.fetch_add(1, Ordering::Relaxed);
            let Some(&s) = rows.get(at) else { break };
            let Some((lo, hi)) = column_counts(board, demand, s) else {
                done += 1;
                done_row(at, &mut search.tree);
                continue;
            };
            let least = group.least_with(s);
            for t in group.columns(s) {
                let b = t.count_ones() as usize;
                if b < lo || b > hi || t & fixed.cols.0 != fixed.cols.1 || !least.is_least(t) {
                    continue;
                }
                pairs += 1;
                let outcome = search.pair(s, t, &fixed.diagonals, &control);
                if let (Some(every), Some(mine)) = (every, &mut search.every) {
                    let cells = mine.drain(..).map(|(w, b)| witness(board, s, t, &w, &b));
                    every
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .extend(cells);
                }
                match outcome {
                    Found::Nothing => {}
                    Found::Solution => {
                        let (white, black) = search.witness.take().expect("a solution's cells");
                        let mut slot = solution
                            .lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner);
                        if slot.is_none() {
                            *slot = Some(witness(board, s, t, &white, &black));
                        }
                        found.store(true, Ordering::Relaxed);
                        break 'work;
                    }
                    Found::Stopped(stop) => {
                        if stop != Stop::Found {
                            stopped
                                .lock()
                                .unwrap_or_else(std::sync::PoisonError::into_inner)
                                .get_or_insert(stop);
                        }
                        break 'work;
                    }
                }
            }
            done += 1;
            done_row(at, &mut search.tree);
            if let Some(stop) = control.poll() {
                if stop != Stop::Found {
                    stopped
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .get_or_insert(stop);
                }
                break;
            }
        }
        (search.nodes, pairs, done)
    };
    let mut stats = Stats {
        row_sets: rows.len(),
        jobs,
        ..Stats::default()
    };
    stats.add(pool::run_workers(jobs, worker));
    let verdict = match (
        solution
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner),
        stopped
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner),
    ) {
        (Some(w), _) => Verdict::Sat(w),
        (None, Some(stop)) => Verdict::Unknown(stop),
        (None, None) => Verdict::Unsat,
    };
    Answer { verdict, stats }
}

/// The cells of a solution's live masks, read along the `r + c` diagonals.
fn witness(board: &Board, s: u32, t: u32, white: &search::Masks, black: &search::Masks) -> Witness {
    let cells = |masks: &search::Masks| {
        let mut out = Vec::new();
        for (i, &diagonal) in masks[board::SUM][..board.diagonals()].iter().enumerate() {
            let mut rows = diagonal;
            while rows != 0 {
                let r = rows.trailing_zeros() as usize;
                rows &= rows - 1;
                out.push((r, board.column(board::SUM, i, r)));
            }
        }
        out.sort_unstable();
        out
    };
    Witness {
        white_rows: s,
        white_cols: t,
        white: cells(white),
        black: cells(black),
    }
}
