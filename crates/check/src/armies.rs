//! k-army certificates (`pq-armies-certificate 1`, section 8 of `docs/search-certificate.md`).
//!
//! Such a certificate claims that `k ∈ {3, 4}` armies of `m` queens each do not fit on the
//! `D × D` board (`D ≤ 16`) without a queen attacking one of another army. Its proof is a
//! tree for each *kept* row colouring (§A2.1), in code order: a column tree that colours the
//! columns in the ends-inward order, whose every cut is *claimed* by a byte (a column bound
//! of §A3, an orbit test of §A2.2 on a child, "not least" at a full pair) and whose full
//! pairs end in diagonal trees (§A2.3) with the leaf rules of Lemma A8.
//!
//! [`check`] enumerates the kept row colourings itself and verifies every claim: it never has
//! to guess which children the writer skipped, since each skipped child carries the name of
//! the test that skips it, and the test is recomputed here from the child's prefix. Nothing
//! is shared with the writer, nor with the two-army checker beyond [`Failure`] and
//! [`Together`] (the verdict's vocabulary).

use std::fmt;
use std::io::{self, Read};

use crate::{Failure, Together};

/// The first line of a k-army certificate (a two-army one begins `pq-search-certificate 1`).
pub const FIRST_LINE: &str = "pq-armies-certificate 1";

/// The largest board side (the engine's limit; a diagonal index `≤ 2D − 2 = 30` fits in six
/// bits).
pub const MAX_SIDE: usize = 16;

/// The colour of a column not coloured yet, in the arrays of [`orbit_cut`].
pub const UNCOLOURED: u8 = u8::MAX;

/// At most sixteen weights: a cap-sum leaf names its weight in four bits.
const MAX_WEIGHTS: usize = 16;

/// The largest component of a weight.
const MAX_WEIGHT: u64 = 1000;

/// Longer than any valid header or trailer line (sixteen weights of four 1000s take 320
/// bytes), so that a binary stream without a newline is refused early.
const MAX_LINE: usize = 1024;

/// Certificates run to tens of gigabytes; a large buffer keeps the reads few.
const BUFFER: usize = 1 << 22;

/// Diagonals a family: at most `2·16 − 1 = 31`; 32 slots.
const SLOTS: usize = 32;

/// The bytes of the body (§A5).
const COLUMN_INNER: u8 = 0x88;
const COLUMNS_NEEDED: u8 = 0x89;
const NOT_LEAST: u8 = 0x8A;
const TRANSPOSITION: u8 = 0x8B;
const QUARTER_TURN: u8 = 0x8C;
const MIRROR: u8 = 0x8D;
const END: u8 = 0xFF;

/// What a k-army certificate claims, as its header states it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    /// The board side `D`.
    pub side: usize,
    /// The number `k` of armies (3 or 4).
    pub armies: usize,
    /// The size `m` of every army.
    pub size: u64,
    /// The first code of a row colouring covered.
    pub lo: u64,
    /// One past the last code covered.
    pub hi: u64,
    /// The weight vectors `w_0:…:w_{k−1}` its cap-sum and FC leaves may name.
    pub weights: Vec<Vec<u64>>,
}

impl Claim {
    /// The number `k^D` of codes.
    pub fn codes(&self) -> u64 {
        (self.armies as u64).pow(self.side as u32)
    }

    /// Whether the range `[lo, hi)` is all of `[0, k^D)`: then the certificate proves the
    /// whole claim.
    pub fn is_whole(&self) -> bool {
        self.lo == 0 && self.hi == self.codes()
    }

    /// The order `8·k!` of the group: the eight symmetries of the square, each with every
    /// renaming of the armies.
    pub fn group_order(&self) -> u64 {
        8 * (1..=self.armies as u64).product::<u64>()
    }

    /// `board square D armies M … M` (`k` sizes): the words that every claim of the same
    /// board and armies begins with, and all that the whole claim says.
    pub fn board(&self) -> String {
        let mut words = format!("board square {} armies", self.side);
        for _ in 0..self.armies {
            words.push_str(&format!(" {}", self.size));
        }
        words
    }

    /// The sentence of the whole claim.
    pub fn whole_statement(&self) -> String {
        format!(
            "{} armies of {} queens cannot be placed on the {d}x{d} board without a queen \
             attacking one of another army",
            self.armies,
            self.size,
            d = self.side
        )
    }

    /// The sentence of a part: the row colourings whose code is in the range.
    pub fn part_statement(&self) -> String {
        format!(
            "no labelling whose least pair has its row colouring's code in [{}, {}) gives each \
             of the {} armies at least {} cells (a part of the claim)",
            self.lo, self.hi, self.armies, self.size
        )
    }
}

impl fmt::Display for Claim {
    /// The words of the report's `c claim:` line: `board square D armies M … M rows LO HI
    /// rules weights W1 W2 …`.
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            out,
            "{} rows {} {} rules weights",
            self.board(),
            self.lo,
            self.hi
        )?;
        for weight in &self.weights {
            let parts: Vec<String> = weight.iter().map(u64::to_string).collect();
            write!(out, " {}", parts.join(":"))?;
        }
        Ok(())
    }
}

/// A k-army certificate that passed every check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    /// What it proves.
    pub claim: Claim,
    /// The number of column trees (kept row colourings in the range).
    pub rows: u64,
    /// The number of pair nodes (column subtrees at depth `D`).
    pub pairs: u64,
    /// The number of bytes of the body before its end byte.
    pub nodes: u64,
}

fn refuse<T>(offset: u64, reason: impl Into<String>) -> Result<T, Failure> {
    Err(Failure::Refused {
        offset,
        reason: reason.into(),
    })
}

/// The stream through a large buffer, with the offset of the next byte for the messages.
struct Input<R> {
    reader: R,
    buffer: Box<[u8]>,
    start: usize,
    end: usize,
    offset: u64,
}

impl<R: Read> Input<R> {
    fn new(reader: R) -> Input<R> {
        Input {
            reader,
            buffer: vec![0; BUFFER].into_boxed_slice(),
            start: 0,
            end: 0,
            offset: 0,
        }
    }

    /// The next byte, or `None` at the end of the stream.
    #[inline(always)]
    fn byte(&mut self) -> Result<Option<u8>, Failure> {
        if self.start == self.end && !self.fill()? {
            return Ok(None);
        }
        let byte = self.buffer[self.start];
        self.start += 1;
        self.offset += 1;
        Ok(Some(byte))
    }

    /// Refills the empty buffer; false at the end of the stream.
    #[cold]
    fn fill(&mut self) -> Result<bool, Failure> {
        loop {
            match self.reader.read(&mut self.buffer) {
                Ok(read) => {
                    (self.start, self.end) = (0, read);
                    return Ok(read > 0);
                }
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => return Err(Failure::Io(error)),
            }
        }
    }

