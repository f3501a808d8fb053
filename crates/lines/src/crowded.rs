//! Dudeney's crowded chessboard (*Amusements in Mathematics*, 1917, puzzle 306) on `n × n`:
//! `n` queens, `n` rooks, `2n − 2` bishops and as many knights as possible, one piece per
//! square, no two pieces of one kind attacking each other (pieces of other kinds do not
//! block). Not a line labelling, but the same kind of engine: no formula, a depth-first
//! search with an exact bound, split into independent units.
//!
//! **What the counts force.** `n` queens at peace are an `n`-queens solution; `n` rooks a
//! permutation; `2n − 2` bishops the most that fit, one on every diagonal but one and on
//! every anti-diagonal but one. The knights are an independent set of the knight graph on
//! the squares left, and that graph is bipartite (a knight's move changes the colour of its
//! square), so the most knights that fit on a set `F` of squares is `α(F) = |F| − ν(F)`
//! (König, 1931), `ν` a maximum matching: polynomial, where the SAT path needs a
//! cardinality constraint over every square.
//!
//! **The search.** Units are the `n`-queens solutions, one per orbit under the board's eight
//! symmetries (every symmetry maps a solution of the whole puzzle to one). Under each, the
//! bishops go diagonal by diagonal (shortest first, one diagonal may stay empty), then the
//! rooks row by row (the row with fewest squares left first), each square taken out of the
//! knight graph's matching incrementally (one augmenting-path search per square).
//!
//! **The bound** (exact: no solution is lost). For any maximum matching `M` of the free
//! squares `F` and any set `S ⊆ F` of squares still to be taken,
//! `α(F − S) ≤ α(F) − |S \ V(M)|`: removing `S` removes at most `|S ∩ V(M)|` edges of `M`.
//! So the knights are at most `α(F)` minus a lower bound on the unmatched squares the pieces
//! still to come must take: for the rooks, rows left minus a maximum assignment of rows to
//! free columns on matched squares (and no assignment at all prunes); for the bishops, the
//! diagonals left whose every square is unmatched, less the one that may stay empty.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use crate::pool;
use crate::{Settings, Stats, Stop};

/// The longest side searched: a set of squares fits in six words of bits.
pub const MAX_CROWDED_SIDE: usize = 19;

const WORDS: usize = MAX_CROWDED_SIDE * MAX_CROWDED_SIDE / 64 + 1;
const SQUARES: usize = MAX_CROWDED_SIDE * MAX_CROWDED_SIDE;
const NONE: u16 = u16::MAX;

/// One side's units, best bound first, with their bounds ([`Crowded::listing`]): listing
/// them takes minutes from n = 17 on, so a caller that asks the same side at several sizes
/// (a climb asks once per step) keeps the listing and hands it to
/// [`Crowded::with_listing`].
#[derive(Clone)]
pub struct Listing {
    n: usize,
    units: Arc<Vec<u8>>,
    bounds: Arc<Vec<u16>>,
}

impl Listing {
    /// The side listed.
    pub fn side(&self) -> usize {
        self.n
    }
}

/// A set of squares, bit `r·n + c` for square `(r, c)`.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Bits<const W: usize>([u64; W]);

impl<const W: usize> Default for Bits<W> {
    fn default() -> Self {
        Bits([0; W])
    }
}

impl<const W: usize> Bits<W> {
    fn set(&mut self, s: usize) {
        self.0[s / 64] |= 1 << (s % 64);
    }
    fn clear(&mut self, s: usize) {
        self.0[s / 64] &= !(1 << (s % 64));
    }
    fn has(&self, s: usize) -> bool {
        self.0[s / 64] >> (s % 64) & 1 == 1
    }
    fn and(&self, other: &Bits<W>) -> Bits<W> {
        Bits(std::array::from_fn(|i| self.0[i] & other.0[i]))
    }
    fn and_not(&self, other: &Bits<W>) -> Bits<W> {
        Bits(std::array::from_fn(|i| self.0[i] & !other.0[i]))
    }
    fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    fn or(&self, other: &Bits<W>) -> Bits<W> {
        Bits(std::array::from_fn(|i| self.0[i] | other.0[i]))
    }

    /// The first `V` words (`V ≤ W`: the squares of a board that needs no more).
    fn narrow<const V: usize>(&self) -> Bits<V> {
        Bits(std::array::from_fn(|i| self.0[i]))
    }

