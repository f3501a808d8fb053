//! `pq-sat estimate`: what one step costs the line engine, predicted from a random sample
//! of its units of work before the step is run.
//!
//! The engine's search is a loop over independent units: the row sets `S` of two armies
//! ([`pq_lines::row_sets`], each searched with every column set), the row colourings of
//! three or more ([`pq_lines::armies::Armies`]), or the queens' orbits of Dudeney's crowded
//! chessboard ([`pq_lines::crowded::Crowded`]). A unit's search never depends on another's
//! (the threads only share the queue and the first witness), so the step's work is the sum
//! of its units', and the step is SAT iff some unit is. The sample (uniform, without
//! replacement, seeded) is searched one unit at a time on one thread; the prediction and
//! its bootstrap intervals are `cube --estimate`'s ([`crate::cube::estimate`]), with units
//! in place of cubes.
//!
//! Every sampled unit's witness is checked by the independent validator and every UNSAT
//! unit against nothing (a unit's UNSAT says nothing about the step); a SAT unit makes the
//! prediction an upper bound, since the search stops at the first witness.

use std::time::Instant;

use pq_encode::spec::Problem;
use pq_lines::Settings;
use pq_solve::control::{interrupted, Limits};
use pq_solve::cpu::CpuClock;
use pq_solve::error::SolveError;

use crate::capability::{validated, Status};
use crate::cube::estimate::{predict, sample_ids, Estimate, Sampled, SplitMix};
use crate::error::EngineError;
use crate::lines::{placement, unsupported, Found, LineEngine, Units};

pub use crate::cube::estimate::Settings as EstimateSettings;

/// Predicts what deciding `problem` at `n` costs the line engine (one thread per unit),
/// from a sample of `settings.sample` units; `on_unit` sees what a unit is ("row set",
/// "row colouring", "queens' orbit"), each sampled unit's result and its place in the sample.
///
/// # Errors
/// A problem the engine does not answer, or a sampled witness the validator rejects (an
/// engine bug).
pub fn estimate(
    problem: &Problem,
    n: usize,
    settings: &EstimateSettings,
    on_unit: &mut dyn FnMut(&str, &Sampled, usize),
) -> Result<Estimate, SolveError> {
    if let Some(why) = unsupported(problem) {
        return Err(SolveError::from(EngineError::Unsupported(format!(
            "the line engine cannot answer this problem: {why}"
        ))));
    }
    let engine = LineEngine::on(1);
    let units = Units::new(problem, n, &engine.listing);
    let (count, unit) = (units.count(), units.name());
    let mut rng = SplitMix(settings.seed);
    let ids = sample_ids(count, settings.sample, &mut rng);
    let mut sample = Vec::with_capacity(ids.len());
    for (k, &i) in ids.iter().enumerate() {
        // Each unit has its own time limit, counted from its start.
        let limits = Limits::timeout(settings.timeout);
        let asked = || limits.should_stop();
        let run = Settings {
            jobs: 1,
            deadline: limits.deadline(),
            asked_to_stop: &asked,
            unit_budget: None,
        };
        let (start, cpu) = (Instant::now(), CpuClock::start());
        let found = units.decide_one(i, &run);
        let (seconds, cpu_seconds) = (start.elapsed().as_secs_f64(), cpu.seconds());
        let status = match found {
            Found::Sat(cells) => {
                let raw = placement(problem, &cells);
                validated(problem, n, &raw, &engine.name())?;
                Status::Sat
            }
            Found::Unsat => Status::Unsat,
            Found::Unknown => Status::Unknown,
        };
        let s = Sampled {
            id: i + 1,
            status,
            seconds,
            cpu_seconds,
        };
        on_unit(unit, &s, k + 1);
        sample.push(s);
        if interrupted() {
            break;
        }
    }
    Ok(predict(
        count,
        unit,
        format!("{} (one thread)", engine.name()),
        false,
        settings.seed,
        sample,
        &mut rng,
    ))
}