    /// The next byte with its offset; the end of the stream is refused (`inside` says where).
    #[inline(always)]
    fn next(&mut self, inside: impl FnOnce() -> String) -> Result<(u8, u64), Failure> {
        let at = self.offset;
        match self.byte()? {
            Some(byte) => Ok((byte, at)),
            None => refuse(at, format!("the stream ends inside {}", inside())),
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

/// A decimal number as the format writes it: digits only, no sign, no leading zero, within
/// u64.
fn number(text: &str) -> Option<u64> {
    let digits = !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit());
    if !digits || (text.len() > 1 && text.starts_with('0')) {
        return None;
    }
    text.parse().ok()
}

/// The numbers of `line` after `key` and one space, split at single spaces (a double or
/// trailing space gives an empty field, which is no number), or a refusal naming the form.
fn numbers(at: u64, line: &str, key: &str, form: &str) -> Result<Vec<u64>, Failure> {
    let parsed: Option<Vec<u64>> = line
        .strip_prefix(key)
        .and_then(|rest| rest.strip_prefix(' '))
        .and_then(|rest| rest.split(' ').map(number).collect());
    match parsed {
        Some(values) => Ok(values),
        None => refuse(at, format!("expected the line `{form}`, found {line:?}")),
    }
}

/// The header of §A5, every line and range checked.
fn header<R: Read>(input: &mut Input<R>) -> Result<Claim, Failure> {
    const PART: &str = "the header";
    let (at, line) = input.line(PART)?;
    if line != FIRST_LINE {
        return refuse(at, format!("expected `{FIRST_LINE}`, found {line:?}"));
    }
    let (at, line) = input.line(PART)?;
    let side = match numbers(at, &line, "board square", "board square D")?[..] {
        [side] if (1..=MAX_SIDE as u64).contains(&side) => side as usize,
        _ => {
            return refuse(
                at,
                format!("expected `board square D` with D in 1..={MAX_SIDE}, found {line:?}"),
            )
        }
    };
    let (at, line) = input.line(PART)?;
    let sizes = numbers(at, &line, "armies", "armies M M M")?;
    if !(3..=4).contains(&sizes.len()) || sizes.contains(&0) || sizes.iter().any(|&m| m != sizes[0])
    {
        return refuse(
            at,
            format!(
                "expected `armies M M M` or `armies M M M M`, all equal and M >= 1, found {line:?}"
            ),
        );
    }
    let mut claim = Claim {
        side,
        armies: sizes.len(),
        size: sizes[0],
        lo: 0,
        hi: 0,
        weights: Vec::new(),
    };
    let (at, line) = input.line(PART)?;
    let order = numbers(at, &line, "symmetry", "symmetry G")?;
    if order != [claim.group_order()] {
        return refuse(
            at,
            format!(
                "expected `symmetry {}` (the group of {} armies), found {line:?}",
                claim.group_order(),
                claim.armies
            ),
        );
    }
    let (at, line) = input.line(PART)?;
    claim.weights = weights(at, &line, claim.armies)?;
    let (at, line) = input.line(PART)?;
    match numbers(at, &line, "rows", "rows LO HI")?[..] {
        [lo, hi] if lo <= hi && hi <= claim.codes() => (claim.lo, claim.hi) = (lo, hi),
        _ => {
            return refuse(
                at,
                format!(
                    "expected `rows LO HI` with 0 <= LO <= HI <= {}^{} = {}, found {line:?}",
                    claim.armies,
                    claim.side,
                    claim.codes()
                ),
            )
        }
    }
    let (at, line) = input.line(PART)?;
    if line != "begin" {
        return refuse(at, format!("expected `begin`, found {line:?}"));
    }
    Ok(claim)
}

/// The `weights` line: one to sixteen vectors of `k` components in `0..=1000`, not all 0.
fn weights(at: u64, line: &str, armies: usize) -> Result<Vec<Vec<u64>>, Failure> {
    let parsed: Option<Vec<Vec<u64>>> = line
        .strip_prefix("weights ")
        .map(|rest| rest.split(' ').collect::<Vec<_>>())
        .filter(|vectors| vectors.len() <= MAX_WEIGHTS)
        .and_then(|vectors| {
            vectors
                .iter()
                .map(|vector| {
                    let weight: Vec<u64> = vector.split(':').map(number).collect::<Option<_>>()?;
                    let fits = weight.len() == armies
                        && weight.iter().all(|&w| w <= MAX_WEIGHT)
                        && weight.iter().any(|&w| w > 0);
                    fits.then_some(weight)
                })
                .collect()
        });
    match parsed {
        Some(weights) => Ok(weights),
        None => refuse(
            at,
            format!(
                "expected `weights W1 W2 ...` (1 to {MAX_WEIGHTS} vectors of {armies} numbers \
                 in 0..={MAX_WEIGHT} joined by `:`, not all 0), found {line:?}"
            ),
        ),
    }
}

/// `o_t`, the ends-inward order of §A2: `t/2` for even `t`, `D − 1 − ⌊t/2⌋` for odd `t`.
#[inline(always)]
fn inward(side: usize, t: usize) -> usize {
    if t.is_multiple_of(2) {
        t / 2
    } else {
        side - 1 - t / 2
    }
}

/// The ends-inward order `o = (o_0 … o_{D−1})`: `0, D − 1, 1, D − 2, …`.
pub fn order(side: usize) -> Vec<usize> {
    (0..side).map(|t| inward(side, t)).collect()
}

/// `ν(u)`: the letters of `u` renamed in order of first appearance (§A2).
pub fn rename(sequence: &[u8]) -> Vec<u8> {
    let mut names = [UNCOLOURED; 256];
    let mut next = 0;
    sequence
        .iter()
        .map(|&letter| {
            if names[usize::from(letter)] == UNCOLOURED {
                names[usize::from(letter)] = next;
                next += 1;
            }
            names[usize::from(letter)]
        })
        .collect()
}

/// Whether `ν(a) < b` for the sequences `a_s = a(s)`, `b_s = b(s)`, `s < len`, compared
/// lexicographically. The names of `ν(a)` are given as it is read (Lemma A2: a prefix's names
/// do not depend on what follows), so the first difference decides without building either.
#[inline(always)]
fn renamed_below(len: usize, a: impl Fn(usize) -> u8, b: impl Fn(usize) -> u8) -> bool {
    let mut names = [UNCOLOURED; 256];
    let mut next = 0;
    for s in 0..len {
        let letter = usize::from(a(s));
        if names[letter] == UNCOLOURED {
            names[letter] = next;
            next += 1;
        }
        let (name, other) = (names[letter], b(s));
        if name != other {
            return name < other;
        }
    }
    false
}

/// Whether a row colouring (`rows[r]` the army of row `r`) is kept by rules 1–3 of §A2.1 for
/// `armies` armies of `size` queens: every army has a row, `Σ_j ⌈m/|R_j|⌉ ≤ D`, and
/// `r^o ≤ ν((ρr)^o)`. (That `r^o` is an RGS is not tested here: only RGS are listed.)
pub fn kept(rows: &[u8], armies: usize, size: u64) -> bool {
    let side = rows.len();
    let mut counts = [0u64; 4];
    for &army in rows {
        counts[usize::from(army)] += 1;
    }
    if counts[..armies].contains(&0) {
        return false;
    }
    let columns: u128 = counts[..armies]
        .iter()
        .map(|&count| u128::from(size.div_ceil(count)))
        .sum();
    if columns > side as u128 {
        return false;
    }
    // (ρr)^o_t = r(D − 1 − o_t).
    let own = |t| rows[inward(side, t)];
    let reversed = |t| rows[side - 1 - inward(side, t)];
    !renamed_below(side, reversed, own)
}

/// The kept row colourings of `claim` with code in `[lo, hi)`, in code order: `visit` gets
/// each code and the colouring (`rows[r]` the army of row `r`), and may stop the walk.
///
/// The restricted-growth strings `s` over `k` letters are listed depth first, letters
/// ascending, and `r(o_t) = s_t`, so codes increase; a prefix whose codes all lie outside
/// the range is skipped whole.
pub fn row_colourings<E>(
    claim: &Claim,
    mut visit: impl FnMut(u64, &[u8]) -> Result<(), E>,
) -> Result<(), E> {
    struct Walk<'a, F> {
        claim: &'a Claim,
        o: Vec<usize>,
        rows: Vec<u8>,
        visit: F,
    }
    impl<F> Walk<'_, F> {
        fn walk<E>(&mut self, t: usize, prefix: u64, used: u8) -> Result<(), E>
        where
            F: FnMut(u64, &[u8]) -> Result<(), E>,
        {
            let (side, armies) = (self.claim.side, self.claim.armies);
            let span = (armies as u64).pow((side - t) as u32);
            let first = prefix * span;
            if first + span <= self.claim.lo || first >= self.claim.hi {
                return Ok(());
            }
            if t == side {
                if kept(&self.rows, armies, self.claim.size) {
                    return (self.visit)(prefix, &self.rows);
                }
                return Ok(());
            }
            for letter in 0..=used.min(armies as u8 - 1) {
                self.rows[self.o[t]] = letter;
                let used = used.max(letter + 1);
                self.walk(t + 1, prefix * armies as u64 + u64::from(letter), used)?;
            }
            Ok(())
        }
    }
    let mut walk = Walk {
        claim,
        o: order(claim.side),
        rows: vec![0; claim.side],
        visit: &mut visit,
    };
    walk.walk(0, 0, 0)
}

