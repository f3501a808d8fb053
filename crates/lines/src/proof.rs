//! The search tree as a refutation of pq-sat's colouring formula.
//!
//! A branch-and-bound refutation is a tree whose every leaf is cut by a counting rule. When
//! the formula carries those rules as clauses that unit propagation enforces (the cell
//! counters, and the family sums of `pq-sat encode --bounds sums`), a leaf's negated path is
//! a RUP clause, and an inner node's negated path follows by propagation from its two
//! children's. Written bottom-up, the tree is a DRAT proof (Wetzler, Heule & Hunt,
//! "DRAT-trim: efficient checking and trimming using expressive clausal proofs", SAT 2014)
//! that any checker verifies against that formula. Verified while planning with a Python
//! prototype (not part of the repository).
//!
//! The tree here: the row and column colours first (a full binary tree over them, rows 0,
//! 1, … then columns), and under each pair `(S, T)` that the search keeps, its search over
//! the diagonals. A pair the search skips is a leaf refuted by propagation too: not least in
//! its orbit (the formula's lex-leader clauses, whose comparison is decided within the rows
//! and columns), or short of cells (`|S|·|T| < m`: the "at least m" counter). The search
//! prunes with the family sum of weights (1, 1) only: that is the rule the formula's
//! clauses carry; the engine's stronger weighted sums cut nodes that propagation need not
//! refute.
//!
//! A lemma is given as the path it negates: [`LineLit`]s, lines in the colouring formula's
//! order (rows, columns, the `r − c` diagonals, the `r + c` ones). The caller writes each
//! as a clause of the negated literals; the last lemma is the empty path (the empty clause).
//! Once an inner node's lemma is written its children's are no longer needed, and the sink
//! is told to delete them (DRAT's `d` lines): the checker then propagates over the formula
//! and the lemmas of one path of the tree, not the whole tree.
//!
//! Not every leaf needs its lemma: an inner node's negated path follows by propagation from
//! *one* child's lemma when propagation refutes the other child outright (assuming the
//! node's path, the written lemma forces the other child's label, and that path is a
//! conflict). So a leaf's lemma is written only when its sibling's was not, and a leaf that
//! is an only child (the cube's unit clause forces its label) gets none; the checker, whose
//! time goes by lemmas, has that many fewer to check.

use std::sync::atomic::AtomicBool;

use crate::board::{reverse, Board, DIFF, SUM};
use crate::search::{Control, Found, Search, Tree, NW};
use crate::symmetry::Group;
use crate::{witness, Demand, Fixed, Settings, Verdict};

/// A literal on a line colour: `(line, white)`, line `l` in the colouring formula's order
/// (rows `0..d`, columns `d..2d`, the `r − c + d − 1` diagonals `2d..4d−1`, the `r + c`
/// ones `4d−1..6d−2`), true for white.
pub type LineLit = (usize, bool);

/// What [`prove`] found.
#[derive(Debug)]
pub struct Proved {
    /// Unsat: the lemmas given to the sink, in order, refute the formula (the last is the
    /// empty clause). Sat: a labelling (no refutation). Unknown: stopped.
    pub verdict: Verdict,
    /// The lemmas given.
    pub lemmas: u64,
    /// Search nodes over the diagonals.
    pub nodes: u64,
    /// Pairs whose diagonals were searched.
    pub pairs: u64,
}

/// What the sink is given: a lemma to add, or one to delete.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Add the clause negating the path.
    Add,
    /// Delete the clause negating the path (added before).
    Delete,
}

/// The path of the node being searched, and the sink of its lemmas.
struct Recorder<'e> {
    d: usize,
    path: Vec<LineLit>,
    /// For each node on the path (by its depth, the root's 0): which of its children have
    /// finished, and whether each one's lemma was written.
    children: Vec<Children>,
    sink: &'e mut dyn FnMut(Step, &[LineLit]),
    lemmas: u64,
}

/// What is known of a node's children so far.
#[derive(Clone, Copy, Default)]
struct Children {
    /// Children finished (0, 1 or 2).
    done: u8,
    /// Whether the lemma of the first and of the second was written.
    written: [bool; 2],
}

