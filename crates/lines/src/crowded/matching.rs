//! The squares as bit sets ([`Bits`]) and the knight graph's maximum matching
//! ([`Matching`]), kept maximum incrementally as squares are taken: the bound's `α(F) =
//! |F| − ν(F)` (König).

use super::{Crowded, NONE, SQUARES};

/// A set of squares, bit `r·n + c` for square `(r, c)`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct Bits<const W: usize>(pub(super) [u64; W]);

impl<const W: usize> Default for Bits<W> {
    fn default() -> Self {
        Bits([0; W])
    }
}

impl<const W: usize> Bits<W> {
    pub(super) fn set(&mut self, s: usize) {
        self.0[s / 64] |= 1 << (s % 64);
    }
    pub(super) fn clear(&mut self, s: usize) {
        self.0[s / 64] &= !(1 << (s % 64));
    }
    pub(super) fn has(&self, s: usize) -> bool {
        self.0[s / 64] >> (s % 64) & 1 == 1
    }
    pub(super) fn and(&self, other: &Bits<W>) -> Bits<W> {
        Bits(std::array::from_fn(|i| self.0[i] & other.0[i]))
    }
    pub(super) fn and_not(&self, other: &Bits<W>) -> Bits<W> {
        Bits(std::array::from_fn(|i| self.0[i] & !other.0[i]))
    }
    pub(super) fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    pub(super) fn or(&self, other: &Bits<W>) -> Bits<W> {
        Bits(std::array::from_fn(|i| self.0[i] | other.0[i]))
    }

    /// The first `V` words (`V ≤ W`: the squares of a board that needs no more).
    pub(super) fn narrow<const V: usize>(&self) -> Bits<V> {
        Bits(std::array::from_fn(|i| self.0[i]))
    }

    /// Row `r`'s squares (`n` to a row), bit `c` for column `c`.
    pub(super) fn row(&self, r: usize, n: usize) -> u32 {
        let (word, shift) = (r * n / 64, r * n % 64);
        let mut bits = self.0[word] >> shift;
        if shift + n > 64 && word + 1 < W {
            bits |= self.0[word + 1] << (64 - shift);
        }
        (bits & ((1u64 << n) - 1)) as u32
    }

    pub(super) fn squares(self) -> impl Iterator<Item = usize> {
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

/// A maximum matching of the knight graph on the free squares, kept maximum as squares
/// are taken.
pub(super) struct Matching<const W: usize> {
    pub(super) free: Bits<W>,
    /// The free squares of each colour (`(r + c) % 2`).
    pub(super) free_count: [usize; 2],
    pub(super) mate: [u16; SQUARES],
    /// The free squares with no mate.
    pub(super) exposed: Bits<W>,
    pub(super) size: usize,
    pub(super) n: usize,
    /// Every change to `mate` since the unit began, with the value it replaced: undone
    /// back to a [`Mark`] on backtracking, which costs what the search changed rather
    /// than a copy of the whole array per node.
    pub(super) trail: Vec<(u16, u16)>,
}

/// Where a [`Matching`] was, to go back to.
#[derive(Clone, Copy)]
pub(super) struct Mark<const W: usize> {
    pub(super) free: Bits<W>,
    pub(super) exposed: Bits<W>,
    pub(super) free_count: [usize; 2],
    pub(super) size: usize,
    pub(super) trail: usize,
}

impl<const W: usize> Matching<W> {
    pub(super) fn new(crowded: &Crowded) -> Matching<W> {
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
    pub(super) fn reset(&mut self, crowded: &Crowded) {
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

    pub(super) fn mark(&self) -> Mark<W> {
        Mark {
            free: self.free,
            exposed: self.exposed,
            free_count: self.free_count,
            size: self.size,
            trail: self.trail.len(),
        }
    }

    pub(super) fn undo(&mut self, mark: &Mark<W>) {
        for (s, old) in self.trail.drain(mark.trail..).rev() {
            self.mate[s as usize] = old;
        }
        self.free = mark.free;
        self.exposed = mark.exposed;
        self.free_count = mark.free_count;
        self.size = mark.size;
    }

    pub(super) fn set_mate(&mut self, s: usize, to: u16) {
        self.trail.push((s as u16, self.mate[s]));
        self.mate[s] = to;
        if to != NONE {
            self.exposed.clear(s);
        } else if self.free.has(s) {
            self.exposed.set(s);
        }
    }

    pub(super) fn colour(&self, s: usize) -> usize {
        (s / self.n + s % self.n) % 2
    }

    /// The most knights the free squares hold.
    pub(super) fn alpha(&self) -> usize {
        self.free_count[0] + self.free_count[1] - self.size
    }

    /// Looks for an augmenting path from the unmatched square `x` (Kuhn's search).
    pub(super) fn augment(&mut self, moves: &[Bits<W>], x: usize) -> bool {
        let mut seen = Bits::default();
        self.augment_from(moves, x, &mut seen)
    }

    pub(super) fn augment_from(&mut self, moves: &[Bits<W>], x: usize, seen: &mut Bits<W>) -> bool {
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
    pub(super) fn take(&mut self, moves: &[Bits<W>], s: usize) {
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
    pub(super) fn missable(&self, moves: &[Bits<W>]) -> Bits<W> {
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
    pub(super) fn independent(&self, moves: &[Bits<W>], n: usize) -> Vec<usize> {
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
