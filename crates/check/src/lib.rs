//! pq-check: an independent checker of pq-sat's search certificates.
//!
//! A search certificate claims that `w` white and `b` black queens do not fit on the `d × d`
//! board without a queen attacking one of the other colour, and proves it by one refutation
//! tree per searched pair `(S, T)` of white rows and white columns. The format, the
//! mathematics and the list of what a checker verifies are in `docs/search-certificate.md`;
//! this crate was written from that page alone and shares no code with the writer, so that
//! the two cannot share a mistake.
//!
//! [`check`] reads one certificate as a stream and verifies all of section 4 of that page:
//! the exact header, the searched pairs enumerated and tested here (leastness under the group
//! and the product bound), every tree's inner nodes and every leaf's rule recomputed from
//! `(S, T)` and the labels on its path, the end-of-body byte and the trailer's counts.
//! A certificate may be restricted to a [`Cube`] (its optional `cube` header line): then
//! only the pairs that agree with the cube's rows and columns are searched, and every tree
//! starts with the cube's diagonals labelled.
//! [`combine`] says whether several verified certificates together make the whole claim; a
//! cube's certificate never counts toward that (the cubes' cover is proved elsewhere).

use std::fmt;
use std::io::{self, BufRead, BufReader, Read};

/// The largest board side: a diagonal index (at most `2d − 2`) must fit in six bits.
pub const MAX_SIDE: u32 = 32;

/// At most eight weights: a family-sum leaf names its weight in three bits.
const MAX_WEIGHTS: usize = 8;

/// The largest `P` or `Q` of a weight.
const MAX_WEIGHT: u64 = 1000;

/// Longer than any valid header or trailer line (the longest is a `cube` line fixing all 126
/// diagonals of the 32 × 32 board, 910 bytes; eight weights of 1000:1000 take 87; numbers
/// beyond u64 are refused anyway), so a binary stream without a newline is refused early
/// instead of being read into memory.
const MAX_LINE: usize = 1024;

/// Certificates run to many gigabytes; a large buffer keeps the reads few.
const BUFFER: usize = 1 << 22;

/// What a certificate claims, as its header states it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    /// The board side `d`.
    pub side: u32,
    /// The size `w` of the white army.
    pub white: u64,
    /// The size `b` of the black army.
    pub black: u64,
    /// The first white-row set `S` covered.
    pub lo: u64,
    /// One past the last white-row set covered.
    pub hi: u64,
    /// The cube the certificate is restricted to, if its header has a `cube` line.
    pub cube: Option<Cube>,
}

/// A cube of labellings (section 2 of the page): some rows, columns and diagonals given a
/// colour in advance. A certificate of a cube proves only its cube's part of the claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cube {
    /// The fixed rows `RM` and those of them that are W, `RV ⊆ RM`: the searched `S` have
    /// `S & RM = RV`.
    pub rows: (u32, u32),
    /// The fixed columns `CM` and those of them that are W, `CV ⊆ CM`: `T & CM = CV`.
    pub columns: (u32, u32),
    /// The fixed diagonals as `(family, index, black)`, strictly increasing in
    /// `(family, index)`: labelled at the root of every tree.
    pub diagonals: Vec<(u8, u8, bool)>,
}

impl fmt::Display for Cube {
    /// The header line, byte for byte: the form of section 3 is canonical (no leading zeros,
    /// one order), so what was parsed is written back the same.
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ((rm, rv), (cm, cv)) = (self.rows, self.columns);
        write!(out, "cube {rm} {rv} {cm} {cv}")?;
        for &(family, index, black) in &self.diagonals {
            write!(out, " {family}:{index}:{}", if black { 'B' } else { 'W' })?;
        }
        Ok(())
    }
}

impl Claim {
    /// The number `2^d` of row sets.
    pub fn row_sets(&self) -> u64 {
        1 << self.side
    }

    /// Whether the range `[lo, hi)` is all of `[0, 2^d)`.
    pub fn all_rows(&self) -> bool {
        self.lo == 0 && self.hi == self.row_sets()
    }

    /// Whether the claim is the whole one: all row sets and no cube.
    pub fn is_whole(&self) -> bool {
        self.all_rows() && self.cube.is_none()
    }

    /// The order of the symmetry group: the colour swap is a symmetry only when `w = b`.
    pub fn group_order(&self) -> u32 {
        if self.white == self.black {
            16
        } else {
            8
        }
    }

    /// The sentence of the whole claim (true only when a range covering `[0, 2^d)` is verified).
    pub fn whole_statement(&self) -> String {
        format!(
            "{} white and {} black queens cannot be placed on the {d}x{d} board without a \
             queen attacking one of the other colour",
            self.white,
            self.black,
            d = self.side
        )
    }
}

impl fmt::Display for Claim {
    /// The board, the armies, the range and (after `; `) the cube's header line, as the
    /// checker prints what it verified.
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            out,
            "board {d}x{d}, armies {} white and {} black (group of order {}), row sets S in \
             [{}, {}) {} [0, 2^{d})",
            self.white,
            self.black,
            self.group_order(),
            self.lo,
            self.hi,
            if self.all_rows() {
                "= all of"
            } else {
                "= part of"
            },
            d = self.side
        )?;
        match &self.cube {
            Some(cube) => write!(out, "; {cube}"),
            None => Ok(()),
        }
    }
}

