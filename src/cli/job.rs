//! The validation of the arguments into a [`Job`]: everything clap cannot check, so that
//! a job that starts has everything it needs.

use std::path::Path;

use pq_engine::proof::ProofFormat;
use pq_io::output;

use super::{Args, Command, Format};

/// A fully validated request.
#[derive(Debug)]
pub(crate) enum Job {
    /// Write a formula (`pq-sat encode`).
    Encode(crate::commands::encode::EncodeJob),
    /// Answer one size, an optimum or a file (`pq-sat solve`).
    Solve(Box<crate::commands::solve::SolveJob>),
    /// Draw the placement read back, of the problem given, if any.
    Render(crate::commands::render::RenderJob),
    CheckProof(super::CheckProofArgs),
    CheckCertificate(super::CheckCertificateArgs),
    /// Read a solver's answer back as a board (`pq-sat decode`).
    Decode(crate::commands::decode::DecodeArgs),
    /// List or count placements (`pq-sat enumerate`).
    Enumerate(crate::commands::enumerate::EnumerateJob),
    /// The canonical form of the placement read back, of the problem given, if any.
    Canon(crate::commands::canon::CanonJob),
    /// List the backends.
    Solvers(Format),
    /// Write a benchmark family (`pq-sat family`).
    Family(crate::commands::family::FamilyJob),
    /// Race solvers on a family (`pq-sat race`).
    Race(crate::commands::race::RaceJob),
    /// Split a formula into cubes (`pq-sat cube`).
    Cube(crate::commands::cube::CubeJob),
    /// Predict a step's cost on the line engine (`pq-sat estimate`).
    Estimate(crate::commands::estimate::EstimateJob),
    /// Print the completion script for a shell.
    Completions(clap_complete::Shell),
    /// Print the SHA-256 and GBD hash of files.
    Hash(super::HashArgs),
    /// Print the manual page: pq-sat's, or that of the command named (checked to exist).
    Man(Option<String>),
    /// Solve one cube of a cube directory.
    SolveCube(crate::commands::solve_cube::SolveCubeJob),
    /// Solve every cube of a cube directory, or write a script that does.
    Conquer(crate::commands::conquer::ConquerJob),
    /// Merge a cube directory's results, checking the bundle if asked.
    CubeStatus(crate::commands::cube_status::CubeStatusArgs),
    /// Make a benchmark submission.
    Submission(crate::commands::submission::SubmissionJob),
}

impl Args {
    /// Checks what clap cannot; the error is a usage error (exit code 2). Outputs that
    /// are one file, or that would overwrite an input, are refused here; what is on disk
    /// at the outputs is checked by [`Job::prepare_outputs`] before the job runs.
    pub(crate) fn into_job(self) -> Result<Job, String> {
        let job = self.validated()?;
        job.check_distinct()?;
        Ok(job)
    }

