//! Certificate bundles for the optimum of any problem (a(d) for the peaceable queens): the
//! witness placement at the optimum, the CNF and a checked proof of unsatisfiability one
//! above it, and a manifest (`certificate.json`) with the problem, versions, encodings,
//! hashes and check times. [`check_certificate`] re-checks a bundle from its files
//! alone: hashes, the witness with the independent validator, the CNF against a fresh
//! encoding of the claim, and the proof with the independent checker. Claims are derived,
//! never read: the writer and the checker build the manifest with the same function
//! (`assemble`) from the evidence, so every field the checker can derive it compares, and
//! any disagreement makes the bundle invalid.

use std::fs;
use std::io::Read;
use std::path::Path;
use std::time::Duration;

use pq_board::placement::Placement;
use pq_encode::general::{encode_problem, group_size, specialised, symmetries};
use pq_encode::spec::Problem;
use pq_encode::{dimacs, Card, Formula, Model, Options, Symmetry};
use serde::{Deserialize, Serialize};

use crate::capability::{ProofFiles, Prove, Query, Status, Step};
use crate::error::EngineError;
use crate::proof::{arranged_for, certified_formula, check_proof, CheckReport, ProofFormat};
use pq_io::compress;
use pq_io::hashing::{sha256_file, sha256_hex};
use pq_io::staging::{check_target, distinct_plain_names, move_into_place, stage};
use pq_solve::backend::accept_all;
use pq_solve::control::{check_interrupt, Limits};
use pq_solve::error::SolveError;

/// The manifest file of a bundle.
pub(crate) const MANIFEST: &str = "certificate.json";

/// How `--force` recognises a certificate bundle pq-sat wrote.
pub const MARKER: pq_io::output::Marker = pq_io::output::Marker {
    file: MANIFEST,
    key: "claim",
};
const WITNESS: &str = "witness.txt";

/// `certificate.json`. Unknown fields are refused: nothing in a manifest goes unchecked.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Certificate {
    /// E.g. `a(8) = 9`; derived again from the problem and the optimum when checked.
    pub claim: String,
    /// The claim in words, naming the files that show each half of it.
    pub statement: String,
    /// The board side d, for the peaceable queens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dim: Option<usize>,
    /// Any other problem, in pq-sat's problem-file format (TOML), its maximised groups at
    /// `max`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
    /// The claimed optimum: the most pieces each maximised group can have (a(d), queens of
    /// each colour).
    pub optimum: usize,
    /// The pq-sat version that wrote the bundle (`pq-sat X.Y.Z`).
    pub generator: String,
    /// The lower bound: a board with `optimum` queens of each colour.
    pub witness: Witness,
    /// The upper bound: `optimum + 1` does not fit.
    pub unsat: UnsatPart,
}

/// The witness half of a certificate: a peaceable board with a(d) queens of each colour.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Witness {
    /// The board file's name within the bundle.
    pub file: String,
    /// SHA-256 of that file, lower-case hex.
    pub sha256: String,
    /// The board, one string per row (row 1 first): each group's symbol (`W`, `B` for the
    /// queens) or `.`.
    pub board: Vec<String>,
    /// White queens on the board (the peaceable queens only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white: Option<usize>,
    /// Black queens on the board (the peaceable queens only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black: Option<usize>,
    /// Pieces of each group, in the problem's order.
    #[serde(default)]
    pub counts: Vec<usize>,
    /// The validator that accepted the board before the bundle was written.
    pub validated_by: String,
}

/// The UNSAT half of a certificate: the formula for a(d)+1 queens of each colour, its proof
/// of unsatisfiability and the independent check of that proof.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnsatPart {
    /// The army size shown not to fit: `optimum + 1`.
    pub n: usize,
    /// The CNF file's name within the bundle (a clausal proof's formula; a search
    /// certificate states its claim in its own header and has none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cnf: Option<String>,
    /// SHA-256 of the CNF file, lower-case hex.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cnf_sha256: Option<String>,
    /// The number of variables of the encoding.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variables: Option<u32>,
    /// The number of clauses of the encoding.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clauses: Option<usize>,
    /// The attack model's name (see [`Model`]); re-checking encodes with it again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The cardinality encoding's name (see [`Card`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<String>,
    /// The symmetry breaking's name (see [`Symmetry`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symmetry: Option<String>,
    /// The redundant bound clauses' name (see [`pq_encode::Bounds`]): `sums` for the line
    /// engine's tree proofs, absent for none (so earlier bundles read as they were written).
    #[serde(default = "no_bounds", skip_serializing_if = "is_no_bounds")]
    pub bounds: String,
    /// What exactly the proof certifies (see [`certified_formula`]).
    pub certified_formula: String,
    /// The symmetry group the breaking clauses are built for, if any.
    pub symmetry_group: Option<String>,
    /// The proof file's name within the bundle.
    pub proof: String,
    /// SHA-256 of the proof file, lower-case hex.
    pub proof_sha256: String,
    /// `drat`, `lrat` or `search` (see [`ProofFormat`]).
    pub proof_format: String,
    /// The proof file's size.
    pub proof_bytes: u64,
    /// The solver that wrote the proof, with its version when it can be found out.
    pub solver: String,
    /// Wall-clock seconds of the proof-writing solve.
    pub solve_seconds: f64,
    /// The checker that verified the proof (`rate` or `acl2-lrat`).
    pub checker: String,
    /// The checker's version, if it can be found out.
    pub checker_version: Option<String>,
    /// Wall-clock seconds of the check.
    pub check_seconds: f64,
    /// The checker's own verdict line (`s VERIFIED`).
    pub verdict: String,
}