    /// Row `r`'s squares (`n` to a row), bit `c` for column `c`.
    fn row(&self, r: usize, n: usize) -> u32 {
        let (word, shift) = (r * n / 64, r * n % 64);
        let mut bits = self.0[word] >> shift;
        if shift + n > 64 && word + 1 < W {
            bits |= self.0[word + 1] << (64 - shift);
        }
        (bits & ((1u64 << n) - 1)) as u32
    }

    fn squares(self) -> impl Iterator<Item = usize> {
        self.0.into_iter().enumerate().flat_map(|(i, mut w)| {
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let b = w.trailing_zeros() as usize;
                    w &= w - 1;
                    i * 64 + b
                })
            })
        })
    }
}

/// A crowded board: every piece's squares `(row, col)`, row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrowdedWitness {
    /// `n` queens.
    pub queens: Vec<(usize, usize)>,
    /// `n` rooks.
    pub rooks: Vec<(usize, usize)>,
    /// `2n − 2` bishops.
    pub bishops: Vec<(usize, usize)>,
    /// The most knights the other pieces leave room for (at least the number asked).
    pub knights: Vec<(usize, usize)>,
}

/// The answer to "do `k` knights fit beside the other pieces?".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CrowdedVerdict {
    /// They fit.
    Sat(CrowdedWitness),
    /// They do not: every unit was searched to its end.
    Unsat,
    /// Stopped before an answer.
    Unknown(Stop),
}

/// The search for `knights` knights on `n × n`, split into units: the `n`-queens solutions,
/// one per orbit under the board's symmetries.
pub struct Crowded {
    n: usize,
    knights: usize,
    /// Every unit with room for some knights, best bound first: unit `i`'s queens are
    /// `units[i·n..][..n]` (row `r`'s column), its bound `bounds[i]`. Shared by every
    /// question on this side asked with the same [`Listing`].
    units: Arc<Vec<u8>>,
    bounds: Arc<Vec<u16>>,
    /// The units whose bound reaches `knights`: a prefix.
    count: usize,
    /// The squares a knight on each square attacks.
    moves: Vec<Bits<WORDS>>,
    /// Every diagonal's squares (`r − c` constant) with their anti-diagonals (`r + c`), the
    /// shortest diagonals first.
    diagonals: Vec<Vec<(u16, u8)>>,
    /// The squares of each diagonal, in the order of `diagonals`.
    diagonal_squares: Vec<Bits<WORDS>>,
    /// The squares of each anti-diagonal (`r + c`).
    anti_squares: Vec<Bits<WORDS>>,
    /// A maximum matching of the whole board's knight graph, where every unit starts.
    full: [u16; SQUARES],
    full_size: usize,
}

/// Evaluates `$body` with the const `$w` set to `$words` (1 to 5), or to [`WORDS`] above:
/// the one place a board's word count becomes a type.
macro_rules! with_words {
    ($words:expr, $w:ident => $body:expr) => {
        match $words {
            1 => {
                const $w: usize = 1;
                $body
            }
            2 => {
                const $w: usize = 2;
                $body
            }
            3 => {
                const $w: usize = 3;
                $body
            }
            4 => {
                const $w: usize = 4;
                $body
            }
            5 => {
                const $w: usize = 5;
                $body
            }
            _ => {
                const $w: usize = WORDS;
                $body
            }
        }
    };
}

impl Crowded {
    /// Lists the units for `knights` knights on `n × n` (`1 ≤ n ≤` [`MAX_CROWDED_SIDE`]).
    pub fn new(n: usize, knights: usize) -> Crowded {
        Crowded::build(n, knights, None)
    }

    /// The search for `knights` knights on the side of `listing`, its units taken from
    /// there rather than listed again.
    pub fn with_listing(listing: &Listing, knights: usize) -> Crowded {
        Crowded::build(listing.n, knights, Some(listing))
    }

    /// The units of this side and their bounds, for [`Crowded::with_listing`].
    pub fn listing(&self) -> Listing {
        Listing {
            n: self.n,
            units: self.units.clone(),
            bounds: self.bounds.clone(),
        }
    }

