//! The report of `cube`: the split, and with `--estimate` the prediction.

use pq_engine::capability::Status;
use pq_engine::cube::estimate::{Estimate, Interval};
use pq_engine::cube::split::Record;
use serde::Serialize;

/// The summary printed on stdout (`--format json`: this object).
#[derive(Serialize)]
pub struct SplitSummary {
    /// The cube directory written.
    pub dir: String,
    /// What the formula is.
    pub problem: String,
    /// The formula's variables.
    pub variables: u32,
    /// The formula's clauses.
    pub clauses: usize,
    /// The number of cubes (also `split.cubes`).
    pub cubes: usize,
    /// The splitter's record, as in the manifest.
    pub split: Record,
    /// With --estimate: the prediction.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimate: Option<Estimate>,
}

/// A cube's status as the estimate's progress lines name it.
pub fn status_name(s: Status) -> &'static str {
    match s {
        Status::Sat => "SAT",
        Status::Unsat => "UNSAT",
        Status::Unknown => "unknown",
    }
}

/// Seconds for people: seconds, minutes, hours or days.
fn duration(s: f64) -> String {
    match s {
        s if s < 120.0 => format!("{s:.2} s"),
        s if s < 7200.0 => format!("{:.1} min", s / 60.0),
        s if s < 172_800.0 => format!("{:.1} h", s / 3600.0),
        s => format!("{:.1} days", s / 86400.0),
    }
}

/// The prediction as a table.
pub fn estimate_text(e: &Estimate) -> String {
    let count = |st| e.sample.iter().filter(|s| s.status == st).count();
    let times = e.sample.iter().map(|s| s.cpu_seconds);
    let largest = times.clone().fold(0.0, f64::max);
    let mean = times.sum::<f64>() / e.sample.len().max(1) as f64;
    let range = |i: &Interval| format!("{} to {}", duration(i.low), duration(i.high));
    let pct = (e.confidence * 100.0).round();
    let unit = &e.unit;
    let mut out = format!(
        "estimate for {} {unit}s from a sample of {} ({}{}, one {unit} at a time, seed {}): {} UNSAT, {} SAT, {} unknown\n",
        e.cubes,
        e.sample.len(),
        e.solver,
        if e.proofs_checked {
            ", every UNSAT with its proof written and checked"
        } else {
            ""
        },
        e.seed,
        count(Status::Unsat),
        count(Status::Sat),
        count(Status::Unknown)
    );
    out += &format!(
        "sampled {unit} times (CPU): mean {}, largest {}\n",
        duration(mean),
        duration(largest)
    );
    out += &format!(
        "total CPU time: {} ({pct}% interval {})\n",
        duration(e.total_cpu.estimate),
        range(&e.total_cpu)
    );
    out += &format!("{:>8}  {:>12}  {pct}% interval\n", "workers", "wall time");
    for w in &e.wall {
        out += &format!(
            "{:>8}  {:>12}  {}\n",
            w.workers,
            duration(w.seconds.estimate),
            range(&w.seconds)
        );
    }
    if let Some(id) = e.sat {
        if unit == "cube" {
            out += &format!("cube {id} is SAT: the formula is satisfiable, and conquering stops at the first SAT cube (the times above are for all cubes)\n");
        } else {
            out += &format!("{unit} {id} has a solution: the step is SAT, and the search stops at its first witness (the times above are for all {unit}s)\n");
        }
    }
    if e.lower_bound {
        out += &format!(
            "some sampled {unit}s reached --{unit}-timeout: every time above is a lower bound\n"
        );
    }
    out += &format!("the intervals cover the sampling error only: a {unit} harder than every sampled one can set the wall time when there are about as many workers as {unit}s\n");
    out
}

/// The text summary: the count and where it went, then how the cubes were made.
pub fn split_text(s: &SplitSummary) -> String {
    let r = &s.split;
    let mut out = format!("{} cubes in {} ({})\n", s.cubes, s.dir, s.problem);
    if r.method == pq_engine::cube::split::Method::Counts.name() {
        out += &format!(
            "split on the numbers of white rows and columns (counters added to the formula): {} pairs, {} dropped by symmetry, {} by counts\n",
            r.line_cubes, r.dropped_by_symmetry, r.dropped_by_counts
        );
    } else if r.prefix > 0 {
        out += &format!(
            "split on {} line colours ({}): {} cubes, {} dropped by symmetry ({} of 16 symmetries keep the prefix), {} by counts\n",
            r.prefix, r.method, r.line_cubes, r.dropped_by_symmetry, r.symmetries, r.dropped_by_counts
        );
    }
    out += &format!(
        "look-ahead: {} splits (depth at most {}, easy at {} free variables); {} refuted by propagation\n",
        r.lookahead_splits, r.depth, r.free, r.refuted_by_propagation
    );
    out += if r.implied {
        "the formula implies the disjunction of the cubes: it is UNSAT exactly when every cube is\n"
    } else {
        "without lex-leader clauses the cubes are complete up to symmetry: the formula is UNSAT exactly when every cube is, but a cube dropped by symmetry may hold models\n"
    };
    out
}
