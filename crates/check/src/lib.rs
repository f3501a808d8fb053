//! pq-check: an independent checker of pq-sat's search certificates.
//!
//! A search certificate claims that `w` white and `b` black queens do not fit on the `d × d`
//! board (or the `d × d` torus, whose diagonals wrap around) without a queen attacking one of
//! the other colour, and proves it by one refutation tree per searched pair `(S, T)` of white
//! rows and white columns. The format, the
//! mathematics and the list of what a checker verifies are in `docs/search-certificate.md`;
//! this crate was written from that page alone and shares no code with the writer, so that
//! the two cannot share a mistake.
//!
//! [`check`] reads one certificate as a stream and verifies all of section 4 of that page:
//! the exact header, the searched pairs enumerated and tested here (leastness under the group
//! and the product bound), every tree's inner nodes and every leaf's rule recomputed from
//! `(S, T)` and the labels on its path, the end-of-body byte and the trailer's counts. The
//! rule of paired cells (Lemma 5) needs a flow in a small network: the checker first tries
//! the greedy flow of the page and, only when that does not suffice, computes a maximum flow.
//! A certificate may be restricted to a [`Cube`] (its optional `cube` header line): then
//! only the pairs that agree with the cube's rows and columns are searched, and every tree
//! starts with the cube's diagonals labelled.
//! A torus certificate (`board torus D`, section 7 of the page) is read by the same code with
//! the torus's lines ([`Board::Torus`]): `d` wrapped diagonals a family, the group of its
//! affine symmetries, and neither paired cells nor cubes.
//! [`combine`] says what several verified certificates prove together: the whole claim, a
//! part of it, or cubes' parts only; a cube's certificate never counts toward the cover of
//! the row sets (the cubes' cover is proved elsewhere).

use std::fmt;
use std::io::{self, Read};

/// The checker of k-army certificates (`pq-armies-certificate 1`), a format of its own.
pub mod armies;

/// The largest board side: a diagonal index (at most `2d − 2`) must fit in six bits.
pub const MAX_SIDE: u32 = 32;

/// At most eight weights: a family-sum or paired-cells leaf names its weight in three bits.
const MAX_WEIGHTS: usize = 8;

/// The largest `P` or `Q` of a weight.
const MAX_WEIGHT: u64 = 1000;

/// Longer than any valid header or trailer line (the longest is a `cube` line fixing all 126
/// diagonals of the 32 × 32 board, 910 bytes; eight weights of 1000:1000 take 87, paired 86; numbers
/// beyond u64 are refused anyway), so a binary stream without a newline is refused early
/// instead of being read into memory.
const MAX_LINE: usize = 1024;

/// Certificates run to many gigabytes; a large buffer keeps the reads few.
const BUFFER: usize = 1 << 22;

/// The board a certificate speaks of, as its `board` line names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Board {
    /// The square board of sections 1-6: cell `(r, c)` on diagonal `r + c` of family 0 and
    /// `r − c + d − 1` of family 1, `2d − 1` diagonals a family.
    Square,
    /// The torus of section 7: cell `(r, c)` on diagonal `(r + c) mod d` of family 0 and
    /// `(r − c) mod d` of family 1, `d` diagonals a family.
    Torus,
}

impl fmt::Display for Board {
    /// The word of the `board` line: `square` or `torus`.
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        out.write_str(match self {
            Board::Square => "square",
            Board::Torus => "torus",
        })
    }
}

/// What a certificate claims, as its header states it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    /// The board: square or torus.
    pub kind: Board,
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
    /// The weights its leaves may name.
    pub rules: Rules,
}

/// The weights of a certificate's rules, as its header lists them: they are part of what
/// the checker reports, so that a reader sees which lemmas the proof used.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rules {
    /// The `weights` line: `(P_k, Q_k)` of the family-sum leaves (Lemma 4).
    pub weights: Vec<(u64, u64)>,
    /// The optional `paired` line: `(P_k, Q_k)` of the paired-cells leaves (Lemma 5); empty
    /// when the header has none.
    pub paired: Vec<(u64, u64)>,
}

impl fmt::Display for Rules {
    /// `weights P:Q …` and, when there is a `paired` line, ` paired P:Q …`: the header's words.
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |out: &mut fmt::Formatter<'_>, key: &str, pairs: &[(u64, u64)]| {
            write!(out, "{key}")?;
            pairs.iter().try_for_each(|(p, q)| write!(out, " {p}:{q}"))
        };
        list(out, "weights", &self.weights)?;
        if self.paired.is_empty() {
            Ok(())
        } else {
            list(out, " paired", &self.paired)
        }
    }
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

    /// The number of diagonals in each family: `2d − 1` on the square, `d` on the torus.
    pub fn diagonals(&self) -> usize {
        match self.kind {
            Board::Square => 2 * self.side as usize - 1,
            Board::Torus => self.side as usize,
        }
    }

    /// The order of the symmetry group, the number the `symmetry` line must state; the colour
    /// swap is a symmetry only when `w = b`. On the square, the 8 symmetries of the square
    /// (times 2 with the swap). On the torus, the formula of T2 and T6, which counts the words
    /// `(multiplier pair, swap, two translations, transposed or not)`: `(2 or 4)·|M|·d²` with
    /// `|M| = 2·φ(d)` multiplier pairs for `d ≥ 3` and one for `d ≤ 2`.
    pub fn group_order(&self) -> u32 {
        let swap = self.white == self.black;
        match self.kind {
            Board::Square => {
                if swap {
                    16
                } else {
                    8
                }
            }
            Board::Torus => {
                let d = self.side;
                let totient = (1..=d).filter(|&u| gcd(u, d) == 1).count() as u32;
                let multipliers = if d >= 3 { 2 * totient } else { 1 };
                (if swap { 4 } else { 2 }) * multipliers * d * d
            }
        }
    }

    /// `board square D armies W B` (or `board torus D …`): the words that every claim of the
    /// same board and armies begins with, and all that the whole claim says.
    pub fn board(&self) -> String {
        format!(
            "board {} {} armies {} {}",
            self.kind, self.side, self.white, self.black
        )
    }

    /// The sentence of the whole claim (true only when a range covering `[0, 2^d)` is verified).
    pub fn whole_statement(&self) -> String {
        let board = match self.kind {
            Board::Square => "board",
            Board::Torus => "torus",
        };
        format!(
            "{} white and {} black queens cannot be placed on the {d}x{d} {board} without a \
             queen attacking one of the other colour",
            self.white,
            self.black,
            d = self.side
        )
    }
}