    fn build(n: usize, knights: usize, cached: Option<&Listing>) -> Crowded {
        assert!(
            (1..=MAX_CROWDED_SIDE).contains(&n),
            "sides 1 to {MAX_CROWDED_SIDE}"
        );
        let mut units = Vec::new();
        if cached.is_none() {
            let mut cols = vec![0u8; n];
            queen_solutions(n, 0, 0, 0, 0, &mut cols, &mut |p| {
                if least_image(p) {
                    units.extend_from_slice(p);
                }
            });
        }
        let moves = (0..n * n)
            .map(|s| {
                let (r, c) = ((s / n) as i32, (s % n) as i32);
                let mut b = Bits::default();
                for (dr, dc) in [
                    (1, 2),
                    (2, 1),
                    (-1, 2),
                    (-2, 1),
                    (1, -2),
                    (2, -1),
                    (-1, -2),
                    (-2, -1),
                ] {
                    let (rr, cc) = (r + dr, c + dc);
                    if (0..n as i32).contains(&rr) && (0..n as i32).contains(&cc) {
                        b.set(rr as usize * n + cc as usize);
                    }
                }
                b
            })
            .collect();
        let mut diagonals: Vec<Vec<(u16, u8)>> = (0..2 * n - 1)
            .map(|d| {
                (0..n)
                    .filter_map(|r| {
                        let c = r as i64 - d as i64 + n as i64 - 1;
                        (0..n as i64)
                            .contains(&c)
                            .then(|| ((r * n + c as usize) as u16, (r + c as usize) as u8))
                    })
                    .collect()
            })
            .collect();
        diagonals.sort_by_key(Vec::len);
        let squares = |cells: &mut dyn Iterator<Item = usize>| {
            let mut b = Bits::default();
            cells.for_each(|s| b.set(s));
            b
        };
        let diagonal_squares = diagonals
            .iter()
            .map(|d| squares(&mut d.iter().map(|&(s, _)| s as usize)))
            .collect();
        let anti_squares = (0..2 * n - 1)
            .map(|a| squares(&mut (0..n * n).filter(|s| s / n + s % n == a)))
            .collect();
        let mut crowded = Crowded {
            n,
            knights,
            count: units.len() / n,
            units: Arc::new(units),
            bounds: Arc::new(Vec::new()),
            moves,
            diagonals,
            diagonal_squares,
            anti_squares,
            full: [NONE; SQUARES],
            full_size: 0,
        };
        let mut matching = Matching::<WORDS>::new(&crowded);
        for s in 0..n * n {
            if (s / n + s % n).is_multiple_of(2) && matching.augment(&crowded.moves, s) {
                matching.size += 1;
            }
        }
        crowded.full = matching.mate;
        crowded.full_size = matching.size;
        if let Some(listing) = cached {
            (crowded.units, crowded.bounds) = (listing.units.clone(), listing.bounds.clone());
        } else {
            with_words!(crowded.words(), W => crowded.order::<W>());
        }
        crowded.count = crowded
            .bounds
            .partition_point(|&b| usize::from(b) >= knights);
        crowded
    }

    /// Puts the units whose queens leave room for the most knights by the search's own
    /// bound first (a step that is SAT ends sooner; a step keeps the prefix whose bound
    /// reaches its knights), and drops those where the other pieces cannot all go.
    fn order<const W: usize>(&mut self) {
        let never = AtomicBool::new(false);
        let settings = Settings::default();
        let mut search = Search::<W>::new(self, &settings, &never);
        let mut keyed: Vec<(usize, usize)> = (0..self.units())
            .filter_map(|i| Some((search.root_bound(self.unit(i))?, i)))
            .collect();
        // Stable: equal bounds keep the enumeration's order.
        keyed.sort_by_key(|&(bound, _)| std::cmp::Reverse(bound));
        let n = self.n;
        let units = keyed
            .iter()
            .flat_map(|&(_, i)| self.units[i * n..(i + 1) * n].iter().copied())
            .collect();
        let bounds = keyed.iter().map(|&(b, _)| b as u16).collect();
        drop(search);
        self.units = Arc::new(units);
        self.bounds = Arc::new(bounds);
        self.count = self.bounds.len();
    }

    /// The units of work: `n`-queens solutions, each searched whole by
    /// [`Crowded::decide_unit`].
    pub fn units(&self) -> usize {
        self.count
    }

    /// Unit `i`'s queens: entry `r` is the column of row `r`'s queen.
    pub fn unit(&self, i: usize) -> &[u8] {
        &self.units[i * self.n..(i + 1) * self.n]
    }

    /// Searches every unit on `settings.jobs` threads; the first witness stops them all.
    pub fn decide(&self, settings: &Settings) -> (CrowdedVerdict, Stats) {
        let all: Vec<usize> = (0..self.units()).collect();
        self.decide_units(&all, settings, &|_| {})
    }

