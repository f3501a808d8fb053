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

use std::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::str::FromStr;
use std::time::{Duration, Instant};

use pq_encode::{dimacs, Formula, Options, Symmetry};

use crate::answer::Answer;
use crate::backend::{first_falsified_clause, BackendSpec};
use crate::control::Limits;
use crate::error::SolveError;
use crate::external::ExternalSolver;

/// A clausal proof format (always the text form: readable, and accepted by every checker).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ProofFormat {
    #[default]
    Drat,
    Lrat,
}

impl ProofFormat {
    pub const NAMES: &'static [&'static str] = &["drat", "lrat"];

    pub fn name(self) -> &'static str {
        match self {
            ProofFormat::Drat => "drat",
            ProofFormat::Lrat => "lrat",
        }
    }

    /// The format a proof file's extension names (`.lrat`, else DRAT).
    pub fn from_path(path: &Path) -> ProofFormat {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("lrat") => ProofFormat::Lrat,
            _ => ProofFormat::Drat,
        }
    }
}

impl fmt::Display for ProofFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ProofFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "drat" => Ok(ProofFormat::Drat),
            "lrat" => Ok(ProofFormat::Lrat),
            _ => Err(format!(
                "unknown proof format '{s}' (expected one of: {})",
                ProofFormat::NAMES.join(", ")
            )),
        }
    }
}

/// The proof formats a backend can write (empty: none).
pub fn formats_of(spec: &BackendSpec) -> &'static [ProofFormat] {
    match spec {
        BackendSpec::Cadical => &[ProofFormat::Drat, ProofFormat::Lrat],
        BackendSpec::Kissat | BackendSpec::CadicalBin | BackendSpec::Varisat => {
            &[ProofFormat::Drat]
        }
        BackendSpec::Minisat | BackendSpec::Command(_) => &[],
    }
}

/// Checks that `spec` can write `format`, with a message that says what can.
pub fn check_capable(spec: &BackendSpec, format: ProofFormat) -> Result<(), String> {
    if formats_of(spec).contains(&format) {
        return Ok(());
    }
    let able: Vec<String> = [
        BackendSpec::Kissat,
        BackendSpec::Cadical,
        BackendSpec::CadicalBin,
        BackendSpec::Varisat,
    ]
    .iter()
    .filter(|b| formats_of(b).contains(&format))
    .map(|b| b.to_string())
    .collect();
    Err(format!(
        "{spec} cannot write {} proofs; use --backend {}",
        format.name().to_uppercase(),
        able.join(" or --backend ")
    ))
}

/// The formula as handed to a proof-writing solver. For LRAT, unit clauses go last (and
/// clauses are written without repeated literals, tautologies dropped): CaDiCaL
/// numbers the clauses it is given 1, 2, ... but simplifies a clause that contains a literal
/// an earlier unit falsified, giving it a derived number and shifting every later one, which
/// would make the proof refer to a different numbering than the CNF file.
pub fn arranged_for(formula: &Formula, format: ProofFormat) -> Formula {
    let mut out = formula.clone();
    if format == ProofFormat::Lrat {
        // Repeated literals and tautologies get the same treatment from CaDiCaL (and ACL2's
        // checker rejects them outright): write each clause in its simplified form.
        let mut units = Vec::new();
        let mut rest = Vec::new();
        for clause in formula.cnf.iter() {
            let mut lits: Vec<_> = Vec::with_capacity(clause.len());
            for &l in clause.iter() {
                if !lits.contains(&l) {
                    lits.push(l);
                }
            }
            if lits.iter().any(|&l| lits.contains(&!l)) {
                continue;
            }
            let clause: rustsat::types::Clause = lits.into_iter().collect();
            if clause.len() == 1 {
                units.push(clause);
            } else {
                rest.push(clause);
            }
        }
        out.cnf = rest.into_iter().chain(units).collect();
    }
    out
}

