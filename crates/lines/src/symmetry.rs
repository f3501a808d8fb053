//! The board's symmetries acting on (white rows, white columns).
//!
//! Row reversal, column reversal and the colour swap are symmetries of every rectangle;
//! transposition is one of a square. They permute lines and keep a labelling peaceable, so
//! only the pair `(S, T)` least in its orbit needs a search: least as `S` then `T` compared
//! as integers (bit `r` for row `r`). pq-sat's colouring formula orders pairs from row 0 on
//! instead; [`crate::search_fixed`] maps one order onto the other by the half-turn.
//!
//! On a square the group has 16 elements (the 8 of the square times the colour swap),
//! on other rectangles 8; without the colour swap (armies of different sizes) half as many.
//!
//! The `d × d` torus has more: every map `(r, c) → (u·r + a, v·c + b) mod d` with `u` a unit
//! mod `d` and `v = ±u` sends lines to lines (a diagonal `r + c = s` goes to `u·r ± u·c`, a
//! diagonal of one family or the other), and so do the transposition and the colour swap:
//! `2·φ(d)·d²·2·2` elements (fewer for d ≤ 2). Translations act on `S` and `T`
//! independently, so the least image of a pair is found one multiplier at a time, each set
//! rotated to its least rotation.

use crate::board::{low_bits, reverse, rotate_right, Board};

/// The group acting on `(S, T)` for one board.
#[derive(Clone, Debug)]
pub struct Group {
    rows: usize,
    cols: usize,
    square: bool,
    swap: bool,
    /// On the torus, the multiplier pairs `(u, v)`, `v = ±u`; empty on a plain board.
    multipliers: Vec<(usize, usize)>,
}

impl Group {
    /// The group of `board`, with the colour swap when `swap` (equal armies).
    pub fn of(board: &Board, swap: bool) -> Group {
        let d = board.rows();
        let mut multipliers = Vec::new();
        if board.is_torus() {
            for u in (1..=d).filter(|&u| gcd(u, d) == 1) {
                for v in [u % d, (d - u % d) % d] {
                    if !multipliers.contains(&(u % d, v)) {
                        multipliers.push((u % d, v));
                    }
                }
            }
        }
        Group {
            rows: board.rows(),
            cols: board.cols(),
            square: board.is_square(),
            swap,
            multipliers,
        }
    }

    fn torus(&self) -> bool {
        !self.multipliers.is_empty()
    }

    /// The number of maps the group lists (the certificates' `symmetry` line): for `d ≥ 2`
    /// they are distinct maps of the cells, so this is the group's order; on the 1 × 1
    /// board, whose one cell every map fixes, it is the same formula's count, not 1.
    pub fn order(&self) -> usize {
        let plain = 4 << (usize::from(self.square) + usize::from(self.swap));
        if self.torus() {
            // Row and column translations instead of the two reversals (a reversal is the
            // multiplier -1).
            plain / 4 * self.multipliers.len() * self.rows * self.cols
        } else {
            plain
        }
    }