/// Whether the orbit test of `byte` fails for a child's prefix, so that its entry may be that
/// byte (§A2.2, §A5): `rows[r]` is the army of row `r`, `columns[c]` that of column `c` or
/// [`UNCOLOURED`], and `depth` is `t`, the depth of the node whose child it is (the child has
/// coloured `o_0 … o_t`). With `u = c^o` and `v = (ρc)^o`:
/// - `0x8B` (T): `ν(u[0..=t]) < r^o[0..=t]`;
/// - `0x8C` (Q): `ν(v') < r^o[0..|v'|)`, `v'` the longest prefix of `v` whose columns are all
///   coloured, and not empty;
/// - `0x8D` (M): `t` odd, `v[0..=t]` all coloured, and `v[0..=t] < u[0..=t]`.
///
/// Any other byte gives false.
pub fn orbit_cut(byte: u8, rows: &[u8], columns: &[u8], depth: usize) -> bool {
    let side = rows.len();
    let r = |s| rows[inward(side, s)];
    let u = |s| columns[inward(side, s)];
    // v_s = (ρc)(o_s) = c(D − 1 − o_s).
    let v = |s| columns[side - 1 - inward(side, s)];
    let known = (0..side).take_while(|&s| v(s) != UNCOLOURED).count();
    match byte {
        TRANSPOSITION => renamed_below(depth + 1, u, r),
        QUARTER_TURN => known > 0 && renamed_below(known, v, r),
        MIRROR => {
            let first = (0..=depth).find(|&s| v(s) != u(s));
            depth % 2 == 1 && known > depth && first.is_some_and(|s| v(s) < u(s))
        }
        _ => false,
    }
}

/// Whether the full pair `(r, c)` is least (§A2): `(r^o, c^o) ≤ (r'^o, c'^o)` for each of
/// the `8·k!` images `(πρ^x r, πρ^y c)` and `(πρ^y c, πρ^x r)`.
///
/// For each of the eight board symmetries, the least of its `k!` renamings, compared as the
/// sequence `r'^o` followed by `c'^o`, is `ν` of that sequence (Lemma A2: `ν(u) ≤ πu` for
/// every `π`, and `ν(u)` is one of them); so eight comparisons test all `8·k!` images.
pub fn is_least(rows: &[u8], columns: &[u8]) -> bool {
    let side = rows.len();
    // Position s of the sequence a^o followed by b^o, each line read reversed or not.
    fn pair<'a>(a: (&'a [u8], bool), b: (&'a [u8], bool)) -> impl Fn(usize) -> u8 + 'a {
        let side = a.0.len();
        let line = move |(line, reversed): (&[u8], bool), t: usize| {
            let i = inward(side, t);
            line[if reversed { side - 1 - i } else { i }]
        };
        move |s| {
            if s < side {
                line(a, s)
            } else {
                line(b, s - side)
            }
        }
    }
    let own = pair((rows, false), (columns, false));
    for x in [false, true] {
        for y in [false, true] {
            if renamed_below(2 * side, pair((rows, x), (columns, y)), &own)
                || renamed_below(2 * side, pair((columns, y), (rows, x)), &own)
            {
                return false;
            }
        }
    }
    true
}

/// Per army and family, one count a diagonal slot.
type Lanes = [[[u8; SLOTS]; 2]; 4];

/// Adds `cells` to `lanes`, slot by slot, both families. A count never passes `D ≤ 16`, so the
/// bytes cannot overflow; wrapping arithmetic only spares debug builds a check a byte, which
/// would keep the loop from being vectorized (they compare the counts with a recount instead).
#[inline(always)]
fn add(lanes: &mut [[u8; SLOTS]; 2], cells: &[[u8; SLOTS]; 2]) {
    for (lane, &cell) in lanes
        .as_flattened_mut()
        .iter_mut()
        .zip(cells.as_flattened())
    {
        *lane = lane.wrapping_add(cell);
    }
}

/// Takes `cells` from `lanes`, slot by slot, both families: only cells counted before are
/// taken.
#[inline(always)]
fn sub(lanes: &mut [[u8; SLOTS]; 2], cells: &[[u8; SLOTS]; 2]) {
    for (lane, &cell) in lanes
        .as_flattened_mut()
        .iter_mut()
        .zip(cells.as_flattened())
    {
        *lane = lane.wrapping_sub(cell);
    }
}

