//! What `pq-sat solve --problem` prints (text with a legend, or JSON), SVG pictures of
//! boards (`--svg FILE`), and `pq-sat render`.

use std::io::{self, Write};
use std::path::Path;

use anyhow::Result;
use pq_board::placement::Placement;
use pq_board::svg::{placement_svg, queens_svg};
use pq_board::Board;
use pq_encode::spec::{Count, Problem};
use pq_encode::Options;
use pq_engine::optimise::{OptimiseOutcome, Strategy};
use pq_engine::Outcome;
use pq_engine::Status;
use serde_json::{json, Map, Value};

use crate::cli::Format;
use crate::report::legend;

fn emit(text: &str) -> Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

fn problem_json(problem: &Problem, options: &Options, n: Option<usize>) -> Map<String, Value> {
    let l = &problem.rules.layout;
    let symbols = Placement::symbols(&problem.rules);
    let mut map = Map::new();
    map.insert("problem".into(), json!(problem.name));
    map.insert(
        "board".into(),
        json!({"rows": l.rows, "cols": l.cols, "torus": l.torus}),
    );
    let groups: Vec<Value> = problem
        .rules
        .groups
        .iter()
        .enumerate()
        .map(|(g, group)| {
            let count = match (problem.counts[g], n) {
                (Count::Exactly(k), _) => json!(k),
                (Count::Maximise, Some(n)) => json!(n),
                (Count::Maximise, None) => json!("max"),
            };
            json!({
                "name": group.name,
                "kind": group.kind.name(),
                "symbol": symbols[g].to_string(),
                "count": count,
            })
        })
        .collect();
    map.insert("groups".into(), Value::Array(groups));
    let no_attack: Vec<Value> = problem
        .rules
        .no_attack
        .iter()
        .map(|&(a, b)| json!([problem.rules.groups[a].name, problem.rules.groups[b].name]))
        .collect();
    map.insert("no_attack".into(), Value::Array(no_attack));
    map.insert("model".into(), json!(options.model.name()));
    map.insert("card".into(), json!(options.card.name()));
    map.insert("symmetry".into(), json!(options.symmetry.name()));
    map
}

/// The answer to one problem at one size.
pub fn check(
    problem: &Problem,
    n: usize,
    options: &Options,
    backend: &str,
    outcome: &Outcome,
    proof: Option<&crate::output::ProofInfo>,
    format: Format,
) -> Result<()> {
    let symbols = Placement::symbols(&problem.rules);
    let sized = problem.sized(n);
    match format {
        Format::Json => {
            let mut map = problem_json(problem, options, Some(n));
            map.insert("status".into(), json!(outcome.status.name()));
            if let Some(p) = &outcome.placement {
                map.insert("placement".into(), json!(p.rows_as_strings(&symbols)));
            }
            map.insert("backend".into(), json!(backend));
            map.insert("solver".into(), json!(outcome.solver));
            map.insert("variables".into(), json!(outcome.variables));
            map.insert("clauses".into(), json!(outcome.clauses));
            map.insert("seconds".into(), json!(outcome.seconds));
            if let Some(r) = &outcome.reason {
                map.insert("reason".into(), json!(r));
            }
            if let Some(p) = proof {
                map.insert("proof".into(), p.json());
            }
            emit(&(Value::Object(map).to_string() + "\n"))
        }
        Format::Text => {
            let how = format!("{}, {:.2} s", outcome.solver, outcome.seconds);
            let what = sized.summary();
            let mut text = match outcome.status {
                Status::Sat => format!("SAT: {what} ({how})\n"),
                Status::Unsat => format!("UNSAT: {what} is impossible ({how})\n"),
                Status::Unknown => format!(
                    "UNKNOWN: {what} ({how}: {})\n",
                    outcome.reason.as_deref().unwrap_or("no answer")
                ),
            };
            if let Some(p) = &outcome.placement {
                text.push_str(&p.to_labelled_text(&symbols));
                text.push_str(&legend(&problem.rules, &symbols, Some(p)));
            }
            if let Some(p) = proof {
                text.push_str(&p.text());
            }
            emit(&text)
        }
    }
}

