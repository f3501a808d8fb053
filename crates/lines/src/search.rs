//! The depth-first search over the diagonals of one `(S, T)` pair.
//!
//! State: for each diagonal of both families, the rows of its live white cells and of its
//! live black cells. Labelling a diagonal W kills the black cells on it (and B the white
//! ones); a killed cell leaves both of its diagonals, found through [`Board::cross`]. The
//! bounds are kept as running sums, updated per killed cell, so a node costs the cells it
//! kills plus one scan for the branching diagonal. Undoing restores the masks from the
//! killed rows and the sums from a copy: nothing is allocated during the search.
//!
//! The bounds, all exact (no solution below a node they cut):
//! - **cells**: at least `m_w` live white cells and `m_b` live black ones;
//! - **weighted family sums**: for each diagonal family and weights `(p, q)`,
//!   Σ over its diagonals of max(p · live white, q · live black) ≥ p · m_w + q · m_b.
//!   A labelled diagonal has only one colour left, so the maximum is its label's count;
//!   an unlabelled one can still take either label. A solution's W diagonals carry its
//!   ≥ m_w white cells and its B diagonals its ≥ m_b black ones, hence the sum. Each
//!   weighting is a point of the Lagrangian relaxation of the per-family knapsack "choose
//!   labels so that both colours reach their demand"; (1, 1) alone is the family sum of the
//!   published branch-and-bound this engine is measured against (github farev/Matematica,
//!   `conjectures/peaceable-queens/`), which the pairs (1, 2), (2, 1) already imply. The four
//!   weightings below cut 13/25 from 51.7 M to 12.0 M nodes (BENCHMARKS.md, "The line
//!   engine").
//!
//! - **paired cells** (both families at once): for weights `(p, q)`, a labelling of both
//!   families loses, of the weighted live cells `P = p · white + q · black`, at least
//!   `Σ_u min(p · w_u, q · b_u)` over the `r + c` diagonals `u` (each keeps one colour),
//!   plus one unit per path of a set of disjoint paths `u → v → u'`: a white cell `(u, v)`
//!   and a black cell `(u', v)` on one `r − c` diagonal `v`, `u` with more weighted white
//!   than black, `u'` the reverse, at most `p·w_u − q·b_u` paths leaving `u` and
//!   `q·b_u' − p·w_u'` entering `u'`. Proof: if `u` is labelled B it loses its whites, its
//!   excess paying for its paths (likewise `u'` labelled W); otherwise `u` is W and `u'` B,
//!   and `v` kills one of the path's two cells, a loss beyond `u`'s and `u'`'s own minimum.
//!   So `P − loss ≥ p · m_w + q · m_b` is needed. The paths are a flow in the graph whose
//!   minimum cut is the exact coupled bound; they are found greedily (BENCHMARKS.md,
//!   "Paired cells").
//!
//! A node where no diagonal holds live cells of both colours is a solution: label each
//! diagonal by its live colour; every live cell then has all four lines of its colour.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::board::{Board, DIFF, MAX_DIAG, SUM};
use crate::Demand;

/// The weights `(p, q)` of the family-sum bounds (see the module docs).
pub(crate) const WEIGHTS: [(i32, i32); 4] = [(1, 2), (2, 1), (3, 4), (4, 3)];

/// The weights `(p, q)` of the paired-cells bound (see the module docs), in the order a
/// certificate's `paired` line lists them.
pub(crate) const PAIRED: [(i32, i32); 3] = [(1, 1), (1, 2), (2, 1)];
pub(crate) const NW: usize = WEIGHTS.len();

