//! What `pq-sat solve` prints: a readable board and summary (text), or one JSON object.
//! Progress goes to stderr; stdout carries only the answer.

use std::io::{self, Write};

use anyhow::Result;
use pq_board::Board;
use pq_encode::{Formula, Instance, Options};
use pq_solve::optimise::{OptimiseOutcome, Step};
use pq_solve::pipeline::trimmed;
use pq_solve::{Outcome, Status};
use serde_json::{json, Map, Value};

use crate::cli::Format;

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

fn board_json(board: &Board) -> Value {
    json!(board.rows_as_strings())
}

/// The answer to "do n white and n black queens fit on d×d?".
pub fn check(
    instance: &Instance,
    options: &Options,
    backend: String,
    outcome: &Outcome,
    format: Format,
) -> Result<()> {
    let (d, n) = (instance.dim(), instance.n());
    let board = outcome.board.as_ref().map(|b| trimmed(b, n));
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
            encoding_fields(&mut map, options);
            map.insert("seconds".into(), json!(outcome.seconds));
            if let Some(reason) = &outcome.reason {
                map.insert("reason".into(), json!(reason));
            }
            emit_json(&Value::Object(map))
        }
        Format::Text => {
            let queens = format!("{n} white and {n} black queens");
            let how = format!("{backend}, {:.2} s", outcome.seconds);
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
            emit_text(&text)
        }
    }
}

/// One optimisation step, on stderr as soon as it finishes.
pub fn progress(step: &Step) {
    let extra = match step.witness_n {
        Some(m) if m > step.n => format!("; the board has {m} of each"),
        _ => String::new(),
    };
    eprintln!(
        "pq-sat: n = {}: {} ({}, {:.2} s{extra})",
        step.n,
        step.status.name(),
        step.method.name(),
        step.seconds
    );
}

/// The optimum a(d) and its witness.
pub fn optimise(
    options: &Options,
    backend: String,
    outcome: &OptimiseOutcome,
    format: Format,
) -> Result<()> {
    let d = outcome.dim;
    let (best, board) = (&outcome.best.0, &outcome.best.1);
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
                        "seconds": s.seconds,
                    })
                })
                .collect();
            map.insert("steps".into(), Value::Array(steps));
            if let Some(reason) = &outcome.reason {
                map.insert("reason".into(), json!(reason));
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
    format: Format,
) -> Result<()> {
    let dim = formula.squares.as_ref().map(|m| m.dim);
    let board = match (&outcome.board, n) {
        (Some(b), Some(n)) => Some(trimmed(b, n)),
        (b, _) => b.clone(),
    };
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
            map.insert("variables".into(), json!(formula.n_vars));
            map.insert("clauses".into(), json!(formula.n_clauses()));
            map.insert("seconds".into(), json!(outcome.seconds));
            if let Some(reason) = &outcome.reason {
                map.insert("reason".into(), json!(reason));
            }
            emit_json(&Value::Object(map))
        }
        Format::Text => {
            let size = format!(
                "{} variables, {} clauses",
                formula.n_vars,
                formula.n_clauses()
            );
            let how = format!("{backend}, {:.2} s", outcome.seconds);
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
            emit_text(&text)
        }
    }
}