fn no_bounds() -> String {
    pq_encode::Bounds::None.name().into()
}

fn is_no_bounds(bounds: &str) -> bool {
    bounds == pq_encode::Bounds::None.name()
}

/// What to certify: the optimum of `problem` is `optimum`, with `witness` (exactly `optimum`
/// pieces in each maximised group), the UNSAT step encoded with `options` and proved in
/// `format` by the prover the plan gives for the bundle's files.
pub struct Request<'a> {
    /// The problem (the peaceable queens: [`Problem::peaceable_queens`]).
    pub problem: &'a Problem,
    /// The claimed optimum.
    pub optimum: usize,
    /// A placement at the optimum; validated before anything is written.
    pub witness: &'a Placement,
    /// The encoding of the UNSAT step, `optimum + 1` queens of each colour.
    pub options: Options,
    /// The proof format, which decides the files and the checker.
    pub format: ProofFormat,
    /// What proves the UNSAT step into the files it is given (unchecked: the bundle's
    /// check follows).
    pub prover: &'a dyn Fn(&ProofFiles) -> Box<dyn Prove + 'a>,
    /// The limits of the proof-writing solve.
    pub solve_limits: Limits,
    /// Whether an earlier bundle at the target may be replaced (`--force`).
    pub policy: pq_io::output::WritePolicy,
}

/// Writes the bundle into `dir` (which must not exist, be empty, or hold an earlier bundle,
/// then replaced; see [`check_target`]), atomically: everything
/// is staged beside it and renamed into place once the proof has been checked (the checker
/// runs without a time limit).
pub(crate) fn write_certificate(dir: &Path, req: &Request) -> Result<Certificate, SolveError> {
    check_target(dir, MARKER, req.policy)?;
    let (problem, a) = (req.problem, req.optimum);
    if problem.maximised().is_empty() {
        return Err(SolveError::from(EngineError::Certificate(
            "the problem maximises no group: there is no optimum to certify".into(),
        )));
    }
    let (trimmed, _) = crate::capability::validated(problem, a, req.witness, "the optimiser")?;
    if &trimmed != req.witness {
        return Err(SolveError::from(EngineError::Certificate(format!(
            "the witness does not have exactly {a} pieces in each maximised group"
        ))));
    }
    let queens = specialised(problem);
    let staging = stage(dir, "certificate", MARKER, req.policy)?;
    let s = staging.path();

    let symbols = Placement::symbols(&problem.rules);
    let witness_text = req.witness.to_labelled_text(&symbols);
    fs::write(s.join(WITNESS), &witness_text).map_err(SolveError::io(&s.join(WITNESS)))?;

    let n = a + 1;
    let stem = if queens {
        format!("unsat-d{:02}-n{n:03}", problem.rules.layout.rows)
    } else {
        format!("unsat-n{n:03}")
    };
    let proof_name = format!("{stem}.{}", req.format.name());
    let files = ProofFiles::new(
        req.format,
        s.join(&proof_name),
        s.join(format!("{stem}.cnf")),
    );
    let (unsat, report) = prove_step(req, n, &files)?;
    if !report.verified {
        return Err(SolveError::from(EngineError::Certificate(format!(
            "the {} proof from {} was not verified by {}: {}{}",
            req.format.name().to_uppercase(),
            unsat.solver,
            report.checker,
            report.verdict,
            report
                .note
                .clone()
                .map(|n| format!(" ({n})"))
                .unwrap_or_default()
        ))));
    }
    let proof_path = files.proof();
    let proof_bytes = fs::metadata(proof_path)
        .map_err(SolveError::io(proof_path))?
        .len();
    let cnf_name = unsat.cnf.as_ref().map(|(name, _)| name.clone());
    let cnf_sha256 = match &unsat.cnf {
        Some((_, path)) => Some(sha256_file(path).map_err(SolveError::io(path))?),
        None => None,
    };
    let cert = assemble(
        &Evidence {
            problem,
            optimum: a,
            witness: req.witness,
            options: unsat.formula.as_ref().map(|_| &req.options),
            format: req.format,
            formula: unsat.formula.as_ref(),
            names: (WITNESS.into(), cnf_name, proof_name),
            proof_bytes,
            checker: &report.checker,
            verdict: &report.verdict,
        },
        Recorded {
            generator: format!("pq-sat {}", env!("CARGO_PKG_VERSION")),
            witness_sha256: sha256_hex(witness_text.as_bytes()),
            cnf_sha256,
            proof_sha256: sha256_file(proof_path).map_err(SolveError::io(proof_path))?,
            solver: solver_with_version(&unsat.solver),
            solve_seconds: unsat.seconds,
            checker_version: report.checker_version.clone(),
            check_seconds: report.seconds,
        },
    );
    let json = serde_json::to_string_pretty(&cert).expect("a certificate serialises") + "\n";
    fs::write(s.join(MANIFEST), json).map_err(SolveError::io(&s.join(MANIFEST)))?;
    move_into_place(staging, dir, MARKER, req.policy)?;
    Ok(cert)
}

/// The UNSAT step as proved: by whom and how fast, and for a clausal proof the formula it
/// refutes with the CNF file's name and path.
struct Proved {
    solver: String,
    seconds: f64,
    formula: Option<Formula>,
    cnf: Option<(String, std::path::PathBuf)>,
}

