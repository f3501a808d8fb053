//! `pq-sat race`: solvers against each other on a family.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use anyhow::Result;
use pq_bench::race::{race, scores, Family, Racer};
use pq_engine::proof::ProofFormat;
use pq_engine::sat::maxsat::Optimiser;
use pq_report::race as report;
use pq_solve::spec::BackendSpec;

use crate::{unless_interrupted, Interruptible};

/// A race to run.
#[derive(Debug)]
pub struct Race {
    /// The family: made by `pq-sat family`, or any folder of `.cnf` files.
    pub dir: PathBuf,
    /// Each solver as (label, backend, optimiser), in the order given (an optimiser, rc2 or
    /// clasp, on optimisation families), from [`solvers`].
    pub solvers: Vec<(String, BackendSpec, Option<Optimiser>)>,
    /// With `--check-unsat`: each UNSAT counts only with a checked proof in this format.
    pub check_unsat: Option<ProofFormat>,
    /// The limit of each run (one solver on one instance).
    pub timeout: Duration,
    /// Runs at a time.
    pub jobs: usize,
    /// Where to draw the cactus plot, if anywhere.
    pub plot: Option<PathBuf>,
    /// Whether the plot may replace a file.
    pub force: bool,
    /// How the scores are printed.
    pub format: report::RaceFormat,
}

/// The solvers named by `labels` (backend names, optimisers or commands): named once each,
/// and able to write the proofs `--check-unsat` asks for.
pub fn solvers(
    labels: &[String],
    check_unsat: bool,
) -> Result<Vec<(String, BackendSpec, Option<Optimiser>)>, String> {
    let mut solvers = Vec::new();
    for label in labels {
        let label = label.trim().to_string();
        if label.is_empty() {
            return Err("--backend needs a name or a command".into());
        }
        // An optimiser races on optimisation families; the in-process CaDiCaL confirms its
        // bound under --check-unsat.
        let optimiser = label.parse::<Optimiser>().ok();
        let spec = match optimiser {
            Some(_) => BackendSpec::Cadical,
            None => label
                .parse::<BackendSpec>()
                .unwrap_or_else(|_| BackendSpec::Command(label.clone())),
        };
        if solvers.iter().any(|(l, _, _)| *l == label) {
            return Err(format!("--backend '{label}' is given twice"));
        }
        if check_unsat {
            pq_engine::proof::check_capable(&spec, ProofFormat::Drat)
                .map_err(|e| format!("--check-unsat: {e}"))?;
        }
        solvers.push((label, spec, optimiser));
    }
    Ok(solvers)
}

impl Race {
    /// Races the solvers on the family; exit 1 when any answer was wrong.
    pub fn run(self) -> Result<u8> {
        let Race {
            dir,
            solvers,
            check_unsat,
            timeout,
            jobs,
            plot,
            force,
            format,
        } = self;
        crate::input_dir(
            &dir,
            "family",
            "make one with pq-sat family, or give a folder of .cnf files",
        )?;
        let family = Family::load(&dir)?;
        let written = family.manifest.instances[0].format.clone();
        for optimiser in solvers.iter().filter_map(|(_, _, o)| *o) {
            let reads = optimiser.export().name();
            if written.as_deref() != Some(reads) {
                let this = written.as_deref().unwrap_or("a DIMACS (cnf)");
                anyhow::bail!(
                    "--backend {}: an optimiser that reads {reads}; this family is {this} (write one with pq-sat family --instance-format {reads})",
                    optimiser.name()
                );
            }
            optimiser.check_installed()?;
        }
        let racers = solvers
            .into_iter()
            .map(|(label, spec, optimiser)| {
                Ok(Racer {
                    optimiser,
                    backend: pq_engine::sat::member(&spec, check_unsat).map_err(|e| {
                        // Name the flag's value, unless the message already does.
                        if e.to_string().contains(&format!("'{label}'")) {
                            anyhow::Error::new(e)
                        } else {
                            anyhow::Error::new(e).context(format!("--backend '{label}'"))
                        }
                    })?,
                    label,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let total = family.formulas.len() * racers.len();
        let done = AtomicUsize::new(0);
        let runs = {
            let _guard = Interruptible::enter();
            race(&family, &racers, timeout, jobs, &|r| {
                let k = done.fetch_add(1, Ordering::SeqCst) + 1;
                report::run_line(&family, &racers, r, k, total);
            })
        };
        // After Ctrl-C the runs that finished are kept: the table (marked as interrupted), the
        // CSV and the plot show them, and the exit code is 130.
        let scores = scores(&runs, racers.len(), timeout);
        let secs = timeout.as_secs_f64();
        report::race(&family, &racers, &runs, &scores, secs, format)?;
        if let Some(path) = &plot {
            let policy = pq_io::output::WritePolicy::from_force(force);
            report::cactus(path, &family, &racers, &scores, secs, policy)?;
        }
        let wrong = scores.iter().any(|s| s.wrong > 0);
        Ok(unless_interrupted(u8::from(wrong)))
    }
}