impl Recorder<'_> {
    fn new(d: usize, sink: &mut dyn FnMut(Step, &[LineLit])) -> Recorder<'_> {
        Recorder {
            d,
            path: Vec::with_capacity(6 * d),
            children: vec![Children::default(); 6 * d + 1],
            sink,
            lemmas: 0,
        }
    }

    fn lemma(&mut self) {
        (self.sink)(Step::Add, &self.path);
        self.lemmas += 1;
    }

    /// Deletes the lemma of the path (written before).
    fn delete(&mut self) {
        (self.sink)(Step::Delete, &self.path);
    }

    /// The node at the end of the path has finished; `written` says whether its lemma was.
    fn finished(&mut self, written: bool) {
        if let Some(depth) = self.path.len().checked_sub(1) {
            let parent = &mut self.children[depth];
            parent.written[usize::from(parent.done)] = written;
            parent.done += 1;
        }
    }

    /// The node at the end of the path is a leaf: propagation refutes its path. Its lemma is
    /// written only when it is its parent's second child and the first one's was not: the
    /// parent's lemma follows from one child's lemma and propagation on the other (assume
    /// the parent's path; the written lemma forces the other child's label, whose path
    /// propagation refutes). An only child (the cube fixes its parent's line) needs none:
    /// the cube's unit clause forces its label.
    fn leaf(&mut self) {
        let write = match self.path.len().checked_sub(1) {
            None => true,
            Some(depth) => {
                let parent = self.children[depth];
                parent.done == 1 && !parent.written[0]
            }
        };
        if write {
            self.lemma();
        }
        self.finished(write);
    }

    /// The lemma of the inner node at the end of the path, whose children set `line`;
    /// then the children's lemmas that were written are deleted.
    fn inner(&mut self, line: usize, values: &[bool]) {
        self.lemma();
        let depth = self.path.len();
        if depth == 0 {
            // The empty clause: the proof is complete.
            return;
        }
        let children = std::mem::take(&mut self.children[depth]);
        debug_assert_eq!(usize::from(children.done), values.len());
        for (&white, written) in values.iter().zip(children.written) {
            if written {
                self.path.push((line, white));
                self.delete();
                self.path.pop();
            }
        }
        self.finished(true);
    }

    /// Line `l` of the formula's order for diagonal `i` of family `f`.
    fn diagonal(&self, f: usize, i: usize) -> usize {
        debug_assert!(f == DIFF || f == SUM);
        if f == DIFF {
            2 * self.d + i
        } else {
            4 * self.d - 1 + i
        }
    }
}

impl Tree for Recorder<'_> {
    const WEIGHTS: [(i32, i32); NW] = [(1, 1); NW];

    fn push(&mut self, f: usize, i: usize, white: bool) {
        let line = self.diagonal(f, i);
        self.path.push((line, white));
    }

    fn pop(&mut self) {
        self.path.pop();
    }

    fn refuted(&mut self) {
        self.leaf();
    }

    fn refuted_by(&mut self, f: usize, i: usize) {
        let line = self.diagonal(f, i);
        // The search labels white first.
        self.inner(line, &[true, false]);
    }
}

/// Searches whether `m` white and `m` black queens fit on the square `board` with the
/// lines of the cube `fixed` coloured as it says, giving `sink` the lemmas of a DRAT
/// refutation of the colouring formula with lex-leader and family-sum clauses
/// (`pq-sat encode --dim D --n m --bounds sums`) plus the cube's unit clauses, as it goes
/// (module docs). The tree takes only the cube's value of a fixed row or column; the cube's
/// diagonals are labelled before each pair's search, as propagation on their units does.
/// Single-threaded; `settings.jobs` is not read.
pub fn prove(
    board: &Board,
    m: usize,
    fixed: &Fixed,
    sink: &mut dyn FnMut(Step, &[LineLit]),
    settings: &Settings,
) -> Proved {
    assert!(
        board.is_square() && !board.is_torus(),
        "the colouring formula is a square board's"
    );
    let d = board.rows();
    let demand = Demand::equal(m);
    let found = AtomicBool::new(false);
    let control = Control {
        found: &found,
        asked: settings.asked_to_stop,
        deadline: settings.deadline,
    };
    let recorder = Recorder::new(d, sink);
    let mut run = Run {
        board,
        m,
        fixed,
        group: Group::of(board, true),
        search: Search::new(board, demand, recorder),
        control,
        pairs: 0,
        ticks: 0,
    };
    let verdict = match run.lines(0, 0, 0) {
        Found::Nothing => Verdict::Unsat,
        Found::Solution => {
            let (s, t) = run.solution_pair();
            let (white, black) = run.search.witness.take().expect("a solution's cells");
            Verdict::Sat(witness(board, s, t, &white, &black))
        }
        Found::Stopped(stop) => Verdict::Unknown(stop),
    };
    Proved {
        verdict,
        lemmas: run.search.tree.lemmas,
        nodes: run.search.nodes,
        pairs: run.pairs,
    }
}

/// The tree over the rows and columns.
struct Run<'a, 'e> {
    board: &'a Board,
    m: usize,
    fixed: &'a Fixed,
    group: Group,
    search: Search<'a, Recorder<'e>>,
    control: Control<'a>,
    pairs: u64,
    ticks: u64,
}