/// What the search tells about its tree as it goes: nothing ([`NoTree`]), or every node, for
/// a proof ([`crate::proof`]). A tree's bounds are the ones its proof can justify.
pub(crate) trait Tree {
    /// The family-sum weights this tree's search prunes with.
    const WEIGHTS: [(i32, i32); NW];
    /// A diagonal was labelled: the path grows by it.
    fn push(&mut self, f: usize, i: usize, white: bool);
    /// The last label is taken back.
    fn pop(&mut self);
    /// Whether the search cuts with the paired-cells bound, which the clausal proofs do not
    /// justify (their trees keep to the bounds their checkers know); a search certificate
    /// names it as a leaf rule of its own (docs/search-certificate.md, Lemma 5).
    const PAIRED: bool = false;
    /// Whether [`Tree::rule`] is wanted: finding a leaf's rule costs a scan of the bounds.
    const RULES: bool = false;
    /// The leaf at the end of the path has no solution (a bound cut it).
    fn refuted(&mut self);
    /// The rule that cut the leaf at the end of the path, told just before
    /// [`Tree::refuted`] when [`Tree::RULES`].
    fn rule(&mut self, _rule: Rule) {}
    /// The inner node at the end of the path has no solution: both labels of diagonal `i`
    /// of family `f` were refuted below it.
    fn refuted_by(&mut self, f: usize, i: usize);
}

/// The search alone, with every bound.
pub(crate) struct NoTree;

impl Tree for NoTree {
    const WEIGHTS: [(i32, i32); NW] = WEIGHTS;
    const PAIRED: bool = true;
    #[inline(always)]
    fn push(&mut self, _: usize, _: usize, _: bool) {}
    #[inline(always)]
    fn pop(&mut self) {}
    #[inline(always)]
    fn refuted(&mut self) {}
    #[inline(always)]
    fn refuted_by(&mut self, _: usize, _: usize) {}
}

/// A bound that cuts a node (the search module's docs prove each one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Fewer live white cells than white pieces.
    CellsWhite,
    /// Fewer live black cells than black pieces.
    CellsBlack,
    /// The family sum of family `family` with the `weight`-th pair of the search's weights
    /// (in the order a certificate's header lists them).
    FamilySum {
        /// 0 for the `r + c` diagonals, 1 for the `r − c` ones.
        family: usize,
        /// An index into the weights.
        weight: usize,
    },
    /// The paired-cells bound with the `weight`-th of the search's paired-cells weights
    /// (in the order a certificate's `paired` line lists them).
    PairedCells {
        /// An index into the paired-cells weights.
        weight: usize,
    },
}

/// How often (in nodes) the search looks at the stop flag and the clock.
const POLL: u64 = 1 << 14;

/// Why a search ended early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Another worker found a solution.
    Found,
    /// The caller asked to stop (Ctrl-C, a rival that answered first).
    Asked,
    /// The deadline passed.
    Deadline,
    /// A unit's node budget ran out: the pool of budgeted passes searches it again later
    /// with a larger one, so no public function returns this.
    Budget,
}

/// The outcome of one pair's search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Found {
    Nothing,
    Solution,
    Stopped(Stop),
}

/// When to give up.
#[derive(Clone, Copy)]
pub(crate) struct Control<'a> {
    /// Raised by the worker that finds a solution.
    pub found: &'a AtomicBool,
    /// The caller's own stop request.
    pub asked: &'a (dyn Fn() -> bool + Sync),
    pub deadline: Option<Instant>,
}

impl Control<'_> {
    pub(crate) fn poll(&self) -> Option<Stop> {
        if self.found.load(Ordering::Relaxed) {
            Some(Stop::Found)
        } else if (self.asked)() {
            Some(Stop::Asked)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(Stop::Deadline)
        } else {
            None
        }
    }
}

/// A diagonal labelled before a pair's search: `(family, index, white)`.
pub(crate) type Label = (usize, usize, bool);

/// Live cells of one colour: `[family][diagonal]` row masks.
pub(crate) type Masks = [[u32; MAX_DIAG]; 2];

/// Whether the CPU has the x86-64-v3 features (AVX2, BMI1, BMI2, FMA, LZCNT, MOVBE) that
/// the search's second copy is compiled for. The release build targets x86-64-v2, which
/// every x86-64 CPU since about 2009 has; a pair's root, where nearly all of the plain
/// board's search is spent, runs eight diagonals at a time with AVX2 (0.77–0.88 of the
/// time: BENCHMARKS.md, "The search compiled twice"), so the search is compiled for both
/// and picks at run time.
pub(crate) fn wide_cpu() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        has!("avx2")
            && has!("bmi1")
            && has!("bmi2")
            && has!("fma")
            && has!("lzcnt")
            && has!("movbe")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// One worker's search state, reused for every pair it takes.
