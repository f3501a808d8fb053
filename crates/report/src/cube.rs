//! The reports of `solve-cube`, `conquer` and `cube-status`.

use pq_board::placement::Placement;
use pq_encode::header::one_line;
use pq_encode::spec::Problem;
use pq_engine::capability::Status;
use pq_engine::cube::conquer::CubeDir;
use pq_engine::cube::status::{Finding, Summary, Verdict};
use pq_engine::cube::CubeResult;
use serde::Serialize;

use super::board_text;
use super::solve::Witness;

/// `solve-cube`'s report: one cube's result, as recorded.
#[derive(Serialize)]
pub struct CubeSolved {
    /// The cube directory.
    pub dir: String,
    /// The result written to `results/ID.json` (or, with `--resume`, found there).
    #[serde(flatten)]
    pub result: CubeResult,
    /// The cube's literals.
    pub cube: Vec<i32>,
    /// For SAT: the validated placement.
    #[serde(flatten)]
    pub witness: Option<Witness>,
    /// Why the answer is unknown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Whether the result file was written (false: the interrupted cube keeps none, or
    /// `--resume` found it decided already).
    pub recorded: bool,
}

impl CubeSolved {
    /// The text form: one line, and the board for SAT.
    pub fn text(&self, problem: Option<&Problem>, placement: Option<&Placement>) -> String {
        let r = &self.result;
        let trust = match r.verified {
            Some(true) => ", proof checked",
            _ => "",
        };
        let mut text = format!(
            "cube {}: {} ({}, {:.2} s{trust})",
            r.id,
            r.status.name().to_uppercase(),
            r.solver,
            r.seconds
        );
        if let Some(reason) = &self.reason {
            text.push_str(&format!(": {reason}"));
        }
        if let Some(proof) = &r.proof {
            text.push_str(&format!("; proof {}/proofs/{proof}", self.dir));
        }
        text.push('\n');
        if let (Some(p), Some(placement)) = (problem, placement) {
            text.push_str(&board_text(p, placement));
        }
        text
    }
}

/// `solve-cube --completeness`'s report.
#[derive(Serialize)]
pub struct Completeness {
    /// The cube directory.
    pub dir: String,
    /// `complete`, `incomplete` or `unknown`.
    pub status: String,
    /// The number of cubes.
    pub cubes: usize,
    /// The solver.
    pub solver: String,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// The proof written, with `--proof`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof: Option<String>,
    /// Whether the independent checker verified it (`--check-unsat`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verified: Option<bool>,
}

/// The cube that took longest (by CPU time where recorded).
#[derive(Serialize)]
pub struct Largest {
    /// Its id.
    pub id: usize,
    /// Its solver's wall seconds.
    pub seconds: f64,
    /// Its CPU seconds, if recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu_seconds: Option<f64>,
}

/// `cube-status`'s report, and the totals `conquer` ends with.
#[derive(Serialize)]
pub struct CubeTotals {
    /// The cube directory.
    pub dir: String,
    /// What the formula is, as re-derived from it (never the manifest's word).
    pub problem: String,
    /// `sat`, `unsat` or `open`.
    pub status: String,
    /// Cubes in the manifest.
    pub cubes: usize,
    /// Cubes with each answer, and without a result.
    pub sat: usize,
    /// See `sat`.
    pub unsat: usize,
    /// See `sat`.
    pub unknown: usize,
    /// See `sat`.
    pub missing: usize,
    /// The ids of the cubes without a result, and of those whose result is unknown.
    pub open_ids: Vec<usize>,
    /// UNSAT results whose proof file is in the directory (checked by `--check` only: a
    /// result's own word that its proof was checked is not counted).
    pub proofs_on_disk: usize,
    /// UNSAT results whose proof was dropped after its check (`--keep-proof none`); their
    /// records let `--check` make them again.
    pub proofs_dropped: usize,
    /// Cubes whose result file was written for another formula or cube (a worker on an
    /// earlier split): not counted, and solved again by `conquer`.
    pub stale: Vec<usize>,
    /// The solvers' wall seconds summed over the cubes, each on its worker: more than
    /// their CPU time when the machine was shared or the run paused.
    pub cube_wall_seconds: f64,
    /// The CPU seconds summed over the cubes that record them (`cpu_recorded`).
    pub cpu_seconds: f64,
    /// How many results record their CPU seconds (those written before pq-sat kept them
    /// do not).
    pub cpu_recorded: usize,
    /// The cube that took longest.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub largest: Option<Largest>,
    /// For SAT: the cube whose model is the witness.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sat_cube: Option<usize>,
    /// For SAT: its validated placement.
    #[serde(flatten)]
    pub witness: Option<Witness>,
    /// With `--check`: each check and its verdict.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checks: Option<Vec<CheckItem>>,
    /// With `--check`: true when every check passed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checked: Option<bool>,
    /// With `--check --sample`: true when every check of the spot check passed (`checked`
    /// is then absent: a sample does not check the bundle).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spot_checked: Option<bool>,
}

