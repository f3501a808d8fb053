//! pq-check: verifies pq-sat search certificates (see the library's documentation).
//!
//! Exit codes: 0 every certificate verified (and, given several, they make the whole claim
//! together), 1 a certificate refused (or several that do not make the whole claim), 2 a
//! usage or read error.

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Write};
use std::process::ExitCode;

use pq_check::{check, combine, Claim, Failure, Verified};

const USAGE: &str = "\
pq-check: verifies pq-sat search certificates (the format: docs/search-certificate.md)

usage: pq-check [FILE ...]
  FILE        a certificate; `-` (or no FILE at all) reads standard input
  -h, --help  print this text

Given several certificates, pq-check checks each, then whether they agree on the board and
the armies and together cover every row set S in [0, 2^D). A cube's certificate (one whose
header has a `cube` line) proves its cube's part of the claim only, and never counts toward
that cover: that the cubes cover every labelling is proved elsewhere.

exit codes: 0 verified, 1 not verified, 2 usage or read error
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
            writeln!(out, "c {}", verified.claim)?;
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

fn run(files: &[OsString], out: &mut impl Write) -> io::Result<u8> {
    let mut verified = Vec::new();
    let (mut refused, mut unreadable) = (0, 0);
    for name in files {
        match check_one(name, out)? {
            Outcome::Verified(one) => verified.push(one),
            Outcome::Refused => refused += 1,
            Outcome::Unreadable => unreadable += 1,
        }
    }
    if refused + unreadable > 0 {
        if files.len() > 1 {
            writeln!(
                out,
                "c {} of {} certificates not verified",
                refused + unreadable,
                files.len()
            )?;
        }
        writeln!(out, "s NOT VERIFIED")?;
        return Ok(if unreadable > 0 { 2 } else { 1 });
    }
    if files.len() > 1 {
        let claims: Vec<Claim> = verified.iter().map(|one| one.claim.clone()).collect();
        // Every file verified (or the run ended above), so the claims are the files' in order.
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
        if let Err(reason) = combine(&claims) {
            writeln!(
                out,
                "c the {} certificates verified but do not make the whole claim: {reason}",
                files.len()
            )?;
            writeln!(out, "s NOT VERIFIED")?;
            return Ok(1);
        }
        let claim = &claims[0];
        let pairs: u64 = verified.iter().map(|one| one.pairs).sum();
        let nodes: u64 = verified.iter().map(|one| one.nodes).sum();
        writeln!(
            out,
            "c the {} certificates agree on board {d}x{d} and armies {} white and {} black and \
             together cover [0, 2^{d})",
            files.len(),
            claim.white,
            claim.black,
            d = claim.side
        )?;
        writeln!(out, "c pairs {pairs} nodes {nodes} in all")?;
        writeln!(out, "c verified: {}", claim.whole_statement())?;
    }
    writeln!(out, "s VERIFIED")?;
    Ok(0)
}

fn main() -> ExitCode {
    let mut files = Vec::new();
    let mut options = true;
    for argument in std::env::args_os().skip(1) {
        let text = argument.to_string_lossy();
        if options && (text == "-h" || text == "--help") {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        } else if options && text == "--" {
            options = false;
        } else if options && text.starts_with('-') && text != "-" {
            eprintln!("pq-check: unknown option {text}\n\n{USAGE}");
            return ExitCode::from(2);
        } else {
            files.push(argument);
        }
    }
    if files.is_empty() {
        files.push(OsString::from("-"));
    }
    let mut out = io::stdout().lock();
    match run(&files, &mut out).and_then(|code| out.flush().map(|()| code)) {
        Ok(code) => ExitCode::from(code),
        Err(error) => {
            eprintln!("pq-check: cannot write the report: {error}");
            ExitCode::from(2)
        }
    }
}