/// The step `n` refuted into `files` by the plan's prover, and the proof checked: a clausal
/// proof against the CNF written beside it (pq-sat's encoding of the step), a search
/// certificate once its header claims the whole step.
fn prove_step(
    req: &Request,
    n: usize,
    files: &ProofFiles,
) -> Result<(Proved, CheckReport), SolveError> {
    let problem = req.problem;
    let formula = files
        .cnf()
        .map(|_| encode_problem(problem, n, &req.options));
    let step = match &formula {
        Some(formula) => Step::Formula {
            problem: Some(problem),
            n,
            formula,
        },
        None => Step::Problem { problem, n },
    };
    let query = Query {
        step,
        limits: &req.solve_limits,
        judge: &accept_all,
    };
    let decided = (req.prover)(files).prove(query, files)?;
    // Stopped by Ctrl-C: the bundle is not written (the staging directory goes with it).
    check_interrupt()?;
    let outcome = decided.outcome;
    let answer = match outcome.status {
        Status::Unsat => Ok(true),
        Status::Sat => Ok(false),
        Status::Unknown => Err(outcome.reason.clone().unwrap_or_else(|| "stopped".into())),
    };
    unsat_or_refuted(answer, &outcome.solver, n, req.optimum)?;
    let report = match files {
        ProofFiles::Search { sink } => {
            let d = problem.rules.layout.rows;
            let claim = search_header(sink).map_err(|e| {
                SolveError::from(EngineError::Certificate(format!("{}: {e}", sink.display())))
            })?;
            if claim != SearchClaim::whole(d, n) {
                return Err(SolveError::from(EngineError::Certificate(format!(
                    "the search certificate claims {claim}, not {}",
                    SearchClaim::whole(d, n)
                ))));
            }
            check_proof(sink, sink, files.format(), None)?
        }
        ProofFiles::Clausal { format, proof, cnf } => check_proof(cnf, proof, *format, None)?,
    };
    let cnf = files.cnf().and_then(|path| {
        let name = path.file_name()?.to_string_lossy().into_owned();
        Some((name, path.to_path_buf()))
    });
    Ok((
        Proved {
            solver: outcome.solver,
            seconds: outcome.seconds,
            formula,
            cnf,
        },
        report,
    ))
}

/// An UNSAT answer (`Ok(true)`; `Ok(false)` is SAT, `Err` no answer and why), or why the
/// certification run refutes or leaves open the optimum `a`.
fn unsat_or_refuted(
    answer: Result<bool, String>,
    solver: &str,
    n: usize,
    a: usize,
) -> Result<(), SolveError> {
    match answer {
        Ok(true) => Ok(()),
        Ok(false) => Err(SolveError::from(EngineError::Certificate(format!(
            "{solver} found n = {n} satisfiable on the certification run: the claimed optimum {a} is wrong"
        )))),
        Err(reason) => Err(SolveError::from(EngineError::Certificate(format!(
            "the proof run for n = {n} gave no answer: {reason}"
        )))),
    }
}

/// What a search certificate's header claims (docs/search-certificate.md, section 3): no
/// labelling of the `d × d` board with `white` and `black` cells has its least pair's white
/// rows in `[lo, hi)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SearchClaim {
    d: usize,
    white: usize,
    black: usize,
    lo: u64,
    hi: u64,
}

impl SearchClaim {
    /// The claim of the whole step: `n` of each colour, every row set.
    fn whole(d: usize, n: usize) -> SearchClaim {
        SearchClaim {
            d,
            white: n,
            black: n,
            lo: 0,
            hi: 1u64 << d,
        }
    }
}

impl std::fmt::Display for SearchClaim {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let SearchClaim {
            d,
            white,
            black,
            lo,
            hi,
        } = *self;
        write!(
            f,
            "{white} white and {black} black on {d}x{d} for the row sets [{lo}, {hi})"
        )
    }
}

/// What a search certificate of the step `n` on `d × d` certifies, in words.
fn search_claim_words(d: usize, n: usize) -> String {
    format!(
        "no line labelling of the {d}x{d} board has {n} white and {n} black cells (the search certificate's header: board square {d}, armies {n} {n}, every white-row set; docs/search-certificate.md), so {n} white and {n} black queens do not fit"
    )
}

/// The claim in the header of the search certificate at `path` (its first lines, read
/// through xz, gzip or bzip2 when the file is packed; the rest is pq-check's to verify).
fn search_header(path: &Path) -> Result<SearchClaim, String> {
    use std::io::{BufRead, Read};
    let file = compress::open(path).map_err(|e| pq_io::os_message(&e))?;
    let mut lines = std::io::BufReader::new(file.take(4096)).lines().peekable();
    // The numbers of the next line, which must start with `key`.
    let mut next = |key: &str| -> Result<Vec<u64>, String> {
        // The paired-cells rule's line is there when the search used it.
        if key == "paired " && !matches!(lines.peek(), Some(Ok(l)) if l.starts_with(key)) {
            return Ok(Vec::new());
        }
        let line = lines
            .next()
            .transpose()
            .map_err(|e| pq_io::os_message(&e))?
            .unwrap_or_default();
        let rest = line
            .strip_prefix(key)
            .ok_or_else(|| format!("the header has no `{key}` line where it should"))?;
        // The rules' `P:Q` words are pq-check's to read: only their lines are required.
        if key == "weights " || key == "paired " {
            return Ok(Vec::new());
        }
        (rest.split(' '))
            .map(|w| {
                w.parse()
                    .map_err(|_| format!("`{line}` is not a header line"))
            })
            .collect()
    };
    let version = next("pq-search-certificate ")?;
    let board = next("board square ")?;
    let armies = next("armies ")?;
    next("symmetry ")?;
    next("weights ")?;
    next("paired ")?;
    let rows = next("rows ")?;
    // A cube's certificate (a `cube` line here) claims less than its rows say.
    let begin = lines
        .next()
        .transpose()
        .map_err(|e| pq_io::os_message(&e))?;
    if begin.as_deref() != Some("begin") {
        return Err("the header restricts the search to a cube, or does not end where it should: not the certificate of a whole step".into());
    }
    match (&version[..], &board[..], &armies[..], &rows[..]) {
        ([1], &[d], &[w, b], &[lo, hi]) => Ok(SearchClaim {
            d: d as usize,
            white: w as usize,
            black: b as usize,
            lo,
            hi,
        }),
        _ => Err("not the header of a search certificate of version 1".into()),
    }
}