/// A certificate that passed every check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    /// What it proves.
    pub claim: Claim,
    /// The number of trees, one per searched pair.
    pub pairs: u64,
    /// The number of node bytes in the body.
    pub nodes: u64,
}

/// Why a certificate was not verified.
#[derive(Debug)]
pub enum Failure {
    /// The certificate is wrong: the first failure found, at this byte offset of the stream.
    Refused {
        /// The offset of the byte (or line, or end of stream) where the failure was found.
        offset: u64,
        /// What is wrong there.
        reason: String,
    },
    /// The stream could not be read; nothing is said about the certificate.
    Io(io::Error),
}

impl fmt::Display for Failure {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Refused { offset, reason } => write!(out, "at byte offset {offset}: {reason}"),
            Failure::Io(error) => write!(out, "read error: {error}"),
        }
    }
}

impl std::error::Error for Failure {}

fn refuse<T>(offset: u64, reason: impl Into<String>) -> Result<T, Failure> {
    Err(Failure::Refused {
        offset,
        reason: reason.into(),
    })
}

/// The stream, read one byte at a time through a large buffer, with the offset of the next
/// byte for the messages.
struct Input<R> {
    inner: BufReader<R>,
    offset: u64,
}

impl<R: Read> Input<R> {
    /// The next byte, or `None` at the end of the stream.
    #[inline(always)]
    fn byte(&mut self) -> Result<Option<u8>, Failure> {
        loop {
            match self.inner.fill_buf() {
                Ok(buffer) => {
                    let first = buffer.first().copied();
                    if first.is_some() {
                        self.inner.consume(1);
                        self.offset += 1;
                    }
                    return Ok(first);
                }
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => return Err(Failure::Io(error)),
            }
        }
    }

    /// The next line without its `\n`, with the offset of its first byte.
    fn line(&mut self, part: &str) -> Result<(u64, String), Failure> {
        let start = self.offset;
        let mut bytes = Vec::new();
        loop {
            match self.byte()? {
                None => return refuse(self.offset, format!("the stream ends inside {part}")),
                Some(b'\n') => break,
                Some(byte) if !byte.is_ascii() => {
                    return refuse(
                        self.offset - 1,
                        format!("non-ASCII byte {byte:#04x} in {part}"),
                    )
                }
                Some(_) if bytes.len() == MAX_LINE => {
                    return refuse(
                        start,
                        format!("a line of {part} longer than {MAX_LINE} bytes"),
                    )
                }
                Some(byte) => bytes.push(byte),
            }
        }
        // Only ASCII was pushed, so this conversion cannot fail.
        Ok((start, String::from_utf8(bytes).unwrap_or_default()))
    }
}

/// A decimal number as section 3 writes it: digits only, no sign, no leading zero, and
/// (stricter than the page, which sets no upper bound on army sizes) within u64.
fn number(text: &str) -> Option<u64> {
    let digits = !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit());
    if !digits || (text.len() > 1 && text.starts_with('0')) {
        return None;
    }
    text.parse().ok()
}

/// The fields of `line` after `key` and one space, split at single spaces (so that a double
/// or trailing space gives an empty field, which no parse accepts).
fn fields<'a>(line: &'a str, key: &str) -> Option<Vec<&'a str>> {
    let rest = line.strip_prefix(key)?.strip_prefix(' ')?;
    Some(rest.split(' ').collect())
}

/// `count` numbers after `key`, or a refusal quoting the line and the expected form.
fn numbers(at: u64, line: &str, key: &str, form: &str, count: usize) -> Result<Vec<u64>, Failure> {
    let parsed: Option<Vec<u64>> = fields(line, key)
        .filter(|fields| fields.len() == count)
        .and_then(|fields| fields.iter().map(|field| number(field)).collect());
    match parsed {
        Some(values) => Ok(values),
        None => refuse(at, format!("expected the line `{form}`, found {line:?}")),
    }
}