/// The counts `fixed_{fji}` and `pot_{fji}` of §A3 at the current column node, kept along the
/// column tree instead of recounted at every column leaf: colouring column `c` with army `a`
/// puts the cells `R_a × {c}` into `fixed` of `a` and takes the cells `R_j × {c}` out of `pot`
/// of every other army `j` (they leave `C_j ∪ F`); uncolouring undoes exactly that. A column
/// leaf then reads `2D − 1` slots per army instead of visiting up to `D²` cells.
///
/// Most children are leaves, which read one family once: so a child's own colouring is only
/// *pending* (recorded, not applied) until the child turns out to be an inner node
/// ([`ColumnCounts::settle`]), and a leaf folds it into the one family it reads
/// ([`ColumnCounts::family`]).
#[derive(Clone)]
struct ColumnCounts {
    /// `cells[j][c][f]`: a 1 at the diagonal of family `f` of each cell `(r, c)` with
    /// `r ∈ R_j` (a column meets a diagonal in one cell at most, so each slot is 0 or 1).
    /// Column `MAX_SIDE` has no cell: a pending colouring of it changes nothing.
    cells: [[[[u8; SLOTS]; 2]; MAX_SIDE + 1]; 4],
    /// `fixed[j][f][i]`: the cells of diagonal `(f, i)` in `R_j × C_j`, the pending colouring
    /// left out.
    fixed: Lanes,
    /// `pot[j][f][i]`: the cells of diagonal `(f, i)` in `R_j × (C_j ∪ F)`, the pending
    /// colouring left out.
    pot: Lanes,
    /// The colouring `(column, army)` of the current node's last column, not applied yet, or
    /// `(MAX_SIDE, 0)` for none.
    pending: (usize, usize),
}

/// No pending colouring: the column without cells.
const NO_COLUMN: (usize, usize) = (MAX_SIDE, 0);

impl ColumnCounts {
    fn new() -> ColumnCounts {
        ColumnCounts {
            cells: [[[[0; SLOTS]; 2]; MAX_SIDE + 1]; 4],
            fixed: [[[0; SLOTS]; 2]; 4],
            pot: [[[0; SLOTS]; 2]; 4],
            pending: NO_COLUMN,
        }
    }

    /// The counts at the root of the column tree of the row colouring `rows` (`rows[r]` the
    /// army of row `r`): no column coloured, so every cell of `R_j` is potential for `j`.
    fn start(&mut self, rows: &[u8]) {
        let side = rows.len();
        self.cells = [[[[0; SLOTS]; 2]; MAX_SIDE + 1]; 4];
        self.fixed = [[[0; SLOTS]; 2]; 4];
        self.pot = [[[0; SLOTS]; 2]; 4];
        self.pending = NO_COLUMN;
        for (row, &army) in rows.iter().enumerate() {
            let j = usize::from(army);
            for column in 0..side {
                for (family, index) in diagonals(side, row, column) {
                    self.cells[j][column][family][index] = 1;
                    self.pot[j][family][index] += 1;
                }
            }
        }
    }

    /// Applies column `column` (uncoloured) taking the colour `army`.
    #[inline(always)]
    fn colour(&mut self, armies: usize, (column, army): (usize, usize)) {
        add(&mut self.fixed[army], &self.cells[army][column]);
        for j in (0..armies).filter(|&j| j != army) {
            sub(&mut self.pot[j], &self.cells[j][column]);
        }
    }

    /// Undoes [`ColumnCounts::colour`].
    #[inline(always)]
    fn uncolour(&mut self, armies: usize, (column, army): (usize, usize)) {
        sub(&mut self.fixed[army], &self.cells[army][column]);
        for j in (0..armies).filter(|&j| j != army) {
            add(&mut self.pot[j], &self.cells[j][column]);
        }
    }

    /// Applies the pending colouring, for an inner node whose children come next; returns it,
    /// for [`ColumnCounts::unsettle`].
    #[inline(always)]
    fn settle(&mut self, armies: usize) -> (usize, usize) {
        let pending = std::mem::replace(&mut self.pending, NO_COLUMN);
        self.colour(armies, pending);
        pending
    }

    /// Undoes [`ColumnCounts::settle`]: the colouring is pending again.
    #[inline(always)]
    fn unsettle(&mut self, armies: usize, settled: (usize, usize)) {
        self.uncolour(armies, settled);
        self.pending = settled;
    }

    /// `fixed[j][family]` and `pot[j][family]` of the current node, its pending colouring
    /// included.
    #[inline(always)]
    fn family(&self, j: usize, family: usize) -> ([u8; SLOTS], [u8; SLOTS]) {
        let (column, army) = self.pending;
        let (mut fixed, mut pot) = (self.fixed[j][family], self.pot[j][family]);
        let cells = &self.cells[j][column][family];
        let changed = if j == army { &mut fixed } else { &mut pot };
        for (lane, &cell) in changed.iter_mut().zip(cells) {
            // Wrapping for the reason given at `add`.
            *lane = if j == army {
                lane.wrapping_add(cell)
            } else {
                lane.wrapping_sub(cell)
            };
        }
        (fixed, pot)
    }

    /// `fixed[j][family]` and `pot[j][family]` counted afresh, cell by cell, from the
    /// definitions: `rows[r]` the army of row `r`, `columns[c]` that of column `c` or
    /// [`UNCOLOURED`]. Only the cells of `R_j × (C_j ∪ F)` are visited, so that debug builds
    /// can afford it at every leaf.
    fn recount(rows: &[u8], columns: &[u8], family: usize) -> [([u8; SLOTS], [u8; SLOTS]); 4] {
        let side = rows.len();
        let (mut own, mut free) = ([0u32; 4], 0u32);
        for (column, &colour) in columns.iter().enumerate() {
            match colour {
                UNCOLOURED => free |= 1 << column,
                army => own[usize::from(army)] |= 1 << column,
            }
        }
        let mut counts = [([0u8; SLOTS], [0u8; SLOTS]); 4];
        for (row, &army) in rows.iter().enumerate() {
            let j = usize::from(army);
            let (fixed, pot) = &mut counts[j];
            let mut open = own[j] | free;
            while open != 0 {
                let column = open.trailing_zeros() as usize;
                open &= open - 1;
                let index = diagonals(side, row, column)[family].1;
                pot[index] += 1;
                fixed[index] += u8::from(own[j] >> column & 1 == 1);
            }
        }
        counts
    }

    /// Whether the kept counts of `family`, the pending colouring included, are those of the
    /// definitions for this node.
    fn is_fresh(&self, rows: &[u8], columns: &[u8], family: usize) -> bool {
        let counts = ColumnCounts::recount(rows, columns, family);
        (0..4).all(|j| self.family(j, family) == counts[j])
    }
}

/// `Σ_i max_j w_j·x_j[i]` over the slots of a family, `x_j = cells(j)` of at most `D ≤ 16`
/// cells a slot (the slots beyond the last diagonal are 0).
#[inline(always)]
fn weighted_cap(weight: &[u64], cells: impl Fn(usize) -> [u8; SLOTS]) -> u32 {
    let mut best = [0u16; SLOTS];
    for (j, &w) in weight.iter().enumerate() {
        // A weight is at most 1000 and a count at most 16: the products fit in u16.
        let w = w as u16;
        for (best, &count) in best.iter_mut().zip(&cells(j)) {
            *best = (*best).max(w * u16::from(count));
        }
    }
    // At most 32 slots of 16,000.
    best.iter().map(|&best| u32::from(best)).sum()
}

