//! What `pq-sat solve` prints: a readable board and summary (text), or one JSON object.
//! Progress goes to stderr; stdout carries only the answer.

use std::io::{self, Write};

use anyhow::Result;
use pq_board::Board;
use pq_encode::{Formula, Instance, Options};
use pq_engine::optimise::OptimiseOutcome;
use pq_engine::{Outcome, Status};
use serde_json::{json, Map, Value};

use std::path::{Path, PathBuf};

use crate::cli::Format;
use pq_engine::certificate::{Certificate, Item};
use pq_engine::proof::{CheckReport, ProofFormat};

fn emit_json(value: &Value) -> Result<()> {
    let mut out = io::stdout().lock();
    serde_json::to_writer(&mut out, value)?;
    writeln!(out)?;
    Ok(())
}

fn emit_text(text: &str) -> Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

fn encoding_fields(map: &mut Map<String, Value>, options: &Options) {
    map.insert("model".into(), json!(options.model.name()));
    map.insert("card".into(), json!(options.card.name()));
    map.insert("symmetry".into(), json!(options.symmetry.name()));
}

/// The validated placement of a queens answer, as a board.
pub fn board_of(outcome: &Outcome) -> Option<Board> {
    outcome.placement.as_ref().and_then(Board::from_placement)
}

fn board_json(board: &Board) -> Value {
    json!(board.rows_as_strings())
}

/// A proof requested with `--proof`: where it went (only on UNSAT) and what it certifies.
pub struct ProofInfo {
    pub proof: PathBuf,
    pub cnf: PathBuf,
    pub format: ProofFormat,
    /// Bytes written; `None` when no proof was written (not UNSAT).
    pub bytes: Option<u64>,
    pub certifies: String,
}

impl ProofInfo {
    pub fn json(&self) -> Value {
        match self.bytes {
            Some(bytes) => json!({
                "file": self.proof.display().to_string(),
                "cnf": self.cnf.display().to_string(),
                "format": self.format.name(),
                "bytes": bytes,
                "certifies": self.certifies,
            }),
            None => json!({
                "file": null,
                "note": "no proof written: only an UNSAT answer has a proof",
            }),
        }
    }

    pub fn text(&self) -> String {
        match self.bytes {
            Some(bytes) => format!(
                "proof: {} ({}, {bytes} bytes) of {}; check it with `pq-sat check-proof {} {}`
certifies: {}
",
                self.proof.display(),
                self.format.name().to_uppercase(),
                self.cnf.display(),
                self.cnf.display(),
                self.proof.display(),
                self.certifies
            ),
            None => "no proof written: only an UNSAT answer has a proof
"
            .to_string(),
        }
    }
}

/// The answer to "do n white and n black queens fit on d×d?".
pub fn check(
    instance: &Instance,
    options: &Options,
    backend: String,
    outcome: &Outcome,
    proof: Option<&ProofInfo>,
    format: Format,
) -> Result<()> {
    let (d, n) = (instance.dim(), instance.n());
    let board = board_of(outcome);
    match format {
        Format::Json => {
            let mut map = Map::new();
            map.insert("dim".into(), json!(d));
            map.insert("n".into(), json!(n));
            map.insert("status".into(), json!(outcome.status.name()));
            if let Some(b) = &board {
                map.insert("board".into(), board_json(b));
            }
            map.insert("backend".into(), json!(backend));
            map.insert("solver".into(), json!(outcome.solver));
            encoding_fields(&mut map, options);
            map.insert("seconds".into(), json!(outcome.seconds));
            if let Some(reason) = &outcome.reason {
                map.insert("reason".into(), json!(reason));
            }
            if let Some(p) = proof {
                map.insert("proof".into(), p.json());
            }
            emit_json(&Value::Object(map))
        }
        Format::Text => {
            let queens = format!("{n} white and {n} black queens");
            let how = format!("{}, {:.2} s", outcome.solver, outcome.seconds);
            let mut text = match outcome.status {
                Status::Sat => format!("SAT: {queens} fit on a {d}x{d} board ({how})\n"),
                Status::Unsat => format!(
                    "UNSAT: {queens} do not fit on a {d}x{d} board ({how}; formula: {}, {}, {})\n",
                    options.model, options.card, options.symmetry
                ),
                Status::Unknown => format!(
                    "UNKNOWN: whether {queens} fit on a {d}x{d} board ({how}: {})\n",
                    outcome.reason.as_deref().unwrap_or("no answer")
                ),
            };
            if let Some(b) = &board {
                text.push_str(&b.to_labelled_text());
            }
            if let Some(p) = proof {
                text.push_str(&p.text());
            }
            emit_text(&text)
        }
    }
}