/// The optional `cube` line of section 3, every field checked.
fn cube(at: u64, line: &str, side: u32) -> Result<Cube, Failure> {
    let last = 2 * side - 2;
    let bad = |why: String| {
        refuse(
            at,
            format!("{why}, in the line `cube RM RV CM CV F:I:L ...`: found {line:?}"),
        )
    };
    let Some(fields) = fields(line, "cube").filter(|fields| fields.len() >= 4) else {
        return bad("expected four sets after `cube`".into());
    };
    let mut sets = [0; 4];
    for (set, field) in sets.iter_mut().zip(&fields) {
        match number(field) {
            Some(value) if value < 1 << side => *set = value as u32,
            _ => {
                return bad(format!(
                    "set {field:?} is not a decimal number below 2^{side}"
                ))
            }
        }
    }
    let [rm, rv, cm, cv] = sets;
    if rv & !rm != 0 || cv & !cm != 0 {
        return bad("RV is not within RM, or CV not within CM".into());
    }
    let mut diagonals: Vec<(u8, u8, bool)> = Vec::new();
    for field in &fields[4..] {
        let parsed = match field.split(':').collect::<Vec<_>>()[..] {
            [f, i, label @ ("W" | "B")] => number(f)
                .zip(number(i))
                .filter(|&(f, i)| f <= 1 && i <= u64::from(last))
                .map(|(f, i)| (f as u8, i as u8, label == "B")),
            _ => None,
        };
        let Some(diagonal) = parsed else {
            return bad(format!(
                "fixed diagonal {field:?} is not F:I:L with F 0 or 1, I <= 2D - 2 = {last}, L W or B"
            ));
        };
        if diagonals
            .last()
            .is_some_and(|&(f, i, _)| (f, i) >= (diagonal.0, diagonal.1))
        {
            return bad(format!(
                "fixed diagonal {field:?} does not come strictly after the one before it in (F, I)"
            ));
        }
        diagonals.push(diagonal);
    }
    Ok(Cube {
        rows: (rm, rv),
        columns: (cm, cv),
        diagonals,
    })
}

/// The header of section 3, every line and range checked.
fn header<R: Read>(input: &mut Input<R>) -> Result<(Claim, Vec<(u64, u64)>), Failure> {
    const PART: &str = "the header";
    let (at, line) = input.line(PART)?;
    if line != "pq-search-certificate 1" {
        return refuse(
            at,
            format!("expected `pq-search-certificate 1`, found {line:?}"),
        );
    }
    let (at, line) = input.line(PART)?;
    let side = numbers(at, &line, "board square", "board square D", 1)?[0];
    if !(1..=u64::from(MAX_SIDE)).contains(&side) {
        return refuse(at, format!("board side {side} is not in 1..={MAX_SIDE}"));
    }
    let (at, line) = input.line(PART)?;
    let armies = numbers(at, &line, "armies", "armies W B", 2)?;
    if armies.contains(&0) {
        return refuse(at, "an army of size 0 (each must be at least 1)");
    }
    let mut claim = Claim {
        side: side as u32,
        white: armies[0],
        black: armies[1],
        lo: 0,
        hi: 0,
        cube: None,
    };
    let (at, line) = input.line(PART)?;
    let order = numbers(at, &line, "symmetry", "symmetry G", 1)?[0];
    if order != u64::from(claim.group_order()) {
        return refuse(
            at,
            format!(
                "symmetry {order}, but the group of armies {} and {} has order {}",
                claim.white,
                claim.black,
                claim.group_order()
            ),
        );
    }
    let (at, line) = input.line(PART)?;
    let mut weights = Vec::new();
    let bad = || {
        refuse(at, format!("expected `weights P1:Q1 ...` (1 to {MAX_WEIGHTS} pairs, each in 1..={MAX_WEIGHT}), found {line:?}"))
    };
    let Some(pairs) = fields(&line, "weights") else {
        return bad();
    };
    if pairs.len() > MAX_WEIGHTS {
        return bad();
    }
    for pair in pairs {
        let parsed = pair
            .split_once(':')
            .and_then(|(p, q)| Some((number(p)?, number(q)?)));
        match parsed {
            Some((p, q)) if (1..=MAX_WEIGHT).contains(&p) && (1..=MAX_WEIGHT).contains(&q) => {
                weights.push((p, q));
            }
            _ => return bad(),
        }
    }
    let (at, line) = input.line(PART)?;
    let rows = numbers(at, &line, "rows", "rows LO HI", 2)?;
    (claim.lo, claim.hi) = (rows[0], rows[1]);
    if claim.lo > claim.hi || claim.hi > claim.row_sets() {
        return refuse(
            at,
            format!(
                "rows {} {} is not a range within [0, 2^{side}]",
                claim.lo, claim.hi
            ),
        );
    }
    let (mut at, mut line) = input.line(PART)?;
    if line.starts_with("cube") {
        claim.cube = Some(cube(at, &line, claim.side)?);
        (at, line) = input.line(PART)?;
    }
    if line != "begin" {
        return refuse(at, format!("expected `begin`, found {line:?}"));
    }
    Ok((claim, weights))
}