    fn validated(self) -> Result<Job, String> {
        // Only the commands that take a solver's UNSAT as an answer have the flag; within
        // them, only these uses do.
        let (check_unsat, checks) = match &self.command {
            Command::Solve(a) => (a.checking.check_unsat, true),
            Command::Race(a) => (a.checking.check_unsat, true),
            Command::SolveCube(a) => (a.checking.check_unsat, true),
            Command::Conquer(a) => (a.checking.check_unsat, !a.incremental),
            Command::Cube(a) => (a.checking.check_unsat, a.estimate),
            Command::Family(a) => (a.checking.check_unsat, a.verify.is_some()),
            // The optimum found first (the enumeration's own end is no solver's answer).
            Command::Enumerate(a) => (a.checking.check_unsat, a.subject.n.is_none()),
            _ => (false, true),
        };
        if check_unsat && !checks {
            return Err("--check-unsat applies to `solve`, `race`, `family --verify`, `enumerate` without --n, `solve-cube`, `conquer` (not --incremental) and `cube --estimate`, the commands that take a solver's UNSAT as an answer".into());
        }
        match self.command {
            Command::Encode(a) => a.validate().map(Job::Encode),
            Command::Enumerate(a) => a.validate(check_unsat).map(Job::Enumerate),
            Command::Solvers { format } => Ok(Job::Solvers(format)),
            Command::Completions { shell } => Ok(Job::Completions(shell)),
            Command::Hash(a) => Ok(Job::Hash(a)),
            Command::Decode(a) => Ok(Job::Decode(a)),
            Command::Man { command } => {
                if let Some(name) = &command {
                    let cli = <Args as clap::CommandFactory>::command();
                    if cli.find_subcommand(name).is_none() {
                        let names: Vec<&str> =
                            cli.get_subcommands().map(clap::Command::get_name).collect();
                        return Err(format!(
                            "man: no command '{name}' (one of: {})",
                            names.join(", ")
                        ));
                    }
                }
                Ok(Job::Man(command))
            }
            Command::CheckProof(a) => Ok(Job::CheckProof(a)),
            Command::CheckCertificate(a) => Ok(Job::CheckCertificate(a)),
            Command::Family(a) => a.validate(check_unsat).map(Job::Family),
            Command::Submission(a) => a.validate().map(Job::Submission),
            Command::Race(a) => a.validate(check_unsat).map(Job::Race),
            Command::Render(a) => a.validate().map(Job::Render),
            Command::Canon(a) => a.validate().map(Job::Canon),
            Command::Solve(a) => {
                crate::commands::solve::validate(a, check_unsat).map(|j| Job::Solve(Box::new(j)))
            }
            Command::Cube(a) => a.validate(check_unsat).map(Job::Cube),
            Command::Estimate(a) => a.validate().map(Job::Estimate),
            Command::SolveCube(a) => a.validate(check_unsat).map(Job::SolveCube),
            Command::Conquer(a) => a.validate(check_unsat).map(Job::Conquer),
            Command::CubeStatus(a) => Ok(Job::CubeStatus(a)),
        }
    }
}

impl Job {
    /// The files and directories the job will write, and whether `--force` lets existing
    /// ones be replaced.
    fn outputs(&self) -> (Vec<output::Output<'_>>, bool) {
        let file = |flag, path| output::Output {
            flag,
            path,
            dir: None,
        };
        // A directory written whole (`-o DIR`), recognised as pq-sat's by its marker file.
        let directory = |path, marker| output::Output {
            flag: "-o",
            path,
            dir: Some(marker),
        };
        match self {
            Job::Encode(job) => (
                job.args.output.iter().map(|p| file("-o", p)).collect(),
                job.args.replace.force,
            ),
            Job::Render(job) => (
                job.args.output.iter().map(|p| file("-o", p)).collect(),
                job.args.replace.force,
            ),
            Job::Decode(a) => (
                a.svg.iter().map(|p| file("--svg", p)).collect(),
                a.replace.force,
            ),
            Job::Solve(job) => {
                let run = &**job;
                let mut out: Vec<output::Output> =
                    run.args.svg.iter().map(|p| file("--svg", p)).collect();
                if let Some(job) = &run.plan.proof {
                    // A search certificate has no CNF beside it, and `-` is standard output.
                    if job.proof.as_os_str() != "-" {
                        out.push(file("--proof", &job.proof));
                    }
                    if run.plan.proof_format != ProofFormat::Search {
                        out.push(file("--cnf-out", &job.cnf_out));
                    }
                }
                if let Some(dir) = &run.args.certify {
                    out.push(output::Output {
                        flag: "--certify",
                        path: dir,
                        dir: Some(pq_engine::proof::certificate::MARKER),
                    });
                }
                (out, run.args.replace.force)
            }
            Job::Family(job) => (
                vec![directory(&job.args.output, pq_bench::family::MARKER)],
                job.args.replace.force,
            ),
            Job::Submission(job) => (
                vec![directory(&job.args.output, pq_bench::submission::MARKER)],
                job.args.replace.force,
            ),
            Job::Race(job) => (
                job.args.plot.iter().map(|p| file("--plot", p)).collect(),
                job.args.replace.force,
            ),
            Job::Cube(job) => {
                let mut out: Vec<output::Output> = (job.args.output.iter())
                    .map(|path| output::Output {
                        flag: "-o",
                        path,
                        dir: Some(pq_engine::cube::MARKER),
                    })
                    .collect();
                out.extend(job.args.plot.iter().map(|p| file("--plot", p)));
                (out, job.args.replace.force)
            }
            Job::Conquer(job) => (
                job.args.output.iter().map(|p| file("-o", p)).collect(),
                job.args.force,
            ),
            Job::Estimate(job) => (
                job.args.plot.iter().map(|p| file("--plot", p)).collect(),
                job.args.force,
            ),
            _ => (Vec::new(), false),
        }
    }