/// Solves `formula` (already [arranged](arranged_for)) with `spec`, which reads `cnf` (the
/// DIMACS form of `formula`, for external solvers) and writes a text proof to `proof` in
/// `format`. The proof is complete when this returns. Returns the answer and the solver's
/// name; a SAT model has been checked against every clause.
pub fn solve_with_proof(
    spec: &BackendSpec,
    formula: &Formula,
    cnf: &Path,
    proof: &Path,
    format: ProofFormat,
    limits: &Limits,
) -> Result<(Answer, String), SolveError> {
    check_capable(spec, format).map_err(|message| SolveError::InProcess {
        backend: spec.to_string(),
        message,
    })?;
    let (answer, name) = match spec {
        BackendSpec::Kissat | BackendSpec::CadicalBin => {
            let base = match spec {
                BackendSpec::Kissat => ExternalSolver::kissat()?,
                _ => ExternalSolver {
                    name: "cadical-bin".into(),
                    ..ExternalSolver::cadical()?
                },
            };
            let solver = ExternalSolver {
                args_after: vec![proof.display().to_string(), "--no-binary".into()],
                ..base
            };
            let answer = solver.solve_file(cnf, formula.n_vars as usize, limits)?;
            (answer, solver.name)
        }
        BackendSpec::Cadical => {
            let traced = match format {
                ProofFormat::Drat => rustsat_cadical::ProofFormat::Drat { binary: false },
                ProofFormat::Lrat => rustsat_cadical::ProofFormat::Lrat { binary: false },
            };
            let answer = crate::backend::cadical_solve(formula, limits, Some((proof, traced)))?;
            (answer, "cadical".into())
        }
        BackendSpec::Varisat => {
            let file = File::create(proof).map_err(|source| SolveError::Io {
                path: proof.to_path_buf(),
                source,
            })?;
            let target = Box::new(std::io::BufWriter::new(file));
            let answer = crate::backend::varisat_solve(formula, limits, Some(target))?;
            (answer, "varisat".into())
        }
        BackendSpec::Minisat | BackendSpec::Command(_) => unreachable!("checked above"),
    };
    if let Answer::Sat(model) = &answer {
        if let Some(k) = first_falsified_clause(formula, model) {
            return Err(SolveError::BadModel {
                program: name,
                clause_index: k + 1,
            });
        }
    }
    Ok((answer, name))
}

/// Writes `formula` as DIMACS to `path`.
pub fn write_cnf(formula: &Formula, path: &Path) -> Result<(), SolveError> {
    let io = |source| SolveError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = File::create(path).map_err(io)?;
    let mut w = std::io::BufWriter::new(file);
    dimacs::write(formula, &mut w).map_err(io)?;
    std::io::Write::flush(&mut w).map_err(io)
}

/// What a certificate or a proof report says the proof certifies.
pub fn certified_formula(options: &Options) -> String {
    match options.symmetry {
        Symmetry::None => format!(
            "the plain encoding ({} model, {} cardinality, no symmetry breaking): the proof certifies the problem as encoded",
            options.model, options.card
        ),
        Symmetry::LexLeader => format!(
            "the encoding ({} model, {} cardinality) plus lex-leader symmetry-breaking clauses for the group of 16 (the 8 symmetries of the square × the colour swap): the proof certifies that formula; it implies the plain problem is UNSAT only through the theorem that every orbit has a lex-least member satisfying the lex-leader clauses (Crawford, Ginsberg, Luks & Roy, KR 1996), which the checker does not check. Use --symmetry none for a proof of the plain encoding",
            options.model, options.card
        ),
    }
}

/// A checker's verdict on a (CNF, proof) pair.
#[derive(Clone, Debug)]
pub struct CheckReport {
    pub verified: bool,
    /// `rate` or `acl2-lrat`.
    pub checker: String,
    pub checker_version: Option<String>,
    /// The checker's own verdict line (e.g. `s VERIFIED`), or why there is none.
    pub verdict: String,
    pub seconds: f64,
    /// pq-sat's reason for refusing a proof the checker accepted, if any.
    pub note: Option<String>,
}