impl fmt::Display for Claim {
    /// The words of the report's `c claim:` line (section 4): the header's, in the header's
    /// order, the rules last: `board square D armies W B rows LO HI[ cube …] rules weights
    /// P:Q…[ paired P:Q…]` (`board torus D …` on the torus).
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(out, "{} rows {} {}", self.board(), self.lo, self.hi)?;
        if let Some(cube) = &self.cube {
            write!(out, " {cube}")?;
        }
        write!(out, " rules {}", self.rules)
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
/// byte for the messages. The buffer is its own rather than a `BufReader`'s, so that a byte
/// costs one comparison and one load: a torus tree is a few thousand bytes a pair.
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

/// The `weights` line, or the `paired` line (`key`): one to eight pairs `P:Q`, each in
/// `1..=1000`.
fn weights(at: u64, line: &str, key: &str) -> Result<Vec<(u64, u64)>, Failure> {
    let parsed: Option<Vec<(u64, u64)>> = fields(line, key)
        .filter(|pairs| pairs.len() <= MAX_WEIGHTS)
        .and_then(|pairs| {
            pairs
                .iter()
                .map(|pair| {
                    let (p, q) = pair.split_once(':')?;
                    let (p, q) = (number(p)?, number(q)?);
                    let range = 1..=MAX_WEIGHT;
                    (range.contains(&p) && range.contains(&q)).then_some((p, q))
                })
                .collect()
        });
    match parsed {
        Some(pairs) => Ok(pairs),
        None => refuse(
            at,
            format!(
                "expected `{key} P1:Q1 ...` (1 to {MAX_WEIGHTS} pairs, each number in \
                 1..={MAX_WEIGHT}), found {line:?}"
            ),
        ),
    }
}

/// The header of section 3, every line and range checked.
fn header<R: Read>(input: &mut Input<R>) -> Result<Claim, Failure> {
    const PART: &str = "the header";
    let (at, line) = input.line(PART)?;
    if line != "pq-search-certificate 1" {
        return refuse(
            at,
            format!("expected `pq-search-certificate 1`, found {line:?}"),
        );
    }
    let (at, line) = input.line(PART)?;
    let kind = if line.starts_with("board torus") {
        Board::Torus
    } else {
        Board::Square
    };
    let form = "board square D` or `board torus D";
    let side = numbers(at, &line, &format!("board {kind}"), form, 1)?[0];
    if !(1..=u64::from(MAX_SIDE)).contains(&side) {
        return refuse(at, format!("board side {side} is not in 1..={MAX_SIDE}"));
    }
    let (at, line) = input.line(PART)?;
    let armies = numbers(at, &line, "armies", "armies W B", 2)?;
    if armies.contains(&0) {
        return refuse(at, "an army of size 0 (each must be at least 1)");
    }
    let mut claim = Claim {
        kind,
        side: side as u32,
        white: armies[0],
        black: armies[1],
        lo: 0,
        hi: 0,
        cube: None,
        rules: Rules::default(),
    };
    let (at, line) = input.line(PART)?;
    let order = numbers(at, &line, "symmetry", "symmetry G", 1)?[0];
    if order != u64::from(claim.group_order()) {
        return refuse(
            at,
            format!(
                "symmetry {order}, but the group of the {} with armies {} and {} has order {}",
                claim.kind,
                claim.white,
                claim.black,
                claim.group_order()
            ),
        );
    }
    let (at, line) = input.line(PART)?;
    claim.rules.weights = weights(at, &line, "weights")?;
    let (mut at, mut line) = input.line(PART)?;
    // The torus search never cuts by paired cells, and torus cubes have no producer and no
    // completeness proof (T6): neither line belongs in a torus certificate.
    if line.starts_with("paired") && kind == Board::Torus {
        return refuse(at, "a torus certificate has no `paired` line");
    }
    if line.starts_with("paired") {
        claim.rules.paired = weights(at, &line, "paired")?;
        (at, line) = input.line(PART)?;
    }
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
    if line.starts_with("cube") && kind == Board::Torus {
        return refuse(at, "a torus certificate has no `cube` line");
    }
    if line.starts_with("cube") {
        claim.cube = Some(cube(at, &line, claim.side)?);
        (at, line) = input.line(PART)?;
    }
    if line != "begin" {
        return refuse(at, format!("expected `begin`, found {line:?}"));
    }
    Ok(claim)
}

/// The searched pairs of section 3 (on the torus, of T3), in order: for each `S` in `[lo, hi)`
/// the `T` such that `(S, T)` is least under the group and passes the product bound. `visit`
/// is called on each and may stop the walk with an error.
pub fn searched_pairs<E>(
    claim: &Claim,
    visit: impl FnMut(u32, u32) -> Result<(), E>,
) -> Result<(), E> {
    match claim.kind {
        Board::Square => square_pairs(claim, visit),
        Board::Torus => torus_pairs(claim, visit),
    }
}

/// The searched pairs of the square board.
///
/// The facts of section 3 rule out whole ranges first: `S` is skipped when `ρ(S) < S` (and,
/// with the colour swap, when `S̄ < S` or `ρ(S̄) < S`), and `T` runs only over `[S, 2^d)`
/// (with the swap `[S, S̄]`, since `T̄ < S` is excluded). Each remaining `T` is tested against
/// all of its images, so the facts only save time and never decide a pair on their own.
///
/// With a cube, `S` and `T` run only over the sets that agree with its rows and columns
/// (`agreeing`), so a cube of many fixed rows costs no more than its own pairs; the facts
/// above still hold, since a cube's searched pairs are some of the others.
fn square_pairs<E>(
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

/// The searched pairs of the torus (T3): least under `G_torus` in the masks' order (no
/// half-turn) and passing the product bound, by `S` then `T`.
///
/// The skip facts of T2 rule out sets first, each a case of "some image is smaller": `S` is
/// skipped when some least rotation of `u·S` (with the swap, of `u·S̄`) is below `S`; `T`
/// runs over `[S, 2^d)` (the transposition), with the swap only up to `S̄` (`T̄ < S` gives the
/// image `(T̄, S̄)`), and is skipped when a rotation of `T` is below `T` (image `(S, rot T)`).
/// Each remaining pair is tested against the minima of all its images.
fn torus_pairs<E>(
    claim: &Claim,
    mut visit: impl FnMut(u32, u32) -> Result<(), E>,
) -> Result<(), E> {
    let torus = Torus::new(claim);
    let d = u64::from(claim.side);
    let (mut rows, mut columns) = (Vec::new(), Vec::new());
    for s in claim.lo..claim.hi {
        let s = s as u32;
        let count = u64::from(s.count_ones());
        // Product bound with |T| at its largest (d for white, 0 for black): no T can pass.
        if count * d < claim.white || (d - count) * d < claim.black {
            continue;
        }
        torus.minima(s, &mut rows);
        if rows.iter().any(|&least| least < s) {
            continue;
        }
        let complement = !s & torus.full;
        let last = if torus.swap { complement } else { torus.full };
        for t in s..=last {
            let count_t = u64::from(t.count_ones());
            if count * count_t < claim.white
                || (d - count) * (d - count_t) < claim.black
                || torus.least_rotation(t) < t
            {
                continue;
            }
            torus.minima(t, &mut columns);
            if torus.is_least(s, t, &rows, &columns) {
                visit(s, t)?;
            }
        }
    }
    Ok(())
}

/// The bits 0, 2, 4, … of `set` gathered into bits 0, 1, 2, …: each step closes the gaps
/// between groups of twice the size.
fn even_bits(set: u64) -> u32 {
    let mut x = set & 0x5555_5555_5555_5555;
    x = (x | x >> 1) & 0x3333_3333_3333_3333;
    x = (x | x >> 2) & 0x0f0f_0f0f_0f0f_0f0f;
    x = (x | x >> 4) & 0x00ff_00ff_00ff_00ff;
    x = (x | x >> 8) & 0x0000_ffff_0000_ffff;
    x = (x | x >> 16) & 0x0000_0000_ffff_ffff;
    x as u32
}

/// The greatest common divisor (`gcd(u, 0) = u`).
fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The torus's group `G_torus` of T2 acting on pairs of `d`-bit sets: the images of `(S, T)`
/// are `(u·X + a, v·Y + b)` and `(v·Y + b, u·X + a)` for the multiplier pairs `(u, v)` (`u` a
/// unit mod `d`, `v = ±u`), all translations `a`, `b`, and `(X, Y) = (S, T)` or, with the
/// colour swap (`w = b`), `(S̄, T̄)`.
struct Torus {
    side: u32,
    full: u32,
    swap: bool,
    /// The units `u ∈ 1 … d` with `gcd(u, d) = 1`, taken mod `d` (so `{0}` for `d = 1`).
    units: Vec<u32>,
    /// The multiplier pairs `M` as indices into `units`, without repeats: `(u, u)` and
    /// `(u, −u)`, which are one pair when `u ≡ −u` (only for `d ≤ 2`).
    pairs: Vec<(usize, usize)>,
}

impl Torus {
    fn new(claim: &Claim) -> Torus {
        let d = claim.side;
        let units: Vec<u32> = (1..=d).filter(|&u| gcd(u, d) == 1).map(|u| u % d).collect();
        let mut pairs = Vec::new();
        for (a, &u) in units.iter().enumerate() {
            let minus = (d - u) % d;
            // −u is a unit too, so it is in the list.
            let b = units.iter().position(|&v| v == minus).unwrap_or(a);
            pairs.push((a, a));
            if b != a {
                pairs.push((a, b));
            }
        }
        Torus {
            side: d,
            full: ((1u64 << d) - 1) as u32,
            swap: claim.white == claim.black,
            units,
            pairs,
        }
    }

    /// `u·X = {u·r mod d : r ∈ X}`.
    fn multiply(&self, set: u32, u: u32) -> u32 {
        let mut image = 0;
        let mut rows = set;
        while rows != 0 {
            let r = rows.trailing_zeros();
            rows &= rows - 1;
            image |= 1 << (u * r % self.side);
        }
        image
    }

    /// `X + i`: every element moved up by `i` mod `d` (a rotation of the `d`-bit set).
    fn translate(&self, set: u32, i: u32) -> u32 {
        let set = u64::from(set);
        ((set << i | set >> (self.side - i)) & u64::from(self.full)) as u32
    }

    /// `ρ*(X)`: the least of the sets `X + i`, `i ∈ 0 … d − 1`.
    fn least_rotation(&self, set: u32) -> u32 {
        (0..self.side)
            .map(|i| self.translate(set, i))
            .min()
            .unwrap_or(set)
    }

    /// `ρ*(u·X)` for each unit `u` in order, then (with the swap) `ρ*(u·X̄)`.
    fn minima(&self, set: u32, minima: &mut Vec<u32>) {
        minima.clear();
        let complement = !set & self.full;
        let sets: &[u32] = if self.swap {
            &[set, complement]
        } else {
            &[set]
        };
        for &x in sets {
            for &u in &self.units {
                minima.push(self.least_rotation(self.multiply(x, u)));
            }
        }
    }

    /// The engine's test of T2: `(S, T)` is least iff for every `(u, v) ∈ M` and swap choice,
    /// with `A = ρ*(u·X)` and `B = ρ*(v·Y)` (the least of the untransposed images, the
    /// translations of rows and columns being independent), neither `(A, B)` nor `(B, A)` (the
    /// least transposed image) is below `(S, T)`. `rows` and `columns` are [`Torus::minima`]
    /// of `S` and of `T`.
    fn is_least(&self, s: u32, t: u32, rows: &[u32], columns: &[u32]) -> bool {
        let units = self.units.len();
        let choices: &[usize] = if self.swap { &[0, units] } else { &[0] };
        choices.iter().all(|&swapped| {
            self.pairs.iter().all(|&(u, v)| {
                let (a, b) = (rows[swapped + u], columns[swapped + v]);
                (a, b) >= (s, t) && (b, a) >= (s, t)
            })
        })
    }
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
    /// complements both sets of each of them. Inlined into the walk over `T`, so that what
    /// depends on `S` alone is computed once per row set.
    #[inline(always)]
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

/// The numbers of a paired-cells leaf that does not hold, for the refusal.
#[derive(Debug)]
struct PairedNumbers {
    minima: u64,
    flow: u64,
    room: i128,
}

/// The nodes of Lemma 5's network: the source, the sink, then the `u⁺`, the `v` and the
/// `u⁻`, one slot per diagonal index.
const SOURCE: usize = 0;
const SINK: usize = 1;
const NODES: usize = 2 + 3 * SLOTS;

fn plus(u: usize) -> usize {
    2 + u
}

fn middle(v: usize) -> usize {
    2 + SLOTS + v
}

fn minus(u: usize) -> usize {
    2 + 2 * SLOTS + u
}

/// One arc for each `s → u⁺` and `u⁻ → t` and one for each live cell (at most `32 · 32`; a
/// cell is white or black, not both), each with its reverse.
const ARCS: usize = 2 * (2 * SLOTS + 32 * 32);

/// The end of an arc list.
const NO_ARC: u16 = u16::MAX;

/// A flow network in fixed arrays, so that a leaf allocates nothing: arc `e` and its reverse
/// `e ^ 1` are added together, and `residual` holds what each can still carry.
struct Network {
    first: [u16; NODES],
    next: [u16; ARCS],
    head: [u8; ARCS],
    residual: [u32; ARCS],
    arcs: usize,
}

impl Network {
    fn new() -> Network {
        Network {
            first: [NO_ARC; NODES],
            next: [NO_ARC; ARCS],
            head: [0; ARCS],
            residual: [0; ARCS],
            arcs: 0,
        }
    }

    fn arc(&mut self, from: usize, to: usize, capacity: u32) {
        for (tail, head, capacity) in [(from, to, capacity), (to, from, 0)] {
            let arc = self.arcs;
            self.head[arc] = head as u8;
            self.residual[arc] = capacity;
            self.next[arc] = self.first[tail];
            self.first[tail] = arc as u16;
            self.arcs += 1;
        }
    }

    /// Dinic's algorithm: breadth-first levels from the source in the residual network, then
    /// augmenting paths along increasing levels until none is left, repeated until the sink
    /// is out of reach. At that point no augmenting path exists, so the flow is maximum.
    fn max_flow(&mut self) -> u64 {
        let mut flow = 0;
        loop {
            let mut level = [u8::MAX; NODES];
            let mut queue = [0u8; NODES];
            level[SOURCE] = 0;
            let (mut read, mut written) = (0, 1);
            while read < written {
                let node = usize::from(queue[read]);
                read += 1;
                let mut arc = self.first[node];
                while arc != NO_ARC {
                    let head = usize::from(self.head[usize::from(arc)]);
                    if self.residual[usize::from(arc)] > 0 && level[head] == u8::MAX {
                        level[head] = level[node] + 1;
                        queue[written] = head as u8;
                        written += 1;
                    }
                    arc = self.next[usize::from(arc)];
                }
            }
            if level[SINK] == u8::MAX {
                return flow;
            }
            let mut current = self.first;
            loop {
                let pushed = self.augment(SOURCE, u32::MAX, &level, &mut current);
                if pushed == 0 {
                    break;
                }
                flow += u64::from(pushed);
            }
        }
    }

    /// One path from `node` to the sink along increasing levels, carrying at most `limit`;
    /// returns what it carries (0 if none is left). `current` skips the arcs already found
    /// useless in this phase.
    fn augment(
        &mut self,
        node: usize,
        limit: u32,
        level: &[u8; NODES],
        current: &mut [u16; NODES],
    ) -> u32 {
        if node == SINK {
            return limit;
        }
        while current[node] != NO_ARC {
            let arc = usize::from(current[node]);
            let head = usize::from(self.head[arc]);
            if self.residual[arc] > 0 && level[head] == level[node] + 1 {
                let pushed = self.augment(head, limit.min(self.residual[arc]), level, current);
                if pushed > 0 {
                    self.residual[arc] -= pushed;
                    self.residual[arc ^ 1] += pushed;
                    return pushed;
                }
            }
            current[node] = self.next[arc];
        }
        0
    }
}

/// Where the cell of a row on a diagonal of one family lies in the other family.
#[derive(Clone, Copy)]
struct Across {
    side: u32,
    torus: bool,
}

impl Across {
    /// The diagonal of the other family through the cell of row `row` on diagonal `index`.
    /// On the square the cell of row `r` on diagonal `i` lies on diagonal `2r + d − 1 − i` of
    /// the other family (both ways); on the torus on `(2r − i) mod d` (both ways: the cell of
    /// family-0 diagonal `i` is in column `i − r`, its family-1 diagonal `r − (i − r)`; the
    /// cell of family-1 diagonal `i` in column `r − i`, its family-0 diagonal `r + r − i`).
    #[inline(always)]
    fn diagonal(self, row: u32, index: usize) -> usize {
        let index = index as u32;
        if self.torus {
            // 2r + d − i lies in 1 ..= 3d − 2: at most two subtractions reduce it mod d.
            let mut across = 2 * row + self.side - index;
            if across >= self.side {
                across -= self.side;
            }
            if across >= self.side {
                across -= self.side;
            }
            across as usize
        } else {
            (2 * row + self.side - 1 - index) as usize
        }
    }
}

/// The torus has at most 32 diagonals a family.
const TORUS_SLOTS: usize = 32;

/// `spread[i][k]`: the rows `r` whose cell on diagonal `i` of either family lies on diagonal
/// `k` of the other, `(2r − i) mod d = k` (see [`Across`]); 0 for `k ≥ d`. The cells of rows
/// `m` on diagonal `i` are then, on diagonal `k` of the other family, the rows
/// `m & spread[i][k]`: one or none for odd `d`, up to two for even `d` (rows `r` and `r + d/2`,
/// T1 fact (a)), so that a label changes every other diagonal at once.
type Spread = [[u32; TORUS_SLOTS]; TORUS_SLOTS];

/// The [`Spread`] of the `d × d` torus, from [`Across::diagonal`] row by row.
fn spread(side: u32) -> Spread {
    let across = Across { side, torus: true };
    let mut spread = [[0; TORUS_SLOTS]; TORUS_SLOTS];
    for (index, rows) in spread.iter_mut().enumerate().take(side as usize) {
        for row in 0..side {
            rows[across.diagonal(row, index)] |= 1 << row;
        }
    }
    spread
}

/// The live white and live black rows of the diagonals of one family at the root of a pair
/// (no label yet), as `(index, white, black)` from the last index down: see [`Tree::root`].
struct Root {
    /// `S` and `S̄`.
    rows: [u32; 2],
    /// The column sets whose shifts (square) or rotations (torus) give the diagonals' rows,
    /// for the white and the black cells.
    columns: [u64; 2],
    /// On the torus, `d` and the full set.
    torus: Option<(u32, u64)>,
    /// One past the next index to give.
    index: usize,
}

impl Iterator for Root {
    type Item = (usize, u32, u32);

    #[inline(always)]
    fn next(&mut self) -> Option<(usize, u32, u32)> {
        let index = self.index.checked_sub(1)?;
        self.index = index;
        // On the torus, the set moved up by the index mod d: a rotation of its d bits. On the
        // square, from the last diagonal (shift d − 1) down to the first (shift −(d − 1)): each
        // set shifted left by d − 1 in a u64 (by `Tree::root`), then right by one a diagonal,
        // so that its low 32 bits are the set shifted by `i − (d − 1)` with no shift by a
        // variable amount.
        let columns = if let Some((side, full)) = self.torus {
            self.columns
                .map(|set| (((set << index) | (set >> (side as usize - index))) & full) as u32)
        } else {
            let now = self.columns.map(|set| set as u32);
            self.columns = self.columns.map(|set| set >> 1);
            now
        };
        Some((index, self.rows[0] & columns[0], self.rows[1] & columns[1]))
    }
}

/// The live cells of the current pair under the labels of the current path.
///
/// Per family and diagonal, the rows of its live white and live black cells (a diagonal has
/// at most one cell a row, on the torus exactly one). Labelling a diagonal W removes its live black cells, B its live
/// white cells; each removed cell also leaves its diagonal of the other family, so that both
/// families stay exact without recomputing anything but the one diagonal's cells.
struct Tree<'a> {
    claim: &'a Claim,
    group: Group,
    /// The torus's group, for its multiplication and rotation of sets (torus only).
    torus: Option<Torus>,
    across: Across,
    /// On the torus, the cells of each diagonal by the other family's diagonal (see
    /// [`Spread`]); all 0 on the square, which does not read it.
    spread: Box<Spread>,
    side: u32,
    diagonals: usize,
    white: [[u32; SLOTS]; 2],
    black: [[u32; SLOTS]; 2],
    /// The cube's diagonals (a bit per index, per family): labelled at every root.
    fixed: [u64; 2],
    /// The current pair `(S, T)`.
    pair: (u32, u32),
    /// Whether `white` and `black` hold the current node's masks (see [`Tree::start`]).
    filled: bool,
    labelled: [u64; 2],
    live_white: u64,
    live_black: u64,
    path: Vec<Frame>,
    nodes: u64,
}

impl<'a> Tree<'a> {
    fn new(claim: &'a Claim) -> Tree<'a> {
        let mut fixed = [0; 2];
        for &(family, index, _) in claim.cube.iter().flat_map(|cube| &cube.diagonals) {
            fixed[usize::from(family)] |= 1 << index;
        }
        let torus = claim.kind == Board::Torus;
        Tree {
            claim,
            group: Group::new(claim),
            torus: torus.then(|| Torus::new(claim)),
            across: Across {
                side: claim.side,
                torus,
            },
            spread: Box::new(if torus {
                spread(claim.side)
            } else {
                [[0; TORUS_SLOTS]; TORUS_SLOTS]
            }),
            side: claim.side,
            diagonals: claim.diagonals(),
            white: [[0; SLOTS]; 2],
            black: [[0; SLOTS]; 2],
            fixed,
            pair: (0, 0),
            filled: false,
            labelled: [0; 2],
            live_white: 0,
            live_black: 0,
            path: Vec::with_capacity(2 * SLOTS),
            nodes: 0,
        }
    }

    /// Begins the tree of `(S, T)`: its live counts (`|S|·|T|` white cells, `|S̄|·|T̄|` black)
    /// and, with a cube, its masks with the cube's diagonals labelled, as the theorem on cubes
    /// has it. Without a cube the masks are made only when a node needs them ([`Tree::fill`]):
    /// most trees are one leaf, and a family-sum leaf at the root reads the sums straight from
    /// [`Tree::root`], a cells leaf only the counts.
    fn start(&mut self, s: u32, t: u32) {
        let full = self.group.full;
        let (not_s, not_t) = (!s & full, !t & full);
        self.pair = (s, t);
        self.filled = false;
        self.live_white = u64::from(s.count_ones() * t.count_ones());
        self.live_black = u64::from(not_s.count_ones() * not_t.count_ones());
        self.labelled = self.fixed;
        // Not on the path: no frame ever undoes them, and the next pair starts afresh.
        let claim = self.claim;
        for &(family, index, black) in claim.cube.iter().flat_map(|cube| &cube.diagonals) {
            self.fill();
            self.label(usize::from(family), usize::from(index), black);
        }
    }

    /// The masks of the current pair at its root (no label yet), if they are not made.
    #[inline(always)]
    fn fill(&mut self) {
        if !self.filled {
            for family in 0..2 {
                for (index, white, black) in self.root(family) {
                    self.white[family][index] = white;
                    self.black[family][index] = black;
                }
            }
            self.filled = true;
        }
    }

    /// The live rows of the diagonals of `family` at the root of the current pair.
    ///
    /// Cell `(r, c)` is on diagonal `r + c` of family 0: the rows of diagonal `i` are those
    /// `r` with `i − r` in the column set, which are the set bits of the reversed column set
    /// shifted by `i − (d − 1)`. On family 1 it is diagonal `r − c + d − 1`: the rows are
    /// those with `r − i + d − 1` in the column set, the column set shifted by the same.
    ///
    /// On the torus, cell `(r, c)` is on diagonal `(r + c) mod d` of family 0: the rows of
    /// diagonal `i` are those `r` with `i − r` in the column set, i.e. `r ∈ (−T) + i`; on
    /// family 1 it is diagonal `(r − c) mod d`: the rows with `r − i` in the column set, i.e.
    /// `r ∈ T + i`. Row by row, so that for even `d` the two cells that a diagonal of each
    /// family share are both found (T1, fact (a)).
    fn root(&self, family: usize) -> Root {
        let (s, t) = self.pair;
        let full = self.group.full;
        let (not_s, not_t) = (!s & full, !t & full);
        let (columns, torus) = match &self.torus {
            // −X is X multiplied by d − 1 (which is 0 for d = 1, where −0 = 0 as well).
            Some(torus) if family == 0 => (
                [t, not_t].map(|set| u64::from(torus.multiply(set, self.side - 1))),
                true,
            ),
            Some(_) => ([t, not_t].map(u64::from), true),
            None => {
                let sets = if family == 0 {
                    [self.group.reverse(t), self.group.reverse(not_t)]
                } else {
                    [t, not_t]
                };
                (sets.map(|set| u64::from(set) << (self.side - 1)), false)
            }
        };
        Root {
            rows: [s, not_s],
            columns,
            torus: torus.then_some((self.side, u64::from(full))),
            index: self.diagonals,
        }
    }

    /// Removes the live cells of one colour from diagonal `index` of `family` (and from the
    /// other family's diagonals through them); returns their rows.
    #[inline(always)]
    fn remove(
        cells: &mut [[u32; SLOTS]; 2],
        across: Across,
        spread: &Spread,
        family: usize,
        index: usize,
    ) -> u32 {
        let removed = cells[family][index];
        cells[family][index] = 0;
        if across.torus {
            // All the other family's diagonals at once, with no branch on the cells.
            Tree::torus_spread(&mut cells[1 - family], &spread[index], |other, rows| {
                other & !(removed & rows)
            });
            return removed;
        }
        let mut rows = removed;
        while rows != 0 {
            let row = rows.trailing_zeros();
            rows &= rows - 1;
            cells[1 - family][across.diagonal(row, index)] &= !(1 << row);
        }
        removed
    }

    /// Puts back cells removed by [`Tree::remove`]: deeper labels have been undone, so these
    /// are exactly the bits missing.
    #[inline(always)]
    fn restore(
        cells: &mut [[u32; SLOTS]; 2],
        across: Across,
        spread: &Spread,
        family: usize,
        index: usize,
        removed: u32,
    ) {
        cells[family][index] = removed;
        if across.torus {
            Tree::torus_spread(&mut cells[1 - family], &spread[index], |other, rows| {
                other | (removed & rows)
            });
            return;
        }
        let mut rows = removed;
        while rows != 0 {
            let row = rows.trailing_zeros();
            rows &= rows - 1;
            cells[1 - family][across.diagonal(row, index)] |= 1 << row;
        }
    }

    /// Sets each of the torus's diagonals `k` of a family to `change(cells[k], rows[k])`. The
    /// lanes are copied in and out so that the compiler sees that they do not overlap and
    /// changes four at a time.
    #[inline(always)]
    fn torus_spread(
        cells: &mut [u32; SLOTS],
        rows: &[u32; TORUS_SLOTS],
        change: impl Fn(u32, u32) -> u32,
    ) {
        let lanes = cells
            .first_chunk_mut::<TORUS_SLOTS>()
            .expect("a family has more slots than the torus has diagonals");
        let mut out = *lanes;
        for (out, &rows) in out.iter_mut().zip(rows) {
            *out = change(*out, rows);
        }
        *lanes = out;
    }

    /// Labels the diagonal W (removing its live black cells) or B (its live white cells).
    #[inline(always)]
    fn label(&mut self, family: usize, index: usize, black: bool) -> u32 {
        debug_assert!(self.filled, "a label before the masks are made");
        if black {
            let removed = Tree::remove(&mut self.white, self.across, &self.spread, family, index);
            self.live_white -= u64::from(removed.count_ones());
            removed
        } else {
            let removed = Tree::remove(&mut self.black, self.across, &self.spread, family, index);
            self.live_black -= u64::from(removed.count_ones());
            removed
        }
    }

    #[inline(always)]
    fn unlabel(&mut self, frame: Frame) {
        if frame.black {
            Tree::restore(
                &mut self.white,
                self.across,
                &self.spread,
                frame.family,
                frame.index,
                frame.removed,
            );
            self.live_white += u64::from(frame.removed.count_ones());
        } else {
            Tree::restore(
                &mut self.black,
                self.across,
                &self.spread,
                frame.family,
                frame.index,
                frame.removed,
            );
            self.live_black += u64::from(frame.removed.count_ones());
        }
    }

    /// `Σ max(p·lw(x), q·lb(x))` over the diagonals `x` of `family`: from the masks, or at a
    /// root whose masks are not made, from the pair itself.
    fn family_sum(&self, family: usize, p: u64, q: u64) -> u64 {
        let weigh = |white: u32, black: u32| {
            (p * u64::from(white.count_ones())).max(q * u64::from(black.count_ones()))
        };
        if self.filled {
            (0..self.diagonals)
                .map(|i| weigh(self.white[family][i], self.black[family][i]))
                .sum()
        } else {
            self.root(family)
                .map(|(_, white, black)| weigh(white, black))
                .sum()
        }
    }

    /// The excesses `out(u)` and `in(u)` of Lemma 5 for each diagonal `u` of family 0, written
    /// into the two arrays (in place: a leaf copies nothing); returns `Σ m_u` and the sets of
    /// the `u` with `out(u) > 0` and with `in(u) > 0`, a bit each.
    fn excesses(
        &self,
        p: u64,
        q: u64,
        out: &mut [u32; SLOTS],
        into: &mut [u32; SLOTS],
    ) -> (u64, [u64; 2]) {
        debug_assert!(self.filled, "paired cells before the masks are made");
        let (mut minima, mut left) = (0, [0; 2]);
        for u in 0..self.diagonals {
            let white = p * u64::from(self.white[0][u].count_ones());
            let black = q * u64::from(self.black[0][u].count_ones());
            let m = white.min(black);
            minima += m;
            // At most 1000 · 32 each: they fit.
            out[u] = (white - m) as u32;
            into[u] = (black - m) as u32;
            left[0] |= u64::from(white > m) << u;
            left[1] |= u64::from(black > m) << u;
        }
        (minima, left)
    }

    /// Lemma 5 with the weights `(p, q)`: holds iff `Σ m_u + F > room` for the maximum flow
    /// `F`. The greedy flow of section 2 is tried first because it is cheap and the writer
    /// cuts only where it suffices; the maximum flow is computed only when it does not, so
    /// that a leaf is never refused for want of a better flow.
    fn paired_cells(&self, p: u64, q: u64) -> Result<(), PairedNumbers> {
        let (mut out, mut into) = ([0; SLOTS], [0; SLOTS]);
        let (minima, left) = self.excesses(p, q, &mut out, &mut into);
        // `room` is negative when fewer than w (or b) live cells are left: the rule then holds
        // with any flow, as the lemma allows.
        let room = i128::from(p) * (i128::from(self.live_white) - i128::from(self.claim.white))
            + i128::from(q) * (i128::from(self.live_black) - i128::from(self.claim.black));
        let holds = |flow: u64| i128::from(minima) + i128::from(flow) > room;
        // The greedy flow stops as soon as it suffices: what it has made by then is a flow.
        let enough = (room + 1 - i128::from(minima)).max(0) as u64;
        let unit = p.min(q) as u32;
        if holds(0) || holds(self.greedy_flow(unit, &mut out, &mut into, left, enough)) {
            return Ok(());
        }
        // The greedy flow used the excesses up: the network needs them afresh.
        self.excesses(p, q, &mut out, &mut into);
        let flow = self.max_flow(p as u32, q as u32, &out, &into);
        if holds(flow) {
            Ok(())
        } else {
            Err(PairedNumbers { minima, flow, room })
        }
    }

    /// The greedy flow of section 2: for each diagonal `v` of family 1 in increasing index,
    /// its live white cells whose `u` still has `out(u) > 0` paired in increasing row with
    /// its live black cells whose `u'` still has `in(u') > 0`, each pair a path of value
    /// `min(min(p, q), out(u), in(u'))`. Each path uses one white and one black cell, so
    /// `min(p, q)` respects both cells' arcs. It stops once the flow reaches `enough` (the
    /// paths made so far are a flow of their own), which `u64::MAX` never does. The excesses
    /// are used up in place; `left` are the sets of [`Tree::excesses`].
    ///
    /// A diagonal `u` meets `v` in at most one cell, so no excess of the cells on `v` changes
    /// before that cell is paired: the cells of `v` to pair can be listed first, as row masks.
    /// The diagonals `u` with excess left are kept as sets split by parity and indexed by
    /// `u / 2`: the cell of row `r` on `v` lies on `u = 2r + d − 1 − v` (the square's
    /// geometry: only the square has paired cells), so with `d − 1 − v = 2j + e` the rows of
    /// `v` whose `u` has excess left are the set of parity `e` shifted down by `j`.
    fn greedy_flow(
        &self,
        unit: u32,
        out: &mut [u32; SLOTS],
        into: &mut [u32; SLOTS],
        left: [u64; 2],
        enough: u64,
    ) -> u64 {
        debug_assert!(!self.across.torus, "paired cells on the torus");
        let halves = |set: u64| [even_bits(set), even_bits(set >> 1)];
        let (mut outs, mut ins) = (halves(left[0]), halves(left[1]));
        // The rows `r` with bit `r + j` set in the set, `j` in −16 … 15: the set placed at
        // bit 32 of a u64 and shifted right by 32 + j, whatever the sign of `j`.
        let rows =
            |halves: &[u32; 2], e: usize, j: i64| ((u64::from(halves[e]) << 32) >> (32 + j)) as u32;
        let mut flow = 0;
        for v in 0..self.diagonals {
            let offset = i64::from(self.side) - 1 - v as i64;
            let (e, j) = (offset.rem_euclid(2) as usize, offset.div_euclid(2));
            let mut whites = self.white[1][v] & rows(&outs, e, j);
            let mut blacks = self.black[1][v] & rows(&ins, e, j);
            while whites != 0 && blacks != 0 {
                let (white, black) = (whites.trailing_zeros(), blacks.trailing_zeros());
                whites &= whites - 1;
                blacks &= blacks - 1;
                let (u, w) = (
                    self.across.diagonal(white, v),
                    self.across.diagonal(black, v),
                );
                let value = unit.min(out[u]).min(into[w]);
                out[u] -= value;
                into[w] -= value;
                outs[u & 1] &= !(u32::from(out[u] == 0) << (u >> 1));
                ins[w & 1] &= !(u32::from(into[w] == 0) << (w >> 1));
                flow += u64::from(value);
                if flow >= enough {
                    return flow;
                }
            }
        }
        flow
    }

    /// A maximum flow in the network of Lemma 5. Only the `u⁺` with `out(u) > 0` and the `u⁻`
    /// with `in(u) > 0` get arcs: every other `u⁺` (`u⁻`) has nothing coming in from `s`
    /// (going out to `t`), so no flow passes it.
    fn max_flow(&self, p: u32, q: u32, out: &[u32; SLOTS], into: &[u32; SLOTS]) -> u64 {
        let mut network = Network::new();
        let across = |row: u32, u: usize| self.across.diagonal(row, u);
        for u in 0..self.diagonals {
            if out[u] > 0 {
                network.arc(SOURCE, plus(u), out[u]);
                let mut rows = self.white[0][u];
                while rows != 0 {
                    let row = rows.trailing_zeros();
                    rows &= rows - 1;
                    network.arc(plus(u), middle(across(row, u)), p);
                }
            }
            if into[u] > 0 {
                network.arc(minus(u), SINK, into[u]);
                let mut rows = self.black[0][u];
                while rows != 0 {
                    let row = rows.trailing_zeros();
                    rows &= rows - 1;
                    network.arc(middle(across(row, u)), minus(u), q);
                }
            }
        }
        network.max_flow()
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
                        let last = match self.claim.kind {
                            Board::Square => "2D - 2",
                            Board::Torus => "D - 1 (a torus)",
                        };
                        return refuse(
                            at,
                            format!(
                                "inner node {byte:#04x} names diagonal {index} of family {family}, \
                                 beyond {last} = {} ({})",
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
                    self.fill();
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
                    let weights = &self.claim.rules.weights;
                    let Some(&(p, q)) = weights.get(k) else {
                        return refuse(
                            at,
                            format!(
                                "leaf {byte:#04x} names weight {k}, but the header lists {}",
                                weights.len()
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
                0xD0..=0xD7 => {
                    let k = usize::from(byte & 7);
                    let paired = &self.claim.rules.paired;
                    let Some(&(p, q)) = paired.get(k) else {
                        let why = if paired.is_empty() {
                            format!(
                                "invalid byte {byte:#04x} (a paired-cells leaf, but the header \
                                 has no `paired` line)"
                            )
                        } else {
                            format!(
                                "leaf {byte:#04x} names paired-cells weight {k}, but the \
                                 `paired` line lists {}",
                                paired.len()
                            )
                        };
                        return refuse(at, format!("{why} ({})", pair()));
                    };
                    self.fill();
                    if let Err(numbers) = self.paired_cells(p, q) {
                        return refuse(
                            at,
                            format!(
                                "leaf `paired cells` with weight {p}:{q} does not hold: the sum \
                                 of the m_u is {}, a maximum flow {}, their sum not more than \
                                 the room {} ({})",
                                numbers.minima,
                                numbers.flow,
                                numbers.room,
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
    let mut input = Input::new(reader);
    let claim = header(&mut input)?;
    let mut tree = Tree::new(&claim);
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

/// What verified certificates prove together (section 4 of the page), given that they
/// agree on the board and the armies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Together {
    /// The whole claim of section 1 (`s VERIFIED`): the ranges of the certificates without
    /// a `cube` line cover `[0, 2^d)`.
    Whole,
    /// A part of it (`s PART VERIFIED`): some certificate has no `cube` line, but their
    /// ranges leave row sets out.
    Part {
        /// The union of the ranges without a cube: disjoint, not touching, increasing.
        covered: Vec<(u64, u64)>,
        /// The rest of `[0, 2^d)`, in the same form.
        missing: Vec<(u64, u64)>,
    },
    /// Only their cubes' parts (`s CUBE VERIFIED`): every certificate has a `cube` line; the
    /// number of certificates.
    Cubes(usize),
}

/// What verified claims prove together, or why they prove nothing together (no claim, or
/// claims of different boards or armies).
///
/// A cube's claim takes no part in the cover (section 4): that the cubes cover every
/// labelling is proved elsewhere, and a checker of certificates cannot see it.
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
        .filter(|claim| claim.cube.is_none() && claim.lo < claim.hi)
        .map(|claim| (claim.lo, claim.hi))
        .collect();
    if claims.iter().all(|claim| claim.cube.is_some()) {
        return Ok(Together::Cubes(claims.len()));
    }
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
    if from < first.row_sets() {
        missing.push((from, first.row_sets()));
    }
    Ok(if missing.is_empty() {
        Together::Whole
    } else {
        Together::Part { covered, missing }
    })
}

/// The reference writer and judge of the integration tests, whose numbers of Lemma 5 are
/// computed from the cells as plainly as possible: the unit tests compare the checker's
/// flows with them.
#[cfg(test)]
#[path = "../tests/common/mod.rs"]
mod common;

#[cfg(test)]
mod tests {
    use super::*;

    use crate::common::{self, Labels, Lemma5, Random, Spec, BLACK, NONE, WHITE};

    fn claim(side: u32, white: u64, black: u64) -> Claim {
        Claim {
            kind: Board::Square,
            side,
            white,
            black,
            lo: 0,
            hi: 1 << side,
            cube: None,
            rules: Rules {
                weights: vec![(1, 1)],
                paired: Vec::new(),
            },
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
            let mut tree = Tree::new(&claim);
            for (s, t) in [
                (0, 0),
                (1, 2),
                (0b1011 & ((1 << side) - 1), 0b0110 & ((1 << side) - 1)),
                ((1 << side) - 1, 5 % (1 << side)),
            ] {
                tree.start(s, t);
                // A root's family sums read from the pair equal those read from its masks.
                let sums = |tree: &Tree| {
                    [(1, 1), (2, 3), (1000, 1)]
                        .map(|(p, q)| [tree.family_sum(0, p, q), tree.family_sum(1, p, q)])
                };
                let unfilled = sums(&tree);
                tree.fill();
                assert_eq!(sums(&tree), unfilled, "d = {side}, (S, T) = ({s}, {t})");
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

    /// The torus's least test against the orbits of the group closed under its generators
    /// (written from T2 in the tests' reference code), for every pair of tori up to 6 × 6.
    #[test]
    fn the_torus_least_test_is_the_orbits_least_pair() {
        for side in 1..=6u32 {
            for swap in [false, true] {
                let least = common::torus_least(side, swap);
                let claim = Claim {
                    kind: Board::Torus,
                    ..claim(side, 1, if swap { 1 } else { 2 })
                };
                let torus = Torus::new(&claim);
                let expected = if side >= 3 {
                    2 * (1..=side).filter(|&u| gcd(u, side) == 1).count()
                } else {
                    1
                };
                assert_eq!(torus.pairs.len(), expected, "|M| for d = {side}");
                let (mut rows, mut columns) = (Vec::new(), Vec::new());
                for s in 0..1u32 << side {
                    torus.minima(s, &mut rows);
                    for t in 0..1u32 << side {
                        torus.minima(t, &mut columns);
                        assert_eq!(
                            torus.is_least(s, t, &rows, &columns),
                            least.contains(&(s, t)),
                            "d = {side}, swap {swap}, (S, T) = ({s}, {t})"
                        );
                    }
                }
            }
        }
    }

    /// The live cells at a torus root, row by row from the definition: `(r, c)` on diagonals
    /// `(r + c) mod d` and `(r − c) mod d`; for even `d` two cells may share both.
    #[test]
    fn start_gives_the_cells_of_the_torus() {
        for side in 1..=9u32 {
            let claim = Claim {
                kind: Board::Torus,
                ..claim(side, 1, 1)
            };
            let mut tree = Tree::new(&claim);
            let full = (1u32 << side) - 1;
            for (s, t) in [
                (0, 0),
                (1, 2 & full),
                (0b1011 & full, 0b0110 & full),
                (full, 5 & full),
                (0b1_0110_1001 & full, 0b1_1100_0101 & full),
            ] {
                tree.start(s, t);
                // A root's family sums read from the pair equal those read from its masks.
                let sums = |tree: &Tree| {
                    [(1, 1), (2, 3), (1000, 1)]
                        .map(|(p, q)| [tree.family_sum(0, p, q), tree.family_sum(1, p, q)])
                };
                let unfilled = sums(&tree);
                tree.fill();
                assert_eq!(sums(&tree), unfilled, "d = {side}, (S, T) = ({s}, {t})");
                let mut white = [[0u32; SLOTS]; 2];
                let mut black = [[0u32; SLOTS]; 2];
                for r in 0..side {
                    for c in 0..side {
                        let diagonals = common::on(side, true, r, c);
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
                // Labelling keeps the other family exact: every cell removed leaves both.
                for (family, index) in [(0, 0), (1, side as usize - 1), (1, 0)] {
                    let before = (tree.white, tree.black);
                    let removed = tree.label(family, index, true);
                    let cells: u32 = tree.white[1 - family][..side as usize]
                        .iter()
                        .map(|m| m.count_ones())
                        .sum();
                    assert_eq!(u64::from(cells), tree.live_white);
                    tree.unlabel(Frame {
                        family,
                        index,
                        black: true,
                        removed,
                    });
                    assert_eq!((tree.white, tree.black), before);
                }
            }
        }
    }

    /// The live masks of `(S, T)` under `labels` (`labels[f][i]` Some(black) when labelled),
    /// cell by cell from the definition.
    fn live_masks(
        side: u32,
        torus: bool,
        (s, t): (u32, u32),
        labels: &[[Option<bool>; SLOTS]; 2],
    ) -> ([[u32; SLOTS]; 2], [[u32; SLOTS]; 2]) {
        let (mut white, mut black) = ([[0u32; SLOTS]; 2], [[0u32; SLOTS]; 2]);
        for r in 0..side {
            for c in 0..side {
                let diagonals = common::on(side, torus, r, c);
                let label = |family: usize| labels[family][diagonals[family]];
                let (in_s, in_t) = (s >> r & 1 == 1, t >> c & 1 == 1);
                for family in 0..2 {
                    if in_s && in_t && label(0) != Some(true) && label(1) != Some(true) {
                        white[family][diagonals[family]] |= 1 << r;
                    }
                    if !in_s && !in_t && label(0) != Some(false) && label(1) != Some(false) {
                        black[family][diagonals[family]] |= 1 << r;
                    }
                }
            }
        }
        (white, black)
    }

    #[test]
    fn the_torus_spread_is_that_of_the_cells() {
        for side in 1..=32u32 {
            let table = spread(side);
            for (index, rows) in table.iter().enumerate() {
                for (k, &rows) in rows.iter().enumerate() {
                    let mut expected = 0;
                    for r in 0..side {
                        // The cell of row r on diagonal `index` of family 0, and of family 1.
                        let on_first = (index as u32 + side - r) % side;
                        let on_second = (r + side - index as u32 % side) % side;
                        let across = [
                            common::on(side, true, r, on_first)[1],
                            common::on(side, true, r, on_second)[0],
                        ];
                        if (index as u32) < side {
                            assert_eq!(across[0], across[1], "d = {side}, i = {index}, r = {r}");
                            if across[0] == k {
                                expected |= 1 << r;
                            }
                        }
                    }
                    assert_eq!(rows, expected, "d = {side}, i = {index}, k = {k}");
                }
            }
        }
    }

    /// Random paths of labels on random pairs, on the square and the torus: after every label
    /// and every unlabel the masks and the live counts are those of the definition.
    #[test]
    fn labels_keep_the_masks_of_the_definition() {
        let mut random = Random::new(0x005E_ED0F_1AB5);
        let mut steps = 0;
        for torus in [false, true] {
            for side in 1..=if torus { 32 } else { 20 } {
                let kind = if torus { Board::Torus } else { Board::Square };
                let claim = Claim {
                    kind,
                    ..claim(side, 1, 1)
                };
                let diagonals = claim.diagonals();
                let mut tree = Tree::new(&claim);
                let full = ((1u64 << side) - 1) as u32;
                for _ in 0..6 {
                    let pair = (
                        (random.below(1 << 16) as u32 | (random.below(1 << 16) as u32) << 16)
                            & full,
                        (random.below(1 << 16) as u32 | (random.below(1 << 16) as u32) << 16)
                            & full,
                    );
                    tree.start(pair.0, pair.1);
                    tree.fill();
                    let mut labels = [[None; SLOTS]; 2];
                    let mut frames = Vec::new();
                    let check = |tree: &Tree, labels: &[[Option<bool>; SLOTS]; 2]| {
                        let (white, black) = live_masks(side, torus, pair, labels);
                        let context = format!("{kind} {side}, {pair:?}, {labels:?}");
                        assert_eq!((tree.white, tree.black), (white, black), "{context}");
                        let cells = |masks: &[[u32; SLOTS]; 2]| {
                            masks[0]
                                .iter()
                                .map(|m| u64::from(m.count_ones()))
                                .sum::<u64>()
                        };
                        assert_eq!(
                            (tree.live_white, tree.live_black),
                            (cells(&white), cells(&black)),
                            "{context}"
                        );
                    };
                    for _ in 0..=random.below(2 * diagonals) {
                        let (family, index) = (random.below(2), random.below(diagonals));
                        if labels[family][index].is_some() {
                            continue;
                        }
                        let black = random.below(2) == 1;
                        let removed = tree.label(family, index, black);
                        labels[family][index] = Some(black);
                        frames.push(Frame {
                            family,
                            index,
                            black,
                            removed,
                        });
                        check(&tree, &labels);
                        steps += 1;
                    }
                    while let Some(frame) = frames.pop() {
                        tree.unlabel(frame);
                        labels[frame.family][frame.index] = None;
                        check(&tree, &labels);
                    }
                }
            }
        }
        assert!(steps > 1000, "{steps} labels");
    }

    #[test]
    fn label_and_unlabel_restore_every_mask() {
        let claim = claim(6, 3, 3);
        let mut tree = Tree::new(&claim);
        tree.start(0b01_0110, 0b10_0101);
        tree.fill();
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
    fn even_bits_gathers_the_even_bits() {
        let mut random = Random::new(0xb175);
        for _ in 0..1000 {
            let set = (random.below(1 << 32) as u64) << 32 | random.below(1 << 32) as u64;
            let plain = (0..32).fold(0u32, |bits, k| bits | ((set >> (2 * k) & 1) as u32) << k);
            assert_eq!(even_bits(set), plain, "{set:#x}");
        }
        assert_eq!(even_bits(u64::MAX), u32::MAX);
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
        let cube = |lo, hi| Claim {
            cube: Some(Cube {
                rows: (1, 1),
                columns: (0, 0),
                diagonals: Vec::new(),
            }),
            ..part(lo, hi)
        };
        let parts = |covered: &[(u64, u64)], missing: &[(u64, u64)]| {
            Ok(Together::Part {
                covered: covered.to_vec(),
                missing: missing.to_vec(),
            })
        };
        assert_eq!(combine(&[part(0, 16)]), Ok(Together::Whole));
        assert_eq!(combine(&[part(5, 16), part(0, 5)]), Ok(Together::Whole));
        assert_eq!(
            combine(&[part(0, 9), part(3, 16), part(4, 4)]),
            Ok(Together::Whole)
        );
        assert_eq!(
            combine(&[part(0, 5), part(6, 16)]),
            parts(&[(0, 5), (6, 16)], &[(5, 6)])
        );
        assert_eq!(combine(&[part(0, 15)]), parts(&[(0, 15)], &[(15, 16)]));
        // Touching and overlapping ranges merge; empty ones vanish.
        assert_eq!(
            combine(&[part(9, 12), part(2, 5), part(5, 7), part(3, 4), part(8, 8)]),
            parts(&[(2, 7), (9, 12)], &[(0, 2), (7, 9), (12, 16)])
        );
        assert_eq!(combine(&[part(0, 0)]), parts(&[], &[(0, 16)]));
        assert_eq!(combine(&[part(7, 7)]), parts(&[], &[(0, 16)]));
        // Cubes: never in the cover; alone, their own verdict.
        assert_eq!(combine(&[cube(0, 16)]), Ok(Together::Cubes(1)));
        assert_eq!(
            combine(&[cube(0, 16), cube(0, 16), cube(3, 4)]),
            Ok(Together::Cubes(3))
        );
        assert_eq!(
            combine(&[cube(0, 16), part(0, 3)]),
            parts(&[(0, 3)], &[(3, 16)])
        );
        assert_eq!(combine(&[cube(0, 16), part(0, 16)]), Ok(Together::Whole));
        for other in [claim(4, 3, 4), claim(4, 4, 3), claim(5, 3, 3)] {
            let reason = combine(&[part(0, 8), Claim { lo: 8, ..other }]).unwrap_err();
            assert!(reason.contains("certificate 2 claims"), "{reason}");
        }
        assert!(combine(&[]).is_err());
    }

    /// A random partial labelling: each diagonal W, B or unlabelled, with at most `free` left
    /// unlabelled (so that every extension can be tried).
    fn partial(random: &mut Random, side: u32, free: usize) -> Labels {
        let diagonals = 2 * side as usize - 1;
        let mut labels = [[NONE; 64]; 2];
        let mut left = 0;
        for family in &mut labels {
            for label in &mut family[..diagonals] {
                *label = match random.below(3) {
                    0 if left < free => {
                        left += 1;
                        NONE
                    }
                    0 | 1 => WHITE,
                    _ => BLACK,
                };
            }
        }
        labels
    }

    /// The checker's live cells of `(S, T)` under `labels`, for armies `w` and `b`.
    fn tree_at<'a>(claim: &'a Claim, s: u32, t: u32, labels: &Labels) -> Tree<'a> {
        let mut tree = Tree::new(claim);
        tree.start(s, t);
        tree.fill();
        for (family, labels) in labels.iter().enumerate() {
            for (index, &label) in labels[..tree.diagonals].iter().enumerate() {
                if label != NONE {
                    tree.label(family, index, label == BLACK);
                }
            }
        }
        tree
    }

    /// The white and black cells of every full labelling that extends `labels`.
    fn extensions(side: u32, s: u32, t: u32, labels: &Labels) -> Vec<(u64, u64)> {
        let free: Vec<(usize, usize)> = (0..2)
            .flat_map(|f| (0..2 * side as usize - 1).map(move |i| (f, i)))
            .filter(|&(f, i)| labels[f][i] == NONE)
            .collect();
        (0..1u32 << free.len())
            .map(|choice| {
                let mut full = *labels;
                for (k, &(f, i)) in free.iter().enumerate() {
                    full[f][i] = if choice >> k & 1 == 1 { BLACK } else { WHITE };
                }
                let [white, black] = common::live_cells(side, s, t, &full);
                (white.len() as u64, black.len() as u64)
            })
            .collect()
    }

    /// Lemma 5 itself, by brute force: on boards up to 5 × 5, for random pairs and partial
    /// labellings and every pair of armies, whenever the checker's paired-cells rule holds,
    /// no extension has at least `w` white and `b` black cells; and the rule holds exactly
    /// when the plain judge's (a maximum flow computed on a matrix) does.
    #[test]
    fn paired_cells_hold_only_where_no_extension_has_enough_cells() {
        let weights = [(1, 1), (1, 2), (3, 1), (2, 3), (1, 1000)];
        let mut random = Random::new(0x001e_77a5);
        let (mut held, mut sharp, mut flowed, mut maximum) = (0, 0, 0, 0);
        for side in 2..=5u32 {
            let full = (1u32 << side) - 1;
            for _ in 0..[0, 0, 40, 80, 120, 120][side as usize] {
                let (s, t) = (
                    random.below(1 << side) as u32,
                    random.below(1 << side) as u32,
                );
                let labels = partial(&mut random, side, 11);
                let counts = extensions(side, s, t, &labels);
                let white_cells = u64::from((s.count_ones()) * t.count_ones());
                let black_cells = u64::from((!s & full).count_ones() * (!t & full).count_ones());
                for white in 1..=white_cells.max(1) {
                    for black in 1..=black_cells.max(1) {
                        let claim = Claim {
                            rules: Rules {
                                weights: vec![(1, 1)],
                                paired: weights.to_vec(),
                            },
                            ..claim(side, white, black)
                        };
                        let tree = tree_at(&claim, s, t, &labels);
                        let fits = counts.iter().any(|&(w, b)| w >= white && b >= black);
                        let mut spec = Spec::new(side, white, black);
                        spec.paired = weights.to_vec();
                        for (k, &(p, q)) in weights.iter().enumerate() {
                            let holds = tree.paired_cells(p, q).is_ok();
                            let context = format!(
                                "d = {side}, (S, T) = ({s}, {t}), armies {white} {black}, \
                                 weight {p}:{q}, labels {:?} {:?}",
                                &labels[0][..2 * side as usize - 1],
                                &labels[1][..2 * side as usize - 1]
                            );
                            assert!(!(holds && fits), "{context}: the rule cuts a solution");
                            let judged = common::holds(&spec, s, t, &labels, 0xD0 | k as u8);
                            assert_eq!(holds, judged, "{context}: the plain judge differs");
                            if !holds {
                                continue;
                            }
                            held += 1;
                            let lemma = Lemma5::new(&spec, s, t, &labels, p, q);
                            let cells = tree.live_white >= white && tree.live_black >= black;
                            let sum = tree.family_sum(0, p, q);
                            let bound = p * white + q * black;
                            if cells && sum >= bound {
                                // Only the flow makes the cut: Lemma 4 does not.
                                sharp += 1;
                                flowed +=
                                    usize::from(lemma.minima + lemma.greedy_flow() > lemma.room);
                                maximum +=
                                    usize::from(lemma.minima + lemma.greedy_flow() <= lemma.room);
                            }
                        }
                    }
                }
            }
        }
        assert!(
            held > 1000 && sharp > 50 && flowed > 0 && maximum > 0,
            "{held} held, {sharp} beyond Lemma 4: {flowed} by the greedy flow, {maximum} only \
             by a maximum flow"
        );
    }

    /// The checker's flows against the plain ones on random nodes of boards of every size up
    /// to 32: its greedy flow is the specification's (the same value), and its maximum flow
    /// is a maximum flow (the same value as shortest augmenting paths on a matrix).
    #[test]
    fn flows_are_those_of_the_specification() {
        let mut random = Random::new(0xf10);
        let (mut better, mut tried) = (0, 0);
        for side in (1..=12).chain([16, 23, 32]) {
            let trials = if side > 12 { 8 } else { 60 };
            for _ in 0..trials {
                let full = ((1u64 << side) - 1) as u32;
                let (s, t) = (
                    random.below(1 << side.min(31)) as u32 & full,
                    random.below(1 << side.min(31)) as u32 & full,
                );
                let labels = partial(&mut random, side, 2 * side as usize);
                let (p, q) =
                    [(1, 1), (1, 2), (3, 1), (7, 5), (1000, 999), (1, 1000)][random.below(6)];
                let claim = claim(side, 1, 1);
                let tree = tree_at(&claim, s, t, &labels);
                let (mut out, mut into) = ([0; SLOTS], [0; SLOTS]);
                let (minima, left) = tree.excesses(p, q, &mut out, &mut into);
                let lemma = Lemma5::new(&Spec::new(side, 1, 1), s, t, &labels, p, q);
                let context = format!("d = {side}, (S, T) = ({s}, {t}), weight {p}:{q}");
                assert_eq!(i128::from(minima), lemma.minima, "{context}");
                let (mut left, mut right, sets) = (out, into, left);
                let unit = p.min(q) as u32;
                let greedy = tree.greedy_flow(unit, &mut left, &mut right, sets, u64::MAX);
                assert_eq!(i128::from(greedy), lemma.greedy_flow(), "{context}");
                let max = tree.max_flow(p as u32, q as u32, &out, &into);
                assert_eq!(i128::from(max), lemma.max_flow(), "{context}");
                tried += 1;
                better += usize::from(max > greedy);
            }
        }
        assert!(
            better > 10,
            "the maximum flow beat the greedy one {better} of {tried} times"
        );
    }
}
