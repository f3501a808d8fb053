//! Clausal proofs of unsatisfiability and their checking by independent programs.
//!
//! Solvers write the proofs (text DRAT from kissat, the CaDiCaL binary, varisat and the
//! in-process CaDiCaL; text LRAT from the in-process CaDiCaL); checkers that pq-sat does not
//! contain verify them: `rate` (crates.io) for DRAT, the ACL2 LRAT checker (Debian package
//! `acl2-books`, a checker verified in ACL2) for LRAT. A proof certifies the formula that was
//! solved: when it contains symmetry-breaking clauses, it certifies that formula, not the plain
//! problem (see [`certified_formula`]).
//!
//! DRAT: Wetzler, Heule & Hunt, "DRAT-trim: efficient checking and trimming using expressive
//! clausal proofs", SAT 2014. LRAT: Cruz-Filipe, Heule, Hunt, Kaufmann & Schneider-Kamp,
//! "Efficient certified RAT verification", CADE 2017.

pub mod certificate;
pub mod checked;

use crate::error::EngineError;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use pq_encode::spec::Problem;
use pq_encode::{Options, Symmetry};

use pq_solve::control::interrupted;
use pq_solve::control::Limits;
use pq_solve::error::SolveError;
use pq_solve::external::process::{read_tail, supervise, End, Supervised, STDOUT_CAP};
use pq_solve::external::{find_program, ExternalSolver};
pub use pq_solve::prove::{arranged_for, beside, check_capable, prove, ProofFormat, Proved};
use pq_solve::spec::BackendSpec;
use pq_solve::survey::{debian_version, program_version};

/// What a certificate or a proof report says the proof certifies.
pub fn certified_formula(problem: &Problem, options: &Options) -> String {
    // Other problems have no colouring model: they are encoded with lines (see the header).
    let options = options.for_problem(problem);
    let (model, queens) = (options.model, pq_encode::general::specialised(problem));
    let bounds = match options.bounds {
        pq_encode::Bounds::None => String::new(),
        b => format!(
            ". The formula also carries the redundant family-sum clauses of --bounds {b}; that they change no answer rests on the counting argument that every model of the formula without them extends to them (docs/certificates.md), which the checker does not check"
        ),
    };
    let base = match (options.symmetry, queens) {
        (Symmetry::None, _) => format!(
            "the plain encoding ({} model, {} cardinality, no symmetry breaking): the proof certifies the problem as encoded",
            model, options.card
        ),
        (Symmetry::LexLeader, true) => format!(
            "the encoding ({} model, {} cardinality) plus lex-leader symmetry-breaking clauses for the group of 16 (the 8 symmetries of the square × the colour swap): the proof certifies that formula; it implies the plain problem is UNSAT only through the theorem that every orbit has a lex-least member satisfying the lex-leader clauses (Crawford, Ginsberg, Luks & Roy, KR 1996), which the checker does not check. For a proof of the plain encoding use --engine sat --symmetry none",
            model, options.card
        ),
        (Symmetry::LexLeader, false) => format!(
            "the encoding ({} model, {} cardinality) plus lex-leader clauses for the problem's symmetries (see the CNF header): the proof certifies that formula; the plain problem follows by the lex-leader theorem (Crawford, Ginsberg, Luks & Roy, KR 1996), which the checker does not check. For a proof of the plain encoding use --engine sat --symmetry none",
            model, options.card
        ),
    };
    base + &bounds
}

/// A checker's verdict on a (CNF, proof) pair.
#[derive(Clone, Debug)]
pub struct CheckReport {
    /// The checker accepted the proof and pq-sat has no `note` against it.
    pub verified: bool,
    /// `rate` or `acl2-lrat`.
    pub checker: String,
    /// The checker's version, if it can be found out.
    pub checker_version: Option<String>,
    /// The checker's own verdict line (e.g. `s VERIFIED`), or why there is none.
    pub verdict: String,
    /// Wall-clock seconds of the check.
    pub seconds: f64,
    /// The checker's CPU seconds (user and system).
    pub cpu_seconds: f64,
    /// pq-sat's reason for refusing a proof the checker accepted, if any.
    pub note: Option<String>,
}