/// Whether debug builds compare the kept column counts with a recount at the leaf read at
/// offset `at`. A recount costs more than the leaf itself, and the tests read their
/// certificates many times over, each tampered copy shifting the offsets: one leaf in eight
/// is plenty (the unit tests compare the counts at every node of random column trees).
#[inline(always)]
fn sampled(at: u64) -> bool {
    at.is_multiple_of(8)
}

/// The two diagonals of cell `(row, column)`: `(0, r + c)` and `(1, r − c + D − 1)`.
#[inline(always)]
fn diagonals(side: usize, row: usize, column: usize) -> [(usize, usize); 2] {
    [(0, row + column), (1, row + side - 1 - column)]
}

/// An inner node of a diagonal tree on the current path: its diagonal, its children's armies
/// in their order, which child is being read, and the live cells that child's label removed
/// (per army, a row mask of the diagonal) to put them back.
#[derive(Clone, Copy)]
struct Frame {
    family: usize,
    index: usize,
    order: [u8; 4],
    children: usize,
    child: usize,
    removed: [u32; 4],
}

/// The checker's state: the current row colouring, the column colouring of the current
/// column node, and at a pair, the live cells under the labels of the diagonal path.
struct Checker<'a, R> {
    claim: &'a Claim,
    input: Input<R>,
    side: usize,
    armies: usize,
    /// `o` and, for each column, its depth in `o`.
    o: Vec<usize>,
    /// The army of each row, and each army's rows `R_j`.
    rows: Vec<u8>,
    row_sets: [u32; 4],
    /// The code of the current row colouring, for the messages.
    code: u64,
    /// The army of each column or [`UNCOLOURED`], and each army's columns `C_j`.
    columns: Vec<u8>,
    column_sets: [u32; 4],
    /// `live[j][f][i]`: the rows of army `j`'s live cells on diagonal `i` of family `f`.
    live: [[[u32; SLOTS]; 2]; 4],
    /// `counts[j][f][i]`: their number, `ℓ_j(f, i)`, kept with the masks so that a leaf adds
    /// counts instead of counting bits.
    counts: [[[u8; SLOTS]; 2]; 4],
    /// The live cells of each army (each lies on one diagonal of family 0: `Σ_i ℓ_j(0, i)`).
    totals: [u64; 4],
    /// `fixed` and `pot` of the current column node.
    column_counts: ColumnCounts,
    /// `⌈m/|R_j|⌉` of the current row colouring, the columns army `j` needs in all.
    least_columns: [u64; 4],
    /// The diagonals labelled on the path, a bit per index, per family.
    labelled: [u32; 2],
    path: Vec<Frame>,
    trees: u64,
    pairs: u64,
}