impl Run<'_, '_> {
    /// Line `k` of the rows and columns and every line after it, with the rows `s` and
    /// columns `t` chosen before it: the subtree's lemmas, its own last.
    fn lines(&mut self, k: usize, s: u32, t: u32) -> Found {
        let d = self.board.rows();
        if self.refuted_early(k, s, t) {
            self.search.tree.leaf();
            return Found::Nothing;
        }
        if k == 2 * d {
            return self.pair(s, t);
        }
        self.ticks += 1;
        if self.ticks.is_multiple_of(4096) {
            if let Some(stop) = self.control.poll() {
                return Found::Stopped(stop);
            }
        }
        let ((mask, value), i) = if k < d {
            (self.fixed.rows, k)
        } else {
            (self.fixed.cols, k - d)
        };
        let values: &[bool] = match (mask >> i & 1 == 1, value >> i & 1 == 1) {
            (false, _) => &[false, true],
            (true, white) => &[white][..],
        };
        for &white in values {
            let bit = u32::from(white) << (k % d);
            let (s2, t2) = if k < d { (s | bit, t) } else { (s, t | bit) };
            self.search.tree.path.push((k, white));
            let found = self.lines(k + 1, s2, t2);
            if found != Found::Nothing {
                return found;
            }
            self.search.tree.path.pop();
        }
        // With one child, the cube's unit clause refutes the other value.
        self.search.tree.inner(k, values);
        Found::Nothing
    }

    /// Whether propagation alone refutes the node with the first `k` of the rows and
    /// columns chosen (rows `s`, columns `t`), so that its subtree need not be written.
    /// Each test is one the formula's clauses decide on these lines alone:
    /// - too few cells: the white queens can only stand on (rows not black) × (columns not
    ///   black), and the "at least m" counter conflicts when that holds fewer than m (the
    ///   same for black; tested in pq-encode's `bounds.rs`);
    /// - with every row chosen, a row reversal or colour swap of the rows that is smaller:
    ///   the lex-leader comparison of those symmetries is decided within the rows;
    /// - with the first `j` columns chosen, the transposition `(T, S)` or its colour swap
    ///   `(T̄, S̄)` already smaller on rows `0..j`: their comparisons pair row `i` with
    ///   column `i` from `i = 0` on.
    fn refuted_early(&self, k: usize, s: u32, t: u32) -> bool {
        let d = self.board.rows();
        let (rows_set, cols_set) = (k.min(d), k.saturating_sub(d));
        let (open_rows, open_cols) = (d - rows_set, d - cols_set);
        let (white_rows, white_cols) = (s.count_ones() as usize, t.count_ones() as usize);
        let cells = |rows: usize, cols: usize| (rows + open_rows) * (cols + open_cols);
        if cells(white_rows, white_cols) < self.m
            || cells(rows_set - white_rows, cols_set - white_cols) < self.m
        {
            return true;
        }
        if k < d {
            return false;
        }
        // The formula's order reads row 0 first: the masks' order of the reversed masks.
        if k == d && !self.group.row_candidate(reverse(s, d)) {
            return true;
        }
        let bit = |x: u32, i: usize| x >> i & 1 == 1;
        // (T, S) against (S, T): row i against column i; (T̄, S̄): row i against ¬column i.
        let transposed = (0..cols_set).find(|&i| bit(s, i) != bit(t, i));
        let swapped = (0..cols_set).find(|&i| bit(s, i) == bit(t, i));
        transposed.is_some_and(|i| bit(s, i)) || swapped.is_some_and(|i| bit(s, i))
    }

    /// The leaf `(s, t)`: refuted at once by propagation, or searched.
    fn pair(&mut self, s: u32, t: u32) -> Found {
        let d = self.board.rows();
        let (a, b) = (s.count_ones() as usize, t.count_ones() as usize);
        // The formula's lex-leader order is the masks' order of the half-turned pair
        // (`crate::search_fixed`).
        let least = self.group.is_least(reverse(s, d), reverse(t, d));
        if !least || a * b < self.m || (d - a) * (d - b) < self.m {
            self.search.tree.leaf();
            return Found::Nothing;
        }
        self.pairs += 1;
        self.search.pair(s, t, &self.fixed.diagonals, &self.control)
    }

    /// The rows and columns on the path of a solution just found.
    fn solution_pair(&self) -> (u32, u32) {
        let d = self.board.rows();
        let (mut s, mut t) = (0, 0);
        for &(line, white) in &self.search.tree.path {
            if white && line < d {
                s |= 1 << line;
            } else if white && line < 2 * d {
                t |= 1 << (line - d);
            }
        }
        (s, t)
    }
}