    /// Every image of `(s, t)`, the identity first.
    pub fn images(&self, s: u32, t: u32) -> Box<dyn Iterator<Item = (u32, u32)> + '_> {
        if self.torus() {
            return Box::new(self.torus_images(s, t));
        }
        Box::new(self.plain_images(s, t))
    }

    fn torus_images(&self, s: u32, t: u32) -> impl Iterator<Item = (u32, u32)> + '_ {
        let d = self.rows;
        let full = low_bits(d);
        let swaps: &[bool] = if self.swap { &[false, true] } else { &[false] };
        self.multipliers.iter().flat_map(move |&(u, v)| {
            swaps.iter().flat_map(move |&swap| {
                let (s, t) = if swap { (!s & full, !t & full) } else { (s, t) };
                let (a, b) = (multiply(s, u, d), multiply(t, v, d));
                (0..d).flat_map(move |i| {
                    (0..d).flat_map(move |j| {
                        let (x, y) = (rotate_right(a, i, d), rotate_right(b, j, d));
                        [(x, y), (y, x)]
                    })
                })
            })
        })
    }

    fn plain_images(&self, s: u32, t: u32) -> impl Iterator<Item = (u32, u32)> {
        let (full_r, full_c) = (low_bits(self.rows), low_bits(self.cols));
        let ss = [s, reverse(s, self.rows)];
        let ts = [t, reverse(t, self.cols)];
        let (square, swap) = (self.square, self.swap);
        // Element g: bit 0 reverses rows, bit 1 columns, then the colour swap (if in the
        // group) and the transposition (if in the group) take the next bits.
        (0..self.order()).map(move |g| {
            let (a, b) = (ss[g & 1], ts[(g >> 1) & 1]);
            let mut rest = g >> 2;
            let (a, b) = if swap && rest & 1 != 0 {
                (!a & full_r, !b & full_c)
            } else {
                (a, b)
            };
            if swap {
                rest >>= 1;
            }
            if square && rest & 1 != 0 {
                (b, a)
            } else {
                (a, b)
            }
        })
    }

    /// Whether `(s, t)` is the least of its orbit. The same test as comparing with every
    /// [`Group::images`], written out: it runs for every candidate pair.
    #[inline]
    pub fn is_least(&self, s: u32, t: u32) -> bool {
        if self.torus() {
            return self.is_least_on_torus(s, t);
        }
        let (full_r, full_c) = (low_bits(self.rows), low_bits(self.cols));
        let key = |a: u32, b: u32| u64::from(a) << 32 | u64::from(b);
        let me = key(s, t);
        let (rs, rt) = (reverse(s, self.rows), reverse(t, self.cols));
        let mut images = [u64::MAX; 15];
        images[0] = key(s, rt);
        images[1] = key(rs, t);
        images[2] = key(rs, rt);
        if self.swap {
            let (ns, nt, nrs, nrt) = (!s & full_r, !t & full_c, !rs & full_r, !rt & full_c);
            images[3] = key(ns, nt);
            images[4] = key(ns, nrt);
            images[5] = key(nrs, nt);
            images[6] = key(nrs, nrt);
            if self.square {
                images[7] = key(nt, ns);
                images[8] = key(nt, nrs);
                images[9] = key(nrt, ns);
                images[10] = key(nrt, nrs);
            }
        }
        if self.square {
            images[11] = key(t, s);
            images[12] = key(t, rs);
            images[13] = key(rt, s);
            images[14] = key(rt, rs);
        }
        images.iter().all(|&image| image >= me)
    }

    /// [`Group::is_least`] for one row set `s` and every `t`: what depends on `s` alone
    /// is worked out once, for the loop over the column sets.
    pub fn least_with(&self, s: u32) -> LeastWith<'_> {
        let full = low_bits(self.rows);
        let rs = reverse(s, self.rows);
        LeastWith {
            group: self,
            s,
            rs,
            ns: !s & full,
            nrs: !rs & full,
            candidate: self.row_candidate(s),
        }
    }

    fn is_least_on_torus(&self, s: u32, t: u32) -> bool {
        let d = self.rows;
        let full = low_bits(d);
        let me = (s, t);
        let swaps: &[bool] = if self.swap { &[false, true] } else { &[false] };
        for &(u, v) in &self.multipliers {
            for &swap in swaps {
                let (x, y) = if swap { (!s & full, !t & full) } else { (s, t) };
                let a = least_rotation(multiply(x, u, d), d);
                let b = least_rotation(multiply(y, v, d), d);
                if (a, b) < me || (b, a) < me {
                    return false;
                }
            }
        }
        true
    }

    /// The column sets that can make a least pair with row set `s`: on a square the
    /// transposed image `(T, S)` needs `T ≥ S`, and with the colour swap `(T̄, S̄)` needs
    /// `T ≤ S̄`.
    pub fn columns(&self, s: u32) -> std::ops::RangeInclusive<u32> {
        let full_c = low_bits(self.cols);
        if self.torus() || !self.square {
            0..=full_c
        } else if self.swap {
            s..=(!s & full_c)
        } else {
            s..=full_c
        }
    }

    /// Generators of the group as maps of the board's cells: the search meets one pair of
    /// each orbit of this group, so a count of boards up to a smaller group (a caller's own)
    /// must close each board it meets under these to reach every orbit of its own.
    pub fn cell_generators(&self) -> Vec<CellMap> {
        let (rows, cols) = (self.rows, self.cols);
        let map = |f: &dyn Fn(usize, usize) -> (usize, usize), swap: bool| CellMap {
            cells: (0..rows)
                .flat_map(|r| (0..cols).map(move |c| (r, c)))
                .map(|(r, c)| f(r, c))
                .collect(),
            swap,
        };
        let mut out = Vec::new();
        if self.torus() {
            let d = rows;
            out.push(map(&|r, c| ((r + 1) % d, c), false));
            out.push(map(&|r, c| (r, (c + 1) % d), false));
            for &(u, v) in &self.multipliers {
                out.push(map(&|r, c| (u * r % d, v * c % d), false));
            }
        } else {
            out.push(map(&|r, c| (rows - 1 - r, c), false));
            out.push(map(&|r, c| (r, cols - 1 - c), false));
        }
        if self.square {
            out.push(map(&|r, c| (c, r), false));
        }
        if self.swap {
            out.push(map(&|r, c| (r, c), true));
        }
        out
    }

    /// How many group elements fix `(s, t)`; the orbit has `order / stabiliser` pairs.
    pub fn stabiliser(&self, s: u32, t: u32) -> usize {
        self.images(s, t).filter(|&image| image == (s, t)).count()
    }

    /// Whether a row mask can be the first half of a least pair: it is least among the
    /// images of its own coordinate (and, on a square, not above the column candidates,
    /// which [`Group::is_least`] checks with `t`).
    pub fn row_candidate(&self, s: u32) -> bool {
        let full = low_bits(self.rows);
        if self.torus() {
            let d = self.rows;
            let swaps: &[bool] = if self.swap { &[false, true] } else { &[false] };
            return self.multipliers.iter().all(|&(u, _)| {
                swaps.iter().all(|&swap| {
                    let x = if swap { !s & full } else { s };
                    s <= least_rotation(multiply(x, u, d), d)
                })
            });
        }
        // S against each image's first coordinate.
        let rev = reverse(s, self.rows);
        s <= rev && (!self.swap || (s <= !s & full && s <= !rev & full))
    }
}