/// The optimum a(d) and its witness (`best`: the witness as a board).
#[allow(clippy::too_many_arguments)]
pub fn optimise(
    d: usize,
    options: &Options,
    strategy: pq_engine::optimise::Strategy,
    backend: String,
    outcome: &OptimiseOutcome,
    best: &(usize, Board),
    certificate: Option<(&Path, &Certificate)>,
    format: Format,
) -> Result<()> {
    let (best, board) = (&best.0, &best.1);
    match format {
        Format::Json => {
            let mut map = Map::new();
            map.insert("dim".into(), json!(d));
            map.insert("optimum".into(), json!(outcome.optimum));
            let status = if outcome.optimum.is_some() {
                "sat"
            } else {
                "unknown"
            };
            map.insert("status".into(), json!(status));
            map.insert("lower_bound".into(), json!(best));
            map.insert("board".into(), board_json(board));
            map.insert("backend".into(), json!(backend));
            map.insert("strategy".into(), json!(strategy.name()));
            encoding_fields(&mut map, options);
            map.insert("seconds".into(), json!(outcome.seconds));
            let steps: Vec<Value> = outcome
                .steps
                .iter()
                .map(|s| {
                    json!({
                        "n": s.n,
                        "status": s.status.name(),
                        "method": s.method.name(),
                        "solver": s.solver,
                        "seconds": s.seconds,
                    })
                })
                .collect();
            map.insert("steps".into(), Value::Array(steps));
            if let Some(reason) = &outcome.reason {
                map.insert("reason".into(), json!(reason));
            }
            if let Some((dir, c)) = certificate {
                let summary = crate::report::CertificateSummary::of(dir, c);
                map.insert("certificate".into(), serde_json::to_value(summary)?);
            }
            emit_json(&Value::Object(map))
        }
        Format::Text => {
            let mut text = match outcome.optimum {
                Some(opt) => format!(
                    "a({d}) = {opt}: {opt} white and {opt} black queens fit on a {d}x{d} board, {} do not ({backend}, {:.2} s)\n",
                    opt + 1,
                    outcome.seconds
                ),
                None => format!(
                    "a({d}) >= {best}, not proven optimal: {} ({backend}, {:.2} s)\n",
                    outcome.reason.as_deref().unwrap_or("stopped"),
                    outcome.seconds
                ),
            };
            text.push_str(&board.to_labelled_text());
            if let Some((dir, c)) = certificate {
                text.push_str(&crate::report::CertificateSummary::of(dir, c).text(c.unsat.n));
            }
            emit_text(&text)
        }
    }
}

/// The verdict of `pq-sat check-proof`.
pub fn proof_report(
    cnf: &Path,
    proof: &Path,
    proof_format: ProofFormat,
    r: &CheckReport,
    format: Format,
) -> Result<()> {
    let word = if r.verified {
        "verified"
    } else {
        "not verified"
    };
    match format {
        Format::Json => emit_json(&json!({
            "cnf": cnf.display().to_string(),
            "proof": proof.display().to_string(),
            "proof_format": proof_format.name(),
            "verified": r.verified,
            "result": word,
            "checker": r.checker,
            "checker_version": r.checker_version,
            "verdict": r.verdict,
            "note": r.note,
            "seconds": r.seconds,
        })),
        Format::Text => {
            let version = r
                .checker_version
                .as_deref()
                .map(|v| format!(" ({v})"))
                .unwrap_or_default();
            let note = r
                .note
                .as_deref()
                .map(|n| format!("; {n}"))
                .unwrap_or_default();
            emit_text(&format!(
                "{word}: {} proof {} of {}; {}{version} says: {} ({:.2} s){note}\n",
                proof_format.name().to_uppercase(),
                proof.display(),
                cnf.display(),
                r.checker,
                r.verdict,
                r.seconds
            ))
        }
    }
}