/// The searched pairs of section 3, in order: for each `S` in `[lo, hi)` the `T` such that
/// `(S, T)` is least under the group and passes the product bound. `visit` is called on each
/// and may stop the walk with an error.
///
/// The facts of section 3 rule out whole ranges first: `S` is skipped when `ρ(S) < S` (and,
/// with the colour swap, when `S̄ < S` or `ρ(S̄) < S`), and `T` runs only over `[S, 2^d)`
/// (with the swap `[S, S̄]`, since `T̄ < S` is excluded). Each remaining `T` is tested against
/// all of its images, so the facts only save time and never decide a pair on their own.
///
/// With a cube, `S` and `T` run only over the sets that agree with its rows and columns
/// (`agreeing`), so a cube of many fixed rows costs no more than its own pairs; the facts
/// above still hold, since a cube's searched pairs are some of the others.
pub fn searched_pairs<E>(
    claim: &Claim,
    mut visit: impl FnMut(u32, u32) -> Result<(), E>,
) -> Result<(), E> {
    let group = Group::new(claim);
    let d = u64::from(claim.side);
    let (rows_fixed, columns_fixed) = claim
        .cube
        .as_ref()
        .map_or(((0, 0), (0, 0)), |cube| (cube.rows, cube.columns));
    for s in agreeing(claim.lo, claim.hi, rows_fixed) {
        let complement = !s & group.full;
        if group.reverse(s) < s || (group.swap && (complement < s || group.reverse(complement) < s))
        {
            continue;
        }
        let rows = u64::from(s.count_ones());
        // Product bound with |T| at its largest (d for white, 0 for black): no T can pass.
        if rows * d < claim.white || (d - rows) * d < claim.black {
            continue;
        }
        let last = if group.swap { complement } else { group.full };
        for t in agreeing(u64::from(s), u64::from(last) + 1, columns_fixed) {
            let columns = u64::from(t.count_ones());
            if rows * columns >= claim.white
                && (d - rows) * (d - columns) >= claim.black
                && group.is_least(s, t)
            {
                visit(s, t)?;
            }
        }
    }
    Ok(())
}

/// The sets `x` in `[from, to)` with `x & mask = value`, in increasing order, each found
/// from the one before in a few steps (not by testing every `x` between them).
///
/// From a candidate `x`, let `p` be the highest fixed bit where `x` disagrees. Every set
/// from `x` up to the next change of bit `p` shares `x`'s bits above `p` and its wrong bit
/// `p`, so none agrees: if `x` has 0 there, jump to `x`'s bits above `p` with bit `p` set; if
/// it has 1, to the next multiple of `2^(p+1)`. Each jump raises `x` and fixes the highest
/// disagreement, so a few jumps reach the next agreeing set (or pass `to`).
fn agreeing(from: u64, to: u64, (mask, value): (u32, u32)) -> impl Iterator<Item = u32> {
    let (mask, value) = (u64::from(mask), u64::from(value));
    let next = move |mut x: u64| loop {
        let wrong = (x ^ value) & mask;
        if wrong == 0 {
            return x;
        }
        let bit = 1 << wrong.ilog2();
        x = if value & bit != 0 {
            (x & !(bit - 1)) | bit
        } else {
            (x | (bit - 1)) + 1
        };
    };
    std::iter::successors(Some(next(from)), move |&x| Some(next(x + 1)))
        .take_while(move |&x| x < to)
        .map(|x| x as u32)
}

/// The group of section 2 acting on pairs of `d`-bit sets.
struct Group {
    side: u32,
    full: u32,
    swap: bool,
}

impl Group {
    fn new(claim: &Claim) -> Group {
        Group {
            side: claim.side,
            full: (claim.row_sets() - 1) as u32,
            swap: claim.white == claim.black,
        }
    }

    /// ρ: row (or column) `r` to `d − 1 − r`.
    #[inline(always)]
    fn reverse(&self, set: u32) -> u32 {
        set.reverse_bits() >> (32 - self.side)
    }

    /// Whether `(S, T)` is `≤` every image: the eight symmetries of the square are
    /// `(a(S), b(T))` and `(a(T), b(S))` with `a, b` each the identity or `ρ`; the colour swap
    /// complements both sets of each of them.
    fn is_least(&self, s: u32, t: u32) -> bool {
        let key = |rows: u32, columns: u32| (u64::from(rows) << 32) | u64::from(columns);
        let own = key(s, t);
        let below = |s: u32, t: u32| {
            let (rs, rt) = (self.reverse(s), self.reverse(t));
            [
                key(s, t),
                key(rs, t),
                key(s, rt),
                key(rs, rt),
                key(t, s),
                key(rt, s),
                key(t, rs),
                key(rt, rs),
            ]
            .iter()
            .any(|&image| image < own)
        };
        !(below(s, t) || (self.swap && below(!s & self.full, !t & self.full)))
    }
}

/// Up to `2·32 − 1` diagonals a family; 64 slots so that a six-bit index never overflows.
const SLOTS: usize = 64;

/// An inner node on the current path: its diagonal, which child is being read, and the row
/// mask of the live cells its label removed from that diagonal (to put them back).
#[derive(Clone, Copy)]
struct Frame {
    family: usize,
    index: usize,
    black: bool,
    removed: u32,
}

/// The live cells of the current pair under the labels of the current path.
///
/// Per family and diagonal, the rows of its live white and live black cells (a diagonal has
/// at most one cell a row). Labelling a diagonal W removes its live black cells, B its live
/// white cells; each removed cell also leaves its diagonal of the other family, so that both
/// families stay exact without recomputing anything but the one diagonal's cells.
struct Tree<'a> {
    claim: &'a Claim,
    group: Group,
    weights: &'a [(u64, u64)],
    side: u32,
    diagonals: usize,
    white: [[u32; SLOTS]; 2],
    black: [[u32; SLOTS]; 2],
    /// The cube's diagonals (a bit per index, per family): labelled at every root.
    fixed: [u64; 2],
    labelled: [u64; 2],
    live_white: u64,
    live_black: u64,
    path: Vec<Frame>,
    nodes: u64,
}