    /// Searches the units `ids` like [`Crowded::decide`], calling `finished(i)` as each unit
    /// `i` is searched to its end without a solution (from the worker threads, in any
    /// order), which is what a journal records.
    pub fn decide_units(
        &self,
        ids: &[usize],
        settings: &Settings,
        finished: &(dyn Fn(usize) + Sync),
    ) -> (CrowdedVerdict, Stats) {
        with_words!(self.words(), W => self.units_in::<W>(ids, settings, finished))
    }

    /// Searches unit `i` (`< units()`) alone, on this thread: `Unsat` means no solution
    /// has these queens.
    pub fn decide_unit(&self, i: usize, settings: &Settings) -> (CrowdedVerdict, Stats) {
        with_words!(self.words(), W => self.unit_in::<W>(i, settings))
    }

    /// The words of bits a set of squares takes: the fewer, the faster every step of the
    /// matching.
    fn words(&self) -> usize {
        (self.n * self.n).div_ceil(64)
    }

    fn units_in<const W: usize>(
        &self,
        ids: &[usize],
        settings: &Settings,
        finished: &(dyn Fn(usize) + Sync),
    ) -> (CrowdedVerdict, Stats) {
        let found = AtomicBool::new(false);
        let (outcome, stats) = pool::run(ids, settings, finished, &found, || {
            Search::<W>::new(self, settings, &found)
        });
        let verdict = outcome.verdict(
            CrowdedVerdict::Sat,
            CrowdedVerdict::Unsat,
            CrowdedVerdict::Unknown,
        );
        (verdict, stats)
    }

    fn unit_in<const W: usize>(&self, i: usize, settings: &Settings) -> (CrowdedVerdict, Stats) {
        let never = AtomicBool::new(false);
        let mut search = Search::<W>::new(self, settings, &never);
        let verdict = match search.unit(self.unit(i)) {
            Ok(None) => CrowdedVerdict::Unsat,
            Ok(Some(w)) => CrowdedVerdict::Sat(w),
            Err(stop) => CrowdedVerdict::Unknown(stop),
        };
        let stats = Stats {
            nodes: search.nodes,
            pairs: search.leaves,
            row_sets_done: usize::from(verdict == CrowdedVerdict::Unsat),
            row_sets: 1,
            jobs: 1,
            resumed: 0,
        };
        (verdict, stats)
    }
}

/// Every `n`-queens solution with row 0's queen in the left half (the others are mirror
/// images of these), row by row (`cols[r]`: row `r`'s column).
fn queen_solutions(
    n: usize,
    r: usize,
    used: u32,
    up: u64,
    down: u64,
    cols: &mut [u8],
    each: &mut dyn FnMut(&[u8]),
) {
    if r == n {
        each(cols);
        return;
    }
    // Row 0's queen in the left half: its mirror image would start lower.
    let mut free = if r == 0 { low(n.div_ceil(2)) } else { low(n) } & !used;
    while free != 0 {
        let c = free.trailing_zeros() as usize;
        free &= free - 1;
        let (u, d) = (1u64 << (r + c), 1u64 << (r + n - 1 - c));
        if up & u == 0 && down & d == 0 {
            cols[r] = c as u8;
            queen_solutions(n, r + 1, used | 1 << c, up | u, down | d, cols, each);
        }
    }
}

/// Whether the queens `p` (row `r`'s at column `p[r]`) are lexicographically least among
/// their images under the board's eight symmetries.
fn least_image(p: &[u8]) -> bool {
    let n = p.len();
    let last = n as u8 - 1;
    let mut image = [0u8; MAX_CROWDED_SIDE];
    let image = &mut image[..n];
    for t in 1..8 {
        for (r, &c) in p.iter().enumerate() {
            let (r, c) = (r as u8, c);
            let (r, c) = if t & 4 != 0 { (c, r) } else { (r, c) };
            let r = if t & 2 != 0 { last - r } else { r };
            let c = if t & 1 != 0 { last - c } else { c };
            image[r as usize] = c;
        }
        if &*image < p {
            return false;
        }
    }
    true
}

/// A maximum matching of the knight graph on the free squares, kept maximum as squares
/// are taken.
struct Matching<const W: usize> {
    free: Bits<W>,
    /// The free squares of each colour (`(r + c) % 2`).
    free_count: [usize; 2],
    mate: [u16; SQUARES],
    /// The free squares with no mate.
    exposed: Bits<W>,
    size: usize,
    n: usize,
    /// Every change to `mate` since the unit began, with the value it replaced: undone
    /// back to a [`Mark`] on backtracking, which costs what the search changed rather
    /// than a copy of the whole array per node.
    trail: Vec<(u16, u16)>,
}