/// One check of `cube-status --check`.
#[derive(Serialize)]
pub struct CheckItem {
    /// What was checked.
    pub what: String,
    /// Whether it passed.
    pub ok: bool,
    /// What was found.
    pub detail: String,
}

impl CubeTotals {
    /// The totals of `summary` for `dir`.
    pub fn of(dir: &CubeDir, summary: &Summary) -> CubeTotals {
        let mut open_ids = summary.missing();
        open_ids.extend(summary.ids(Status::Unknown));
        open_ids.sort_unstable();
        let witness = match (&summary.witness, &dir.problem) {
            (Some((_, Some(p))), Some(problem)) => Some(Witness::of(problem, p)),
            _ => None,
        };
        CubeTotals {
            dir: dir.path.display().to_string(),
            problem: dir.origin.describe(),
            status: match summary.verdict {
                Verdict::Sat => "sat",
                Verdict::Unsat => "unsat",
                Verdict::Open => "open",
            }
            .into(),
            cubes: dir.manifest.cubes.len(),
            sat: summary.ids(Status::Sat).len(),
            unsat: summary.ids(Status::Unsat).len(),
            unknown: summary.ids(Status::Unknown).len(),
            missing: summary.missing().len(),
            open_ids,
            proofs_on_disk: summary.proofs_on_disk(dir),
            proofs_dropped: summary.proofs_dropped(),
            stale: summary.stale.clone(),
            cube_wall_seconds: summary.wall_seconds(),
            cpu_seconds: summary.cpu_seconds().0,
            cpu_recorded: summary.cpu_seconds().1,
            largest: summary.largest().map(|r| Largest {
                id: r.id,
                seconds: r.seconds,
                cpu_seconds: r.cpu_seconds,
            }),
            sat_cube: summary.witness.as_ref().map(|(r, _)| r.id),
            witness,
            checks: None,
            checked: None,
            spot_checked: None,
        }
    }

    /// Adds the findings of `cube-status --check` (with `sampled`, of a spot check).
    pub fn with_checks(mut self, findings: &[Finding], sampled: bool) -> CubeTotals {
        let passed = Some(findings.iter().all(|f| f.ok));
        if sampled {
            self.spot_checked = passed;
        } else {
            self.checked = passed;
        }
        self.checks = Some(
            findings
                .iter()
                .map(|f| CheckItem {
                    what: f.what.clone(),
                    ok: f.ok,
                    detail: f.detail.clone(),
                })
                .collect(),
        );
        self
    }

    /// The times line: CPU seconds where the results record them, the wall seconds on the
    /// workers, and the largest cube.
    fn times_text(&self) -> String {
        let answered = self.sat + self.unsat + self.unknown;
        let cpu = match self.cpu_recorded {
            0 => String::new(),
            k if k == answered => format!("cpu {:.2} s, ", self.cpu_seconds),
            k => format!("cpu {:.2} s over the {k} recording it, ", self.cpu_seconds),
        };
        let largest = self.largest.as_ref().map_or(String::new(), |l| {
            let cpu = l
                .cpu_seconds
                .map_or(String::new(), |c| format!("{c:.2} s cpu, "));
            format!("; largest cube {} ({cpu}{:.2} s wall)", l.id, l.seconds)
        });
        format!(
            "{cpu}wall {:.2} s over the cubes, each on its worker{largest}\n",
            self.cube_wall_seconds
        )
    }

