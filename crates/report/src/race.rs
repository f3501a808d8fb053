//! What `pq-sat family` and `pq-sat race` print: summaries, per-run progress on stderr, the
//! race table (text or JSON) and the cactus plot.

use std::path::Path;

use crate::Result;
use pq_bench::family::manifest::Manifest;
use pq_bench::race::{disputes, Family, Racer, Run, Score, Verdict};
use pq_engine::capability::Status;
use serde::{Deserialize, Serialize};

use crate::plot;
use crate::Format;

/// `race`'s JSON report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RaceReport {
    /// The family's directory.
    pub family: String,
    /// Its number of instances.
    pub instances: usize,
    /// The time limit per run, in seconds.
    pub timeout: f64,
    /// False when interrupted before every run finished.
    pub complete: bool,
    /// Each solver's score, in the order given.
    pub solvers: Vec<ScoreReport>,
    /// Every run.
    pub runs: Vec<RunReport>,
    /// The instances whose manifest status a solver's answer contradicts with nothing
    /// checked against the solver (a wrong manifest, or an UNSAT no model refutes).
    pub disputed: Vec<DisputeReport>,
}

/// One disputed instance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DisputeReport {
    /// The instance's file.
    pub file: String,
    /// The manifest's expected status.
    pub expected: Status,
    /// Who contradicts the manifest, and which side is known to be wrong.
    pub detail: String,
}

/// One solver's score.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScoreReport {
    /// The solver's label.
    pub solver: String,
    /// Instances answered SAT or UNSAT.
    pub solved: usize,
    /// Its totals.
    #[serde(flatten)]
    pub score: Score,
}

/// One run of one solver on one instance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunReport {
    /// The instance's file.
    pub file: String,
    /// The solver's label.
    pub solver: String,
    /// The manifest's expected status.
    pub expected: Status,
    /// The verdict.
    pub verdict: String,
    /// Why, for unknowns, errors, wrong answers and disputed ones.
    pub detail: Option<String>,
    /// On an optimisation instance: the optimum the run claimed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub optimum: Option<usize>,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// The summary of a family just written.
pub fn family(manifest: &Manifest, dir: &Path, format: Format) -> Result<()> {
    super::emit(format, manifest, || {
        let count = |s: Status| {
            manifest
                .instances
                .iter()
                .filter(|e| e.expected == s)
                .count()
        };
        // The queens' line stays as it always was; a problem family names its problem.
        let of = if manifest.made_by_dim() {
            String::new()
        } else {
            format!(" of {}", manifest.family)
        };
        format!(
            "wrote {} instances{of} to {} ({} sat, {} unsat, {} unknown); manifest.csv, manifest.json, README.md\n",
            manifest.instances.len(),
            dir.display(),
            count(Status::Sat),
            count(Status::Unsat),
            count(Status::Unknown)
        )
    })
}

/// One finished run, on stderr; wrong answers are shouted.
pub fn run_line(family: &Family, racers: &[Racer], run: &Run, done: usize, total: usize) {
    let file = &family.manifest.instances[run.instance].file;
    let who = &racers[run.solver].label;
    if let Verdict::Wrong(why) = &run.verdict {
        eprintln!("pq-sat: WRONG ANSWER from '{who}' on {file}: {why}");
        return;
    }
    let detail = match (&run.verdict, run.optimum) {
        (Verdict::Error(e) | Verdict::Disputed(e), _) => format!(" ({e})"),
        (_, Some(n)) => format!(" (optimum {n})"),
        _ => String::new(),
    };
    crate::progress::note!(
        "pq-sat: [{done}/{total}] {who} on {file}: {} ({:.2} s){detail}",
        run.verdict.name(),
        run.seconds
    );
}

/// How `race` prints its results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RaceFormat {
    /// The text table or JSON.
    Report(Format),
    /// One CSV row per run (`file,solver,expected,verdict,seconds,optimum,detail`), for a
    /// spreadsheet or a plotting script.
    Csv,
}

/// The results table, JSON with every run, or CSV with one row per run.
pub fn race(
    family: &Family,
    racers: &[Racer],
    runs: &[Run],
    scores: &[Score],
    timeout: f64,
    format: RaceFormat,
) -> Result<()> {
    let complete = runs.len() == family.formulas.len() * racers.len();
    let report = RaceReport {
        family: family.dir.display().to_string(),
        instances: family.formulas.len(),
        timeout,
        complete,
        solvers: racers
            .iter()
            .zip(scores)
            .map(|(r, s)| ScoreReport {
                solver: r.label.clone(),
                solved: s.solved(),
                score: s.clone(),
            })
            .collect(),
        runs: runs
            .iter()
            .map(|r| {
                let e = &family.manifest.instances[r.instance];
                RunReport {
                    file: e.file.clone(),
                    solver: racers[r.solver].label.clone(),
                    expected: e.expected,
                    verdict: r.verdict.name().into(),
                    detail: r.verdict.detail().map(String::from),
                    optimum: r.optimum,
                    seconds: r.seconds,
                }
            })
            .collect(),
        disputed: disputes(runs, family, racers)
            .into_iter()
            .map(|d| {
                let e = &family.manifest.instances[d.instance];
                DisputeReport {
                    file: e.file.clone(),
                    expected: e.expected,
                    detail: d.detail,
                }
            })
            .collect(),
    };
    match format {
        RaceFormat::Report(format) => super::emit(format, &report, || report.text()),
        RaceFormat::Csv => super::emit_text(&report.csv()),
    }
}

