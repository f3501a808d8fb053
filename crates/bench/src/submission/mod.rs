//! A benchmark submission in the manner of the SAT Competition's benchmark track: instances
//! drawn from a pool ([`pool`]), written as `.cnf.xz` with their GBD ids, graded by a
//! measured race of competition solvers, every status proven, and the two-page description
//! (Markdown and PDF) that a submission carries.
//!
//! Grading follows the competitions' habit (Froleyks, Heule, Iser, Järvisalo, Suda,
//! "SAT Competition 2020", Artificial Intelligence 301, 2021): *easy* when the best solver
//! needs less than a minute, *medium* when one solves it within the race's limit, *hard*
//! otherwise; a hard instance's expected time is extrapolated along its series (an
//! exponential fit of the best times against the board side) and marked as such.
//!
//! A status is proven three ways only: a model, decoded and passed by the independent
//! validator; an UNSAT whose DRAT proof the independent checker verified; or, for the
//! peaceable queens and the three armies, the values their OEIS sequences list
//! ([`pq_solve::known::table`]). A hard instance that none of them settles stays `unknown`,
//! and the summary says so.

pub mod description;
pub mod pdf;
pub mod pool;

use std::fs;
use std::path::Path;
use std::time::Duration;

use pq_io::output;
use pq_solve::backend::Backend;
use pq_solve::control::{check_interrupt, Limits};
use pq_solve::error::SolveError;
use serde::{Deserialize, Serialize};

use crate::family::manifest::{Entry, Manifest, MANIFEST_CSV, MANIFEST_JSON};
use crate::family::FamilyError;
use crate::race::{race, Family, Racer, Run, Verdict};
pub use pool::{Item, Pool};
use pq_engine::capability::Status;
use pq_engine::lines::LineEngine;
use pq_engine::sat::pipeline::solve_formula;
use pq_io::staging::{move_into_place, stage};

/// The grading record of a submission directory, beside its manifest.
pub const SUBMISSION_JSON: &str = "submission.json";

/// How `--force` recognises a submission pq-sat wrote.
pub const MARKER: output::Marker = output::Marker {
    file: SUBMISSION_JSON,
    key: "submission",
};

/// The description's file names.
pub const DESCRIPTION_MD: &str = "description.md";
/// See [`DESCRIPTION_MD`].
pub const DESCRIPTION_PDF: &str = "description.pdf";

/// How hard an instance is for the race's solvers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Grade {
    /// The best solver needed less than the easy limit (a minute by default).
    Easy,
    /// Solved within the race's limit, not easily.
    Medium,
    /// No solver answered within the race's limit.
    Hard,
}

impl Grade {
    /// The lower-case name used in tables.
    pub fn name(self) -> &'static str {
        match self {
            Grade::Easy => "easy",
            Grade::Medium => "medium",
            Grade::Hard => "hard",
        }
    }
}

/// One instance of a submission, graded.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Graded {
    /// The file name (`.cnf.xz`).
    pub file: String,
    /// The GBD hash, the competitions' instance id.
    pub gbd: String,
    /// The series it belongs to.
    pub series: String,
    /// The problem's name.
    pub problem: String,
    /// The problem's short name, the start of its file name (`queens`, `three-armies`).
    pub kind: String,
    /// The board (`RxC`, `-torus` on a torus).
    pub board: String,
    /// The size of the maximised groups.
    pub n: usize,
    /// Variables and clauses.
    pub variables: u32,
    /// See `variables`.
    pub clauses: usize,
    /// The proven status (`unknown` when nothing proved it).
    pub expected: Status,
    /// What proved it.
    pub source: String,
    /// The grade.
    pub grade: Grade,
    /// Each racer's wall-clock seconds when it answered correctly, in the order of
    /// [`Submission::solvers`]; `None` when it did not answer within the limit.
    pub seconds: Vec<Option<f64>>,
    /// A hard instance's expected time for the best solver, extrapolated along its series;
    /// `None` when it is not hard or its series has too few solved members.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extrapolated: Option<f64>,
}

