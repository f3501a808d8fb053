//! `pq-sat cube-status DIR`: the results of a cube directory merged (from any number of
//! workers and machines) into what is proven, and on demand the whole bundle re-checked from
//! its files.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result};
use pq_engine::cube::status::{check_bundle, merged, summary, Sample, Verdict};
use pq_report::cube::CubeTotals;
use pq_report::emit;
use pq_solve::control::Limits;

use crate::open_cube_dir as open;
use crate::{unless_interrupted, Interruptible, EXIT_SAT, EXIT_UNSAT};

/// A cube directory to sum up.
#[derive(Debug)]
pub struct CubeStatus {
    /// The cube directory.
    pub dir: PathBuf,
    /// With the re-check of the whole bundle: (its limit, jobs, the sample of cubes whose
    /// answers are solved again, if any).
    pub check: Option<(Option<Duration>, usize, Option<Sample>)>,
    /// How the report is printed.
    pub format: pq_report::Format,
}

impl CubeStatus {
    /// Sums up (and checks); the exit code is 10 or 20 as the cubes decide, 0 while some
    /// are open, 1 when a check failed.
    pub fn run(&self) -> Result<u8> {
        let a = self;
        let dir = open(&a.dir)?;
        // Checked, the completeness proof shows the cubes cover the formula; unchecked, the
        // split must be re-derived (or such a proof be on disk).
        let summary = if a.check.is_some() {
            merged(&dir)?
        } else {
            summary(&dir)?
        };
        let mut totals = CubeTotals::of(&dir, &summary);
        if let Some((timeout, jobs, sample)) = a.check {
            let _guard = Interruptible::enter();
            let findings = check_bundle(&dir, &Limits::timeout(timeout), jobs, sample)
                .with_context(|| format!("cannot check the bundle in {}", dir.path.display()))?;
            totals = totals.with_checks(&findings, sample.is_some());
        }
        let placement = summary.witness.as_ref().and_then(|(_, p)| p.as_ref());
        emit(a.format, &totals, || {
            totals.text(dir.problem.as_ref(), placement)
        })?;
        if totals.checked == Some(false) || totals.spot_checked == Some(false) {
            return Ok(1);
        }
        Ok(unless_interrupted(match summary.verdict {
            Verdict::Sat => EXIT_SAT,
            Verdict::Unsat => EXIT_UNSAT,
            Verdict::Open => 0,
        }))
    }
}