    /// The text form: what is proven, the counts, the board for SAT, the checks.
    pub fn text(&self, problem: Option<&Problem>, placement: Option<&Placement>) -> String {
        let mut text = match self.status.as_str() {
            "sat" => format!(
                "SAT: cube {} of {} has a model ({})\n",
                self.sat_cube.unwrap_or(0),
                self.cubes,
                self.problem
            ),
            "unsat" => format!(
                "UNSAT: all {} cubes are UNSAT ({}; {} of them with a proof on disk{})\n",
                self.cubes,
                self.problem,
                self.proofs_on_disk,
                match self.proofs_dropped {
                    0 => String::new(),
                    k => format!(", {k} with a proof dropped after its check"),
                }
            ),
            _ => format!(
                "OPEN: {} of {} cubes UNSAT, {} unknown, {} missing ({})\n",
                self.unsat, self.cubes, self.unknown, self.missing, self.problem
            ),
        };
        if self.status == "unsat" && self.checks.is_none() {
            text.push_str("so is the formula: its split, re-run, gives exactly these cubes; `pq-sat cube-status DIR --check` checks the proofs of the cubes and of their completeness\n");
        }
        if !self.stale.is_empty() {
            text.push_str(&format!(
                "ignored: the results of cubes {} name another formula or cube (written by a worker on an earlier split); `pq-sat conquer` solves them again\n",
                id_ranges(&self.stale, SHOWN_RANGES)
            ));
        }
        if !self.open_ids.is_empty() && self.status == "open" {
            text.push_str(&format!(
                "not yet solved: {}\n",
                id_ranges(&self.open_ids, SHOWN_RANGES)
            ));
        }
        text.push_str(&self.times_text());
        if let (Some(p), Some(placement)) = (problem, placement) {
            text.push_str(&board_text(p, placement));
        }
        for c in self.checks.iter().flatten() {
            let mark = if c.ok { "ok" } else { "FAILED" };
            // A detail may quote a file of the directory: one line, control characters escaped.
            let (what, detail) = (one_line(&c.what), one_line(&c.detail));
            text.push_str(&format!("{mark}: {what}: {detail}\n"));
        }
        match self.checked {
            Some(true) => text.push_str("bundle checked: every check passed\n"),
            Some(false) => text.push_str("bundle NOT checked: see the FAILED lines\n"),
            None => {}
        }
        match self.spot_checked {
            Some(true) => text.push_str(
                "spot check passed: every sampled check passed (the bundle as a whole was not checked)\n",
            ),
            Some(false) => text.push_str("spot check FAILED: see the FAILED lines\n"),
            None => {}
        }
        text
    }
}

/// How many ranges of open ids the text shows: a split of 10^5 cubes half done would
/// otherwise print pages of them.
const SHOWN_RANGES: usize = 12;

/// `1-3, 7, 9-10`: sorted ids as ranges, at most `limit` of them (then how many more).
pub fn id_ranges(ids: &[usize], limit: usize) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < ids.len() {
        let mut j = i;
        while j + 1 < ids.len() && ids[j + 1] == ids[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            ids[i].to_string()
        } else {
            format!("{}-{}", ids[i], ids[j])
        });
        i = j + 1;
    }
    if parts.len() > limit {
        let more = parts.len() - limit;
        parts.truncate(limit);
        return format!(
            "{}, and {more} more ranges ({} cubes in all; --format json lists every id)",
            parts.join(", "),
            ids.len()
        );
    }
    parts.join(", ")
}

/// `conquer`'s report: the totals after the run, and the run's own figures.
#[derive(Serialize)]
pub struct ConquerReport {
    /// The totals over every result (earlier runs' too).
    #[serde(flatten)]
    pub totals: CubeTotals,
    /// Cubes solved in this run.
    pub solved_now: usize,
    /// Cubes skipped because an earlier run decided them.
    pub skipped: usize,
    /// Wall-clock seconds of this run.
    pub wall_seconds: f64,
    /// Worker threads.
    pub jobs: usize,
    /// Whether each worker solved incrementally.
    pub incremental: bool,
    /// The solver.
    pub solver: String,
}

impl ConquerReport {
    /// The text form: the totals and the run's line.
    pub fn text(&self, problem: Option<&Problem>, placement: Option<&Placement>) -> String {
        let mut text = self.totals.text(problem, placement);
        text.push_str(&format!(
            "this run: {} cubes solved, {} skipped as done, {:.2} s wall on {} worker{} ({}{})\n",
            self.solved_now,
            self.skipped,
            self.wall_seconds,
            self.jobs,
            if self.jobs == 1 { "" } else { "s" },
            self.solver,
            if self.incremental {
                ", incremental"
            } else {
                ""
            }
        ));
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_ids_read_as_ranges_and_a_long_list_is_cut() {
        assert_eq!(id_ranges(&[1, 2, 3, 5, 7, 8], 12), "1-3, 5, 7-8");
        let many: Vec<usize> = (1..=100).filter(|i| i % 3 != 0).collect();
        assert_eq!(
            id_ranges(&many, 2),
            "1-2, 4-5, and 32 more ranges (67 cubes in all; --format json lists every id)"
        );
    }
}