/// The result of `pq-sat check-certificate`.
pub fn certificate_check(
    dir: &Path,
    c: &Certificate,
    items: &[Item],
    format: Format,
) -> Result<()> {
    let valid = items.iter().all(|i| i.ok);
    match format {
        Format::Json => emit_json(&json!({
            "dir": dir.display().to_string(),
            "claim": c.claim,
            "valid": valid,
            "certified_formula": c.unsat.certified_formula,
            "checks": items.iter().map(|i| json!({"check": i.what, "ok": i.ok, "detail": i.detail})).collect::<Vec<_>>(),
        })),
        Format::Text => {
            let mut text = String::new();
            for i in items {
                text.push_str(&format!(
                    "{}  {}: {}\n",
                    if i.ok { "ok  " } else { "FAIL" },
                    i.what,
                    i.detail
                ));
            }
            text.push_str(&if valid {
                format!(
                    "valid: {} ({})\ncertifies: {}\n",
                    c.claim, c.statement, c.unsat.certified_formula
                )
            } else {
                format!(
                    "INVALID: the bundle in {} does not establish {}\n",
                    dir.display(),
                    c.claim
                )
            });
            emit_text(&text)
        }
    }
}

/// The answer for a DIMACS file solved as it is.
pub fn cnf(
    formula: &Formula,
    n: Option<usize>,
    backend: String,
    outcome: &Outcome,
    proof: Option<&ProofInfo>,
    format: Format,
) -> Result<()> {
    let dim = formula
        .pieces
        .as_ref()
        .filter(|m| m.is_queens())
        .map(|m| m.rows);
    let board = board_of(outcome);
    match format {
        Format::Json => {
            let mut map = Map::new();
            if let Some(d) = dim {
                map.insert("dim".into(), json!(d));
            }
            if let Some(n) = n {
                map.insert("n".into(), json!(n));
            }
            map.insert("status".into(), json!(outcome.status.name()));
            if let Some(b) = &board {
                map.insert("board".into(), board_json(b));
            }
            map.insert("backend".into(), json!(backend));
            map.insert("solver".into(), json!(outcome.solver));
            map.insert("variables".into(), json!(formula.n_vars));
            map.insert("clauses".into(), json!(formula.n_clauses()));
            map.insert("seconds".into(), json!(outcome.seconds));
            if let Some(reason) = &outcome.reason {
                map.insert("reason".into(), json!(reason));
            }
            if let Some(p) = proof {
                map.insert("proof".into(), p.json());
            }
            emit_json(&Value::Object(map))
        }
        Format::Text => {
            let size = format!(
                "{} variables, {} clauses",
                formula.n_vars,
                formula.n_clauses()
            );
            let how = format!("{}, {:.2} s", outcome.solver, outcome.seconds);
            let mut text = match outcome.status {
                Status::Sat => format!("SAT ({size}; {how})\n"),
                Status::Unsat => format!("UNSAT ({size}; {how})\n"),
                Status::Unknown => format!(
                    "UNKNOWN ({size}; {how}: {})\n",
                    outcome.reason.as_deref().unwrap_or("no answer")
                ),
            };
            if let Some(b) = &board {
                text.push_str(&b.to_labelled_text());
            }
            if let Some(p) = proof {
                text.push_str(&p.text());
            }
            emit_text(&text)
        }
    }
}

/// The backends found on this machine.
pub fn solvers(list: &[pq_solve::survey::SolverInfo], format: Format) -> Result<()> {
    match format {
        Format::Json => emit_json(&Value::Array(
            list.iter()
                .map(|s| {
                    json!({
                        "name": s.name,
                        "kind": s.kind,
                        "available": s.available,
                        "path": s.path.as_ref().map(|p| p.display().to_string()),
                        "version": s.version,
                        "install": s.install,
                    })
                })
                .collect(),
        )),
        Format::Text => {
            let mut text = format!(
                "{:<12} {:<11} {:<10} {:<22} {}\n",
                "backend", "kind", "status", "version", "where / how to install"
            );
            for s in list {
                let place = match (&s.path, s.available) {
                    (Some(p), true) => p.display().to_string(),
                    (None, true) => s.install.to_string(),
                    _ => format!("missing: {}", s.install),
                };
                text.push_str(&format!(
                    "{:<12} {:<11} {:<10} {:<22} {}\n",
                    s.name,
                    s.kind,
                    if s.available { "available" } else { "missing" },
                    s.version.as_deref().unwrap_or("-"),
                    place
                ));
            }
            emit_text(&text)
        }
    }
}