impl RaceReport {
    /// One CSV row per run, under a header row.
    fn csv(&self) -> String {
        use pq_bench::family::manifest::csv_field;
        let mut out = String::from("file,solver,expected,verdict,seconds,optimum,detail\n");
        for r in &self.runs {
            out += &format!(
                "{},{},{},{},{},{},{}\n",
                csv_field(&r.file),
                csv_field(&r.solver),
                r.expected.name(),
                r.verdict,
                r.seconds,
                r.optimum.map_or(String::new(), |n| n.to_string()),
                csv_field(r.detail.as_deref().unwrap_or_default())
            );
        }
        out
    }

    /// The results table, with the wrong answers and the disputed instances under it.
    fn text(&self) -> String {
        let width = self
            .solvers
            .iter()
            .map(|s| s.solver.len())
            .max()
            .unwrap_or(6)
            .max(6);
        let mut out = format!(
            "{} instances, time limit {} s, PAR-2 = sum of run times, unsolved and wrong counted as {} s (disputed: its time){}\n",
            self.instances,
            self.timeout,
            2.0 * self.timeout,
            if self.complete { "" } else { " (interrupted: not every run finished)" }
        );
        out += &format!(
            "{:<width$}  {:>6}  {:>5}  {:>5}  {:>7}  {:>5}  {:>5}  {:>8}  {:>10}\n",
            "solver",
            "solved",
            "sat",
            "unsat",
            "unknown",
            "error",
            "WRONG",
            "disputed",
            "PAR-2 (s)"
        );
        for s in &self.solvers {
            let c = &s.score;
            out += &format!(
                "{:<width$}  {:>6}  {:>5}  {:>5}  {:>7}  {:>5}  {:>5}  {:>8}  {:>10.1}\n",
                s.solver,
                s.solved,
                c.sat,
                c.unsat,
                c.unknown,
                c.errors,
                c.wrong,
                c.disputed,
                c.par2
            );
        }
        for r in self.runs.iter().filter(|r| r.verdict == "wrong") {
            let why = r.detail.as_deref().unwrap_or_default();
            out += &format!("WRONG: {} on {}: {why}\n", r.solver, r.file);
        }
        for d in &self.disputed {
            out += &format!("disputed: {}: {}\n", d.file, d.detail);
        }
        out
    }
}

/// The cactus plot of the race.
pub fn cactus(
    path: &Path,
    family: &Family,
    racers: &[Racer],
    scores: &[Score],
    timeout: f64,
    policy: pq_io::output::WritePolicy,
) -> Result<()> {
    let series: Vec<plot::Series> = racers
        .iter()
        .zip(scores)
        .map(|(r, s)| plot::Series {
            solver: r.label.clone(),
            solved_seconds: s.solved_seconds.clone(),
        })
        .collect();
    let title = format!(
        "{} ({} instances)",
        family
            .dir
            .file_name()
            .map_or_else(|| "race".into(), |n| n.to_string_lossy().into_owned()),
        family.formulas.len()
    );
    // Rendered first, so that a rendering error creates no file.
    let svg = plot::cactus_svg(&series, timeout, family.formulas.len(), &title)?;
    crate::files::write_svg(path, &svg, policy)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn race_reports_round_trip() {
        let score = Score {
            sat: 2,
            unsat: 1,
            par2: 3.5,
            ..Score::default()
        };
        let report = RaceReport {
            family: "fam".into(),
            instances: 3,
            timeout: 10.0,
            complete: true,
            solvers: vec![ScoreReport {
                solver: "kissat".into(),
                solved: score.solved(),
                score,
            }],
            runs: vec![RunReport {
                file: "a.cnf".into(),
                solver: "kissat".into(),
                expected: Status::Sat,
                verdict: "sat".into(),
                detail: None,
                optimum: None,
                seconds: 0.5,
            }],
            disputed: vec![DisputeReport {
                file: "a.cnf".into(),
                expected: Status::Unsat,
                detail: "the manifest is wrong".into(),
            }],
        };
        crate::tests::round_trip(&report);
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["solvers"][0]["solved"], 3);
        assert_eq!(json["solvers"][0]["par2"], 3.5);
        assert_eq!(json["disputed"][0]["expected"], "unsat");
        assert!(report
            .text()
            .contains("disputed: a.cnf: the manifest is wrong"));
    }
}
