//! `pq-sat submission`: a benchmark submission for the SAT Competition, from a pool of
//! instances to a graded, proven, described directory. Its arguments, their validation and
//! its run live here together; its text is in [`pq_report::submission`].

use super::directory;
use pq_io::output::Output;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;
use clap::Args as ClapArgs;
use pq_bench::race::Racer;
use pq_bench::submission::{self, Event, Pool, Settings};
use pq_engine::proof::ProofFormat;
use pq_solve::BackendSpec;

use super::Interruptible;
use crate::args::{parse_jobs, parse_timeout};
use pq_report::progress::note;

/// The pool `submission` draws from unless `--pool` says otherwise (in pq-sat's repository).
pub(crate) const DEFAULT_POOL: &str = "pools/submission.toml";

#[derive(ClapArgs, Debug)]
pub(crate) struct SubmissionArgs {
    /// The directory to create (it must not exist, or be empty; --force replaces an earlier
    /// submission)
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
    /// The pool of instances: a TOML file of `[[instance]]` entries, each with a series, a
    /// problem (peaceable-queens with dim = D, or a problem file relative to the pool), its
    /// settings (`set = ["board=9x9"]`) and n
    #[arg(long, value_name = "FILE", default_value = DEFAULT_POOL)]
    pub pool: PathBuf,
    /// A racing solver (a backend that writes DRAT proofs: kissat, cadical-bin, cadical,
    /// varisat, or a command with {proof}). Repeat for each; default: kissat and cadical-bin,
    /// the competitions' reference solvers
    #[arg(long = "backend", value_name = "B")]
    pub solver: Vec<String>,
    /// The race's limit per run, in seconds: an instance no solver answers within it is hard
    #[arg(long = "run-timeout", value_name = "SEC", default_value = "300", value_parser = parse_timeout)]
    pub timeout: Duration,
    /// Below this many seconds for the best solver an instance is easy, else medium
    /// [default: 60, or --run-timeout if that is less]
    #[arg(long, value_name = "SEC", value_parser = parse_timeout)]
    pub easy: Option<Duration>,
    /// The limit for proving a status the race left without evidence: an UNSAT solved again
    /// with a DRAT proof and checked; a hard instance given to the line engine for a
    /// witness, then to the first solver with a DRAT proof [default: 10 times --run-timeout]
    #[arg(long, value_name = "SEC", value_parser = parse_timeout)]
    pub prove_timeout: Option<Duration>,
    /// Runs at a time [default: the number of cores]
    #[arg(long, short = 'j', value_name = "N", value_parser = parse_jobs)]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub replace: crate::args::ForceArg,
    #[command(flatten)]
    pub report: crate::args::FormatArg,
}

/// A validated `submission`: the pool read, the solvers resolved.
#[derive(Debug)]
pub(crate) struct SubmissionJob {
    /// The arguments as given.
    pub args: SubmissionArgs,
    /// The pool, read and every instance checked.
    pub pool: Pool,
    /// Each racer's label and backend.
    pub solvers: Vec<(String, BackendSpec)>,
}