impl<R: Read> Checker<'_, R> {
    /// Where we are, for the messages.
    fn place(&self) -> String {
        let coloured: String = self
            .o
            .iter()
            .map(|&column| match self.columns[column] {
                UNCOLOURED => '.',
                army => char::from(b'0' + army),
            })
            .collect();
        format!("row colouring code {}, columns c^o = {coloured}", self.code)
    }

    /// Reads and checks the column tree of the current row colouring.
    fn tree(&mut self) -> Result<(), Failure> {
        let (byte, at) = self.input.next(|| "the column trees".to_string())?;
        if byte == END {
            return refuse(
                at,
                format!(
                    "the body ends (0xFF) where the column tree of the kept row colouring \
                     code {} should begin",
                    self.code
                ),
            );
        }
        self.column(0, byte, at)?;
        debug_assert!(
            self.column_counts.pending == NO_COLUMN
                && self.column_counts.fixed == [[[0; SLOTS]; 2]; 4],
            "the column counts are not back at the root ({})",
            self.place()
        );
        self.trees += 1;
        Ok(())
    }

    /// Checks the column subtree at `depth` whose first byte, read at offset `at`, is `byte`.
    fn column(&mut self, depth: usize, byte: u8, at: u64) -> Result<(), Failure> {
        let free = self.side - depth;
        if depth == self.side {
            self.pairs += 1;
        }
        match byte {
            COLUMN_INNER if depth < self.side => {
                let column = self.o[depth];
                let settled = self.column_counts.settle(self.armies);
                for army in 0..self.armies as u8 {
                    self.columns[column] = army;
                    self.column_sets[usize::from(army)] |= 1 << column;
                    self.column_counts.pending = (column, usize::from(army));
                    let (entry, at) = self
                        .input
                        .next(|| "the child entries of a column node".to_string())?;
                    if (TRANSPOSITION..=MIRROR).contains(&entry) {
                        if !orbit_cut(entry, &self.rows, &self.columns, depth) {
                            let test = ["(T)", "(Q)", "(M)"][usize::from(entry - TRANSPOSITION)];
                            return refuse(
                                at,
                                format!(
                                    "child entry {entry:#04x} claims that the orbit test {test} \
                                     fails for the child, but it does not ({})",
                                    self.place()
                                ),
                            );
                        }
                    } else {
                        self.column(depth + 1, entry, at)?;
                    }
                    self.columns[column] = UNCOLOURED;
                    self.column_sets[usize::from(army)] &= !(1 << column);
                }
                self.column_counts.unsettle(self.armies, settled);
                Ok(())
            }
            COLUMN_INNER => refuse(
                at,
                format!(
                    "a column inner node 0x88 at depth D = {}, where every column is \
                     coloured ({})",
                    self.side,
                    self.place()
                ),
            ),
            COLUMNS_NEEDED => {
                let needed = self.needed();
                if needed <= free as u128 {
                    return refuse(
                        at,
                        format!(
                            "leaf CN (0x89) does not hold: the armies need {needed} more \
                             columns, not more than the {free} free ({})",
                            self.place()
                        ),
                    );
                }
                Ok(())
            }
            0xA0..=0xBF if depth < self.side => self.column_sum(byte, at, free, false),
            0xC0..=0xDF => self.column_sum(byte, at, free, true),
            NOT_LEAST if depth == self.side => {
                if is_least(&self.rows, &self.columns) {
                    return refuse(
                        at,
                        format!(
                            "leaf 0x8A claims the pair is not least, but it is ({})",
                            self.place()
                        ),
                    );
                }
                Ok(())
            }
            0x00..=0x7F | 0x80..=0x83 | 0xA0..=0xBF if depth == self.side => {
                self.diagonal_tree(byte, at)
            }
            END => refuse(
                at,
                format!(
                    "the body ends (0xFF) inside the column tree ({})",
                    self.place()
                ),
            ),
            TRANSPOSITION..=MIRROR => refuse(
                at,
                format!(
                    "orbit-cut byte {byte:#04x} where a column subtree should begin (it is \
                     a child entry only) ({})",
                    self.place()
                ),
            ),
            _ => refuse(
                at,
                format!(
                    "byte {byte:#04x} is not a node of a column subtree at depth {depth} \
                     ({})",
                    self.place()
                ),
            ),
        }
    }

    /// `need_j = max(0, ⌈m/|R_j|⌉ − |C_j|)` for each army (§A3).
    fn need(&self) -> [u128; 4] {
        let mut need = [0; 4];
        for (j, need) in need.iter_mut().enumerate().take(self.armies) {
            let columns = u64::from(self.column_sets[j].count_ones());
            *need = u128::from(self.least_columns[j].saturating_sub(columns));
        }
        need
    }

    /// `Σ_j need_j`.
    fn needed(&self) -> u128 {
        self.need().iter().sum()
    }

    /// The weight of a cap-sum or FC byte (`b = byte & 15`), or a refusal.
    #[inline(always)]
    fn weight(&self, byte: u8, at: u64) -> Result<&[u64], Failure> {
        match self.claim.weights.get(usize::from(byte & 15)) {
            Some(weight) => Ok(weight),
            None => self.no_weight(byte, at),
        }
    }

    /// The refusal of a leaf that names a weight the header does not list.
    #[cold]
    #[inline(never)]
    fn no_weight<T>(&self, byte: u8, at: u64) -> Result<T, Failure> {
        refuse(
            at,
            format!(
                "leaf {byte:#04x} names weight {}, but the header lists {} ({})",
                byte & 15,
                self.claim.weights.len(),
                self.place()
            ),
        )
    }

    /// `want(w) = m·Σ_j w_j`.
    fn want(&self, weight: &[u64]) -> u128 {
        u128::from(self.claim.size) * weight.iter().map(|&w| u128::from(w)).sum::<u128>()
    }

    /// Checks a column leaf CS (`fix` false) or FC (`fix` true) of §A3 at a column node with
    /// `free` columns uncoloured.
    fn column_sum(&self, byte: u8, at: u64, free: usize, fix: bool) -> Result<(), Failure> {
        let (family, weight) = (usize::from(byte >> 4 & 1), self.weight(byte, at)?);
        let name = if fix { "FC" } else { "CS" };
        let need = self.need();
        let needed: u128 = need.iter().sum();
        if needed > free as u128 {
            return refuse(
                at,
                format!(
                    "leaf {name} {byte:#04x} where the armies need {needed} columns, more than \
                     the {free} free (a CN node: CS and FC are defined only where CN fails) ({})",
                    self.place()
                ),
            );
        }
        debug_assert!(
            !sampled(at)
                || self
                    .column_counts
                    .is_fresh(&self.rows, &self.columns, family),
            "the kept column counts differ from a recount ({})",
            self.place()
        );
        // Every need is now at most `free ≤ 16`, and so is `spare`.
        let spare = free as u64 - needed as u64;
        let counts = &self.column_counts;
        let mut sum = u128::from(if fix {
            weighted_cap(weight, |j| counts.family(j, family).0)
        } else {
            weighted_cap(weight, |j| {
                // x_{fji} = min(pot, fixed + need_j + spare): need_j + spare ≤ free ≤ 16, so
                // the sum fits in a byte, and x ≤ pot.
                let room = (need[j] as u64 + spare) as u8;
                let (mut x, pot) = counts.family(j, family);
                for (x, &pot) in x.iter_mut().zip(&pot) {
                    *x = pot.min(*x + room);
                }
                x
            })
        });
        if fix {
            let mut most = 0;
            for (j, &w) in weight.iter().enumerate() {
                let rows = u64::from(self.row_sets[j].count_ones());
                sum += need[j] * u128::from(w * rows);
                most = most.max(w * rows);
            }
            sum += u128::from(spare * most);
        }
        let want = self.want(weight);
        if sum >= want {
            return refuse(
                at,
                format!(
                    "leaf {name} {byte:#04x} (family {family}, weight {}) does not hold: the \
                     sum is {sum}, not less than {want} ({})",
                    words(weight),
                    self.place()
                ),
            );
        }
        Ok(())
    }

    /// The number of live cells of `army` on diagonal `index` of `family`.
    #[inline(always)]
    fn count(&self, army: usize, family: usize, index: usize) -> u64 {
        u64::from(self.counts[army][family][index])
    }

    /// Puts a cell of `army` at `(row, column)` among the live cells.
    fn add(&mut self, army: usize, row: usize, column: usize) {
        for (family, index) in [(0, row + column), (1, row + self.side - 1 - column)] {
            self.live[army][family][index] |= 1 << row;
            self.counts[army][family][index] += 1;
        }
        self.totals[army] += 1;
    }

    /// The live cells of the current full pair with no diagonal labelled: `R_j × C_j`.
    fn start(&mut self) {
        for j in 0..self.armies {
            for family in 0..2 {
                self.live[j][family] = [0; SLOTS];
                self.counts[j][family] = [0; SLOTS];
            }
            self.totals[j] = 0;
            let mut rows = self.row_sets[j];
            while rows != 0 {
                let row = rows.trailing_zeros() as usize;
                rows &= rows - 1;
                let mut columns = self.column_sets[j];
                while columns != 0 {
                    let column = columns.trailing_zeros() as usize;
                    columns &= columns - 1;
                    self.add(j, row, column);
                }
            }
        }
        self.labelled = [0; 2];
    }

    /// Removes the live cells of `army` on diagonal `index` of `family` (and from the other
    /// family's diagonals through them); returns their rows.
    #[inline(always)]
    fn remove(&mut self, army: usize, family: usize, index: usize) -> u32 {
        let removed = self.live[army][family][index];
        self.live[army][family][index] = 0;
        self.totals[army] -= self.count(army, family, index);
        self.counts[army][family][index] = 0;
        let mut rows = removed;
        while rows != 0 {
            let row = rows.trailing_zeros() as usize;
            rows &= rows - 1;
            // The cell of row r on diagonal i lies on diagonal 2r + D − 1 − i of the other
            // family (r + c = i and r − c + D − 1 give each other so); that index is below
            // 2D − 1 ≤ 31, so the mask changes nothing but spares a bounds check.
            let across = (2 * row + self.side - 1 - index) & (SLOTS - 1);
            self.live[army][1 - family][across] &= !(1 << row);
            self.counts[army][1 - family][across] -= 1;
        }
        removed
    }

    /// Puts back what [`Checker::remove`] took: deeper labels are undone, so these are
    /// exactly the cells missing.
    #[inline(always)]
    fn restore(&mut self, army: usize, family: usize, index: usize, removed: u32) {
        self.live[army][family][index] = removed;
        let cells = removed.count_ones();
        self.counts[army][family][index] = cells as u8;
        self.totals[army] += u64::from(cells);
        let mut rows = removed;
        while rows != 0 {
            let row = rows.trailing_zeros() as usize;
            rows &= rows - 1;
            let across = (2 * row + self.side - 1 - index) & (SLOTS - 1);
            self.live[army][1 - family][across] |= 1 << row;
            self.counts[army][1 - family][across] += 1;
        }
    }

    /// Labels the frame's diagonal with its current child's army: every other army loses its
    /// live cells there.
    fn label(&mut self, frame: &mut Frame) {
        let army = usize::from(frame.order[frame.child]);
        for other in 0..self.armies {
            if other != army {
                frame.removed[other] = self.remove(other, frame.family, frame.index);
            }
        }
    }

    fn unlabel(&mut self, frame: &Frame) {
        let army = usize::from(frame.order[frame.child]);
        for other in 0..self.armies {
            if other != army {
                self.restore(other, frame.family, frame.index, frame.removed[other]);
            }
        }
    }

    /// Reads and checks the diagonal tree of the current full pair, whose first byte is
    /// `first`: preorder, each inner node's children in the order of §A5, each leaf's rule
    /// recomputed from the live cells of the path.
    fn diagonal_tree(&mut self, first: u8, at: u64) -> Result<(), Failure> {
        if first >= 0x80 {
            // Most pairs are cut at their root: the column counts decide, no mask is made.
            debug_assert!(
                !sampled(at)
                    || (0..2).all(|f| self.column_counts.is_fresh(&self.rows, &self.columns, f)),
                "the kept column counts differ from a recount ({})",
                self.place()
            );
            return self.diagonal_leaf(first, at, true);
        }
        self.start();
        let mut next = Some((first, at));
        loop {
            let (byte, at) = match next.take() {
                Some(read) => read,
                None => self.input.next(|| "a diagonal tree".to_string())?,
            };
            match byte {
                0x00..=0x7F => {
                    let (family, index) = (usize::from(byte >> 6), usize::from(byte & 0x3F));
                    self.inner(byte, at, family, index)?;
                    continue;
                }
                _ => self.diagonal_leaf(byte, at, false)?,
            }
            // A leaf ends a subtree: go up to the first node with a child not read yet and
            // move to that child; if there is none, the tree is complete.
            loop {
                let Some(mut frame) = self.path.pop() else {
                    return Ok(());
                };
                self.unlabel(&frame);
                frame.child += 1;
                if frame.child < frame.children {
                    self.label(&mut frame);
                    self.path.push(frame);
                    break;
                }
                self.labelled[frame.family] &= !(1 << frame.index);
            }
        }
    }

    /// Checks the diagonal leaf `byte` read at `at`: at the `root` of the pair's diagonal
    /// tree (no label yet, the masks not made) or under the labels of the path.
    fn diagonal_leaf(&self, byte: u8, at: u64, root: bool) -> Result<(), Failure> {
        match byte {
            0x80..=0x83 if usize::from(byte & 3) < self.armies => {
                let army = usize::from(byte & 3);
                let cells = if root {
                    // Every cell of R_j × C_j is live at the root.
                    u64::from(self.row_sets[army].count_ones())
                        * u64::from(self.column_sets[army].count_ones())
                } else {
                    self.totals[army]
                };
                if cells >= self.claim.size {
                    return refuse(
                        at,
                        format!(
                            "leaf A_{army} ({byte:#04x}) does not hold: army {army} has \
                             {cells} live cells, not fewer than {} ({}, {})",
                            self.claim.size,
                            self.place(),
                            self.diagonal_path()
                        ),
                    );
                }
            }
            0xA0..=0xBF => {
                let (family, weight) = (usize::from(byte >> 4 & 1), self.weight(byte, at)?);
                // At the root the live cells are R_j × C_j, which the column counts hold: every
                // column is coloured, so `fixed` counts them.
                let sum = u128::from(if root {
                    weighted_cap(weight, |j| self.column_counts.family(j, family).0)
                } else {
                    weighted_cap(weight, |j| self.counts[j][family])
                });
                let want = self.want(weight);
                if sum >= want {
                    return refuse(
                        at,
                        format!(
                            "leaf cap sum {byte:#04x} (family {family}, weight {}) does not \
                             hold: the sum is {sum}, not less than {want} ({}, {})",
                            words(weight),
                            self.place(),
                            self.diagonal_path()
                        ),
                    );
                }
            }
            END => {
                return refuse(
                    at,
                    format!(
                        "the body ends (0xFF) inside a diagonal tree ({})",
                        self.place()
                    ),
                )
            }
            _ => {
                return refuse(
                    at,
                    format!(
                        "byte {byte:#04x} is not a node of a diagonal tree of {} armies \
                         ({}, {})",
                        self.armies,
                        self.place(),
                        self.diagonal_path()
                    ),
                )
            }
        }
        Ok(())
    }

    /// Checks a diagonal inner node and moves to its first child.
    fn inner(&mut self, byte: u8, at: u64, family: usize, index: usize) -> Result<(), Failure> {
        let last = 2 * self.side - 2;
        if index > last {
            return refuse(
                at,
                format!(
                    "inner node {byte:#04x} names diagonal {index} of family {family}, beyond \
                     2D - 2 = {last} ({})",
                    self.place()
                ),
            );
        }
        if self.labelled[family] >> index & 1 == 1 {
            return refuse(
                at,
                format!(
                    "inner node {byte:#04x} names diagonal {index} of family {family}, already \
                     labelled on its path ({}, {})",
                    self.place(),
                    self.diagonal_path()
                ),
            );
        }
        // The children: the armies with live cells on it, by decreasing count, ties by
        // increasing army (an insertion sort that moves an army only past smaller counts).
        let mut order = [0u8; 4];
        let mut children = 0;
        for army in 0..self.armies {
            let cells = self.count(army, family, index);
            if cells == 0 {
                continue;
            }
            let mut place = children;
            while place > 0 && self.count(usize::from(order[place - 1]), family, index) < cells {
                order[place] = order[place - 1];
                place -= 1;
            }
            order[place] = army as u8;
            children += 1;
        }
        if children < 2 {
            return refuse(
                at,
                format!(
                    "inner node {byte:#04x} names diagonal {index} of family {family}, where \
                     {children} armies have live cells (an inner node needs two) ({}, {})",
                    self.place(),
                    self.diagonal_path()
                ),
            );
        }
        self.labelled[family] |= 1 << index;
        let mut frame = Frame {
            family,
            index,
            order,
            children,
            child: 0,
            removed: [0; 4],
        };
        self.label(&mut frame);
        self.path.push(frame);
        Ok(())
    }

    /// The labels of the diagonal path, for the messages.
    fn diagonal_path(&self) -> String {
        let labels: Vec<String> = self
            .path
            .iter()
            .map(|frame| {
                format!(
                    "{}:{}:{}",
                    frame.family, frame.index, frame.order[frame.child]
                )
            })
            .collect();
        format!("diagonal path [{}]", labels.join(" "))
    }
}

