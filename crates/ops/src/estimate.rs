//! `pq-sat estimate`: what one step costs the line engine, from a random sample of its
//! units of work ([`pq_engine::lines::estimate`]).

use std::path::PathBuf;

use anyhow::Result;
use pq_encode::spec::Problem;
use pq_engine::lines::estimate::{estimate, EstimateSettings};
use pq_io::output::WritePolicy;
use pq_report::emit;
use pq_report::files::write_svg;
use pq_report::plot::estimate_picture;
use pq_report::progress::note;
use pq_report::split::{estimate_text, status_name};

use crate::{unless_interrupted, Interruptible};

/// A step to estimate.
#[derive(Debug)]
pub struct Estimate {
    /// The problem.
    pub problem: Problem,
    /// The size of its maximised groups.
    pub n: usize,
    /// The sample's size, seed and limit per unit.
    pub settings: EstimateSettings,
    /// Where to draw the sample's times, if anywhere.
    pub plot: Option<PathBuf>,
    /// Whether the picture may replace a file.
    pub force: bool,
    /// How the report is printed.
    pub format: pq_report::Format,
}

impl Estimate {
    /// Runs the sample and prints the estimate; exit 0.
    pub fn run(&self) -> Result<u8> {
        let e = {
            let _guard = Interruptible::enter();
            estimate(&self.problem, self.n, &self.settings, &mut |unit, s, k| {
                note!(
                    "pq-sat: {unit} {} ({k} of the sample): {} in {:.3} s ({:.3} s cpu)",
                    s.id,
                    status_name(s.status),
                    s.seconds,
                    s.cpu_seconds
                );
            })?
        };
        if let Some(path) = &self.plot {
            let policy = WritePolicy::from_force(self.force);
            write_svg(path, &estimate_picture(&e)?, policy)?;
        }
        emit(self.format, &e, || estimate_text(&e))?;
        Ok(unless_interrupted(0))
    }
}