/// What a certificate claims: `a(d) = k` for the peaceable queens, else the problem's
/// optimum in words. Derived, never read: checking a bundle compares the manifest's claim
/// with this.
pub fn claim(problem: &Problem, optimum: usize) -> String {
    if problem.shape().optimum_is_a_of_d().is_some() {
        format!("a({}) = {optimum}", problem.rules.layout.rows)
    } else {
        format!(
            "the optimum of {} ({}) is {optimum}",
            problem.name,
            problem.summary()
        )
    }
}

/// The names of a bundle's witness, CNF (a clausal proof's only) and proof files.
type Names = (String, Option<String>, String);

/// What a bundle's files establish, and the few settings the derivation starts from (the
/// problem, the optimum, the encoding options, the proof format and the file names): every
/// other field of a manifest follows from these.
struct Evidence<'a> {
    problem: &'a Problem,
    optimum: usize,
    /// The board at the optimum.
    witness: &'a Placement,
    /// The encoding's options, for a clausal proof.
    options: Option<&'a Options>,
    format: ProofFormat,
    /// pq-sat's encoding of `optimum + 1` (before [`arranged_for`]), for a clausal proof.
    formula: Option<&'a Formula>,
    /// The witness, CNF (a clausal proof's) and proof files' names.
    names: Names,
    /// The proof file's size.
    proof_bytes: u64,
    /// The checker that verified the proof, and its verdict line.
    checker: &'a str,
    verdict: &'a str,
}

/// What a manifest records but no file shows: who made the bundle and how long it took
/// (shown as written, never evidence of anything), and the three hashes (each compared
/// with its file by a check of its own).
struct Recorded {
    generator: String,
    witness_sha256: String,
    cnf_sha256: Option<String>,
    proof_sha256: String,
    solver: String,
    solve_seconds: f64,
    checker_version: Option<String>,
    check_seconds: f64,
}

/// The manifest that `evidence` supports: written by [`write_certificate`], and built again
/// by [`check_certificate`] to compare with the manifest it reads.
fn assemble(evidence: &Evidence, recorded: Recorded) -> Certificate {
    let Evidence {
        problem,
        optimum: a,
        witness,
        options,
        format,
        formula,
        names: (witness_file, cnf_name, proof_name),
        ..
    } = evidence;
    let (a, n) = (*a, *a + 1);
    let queens = specialised(problem);
    // A search certificate's pairs are the orbits of that group, pq-check's to compute.
    let grouped = options.is_none_or(|o| o.symmetry == Symmetry::LexLeader);
    let symmetry_group = grouped.then(|| {
        if options.is_none() {
            "the 16 maps generated by the 8 symmetries of the square and the swap of the two colours; pq-check computes each (S, T) pair's images itself and skips only the pairs that are not least in their orbit".to_string()
        } else if queens {
            "the 16 maps generated by the 8 symmetries of the square (rotations by 0, 90, 180, 270 degrees and 4 reflections) and the swap of the two colours; lex-leader constraints for the 15 non-identity elements".to_string()
        } else {
            format!(
                "the {} symmetries of the problem (board symmetries, translations on a torus, permutations of interchangeable groups); lex-leader constraints for {} non-identity elements",
                group_size(problem),
                symmetries(problem).len()
            )
        }
    });
    let statement = if queens {
        let d = problem.rules.layout.rows;
        format!(
            "{a} white and {a} black queens fit on a {d}x{d} board ({witness_file}); {n} do not"
        )
    } else {
        format!(
            "{} fits ({witness_file}); {} does not",
            problem.sized(a).summary(),
            problem.sized(n).summary()
        )
    };
    let symbols = Placement::symbols(&problem.rules);
    let counts: Vec<usize> = (0..problem.rules.groups.len())
        .map(|g| witness.count(g))
        .collect();
    Certificate {
        claim: claim(problem, a),
        statement: match cnf_name {
            Some(cnf_name) => format!(
                "{statement} ({cnf_name} is unsatisfiable: {proof_name}, checked by {})",
                evidence.checker
            ),
            None => format!(
                "{statement} ({proof_name}: the line engine's search for {n}, checked by {})",
                evidence.checker
            ),
        },
        dim: queens.then_some(problem.rules.layout.rows),
        problem: (!queens).then(|| problem.to_toml()),
        optimum: a,
        generator: recorded.generator,
        witness: Witness {
            file: witness_file.clone(),
            sha256: recorded.witness_sha256,
            board: witness.rows_as_strings(&symbols),
            white: queens.then(|| counts[0]),
            black: queens.then(|| counts[1]),
            counts,
            validated_by: "pq-board's independent validator (crates/board/src/rules.rs)".into(),
        },
        unsat: UnsatPart {
            n,
            cnf: cnf_name.clone(),
            cnf_sha256: recorded.cnf_sha256,
            variables: formula.map(|f| f.n_vars),
            clauses: formula.map(Formula::n_clauses),
            model: options.map(|o| o.model.name().into()),
            card: options.map(|o| o.card.name().into()),
            symmetry: options.map(|o| o.symmetry.name().into()),
            bounds: options.map_or(no_bounds(), |o| o.bounds.name().into()),
            certified_formula: match options {
                Some(options) => certified_formula(problem, options),
                None => search_claim_words(problem.rules.layout.rows, n),
            },
            symmetry_group,
            proof: proof_name.clone(),
            proof_sha256: recorded.proof_sha256,
            proof_format: format.name().into(),
            proof_bytes: evidence.proof_bytes,
            solver: recorded.solver,
            solve_seconds: recorded.solve_seconds,
            checker: evidence.checker.into(),
            checker_version: recorded.checker_version,
            check_seconds: recorded.check_seconds,
            verdict: evidence.verdict.into(),
        },
    }
}