/// The largest size of a problem's maximised groups.
pub fn optimum(
    problem: &Problem,
    options: &Options,
    strategy: Strategy,
    backend: &str,
    outcome: &OptimiseOutcome,
    certificate: Option<(&Path, &pq_engine::certificate::Certificate)>,
    format: Format,
) -> Result<()> {
    let symbols = Placement::symbols(&problem.rules);
    let names: Vec<&str> = problem
        .maximised()
        .iter()
        .map(|&g| problem.rules.groups[g].name.as_str())
        .collect();
    match format {
        Format::Json => {
            let mut map = problem_json(problem, options, None);
            map.insert("maximised".into(), json!(names));
            map.insert("optimum".into(), json!(outcome.optimum));
            let status = if outcome.infeasible {
                "unsat"
            } else if outcome.optimum.is_some() {
                "sat"
            } else {
                "unknown"
            };
            map.insert("status".into(), json!(status));
            map.insert(
                "lower_bound".into(),
                json!(outcome.best.as_ref().map(|b| b.0)),
            );
            if let Some((_, p)) = &outcome.best {
                map.insert("placement".into(), json!(p.rows_as_strings(&symbols)));
            }
            map.insert("backend".into(), json!(backend));
            map.insert("strategy".into(), json!(strategy.name()));
            map.insert("seconds".into(), json!(outcome.seconds));
            let steps: Vec<Value> = outcome
                .steps
                .iter()
                .map(|s| {
                    json!({"n": s.n, "status": s.status.name(), "solver": s.solver, "seconds": s.seconds})
                })
                .collect();
            map.insert("steps".into(), Value::Array(steps));
            if let Some(r) = &outcome.reason {
                map.insert("reason".into(), json!(r));
            }
            if let Some((dir, c)) = certificate {
                let summary = crate::report::CertificateSummary::of(dir, c);
                map.insert("certificate".into(), serde_json::to_value(summary)?);
            }
            emit(&(Value::Object(map).to_string() + "\n"))
        }
        Format::Text => {
            let who = names.join(" = ");
            let mut text = if outcome.infeasible {
                format!(
                    "UNSAT: {} cannot be met even with no {who} ({backend}, {:.2} s)\n",
                    problem.summary(),
                    outcome.seconds
                )
            } else {
                match (outcome.optimum, &outcome.best) {
                    (Some(opt), _) => format!(
                        "most {who}: {opt} ({}: {opt} fit, {} do not; {backend}, {:.2} s)\n",
                        problem.summary(),
                        opt + 1,
                        outcome.seconds
                    ),
                    (None, Some((b, _))) => format!(
                        "{who} >= {b}, not proven optimal: {} ({backend}, {:.2} s)\n",
                        outcome.reason.as_deref().unwrap_or("stopped"),
                        outcome.seconds
                    ),
                    (None, None) => format!(
                        "UNKNOWN: {} ({backend}, {:.2} s)\n",
                        outcome.reason.as_deref().unwrap_or("stopped"),
                        outcome.seconds
                    ),
                }
            };
            if let Some((_, p)) = &outcome.best {
                text.push_str(&p.to_labelled_text(&symbols));
                text.push_str(&legend(&problem.rules, &symbols, Some(p)));
            }
            if let Some((dir, c)) = certificate {
                text.push_str(&crate::report::CertificateSummary::of(dir, c).text(c.unsat.n));
            }
            emit(&text)
        }
    }
}

/// Writes an SVG picture to `path` atomically.
pub fn write_svg(path: &Path, svg: &str) -> Result<()> {
    crate::run::write_atomically(path, |w| w.write_all(svg.as_bytes()))
}

/// The picture of a placement.
pub fn placement_picture(problem: &Problem, p: &Placement) -> String {
    placement_svg(&problem.rules, p, Some(&problem.name))
}

/// The picture of a queens board.
pub fn queens_picture(board: &Board, title: &str) -> String {
    queens_svg(board, Some(title))
}