/// Checks `proof` (in `format`) against `cnf` with the independent checker for that format.
/// A search certificate states its claim itself: `cnf` is then the cube's formula it must
/// claim (a cube directory's), or `proof` itself for a certificate that stands alone.
/// `timeout` bounds the checker's run; running out is an error.
pub fn check_proof(
    cnf: &Path,
    proof: &Path,
    format: ProofFormat,
    timeout: Option<Duration>,
) -> Result<CheckReport, SolveError> {
    check_proof_within(cnf, proof, format, &Limits::timeout(timeout))
}

/// [`check_proof`] under `limits` (a deadline, a stop request, Ctrl-C): the checker is
/// killed when they say stop, which is an error.
pub(crate) fn check_proof_within(
    cnf: &Path,
    proof: &Path,
    format: ProofFormat,
    limits: &Limits,
) -> Result<CheckReport, SolveError> {
    match format {
        ProofFormat::Drat | ProofFormat::Lrat => check_inputs(cnf, proof)?,
        // A search certificate states its claim itself; a cube's (`cnf` its formula, not
        // the certificate again) must also claim that cube, which is pq-sat's to see:
        // pq-check verifies only what the header says.
        // `cnf` is the certificate itself (it states its claim), or the formula it is
        // of: a whole step's, whose claim is demanded, or a cube's.
        ProofFormat::Search if cnf == proof => return check_search(proof, false, None, limits),
        ProofFormat::Search => {
            let file = File::open(cnf).map_err(SolveError::io(cnf))?;
            let formula = pq_encode::dimacs::parse(BufReader::new(file))
                .map_err(|e| SolveError::Invalid(format!("{}: {e}", cnf.display())))?;
            let lines = pq_solve::lines::Lines::new(1);
            if let Ok(Some(claim)) = lines.whole_claim(&formula) {
                return check_search(proof, false, Some(&claim), limits);
            }
            let mut report = check_search(proof, true, None, limits)?;
            if report.verified {
                report.note = claimed_otherwise(&formula, proof)?;
                report.verified = report.note.is_none();
            }
            return Ok(report);
        }
    }
    if format == ProofFormat::Lrat {
        check_lrat(cnf, proof, limits)
    } else {
        check_drat(cnf, proof, limits)
    }
}

/// `pq-check`, the checker of search certificates: the one built beside this pq-sat (the
/// workspace builds both; a test's executable sits one folder below, in `deps`), else the
/// one on `PATH`.
pub(crate) fn pq_check_program() -> Result<std::path::PathBuf, SolveError> {
    let exe = std::env::current_exe().ok();
    let dir = exe.as_deref().and_then(Path::parent);
    let beside = [
        dir,
        dir.filter(|d| d.ends_with("deps")).and_then(Path::parent),
    ]
    .into_iter()
    .flatten()
    .map(|d| d.join("pq-check"))
    .find(|p| p.is_file());
    match beside {
        Some(p) => Ok(p),
        None => find_program(
            "pq-check",
            "pq-check",
            "build it with `cargo build --release` (it is crates/check, built beside pq-sat)",
        ),
    }
}

/// Why the search certificate `proof` is not one of `formula` (pq-sat's colouring formula
/// with a cube as unit clauses), or `None` when its header is the one the line
/// engine writes for it, weights aside (they are the engine's choice, pq-check's to use).
fn claimed_otherwise(
    formula: &pq_encode::Formula,
    proof: &Path,
) -> Result<Option<String>, SolveError> {
    let expected = match pq_solve::lines::Lines::new(1).certificate_header(formula) {
        Ok(header) => header,
        Err(e) => return Ok(Some(format!("its formula has no search certificate: {e}"))),
    };
    let packed = pq_io::compress::open(proof).map_err(SolveError::io(proof))?;
    let mut stated = Vec::new();
    for line in BufReader::new(packed.take(1 << 16)).lines() {
        let line = line.map_err(SolveError::io(proof))?;
        let end = line == "begin";
        stated.push(line);
        if end {
            break;
        }
    }
    let claims = |lines: Vec<&str>| -> Vec<String> {
        (lines.into_iter())
            .filter(|l| !l.starts_with("weights ") && !l.starts_with("paired "))
            .map(str::to_string)
            .collect()
    };
    let (want, got) = (
        claims(expected.lines().collect()),
        claims(stated.iter().map(String::as_str).collect()),
    );
    Ok((want != got).then(|| {
        format!(
            "its header claims `{}`, not the cube's `{}`",
            got.join(" / "),
            want.join(" / ")
        )
    }))
}

