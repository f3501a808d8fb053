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
use crate::{Settings, Stats, Units, Verdict};

mod matching;
mod search;

use matching::{Bits, Matching};
use search::{low, Search};

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
pub type CrowdedVerdict = crate::Verdict<CrowdedWitness>;

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
        with_words!(@arms $words, $w => $body; 1 2 3 4 5)
    };
    (@arms $words:expr, $w:ident => $body:expr; $($k:literal)*) => {
        match $words {
            $($k => {
                const $w: usize = $k;
                $body
            })*
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

    /// Unit `i`'s queens: entry `r` is the column of row `r`'s queen.
    pub fn unit(&self, i: usize) -> &[u8] {
        &self.units[i * self.n..(i + 1) * self.n]
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
        let searched = search.unit(self.unit(i));
        CrowdedVerdict::of_unit(searched, search.nodes, search.leaves)
    }
}

impl Units for Crowded {
    type Witness = CrowdedWitness;

    fn units(&self) -> usize {
        self.count
    }

    fn decide_units(
        &self,
        ids: &[usize],
        settings: &Settings,
        finished: &(dyn Fn(usize) + Sync),
    ) -> (Verdict<Self::Witness>, Stats) {
        with_words!(self.words(), W => self.units_in::<W>(ids, settings, finished))
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