/// The problem a manifest is about: the queens of `dim`, or its `problem` file.
fn problem_of(cert: &Certificate) -> Result<Problem, String> {
    match (&cert.problem, cert.dim) {
        (Some(text), _) => Problem::from_toml(text).map_err(|e| format!("problem: {e}")),
        (None, Some(d)) if (1..=pq_encode::MAX_DIM).contains(&d) => {
            Ok(Problem::peaceable_queens(d))
        }
        (None, Some(d)) => Err(format!("dim {d} is not a board size pq-sat handles")),
        (None, None) => Err("the manifest names neither dim nor problem".into()),
    }
}

/// `kissat 4.0.4`, `cadical 2.2.1`, ... as far as it can be found out; the line engine is
/// named alone (its version is pq-sat's, which the manifest states already).
fn solver_with_version(name: &str) -> String {
    let version = pq_solve::survey::survey()
        .into_iter()
        .find(|s| s.name == name && s.kind != "native")
        .and_then(|s| s.version);
    match version {
        Some(v) => format!("{name} {v}"),
        None => name.to_string(),
    }
}

/// One re-check of a bundle (`checks` in `check-certificate`'s JSON).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Item {
    /// What was checked, e.g. `sha256 witness.txt`.
    #[serde(rename = "check")]
    pub what: String,
    /// Whether the check passed.
    pub ok: bool,
    /// The evidence either way: the hash found, the validator's findings, the checker's
    /// verdict.
    pub detail: String,
}

/// The outcome of re-checking a bundle: what was derived from its files, and every check.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The manifest as read; its text is evidence of nothing, and is printed only where it
    /// disagrees with what the files show.
    pub manifest: Certificate,
    /// The claim derived from the manifest's problem and optimum, if those can be read.
    pub claim: Option<String>,
    /// The whole manifest as the files support it, when they hold together well enough to
    /// derive it (the witness board readable, the encoding options known, the proof run
    /// through its checker).
    pub derived: Option<Certificate>,
    /// Every check made, in order.
    pub items: Vec<Item>,
}

impl Checked {
    /// The bundle establishes its claim: everything was derived and every check passed.
    pub fn valid(&self) -> bool {
        self.derived.is_some() && self.items.iter().all(|i| i.ok)
    }
}

/// Re-checks the bundle in `dir` from its files alone: the hashes, the witness (lower
/// bound), the CNF against a fresh encoding of `optimum + 1`, the proof with the
/// independent checker (upper bound); then every field of the manifest against the one
/// derived from those files (`assemble`). The bundle is valid when every item is ok.
///
/// # Errors
/// A manifest that cannot be read or is not a certificate (unknown fields, a file name
/// that is not a plain name in `dir`, two parts naming the same file) is an error, as is
/// a failure to encode the formula.
pub fn check_certificate(
    dir: &Path,
    check_timeout: Option<Duration>,
) -> Result<Checked, SolveError> {
    let (cert, names) = read_manifest(dir)?;
    let mut checked = Checked {
        manifest: cert.clone(),
        claim: None,
        derived: None,
        items: Vec::new(),
    };
    let items = &mut checked.items;
    check_hashes(dir, &cert, items);
    let Some((problem, a)) = check_claim(&cert, items) else {
        return Ok(checked);
    };
    checked.claim = Some(claim(&problem, a));
    let items = &mut checked.items;
    let witness = check_witness(dir, &cert, &problem, a, items);
    let format: Result<ProofFormat, String> = cert.unsat.proof_format.parse();
    // A clausal proof refutes a formula, which must be pq-sat's encoding; a search
    // certificate states its claim in its header, which must be the step's.
    let (options, formula) = match format {
        Ok(ProofFormat::Search) => {
            check_search_claim(dir, &cert, &problem, a + 1, items);
            (None, None)
        }
        Ok(format) => {
            let options = parse_options(&cert.unsat)
                .map_err(|e| record(items, "encoding options", false, e))
                .ok();
            let formula = match &options {
                Some(options) => {
                    check_formula(dir, &cert, &problem, a + 1, options, format, items)?
                }
                None => None,
            };
            (options, formula)
        }
        Err(_) => (None, None),
    };
    let clausal = !matches!(format, Ok(ProofFormat::Search));
    let report = match format {
        Ok(format) => check_unsat_proof(dir, &cert, format, check_timeout, items)
            .map(|report| (format, report)),
        Err(e) => {
            record(items, "proof format", false, e);
            None
        }
    };
    let (Some(witness), Some((format, report))) = (witness, report) else {
        return Ok(checked);
    };
    if clausal && (options.is_none() || formula.is_none()) {
        return Ok(checked);
    }
    let proof_path = dir.join(&cert.unsat.proof);
    let proof_bytes = fs::metadata(&proof_path)
        .map_err(SolveError::io(&proof_path))?
        .len();
    let evidence = Evidence {
        problem: &problem,
        optimum: a,
        witness: &witness,
        options: options.as_ref(),
        format,
        formula: formula.as_ref(),
        names,
        proof_bytes,
        checker: &report.checker,
        verdict: &report.verdict,
    };
    checked.derived = Some(check_fields(dir, &cert, evidence, &mut checked.items));
    Ok(checked)
}