/// Checks the search certificate `proof` with `pq-check`, which exits 0 and prints
/// `s VERIFIED` only when every pair, branch and leaf checks and the certificate makes the
/// whole claim; a cube's certificate (`cube`) verifies as `s CUBE VERIFIED`, exit 4, and
/// nothing else counts (a part of the range, exit 3, is never a step's answer). `expect`
/// (`board square D armies W B`) is demanded of the claim: a certificate of another step
/// verifies as nothing.
pub(crate) fn check_search(
    proof: &Path,
    cube: bool,
    expect: Option<&str>,
    limits: &Limits,
) -> Result<CheckReport, SolveError> {
    let m = std::fs::metadata(proof).map_err(SolveError::io(proof))?;
    if !m.is_file() {
        return Err(SolveError::from(EngineError::ProofFile(format!(
            "{} is not a regular file; give the search certificate's file",
            proof.display()
        ))));
    }
    let program = pq_check_program()?;
    let mut cmd = Command::new(&program);
    if let Some(expect) = expect {
        cmd.arg("--expect").arg(expect);
    }
    cmd.arg(proof);
    let (code, run) = run_checker("pq-check", cmd, None, limits)?;
    let stdout = run.stdout.as_deref().unwrap_or_default();
    let (want_code, want_status) = if cube {
        (4, "s CUBE VERIFIED")
    } else {
        (0, "s VERIFIED")
    };
    let verified = code == Some(want_code) && stdout.lines().any(|l| l.trim() == want_status);
    let verdict = if verified {
        want_status.to_string()
    } else {
        // Why it was refused, else the status it got instead (a part's, a cube's).
        let lines = || {
            [stdout, run.stderr.as_str()]
                .into_iter()
                .flat_map(str::lines)
        };
        (lines().map(str::trim))
            .find(|l| {
                l.starts_with("c refused")
                    || l.starts_with("c expected")
                    || l.starts_with("pq-check: ")
            })
            .or_else(|| lines().map(str::trim).find(|l| l.starts_with("s ")))
            .unwrap_or("no verdict")
            .to_string()
    };
    Ok(CheckReport {
        verified,
        checker: "pq-check".into(),
        checker_version: None,
        verdict,
        seconds: run.seconds,
        cpu_seconds: run.cpu_seconds,
        note: None,
    })
}

/// What is wrong with the two files before a checker sees them, in words: a directory, a
/// FIFO or device (which a checker would wait on forever), a CNF that is not DIMACS, or
/// the two swapped. A checker's own complaint about them is terse, or missing.
fn check_inputs(cnf: &Path, proof: &Path) -> Result<(), SolveError> {
    const USAGE: &str = "usage: pq-sat check-proof CNF PROOF";
    for (what, path) in [("the DIMACS CNF", cnf), ("the proof", proof)] {
        let m = std::fs::metadata(path).map_err(SolveError::io(path))?;
        if m.is_dir() {
            return Err(SolveError::from(EngineError::ProofFile(format!(
                "{} is a directory; give {what} file ({USAGE})",
                path.display()
            ))));
        }
        if !m.is_file() {
            return Err(SolveError::from(EngineError::ProofFile(format!(
                "{} is not a regular file (a FIFO, a device or a socket); give {what} file ({USAGE})",
                path.display()
            ))));
        }
    }
    if !is_dimacs(cnf)? {
        return Err(SolveError::from(EngineError::ProofFile(
            if is_dimacs(proof)? {
                format!(
                    "the arguments are swapped: {} is a DIMACS CNF file and {} is not ({USAGE})",
                    proof.display(),
                    cnf.display()
                )
            } else {
                format!(
                    "{} is not a DIMACS CNF file (no 'p cnf' line after its comments) ({USAGE})",
                    cnf.display()
                )
            },
        )));
    }
    if is_dimacs(proof)? {
        return Err(SolveError::from(EngineError::ProofFile(format!(
            "{} is a DIMACS CNF file, not a proof ({USAGE})",
            proof.display()
        ))));
    }
    Ok(())
}