/// Checks `proof` (in `format`) against `cnf` with the independent checker for that format.
/// `timeout` bounds the checker's run; running out is an error.
pub fn check_proof(
    cnf: &Path,
    proof: &Path,
    format: ProofFormat,
    timeout: Option<Duration>,
) -> Result<CheckReport, SolveError> {
    for path in [cnf, proof] {
        std::fs::metadata(path).map_err(|source| SolveError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    }
    match format {
        ProofFormat::Drat => check_drat(cnf, proof, timeout),
        ProofFormat::Lrat => check_lrat(cnf, proof, timeout),
    }
}

fn check_drat(
    cnf: &Path,
    proof: &Path,
    timeout: Option<Duration>,
) -> Result<CheckReport, SolveError> {
    let program = which::which("rate").map_err(|_| SolveError::NotInstalled {
        program: "rate".into(),
        hint: "run scripts/setup.sh (it runs `cargo install rate`)".into(),
    })?;
    let mut cmd = Command::new(&program);
    cmd.arg(cnf).arg(proof);
    let run = run_checker("rate", cmd, None, timeout)?;
    // rate: `s VERIFIED` and exit 0, `s NOT VERIFIED` and exit 1, exit 2 for unreadable input.
    let verdict_line = run
        .stdout
        .lines()
        .find(|l| l.starts_with("s "))
        .map(str::to_string);
    let verified = run.code == Some(0) && verdict_line.as_deref() == Some("s VERIFIED");
    let verdict = verdict_line.unwrap_or_else(|| {
        let why = last_line(&run.stderr).unwrap_or("no verdict");
        format!("no verdict (exit code {}): {why}", code_text(run.code))
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
        checker_version: tool_version(&program, "--version"),
        verdict,
        seconds: run.seconds,
        note,
    })
}

/// True if a text DRAT proof contains the empty clause (a line `0`).
fn drat_has_empty_clause(proof: &Path) -> Result<bool, SolveError> {
    let io = |source| SolveError::Io {
        path: proof.to_path_buf(),
        source,
    };
    let reader = BufReader::new(File::open(proof).map_err(io)?);
    for line in reader.split(b'\n') {
        let line = line.map_err(io)?;
        if line.trim_ascii() == b"0" {
            return Ok(true);
        }
    }
    Ok(false)
}

fn check_lrat(
    cnf: &Path,
    proof: &Path,
    timeout: Option<Duration>,
) -> Result<CheckReport, SolveError> {
    let program = which::which("acl2").map_err(|_| SolveError::NotInstalled {
        program: "acl2 (LRAT checker)".into(),
        hint: "run scripts/setup.sh (Debian package acl2-books)".into(),
    })?;
    let abs = |p: &Path| -> Result<String, SolveError> {
        let p = std::fs::canonicalize(p).map_err(|source| SolveError::Io {
            path: p.to_path_buf(),
            source,
        })?;
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
    let run = run_checker("acl2", cmd, Some(script), timeout)?;
    // ACL2 exits 0 whether or not the proof checks: only its `s VERIFIED` line counts.
    let text = format!("{}\n{}", run.stdout, run.stderr);
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
        note: None,
    })
}

/// A temporary copy of a DIMACS file without its comment lines.
fn strip_comments(cnf: &Path) -> Result<tempfile::NamedTempFile, SolveError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| SolveError::Io { path, source }
    };
    let mut out = tempfile::Builder::new()
        .prefix("pq-lrat-")
        .suffix(".cnf")
        .tempfile()
        .map_err(io(&std::env::temp_dir()))?;
    {
        let mut w = std::io::BufWriter::new(out.as_file_mut());
        let reader = BufReader::new(File::open(cnf).map_err(io(cnf))?);
        for line in reader.split(b'\n') {
            let line = line.map_err(io(cnf))?;
            if line.trim_ascii_start().first() == Some(&b'c') {
                continue;
            }
            std::io::Write::write_all(&mut w, &line).map_err(io(cnf))?;
            std::io::Write::write_all(&mut w, b"\n").map_err(io(cnf))?;
        }
        std::io::Write::flush(&mut w).map_err(io(cnf))?;
    }
    Ok(out)
}

struct CheckerRun {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    seconds: f64,
}