pub(crate) struct Search<'a, T: Tree> {
    board: &'a Board,
    m_white: i32,
    m_black: i32,
    need: [i32; NW],
    nd: usize,
    white: Masks,
    black: Masks,
    /// `sums[f][k]`: Σ over family `f` of max(p_k · white, q_k · black).
    sums: [[i32; NW]; 2],
    white_total: i32,
    black_total: i32,
    /// Nodes visited so far (one per call of `dfs`).
    pub nodes: u64,
    next_poll: u64,
    /// The live cells at the solution found, if any.
    pub witness: Option<(Masks, Masks)>,
    /// `Some`: every solution node's live cells are kept here and the search goes on past
    /// them (enumeration); `None`: the first solution ends the search.
    pub every: Option<Vec<(Masks, Masks)>>,
    /// Told of every node.
    pub tree: T,
    /// Whether the search runs its copy compiled for [`wide_cpu`]'s features.
    pub(crate) wide: bool,
}

#[inline(always)]
fn contributions<T: Tree>(white: u32, black: u32) -> [i32; NW] {
    let (w, b) = (white.count_ones() as i32, black.count_ones() as i32);
    let mut out = [0; NW];
    for (k, (p, q)) in T::WEIGHTS.iter().enumerate() {
        out[k] = (p * w).max(q * b);
    }
    out
}

