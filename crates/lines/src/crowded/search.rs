//! One unit's depth-first search: the bishops diagonal by diagonal, then the rooks row by
//! row, pruned by the matching bound.

use std::sync::atomic::AtomicBool;

use super::matching::{Bits, Matching};
use super::{Crowded, CrowdedWitness, MAX_CROWDED_SIDE, NONE};
use crate::pool;
use crate::{Settings, Stop};

/// One worker's search.
pub(super) struct Search<'a, const W: usize> {
    pub(super) c: &'a Crowded,
    /// The knight moves in `W` words.
    pub(super) moves: Vec<Bits<W>>,
    /// `Crowded::diagonal_squares` and `anti_squares` in `W` words.
    pub(super) diagonal_squares: Vec<Bits<W>>,
    pub(super) anti_squares: Vec<Bits<W>>,
    pub(super) settings: &'a Settings<'a>,
    pub(super) stop: &'a AtomicBool,
    pub(super) m: Matching<W>,
    pub(super) queens: Vec<usize>,
    pub(super) bishops: Vec<usize>,
    pub(super) rooks: Vec<usize>,
    pub(super) nodes: u64,
    /// The node count at which this unit's budget runs out.
    pub(super) limit: u64,
    /// Complete placements of the other pieces reached.
    pub(super) leaves: u64,
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
    pub(super) fn new(
        c: &'a Crowded,
        settings: &'a Settings<'a>,
        stop: &'a AtomicBool,
    ) -> Search<'a, W> {
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

    pub(super) fn poll(&mut self) -> Result<(), Stop> {
        self.nodes += 1;
        pool::poll(self.nodes, 4_096, self.stop, self.settings, self.limit)
    }

    /// Searches the unit with these queens.
    pub(super) fn unit(&mut self, queens: &[u8]) -> Result<Option<CrowdedWitness>, Stop> {
        self.start(queens);
        self.bishop(0, true, 0, Bits::default())
    }

    /// The bound on the knights with these queens (`None`: nothing else fits).
    pub(super) fn root_bound(&mut self, queens: &[u8]) -> Option<usize> {
        self.start(queens);
        let all = low(self.c.n);
        let loss = self.bishop_loss(0, true, &Bits::default())? + self.rook_loss(all, all)?;
        self.m.alpha().checked_sub(loss)
    }

    /// Places the queens, nothing else.
    pub(super) fn start(&mut self, queens: &[u8]) {
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
    pub(super) fn bishop(
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
    pub(super) fn bishop_loss(&self, k: usize, skip: bool, blocked: &Bits<W>) -> Option<usize> {
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
    pub(super) fn rook_loss(&self, rows: u32, cols: u32) -> Option<usize> {
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
    pub(super) fn rook(&mut self, rows: u32, cols: u32) -> Result<Option<CrowdedWitness>, Stop> {
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
    pub(super) fn last_rook(&mut self, r: usize, cols: u32) -> Option<CrowdedWitness> {
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

    pub(super) fn witness(&self) -> CrowdedWitness {
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
pub(super) fn assignment(open: &[u32; MAX_CROWDED_SIDE], rows: u32) -> usize {
    pub(super) fn assign(
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
pub(super) fn ones(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let b = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            b
        })
    })
}

pub(super) fn low(n: usize) -> u32 {
    ((1u64 << n) - 1) as u32
}
