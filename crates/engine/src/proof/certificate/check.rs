//! A bundle checked from its files alone: hashes, the witness by the independent
//! validator, the CNF against a fresh encoding of the claim, the proof by its checker, and
//! every manifest field against the one the evidence supports.

use std::fs;
use std::io::Read;
use std::path::Path;
use std::time::Duration;

use pq_board::placement::Placement;
use pq_encode::general::encode_problem;
use pq_encode::spec::Problem;
use pq_encode::{dimacs, Card, Model, Options, Symmetry};
use pq_io::compress;
use pq_io::hashing::{sha256_file, sha256_hex};
use pq_io::staging::distinct_plain_names;
use pq_solve::error::SolveError;
use serde::{Deserialize, Serialize};

use super::{
    assemble, claim, problem_of, search_header, Certificate, Evidence, Names, Recorded,
    SearchClaim, UnsatPart, MANIFEST,
};
use crate::error::EngineError;
use crate::proof::{arranged_for, check_proof, CheckReport, ProofFormat};

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