/// What was raced, how, and the graded instances.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Submission {
    /// Always `submission`: how `--force` recognises the directory.
    pub submission: bool,
    /// The pq-sat version that made it.
    pub generator: String,
    /// The command line.
    pub command: String,
    /// The machine it was graded on (CPU model and cores).
    pub machine: String,
    /// The racers' labels.
    pub solvers: Vec<String>,
    /// Each racer's version where pq-sat could tell it (`--version`, Debian's package).
    pub versions: Vec<Option<String>>,
    /// The race's limit per run, seconds.
    pub timeout: f64,
    /// The easy limit, seconds.
    pub easy: f64,
    /// Runs at a time during the race.
    pub jobs: usize,
    /// Every instance, in pool order.
    pub instances: Vec<Graded>,
}

impl Submission {
    /// How many instances of each grade (easy, medium, hard).
    pub fn counts(&self) -> [usize; 3] {
        let mut out = [0; 3];
        for g in &self.instances {
            out[g.grade as usize] += 1;
        }
        out
    }

    /// The instances whose status nothing proved.
    pub fn unproven(&self) -> usize {
        self.instances
            .iter()
            .filter(|g| g.expected == Status::Unknown)
            .count()
    }
}

/// How to race and prove.
pub struct Settings {
    /// The race's limit per run.
    pub timeout: Duration,
    /// Below this, an instance is easy.
    pub easy: Duration,
    /// The limit for proving a status the race did not settle with evidence: an UNSAT
    /// solved again with a DRAT proof and checked, or a hard instance given to the line
    /// engine.
    pub prove_timeout: Duration,
    /// Runs at a time; also the line engine's threads.
    pub jobs: usize,
    /// The command line, recorded.
    pub command: String,
    /// Each racer's version, where known (recorded in the description).
    pub versions: Vec<Option<String>>,
    /// Whether an earlier submission at the target may be replaced (`--force`).
    pub policy: pq_io::output::WritePolicy,
}