/// A weight as the header writes it.
fn words(weight: &[u64]) -> String {
    let parts: Vec<String> = weight.iter().map(u64::to_string).collect();
    parts.join(":")
}

/// Checks one k-army certificate read from `reader` (a stream, read once front to back):
/// the header, one column tree per kept row colouring in the range with every claim of §A5
/// verified, the end byte, and the trailer `end ROWS PAIRS NODES`.
///
/// Returns what it proves, or the first failure with its byte offset.
pub fn check<R: Read>(reader: R) -> Result<Verified, Failure> {
    let mut input = Input::new(reader);
    let claim = header(&mut input)?;
    let body = input.offset;
    let side = claim.side;
    let mut checker = Checker {
        claim: &claim,
        input,
        side,
        armies: claim.armies,
        o: order(side),
        rows: vec![0; side],
        row_sets: [0; 4],
        code: 0,
        columns: vec![UNCOLOURED; side],
        column_sets: [0; 4],
        live: [[[0; SLOTS]; 2]; 4],
        counts: [[[0; SLOTS]; 2]; 4],
        totals: [0; 4],
        column_counts: ColumnCounts::new(),
        least_columns: [0; 4],
        labelled: [0; 2],
        path: Vec::with_capacity(2 * SLOTS),
        trees: 0,
        pairs: 0,
    };
    row_colourings(&claim, |code, rows| {
        checker.code = code;
        checker.rows.copy_from_slice(rows);
        checker.row_sets = [0; 4];
        for (row, &army) in rows.iter().enumerate() {
            checker.row_sets[usize::from(army)] |= 1 << row;
        }
        for (least, &rows) in checker.least_columns.iter_mut().zip(&checker.row_sets) {
            // A kept colouring gives every army a row; the others never get here.
            *least = claim.size.div_ceil(u64::from(rows.count_ones()).max(1));
        }
        checker.column_counts.start(rows);
        checker.tree()
    })?;
    let (rows, pairs) = (checker.trees, checker.pairs);
    let mut input = checker.input;
    let nodes = input.offset - body;
    let at = input.offset;
    match input.byte()? {
        Some(END) => {}
        None => {
            return refuse(
                at,
                "the stream ends where the end-of-body byte 0xFF should follow the last column \
                 tree",
            )
        }
        Some(byte) => {
            return refuse(
                at,
                format!(
                    "byte {byte:#04x} after the column tree of the last kept row colouring, \
                     where the end-of-body byte 0xFF should be (a tree for a row colouring that \
                     is not kept?)"
                ),
            )
        }
    }
    let (at, line) = input.line("the trailer")?;
    let counts = numbers(at, &line, "end", "end ROWS PAIRS NODES")?;
    if counts != [rows, pairs, nodes] {
        return refuse(
            at,
            format!(
                "the trailer {line:?} does not give the body's counts: {rows} column trees, \
                 {pairs} pair nodes, {nodes} nodes"
            ),
        );
    }
    let at = input.offset;
    if input.byte()?.is_some() {
        return refuse(at, "bytes after the trailer line");
    }
    Ok(Verified {
        claim,
        rows,
        pairs,
        nodes,
    })
}