/// Adds one check to `items`; a multi-line message (a TOML parse error) is joined into one
/// line.
fn record(items: &mut Vec<Item>, what: &str, ok: bool, detail: String) {
    let detail = detail
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    items.push(Item {
        what: what.into(),
        ok,
        detail,
    });
}

/// The manifest of the bundle in `dir`, and the names of its three parts, each a plain
/// file inside `dir` under a name of its own.
fn read_manifest(dir: &Path) -> Result<(Certificate, Names), SolveError> {
    let path = dir.join(MANIFEST);
    let refused = |why: String| SolveError::from(EngineError::Certificate(why));
    let bytes = pq_io::output::read_regular(&path, pq_io::output::MAX_TEXT_INPUT)?;
    let text = String::from_utf8_lossy(&bytes);
    let cert: Certificate = serde_json::from_str(&text)
        .map_err(|e| refused(format!("{}: not a pq-sat certificate: {e}", path.display())))?;
    let names: Vec<String> = [
        Some(&cert.witness.file),
        cert.unsat.cnf.as_ref(),
        Some(&cert.unsat.proof),
    ]
    .into_iter()
    .flatten()
    .cloned()
    .collect();
    distinct_plain_names(&names).map_err(|e| {
        refused(format!(
            "{}: {e}; a certificate names only files in its own directory",
            path.display()
        ))
    })?;
    // A part that is a link could lead out of the bundle, and a FIFO or a device would
    // block the hash or never end it: a bundle's parts are plain files.
    for name in &names {
        let part = dir.join(name);
        let meta = fs::symlink_metadata(&part).map_err(SolveError::io(&part))?;
        if !meta.file_type().is_file() {
            return Err(refused(format!(
                "{}: a bundle's parts are plain files, and this one is {}",
                part.display(),
                if meta.file_type().is_symlink() {
                    "a link"
                } else {
                    "not a regular file (a FIFO, a device or a socket)"
                }
            )));
        }
    }
    let names = (
        cert.witness.file.clone(),
        cert.unsat.cnf.clone(),
        cert.unsat.proof.clone(),
    );
    Ok((cert, names))
}

/// Every file is the one the manifest describes: hashed as it is stored (compressed, when
/// someone packed the bundle with xz, gzip or bzip2; every part is read through that).
fn check_hashes(dir: &Path, cert: &Certificate, items: &mut Vec<Item>) {
    let cnf = match (&cert.unsat.cnf, &cert.unsat.cnf_sha256) {
        (Some(file), Some(hash)) => Some((file, hash)),
        _ => None,
    };
    let parts = [
        Some((&cert.witness.file, &cert.witness.sha256)),
        cnf,
        Some((&cert.unsat.proof, &cert.unsat.proof_sha256)),
    ];
    for (file, expected) in parts.into_iter().flatten() {
        let (ok, detail) = match sha256_file(&dir.join(file)) {
            Ok(h) if &h == expected => (true, h),
            Ok(h) => (
                false,
                format!(
                    "{h}, but the manifest says {}",
                    pq_io::output::shown(expected)
                ),
            ),
            Err(e) => (false, e.to_string()),
        };
        record(items, &format!("sha256 {file}"), ok, detail);
    }
}

/// The problem and the optimum the manifest claims, when they can be read and the
/// optimum fits on the board (a hostile one must not reach the encoder).
fn check_claim(cert: &Certificate, items: &mut Vec<Item>) -> Option<(Problem, usize)> {
    let problem = problem_of(cert)
        .map_err(|e| record(items, "the problem", false, e))
        .ok()?;
    // The manifest's sizes take the same checked path as every size from outside: a lying
    // one must not overflow `optimum + 1` below.
    for (what, v) in [("optimum", cert.optimum), ("unsat.n", cert.unsat.n)] {
        if let Err(e) = pq_board::limits::PIECES.named(what).check(v) {
            record(items, "the manifest's sizes", false, e.to_string());
            return None;
        }
    }
    // A witness has `optimum` pieces in each maximised group, so it is at most the number
    // of squares.
    let a = cert.optimum;
    let layout = &problem.rules.layout;
    let squares = layout.rows.saturating_mul(layout.cols);
    if a > squares {
        record(
            items,
            "the optimum fits on the board",
            false,
            format!("the manifest's optimum is {a}, but the board has {squares} squares"),
        );
        return None;
    }
    Some((problem, a))
}