/// What [`write_submission`] reports while it works (from the race's worker threads too).
pub enum Event<'a> {
    /// The instances are written; the race starts.
    Written(&'a Manifest),
    /// A run of the race finished: the run, its instance's file and its solver's label.
    Run(&'a Run, &'a str, &'a str),
    /// An instance's status is being proven (its file, how).
    Proving(&'a str, &'a str),
}

/// Writes the submission of `pool` into `dir` (atomically: it appears complete or not at
/// all): the instances, a family manifest (so `pq-sat race DIR` races it again), the grading
/// in [`SUBMISSION_JSON`], and the description. `racers` race; `provers[i]` is racer `i`
/// with its UNSAT answers checked (a DRAT proof verified by the independent checker).
///
/// # Errors
/// A pool instance that cannot be written, a file that cannot be, a wrong answer from a
/// solver (a model the validator rejects, an UNSAT against a proven SAT: the submission
/// would be unsound), or an interrupt.
pub fn write_submission(
    pool: &Pool,
    dir: &Path,
    racers: &[Racer],
    provers: &[Box<dyn Backend>],
    s: &Settings,
    on_event: &(dyn Fn(Event) + Sync),
) -> Result<Submission, FamilyError> {
    let staging = stage(dir, "submission", MARKER, s.policy)?;
    let mut entries = Vec::with_capacity(pool.items.len());
    for item in &pool.items {
        check_interrupt()?;
        let (entry, _) = crate::family::write_cnf(&item.spec, &pool::plan(item), staging.path())?;
        entries.push(entry);
    }
    let mut manifest = Manifest {
        family: "pq-sat-submission".into(),
        problem_file: None,
        generator: format!("pq-sat {}", env!("CARGO_PKG_VERSION")),
        command: s.command.clone(),
        instances: entries,
    };
    write_manifest(&manifest, staging.path())?;
    on_event(Event::Written(&manifest));
    let family = Family::load(staging.path())?;
    let runs = race(&family, racers, s.timeout, s.jobs, &|r| {
        let file = &family.manifest.instances[r.instance].file;
        on_event(Event::Run(r, file, &racers[r.solver].label));
    });
    check_interrupt()?;
    if let Some(r) = runs.iter().find(|r| matches!(r.verdict, Verdict::Wrong(_))) {
        return Err(FamilyError::Invalid(format!(
            "{}: {} answered wrongly ({}); a submission cannot rest on it",
            manifest.instances[r.instance].file,
            racers[r.solver].label,
            r.verdict.detail().unwrap_or_default()
        )));
    }
    let mut graded = Vec::with_capacity(pool.items.len());
    for (i, item) in pool.items.iter().enumerate() {
        let mine: Vec<&Run> = runs.iter().filter(|r| r.instance == i).collect();
        let entry = &mut manifest.instances[i];
        prove(item, entry, &family, i, &mine, racers, provers, s, on_event)?;
        let mut seconds = vec![None; racers.len()];
        for r in mine.iter().filter(|r| r.verdict.solved()) {
            seconds[r.solver] = Some(r.seconds);
        }
        let best = seconds.iter().flatten().copied().reduce(f64::min);
        let grade = match best {
            Some(t) if t < s.easy.as_secs_f64() => Grade::Easy,
            Some(_) => Grade::Medium,
            None => Grade::Hard,
        };
        let l = &item.problem().rules.layout;
        graded.push(Graded {
            file: entry.file.clone(),
            gbd: entry.gbd.clone(),
            series: item.series.clone(),
            problem: item.problem().name.clone(),
            kind: item.spec.stem().to_string(),
            board: format!(
                "{}x{}{}",
                l.rows,
                l.cols,
                if l.torus { "-torus" } else { "" }
            ),
            n: item.n(),
            variables: entry.variables,
            clauses: entry.clauses,
            expected: entry.expected,
            source: entry.source.clone(),
            grade,
            seconds,
            extrapolated: None,
        });
    }
    extrapolate(&mut graded, &pool.items, s.timeout.as_secs_f64());
    let submission = Submission {
        submission: true,
        generator: manifest.generator.clone(),
        command: s.command.clone(),
        machine: machine(),
        solvers: racers.iter().map(|r| r.label.clone()).collect(),
        versions: s.versions.clone(),
        timeout: s.timeout.as_secs_f64(),
        easy: s.easy.as_secs_f64(),
        jobs: s.jobs,
        instances: graded,
    };
    write_manifest(&manifest, staging.path())?;
    let json = serde_json::to_string_pretty(&submission).expect("a submission serialises");
    let markdown = description::markdown(&submission);
    let pdf = pdf::render(&markdown);
    for (name, bytes) in [
        (SUBMISSION_JSON, (json + "\n").into_bytes()),
        (DESCRIPTION_MD, markdown.into_bytes()),
        (DESCRIPTION_PDF, pdf),
    ] {
        let path = staging.path().join(name);
        fs::write(&path, bytes).map_err(SolveError::io(&path))?;
    }
    check_interrupt()?;
    drop(family);
    move_into_place(staging, dir, MARKER, s.policy)?;
    Ok(submission)
}

fn write_manifest(manifest: &Manifest, dir: &Path) -> Result<(), FamilyError> {
    let json = serde_json::to_string_pretty(manifest).expect("a manifest serialises");
    for (name, text) in [
        (MANIFEST_JSON, json + "\n"),
        (MANIFEST_CSV, manifest.to_csv()),
    ] {
        let path = dir.join(name);
        fs::write(&path, text).map_err(SolveError::io(&path))?;
    }
    Ok(())
}

/// Settles `entry`'s status from the race's runs on it, or by proving it: a validated model
/// wins; an UNSAT counts with a table (the queens, the three armies) or once the fastest
/// UNSAT solver, run again with a DRAT proof, has had it checked; an instance nobody
/// answered goes to the table, to the line engine for a validated witness, and then to the
/// first racer with a DRAT proof for up to the proving limit.
#[allow(clippy::too_many_arguments)]
fn prove(
    item: &Item,
    entry: &mut Entry,
    family: &Family,
    i: usize,
    runs: &[&Run],
    racers: &[Racer],
    provers: &[Box<dyn Backend>],
    s: &Settings,
    on_event: &(dyn Fn(Event) + Sync),
) -> Result<(), FamilyError> {
    let fastest = |v: &Verdict| {
        runs.iter()
            .filter(|r| r.verdict == *v)
            .min_by(|a, b| a.seconds.total_cmp(&b.seconds))
            .copied()
    };
    let limits = Limits::timeout(Some(s.prove_timeout));
    let (problem, n) = (item.problem(), item.n());
    if let Some(r) = fastest(&Verdict::Sat) {
        entry.expected = Status::Sat;
        entry.source = format!(
            "{}'s model, decoded and validated by pq-sat ({:.2} s)",
            racers[r.solver].label, r.seconds
        );
        return Ok(());
    }
    if let Some(r) = fastest(&Verdict::Unsat) {
        if entry.expected == Status::Unsat {
            return Ok(());
        }
        let label = &racers[r.solver].label;
        on_event(Event::Proving(
            &entry.file,
            &format!("{label} with a DRAT proof"),
        ));
        let outcome = proved(
            item,
            &family.formulas[i],
            provers[r.solver].as_ref(),
            &limits,
        )?;
        if checked_unsat(&outcome) {
            entry.expected = Status::Unsat;
            entry.source = format!(
                "{label}'s DRAT proof, checked by rate ({:.2} s with the check)",
                outcome.seconds
            );
        } else {
            entry.source = format!(
                "{label} answered UNSAT in the race, but its proof was not checked within {} s",
                s.prove_timeout.as_secs()
            );
        }
        return Ok(());
    }
    if entry.expected != Status::Unknown {
        return Ok(());
    }
    // Nobody answered in the race and no table knows: the line engine may find a witness;
    // its "no" is an exhaustive search, not a proof, so an UNSAT is then sought from the
    // first racer with a DRAT proof, for as long as the proving limit allows.
    let mut engine_said = String::new();
    if pq_engine::lines::unsupported(problem).is_none() {
        on_event(Event::Proving(&entry.file, "the line engine"));
        let engine = LineEngine::on(s.jobs);
        let (outcome, _) = engine.decide(problem, n, &limits)?;
        check_interrupt()?;
        let seconds = outcome.seconds;
        match outcome.status {
            Status::Sat => {
                entry.expected = Status::Sat;
                entry.source = format!("pq-sat's line engine, witness validated ({seconds:.2} s)");
                return Ok(());
            }
            Status::Unsat => {
                engine_said = format!(
                    "pq-sat's line engine found no placement ({seconds:.2} s), an exhaustive search without a checked proof; "
                );
            }
            Status::Unknown => {}
        }
    }
    let label = &racers[0].label;
    on_event(Event::Proving(
        &entry.file,
        &format!(
            "{label} with a DRAT proof, at most {} s",
            s.prove_timeout.as_secs()
        ),
    ));
    let outcome = proved(item, &family.formulas[i], provers[0].as_ref(), &limits)?;
    match outcome.status {
        Status::Sat => {
            entry.expected = Status::Sat;
            entry.source = format!(
                "{label}'s model in a longer run, decoded and validated by pq-sat ({:.2} s)",
                outcome.seconds
            );
        }
        _ if checked_unsat(&outcome) => {
            entry.expected = Status::Unsat;
            entry.source = format!(
                "{engine_said}{label}'s DRAT proof in a longer run, checked by rate ({:.2} s with the check)",
                outcome.seconds
            );
        }
        _ => {
            entry.source = format!(
                "{engine_said}{label} gave no checked answer within {} s",
                s.prove_timeout.as_secs()
            );
        }
    }
    Ok(())
}

/// `item`'s formula solved by `prover`, a racer that writes a DRAT proof of every UNSAT
/// and has it checked (see [`checked_unsat`]), within `limits`.
fn proved(
    item: &Item,
    formula: &pq_encode::Formula,
    prover: &dyn Backend,
    limits: &Limits,
) -> Result<pq_engine::capability::Outcome, FamilyError> {
    let outcome = solve_formula(Some(item.problem()), item.n(), formula, prover, limits)?;
    check_interrupt()?;
    Ok(outcome)
}

/// Whether `outcome` is an UNSAT whose proof the independent checker verified: the only
/// UNSAT a submission states without the table.
fn checked_unsat(outcome: &pq_engine::capability::Outcome) -> bool {
    outcome.status == Status::Unsat && outcome.verified == Some(true)
}

/// Fills each hard instance's expected time: an exponential fit `t = exp(a + b d)` of the
/// best times of its series' solved members against the board side `d`, by least squares
/// on `ln t`, evaluated at its own side; no less than the race's limit. A series with fewer
/// than two distinct solved sides, or no growth, gives none.
fn extrapolate(graded: &mut [Graded], items: &[Item], timeout: f64) {
    for k in 0..graded.len() {
        if graded[k].grade != Grade::Hard {
            continue;
        }
        let points: Vec<(f64, f64)> = graded
            .iter()
            .zip(items)
            .filter(|(g, it)| it.series == items[k].series && g.grade != Grade::Hard)
            .filter_map(|(g, it)| {
                let best = g.seconds.iter().flatten().copied().reduce(f64::min)?;
                #[allow(clippy::cast_precision_loss)]
                Some((it.side() as f64, best.max(1e-3).ln()))
            })
            .collect();
        #[allow(clippy::cast_precision_loss)]
        let side = items[k].side() as f64;
        graded[k].extrapolated = fit(&points).map(|(a, b)| (a + b * side).exp().max(timeout));
    }
}

/// The least-squares line `y = a + b x` through `points`, when it rises and at least two
/// distinct x are given.
fn fit(points: &[(f64, f64)]) -> Option<(f64, f64)> {
    #[allow(clippy::cast_precision_loss)]
    let m = points.len() as f64;
    let mx = points.iter().map(|p| p.0).sum::<f64>() / m;
    let my = points.iter().map(|p| p.1).sum::<f64>() / m;
    let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    if points.len() < 2 || sxx < 1e-9 {
        return None;
    }
    let b = sxy / sxx;
    (b > 0.0).then_some((my - b * mx, b))
}

/// The CPU model and the number of cores, as `/proc/cpuinfo` says (or `unknown`).
fn machine() -> String {
    let cpuinfo = fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .and_then(|l| l.split_once(':'))
        .map_or("unknown CPU", |(_, m)| m.trim());
    format!("{model}, {} cores", pq_io::cores())
}

#[cfg(test)]
mod tests {
    use super::fit;

    #[test]
    fn the_fit_recovers_an_exponential_and_refuses_too_little() {
        let points: Vec<(f64, f64)> = [8.0, 9.0, 10.0]
            .iter()
            .map(|&d| (d, (0.5 + 1.5 * d)))
            .collect();
        let (a, b) = fit(&points).unwrap();
        assert!((a - 0.5).abs() < 1e-9 && (b - 1.5).abs() < 1e-9);
        assert!(fit(&points[..1]).is_none());
        assert!(fit(&[(8.0, 1.0), (8.0, 2.0)]).is_none());
        assert!(
            fit(&[(8.0, 2.0), (9.0, 1.0)]).is_none(),
            "no growth, no extrapolation"
        );
    }
}