/// Runs a checker with its output in temporary files (no pipe to drain), killed when
/// `timeout` passes or pq-sat dies.
fn run_checker(
    name: &str,
    mut cmd: Command,
    stdin: Option<String>,
    timeout: Option<Duration>,
) -> Result<CheckerRun, SolveError> {
    let spawn_err = |source| SolveError::Spawn {
        program: name.to_string(),
        source,
    };
    let mut out = tempfile::tempfile().map_err(spawn_err)?;
    let mut err = tempfile::tempfile().map_err(spawn_err)?;
    cmd.stdout(out.try_clone().map_err(spawn_err)?)
        .stderr(err.try_clone().map_err(spawn_err)?)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .process_group(0);
    // SAFETY: async-signal-safe system call only, between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong);
            Ok(())
        });
    }
    let start = Instant::now();
    let mut child = cmd.spawn().map_err(spawn_err)?;
    if let (Some(text), Some(mut pipe)) = (stdin, child.stdin.take()) {
        // A small script: it fits the pipe, so this cannot block on the child.
        std::io::Write::write_all(&mut pipe, text.as_bytes()).map_err(spawn_err)?;
    }
    let deadline = timeout.map(|t| start + t);
    let status = loop {
        if let Some(status) = child.try_wait().map_err(spawn_err)? {
            break status;
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            // SAFETY: plain system call on our own child's group.
            unsafe {
                libc::kill(-(child.id() as i32), libc::SIGKILL);
            }
            let _ = child.wait();
            return Err(SolveError::SolverFailed {
                program: name.to_string(),
                reason: format!(
                    "the checker did not finish within {:.0} s",
                    timeout.unwrap_or_default().as_secs_f64()
                ),
                stderr: String::new(),
            });
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let seconds = start.elapsed().as_secs_f64();
    let read = |f: &mut File| -> String {
        let mut s = String::new();
        let _ = f.seek(SeekFrom::Start(0));
        let _ = f.read_to_string(&mut s);
        s
    };
    Ok(CheckerRun {
        code: status.code(),
        stdout: read(&mut out),
        stderr: read(&mut err),
        seconds,
    })
}

fn last_line(s: &str) -> Option<&str> {
    s.lines().map(str::trim).rfind(|l| !l.is_empty())
}

fn code_text(code: Option<i32>) -> String {
    code.map_or("none (killed)".into(), |c| c.to_string())
}

/// The first line of `program FLAG`, e.g. `rate 0.3.0`.
pub fn tool_version(program: &Path, flag: &str) -> Option<String> {
    let out = Command::new(program).arg(flag).output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    last_line(text.lines().next()?).map(str::to_string)
}

/// A Debian package's version, if installed.
pub fn debian_version(package: &str) -> Option<String> {
    let out = Command::new("dpkg-query")
        .args(["-W", "-f", "${Version}", package])
        .output()
        .ok()?;
    let v = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (out.status.success() && !v.is_empty()).then_some(v)
}

/// The path of `name` beside `path` (same directory).
pub fn beside(path: &Path, name: &str) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.join(name),
        _ => PathBuf::from(name),
    }
}

/// The result of [`prove`].
#[derive(Clone, Debug)]
pub struct Proved {
    pub answer: Answer,
    pub solver: String,
    pub seconds: f64,
    /// Bytes of the proof written (UNSAT only).
    pub proof_bytes: Option<u64>,
}

/// Solves `formula` with `spec`, and on UNSAT leaves the proof at `proof` and the CNF it
/// refers to at `cnf`. Both are written to temporary files beside their targets and renamed
/// into place only on UNSAT, so a SAT or unknown answer (or a crash) leaves neither behind.
pub fn prove(
    spec: &BackendSpec,
    formula: &Formula,
    cnf: &Path,
    proof: &Path,
    format: ProofFormat,
    limits: &Limits,
) -> Result<Proved, SolveError> {
    let arranged = arranged_for(formula, format);
    let temp_beside = |target: &Path| {
        let dir = beside(target, ".");
        tempfile::Builder::new()
            .prefix(".pq-proof-")
            .tempfile_in(&dir)
            .map_err(|source| SolveError::Io { path: dir, source })
    };
    let cnf_tmp = temp_beside(cnf)?;
    let proof_tmp = temp_beside(proof)?;
    write_cnf(&arranged, cnf_tmp.path())?;
    let start = Instant::now();
    let (answer, solver) = solve_with_proof(
        spec,
        &arranged,
        cnf_tmp.path(),
        proof_tmp.path(),
        format,
        limits,
    )?;
    let seconds = start.elapsed().as_secs_f64();
    let mut proof_bytes = None;
    if answer == Answer::Unsat {
        let persist = |tmp: tempfile::NamedTempFile, to: &Path| {
            let io = |source| SolveError::Io {
                path: to.to_path_buf(),
                source,
            };
            // Temporary files are private (0600); a proof and its CNF are meant to be shared.
            use std::os::unix::fs::PermissionsExt;
            tmp.as_file()
                .set_permissions(std::fs::Permissions::from_mode(0o644))
                .map_err(io)?;
            tmp.persist(to).map_err(|e| io(e.error))
        };
        persist(cnf_tmp, cnf)?;
        persist(proof_tmp, proof)?;
        proof_bytes = std::fs::metadata(proof).ok().map(|m| m.len());
    }
    Ok(Proved {
        answer,
        solver,
        seconds,
        proof_bytes,
    })
}

/// The solver used for proofs when the user names none: kissat for DRAT when installed (the
/// fastest on these formulas, see BENCHMARKS.md), else the in-process CaDiCaL.
pub fn default_prover(format: ProofFormat) -> BackendSpec {
    if format == ProofFormat::Drat && ExternalSolver::kissat().is_ok() {
        BackendSpec::Kissat
    } else {
        BackendSpec::Cadical
    }
}