/// True if the first line of `path` that is not a comment (or blank) is a `p cnf` header.
fn is_dimacs(path: &Path) -> Result<bool, SolveError> {
    let reader = BufReader::new(File::open(path).map_err(SolveError::io(path))?);
    // A proof file is read only up to its first line; a CNF's comments can be long (pq-sat
    // writes a `c var` line per square), but never longer than this.
    for line in reader.take(1 << 26).split(b'\n') {
        let line = line.map_err(SolveError::io(path))?;
        let line = line.trim_ascii();
        if line.is_empty() || line.starts_with(b"c") {
            continue;
        }
        let mut words = line
            .split(u8::is_ascii_whitespace)
            .filter(|w| !w.is_empty());
        return Ok(words.next() == Some(b"p") && words.next() == Some(b"cnf"));
    }
    Ok(false)
}

fn check_drat(cnf: &Path, proof: &Path, limits: &Limits) -> Result<CheckReport, SolveError> {
    let hint = "run scripts/setup.sh (it runs `cargo install rate`)";
    let program = find_program("rate", "rate", hint)?;
    let mut cmd = Command::new(&program);
    cmd.arg(cnf).arg(proof);
    let (code, run) = run_checker("rate", cmd, None, limits)?;
    // rate: `s VERIFIED` and exit 0, `s NOT VERIFIED` and exit 1, exit 2 for unreadable input.
    let verdict_line = run
        .stdout
        .iter()
        .flat_map(|out| out.lines())
        .find(|l| l.starts_with("s "))
        .map(str::to_string);
    let verified = code == Some(0) && verdict_line.as_deref() == Some("s VERIFIED");
    let verdict = verdict_line.unwrap_or_else(|| {
        // rate prints why it gave up ("failed to parse proof: ...") on stdout, other
        // failures on stderr; its `c` lines are statistics.
        let stdout = run.stdout.as_deref().unwrap_or_default();
        let why = [run.stderr.as_str(), stdout]
            .into_iter()
            .flat_map(str::lines)
            .map(str::trim)
            .rfind(|l| !l.is_empty() && !l.starts_with("c "));
        let code = code.map_or("none (killed)".into(), |c| c.to_string());
        match why {
            Some(why) => format!("no verdict (exit code {code}): {why}"),
            None => format!("no verdict (exit code {code}) and no message"),
        }
    });
    // rate accepts a proof that never states the empty clause when unit propagation on the
    // lemmas finds the conflict anyway; a solver's complete proof always ends with it, so
    // its absence means a truncated file, which pq-sat does not accept.
    let note = (verified && !drat_has_empty_clause(proof)?).then(|| {
        "the proof never derives the empty clause (a truncated file?); not accepted".to_string()
    });
    Ok(CheckReport {
        verified: verified && note.is_none(),
        checker: "rate".into(),
        checker_version: program_version(&program, "--version"),
        verdict,
        seconds: run.seconds,
        cpu_seconds: run.cpu_seconds,
        note,
    })
}