/// What verified k-army claims prove together (section 4 with §A5's words): the whole claim
/// when their ranges cover `[0, k^D)`, else the part they cover; or why they prove nothing
/// together (no claim, or claims of different boards or armies).
pub fn combine(claims: &[Claim]) -> Result<Together, String> {
    let Some(first) = claims.first() else {
        return Err("no certificate".into());
    };
    for (number, claim) in claims.iter().enumerate().skip(1) {
        if claim.board() != first.board() {
            return Err(format!(
                "certificate {} claims {}, certificate 1 {}",
                number + 1,
                claim.board(),
                first.board()
            ));
        }
    }
    let mut ranges: Vec<(u64, u64)> = claims
        .iter()
        .filter(|claim| claim.lo < claim.hi)
        .map(|claim| (claim.lo, claim.hi))
        .collect();
    ranges.sort_unstable();
    let mut covered: Vec<(u64, u64)> = Vec::new();
    for (lo, hi) in ranges {
        match covered.last_mut() {
            Some(last) if lo <= last.1 => last.1 = last.1.max(hi),
            _ => covered.push((lo, hi)),
        }
    }
    let mut missing = Vec::new();
    let mut from = 0;
    for &(lo, hi) in &covered {
        if from < lo {
            missing.push((from, lo));
        }
        from = hi;
    }
    if from < first.codes() {
        missing.push((from, first.codes()));
    }
    Ok(if missing.is_empty() {
        Together::Whole
    } else {
        Together::Part { covered, missing }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A xorshift generator: the walks are the same on every run.
    struct Random(u64);

    impl Random {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
    }

    /// Walks a random column tree below the node at `depth` as the checker does (children
    /// pending, an inner node settled), comparing the kept counts with a recount at every
    /// node; returns the nodes compared. A node on the `path` is inner down to depth D, one of
    /// its children on the path again; any other is inner with probability 1/(2k), so that
    /// the trees reach every depth but stay small.
    fn walk(
        counts: &mut ColumnCounts,
        random: &mut Random,
        rows: &[u8],
        columns: &mut [u8],
        armies: usize,
        depth: usize,
        path: bool,
    ) -> u64 {
        for family in 0..2 {
            assert!(counts.is_fresh(rows, columns, family), "at {columns:?}");
        }
        let side = rows.len();
        if depth == side || !(path || random.below(2 * armies as u64) == 0) {
            return 1;
        }
        let column = inward(side, depth);
        let settled = counts.settle(armies);
        let mut nodes = 1;
        let next = random.below(armies as u64) as usize;
        for army in 0..armies {
            columns[column] = army as u8;
            counts.pending = (column, army);
            let path = path && army == next;
            nodes += walk(counts, random, rows, columns, armies, depth + 1, path);
        }
        columns[column] = UNCOLOURED;
        counts.pending = NO_COLUMN;
        counts.unsettle(armies, settled);
        nodes
    }

    #[test]
    fn kept_column_counts_equal_a_recount() {
        let mut random = Random(0x9E37_79B9_7F4A_7C15);
        let mut counts = ColumnCounts::new();
        let mut nodes = 0;
        for side in 1..=MAX_SIDE {
            for armies in [3, 4] {
                for _ in 0..20 {
                    let rows: Vec<u8> = (0..side).map(|_| random.below(armies) as u8).collect();
                    let mut columns = vec![UNCOLOURED; side];
                    counts.start(&rows);
                    nodes += walk(
                        &mut counts,
                        &mut random,
                        &rows,
                        &mut columns,
                        armies as usize,
                        0,
                        true,
                    );
                    // Back at the root, with nothing applied.
                    assert_eq!(counts.pending, NO_COLUMN);
                    for (family, counts_f) in
                        [0, 1].map(|f| (f, ColumnCounts::recount(&rows, &columns, f)))
                    {
                        for (j, &(fixed, pot)) in counts_f.iter().enumerate() {
                            assert_eq!(
                                (counts.fixed[j][family], counts.pot[j][family]),
                                (fixed, pot)
                            );
                        }
                    }
                }
            }
        }
        assert!(nodes > 5_000, "{nodes} nodes");
    }

    #[test]
    fn a_wrong_kept_count_is_seen() {
        let rows = [0, 1, 2, 0, 1];
        let mut counts = ColumnCounts::new();
        counts.start(&rows);
        let mut columns = [UNCOLOURED; 5];
        assert!((0..2).all(|f| counts.is_fresh(&rows, &columns, f)));
        columns[0] = 1;
        // The colouring neither pending nor applied: the counts are those of another node.
        assert!(!(0..2).all(|f| counts.is_fresh(&rows, &columns, f)));
        counts.pending = (0, 1);
        assert!((0..2).all(|f| counts.is_fresh(&rows, &columns, f)));
        counts.pending = (0, 2);
        assert!(!(0..2).all(|f| counts.is_fresh(&rows, &columns, f)));
    }
}
