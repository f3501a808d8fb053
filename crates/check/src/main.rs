//! pq-check: verifies pq-sat search certificates (see the library's documentation).
//!
//! The status line says what the certificates prove together, with its exit code: 0 the whole
//! claim (`s VERIFIED`), 3 a part of it (`s PART VERIFIED`), 4 cubes' parts only (`s CUBE
//! VERIFIED`), 1 nothing (`s NOT VERIFIED`: a certificate refused, files that disagree, or a
//! claim other than `--expect`'s), 2 a read or usage error.

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Write};
use std::process::ExitCode;

use pq_check::{check, combine, Claim, Failure, Together, Verified};

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
";

/// What happened to one file.
enum Outcome {
    Verified(Verified),
    Refused,
    Unreadable,
}

fn check_one(name: &OsString, out: &mut impl Write) -> io::Result<Outcome> {
    let shown = name.to_string_lossy();
    writeln!(out, "c certificate {shown}")?;
    let result = if name == "-" {
        check(io::stdin().lock())
    } else {
        match File::open(name) {
            Ok(file) => check(file),
            Err(error) => Err(Failure::Io(error)),
        }
    };
    Ok(match result {
        Ok(verified) => {
            writeln!(out, "c claim: {}", verified.claim)?;
            writeln!(out, "c pairs {} nodes {}", verified.pairs, verified.nodes)?;
            writeln!(out, "c verified: {}", partial_statement(&verified.claim))?;
            Outcome::Verified(verified)
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

/// Whether a claim's words begin with the expected text, as whole words: `armies 59 5` must
/// not pass a claim of `armies 59 59`.
fn meets(claim: &Claim, expected: &str) -> bool {
    let words = claim.to_string();
    words
        .strip_prefix(expected)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '))
}

/// The text of `--expect`, if it is `board square D armies W B` or `board torus D armies W B`
/// with decimal numbers as a header writes them.
fn expectation(text: &str) -> Option<String> {
    let decimal = |word: &str| {
        !word.is_empty()
            && word.bytes().all(|byte| byte.is_ascii_digit())
            && (word == "0" || !word.starts_with('0'))
    };
    match text.split(' ').collect::<Vec<_>>()[..] {
        ["board", "square" | "torus", d, "armies", w, b]
            if [d, w, b].iter().all(|n| decimal(n)) =>
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
            if !meets(&one.claim, expected) {
                writeln!(
                    out,
                    "c expected {expected}, {} claims {}",
                    name.to_string_lossy(),
                    one.claim
                )?;
                unexpected = true;
            }
        }
    }
    let claims: Vec<Claim> = verified.iter().map(|(_, one)| one.claim.clone()).collect();
    let together = combine(&claims);
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
            if claim.cube.is_some() {
                writeln!(
                    out,
                    "c {} is a cube's certificate: it does not count toward the cover of \
                     [0, 2^{}) (that cubes cover every labelling is not for pq-check to see)",
                    name.to_string_lossy(),
                    claim.side
                )?;
            }
        }
        let pairs: u64 = verified.iter().map(|(_, one)| one.pairs).sum();
        let nodes: u64 = verified.iter().map(|(_, one)| one.nodes).sum();
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
                    "c together they cover [0, 2^{}) (the row sets of the certificates \
                     without a cube)",
                    claims[0].side
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