/// Where a [`Matching`] was, to go back to.
#[derive(Clone, Copy)]
struct Mark<const W: usize> {
    free: Bits<W>,
    exposed: Bits<W>,
    free_count: [usize; 2],
    size: usize,
    trail: usize,
}

impl<const W: usize> Matching<W> {
    fn new(crowded: &Crowded) -> Matching<W> {
        let mut free = Bits::default();
        for s in 0..crowded.n * crowded.n {
            free.set(s);
        }
        let n = crowded.n;
        let even = (n * n).div_ceil(2);
        let mut exposed = Bits::default();
        for s in 0..n * n {
            if crowded.full[s] == NONE {
                exposed.set(s);
            }
        }
        Matching {
            free,
            free_count: [even, n * n - even],
            exposed,
            mate: crowded.full,
            size: crowded.full_size,
            n,
            trail: Vec::new(),
        }
    }

    /// Starts again from the whole board's matching.
    fn reset(&mut self, crowded: &Crowded) {
        self.mate = crowded.full;
        self.trail.clear();
        let n = self.n;
        for s in 0..n * n {
            self.free.set(s);
        }
        let even = (n * n).div_ceil(2);
        self.free_count = [even, n * n - even];
        self.size = crowded.full_size;
        self.exposed = Bits::default();
        for s in 0..n * n {
            if self.mate[s] == NONE {
                self.exposed.set(s);
            }
        }
    }

    fn mark(&self) -> Mark<W> {
        Mark {
            free: self.free,
            exposed: self.exposed,
            free_count: self.free_count,
            size: self.size,
            trail: self.trail.len(),
        }
    }

    fn undo(&mut self, mark: &Mark<W>) {
        for (s, old) in self.trail.drain(mark.trail..).rev() {
            self.mate[s as usize] = old;
        }
        self.free = mark.free;
        self.exposed = mark.exposed;
        self.free_count = mark.free_count;
        self.size = mark.size;
    }

    fn set_mate(&mut self, s: usize, to: u16) {
        self.trail.push((s as u16, self.mate[s]));
        self.mate[s] = to;
        if to != NONE {
            self.exposed.clear(s);
        } else if self.free.has(s) {
            self.exposed.set(s);
        }
    }

    fn colour(&self, s: usize) -> usize {
        (s / self.n + s % self.n) % 2
    }

    /// The most knights the free squares hold.
    fn alpha(&self) -> usize {
        self.free_count[0] + self.free_count[1] - self.size
    }

    /// Looks for an augmenting path from the unmatched square `x` (Kuhn's search).
    fn augment(&mut self, moves: &[Bits<W>], x: usize) -> bool {
        let mut seen = Bits::default();
        self.augment_from(moves, x, &mut seen)
    }

    fn augment_from(&mut self, moves: &[Bits<W>], x: usize, seen: &mut Bits<W>) -> bool {
        let next = moves[x].and(&self.free).and_not(seen);
        for y in next.squares() {
            if self.mate[y] == NONE {
                self.set_mate(x, y as u16);
                self.set_mate(y, x as u16);
                return true;
            }
        }
        for y in next.squares() {
            if seen.has(y) {
                continue;
            }
            seen.set(y);
            let z = self.mate[y] as usize;
            if self.augment_from(moves, z, seen) {
                self.set_mate(x, y as u16);
                self.set_mate(y, x as u16);
                return true;
            }
        }
        false
    }

    /// Takes square `s` out. The matching loses at most one edge; if it does, the only
    /// augmenting paths start at `s`'s old partner, so one search restores a maximum.
    fn take(&mut self, moves: &[Bits<W>], s: usize) {
        self.free.clear(s);
        self.exposed.clear(s);
        let colour = self.colour(s);
        self.free_count[colour] -= 1;
        let u = self.mate[s];
        if u != NONE {
            let u = u as usize;
            self.set_mate(s, NONE);
            self.set_mate(u, NONE);
            self.size -= 1;
            // An augmenting path from `u` ends on an unmatched square of `s`'s colour;
            // with none, the search would visit all it reaches for nothing.
            if self.free_count[colour] > self.size && self.augment(moves, u) {
                self.size += 1;
            }
        }
    }

