//! The second stage of the split: look-ahead on the search variables (march's measure, its
//! pre-selection of the variables that occur most), failed literals kept.

use pq_encode::Formula;
use rustsat::types::Lit;

use super::{Progress, Tick, CANDIDATES};
use crate::cube::propagate::Propagator;

/// The number of clauses each variable occurs in, for the pre-selection.
pub(super) fn occurrences(formula: &Formula) -> Vec<u32> {
    let mut occ = vec![0u32; formula.n_vars as usize];
    for clause in &formula.cnf {
        for l in clause.iter() {
            occ[l.var().idx()] += 1;
        }
    }
    occ
}

/// The look-ahead splitter's state.
pub(super) struct Lookahead<'a> {
    pub(super) prop: &'a mut Propagator,
    /// The search variables (positive literals).
    pub(super) search: &'a [Lit],
    /// Try only the [`CANDIDATES`] free search variables that occur most.
    pub(super) preselect: bool,
    pub(super) occurrences: &'a [u32],
    pub(super) depth: usize,
    pub(super) free: usize,
    pub(super) cubes: Vec<Vec<Lit>>,
    pub(super) refuted: u64,
    pub(super) splits: u64,
    /// Polled at every node: true stops the split.
    pub(super) tick: Tick<'a>,
    /// The first stage's cubes looked at so far, and how many there are.
    pub(super) stage: (u64, u64),
    pub(super) stopped: bool,
}

/// What the look-ahead makes of a cube.
pub(super) enum Node {
    /// Easy: a leaf.
    Leaf,
    /// Both branches of some variable fail: the formula refutes the cube.
    Refuted,
    /// Split on this variable.
    Branch(Lit),
}

impl Lookahead<'_> {
    /// Splits `cube` (assumed in the propagator, without conflict) at look-ahead depth
    /// `level`, pushing its leaves onto `self.cubes`.
    pub(super) fn grow(&mut self, cube: &mut Vec<Lit>, level: usize) {
        if self.stopped {
            return;
        }
        let progress = Progress {
            done: self.stage.0,
            total: self.stage.1,
            cubes: self.cubes.len(),
        };
        if (self.tick)(progress) {
            self.stopped = true;
            return;
        }
        let mark = self.prop.level_mark();
        match self.choose(level) {
            Node::Leaf => self.cubes.push(cube.clone()),
            Node::Refuted => self.refuted += 1,
            Node::Branch(branch) => {
                self.splits += 1;
                for lit in [branch, !branch] {
                    let m = self.prop.level_mark();
                    if self.prop.assume(&[lit]) {
                        cube.push(lit);
                        self.grow(cube, level + 1);
                        cube.pop();
                    } else {
                        self.refuted += 1;
                    }
                    self.prop.backtrack(m);
                }
            }
        }
        self.prop.backtrack(mark);
    }

    /// The free search variables, the most frequent first when pre-selecting.
    pub(super) fn free_vars(&self) -> Vec<Lit> {
        let mut free: Vec<Lit> = (self.search.iter().copied())
            .filter(|&v| self.prop.value(v).is_none())
            .collect();
        if self.preselect {
            free.sort_by_key(|v| std::cmp::Reverse(self.occurrences[v.var().idx()]));
            free.truncate(CANDIDATES);
        }
        free
    }

    /// The node's verdict at depth `level`: a leaf when the depth is reached or few
    /// search variables are free, else the variable whose branches propagate most
    /// (the product of the numbers of variables each assigns). A failed literal (its
    /// branch propagates to a conflict) sets its negation, implied by the formula and the
    /// cube, and the look-ahead starts over; both branches failing refutes the cube.
    pub(super) fn choose(&mut self, level: usize) -> Node {
        'again: loop {
            if level >= self.depth {
                return Node::Leaf;
            }
            let open = self
                .search
                .iter()
                .filter(|&&v| self.prop.value(v).is_none());
            if open.count() <= self.free {
                return Node::Leaf;
            }
            let mut best: Option<(u64, Lit)> = None;
            for v in self.free_vars() {
                let mut sizes = [0u64; 2];
                for (k, lit) in [v, !v].into_iter().enumerate() {
                    let m = self.prop.level_mark();
                    let ok = self.prop.assume(&[lit]);
                    sizes[k] = (self.prop.level_mark() - m) as u64;
                    self.prop.backtrack(m);
                    if !ok {
                        if !self.prop.assume(&[!lit]) {
                            return Node::Refuted;
                        }
                        continue 'again;
                    }
                }
                let score = sizes[0] * sizes[1];
                if best.is_none_or(|(s, _)| score > s) {
                    best = Some((score, v));
                }
            }
            return best.map_or(Node::Leaf, |(_, v)| Node::Branch(v));
        }
    }
}