/// The lower bound: the board in the manifest is the one in the file, and it obeys the
/// rules with `a` pieces in each maximised group.
fn check_witness(
    dir: &Path,
    cert: &Certificate,
    problem: &Problem,
    a: usize,
    items: &mut Vec<Item>,
) -> Option<Placement> {
    let symbols = Placement::symbols(&problem.rules);
    let layout = &problem.rules.layout;
    let p = Placement::from_rows(layout, &cert.witness.board, &symbols)
        .map_err(|e| record(items, "witness board", false, e))
        .ok()?;
    let same_file = read_text(&dir.join(&cert.witness.file))
        .is_ok_and(|t| t == p.to_labelled_text(&symbols).as_bytes());
    record(
        items,
        "witness file matches the manifest's board",
        same_file,
        cert.witness.file.clone(),
    );
    let counts: Vec<Option<usize>> = problem.demands(a).into_iter().map(Some).collect();
    let (ok, detail) = match pq_board::rules::check_placement(&problem.rules, &p, &counts) {
        Ok(()) => (true, format!("{}: no attacks", problem.sized(a).summary())),
        Err(v) => (false, crate::capability::outcome::findings(&v)),
    };
    record(
        items,
        "witness obeys the rules at the optimum (independent validator)",
        ok,
        detail,
    );
    Some(p)
}

/// The CNF is exactly pq-sat's encoding of the problem at `n`, one above the optimum;
/// returns that encoding.
fn check_formula(
    dir: &Path,
    cert: &Certificate,
    problem: &Problem,
    n: usize,
    options: &Options,
    format: ProofFormat,
    items: &mut Vec<Item>,
) -> Result<Option<pq_encode::Formula>, SolveError> {
    let what = format!("the CNF is the encoding of {}", problem.sized(n).summary());
    let Some(cnf) = &cert.unsat.cnf else {
        let why = format!(
            "a {} proof refutes a formula, and the manifest names no CNF",
            format.name().to_uppercase()
        );
        record(items, &what, false, why);
        return Ok(None);
    };
    let formula = encode_problem(problem, n, options);
    let mut bytes = Vec::new();
    dimacs::write(&arranged_for(&formula, format), &mut bytes)
        .map_err(SolveError::io(&dir.join(cnf)))?;
    // The file itself, not the manifest's word for it, is compared (its DIMACS text when
    // it is compressed).
    let h = sha256_hex(&bytes);
    let cnf_hash = read_text(&dir.join(cnf)).map(|t| sha256_hex(&t));
    let ok = cnf_hash.is_ok_and(|c| c == h);
    let detail = if ok {
        let bounds = match options.bounds {
            pq_encode::Bounds::None => String::new(),
            b => format!(" bounds {b}"),
        };
        format!(
            "re-encoded with {} {}{bounds}: identical",
            options.model, options.symmetry
        )
    } else {
        format!(
            "a fresh encoding hashes to {h}: the CNF is not the claimed formula (or was made by another pq-sat version: {})",
            pq_io::output::shown(&cert.generator)
        )
    };
    record(items, &what, ok, detail);
    Ok(Some(formula))
}

/// A search certificate's header claims exactly the step `n` on the problem's board, every
/// white-row set (pq-check verifies the rest).
fn check_search_claim(
    dir: &Path,
    cert: &Certificate,
    problem: &Problem,
    n: usize,
    items: &mut Vec<Item>,
) {
    let what = "the search certificate's header claims the step one above the optimum";
    if !pq_solve::lines::decides(problem) {
        let why = "search certificates cover the peaceable queens on a square board";
        record(items, what, false, why.into());
        return;
    }
    let d = problem.rules.layout.rows;
    let path = dir.join(&cert.unsat.proof);
    let expected = SearchClaim::whole(d, n);
    let (ok, detail) = match search_header(&path) {
        Ok(claim) if claim == expected => (true, format!("{claim}")),
        Ok(claim) => (false, format!("it claims {claim}, the step is {expected}")),
        Err(e) => (false, e),
    };
    record(items, what, ok, detail);
}

/// The upper bound: the proof, by the independent checker, which reads plain files only:
/// compressed parts are checked as plain copies.
fn check_unsat_proof(
    dir: &Path,
    cert: &Certificate,
    format: ProofFormat,
    check_timeout: Option<Duration>,
    items: &mut Vec<Item>,
) -> Option<CheckReport> {
    let plain = |file: &str| {
        let path = dir.join(file);
        compress::plain_file(&path).map_err(SolveError::io(&path))
    };
    let checked = plain(&cert.unsat.proof).and_then(|proof| match &cert.unsat.cnf {
        Some(cnf) => check_proof(plain(cnf)?.path(), proof.path(), format, check_timeout),
        // A search certificate has no formula beside it: the checker reads the proof alone.
        None => check_proof(proof.path(), proof.path(), format, check_timeout),
    });
    match checked {
        Ok(r) => {
            let note = r
                .note
                .as_ref()
                .map(|n| format!("; {n}"))
                .unwrap_or_default();
            record(
                items,
                &format!(
                    "{} proof checked by {}",
                    format.name().to_uppercase(),
                    r.checker
                ),
                r.verified,
                format!("{} ({:.2} s){note}", r.verdict, r.seconds),
            );
            Some(r)
        }
        Err(e) => {
            record(items, "proof check", false, e.to_string());
            None
        }
    }
}

