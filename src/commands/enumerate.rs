//! `pq-sat enumerate`: every placement of a problem at one size, or one per orbit.

use std::io;
use std::time::{Duration, Instant};

use anyhow::Result;
use pq_encode::spec::Problem;
use pq_engine::enumerate::{enumerate, optimum_size_with, Found, Request, Summary, UpTo};
use pq_engine::proof::ProofFormat;
use pq_solve::control::{check_interrupt, Limits};
use pq_solve::BackendSpec;

use super::Interruptible;
use crate::cli::{EnumerateArgs, Format};
use crate::progress::note;
use crate::report::{self, emit_json, emit_text, is_queens_preset, Enumeration, Subject};

/// Lists the placements of `request` (at the optimum when `n` is `None`; with
/// `check_unsat`, the UNSAT above it needs a checked proof in that format): streamed as
/// text, or collected into one JSON report.
pub fn run(
    mut request: Request,
    n: Option<usize>,
    a: &EnumerateArgs,
    check_unsat: Option<ProofFormat>,
) -> Result<u8> {
    // Ctrl-C stops the solver; the enumeration then ends with an error (exit 130), never
    // with a summary of what happened to be found.
    let _guard = Interruptible::enter();
    let (count_only, format) = (a.count, a.format);
    request.n = if let Some(n) = n {
        n
    } else {
        let solver = super::member(&BackendSpec::Cadical, check_unsat)?;
        let (n, seconds) = optimum_size_with(&request.problem, solver.as_ref())?;
        let problem = &request.problem;
        if is_queens_preset(problem) {
            let d = problem.rules.layout.rows;
            note!("pq-sat: a({d}) = {n}, found first ({seconds:.2} s)");
        } else {
            note!("pq-sat: the optimum is {n}, found first ({seconds:.2} s)");
        }
        n
    };
    let problem = &request.problem;
    let mut boards: Vec<Vec<String>> = Vec::new();
    let mut orbit_sizes: Vec<usize> = Vec::new();
    let mut last_progress = Instant::now();
    let mut write_error: Option<io::Error> = None;
    let mut on_found = |found: &Found, summary: &Summary| {
        if last_progress.elapsed() >= Duration::from_secs(2) {
            note!("pq-sat: {} found, {:.1} s", summary.count, summary.seconds);
            last_progress = Instant::now();
        }
        if count_only || write_error.is_some() {
            return;
        }
        match format {
            Format::Json => {
                boards.push(report::rows(&problem.rules, &found.placement));
                orbit_sizes.push(found.orbit_size);
            }
            Format::Text => {
                let mut counts: Vec<String> = problem
                    .rules
                    .groups
                    .iter()
                    .enumerate()
                    .map(|(g, group)| format!("{} {}", found.placement.count(g), group.name))
                    .collect();
                if request.up_to == UpTo::Symmetry {
                    counts.push(format!("orbit of {}", found.orbit_size));
                }
                let text = format!(
                    "# {} ({})\n{}",
                    summary.count,
                    counts.join(", "),
                    report::board_text(problem, &found.placement)
                );
                if let Err(e) = emit_text(&text) {
                    write_error = e.downcast::<io::Error>().ok();
                }
            }
        }
    };
    let summary = enumerate(&request, &Limits::none(), &mut on_found)?;
    check_interrupt()?;
    if let Some(e) = write_error {
        return Err(e.into());
    }
    let n = request.n;
    match format {
        Format::Json => emit_json(&Enumeration {
            subject: Subject::of(problem, Some(n)),
            n,
            up_to: request.up_to.name().into(),
            maximal: request.maximal,
            count: summary.count,
            total_boards: summary.total_boards,
            unequal: request.maximal.then_some(summary.unequal),
            complete: summary.complete,
            stopped: summary.stopped.clone(),
            seconds: summary.seconds,
            cubes: summary.cubes,
            jobs: request.jobs,
            boards: (!count_only).then_some(boards),
            orbit_sizes: (!count_only).then_some(orbit_sizes),
        })?,
        Format::Text if count_only => emit_text(&format!("{}\n", summary.count))?,
        Format::Text => emit_text(&summary_line(&request, &summary))?,
    }
    Ok(0)
}

/// What was counted, in one line.
fn summary_line(request: &Request, summary: &Summary) -> String {
    let (problem, n) = (&request.problem, request.n);
    let counted = match request.up_to {
        UpTo::Symmetry => format!(
            "{} orbits ({} boards counting every symmetric image)",
            summary.count, summary.total_boards
        ),
        UpTo::Total => format!("{} boards", summary.count),
    };
    let unequal = if request.maximal {
        let what = if is_queens_preset(problem) {
            "armies"
        } else {
            "maximised groups"
        };
        format!(", {} with {what} of different sizes", summary.unequal)
    } else {
        String::new()
    };
    let what = what(problem, n, request.maximal);
    let stopped = match (&summary.stopped, summary.complete) {
        (Some(reason), _) => format!(" (stopped, {reason}: not all)"),
        (None, false) => " (stopped at --limit: not all)".to_string(),
        (None, true) => String::new(),
    };
    let split = if summary.cubes > 1 {
        format!(", {} cubes on {} threads", summary.cubes, request.jobs)
    } else {
        String::new()
    };
    format!(
        "{counted}{unequal}: {what}{stopped} ({:.2} s{split})\n",
        summary.seconds
    )
}

fn what(problem: &Problem, n: usize, maximal: bool) -> String {
    let l = &problem.rules.layout;
    match (is_queens_preset(problem), maximal) {
        (true, true) => format!(
            "maximal configurations with at least {n} queens of each colour on a {}x{} board",
            l.rows, l.cols
        ),
        (true, false) => format!(
            "boards with exactly {n} white and {n} black queens on a {}x{} board",
            l.rows, l.cols
        ),
        (false, true) => format!(
            "maximal configurations with at least {n} of each maximised group, {}",
            problem.sized(n).summary()
        ),
        (false, false) => format!("placements of {}", problem.sized(n).summary()),
    }
}