/// [`Group::least_with`]'s test.
pub struct LeastWith<'a> {
    group: &'a Group,
    s: u32,
    rs: u32,
    ns: u32,
    nrs: u32,
    candidate: bool,
}

impl LeastWith<'_> {
    /// Whether `(s, t)` is the least of its orbit.
    #[inline]
    pub fn is_least(&self, t: u32) -> bool {
        let group = self.group;
        if !self.candidate {
            return false;
        }
        if group.torus() {
            return group.is_least_on_torus(self.s, t);
        }
        let (s, rs, ns, nrs) = (self.s, self.rs, self.ns, self.nrs);
        let full = low_bits(group.cols);
        let rt = reverse(t, group.cols);
        // An image (a, b) below (s, t). As s is a row candidate, the images whose first
        // coordinate is an image of s (rs, and with the swap ns and nrs) are at least s.
        let below = |a: u32, b: u32| a < s || (a == s && b < t);
        if below(s, rt) || below(rs, rt) {
            return false;
        }
        if group.square && (below(t, s) || below(t, rs) || below(rt, s) || below(rt, rs)) {
            return false;
        }
        if group.swap {
            let (nt, nrt) = (!t & full, !rt & full);
            if below(ns, nt) || below(ns, nrt) || below(nrs, nt) || below(nrs, nrt) {
                return false;
            }
            if group.square
                && (below(nt, ns) || below(nt, nrs) || below(nrt, ns) || below(nrt, nrs))
            {
                return false;
            }
        }
        true
    }
}

/// One symmetry of the board as it moves cells: `cells[r * cols + c]` is the image of cell
/// `(r, c)`, and `swap` says whether it also exchanges the colours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellMap {
    /// The image of each cell, row-major.
    pub cells: Vec<(usize, usize)>,
    /// Whether white and black change places.
    pub swap: bool,
}

/// The greatest common divisor.
fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The set `{u·r mod d : r ∈ x}`.
fn multiply(x: u32, u: usize, d: usize) -> u32 {
    if u == 1 {
        return x;
    }
    let mut out = 0;
    let mut bits = x;
    while bits != 0 {
        let r = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        out |= 1 << (u * r % d);
    }
    out
}