/// The rows whose bit is set in `set` shifted left by `by` (right when negative), as u32.
fn shift(set: u32, by: i64) -> u32 {
    let set = u64::from(set);
    (if by >= 0 { set << by } else { set >> -by }) as u32
}

impl<'a> Tree<'a> {
    fn new(claim: &'a Claim, weights: &'a [(u64, u64)]) -> Tree<'a> {
        let mut fixed = [0; 2];
        for &(family, index, _) in claim.cube.iter().flat_map(|cube| &cube.diagonals) {
            fixed[usize::from(family)] |= 1 << index;
        }
        Tree {
            claim,
            group: Group::new(claim),
            weights,
            side: claim.side,
            diagonals: 2 * claim.side as usize - 1,
            white: [[0; SLOTS]; 2],
            black: [[0; SLOTS]; 2],
            fixed,
            labelled: [0; 2],
            live_white: 0,
            live_black: 0,
            path: Vec::with_capacity(2 * SLOTS),
            nodes: 0,
        }
    }

    /// The live cells of `(S, T)` at the root: white cells `S × T`, black `S̄ × T̄`, less
    /// those that the cube's diagonals (if any) remove, as the theorem on cubes has it.
    ///
    /// Cell `(r, c)` is on diagonal `r + c` of family 0: the rows of diagonal `i` are those
    /// `r` with `i − r` in the column set, which are the set bits of the reversed column set
    /// shifted by `i − (d − 1)`. On family 1 it is diagonal `r − c + d − 1`: the rows are
    /// those with `r − i + d − 1` in the column set, the column set shifted by the same.
    fn start(&mut self, s: u32, t: u32) {
        let group = &self.group;
        let (not_s, not_t) = (!s & group.full, !t & group.full);
        let (reversed_t, reversed_not_t) = (group.reverse(t), group.reverse(not_t));
        for i in 0..self.diagonals {
            let by = i as i64 - (i64::from(self.side) - 1);
            self.white[0][i] = s & shift(reversed_t, by);
            self.black[0][i] = not_s & shift(reversed_not_t, by);
            self.white[1][i] = s & shift(t, by);
            self.black[1][i] = not_s & shift(not_t, by);
        }
        self.live_white = u64::from(s.count_ones() * t.count_ones());
        self.live_black = u64::from(not_s.count_ones() * not_t.count_ones());
        self.labelled = self.fixed;
        // Not on the path: no frame ever undoes them, and the next pair starts afresh.
        let claim = self.claim;
        for &(family, index, black) in claim.cube.iter().flat_map(|cube| &cube.diagonals) {
            self.label(usize::from(family), usize::from(index), black);
        }
    }

    /// Removes the live cells of one colour from diagonal `index` of `family` (and from the
    /// other family's diagonals through them); returns their rows.
    #[inline(always)]
    fn remove(cells: &mut [[u32; SLOTS]; 2], side: u32, family: usize, index: usize) -> u32 {
        let removed = cells[family][index];
        cells[family][index] = 0;
        let mut rows = removed;
        while rows != 0 {
            let row = rows.trailing_zeros();
            rows &= rows - 1;
            // The cell of row r on diagonal i lies on diagonal 2r + d − 1 − i of the other family.
            cells[1 - family][(2 * row + side - 1) as usize - index] &= !(1 << row);
        }
        removed
    }

    /// Puts back cells removed by [`Tree::remove`]: deeper labels have been undone, so these
    /// are exactly the bits missing.
    #[inline(always)]
    fn restore(
        cells: &mut [[u32; SLOTS]; 2],
        side: u32,
        family: usize,
        index: usize,
        removed: u32,
    ) {
        cells[family][index] = removed;
        let mut rows = removed;
        while rows != 0 {
            let row = rows.trailing_zeros();
            rows &= rows - 1;
            cells[1 - family][(2 * row + side - 1) as usize - index] |= 1 << row;
        }
    }

    /// Labels the diagonal W (removing its live black cells) or B (its live white cells).
    #[inline(always)]
    fn label(&mut self, family: usize, index: usize, black: bool) -> u32 {
        if black {
            let removed = Tree::remove(&mut self.white, self.side, family, index);
            self.live_white -= u64::from(removed.count_ones());
            removed
        } else {
            let removed = Tree::remove(&mut self.black, self.side, family, index);
            self.live_black -= u64::from(removed.count_ones());
            removed
        }
    }

    #[inline(always)]
    fn unlabel(&mut self, frame: Frame) {
        if frame.black {
            Tree::restore(
                &mut self.white,
                self.side,
                frame.family,
                frame.index,
                frame.removed,
            );
            self.live_white += u64::from(frame.removed.count_ones());
        } else {
            Tree::restore(
                &mut self.black,
                self.side,
                frame.family,
                frame.index,
                frame.removed,
            );
            self.live_black += u64::from(frame.removed.count_ones());
        }
    }

    /// `Σ max(p·lw(x), q·lb(x))` over the diagonals `x` of `family`.
    fn family_sum(&self, family: usize, p: u64, q: u64) -> u64 {
        (0..self.diagonals)
            .map(|i| {
                let white = p * u64::from(self.white[family][i].count_ones());
                let black = q * u64::from(self.black[family][i].count_ones());
                white.max(black)
            })
            .sum()
    }

    /// Reads and checks the tree of `(S, T)`: preorder, the W child's subtree before the B
    /// child's, each leaf's rule recomputed from the live cells of the path.
    fn read<R: Read>(&mut self, input: &mut Input<R>, s: u32, t: u32) -> Result<(), Failure> {
        self.start(s, t);
        let pair = || format!("pair (S, T) = ({s}, {t})");
        loop {
            let at = input.offset;
            let Some(byte) = input.byte()? else {
                return refuse(at, format!("the stream ends inside the tree of {}", pair()));
            };
            match byte {
                0x00..=0x7F => {
                    let family = usize::from(byte >> 6);
                    let index = usize::from(byte & 0x3F);
                    if index >= self.diagonals {
                        return refuse(
                            at,
                            format!(
                                "inner node {byte:#04x} names diagonal {index} of family {family}, \
                                 beyond 2D - 2 = {} ({})",
                                self.diagonals - 1,
                                pair()
                            ),
                        );
                    }
                    if self.labelled[family] >> index & 1 == 1 {
                        let by = if self.fixed[family] >> index & 1 == 1 {
                            "which the cube labels (labelled on every path)"
                        } else {
                            "already labelled on its path"
                        };
                        return refuse(
                            at,
                            format!(
                                "inner node {byte:#04x} names diagonal {index} of family {family}, \
                                 {by} ({})",
                                pair()
                            ),
                        );
                    }
                    self.labelled[family] |= 1 << index;
                    let removed = self.label(family, index, false);
                    self.path.push(Frame {
                        family,
                        index,
                        black: false,
                        removed,
                    });
                    self.nodes += 1;
                    continue;
                }
                0x80 | 0x81 => {
                    let (colour, live, claim) = if byte == 0x80 {
                        ("white", self.live_white, self.claim.white)
                    } else {
                        ("black", self.live_black, self.claim.black)
                    };
                    if live >= claim {
                        return refuse(
                            at,
                            format!(
                                "leaf `cells {colour}` does not hold: {live} live {colour} \
                                 cells, not fewer than {claim} ({})",
                                pair()
                            ),
                        );
                    }
                }
                0xC0..=0xCF => {
                    let family = usize::from(byte >> 3 & 1);
                    let k = usize::from(byte & 7);
                    let Some(&(p, q)) = self.weights.get(k) else {
                        return refuse(
                            at,
                            format!(
                                "leaf {byte:#04x} names weight {k}, but the header lists {}",
                                self.weights.len()
                            ),
                        );
                    };
                    let sum = self.family_sum(family, p, q);
                    let bound = u128::from(p) * u128::from(self.claim.white)
                        + u128::from(q) * u128::from(self.claim.black);
                    if u128::from(sum) >= bound {
                        return refuse(
                            at,
                            format!(
                                "leaf `family sum` of family {family} with weight {p}:{q} does \
                                 not hold: the sum is {sum}, not less than {bound} ({})",
                                pair()
                            ),
                        );
                    }
                }
                0xFF if self.path.is_empty() => {
                    return refuse(
                        at,
                        format!(
                            "the body ends (0xFF) where the tree of {} should begin",
                            pair()
                        ),
                    )
                }
                0xFF => {
                    return refuse(
                        at,
                        format!("the body ends (0xFF) inside the tree of {}", pair()),
                    )
                }
                _ => return refuse(at, format!("invalid byte {byte:#04x} ({})", pair())),
            }
            self.nodes += 1;
            // The leaf ends a subtree: go up to the first node still in its W child and move it
            // to its B child; if there is none, the tree is complete.
            loop {
                let Some(frame) = self.path.pop() else {
                    return Ok(());
                };
                self.unlabel(frame);
                if !frame.black {
                    let removed = self.label(frame.family, frame.index, true);
                    self.path.push(Frame {
                        black: true,
                        removed,
                        ..frame
                    });
                    break;
                }
                self.labelled[frame.family] &= !(1 << frame.index);
            }
        }
    }
}

