//! `pq-sat race`: solvers against each other on a family.

use super::files;
use crate::args::checkable;
use crate::args::parse_jobs;
use crate::args::parse_timeout;
use clap::Args as ClapArgs;
use pq_io::output::Output;
use std::path::Path;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use anyhow::Result;
use pq_bench::race::{race, scores, Family, Racer};
use pq_engine::optimisers::Optimiser;
use pq_engine::proof::ProofFormat;
use pq_solve::BackendSpec;

use super::{unless_interrupted, Interruptible};
use pq_report::race as report;

/// The race to run, validated.
#[derive(Debug)]
pub(crate) struct RaceJob {
    /// The arguments as given.
    pub args: RaceArgs,
    /// Each solver as (label, backend, optimiser), in the order given (an optimiser, rc2 or
    /// clasp, on optimisation families).
    pub solvers: Vec<(String, BackendSpec, Option<Optimiser>)>,
    /// With `--check-unsat`: each UNSAT counts only with a checked proof in this format.
    pub check_unsat: Option<ProofFormat>,
}

impl RaceArgs {
    /// Checks the solvers: named once each, and able to write the proofs asked for.
    pub(crate) fn validate(self, check_unsat: bool) -> Result<RaceJob, String> {
        let mut solvers = Vec::new();
        for label in &self.solver {
            let label = label.trim().to_string();
            if label.is_empty() {
                return Err("--backend needs a name or a command".into());
            }
            // An optimiser races on optimisation families; the in-process CaDiCaL
            // confirms its bound under --check-unsat.
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
                checkable(&spec, ProofFormat::Drat)?;
            }
            solvers.push((label, spec, optimiser));
        }
        Ok(RaceJob {
            args: self,
            solvers,
            check_unsat: check_unsat.then_some(ProofFormat::Drat),
        })
    }
}

/// Races `solvers` (label, backend) on the family in `DIR`; exit 1 when any answer was
/// wrong.
/// With `check_unsat`, every UNSAT counts only with a checked proof in that format.
fn run(job: RaceJob) -> Result<u8> {
    let RaceJob {
        args,
        solvers,
        check_unsat,
    } = job;
    let a = &args;
    let (timeout, jobs) = (a.timeout, a.jobs.unwrap_or_else(crate::args::default_jobs));
    super::input_dir(
        &a.dir,
        "family",
        "make one with pq-sat family, or give a folder of .cnf files",
    )?;
    let family = Family::load(&a.dir)?;
    let format = family.manifest.instances[0].format.clone();
    for optimiser in solvers.iter().filter_map(|(_, _, o)| *o) {
        let reads = optimiser.export().name();
        if format.as_deref() != Some(reads) {
            let this = format.as_deref().unwrap_or("a DIMACS (cnf)");
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
                backend: pq_engine::plan::member(&spec, check_unsat).map_err(|e| {
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
    report::race(
        &family,
        &racers,
        &runs,
        &scores,
        secs,
        a.format.race_format(),
    )?;
    if let Some(path) = &a.plot {
        let policy = pq_io::output::WritePolicy::from_force(a.replace.force);
        report::cactus(path, &family, &racers, &scores, secs, policy)?;
    }
    let wrong = scores.iter().any(|s| s.wrong > 0);
    Ok(unless_interrupted(u8::from(wrong)))
}

#[derive(ClapArgs, Debug)]
pub(crate) struct RaceArgs {
    #[command(flatten)]
    pub checking: crate::args::CheckUnsatArg,
    /// A family (made by `pq-sat family`), or any folder of *.cnf files
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// A solver: a backend name (kissat, minisat, cadical-bin, cadical, varisat) or a
    /// command with SAT-competition output, e.g. 'cadical -q'. Repeat for each solver
    #[arg(long = "backend", value_name = "B", required = true)]
    pub solver: Vec<String>,
    /// Time limit of each run (one solver on one instance), in seconds
    #[arg(long = "run-timeout", value_name = "SEC", default_value = "60", value_parser = parse_timeout)]
    pub timeout: Duration,
    /// Runs at a time [default: the number of cores]
    #[arg(long, short = 'j', value_name = "N", value_parser = parse_jobs)]
    pub jobs: Option<usize>,
    /// Draw a cactus plot (SVG) into FILE
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    #[command(flatten)]
    pub replace: crate::args::ForceArg,
    /// Output format: text (a table), json (every run) or csv (one row per run)
    #[arg(help_heading = "Output", long, value_enum, value_name = "FORMAT", default_value_t = RaceOutput::Text)]
    pub format: RaceOutput,
}

/// `race --format`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RaceOutput {
    /// The scores table, wrong answers and disputes under it
    Text,
    /// One JSON object with the scores and every run
    Json,
    /// One CSV row per run: file, solver, expected, verdict, seconds, optimum, detail
    Csv,
}

impl RaceOutput {
    fn race_format(self) -> report::RaceFormat {
        match self {
            RaceOutput::Text => report::RaceFormat::Report(pq_report::Format::Text),
            RaceOutput::Json => report::RaceFormat::Report(pq_report::Format::Json),
            RaceOutput::Csv => report::RaceFormat::Csv,
        }
    }
}

impl super::Job for RaceJob {
    fn outputs(&self) -> (Vec<Output<'_>>, bool) {
        (files("--plot", &self.args.plot), self.args.replace.force)
    }
    fn input_dirs(&self) -> Vec<&Path> {
        vec![&self.args.dir]
    }
    fn run(self: Box<Self>) -> Result<u8> {
        run(*self)
    }
}