    /// The free squares some maximum matching leaves unmatched: the unmatched ones and the
    /// partners of their neighbours, closed under that step.
    fn missable(&self, moves: &[Bits<W>]) -> Bits<W> {
        let mut missed = Bits::default();
        let mut stack: Vec<usize> = self
            .free
            .squares()
            .filter(|&s| self.mate[s] == NONE)
            .collect();
        for &s in &stack {
            missed.set(s);
        }
        while let Some(x) = stack.pop() {
            for y in moves[x].and(&self.free).squares() {
                let z = self.mate[y] as usize;
                if !missed.has(z) {
                    missed.set(z);
                    stack.push(z);
                }
            }
        }
        missed
    }

    /// A largest independent set of the free squares, from König's theorem: the squares
    /// of the even colour reachable from an unmatched even square by alternating paths,
    /// and the odd squares not reachable.
    fn independent(&self, moves: &[Bits<W>], n: usize) -> Vec<usize> {
        let even = |s: usize| (s / n + s % n).is_multiple_of(2);
        let mut reached = Bits::default();
        let mut stack: Vec<usize> = self
            .free
            .squares()
            .filter(|&s| even(s) && self.mate[s] == NONE)
            .collect();
        for &s in &stack {
            reached.set(s);
        }
        while let Some(x) = stack.pop() {
            for y in moves[x].and(&self.free).and_not(&reached).squares() {
                reached.set(y);
                let z = self.mate[y];
                if z != NONE && !reached.has(z as usize) {
                    reached.set(z as usize);
                    stack.push(z as usize);
                }
            }
        }
        self.free
            .squares()
            .filter(|&s| even(s) == reached.has(s))
            .collect()
    }
}

/// One worker's search.
struct Search<'a, const W: usize> {
    c: &'a Crowded,
    /// The knight moves in `W` words.
    moves: Vec<Bits<W>>,
    /// `Crowded::diagonal_squares` and `anti_squares` in `W` words.
    diagonal_squares: Vec<Bits<W>>,
    anti_squares: Vec<Bits<W>>,
    settings: &'a Settings<'a>,
    stop: &'a AtomicBool,
    m: Matching<W>,
    queens: Vec<usize>,
    bishops: Vec<usize>,
    rooks: Vec<usize>,
    nodes: u64,
    /// The node count at which this unit's budget runs out.
    limit: u64,
    /// Complete placements of the other pieces reached.
    leaves: u64,
}

impl<const W: usize> pool::UnitSearch for Search<'_, W> {
    type Witness = CrowdedWitness;

    fn search(&mut self, i: usize, budget: Option<u64>) -> Result<Option<CrowdedWitness>, Stop> {
        self.limit = budget.map_or(u64::MAX, |b| self.nodes.saturating_add(b));
        let c = self.c;
        self.unit(c.unit(i))
    }

    fn counts(&self) -> (u64, u64) {
        (self.nodes, self.leaves)
    }
}