/// Checks one certificate read from `reader` (a stream: it is read once, front to back).
///
/// Returns what it proves, or the first failure with its byte offset.
pub fn check<R: Read>(reader: R) -> Result<Verified, Failure> {
    let mut input = Input {
        inner: BufReader::with_capacity(BUFFER, reader),
        offset: 0,
    };
    let (claim, weights) = header(&mut input)?;
    let mut tree = Tree::new(&claim, &weights);
    let mut pairs = 0u64;
    searched_pairs(&claim, |s, t| {
        tree.read(&mut input, s, t)?;
        pairs += 1;
        Ok(())
    })?;
    let nodes = tree.nodes;
    let at = input.offset;
    match input.byte()? {
        Some(0xFF) => {}
        None => {
            return refuse(
                at,
                "the stream ends where the end-of-body byte 0xFF should follow the last tree",
            )
        }
        Some(byte) => {
            return refuse(
                at,
                format!(
                    "byte {byte:#04x} after the tree of the last searched pair, where the \
                     end-of-body byte 0xFF should be (a tree for a pair that is not searched?)"
                ),
            )
        }
    }
    let (at, line) = input.line("the trailer")?;
    let counts = numbers(at, &line, "end", "end PAIRS NODES", 2)?;
    if counts != [pairs, nodes] {
        return refuse(
            at,
            format!(
                "the trailer says {} pairs and {} nodes, the body has {pairs} and {nodes}",
                counts[0], counts[1]
            ),
        );
    }
    let at = input.offset;
    if input.byte()?.is_some() {
        return refuse(at, "bytes after the trailer line");
    }
    Ok(Verified {
        claim,
        pairs,
        nodes,
    })
}