impl<'a, T: Tree> Search<'a, T> {
    pub(crate) fn new(board: &'a Board, demand: Demand, tree: T) -> Search<'a, T> {
        let (m_white, m_black) = (demand.white as i32, demand.black as i32);
        let mut need = [0; NW];
        for (k, (p, q)) in T::WEIGHTS.iter().enumerate() {
            need[k] = p * m_white + q * m_black;
        }
        Search {
            board,
            m_white,
            m_black,
            need,
            nd: board.diagonals(),
            white: [[0; MAX_DIAG]; 2],
            black: [[0; MAX_DIAG]; 2],
            sums: [[0; NW]; 2],
            white_total: 0,
            black_total: 0,
            nodes: 0,
            next_poll: POLL,
            witness: None,
            every: None,
            tree,
            wide: wide_cpu(),
        }
    }

    /// Searches the labellings of the diagonals with white rows `s` and white columns `t`,
    /// the diagonals in `labels` (`(family, index, white)`) labelled first.
    pub(crate) fn pair(&mut self, s: u32, t: u32, labels: &[Label], control: &Control) -> Found {
        #[cfg(target_arch = "x86_64")]
        if self.wide {
            // SAFETY: `wide` is true only where [`wide_cpu`] is (`Search::new`).
            return unsafe { self.pair_wide(s, t, labels, control) };
        }
        self.pair_in::<false>(s, t, labels, control)
    }

    /// [`Search::pair`] compiled for the features [`wide_cpu`] looks for.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,fma,lzcnt,movbe,popcnt")]
    fn pair_wide(&mut self, s: u32, t: u32, labels: &[Label], control: &Control) -> Found {
        self.pair_in::<true>(s, t, labels, control)
    }

    #[inline(always)]
    fn pair_in<const W: bool>(
        &mut self,
        s: u32,
        t: u32,
        labels: &[Label],
        control: &Control,
    ) -> Found {
        if !self.start(s, t, labels.is_empty()) {
            self.tree.refuted();
            return Found::Nothing;
        }
        for &(f, i, white) in labels {
            self.label(f, i, white);
        }
        self.dfs::<W>(control)
    }

    /// Sets up the pair's live cells and sums. False when `shortcut` and the pair fails its
    /// root's family sums (counted as the root node it is).
    #[inline(always)]
    fn start(&mut self, s: u32, t: u32, shortcut: bool) -> bool {
        let board = self.board;
        let (not_s, not_t) = (!s & board.row_mask(), !t & board.col_mask());
        self.white_total = (s.count_ones() * t.count_ones()) as i32;
        self.black_total = (not_s.count_ones() * not_t.count_ones()) as i32;
        // The r − c family first: of a least pair's two, it is the one that fails more
        // often (BENCHMARKS.md, "Paired cells").
        for f in [DIFF, SUM] {
            board.family_masks(f, s, t, &mut self.white[f]);
            board.family_masks(f, not_s, not_t, &mut self.black[f]);
            let mut sums = [0; NW];
            for i in 0..self.nd {
                let c = contributions::<T>(self.white[f][i], self.black[f][i]);
                for k in 0..NW {
                    sums[k] += c[k];
                }
            }
            self.sums[f] = sums;
            // Most pairs fail at the root (72% at 13/25): the second family's masks and
            // sums are then not needed.
            if shortcut && (0..NW).any(|k| sums[k] < self.need[k]) {
                self.nodes += 1;
                if T::RULES {
                    let weight = (0..NW).find(|&k| sums[k] < self.need[k]).unwrap_or(0);
                    self.tree.rule(Rule::FamilySum { family: f, weight });
                }
                return false;
            }
        }
        true
    }

    /// The running sums, recomputed (the debug builds check the incremental ones).
    fn sums_from_scratch(&self) -> [[i32; NW]; 2] {
        let mut sums = [[0; NW]; 2];
        for f in [SUM, DIFF] {
            for i in 0..self.nd {
                let c = contributions::<T>(self.white[f][i], self.black[f][i]);
                for k in 0..NW {
                    sums[f][k] += c[k];
                }
            }
        }
        sums
    }

    #[inline(always)]
    fn feasible(&self) -> bool {
        if self.white_total < self.m_white || self.black_total < self.m_black {
            return false;
        }
        for f in [SUM, DIFF] {
            for k in 0..NW {
                if self.sums[f][k] < self.need[k] {
                    return false;
                }
            }
        }
        true
    }

    /// Whether the paired-cells bound (module docs) leaves this node standing; off the
    /// torus only (the search does not use it there, `dfs` says why).
    #[inline(always)]
    fn paired_cells(&self) -> bool {
        self.paired_failing().is_none()
    }

    /// The index of the first paired-cells weighting that cuts this node, if one does.
    #[inline(always)]
    fn paired_failing(&self) -> Option<usize> {
        debug_assert!(!self.board.is_torus());
        let nd = self.nd;
        let (mut whites, mut blacks) = ([0i32; MAX_DIAG], [0i32; MAX_DIAG]);
        for u in 0..nd {
            whites[u] = self.white[SUM][u].count_ones() as i32;
            blacks[u] = self.black[SUM][u].count_ones() as i32;
        }
        PAIRED.iter().position(|&(p, q)| {
            let room =
                p * (self.white_total - self.m_white) + q * (self.black_total - self.m_black);
            // Excess of each diagonal u: white (to leave) and black (to enter).
            let (mut out, mut into) = ([0i32; MAX_DIAG], [0i32; MAX_DIAG]);
            let mut loss = 0;
            for u in 0..nd {
                let (w, b) = (p * whites[u], q * blacks[u]);
                loss += w.min(b);
                out[u] = w - w.min(b);
                into[u] = b - w.min(b);
            }
            if loss > room {
                return true;
            }
            self.paths(p.min(q), &mut out, &mut into, room - loss) > room - loss
        })
    }

    /// The units sent along disjoint paths `u → v → u'` (module docs), `unit` a path,
    /// from the excess `out` to the excess `into`, greedily in the order of `v` and then
    /// of `u`; it stops once past `enough`. Off the torus, the cell of row `r` on the
    /// `r − c` diagonal `v` is on the `r + c` diagonal `u = 2r + k`, `k = cols − 1 − v`:
    /// every `u` met on `v` has `k`'s parity, so the diagonals with excess are kept as two
    /// masks by parity, `u` as bit `32 + ⌊u/2⌋` (32 up, so that every `v`'s shift is to
    /// the right), and each `v`'s rows are read off them without moving bits one by one.
    #[inline(always)]
    fn paths(&self, unit: i32, out: &mut [i32], into: &mut [i32], enough: i32) -> i32 {
        let (mut outs, mut intos) = ([0u64; 2], [0u64; 2]);
        for u in 0..self.nd {
            outs[u & 1] |= u64::from(out[u] > 0) << (32 + u / 2);
            intos[u & 1] |= u64::from(into[u] > 0) << (32 + u / 2);
        }
        let c1 = self.board.cols() as i32 - 1;
        let mut sent = 0;
        for v in 0..self.nd {
            let (w, b) = (self.white[DIFF][v], self.black[DIFF][v]);
            if w == 0 || b == 0 {
                continue;
            }
            let k = c1 - v as i32;
            let (parity, shift) = ((k & 1) as usize, (32 + (k >> 1)) as u32);
            let mut from = w & (outs[parity] >> shift) as u32;
            let mut to = b & (intos[parity] >> shift) as u32;
            while from != 0 && to != 0 {
                let u = (2 * from.trailing_zeros() as i32 + k) as usize;
                let x = (2 * to.trailing_zeros() as i32 + k) as usize;
                let units = unit.min(out[u]).min(into[x]);
                sent += units;
                out[u] -= units;
                into[x] -= units;
                outs[parity] &= !(u64::from(out[u] == 0) << (32 + u / 2));
                intos[parity] &= !(u64::from(into[x] == 0) << (32 + x / 2));
                from &= (from - 1) & (outs[parity] >> shift) as u32;
                to &= (to - 1) & (intos[parity] >> shift) as u32;
            }
            if sent > enough {
                break;
            }
        }
        sent
    }

    /// The first bound that cuts this node, in [`Search::feasible`]'s order.
    fn failing(&self) -> Option<Rule> {
        if self.white_total < self.m_white {
            return Some(Rule::CellsWhite);
        }
        if self.black_total < self.m_black {
            return Some(Rule::CellsBlack);
        }
        for family in [SUM, DIFF] {
            for weight in 0..NW {
                if self.sums[family][weight] < self.need[weight] {
                    return Some(Rule::FamilySum { family, weight });
                }
            }
        }
        if T::PAIRED && !self.board.is_torus() {
            return self
                .paired_failing()
                .map(|weight| Rule::PairedCells { weight });
        }
        None
    }

    /// One node: the copy compiled for [`wide_cpu`]'s features when `W`.
    fn dfs<const W: bool>(&mut self, control: &Control) -> Found {
        #[cfg(target_arch = "x86_64")]
        if W {
            // SAFETY: `W` is true only below `pair_wide`, which runs only where the CPU has
            // these features.
            return unsafe { self.dfs_wide(control) };
        }
        self.dfs_in::<W>(control)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,fma,lzcnt,movbe,popcnt")]
    fn dfs_wide(&mut self, control: &Control) -> Found {
        self.dfs_in::<true>(control)
    }

    #[inline(always)]
    fn dfs_in<const W: bool>(&mut self, control: &Control) -> Found {
        self.nodes += 1;
        if self.nodes >= self.next_poll {
            self.next_poll = self.nodes + POLL;
            if let Some(stop) = control.poll() {
                return Found::Stopped(stop);
            }
        }
        debug_assert_eq!(self.sums, self.sums_from_scratch());
        // Not on the torus: there a pair's tree is deep (about 2,500 nodes a pair at 15/21)
        // and the wrapped diagonals' paths cost more than the nodes they save (BENCHMARKS.md,
        // "Paired cells").
        let paired = T::PAIRED && !self.board.is_torus();
        if !self.feasible() || (paired && !self.paired_cells()) {
            if T::RULES {
                let rule = self.failing().expect("an infeasible node fails a bound");
                self.tree.rule(rule);
            }
            self.tree.refuted();
            return Found::Nothing;
        }
        let Some((f, i)) = self.branch() else {
            // Every labelling below this node leaves a subset of these cells: listing
            // boards needs no deeper look.
            if let Some(every) = &mut self.every {
                every.push((self.white, self.black));
                return Found::Nothing;
            }
            self.witness = Some((self.white, self.black));
            return Found::Solution;
        };
        // W first: it kills the black cells on the diagonal.
        for white in [true, false] {
            let (sums, totals) = (self.sums, (self.white_total, self.black_total));
            let killed = self.label(f, i, white);
            self.tree.push(f, i, white);
            let found = self.dfs::<W>(control);
            self.tree.pop();
            self.unlabel(f, i, white, killed);
            self.sums = sums;
            (self.white_total, self.black_total) = totals;
            if found != Found::Nothing {
                return found;
            }
        }
        self.tree.refuted_by(f, i);
        Found::Nothing
    }

    /// The unlabelled diagonal with the most cells of its rarer colour, or `None` when no
    /// diagonal holds both colours.
    #[inline(always)]
    fn branch(&self) -> Option<(usize, usize)> {
        let mut best = 0;
        let mut at = None;
        for f in [SUM, DIFF] {
            for i in 0..self.nd {
                let (w, b) = (self.white[f][i], self.black[f][i]);
                let (cw, cb) = (w.count_ones(), b.count_ones());
                let score = cw.min(cb);
                if score > best {
                    best = score;
                    at = Some((f, i));
                }
            }
        }
        at
    }

    /// Labels diagonal `i` of family `f`: W kills its black cells, B its white ones.
    /// Returns the rows killed.
    #[inline(always)]
    fn label(&mut self, f: usize, i: usize, white: bool) -> u32 {
        let g = 1 - f;
        let (old_w, old_b) = (self.white[f][i], self.black[f][i]);
        let before = contributions::<T>(old_w, old_b);
        let (killed, after) = if white {
            (old_b, contributions::<T>(old_w, 0))
        } else {
            (old_w, contributions::<T>(0, old_b))
        };
        for k in 0..NW {
            self.sums[f][k] += after[k] - before[k];
        }
        let victims = if white {
            self.black_total -= killed.count_ones() as i32;
            &mut self.black
        } else {
            self.white_total -= killed.count_ones() as i32;
            &mut self.white
        };
        victims[f][i] = 0;
        let mut rows = killed;
        while rows != 0 {
            let r = rows.trailing_zeros() as usize;
            rows &= rows - 1;
            let j = self.board.cross(f, i, r);
            let (w, b) = (self.white[g][j], self.black[g][j]);
            let before = contributions::<T>(w, b);
            let after = if white {
                self.black[g][j] = b & !(1 << r);
                contributions::<T>(w, b & !(1 << r))
            } else {
                self.white[g][j] = w & !(1 << r);
                contributions::<T>(w & !(1 << r), b)
            };
            for k in 0..NW {
                self.sums[g][k] += after[k] - before[k];
            }
        }
        killed
    }

    /// Undoes [`Search::label`] on the masks (the caller restores the sums).
    #[inline(always)]
    fn unlabel(&mut self, f: usize, i: usize, white: bool, killed: u32) {
        let g = 1 - f;
        let victims = if white {
            &mut self.black
        } else {
            &mut self.white
        };
        victims[f][i] = killed;
        let mut rows = killed;
        while rows != 0 {
            let r = rows.trailing_zeros() as usize;
            rows &= rows - 1;
            victims[g][self.board.cross(f, i, r)] |= 1 << r;
        }
    }
}

#[cfg(test)]
mod tests {
    //! The bounds are exact: a node they cut has no solution below it. Each case is a
    //! board, a pair `(S, T)`, a demand and some diagonals labelled (a node of the search);
    //! every labelling of the remaining diagonals is tried, and if one of them leaves
    //! enough cells of both colours, the node must pass [`Search::feasible`].
    use super::*;
    use proptest::prelude::*;

    /// The live cells of each colour when the diagonals are labelled `labels`
    /// (`[family][index]`, `Some(white)`), counted cell by cell.
    fn counts(
        board: &Board,
        s: u32,
        t: u32,
        labels: &[[Option<bool>; MAX_DIAG]; 2],
    ) -> (usize, usize) {
        let (mut white, mut black) = (0, 0);
        for r in 0..board.rows() {
            for c in 0..board.cols() {
                // Written out here rather than through the board's own tables.
                let (i, j) = if board.is_torus() {
                    let d = board.rows();
                    ((r + c) % d, (r + d - c) % d)
                } else {
                    (r + c, r + board.cols() - 1 - c)
                };
                let lines = [labels[SUM][i], labels[DIFF][j]];
                let row_white = s >> r & 1 == 1;
                if row_white == (t >> c & 1 == 1) {
                    // A cell is a candidate of one colour when its row and column agree.
                    if lines.iter().all(|&l| l != Some(!row_white)) {
                        if row_white {
                            white += 1;
                        } else {
                            black += 1;
                        }
                    }
                }
            }
        }
        (white, black)
    }

    /// Whether some labelling of the unlabelled diagonals leaves `demand` of each colour.
    fn completes(
        board: &Board,
        s: u32,
        t: u32,
        demand: Demand,
        labels: &[[Option<bool>; MAX_DIAG]; 2],
    ) -> bool {
        let open: Vec<(usize, usize)> = (0..2)
            .flat_map(|f| (0..board.diagonals()).map(move |i| (f, i)))
            .filter(|&(f, i)| labels[f][i].is_none())
            .collect();
        (0..1u64 << open.len()).any(|bits| {
            let mut full = *labels;
            for (k, &(f, i)) in open.iter().enumerate() {
                full[f][i] = Some(bits >> k & 1 == 1);
            }
            let (white, black) = counts(board, s, t, &full);
            white >= demand.white && black >= demand.black
        })
    }

    fn case() -> impl Strategy<Value = (Board, u32, u32, Demand, Vec<u8>)> {
        let boards = prop_oneof![
            (2usize..=5).prop_map(|d| Board::square(d).unwrap()),
            (2usize..=4, 2usize..=5).prop_map(|(r, c)| Board::new(r, c).unwrap()),
            (3usize..=6).prop_map(|d| Board::torus(d).unwrap()),
        ];
        boards.prop_flat_map(|board| {
            let n = board.diagonals();
            (
                Just(board.clone()),
                0..=board.row_mask(),
                0..=board.col_mask(),
                (1usize..=6, 1usize..=6),
                // Per diagonal: 0, 1 unlabelled, 2 white, 3 black (half are open).
                proptest::collection::vec(0u8..4, 2 * n),
            )
                .prop_map(|(board, s, t, (w, b), labels)| {
                    (board, s, t, Demand { white: w, black: b }, labels)
                })
        })
    }

    /// The copy compiled for x86-64-v3 and the portable one search the same tree: the same
    /// outcome and the same nodes for every pair of a few boards, at a demand that fits
    /// and one that does not. (On a CPU without those features only the portable copy runs,
    /// and the test checks nothing.)
    #[test]
    fn both_copies_search_the_same_tree() {
        if !wide_cpu() {
            return;
        }
        let never = AtomicBool::new(false);
        let control = Control {
            found: &never,
            asked: &|| false,
            deadline: None,
        };
        let cases = [
            (Board::square(6).unwrap(), [5, 6]),
            (Board::square(7).unwrap(), [7, 8]),
            (Board::new(5, 7).unwrap(), [5, 6]),
            (Board::torus(7).unwrap(), [4, 5]),
        ];
        for (board, ms) in cases {
            for m in ms {
                let demand = Demand::equal(m);
                let mut plain = Search::new(&board, demand, NoTree);
                let mut wide = Search::new(&board, demand, NoTree);
                plain.wide = false;
                let mut solutions = 0;
                for s in 0..=board.row_mask() {
                    for t in 0..=board.col_mask() {
                        let a = plain.pair(s, t, &[], &control);
                        let b = wide.pair(s, t, &[], &control);
                        assert_eq!(a, b, "{board:?} m = {m}, pair ({s:#b}, {t:#b})");
                        assert_eq!(
                            plain.nodes, wide.nodes,
                            "{board:?} m = {m}, ({s:#b}, {t:#b})"
                        );
                        solutions += usize::from(a == Found::Solution);
                    }
                }
                // Each case searches real trees: the first demand fits, the second does not.
                assert_eq!(solutions > 0, m == ms[0], "{board:?} m = {m}");
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        #[test]
        fn a_node_the_bounds_cut_has_no_solution_below_it((board, s, t, demand, picks) in case()) {
            let n = board.diagonals();
            let mut labels = [[None; MAX_DIAG]; 2];
            let mut search = Search::new(&board, demand, NoTree);
            search.start(s, t, false);
            for (k, &pick) in picks.iter().enumerate() {
                let (f, i) = (k / n, k % n);
                if pick >= 2 {
                    labels[f][i] = Some(pick == 2);
                    search.label(f, i, pick == 2);
                }
            }
            // The running counts are the live cells, counted from scratch.
            let (white, black) = counts(&board, s, t, &labels);
            prop_assert_eq!((search.white_total as usize, search.black_total as usize), (white, black));
            prop_assert_eq!(search.sums, search.sums_from_scratch());
            // The rule a certificate names is found exactly when some bound cuts.
            let paired_cut = !board.is_torus() && !search.paired_cells();
            prop_assert_eq!(search.feasible() && !paired_cut, search.failing().is_none());
            if completes(&board, s, t, demand, &labels) {
                prop_assert!(search.feasible(), "cut a node with a solution below it");
                if !board.is_torus() {
                    prop_assert!(search.paired_cells(), "paired cells cut a node with a solution");
                }
            }
            // A node with no diagonal holding both colours is a solution exactly when it
            // passes the bounds.
            if search.branch().is_none() {
                prop_assert_eq!(search.feasible(), white >= demand.white && black >= demand.black);
            }
        }

        /// The paired-cells bound at the edge of what a node can reach: for every demand
        /// up to the node's live cells, it cuts only demands no completion meets.
        #[test]
        fn paired_cells_cut_only_unreachable_demands(
            (board, s, t, _, picks) in case(),
        ) {
            prop_assume!(!board.is_torus());
            let n = board.diagonals();
            let mut labels = [[None; MAX_DIAG]; 2];
            for (k, &pick) in picks.iter().enumerate() {
                if pick >= 2 {
                    labels[k / n][k % n] = Some(pick == 2);
                }
            }
            // Every (white, black) count some completion reaches.
            let open: Vec<(usize, usize)> = (0..2)
                .flat_map(|f| (0..n).map(move |i| (f, i)))
                .filter(|&(f, i)| labels[f][i].is_none())
                .collect();
            prop_assume!(open.len() <= 14);
            let reached: Vec<(usize, usize)> = (0..1u64 << open.len())
                .map(|bits| {
                    let mut full = labels;
                    for (k, &(f, i)) in open.iter().enumerate() {
                        full[f][i] = Some(bits >> k & 1 == 1);
                    }
                    counts(&board, s, t, &full)
                })
                .collect();
            let (most_white, most_black) = counts(&board, s, t, &labels);
            for w in 1..=most_white {
                for b in 1..=most_black {
                    let demand = Demand { white: w, black: b };
                    let mut search = Search::new(&board, demand, NoTree);
                    search.start(s, t, false);
                    for (k, &pick) in picks.iter().enumerate() {
                        if pick >= 2 {
                            search.label(k / n, k % n, pick == 2);
                        }
                    }
                    let met = reached.iter().any(|&(x, y)| x >= w && y >= b);
                    prop_assert!(!met || search.paired_cells(), "cut {w}/{b}, which is met");
                }
            }
        }
    }
}
