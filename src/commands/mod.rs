//! One file per command: its arguments, their validation into a job (what clap cannot
//! check), and the files the job reads and writes; the job runs in [`pq_ops`], which calls
//! the engine and hands the result to [`pq_report`].

pub(crate) mod canon;
pub(crate) mod check;
pub(crate) mod conquer;
pub(crate) mod cube;
pub(crate) mod cube_status;
pub(crate) mod decode;
pub(crate) mod encode;
pub(crate) mod enumerate;
pub(crate) mod estimate;
pub(crate) mod family;
pub(crate) mod hash;
pub(crate) mod race;
pub(crate) mod render;
pub(crate) mod solve;
pub(crate) mod solve_cube;
pub(crate) mod submission;

use std::path::Path;

use anyhow::Result;
use pq_io::output::Output;

/// A command's validated job: what it reads and writes, checked before it runs (no output
/// is an input, none replaces a file without `--force`), and how it runs. Each command
/// implements it in its own file; the dispatch is one line per command in [`crate::cli`].
pub(crate) trait Job: std::fmt::Debug {
    /// The files and directories it writes, and whether `--force` lets existing ones be
    /// replaced.
    fn outputs(&self) -> (Vec<Output<'_>>, bool) {
        (Vec::new(), false)
    }
    /// The files it reads, which no output may overwrite, with the flag that named each.
    fn inputs(&self) -> Vec<(&'static str, &Path)> {
        Vec::new()
    }
    /// The directories it reads (a cube directory, a family), in which no output may
    /// replace a file.
    fn input_dirs(&self) -> Vec<&Path> {
        Vec::new()
    }
    /// Runs it; the exit code.
    fn run(self: Box<Self>) -> Result<u8>;
}

/// The output file `path`, named by `flag`.
pub(crate) fn file<'a>(flag: &'static str, path: &'a Path) -> Output<'a> {
    Output {
        flag,
        path,
        dir: None,
    }
}

/// The output files of an option given any number of times (or none).
pub(crate) fn files<'a>(
    flag: &'static str,
    paths: impl IntoIterator<Item = &'a std::path::PathBuf>,
) -> Vec<Output<'a>> {
    paths.into_iter().map(|p| file(flag, p)).collect()
}

/// The directory `path` written whole by `flag`, recognised as pq-sat's by `marker`.
pub(crate) fn directory<'a>(
    flag: &'static str,
    path: &'a Path,
    marker: pq_io::output::Marker,
) -> Output<'a> {
    Output {
        flag,
        path,
        dir: Some(marker),
    }
}

/// `--problem FILE`, when given, as an input.
pub(crate) fn problem_input(problem: Option<&Path>) -> Vec<(&'static str, &Path)> {
    problem.map(|p| ("--problem", p)).into_iter().collect()
}

/// A command on one placement (`render`, `canon`), validated: the problem it belongs to, if
/// `--problem` names one (the placement itself is read when the command runs).
#[derive(Debug)]
pub(crate) struct PlacementJob<A> {
    /// The problem file given, with its `--set` values.
    pub(crate) problem: Option<pq_encode::spec::Problem>,
    /// The arguments as given.
    pub(crate) args: A,
}

impl<A> PlacementJob<A> {
    /// Reads the problem of the placement that `placement` finds in `args` (`--problem`,
    /// `--set`).
    pub(crate) fn load(
        args: A,
        placement: impl Fn(&A) -> &crate::args::PlacementArgs,
    ) -> Result<Self, String> {
        let problem = placement(&args).problem.load()?;
        Ok(PlacementJob { problem, args })
    }
}
