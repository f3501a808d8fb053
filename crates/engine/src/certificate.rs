//! Certificate bundles for the optimum of any problem (a(d) for the peaceable queens): the
//! witness placement at the optimum, the CNF and a checked proof of unsatisfiability one
//! above it, and a manifest (`certificate.json`) with the problem, versions, encodings,
//! hashes and check times. [`check_certificate`] re-checks a bundle from its files
//! alone: hashes, the witness with the independent validator, the CNF against a fresh
//! encoding of the claim, and the proof with the independent checker.

use std::fs;
use std::path::Path;
use std::time::Duration;

use pq_board::placement::Placement;
use pq_encode::general::{encode_problem, group_size, is_peaceable_queens, symmetries};
use pq_encode::spec::Problem;
use pq_encode::{dimacs, Card, Model, Options, Symmetry};
use serde::{Deserialize, Serialize};

use crate::family::{check_target, move_into_place, sha256_file, sha256_hex, stage};
use crate::proof::{arranged_for, certified_formula, check_proof, prove, ProofFormat};
use pq_solve::backend::BackendSpec;
use pq_solve::control::Limits;
use pq_solve::error::SolveError;
use pq_solve::Answer;

/// The manifest file of a bundle.
pub const MANIFEST: &str = "certificate.json";
const WITNESS: &str = "witness.txt";

/// `certificate.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
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
pub struct UnsatPart {
    /// The army size shown not to fit: `optimum + 1`.
    pub n: usize,
    /// The CNF file's name within the bundle.
    pub cnf: String,
    /// SHA-256 of the CNF file, lower-case hex.
    pub cnf_sha256: String,
    /// The number of variables of the encoding.
    pub variables: u32,
    /// The number of clauses of the encoding.
    pub clauses: usize,
    /// The attack model's name (see [`Model`]); re-checking encodes with it again.
    pub model: String,
    /// The cardinality encoding's name (see [`Card`]).
    pub card: String,
    /// The symmetry breaking's name (see [`Symmetry`]).
    pub symmetry: String,
    /// What exactly the proof certifies (see [`certified_formula`]).
    pub certified_formula: String,
    /// The symmetry group the breaking clauses are built for, if any.
    pub symmetry_group: Option<String>,
    /// The proof file's name within the bundle.
    pub proof: String,
    /// SHA-256 of the proof file, lower-case hex.
    pub proof_sha256: String,
    /// `drat` or `lrat` (see [`ProofFormat`]).
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

/// What to certify: the optimum of `problem` is `optimum`, with `witness` (exactly `optimum`
/// pieces in each maximised group), the UNSAT step encoded with `options` and proved by
/// `prover`.
pub struct Request<'a> {
    /// The problem (the peaceable queens: [`Problem::peaceable_queens`]).
    pub problem: &'a Problem,
    /// The claimed optimum.
    pub optimum: usize,
    /// A placement at the optimum; validated before anything is written.
    pub witness: &'a Placement,
    /// The encoding of the UNSAT step, `optimum + 1` queens of each colour.
    pub options: Options,
    /// The solver that writes the proof.
    pub prover: BackendSpec,
    /// The proof format, which decides the checker.
    pub format: ProofFormat,
    /// The limits of the proof-writing solve.
    pub solve_limits: Limits,
}