/// The least of the `d` rotations of `x` within `d` bits.
fn least_rotation(x: u32, d: usize) -> u32 {
    (0..d).map(|k| rotate_right(x, k, d)).min().unwrap_or(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// Each cell generator moves the cells of a pair's colours onto those of one of the
    /// pair's images, and together they reach every image.
    #[test]
    fn cell_generators_act_as_the_group() {
        let boards = [
            (Board::new(4, 4).unwrap(), true),
            (Board::new(3, 5).unwrap(), true),
            (Board::new(4, 4).unwrap(), false),
            (Board::torus(5).unwrap(), true),
            (Board::torus(7).unwrap(), true),
            (Board::torus(6).unwrap(), false),
        ];
        for (board, swap) in boards {
            let (rows, cols) = (board.rows(), board.cols());
            let group = Group::of(&board, swap);
            let generators = group.cell_generators();
            // The pair whose white cells are S × T, read back from a set of cells.
            let pair_of = |white: &BTreeSet<(usize, usize)>| {
                let s = white.iter().fold(0u32, |m, &(r, _)| m | 1 << r);
                let t = white.iter().fold(0u32, |m, &(_, c)| m | 1 << c);
                (s, t)
            };
            for (s, t) in [(0b1, 0b11), (0b101, 0b110), (0b11, 0b1001)] {
                let (s, t) = (s & board.row_mask(), t & board.col_mask());
                let white: BTreeSet<_> = (0..rows)
                    .flat_map(|r| (0..cols).map(move |c| (r, c)))
                    .filter(|&(r, c)| s >> r & 1 == 1 && t >> c & 1 == 1)
                    .collect();
                let orbit: BTreeSet<_> = group.images(s, t).collect();
                // Closing {(s, t)} under the generators reaches the whole orbit.
                let mut reached = BTreeSet::from([(s, t)]);
                let mut queue = vec![white];
                let mut boards = BTreeSet::new();
                while let Some(cells) = queue.pop() {
                    if !boards.insert(cells.clone()) {
                        continue;
                    }
                    for g in &generators {
                        let moved: BTreeSet<_> =
                            cells.iter().map(|&(r, c)| g.cells[r * cols + c]).collect();
                        let image = if g.swap {
                            let (a, b) = pair_of(&moved);
                            let full: BTreeSet<_> = (0..rows)
                                .flat_map(|r| (0..cols).map(move |c| (r, c)))
                                .filter(|&(r, c)| a >> r & 1 == 0 && b >> c & 1 == 0)
                                .collect();
                            full
                        } else {
                            moved
                        };
                        let pair = pair_of(&image);
                        assert!(orbit.contains(&pair), "{rows}x{cols}: {pair:?}");
                        reached.insert(pair);
                        queue.push(image);
                    }
                }
                assert_eq!(reached, orbit, "{rows}x{cols} torus={}", board.is_torus());
            }
        }
    }

    #[test]
    fn orbits_partition_the_pairs() {
        for (board, swap) in [
            (4, 4, true),
            (5, 5, true),
            (3, 5, true),
            (4, 2, true),
            (4, 4, false),
            (3, 4, false),
        ]
        .into_iter()
        .map(|(r, c, swap)| (Board::new(r, c).unwrap(), swap))
        .chain(
            [
                (1, true),
                (2, true),
                (3, true),
                (4, true),
                (5, true),
                (5, false),
                (6, true),
            ]
            .map(|(d, swap)| (Board::torus(d).unwrap(), swap)),
        ) {
            let (rows, cols) = (board.rows(), board.cols());
            let group = Group::of(&board, swap);
            let mut seen = BTreeSet::new();
            let mut orbits = 0;
            for s in 0..1u32 << rows {
                for t in 0..1u32 << cols {
                    let orbit: BTreeSet<_> = group.images(s, t).collect();
                    assert_eq!(orbit.len() * group.stabiliser(s, t), group.order());
                    let least = group.images(s, t).all(|image| (s, t) <= image);
                    assert_eq!(group.is_least(s, t), least, "({s}, {t})");
                    assert_eq!(group.least_with(s).is_least(t), least, "({s}, {t})");
                    if least {
                        assert!(group.columns(s).any(|c| c == t));
                        orbits += 1;
                        assert!(group.row_candidate(s));
                        assert_eq!(orbit.iter().min(), Some(&(s, t)));
                        assert!(orbit.iter().all(|p| seen.insert(*p)));
                    }
                }
            }
            assert_eq!(
                seen.len(),
                1 << (rows + cols),
                "{rows}x{cols}: {orbits} orbits"
            );
        }
    }
}