impl<'a, const W: usize> Search<'a, W> {
    fn new(c: &'a Crowded, settings: &'a Settings<'a>, stop: &'a AtomicBool) -> Search<'a, W> {
        Search {
            c,
            moves: c.moves.iter().map(Bits::narrow).collect(),
            diagonal_squares: c.diagonal_squares.iter().map(Bits::narrow).collect(),
            anti_squares: c.anti_squares.iter().map(Bits::narrow).collect(),
            settings,
            stop,
            m: Matching::new(c),
            queens: Vec::new(),
            bishops: Vec::new(),
            rooks: Vec::new(),
            nodes: 0,
            limit: u64::MAX,
            leaves: 0,
        }
    }

    fn poll(&mut self) -> Result<(), Stop> {
        self.nodes += 1;
        pool::poll(self.nodes, 4_096, self.stop, self.settings, self.limit)
    }

    /// Searches the unit with these queens.
    fn unit(&mut self, queens: &[u8]) -> Result<Option<CrowdedWitness>, Stop> {
        self.start(queens);
        self.bishop(0, true, 0, Bits::default())
    }

    /// The bound on the knights with these queens (`None`: nothing else fits).
    fn root_bound(&mut self, queens: &[u8]) -> Option<usize> {
        self.start(queens);
        let all = low(self.c.n);
        let loss = self.bishop_loss(0, true, &Bits::default())? + self.rook_loss(all, all)?;
        self.m.alpha().checked_sub(loss)
    }

    /// Places the queens, nothing else.
    fn start(&mut self, queens: &[u8]) {
        let n = self.c.n;
        self.m.reset(self.c);
        self.queens = queens
            .iter()
            .enumerate()
            .map(|(r, &c)| r * n + c as usize)
            .collect();
        self.bishops.clear();
        self.rooks.clear();
        for &s in &self.queens {
            self.m.take(&self.moves, s);
        }
    }

    /// Places the bishop of diagonal `k` (in the crowded board's order), or leaves it
    /// empty while `skip` allows.
    /// `blocked`: the squares of the anti-diagonals `anti` holds.
    fn bishop(
        &mut self,
        k: usize,
        skip: bool,
        anti: u64,
        blocked: Bits<W>,
    ) -> Result<Option<CrowdedWitness>, Stop> {
        self.poll()?;
        // The cheap bound first.
        let alpha = self.m.alpha();
        let loss = match self.bishop_loss(k, skip, &blocked) {
            Some(loss) if alpha >= self.c.knights + loss => loss,
            _ => return Ok(None),
        };
        let all = low(self.c.n);
        match self.rook_loss(all, all) {
            Some(rooks) if alpha >= self.c.knights + loss + rooks => {}
            _ => return Ok(None),
        }
        if k == self.c.diagonals.len() {
            return self.rook(all, all);
        }
        let saved = self.m.mark();
        for i in 0..self.c.diagonals[k].len() {
            let (s, a) = self.c.diagonals[k][i];
            let s = s as usize;
            if !self.m.free.has(s) || anti >> a & 1 == 1 {
                continue;
            }
            self.m.take(&self.moves, s);
            self.bishops.push(s);
            let blocked = blocked.or(&self.anti_squares[a as usize]);
            let found = self.bishop(k + 1, skip, anti | 1 << a, blocked)?;
            if found.is_some() {
                return Ok(found);
            }
            self.bishops.pop();
            self.m.undo(&saved);
        }
        if skip {
            return self.bishop(k + 1, false, anti, blocked);
        }
        Ok(None)
    }

    /// The unmatched squares the bishops of diagonals `k..` must take at least, or `None`
    /// if they cannot all be placed.
    fn bishop_loss(&self, k: usize, skip: bool, blocked: &Bits<W>) -> Option<usize> {
        let (mut empty, mut costly) = (0usize, 0usize);
        let open = self.m.free.and_not(blocked);
        for diagonal in &self.diagonal_squares[k..] {
            let squares = diagonal.and(&open);
            if squares.is_empty() {
                empty += 1;
            } else if squares.and_not(&self.m.exposed).is_empty() {
                costly += 1;
            }
        }
        let skips = usize::from(skip);
        if empty > skips {
            return None;
        }
        Some(costly.saturating_sub(skips - empty))
    }

    /// The unmatched squares rooks on `rows` and `cols` must take at least, or `None` if
    /// they cannot be placed at all.
    fn rook_loss(&self, rows: u32, cols: u32) -> Option<usize> {
        let n = self.c.n;
        let (mut open, mut cheap) = ([0u32; MAX_CROWDED_SIDE], [0u32; MAX_CROWDED_SIDE]);
        for r in ones(rows) {
            open[r] = self.m.free.row(r, n) & cols;
            if open[r] == 0 {
                return None;
            }
            cheap[r] = open[r] & !self.m.exposed.row(r, n);
        }
        let need = rows.count_ones() as usize;
        // A full assignment on matched squares also says the rooks fit.
        let matched = assignment(&cheap, rows);
        (matched == need || assignment(&open, rows) == need).then_some(need - matched)
    }

    /// Places a rook in one of `rows` (the one with fewest squares left), on one of `cols`.
    fn rook(&mut self, rows: u32, cols: u32) -> Result<Option<CrowdedWitness>, Stop> {
        self.poll()?;
        let n = self.c.n;
        if rows == 0 {
            self.leaves += 1;
            return Ok((self.m.alpha() >= self.c.knights).then(|| self.witness()));
        }
        let loss = self.rook_loss(rows, cols);
        if loss.is_none_or(|loss| self.m.alpha() < self.c.knights + loss) {
            return Ok(None);
        }
        if rows.is_power_of_two() {
            return Ok(self.last_rook(rows.trailing_zeros() as usize, cols));
        }
        let open = |r: usize| (self.m.free.row(r, n) & cols).count_ones();
        let r = ones(rows).min_by_key(|&r| open(r)).expect("a row left");
        let row = self.m.free.row(r, n) & cols;
        // Matched squares first: a rook there may cost no knight.
        let (mut squares, mut len) = ([0usize; MAX_CROWDED_SIDE], 0);
        for matched in [true, false] {
            for c in ones(row) {
                if (self.m.mate[r * n + c] != NONE) == matched {
                    squares[len] = r * n + c;
                    len += 1;
                }
            }
        }
        let saved = self.m.mark();
        for &s in &squares[..len] {
            self.m.take(&self.moves, s);
            self.rooks.push(s);
            let found = self.rook(rows & !(1 << r), cols & !(1 << (s % n)))?;
            if found.is_some() {
                return Ok(found);
            }
            self.rooks.pop();
            self.m.undo(&saved);
        }
        Ok(None)
    }

    /// Places the last rook, in row `r` on one of `cols`, without a matching per square:
    /// taking square `s` costs a knight iff some maximum matching leaves `s` unmatched
    /// (then `ν` stays and `|F|` drops; else `ν` drops with it), and those squares are the
    /// ones an even alternating path reaches from an unmatched square (Gallai–Edmonds).
    fn last_rook(&mut self, r: usize, cols: u32) -> Option<CrowdedWitness> {
        let n = self.c.n;
        let alpha = self.m.alpha();
        let squares = ones(cols)
            .map(|c| r * n + c)
            .filter(|&s| self.m.free.has(s));
        let s = if alpha > self.c.knights {
            squares.into_iter().next()
        } else {
            let missable = self.m.missable(&self.moves);
            squares.into_iter().find(|&s| !missable.has(s))
        };
        self.leaves += 1;
        let s = s?;
        self.m.take(&self.moves, s);
        self.rooks.push(s);
        Some(self.witness())
    }

    fn witness(&self) -> CrowdedWitness {
        let n = self.c.n;
        let cells = |squares: &[usize]| {
            let mut v: Vec<(usize, usize)> = squares.iter().map(|&s| (s / n, s % n)).collect();
            v.sort_unstable();
            v
        };
        CrowdedWitness {
            queens: cells(&self.queens),
            rooks: cells(&self.rooks),
            bishops: cells(&self.bishops),
            knights: cells(&self.m.independent(&self.moves, n)),
        }
    }
}

