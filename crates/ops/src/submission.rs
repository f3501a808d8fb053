//! `pq-sat submission`: a benchmark submission for the SAT Competition, from a pool of
//! instances to a graded, proven, described directory; its text is in
//! [`pq_report::submission`].

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Result;
use pq_bench::race::Racer;
use pq_bench::submission::{self, Event, Pool, Settings};
use pq_engine::proof::ProofFormat;
use pq_report::progress::note;
use pq_solve::spec::BackendSpec;

use crate::Interruptible;

/// The pool `submission` draws from unless `--pool` says otherwise (in pq-sat's repository).
pub const DEFAULT_POOL: &str = "pools/submission.toml";

/// A submission to make.
#[derive(Debug)]
pub struct Submission {
    /// The directory to write.
    pub output: PathBuf,
    /// The pool, read and every instance checked ([`pool`]).
    pub pool: Pool,
    /// Each racer's label and backend ([`solvers`]).
    pub solvers: Vec<(String, BackendSpec)>,
    /// The race's limit per run.
    pub timeout: Duration,
    /// Below this the best solver's time makes an instance easy [default: a minute, or the
    /// limit per run if that is less].
    pub easy: Option<Duration>,
    /// The limit for proving a status the race left without evidence [default: 10 times
    /// the limit per run].
    pub prove_timeout: Option<Duration>,
    /// Runs at a time.
    pub jobs: usize,
    /// The command line, for the manifest.
    pub command: String,
    /// Whether an earlier submission may be replaced.
    pub force: bool,
    /// How the summary is printed.
    pub format: pq_report::Format,
}

/// The racers named by `labels` (kissat and cadical-bin, the competitions' reference
/// solvers, when none is): named once each, and each writing a DRAT proof the checker
/// reads, or its UNSAT answers could not be proven.
pub fn solvers(labels: &[String]) -> Result<Vec<(String, BackendSpec)>, String> {
    let labels = if labels.is_empty() {
        vec!["kissat".to_string(), "cadical-bin".to_string()]
    } else {
        labels.to_vec()
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
    Ok(solvers)
}

/// The pool at `path`, every instance checked; the default pool's message says where it is
/// looked for.
pub fn pool(path: &Path) -> Result<Pool, String> {
    Pool::read(path).map_err(|e| {
        if path.as_os_str() == DEFAULT_POOL && !path.exists() {
            format!("{e}; the default pool is read from the current directory (run pq-sat from its repository, or give --pool FILE)")
        } else {
            e.to_string()
        }
    })
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

impl Submission {
    /// Makes the submission; exit 0 when written (a status left unproven is warned about).
    pub fn run(&self) -> Result<u8> {
        let (a, pool) = (self, &self.pool);
        let mut racers = Vec::new();
        let mut provers = Vec::new();
        for (label, spec) in &a.solvers {
            racers.push(Racer {
                label: label.clone(),
                backend: pq_engine::sat::member(spec, None)?,
                optimiser: None,
            });
            provers.push(pq_engine::sat::member(spec, Some(ProofFormat::Drat))?);
        }
        let jobs = a.jobs;
        let settings = Settings {
            timeout: a.timeout,
            easy: a.easy.unwrap_or(Duration::from_mins(1).min(a.timeout)),
            prove_timeout: a.prove_timeout.unwrap_or(a.timeout * 10),
            jobs,
            command: a.command.clone(),
            versions: versions(&a.solvers),
            policy: pq_io::output::WritePolicy::from_force(a.force),
        };
        let total = pool.items.len() * racers.len();
        let done = std::sync::atomic::AtomicUsize::new(0);
        let submission =
            {
                let _guard = Interruptible::enter();
                submission::write_submission(pool, &a.output, &racers, &provers, &settings, &|e| {
                    match e {
                        Event::Written(m) => note!(
                    "pq-sat: {} instances written; racing {} ({} s per run, {jobs} at a time)",
                    m.instances.len(),
                    a.solvers
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
                        Event::Proving(file, how) => {
                            note!("pq-sat: {file}: proving its status ({how})");
                        }
                    }
                })?
            };
        let unproven = submission.unproven();
        if unproven > 0 {
            eprintln!("pq-sat: warning: {unproven} instance(s) have no proven status; see submission.json's source");
        }
        pq_report::submission::summary(&submission, &a.output, a.format)?;
        Ok(0)
    }
}
