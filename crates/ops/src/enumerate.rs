//! `pq-sat enumerate`: every placement of a problem at one size, or one per orbit.

use std::io;
use std::time::{Duration, Instant};

use anyhow::Result;
use pq_engine::capability::listing::{Found, Request, Summary};
use pq_engine::plan::enumeration::EnumeratePlan;
use pq_report::enumerate::{found_text, summary_line};
use pq_report::progress::note;
use pq_report::{emit_json, emit_text, Enumeration, Format, Subject};
use pq_solve::control::{check_interrupt, Limits};

use crate::Interruptible;

/// Lists the placements the plan asks for (at the optimum, found first, when no size was
/// given): streamed as text, or collected into one JSON report.
pub fn run(plan: EnumeratePlan, count_only: bool, format: Format) -> Result<u8> {
    let mut boards: Vec<Vec<String>> = Vec::new();
    let mut orbit_sizes: Vec<usize> = Vec::new();
    let mut last_progress = Instant::now();
    let mut write_error: Option<io::Error> = None;
    let mut on_found = |request: &Request, found: &Found, summary: &Summary| {
        if last_progress.elapsed() >= Duration::from_secs(2) {
            note!("pq-sat: {} found, {:.1} s", summary.count, summary.seconds);
            last_progress = Instant::now();
        }
        if count_only || write_error.is_some() {
            return;
        }
        let problem = &request.problem;
        match format {
            Format::Json => {
                boards.push(pq_report::rows(&problem.rules, &found.placement));
                orbit_sizes.push(found.orbit_size);
            }
            Format::Text => {
                let text = found_text(problem, found, summary.count, request.up_to);
                if let Err(pq_report::Error::Io(e)) = emit_text(&text) {
                    write_error = Some(e);
                }
            }
        }
    };
    let (request, summary) = list(plan, &Limits::none(), &mut on_found)?;
    let problem = &request.problem;
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

/// Lists the placements the plan asks for, telling `on_found` of each with the totals so
/// far, until done or `limits` say stop; the size is the plan's, or the optimum, found
/// first. The request listed (its size known) and the totals; Ctrl-C is an error, never a
/// summary of what happened to be found.
pub fn list(
    plan: EnumeratePlan,
    limits: &Limits,
    on_found: &mut dyn FnMut(&Request, &Found, &Summary),
) -> Result<(Request, Summary)> {
    let (enumerator, mut request) = (plan.enumerator, plan.request);
    // Ctrl-C stops the solver; the enumeration then ends with an error (exit 130), never
    // with a summary of what happened to be found.
    let _guard = Interruptible::enter();
    request.n = if let Some(n) = plan.n {
        n
    } else {
        let (n, seconds) = enumerator.optimum(&request.problem)?;
        let optimum = request.problem.preset().optimum_is(n);
        note!("pq-sat: {optimum}, found first ({seconds:.2} s)");
        n
    };
    let summary = enumerator.enumerate(&request, limits, &mut |found, summary| {
        on_found(&request, found, summary);
    })?;
    check_interrupt()?;
    Ok((request, summary))
}