impl SubmissionArgs {
    /// Checks the solvers (each must write a DRAT proof the checker reads, or its UNSAT
    /// answers could not be proven) and the limits.
    pub(crate) fn validate(self) -> Result<SubmissionJob, String> {
        let labels = if self.solver.is_empty() {
            vec!["kissat".to_string(), "cadical-bin".to_string()]
        } else {
            self.solver.clone()
        };
        let mut solvers: Vec<(String, BackendSpec)> = Vec::new();
        for label in labels {
            let label = label.trim().to_string();
            if label.is_empty() {
                return Err("--backend needs a name or a command".into());
            }
            if solvers.iter().any(|(l, _)| *l == label) {
                return Err(format!("--backend '{label}' is given twice"));
            }
            let spec = label
                .parse::<BackendSpec>()
                .unwrap_or_else(|_| BackendSpec::Command(label.clone()));
            pq_engine::proof::check_capable(&spec, ProofFormat::Drat).map_err(|e| {
                format!("--backend '{label}': {e}; a submission proves every UNSAT it reports")
            })?;
            solvers.push((label, spec));
        }
        if let Some(easy) = self.easy.filter(|&e| e > self.timeout) {
            return Err(format!(
                "--easy {} is above --run-timeout {}: nothing could be medium",
                easy.as_secs_f64(),
                self.timeout.as_secs_f64()
            ));
        }
        let pool = Pool::read(&self.pool).map_err(|e| {
            if self.pool.as_os_str() == DEFAULT_POOL && !self.pool.exists() {
                format!("{e}; the default pool is read from the current directory (run pq-sat from its repository, or give --pool FILE)")
            } else {
                e.to_string()
            }
        })?;
        Ok(SubmissionJob {
            args: self,
            pool,
            solvers,
        })
    }
}

/// Each solver's version as `pq-sat solvers` finds it (none for a command).
fn versions(solvers: &[(String, BackendSpec)]) -> Vec<Option<String>> {
    let survey = pq_solve::survey::survey();
    solvers
        .iter()
        .map(|(label, _)| {
            let info = survey.iter().find(|i| i.name == label.as_str())?;
            info.version.clone()
        })
        .collect()
}

/// Makes the submission; exit 0 when written (a status left unproven is warned about).
fn run(job: &SubmissionJob) -> Result<u8> {
    let (a, pool) = (&job.args, &job.pool);
    let mut racers = Vec::new();
    let mut provers = Vec::new();
    for (label, spec) in &job.solvers {
        racers.push(Racer {
            label: label.clone(),
            backend: pq_engine::plan::member(spec, None)?,
            optimiser: None,
        });
        provers.push(pq_engine::plan::member(spec, Some(ProofFormat::Drat))?);
    }
    let jobs = a.jobs.unwrap_or_else(crate::args::default_jobs);
    let settings = Settings {
        timeout: a.timeout,
        easy: a.easy.unwrap_or(Duration::from_mins(1).min(a.timeout)),
        prove_timeout: a.prove_timeout.unwrap_or(a.timeout * 10),
        jobs,
        command: crate::args::command_line(),
        versions: versions(&job.solvers),
        policy: pq_io::output::WritePolicy::from_force(a.replace.force),
    };
    let total = pool.items.len() * racers.len();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let submission = {
        let _guard = Interruptible::enter();
        submission::write_submission(
            pool,
            &a.output,
            &racers,
            &provers,
            &settings,
            &|e| match e {
                Event::Written(m) => note!(
                    "pq-sat: {} instances written; racing {} ({} s per run, {jobs} at a time)",
                    m.instances.len(),
                    job.solvers
                        .iter()
                        .map(|(l, _)| l.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                    a.timeout.as_secs_f64()
                ),
                Event::Run(r, file, who) => {
                    let k = done.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
                    note!(
                        "pq-sat: [{k}/{total}] {who} on {file}: {} ({:.2} s)",
                        r.verdict.name(),
                        r.seconds
                    );
                }
                Event::Proving(file, how) => note!("pq-sat: {file}: proving its status ({how})"),
            },
        )?
    };
    let unproven = submission.unproven();
    if unproven > 0 {
        eprintln!("pq-sat: warning: {unproven} instance(s) have no proven status; see submission.json's source");
    }
    pq_report::submission::summary(&submission, &a.output, a.report.format.into())?;
    Ok(0)
}

impl super::Job for SubmissionJob {
    fn outputs(&self) -> (Vec<Output<'_>>, bool) {
        let dir = directory("-o", &self.args.output, pq_bench::submission::MARKER);
        (vec![dir], self.args.replace.force)
    }
    fn run(self: Box<Self>) -> Result<u8> {
        run(&self)
    }
}