/// Writes the bundle into `dir` (which must not exist, or be empty), atomically: everything
/// is staged beside it and renamed into place once the proof has been checked (the checker
/// runs without a time limit).
pub fn write_certificate(dir: &Path, req: &Request) -> Result<Certificate, SolveError> {
    check_target(dir)?;
    let (problem, a) = (req.problem, req.optimum);
    if problem.maximised().is_empty() {
        return Err(SolveError::Invalid(
            "the problem maximises no group: there is no optimum to certify".into(),
        ));
    }
    let (trimmed, _) = crate::pipeline::validated(problem, a, req.witness, "the optimiser")?;
    if &trimmed != req.witness {
        return Err(SolveError::Invalid(format!(
            "the witness does not have exactly {a} pieces in each maximised group"
        )));
    }
    let queens = is_peaceable_queens(problem);
    let parent = crate::proof::beside(dir, ".");
    let staging = stage(dir, &parent, ".pq-certificate-")?;
    let s = staging.path();

    let symbols = Placement::symbols(&problem.rules);
    let witness_text = req.witness.to_labelled_text(&symbols);
    fs::write(s.join(WITNESS), &witness_text).map_err(SolveError::io(&s.join(WITNESS)))?;

    let n = a + 1;
    let formula = encode_problem(problem, n, &req.options);
    let stem = if queens {
        format!("unsat-d{:02}-n{n:03}", problem.rules.layout.rows)
    } else {
        format!("unsat-n{n:03}")
    };
    let (cnf_name, proof_name) = (
        format!("{stem}.cnf"),
        format!("{stem}.{}", req.format.name()),
    );
    let (cnf_path, proof_path) = (s.join(&cnf_name), s.join(&proof_name));
    let proved = prove(
        &req.prover,
        &formula,
        &cnf_path,
        &proof_path,
        req.format,
        &req.solve_limits,
    )?;
    match &proved.answer {
        Answer::Unsat => {}
        Answer::Sat(_) => {
            return Err(SolveError::Invalid(format!(
                "{} found n = {n} satisfiable on the certification run: the claimed optimum {a} is wrong",
                proved.solver
            )))
        }
        Answer::Unknown(reason) => {
            return Err(SolveError::Invalid(format!(
                "the proof run for n = {n} gave no answer: {reason}"
            )))
        }
    }
    let report = check_proof(&cnf_path, &proof_path, req.format, None)?;
    if !report.verified {
        return Err(SolveError::Invalid(format!(
            "the {} proof from {} was not verified by {}: {}{}",
            req.format.name().to_uppercase(),
            proved.solver,
            report.checker,
            report.verdict,
            report.note.map(|n| format!(" ({n})")).unwrap_or_default()
        )));
    }
    let symmetry_group = (req.options.symmetry == Symmetry::LexLeader).then(|| {
        if queens {
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
        format!("{a} white and {a} black queens fit on a {d}x{d} board ({WITNESS}); {n} do not")
    } else {
        format!(
            "{} fits ({WITNESS}); {} does not",
            problem.sized(a).summary(),
            problem.sized(n).summary()
        )
    };
    let counts: Vec<usize> = (0..problem.rules.groups.len())
        .map(|g| req.witness.count(g))
        .collect();
    let cert = Certificate {
        claim: claim(problem, a),
        statement: format!(
            "{statement} ({cnf_name} is unsatisfiable: {proof_name}, checked by {})",
            report.checker
        ),
        dim: queens.then_some(problem.rules.layout.rows),
        problem: (!queens).then(|| problem.to_toml()),
        optimum: a,
        generator: format!("pq-sat {}", env!("CARGO_PKG_VERSION")),
        witness: Witness {
            file: WITNESS.into(),
            sha256: sha256_hex(witness_text.as_bytes()),
            board: req.witness.rows_as_strings(&symbols),
            white: queens.then_some(counts[0]),
            black: queens.then_some(counts[1]),
            counts,
            validated_by: "pq-board's independent validator (crates/board/src/rules.rs)".into(),
        },
        unsat: UnsatPart {
            n,
            cnf: cnf_name,
            cnf_sha256: sha256_file(&cnf_path).map_err(SolveError::io(&cnf_path))?,
            variables: formula.n_vars,
            clauses: formula.n_clauses(),
            model: req.options.model.name().into(),
            card: req.options.card.name().into(),
            symmetry: req.options.symmetry.name().into(),
            certified_formula: certified_formula(problem, &req.options),
            symmetry_group,
            proof: proof_name,
            proof_sha256: sha256_file(&proof_path).map_err(SolveError::io(&proof_path))?,
            proof_format: req.format.name().into(),
            proof_bytes: proved.proof_bytes.unwrap_or(0),
            solver: solver_with_version(&proved.solver),
            solve_seconds: proved.seconds,
            checker: report.checker,
            checker_version: report.checker_version,
            check_seconds: report.seconds,
            verdict: report.verdict,
        },
    };
    let json = serde_json::to_string_pretty(&cert).expect("a certificate serialises") + "\n";
    fs::write(s.join(MANIFEST), json).map_err(SolveError::io(&s.join(MANIFEST)))?;
    move_into_place(staging, dir)?;
    Ok(cert)
}

/// What a certificate claims: `a(d) = k` for the peaceable queens, else the problem's
/// optimum in words. Derived, never read: checking a bundle compares the manifest's claim
/// with this.
pub fn claim(problem: &Problem, optimum: usize) -> String {
    if is_peaceable_queens(problem) && problem.maximised().len() == 2 {
        format!("a({}) = {optimum}", problem.rules.layout.rows)
    } else {
        format!(
            "the optimum of {} ({}) is {optimum}",
            problem.name,
            problem.summary()
        )
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

/// `kissat 4.0.4`, `cadical 2.2.1`, ... as far as it can be found out.
fn solver_with_version(name: &str) -> String {
    let version = pq_solve::survey::survey()
        .into_iter()
        .find(|s| s.name == name)
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

/// Re-checks the bundle in `dir` from its files alone. Returns the manifest (if readable)
/// and every check made; the bundle is valid when every item is ok.
pub fn check_certificate(
    dir: &Path,
    check_timeout: Option<Duration>,
) -> Result<(Certificate, Vec<Item>), SolveError> {
    let path = dir.join(MANIFEST);
    let text = fs::read_to_string(&path).map_err(SolveError::io(&path))?;
    let cert: Certificate = serde_json::from_str(&text).map_err(|e| {
        SolveError::Invalid(format!("{}: not a pq-sat certificate: {e}", path.display()))
    })?;
    let mut items = Vec::new();
    let mut item = |what: &str, ok: bool, detail: String| {
        items.push(Item {
            what: what.into(),
            ok,
            detail,
        })
    };

    // Every file is the one the manifest describes.
    for (file, expected) in [
        (&cert.witness.file, &cert.witness.sha256),
        (&cert.unsat.cnf, &cert.unsat.cnf_sha256),
        (&cert.unsat.proof, &cert.unsat.proof_sha256),
    ] {
        let (ok, detail) = match sha256_file(&dir.join(file)) {
            Ok(h) if &h == expected => (true, h),
            Ok(h) => (false, format!("{h}, but the manifest says {expected}")),
            Err(e) => (false, e.to_string()),
        };
        item(&format!("sha256 {file}"), ok, detail);
    }

    let problem = match problem_of(&cert) {
        Ok(p) => p,
        Err(e) => {
            item("the problem", false, e);
            return Ok((cert, items));
        }
    };
    // The manifest's sizes take the same checked path as every size from outside: a lying
    // one must not overflow `optimum + 1` below.
    for (what, v) in [("optimum", cert.optimum), ("unsat.n", cert.unsat.n)] {
        if let Err(e) = pq_board::limits::PIECES.named(what).check(v) {
            item("the manifest's sizes", false, e.to_string());
            return Ok((cert, items));
        }
    }
    let a = cert.optimum;
    let derived = claim(&problem, a);
    item(
        "the claim follows from the problem and the optimum",
        derived == cert.claim,
        if derived == cert.claim {
            derived
        } else {
            format!(
                "the manifest claims '{}', its data say '{derived}'",
                cert.claim
            )
        },
    );

    // The witness: the board in the manifest is the one in the file, and it obeys the
    // rules with `optimum` pieces in each maximised group.
    let symbols = Placement::symbols(&problem.rules);
    match Placement::from_rows(&problem.rules.layout, &cert.witness.board, &symbols) {
        Ok(p) => {
            let same_file = fs::read_to_string(dir.join(&cert.witness.file))
                .is_ok_and(|t| t == p.to_labelled_text(&symbols));
            item(
                "witness file matches the manifest's board",
                same_file,
                cert.witness.file.clone(),
            );
            let counts: Vec<Option<usize>> = problem.demands(a).into_iter().map(Some).collect();
            let (ok, detail) = match pq_board::rules::check_placement(&problem.rules, &p, &counts) {
                Ok(()) => (true, format!("{}: no attacks", problem.sized(a).summary())),
                Err(v) => (false, crate::pipeline::findings(&v)),
            };
            item(
                "witness obeys the rules at the optimum (independent validator)",
                ok,
                detail,
            );
        }
        Err(e) => item("witness board", false, e),
    }

    // The CNF is exactly pq-sat's encoding of the problem one above the optimum.
    let n = cert.unsat.n;
    match parse_options(&cert.unsat) {
        Ok(options) if n == a + 1 => {
            let format: ProofFormat = cert.unsat.proof_format.parse().unwrap_or_default();
            let fresh = arranged_for(&encode_problem(&problem, n, &options), format);
            let mut bytes = Vec::new();
            dimacs::write(&fresh, &mut bytes)
                .map_err(SolveError::io(&dir.join(&cert.unsat.cnf)))?;
            let h = sha256_hex(&bytes);
            let ok = h == cert.unsat.cnf_sha256;
            let detail = if ok {
                format!(
                    "re-encoded with {} {}: identical",
                    cert.unsat.model, cert.unsat.symmetry
                )
            } else {
                format!("a fresh encoding hashes to {h}: the CNF is not the claimed formula (or was made by another pq-sat version: {})", cert.generator)
            };
            item(
                &format!("the CNF is the encoding of {}", problem.sized(n).summary()),
                ok,
                detail,
            );
            let certified = certified_formula(&problem, &options);
            item(
                "certified_formula says what the CNF is",
                certified == cert.unsat.certified_formula,
                if certified == cert.unsat.certified_formula {
                    "derived from the encoding options: identical".into()
                } else {
                    format!("the options say: {certified}")
                },
            );
        }
        Err(e) => item("encoding options", false, e),
        Ok(_) => item(
            "the UNSAT step is one above the optimum",
            false,
            format!("n = {n}, optimum {a}"),
        ),
    }

    // The proof, by the independent checker.
    let format: Result<ProofFormat, String> = cert.unsat.proof_format.parse();
    match format {
        Ok(format) => match check_proof(
            &dir.join(&cert.unsat.cnf),
            &dir.join(&cert.unsat.proof),
            format,
            check_timeout,
        ) {
            Ok(r) => item(
                &format!(
                    "{} proof checked by {}",
                    format.name().to_uppercase(),
                    r.checker
                ),
                r.verified,
                format!(
                    "{} ({:.2} s){}",
                    r.verdict,
                    r.seconds,
                    r.note.map(|n| format!("; {n}")).unwrap_or_default()
                ),
            ),
            Err(e) => item("proof check", false, e.to_string()),
        },
        Err(e) => item("proof format", false, e),
    }
    Ok((cert, items))
}

fn parse_options(u: &UnsatPart) -> Result<Options, String> {
    Ok(Options {
        model: u.model.parse::<Model>()?,
        card: u.card.parse::<Card>()?,
        symmetry: u.symmetry.parse::<Symmetry>()?,
    })
}