/// The most rows of `rows` given distinct columns, row `r` allowed the columns `open[r]`.
fn assignment(open: &[u32; MAX_CROWDED_SIDE], rows: u32) -> usize {
    fn assign(
        open: &[u32; MAX_CROWDED_SIDE],
        r: usize,
        seen: &mut u32,
        owner: &mut [u8; 32],
    ) -> bool {
        for c in ones(open[r] & !*seen) {
            *seen |= 1 << c;
            if owner[c] == u8::MAX || assign(open, owner[c] as usize, seen, owner) {
                owner[c] = r as u8;
                return true;
            }
        }
        false
    }
    let mut owner = [u8::MAX; 32];
    // Each row takes a column nobody has, where it can; Kuhn's search for the others.
    let (mut taken, mut count, mut left) = (0u32, 0, 0u32);
    for r in ones(rows) {
        let spare = open[r] & !taken;
        if spare == 0 {
            left |= 1 << r;
            continue;
        }
        let c = spare.trailing_zeros() as usize;
        taken |= 1 << c;
        owner[c] = r as u8;
        count += 1;
    }
    count
        + ones(left)
            .filter(|&r| assign(open, r, &mut 0, &mut owner))
            .count()
}

/// The set bits of `mask`, lowest first.
fn ones(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let b = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            b
        })
    })
}

fn low(n: usize) -> u32 {
    ((1u64 << n) - 1) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A listing handed on answers as a fresh one: the same units, bounds and prefix.
    #[test]
    fn a_listing_handed_on_is_the_listing_made_afresh() {
        for (n, k) in [(6, 8), (8, 21), (8, 22)] {
            let listed = Crowded::new(n, k - 1).listing();
            let (kept, fresh) = (Crowded::with_listing(&listed, k), Crowded::new(n, k));
            assert_eq!(kept.units(), fresh.units(), "{n}/{k}");
            assert_eq!(kept.bounds, fresh.bounds);
            for i in 0..fresh.units() {
                assert_eq!(kept.unit(i), fresh.unit(i));
            }
        }
    }

    fn most(n: usize) -> usize {
        let mut k = 0;
        while matches!(
            Crowded::new(n, k + 1).decide(&Settings::default()).0,
            CrowdedVerdict::Sat(_)
        ) {
            k += 1;
        }
        k
    }

    #[test]
    fn queen_orbits() {
        let units = |n| Crowded::new(n, 0).units();
        assert_eq!([4, 5, 6, 7, 8].map(units), [1, 2, 1, 6, 12]);
    }

    #[test]
    fn small_values() {
        assert_eq!([5, 6, 7, 8].map(most), [5, 9, 15, 21]);
    }
}