/// Whether verified claims together make the whole claim: the same board and armies, and
/// ranges whose union is all of `[0, 2^d)` (overlaps are harmless). Returns the reason if not.
///
/// A cube's claim takes no part in the cover (section 4): that the cubes cover every
/// labelling is proved elsewhere, and a checker of certificates cannot see it.
pub fn combine(claims: &[Claim]) -> Result<(), String> {
    let Some(first) = claims.first() else {
        return Err("no certificate".into());
    };
    for (number, claim) in claims.iter().enumerate().skip(1) {
        if (claim.side, claim.white, claim.black) != (first.side, first.white, first.black) {
            return Err(format!(
                "certificate {} is for board {d}x{d} and armies {} {}, certificate 1 for board \
                 {e}x{e} and armies {} {}",
                number + 1,
                claim.white,
                claim.black,
                first.white,
                first.black,
                d = claim.side,
                e = first.side
            ));
        }
    }
    let mut ranges: Vec<(u64, u64)> = claims
        .iter()
        .filter(|claim| claim.cube.is_none())
        .map(|claim| (claim.lo, claim.hi))
        .collect();
    let none = if ranges.len() < claims.len() {
        "no certificate without a cube"
    } else {
        "no certificate"
    };
    ranges.sort_unstable();
    let mut covered = 0;
    for (lo, hi) in ranges {
        if lo > covered {
            return Err(format!("{none} covers the row sets S in [{covered}, {lo})"));
        }
        covered = covered.max(hi);
    }
    if covered < first.row_sets() {
        return Err(format!(
            "{none} covers the row sets S in [{covered}, {})",
            first.row_sets()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claim(side: u32, white: u64, black: u64) -> Claim {
        Claim {
            side,
            white,
            black,
            lo: 0,
            hi: 1 << side,
            cube: None,
        }
    }

    /// The orbit of a pair by closing it under the generators of section 2, with no formula
    /// for the group's elements.
    fn orbit(side: u32, swap: bool, pair: (u32, u32)) -> Vec<(u32, u32)> {
        let full = ((1u64 << side) - 1) as u32;
        let reverse = |set: u32| {
            (0..side)
                .filter(|r| set >> r & 1 == 1)
                .fold(0, |acc, r| acc | 1 << (side - 1 - r))
        };
        let mut seen = vec![pair];
        let mut next = 0;
        while next < seen.len() {
            let (s, t) = seen[next];
            next += 1;
            let mut images = vec![(reverse(s), t), (s, reverse(t)), (t, s)];
            if swap {
                images.push((!s & full, !t & full));
            }
            for image in images {
                if !seen.contains(&image) {
                    seen.push(image);
                }
            }
        }
        seen
    }

    #[test]
    fn searched_pairs_are_those_of_the_definition() {
        for side in 1..=6u32 {
            for white in 1..=u64::from(side * side + 1) {
                for black in [1, 2, white, white + 1, 5, 9] {
                    let claim = claim(side, white, black);
                    let mut fast = Vec::new();
                    searched_pairs::<()>(&claim, |s, t| {
                        fast.push((s, t));
                        Ok(())
                    })
                    .unwrap();
                    let d = u64::from(side);
                    let mut naive = Vec::new();
                    for s in 0..1u32 << side {
                        for t in 0..1u32 << side {
                            let (rows, columns) =
                                (u64::from(s.count_ones()), u64::from(t.count_ones()));
                            let bound =
                                rows * columns >= white && (d - rows) * (d - columns) >= black;
                            let least = orbit(side, white == black, (s, t))
                                .iter()
                                .all(|&image| (s, t) <= image);
                            if bound && least {
                                naive.push((s, t));
                            }
                        }
                    }
                    assert_eq!(fast, naive, "d = {side}, armies {white} {black}");
                }
            }
        }
    }

    #[test]
    fn agreeing_lists_the_sets_of_the_definition() {
        for fixed in [
            (0, 0),
            (0b10110, 0b00100),
            (0b11111, 0b10101),
            (0b10000, 0),
            (1, 1),
        ] {
            for from in 0..34 {
                for to in from..34 {
                    let fast: Vec<u32> = agreeing(from, to, fixed).collect();
                    let naive: Vec<u32> = (from as u32..to as u32)
                        .filter(|x| x & fixed.0 == fixed.1)
                        .collect();
                    assert_eq!(fast, naive, "{fixed:?} in [{from}, {to})");
                }
            }
        }
    }

    #[test]
    fn a_cubes_pairs_are_the_others_that_agree_with_it() {
        let pairs = |claim: &Claim| {
            let mut pairs = Vec::new();
            searched_pairs::<()>(claim, |s, t| {
                pairs.push((s, t));
                Ok(())
            })
            .unwrap();
            pairs
        };
        for side in 2..=6u32 {
            for (white, black) in [(1, 1), (2, 2), (3, 5), (side.into(), side.into())] {
                let whole = Claim {
                    lo: 1,
                    ..claim(side, white, black)
                };
                let all = pairs(&whole);
                for (rows, columns) in [((3, 1), (0, 0)), ((0, 0), (2, 2)), ((5, 4), (3, 1))] {
                    let diagonals = vec![(0, 0, true)];
                    let cube = Some(Cube {
                        rows,
                        columns,
                        diagonals,
                    });
                    let agree =
                        |&&(s, t): &&(u32, u32)| s & rows.0 == rows.1 && t & columns.0 == columns.1;
                    let expected: Vec<(u32, u32)> = all.iter().filter(agree).copied().collect();
                    assert_eq!(
                        pairs(&Claim {
                            cube,
                            ..whole.clone()
                        }),
                        expected
                    );
                }
            }
        }
    }

    #[test]
    fn group_orbits_have_the_stated_order() {
        // A pair with no symmetry of its own has an orbit as large as the group.
        assert_eq!(orbit(5, false, (0b00011, 0b00101)).len(), 8);
        assert_eq!(orbit(5, true, (0b00011, 0b00101)).len(), 16);
    }

    #[test]
    fn start_gives_the_cells_of_the_definition() {
        for side in 1..=7u32 {
            let claim = claim(side, 1, 1);
            let weights = [(1, 1)];
            let mut tree = Tree::new(&claim, &weights);
            for (s, t) in [
                (0, 0),
                (1, 2),
                (0b1011 & ((1 << side) - 1), 0b0110 & ((1 << side) - 1)),
                ((1 << side) - 1, 5 % (1 << side)),
            ] {
                tree.start(s, t);
                let mut white = [[0u32; SLOTS]; 2];
                let mut black = [[0u32; SLOTS]; 2];
                for r in 0..side {
                    for c in 0..side {
                        let diagonals = [(r + c) as usize, (r + side - 1 - c) as usize];
                        let (in_s, in_t) = (s >> r & 1 == 1, t >> c & 1 == 1);
                        for family in 0..2 {
                            if in_s && in_t {
                                white[family][diagonals[family]] |= 1 << r;
                            }
                            if !in_s && !in_t {
                                black[family][diagonals[family]] |= 1 << r;
                            }
                        }
                    }
                }
                assert_eq!(
                    (tree.white, tree.black),
                    (white, black),
                    "d = {side}, (S, T) = ({s}, {t})"
                );
            }
        }
    }

    #[test]
    fn label_and_unlabel_restore_every_mask() {
        let claim = claim(6, 3, 3);
        let weights = [(1, 1)];
        let mut tree = Tree::new(&claim, &weights);
        tree.start(0b01_0110, 0b10_0101);
        let (white, black) = (tree.white, tree.black);
        let mut frames = Vec::new();
        for (family, index, black) in [(0, 5, false), (1, 4, true), (0, 6, true), (1, 7, false)] {
            let removed = tree.label(family, index, black);
            frames.push(Frame {
                family,
                index,
                black,
                removed,
            });
        }
        let cells = |masks: &[[u32; SLOTS]; 2]| {
            masks[0]
                .iter()
                .map(|m| u64::from(m.count_ones()))
                .sum::<u64>()
        };
        assert_eq!(
            (cells(&tree.white), cells(&tree.black)),
            (tree.live_white, tree.live_black)
        );
        while let Some(frame) = frames.pop() {
            tree.unlabel(frame);
        }
        assert_eq!((tree.white, tree.black), (white, black));
        assert_eq!((tree.live_white, tree.live_black), (9, 9));
    }

    #[test]
    fn numbers_are_strict() {
        assert_eq!(number("0"), Some(0));
        assert_eq!(number("120"), Some(120));
        for bad in [
            "",
            "01",
            "+1",
            "-1",
            " 1",
            "1 ",
            "1a",
            "18446744073709551616",
        ] {
            assert_eq!(number(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn combine_finds_gaps_and_disagreements() {
        let part = |lo, hi| Claim {
            lo,
            hi,
            ..claim(4, 3, 3)
        };
        assert!(combine(&[part(0, 16)]).is_ok());
        assert!(combine(&[part(5, 16), part(0, 5)]).is_ok());
        assert!(combine(&[part(0, 9), part(3, 16), part(4, 4)]).is_ok());
        assert!(combine(&[part(0, 5), part(6, 16)])
            .unwrap_err()
            .contains("[5, 6)"));
        assert!(combine(&[part(0, 15)]).unwrap_err().contains("[15, 16)"));
        assert!(combine(&[
            part(0, 8),
            Claim {
                lo: 8,
                ..claim(4, 3, 4)
            }
        ])
        .is_err());
        assert!(combine(&[]).is_err());
    }
}