/// True if a text DRAT proof contains the empty clause (a line `0`).
fn drat_has_empty_clause(proof: &Path) -> Result<bool, SolveError> {
    let mut reader = BufReader::new(File::open(proof).map_err(SolveError::io(proof))?);
    // Binary DRAT (what the line engine writes) ends every clause with a zero byte, which
    // text never holds.
    let start = reader.fill_buf().map_err(SolveError::io(proof))?;
    if start.contains(&0) {
        return binary_drat_has_empty_clause(reader).map_err(SolveError::io(proof));
    }
    for line in reader.split(b'\n') {
        let line = line.map_err(SolveError::io(proof))?;
        if line.trim_ascii() == b"0" {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Whether a binary DRAT proof (`a` or `d`, then literals as variable-length numbers, then a
/// zero) adds the empty clause: an `a` followed at once by the zero.
fn binary_drat_has_empty_clause(reader: impl Read) -> std::io::Result<bool> {
    let mut bytes = BufReader::new(reader).bytes();
    while let Some(kind) = bytes.next() {
        let kind = kind?;
        let mut empty = true;
        // Variable-length numbers: a byte below 128 ends one; a lone zero ends the clause.
        let mut fresh = true;
        loop {
            let Some(b) = bytes.next() else {
                return Ok(false);
            };
            let b = b?;
            if fresh && b == 0 {
                break;
            }
            empty = false;
            fresh = b < 128;
        }
        if kind == b'a' && empty {
            return Ok(true);
        }
    }
    Ok(false)
}

fn check_lrat(cnf: &Path, proof: &Path, limits: &Limits) -> Result<CheckReport, SolveError> {
    let hint = "run scripts/setup.sh (Debian package acl2-books)";
    let program = find_program("acl2", "acl2 (LRAT checker)", hint)?;
    let abs = |p: &Path| -> Result<String, SolveError> {
        let p = std::fs::canonicalize(p).map_err(SolveError::io(p))?;
        // An ACL2 string literal: backslash and double quote escaped.
        Ok(p.display()
            .to_string()
            .replace('\\', "\\\\")
            .replace('"', "\\\""))
    };
    // ACL2's DIMACS reader rejects comment lines: it gets a copy without them (the clauses,
    // and so their LRAT numbering, unchanged).
    let stripped = strip_comments(cnf)?;
    let script = format!(
        "(include-book \"projects/sat/lrat/stobj-based/run\" :dir :system)\n(lrat::lrat-check \"{}\" \"{}\")\n",
        abs(stripped.path())?,
        abs(proof)?
    );
    let cmd = Command::new(&program);
    let (_, run) = run_checker("acl2", cmd, Some(script), limits)?;
    // ACL2 exits 0 whether or not the proof checks: only its `s VERIFIED` line counts.
    let text = format!("{}\n{}", run.stdout.unwrap_or_default(), run.stderr);
    let verified = text.lines().any(|l| l.trim() == "s VERIFIED");
    let verdict = if verified {
        "s VERIFIED".to_string()
    } else {
        text.lines()
            .map(str::trim)
            .find(|l| {
                l.contains("ERROR")
                    || l.contains("FAILED")
                    || l.contains("Incomplete")
                    || l.starts_with("s ")
            })
            .unwrap_or("no `s VERIFIED` line")
            .to_string()
    };
    Ok(CheckReport {
        verified,
        checker: "acl2-lrat".into(),
        checker_version: debian_version("acl2-books").or_else(|| debian_version("acl2")),
        verdict,
        seconds: run.seconds,
        cpu_seconds: run.cpu_seconds,
        note: None,
    })
}

/// A temporary copy of a DIMACS file without its comment lines.
fn strip_comments(cnf: &Path) -> Result<tempfile::NamedTempFile, SolveError> {
    let mut out = pq_io::output::scratch_file(".cnf")?;
    {
        let mut w = std::io::BufWriter::new(out.as_file_mut());
        let reader = BufReader::new(File::open(cnf).map_err(SolveError::io(cnf))?);
        for line in reader.split(b'\n') {
            let line = line.map_err(SolveError::io(cnf))?;
            if line.trim_ascii_start().first() == Some(&b'c') {
                continue;
            }
            std::io::Write::write_all(&mut w, &line).map_err(SolveError::io(cnf))?;
            std::io::Write::write_all(&mut w, b"\n").map_err(SolveError::io(cnf))?;
        }
        std::io::Write::flush(&mut w).map_err(SolveError::io(cnf))?;
    }
    Ok(out)
}

/// Runs a checker under the same supervision as the solvers (its own process group, the
/// kill registry, Ctrl-C), killed when `limits` say stop; running out of time is an error.
/// Returns its exit code (`None`: killed by a signal) and what it printed.
fn run_checker(
    name: &str,
    cmd: Command,
    stdin: Option<String>,
    limits: &Limits,
) -> Result<(Option<i32>, Supervised<String>), SolveError> {
    let stdin = stdin.map(String::into_bytes);
    let run = supervise(name, cmd, stdin, limits, STDOUT_CAP, read_tail)?;
    let failed = |reason: String| SolveError::SolverFailed {
        program: name.to_string(),
        reason,
        stderr: String::new(),
    };
    match run.end {
        End::Exited(status) => Ok((status.code(), run)),
        End::Stopped(_) | End::Interrupted if interrupted() => Err(SolveError::Interrupted),
        End::Stopped(reason) => Err(failed(format!("the checker did not finish: {reason}"))),
        End::Interrupted => Err(SolveError::Interrupted),
        End::Cut(reason) => Err(failed(format!("{reason}; pq-sat killed it"))),
    }
}

/// The solver used for proofs when the user names none: kissat for DRAT when installed (the
/// fastest on these formulas, see BENCHMARKS.md), else the in-process CaDiCaL.
pub(crate) fn default_prover(format: ProofFormat) -> BackendSpec {
    if format == ProofFormat::Drat && ExternalSolver::kissat().is_ok() {
        BackendSpec::Kissat
    } else {
        BackendSpec::Cadical
    }
}

#[cfg(test)]
mod tests {
    use super::{binary_drat_has_empty_clause, check_search};
    use pq_solve::control::Limits;

    /// pq-sat demands the step it asked of a search certificate's claim: a true
    /// certificate of another step (a slip between the request and the writer) verifies
    /// as nothing.
    #[test]
    fn a_search_certificate_of_another_step_is_not_the_step() {
        if super::pq_check_program().is_err() {
            // Built by the workspace's test run (crates/check); alone, this crate has none.
            eprintln!("pq-check not built: skipped");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("q.search");
        let queens = pq_encode::spec::Problem::peaceable_queens(4);
        let keep = pq_io::output::WritePolicy::Keep;
        let engine = crate::lines::LineEngine::on(1);
        let limits = Limits::default();
        let (outcome, _, _) = engine
            .certify(&queens, 3, &path, false, &limits, keep)
            .unwrap();
        assert_eq!(outcome.status, crate::capability::Status::Unsat);
        let own = check_search(&path, false, Some("board square 4 armies 3 3"), &limits);
        assert!(own.unwrap().verified);
        for other in ["board square 4 armies 4 4", "board square 5 armies 3 3"] {
            let report = check_search(&path, false, Some(other), &limits).unwrap();
            assert!(!report.verified, "{other}");
            assert!(
                report.verdict.starts_with("c expected"),
                "{}",
                report.verdict
            );
        }
    }

    /// Binary DRAT: `a`/`d`, literals 2v (+1 if negative) as 7-bit groups, then a zero.
    #[test]
    fn the_empty_clause_is_found_in_binary_drat() {
        // a 1 -200 0, d 1 -200 0: no empty clause; then a 0.
        let clause = [0x02, 0x91, 0x03, 0x00];
        let mut proof = vec![b'a'];
        proof.extend(clause);
        proof.push(b'd');
        proof.extend(clause);
        assert!(!binary_drat_has_empty_clause(&proof[..]).unwrap());
        // A deleted empty clause is not one, nor is one cut short.
        assert!(!binary_drat_has_empty_clause(&[b'd', 0][..]).unwrap());
        assert!(!binary_drat_has_empty_clause(&[b'a', 0x02][..]).unwrap());
        proof.extend([b'a', 0]);
        assert!(binary_drat_has_empty_clause(&proof[..]).unwrap());
    }

    use super::*;

    fn message(cnf: &Path, proof: &Path) -> String {
        check_inputs(cnf, proof).unwrap_err().to_string()
    }

    /// What is wrong with `check-proof`'s input is said before a checker runs (it once said
    /// only "no verdict (exit code 2): no verdict").
    #[test]
    fn bad_inputs_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let cnf = dir.path().join("f.cnf");
        std::fs::write(&cnf, "c pq-sat\nc var 1\n\np cnf 1 2\n1 0\n-1 0\n").unwrap();
        let proof = dir.path().join("f.drat");
        std::fs::write(&proof, "0\n").unwrap();
        check_inputs(&cnf, &proof).unwrap();
        let e = message(&proof, &cnf);
        assert!(e.contains("swapped") && e.contains("usage"), "{e}");
        assert!(message(&cnf, &cnf).contains("not a proof"));
        assert!(message(&proof, &proof).contains("not a DIMACS CNF file"));
        assert!(message(dir.path(), &proof).contains("is a directory"));
        assert!(message(&cnf, dir.path()).contains("is a directory"));
        assert!(message(&cnf, Path::new("/dev/null")).contains("not a regular file"));
        let e = message(&cnf, &dir.path().join("missing"));
        assert_eq!(e.matches("No such file").count(), 1, "{e}");
    }

    #[test]
    fn dimacs_is_told_by_its_first_line_after_comments() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x");
        for (text, dimacs) in [
            ("p cnf 3 1\n1 0\n", true),
            ("c x\nc y\n  p  cnf 1 1\n1 0\n", true),
            ("p wcnf 1 1\n", false),
            ("1 2 0\n", false),
            ("", false),
            ("c only comments\n", false),
        ] {
            std::fs::write(&path, text).unwrap();
            assert_eq!(is_dimacs(&path).unwrap(), dimacs, "{text:?}");
        }
    }
}