/// Every other field of the manifest is what the files show: the manifest derived from
/// `evidence`, compared field by field, and the solver's name against the proof's form.
fn check_fields(
    dir: &Path,
    cert: &Certificate,
    evidence: Evidence<'_>,
    items: &mut Vec<Item>,
) -> Certificate {
    let proof_path = dir.join(&cert.unsat.proof);
    let derived = assemble(
        &evidence,
        Recorded {
            generator: cert.generator.clone(),
            witness_sha256: cert.witness.sha256.clone(),
            cnf_sha256: cert.unsat.cnf_sha256.clone(),
            proof_sha256: cert.unsat.proof_sha256.clone(),
            solver: cert.unsat.solver.clone(),
            solve_seconds: cert.unsat.solve_seconds,
            checker_version: cert.unsat.checker_version.clone(),
            check_seconds: cert.unsat.check_seconds,
        },
    );
    let mut differences = Vec::new();
    let as_json = |c: &Certificate| serde_json::to_value(c).expect("a certificate serialises");
    differ("", &as_json(cert), &as_json(&derived), &mut differences);
    if differences.is_empty() {
        record(
            items,
            "every field of the manifest follows from the files",
            true,
            "claim, statement, problem, witness, encoding, certified_formula: identical".into(),
        );
    }
    for (field, said, shows) in differences {
        record(
            items,
            &format!("the manifest's {field} follows from the files"),
            false,
            format!("the manifest says {said}, the files show {shows}"),
        );
    }
    // The solver's name is recorded, not derived; but the proof's form tells the line
    // engine's (binary DRAT, or a search certificate) from the SAT solvers' that pq-sat
    // runs (text DRAT or LRAT).
    let binary = read_start(&proof_path).is_ok_and(|start| start.contains(&0));
    let engine = cert.unsat.solver.split_whitespace().next() == Some("lines");
    if evidence.format == ProofFormat::Search {
        if !engine {
            record(
                items,
                "the manifest's unsat.solver fits the proof",
                false,
                format!(
                    "the manifest says {}, but a search certificate is the line engine's (lines)",
                    cert.unsat.solver
                ),
            );
        }
    } else if binary != engine {
        record(
            items,
            "the manifest's unsat.solver fits the proof",
            false,
            format!(
                "the manifest says {}, but the proof is {} DRAT, which {} writes",
                cert.unsat.solver,
                if binary { "binary" } else { "text" },
                if binary {
                    "the line engine (lines)"
                } else {
                    "a SAT solver, not the line engine,"
                }
            ),
        );
    }
    derived
}

/// The first bytes of a bundle's file (decompressed), enough to tell binary from text.
fn read_start(path: &Path) -> std::io::Result<Vec<u8>> {
    let mut start = Vec::new();
    compress::open(path)?.take(4096).read_to_end(&mut start)?;
    Ok(start)
}

/// The contents of a bundle's file, decompressed when it is compressed.
fn read_text(path: &Path) -> std::io::Result<Vec<u8>> {
    let mut text = Vec::new();
    compress::open(path)?.read_to_end(&mut text)?;
    Ok(text)
}

/// Collects the fields (dotted paths below `path`) where `said` and `shows` differ, each
/// with both values as one line of JSON (cut short when long).
fn differ(
    path: &str,
    said: &serde_json::Value,
    shows: &serde_json::Value,
    out: &mut Vec<(String, String, String)>,
) {
    use serde_json::Value;
    if let (Value::Object(a), Value::Object(b)) = (said, shows) {
        let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
        keys.sort();
        keys.dedup();
        for k in keys {
            let field = if path.is_empty() {
                k.clone()
            } else {
                format!("{path}.{k}")
            };
            let none = Value::Null;
            differ(
                &field,
                a.get(k).unwrap_or(&none),
                b.get(k).unwrap_or(&none),
                out,
            );
        }
    } else if said != shows {
        // Two long texts are shown from a little before where they part.
        let skip = match (said, shows) {
            (Value::String(a), Value::String(b)) => a
                .chars()
                .zip(b.chars())
                .take_while(|(x, y)| x == y)
                .count()
                .saturating_sub(30),
            _ => 0,
        };
        out.push((
            path.to_string(),
            pq_io::output::shown_json_from(said, skip),
            pq_io::output::shown_json_from(shows, skip),
        ));
    }
}

fn parse_options(u: &UnsatPart) -> Result<Options, String> {
    let stated = |what: &str, value: &Option<String>| {
        value
            .clone()
            .ok_or_else(|| format!("the manifest states no {what} for the CNF's encoding"))
    };
    Ok(Options {
        model: stated("model", &u.model)?.parse::<Model>()?,
        card: stated("card", &u.card)?.parse::<Card>()?,
        symmetry: stated("symmetry", &u.symmetry)?.parse::<Symmetry>()?,
        bounds: u.bounds.parse::<pq_encode::Bounds>()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn certificate_fields_that_differ_are_named_on_one_line() {
        let said = json!({"claim": "a(5) = 7", "unsat": {"n": 5, "note": "x\ny"}, "dim": 5});
        let shows = json!({"claim": "a(5) = 4", "unsat": {"n": 5}, "dim": 5, "problem": null});
        let mut out = Vec::new();
        differ("", &said, &shows, &mut out);
        assert_eq!(
            out,
            vec![
                (
                    "claim".into(),
                    r#""a(5) = 7""#.into(),
                    r#""a(5) = 4""#.into()
                ),
                ("unsat.note".into(), r#""x\ny""#.into(), "nothing".into()),
            ]
        );
        // Long texts are shown from shortly before they part, cut short.
        let a = format!("{}X{}", "=".repeat(200), "-".repeat(200));
        let b = format!("{}Y{}", "=".repeat(200), "-".repeat(200));
        let mut out = Vec::new();
        differ("s", &json!(a), &json!(b), &mut out);
        let (_, said, shows) = &out[0];
        assert!(said.starts_with("\"…=") && said.contains('X'), "{said}");
        assert!(shows.contains('Y') && shows.ends_with('…'), "{shows}");
        assert!(said.chars().count() <= 101, "{said}");
    }
}
