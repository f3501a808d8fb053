//! Certificate bundles for the optimum of any problem (a(d) for the peaceable queens): the
//! witness placement at the optimum, the CNF and a checked proof of unsatisfiability one
//! above it, and a manifest (`certificate.json`) with the problem, versions, encodings,
//! hashes and check times. [`check_certificate`] re-checks a bundle from its files
//! alone: hashes, the witness with the independent validator, the CNF against a fresh
//! encoding of the claim, and the proof with the independent checker. Claims are derived,
//! never read: the writer and the checker build the manifest with the same function
//! (`assemble`) from the evidence, so every field the checker can derive it compares, and
//! any disagreement makes the bundle invalid.
//!
//! Here: the manifest and the claim both sides derive it from; `write`: a bundle made
//! (`write_certificate`); `check`: a bundle checked from its files
//! ([`check_certificate`]).

mod check;
mod write;

pub use check::{check_certificate, Checked, Item};
pub(crate) use write::write_certificate;
pub use write::Request;

use std::path::Path;

use pq_board::placement::Placement;
use pq_encode::general::{group_size, specialised, symmetries};
use pq_encode::spec::Problem;
use pq_encode::{Formula, Options, Symmetry};
use serde::{Deserialize, Serialize};

use crate::proof::{certified_formula, ProofFormat};
use pq_io::compress;

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
    /// The attack model's name (see [`pq_encode::Model`]); re-checking encodes with it again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The cardinality encoding's name (see [`pq_encode::Card`]).
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