    /// The files the job reads, which no output may overwrite.
    fn inputs(&self) -> Vec<(&'static str, &Path)> {
        let (problem, other) = match self {
            Job::Encode(job) => (job.args.subject.problem.problem.as_deref(), None),
            Job::Render(job) => (
                job.args.problem.problem.as_deref(),
                job.args.file.as_deref(),
            ),
            Job::Solve(job) => (job.args.problem.problem.as_deref(), job.args.cnf.as_deref()),
            Job::Family(job) => (job.args.problem.as_deref(), None),
            Job::Cube(job) => (job.args.problem.problem.as_deref(), job.args.cnf.as_deref()),
            Job::Estimate(job) => (job.args.problem.problem.as_deref(), None),
            _ => (None, None),
        };
        let flag = if matches!(self, Job::Render(..)) {
            "FILE"
        } else {
            "--cnf"
        };
        let mut inputs: Vec<(&'static str, &Path)> =
            problem.map(|p| ("--problem", p)).into_iter().collect();
        inputs.extend(other.map(|p| (flag, p)));
        if let Job::Decode(a) = self {
            inputs.push(("FORMULA", &a.formula));
            inputs.extend(a.answer.as_deref().map(|p| ("ANSWER", p)));
        }
        inputs
    }

    /// The directories the job reads (a cube directory, a family), in which no output may
    /// replace a file.
    fn input_dirs(&self) -> Vec<&Path> {
        match self {
            Job::Cube(job) => job
                .args
                .dir
                .iter()
                .map(std::path::PathBuf::as_path)
                .collect(),
            Job::Conquer(job) => vec![&job.args.dir],
            Job::Race(job) => vec![&job.args.dir],
            _ => Vec::new(),
        }
    }

    /// What the job reads and writes, for the checks of [`output::Paths`].
    fn paths(&self) -> output::Paths<'_> {
        let (outputs, force) = self.outputs();
        output::Paths {
            outputs,
            inputs: self.inputs(),
            input_dirs: self.input_dirs(),
            force,
        }
    }

    /// Two outputs that are one file, or an output that is an input: a usage error, found
    /// before anything is solved.
    fn check_distinct(&self) -> Result<(), String> {
        self.paths().check_distinct().map_err(|e| e.to_string())
    }

    /// Checks every output path before any work starts ([`output::Paths::prepare`]); each
    /// command passes `--force` on to its writes as a [`output::WritePolicy`].
    pub(crate) fn prepare_outputs(&self) -> Result<(), String> {
        self.paths().prepare()
    }
}

/// Runs `job`; the result is the exit code. Every output path is checked first, so that
/// nothing is solved for a result that could not be written.
pub(crate) fn run(job: Job) -> anyhow::Result<u8> {
    use crate::commands::{
        canon, check, conquer, cube, cube_status, decode, encode, enumerate, estimate, family,
        hash, race, render, solve, solve_cube, submission,
    };
    job.prepare_outputs().map_err(anyhow::Error::msg)?;
    match job {
        Job::Encode(job) => encode::run(&job),
        Job::Solve(job) => solve::run(&job),
        Job::Enumerate(job) => enumerate::run(job),
        Job::Canon(job) => canon::run(&job),
        Job::Decode(a) => decode::run(&a),
        Job::Render(job) => render::run(&job),
        Job::Family(job) => family::run(&job),
        Job::Race(job) => race::run(job),
        Job::CheckProof(a) => check::proof(&a),
        Job::CheckCertificate(a) => check::certificate(&a),
        Job::Solvers(format) => check::solvers(format),
        Job::Completions(shell) => super::docs::completions(shell),
        Job::Hash(a) => hash::run(&a),
        Job::Cube(job) => cube::run(&job),
        Job::Estimate(job) => estimate::run(&job),
        Job::Man(command) => super::docs::man(command.as_deref()),
        Job::SolveCube(job) => solve_cube::run(&job),
        Job::Conquer(job) => conquer::run(&job),
        Job::CubeStatus(a) => cube_status::run(&a),
        Job::Submission(job) => submission::run(&job),
    }
}
