//! pq-check: verifies pq-sat search certificates (see the library's documentation).
//!
//! The status line says what the certificates prove together, with its exit code: 0 the whole
//! claim (`s VERIFIED`), 3 a part of it (`s PART VERIFIED`), 4 cubes' parts only (`s CUBE
//! VERIFIED`), 1 nothing (`s NOT VERIFIED`: a certificate refused, files that disagree, or a
//! claim other than `--expect`'s), 2 a read or usage error.

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Read, Write};
use std::process::ExitCode;

use pq_check::{armies, check, combine, Claim, Failure, Together, Verified};

const USAGE: &str = "\
pq-check: verifies pq-sat search certificates (the format: docs/search-certificate.md)

usage: pq-check [--expect \"board square D armies W B\"] [FILE ...]
  FILE        a certificate; `-` (or no FILE at all) reads standard input
  --expect T  demand that every verified certificate claims exactly the board and the
              armies T (also --expect=T); any other claim gives s NOT VERIFIED, exit 1
  -h, --help  print this text

For each FILE, pq-check prints `c certificate FILE`, then why it was refused, or its claim
`c claim: board square D armies W B rows LO HI[ cube ...] rules weights ...[ paired ...]`
and `c pairs P nodes N`. Then what the files prove together, as the last `c claim:` line,
and the status line with the exit code. The board is `square` or `torus` (`board torus D`:
the D x D torus, its diagonals wrapped, in every claim line and in --expect alike):

  s VERIFIED       0  the whole claim, `c claim: board square D armies W B`: no placement of
                      W white and B black queens on the D x D board; the certificates
                      without a cube line cover every row set S in [0, 2^D)
  s PART VERIFIED  3  a part only, `c claim: board square D armies W B rows L1 H1 ...` (the
                      row sets covered), then `c missing: rows A1 B1 ...`
  s CUBE VERIFIED  4  every certificate is a cube's: their cubes' parts only,
                      `c claim: board square D armies W B cubes K`
  s NOT VERIFIED   1  a certificate refused, certificates of different boards or armies,
                      or a claim other than --expect's (`c claim: none`)
  s NOT VERIFIED   2  a file could not be read (and nothing else went wrong); a usage
                      error prints this text and no status line

A script that needs the whole claim checks the exit code 0, the status line `s VERIFIED`
and the last `c claim:` line (or passes --expect). A cube's certificate never counts toward
the cover of the row sets: that the cubes cover every labelling is proved elsewhere.

A k-army certificate (first line `pq-armies-certificate 1`: 3 or 4 armies of M queens, no
two armies attacking) is reported the same way with its own words: `c claim: board square
D armies M M M rows LO HI rules weights ...`, `c rows R pairs P nodes N`, its ranges being
codes of row colourings in [0, k^D); the whole claim is `c claim: board square D armies M M
M` and --expect takes `board square D armies M M M`. It never agrees with a two-army one.
";

/// What happened to one file.
enum Outcome {
    Verified(Proof),
    Refused,
    Unreadable,
}

/// A verified certificate of either format.
enum Proof {
    /// Two armies (`pq-search-certificate 1`).
    Two(Verified),
    /// k armies (`pq-armies-certificate 1`, section 8 of the page).
    Armies(armies::Verified),
}

impl Proof {
    /// The words of its `c claim:` line.
    fn words(&self) -> String {
        match self {
            Proof::Two(one) => one.claim.to_string(),
            Proof::Armies(one) => one.claim.to_string(),
        }
    }

    /// `board square D armies …`: what claims must share to be combined.
    fn board(&self) -> String {
        match self {
            Proof::Two(one) => one.claim.board(),
            Proof::Armies(one) => one.claim.board(),
        }
    }

    /// Whether it is a cube's certificate (k-army certificates have no cubes).
    fn is_cube(&self) -> bool {
        matches!(self, Proof::Two(one) if one.claim.cube.is_some())
    }

    /// The range that the whole claim covers, in words.
    fn all(&self) -> String {
        match self {
            Proof::Two(one) => format!("[0, 2^{})", one.claim.side),
            Proof::Armies(one) => format!("[0, {}^{})", one.claim.armies, one.claim.side),
        }
    }

    fn whole_statement(&self) -> String {
        match self {
            Proof::Two(one) => one.claim.whole_statement(),
            Proof::Armies(one) => one.claim.whole_statement(),
        }
    }

    fn pairs_and_nodes(&self) -> (u64, u64) {
        match self {
            Proof::Two(one) => (one.pairs, one.nodes),
            Proof::Armies(one) => (one.pairs, one.nodes),
        }
    }
}

/// What several verified certificates prove together: all of one format, combined by that
/// format's rules; a two-army and a k-army certificate never agree on the armies.
fn together(proofs: &[&Proof]) -> Result<Together, String> {
    let mut two = Vec::new();
    let mut more = Vec::new();
    for proof in proofs {
        match proof {
            Proof::Two(one) => two.push(one.claim.clone()),
            Proof::Armies(one) => more.push(one.claim.clone()),
        }
    }
    if more.is_empty() {
        return combine(&two);
    }
    if two.is_empty() {
        return armies::combine(&more);
    }
    let other = proofs
        .iter()
        .position(|proof| matches!(proof, Proof::Two(_)) != matches!(proofs[0], Proof::Two(_)))
        .unwrap_or(0);
    Err(format!(
        "certificate {} claims {}, certificate 1 {}",
        other + 1,
        proofs[other].board(),
        proofs[0].board()
    ))
}

/// A stream whose first bytes were read, given back whole: those bytes, then the rest.
type Resumed<R> = io::Chain<io::Cursor<Vec<u8>>, R>;

/// Whether a stream is a k-army certificate, from its first bytes, and a reader of the whole
/// stream, those bytes included. At most the length of the k-army first line is read (a byte
/// at a time, so that nothing beyond it is taken from the stream), whatever the stream's size.
fn sniff<R: Read>(mut reader: R) -> io::Result<(bool, Resumed<R>)> {
    let mut head = Vec::new();
    let mut byte = [0];
    while head.len() < armies::FIRST_LINE.len() && head.last() != Some(&b'\n') {
        match reader.read(&mut byte) {
            Ok(0) => break,
            Ok(_) => head.push(byte[0]),
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    }
    // Any first line that begins so goes to the k-army checker, which then names what is
    // wrong with it (a version other than 1, say).
    let more = head.starts_with(b"pq-armies-certificate");
    Ok((more, io::Cursor::new(head).chain(reader)))
}

/// Checks one stream in the format its first line names.
fn check_either(reader: impl Read) -> Result<Proof, Failure> {
    match sniff(reader).map_err(Failure::Io)? {
        (true, stream) => armies::check(stream).map(Proof::Armies),
        (false, stream) => check(stream).map(Proof::Two),
    }
}

fn check_one(name: &OsString, out: &mut impl Write) -> io::Result<Outcome> {
    let shown = name.to_string_lossy();
    writeln!(out, "c certificate {shown}")?;
    let result = if name == "-" {
        check_either(io::stdin().lock())
    } else {
        match File::open(name) {
            Ok(file) => check_either(file),
            Err(error) => Err(Failure::Io(error)),
        }
    };
    Ok(match result {
        Ok(Proof::Two(verified)) => {
            writeln!(out, "c claim: {}", verified.claim)?;
            writeln!(out, "c pairs {} nodes {}", verified.pairs, verified.nodes)?;
            writeln!(out, "c verified: {}", partial_statement(&verified.claim))?;
            Outcome::Verified(Proof::Two(verified))
        }
        Ok(Proof::Armies(verified)) => {
            let claim = &verified.claim;
            writeln!(out, "c claim: {claim}")?;
            writeln!(
                out,
                "c rows {} pairs {} nodes {}",
                verified.rows, verified.pairs, verified.nodes
            )?;
            let statement = if claim.is_whole() {
                claim.whole_statement()
            } else {
                claim.part_statement()
            };
            writeln!(out, "c verified: {statement}")?;
            Outcome::Verified(Proof::Armies(verified))
        }
        Err(Failure::Refused { offset, reason }) => {
            writeln!(out, "c refused at byte offset {offset}: {reason}")?;
            Outcome::Refused
        }
        Err(Failure::Io(error)) => {
            writeln!(out, "c cannot read {shown}: {error}")?;
            eprintln!("pq-check: cannot read {shown}: {error}");
            Outcome::Unreadable
        }
    })
}

/// The claim of one certificate in the words of the theorems of section 2.
fn partial_statement(claim: &Claim) -> String {
    if claim.is_whole() {
        claim.whole_statement()
    } else if claim.cube.is_some() {
        format!(
            "no labelling that agrees with the cube and whose least pair has its white rows S \
             in [{}, {}) has at least {} white and {} black cells (a cube's part of the claim)",
            claim.lo, claim.hi, claim.white, claim.black
        )
    } else {
        format!(
            "no labelling whose least pair has its white rows S in [{}, {}) has at least {} \
             white and {} black cells (a part of the claim)",
            claim.lo, claim.hi, claim.white, claim.black
        )
    }
}

/// `rows L1 H1 L2 H2 …` (`rows` alone for no interval).
fn rows(intervals: &[(u64, u64)]) -> String {
    intervals
        .iter()
        .fold(String::from("rows"), |line, (lo, hi)| {
            format!("{line} {lo} {hi}")
        })
}

/// Whether a claim is of the board and armies expected: its words begin with exactly that
/// text, and its armies end there (`armies 59 5` must not pass a claim of `armies 59 59`,
/// nor `armies 3 3` one of three armies `armies 3 3 3`).
fn meets(proof: &Proof, expected: &str) -> bool {
    proof.board() == expected
}

/// The text of `--expect`, if it is `board square D armies W B` or `board torus D armies W B`
/// (or, for k armies, `armies M M M` or `armies M M M M`) with decimal numbers as a header
/// writes them.
fn expectation(text: &str) -> Option<String> {
    let decimal = |word: &str| {
        !word.is_empty()
            && word.bytes().all(|byte| byte.is_ascii_digit())
            && (word == "0" || !word.starts_with('0'))
    };
    match text.split(' ').collect::<Vec<_>>()[..] {
        ["board", "square" | "torus", d, "armies", ref sizes @ ..]
            if (2..=4).contains(&sizes.len()) && [d].iter().chain(sizes).all(|n| decimal(n)) =>
        {
            Some(text.to_string())
        }
        _ => None,
    }
}

fn not_verified(out: &mut impl Write, code: u8) -> io::Result<u8> {
    writeln!(out, "c claim: none")?;
    writeln!(out, "s NOT VERIFIED")?;
    Ok(code)
}

fn run(files: &[OsString], expected: Option<&str>, out: &mut impl Write) -> io::Result<u8> {
    let mut verified = Vec::new();
    let (mut refused, mut unreadable) = (0, 0);
    for name in files {
        match check_one(name, out)? {
            Outcome::Verified(one) => verified.push((name, one)),
            Outcome::Refused => refused += 1,
            Outcome::Unreadable => unreadable += 1,
        }
    }
    if refused + unreadable > 0 && files.len() > 1 {
        writeln!(
            out,
            "c {} of {} certificates not verified",
            refused + unreadable,
            files.len()
        )?;
    }
    let mut unexpected = false;
    if let Some(expected) = expected {
        for (name, one) in &verified {
            if !meets(one, expected) {
                writeln!(
                    out,
                    "c expected {expected}, {} claims {}",
                    name.to_string_lossy(),
                    one.words()
                )?;
                unexpected = true;
            }
        }
    }
    let claims: Vec<&Proof> = verified.iter().map(|(_, one)| one).collect();
    let together = together(&claims);
    if let (Err(reason), false) = (&together, claims.is_empty()) {
        writeln!(
            out,
            "c the certificates disagree on the board or the armies: {reason}"
        )?;
    }
    // A definite finding (a refusal, a disagreement, a claim not the one demanded) outweighs
    // a file that could not be read.
    if refused > 0 || unexpected || (together.is_err() && !claims.is_empty()) {
        return not_verified(out, 1);
    }
    let together = match together {
        Ok(together) if unreadable == 0 => together,
        _ => return not_verified(out, 2),
    };
    let board = claims[0].board();
    if files.len() > 1 {
        for (name, claim) in files.iter().zip(&claims) {
            if claim.is_cube() {
                writeln!(
                    out,
                    "c {} is a cube's certificate: it does not count toward the cover of \
                     {} (that cubes cover every labelling is not for pq-check to see)",
                    name.to_string_lossy(),
                    claim.all()
                )?;
            }
        }
        let pairs: u64 = verified
            .iter()
            .map(|(_, one)| one.pairs_and_nodes().0)
            .sum();
        let nodes: u64 = verified
            .iter()
            .map(|(_, one)| one.pairs_and_nodes().1)
            .sum();
        writeln!(
            out,
            "c the {} certificates agree on the {board}",
            files.len()
        )?;
        writeln!(out, "c pairs {pairs} nodes {nodes} in all")?;
    }
    Ok(match together {
        Together::Whole => {
            if files.len() > 1 {
                writeln!(
                    out,
                    "c together they cover {} (the ranges of the certificates \
                     without a cube)",
                    claims[0].all()
                )?;
                writeln!(out, "c verified: {}", claims[0].whole_statement())?;
            }
            writeln!(out, "c claim: {board}")?;
            writeln!(out, "s VERIFIED")?;
            0
        }
        Together::Part { covered, missing } => {
            writeln!(out, "c claim: {board} {}", rows(&covered))?;
            writeln!(out, "c missing: {}", rows(&missing))?;
            writeln!(out, "s PART VERIFIED")?;
            3
        }
        Together::Cubes(count) => {
            writeln!(out, "c claim: {board} cubes {count}")?;
            writeln!(out, "s CUBE VERIFIED")?;
            4
        }
    })
}

fn usage_error(message: &str) -> ExitCode {
    eprintln!("pq-check: {message}\n\n{USAGE}");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let mut files = Vec::new();
    let mut expected: Option<String> = None;
    let mut options = true;
    let mut arguments = std::env::args_os().skip(1);
    while let Some(argument) = arguments.next() {
        let text = argument.to_string_lossy().into_owned();
        if options && (text == "-h" || text == "--help") {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        } else if options && (text == "--expect" || text.starts_with("--expect=")) {
            let value = match text.strip_prefix("--expect=") {
                Some(value) => value.to_string(),
                None => match arguments.next() {
                    Some(value) => value.to_string_lossy().into_owned(),
                    None => return usage_error("--expect needs \"board square D armies W B\""),
                },
            };
            if expected.is_some() {
                return usage_error("--expect given twice");
            }
            let Some(value) = expectation(&value) else {
                return usage_error(&format!(
                    "--expect {value:?} is not \"board square D armies W B\""
                ));
            };
            expected = Some(value);
        } else if options && text == "--" {
            options = false;
        } else if options && text.starts_with('-') && text != "-" {
            return usage_error(&format!("unknown option {text}"));
        } else {
            files.push(argument);
        }
    }
    if files.is_empty() {
        files.push(OsString::from("-"));
    }
    let mut out = io::stdout().lock();
    match run(&files, expected.as_deref(), &mut out).and_then(|code| out.flush().map(|()| code)) {
        Ok(code) => ExitCode::from(code),
        Err(error) => {
            eprintln!("pq-check: cannot write the report: {error}");
            ExitCode::from(2)
        }
    }
}
