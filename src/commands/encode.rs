//! `pq-sat encode`: the formula of a problem at one size as DIMACS, or its optimisation as
//! WCNF or OPB, for any solver to read; its run is [`pq_ops::encode`].

use super::{files, problem_input};
use pq_io::output::Output;
use std::path::Path;
use std::path::PathBuf;

use anyhow::Result;
use clap::{Args as ClapArgs, ValueEnum};
use pq_encode::spec::Problem;
use pq_ops::encode::Encoded;

use crate::args::{EncodingArgs, SubjectArgs};

#[derive(ClapArgs, Debug)]
pub(crate) struct EncodeArgs {
    #[command(flatten)]
    pub subject: SubjectArgs,
    #[command(flatten)]
    pub encoding: EncodingArgs,
    /// File format: dimacs (the formula at --n N), or the optimisation (maximise n; no --n)
    /// as wcnf (MaxSAT Evaluation 2022+: `h` hard clauses, weighted soft clauses) or opb
    /// (pseudo-Boolean competition: linear constraints and a `min:` objective)
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = EncodeFormat::Dimacs)]
    pub format: EncodeFormat,
    /// Write to FILE instead of standard output (atomically: no half-written file; a name
    /// ending in .xz, .gz or .bz2 is compressed; `-`: standard output)
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub replace: crate::args::ForceArg,
}

/// The file format `encode` writes.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EncodeFormat {
    /// DIMACS CNF: the formula for "at least n of each" (needs --n)
    Dimacs,
    /// WCNF: the optimisation as weighted partial MaxSAT (MaxSAT Evaluation 2022+ format)
    Wcnf,
    /// OPB: the optimisation as linear pseudo-Boolean constraints (PB competition format)
    Opb,
}

impl EncodeFormat {
    /// The optimisation's export format, `None` for DIMACS.
    pub(crate) fn export(self) -> Option<pq_encode::maxsat::Export> {
        match self {
            EncodeFormat::Dimacs => None,
            EncodeFormat::Wcnf => Some(pq_encode::maxsat::Export::Wcnf),
            EncodeFormat::Opb => Some(pq_encode::maxsat::Export::Opb),
        }
    }
}

/// What `encode` writes, validated.
#[derive(Debug)]
pub(crate) struct EncodeJob {
    /// The problem whose formula is written.
    pub problem: Problem,
    /// The formula at one size, or the optimisation in an export format.
    pub what: Encoded,
    /// The arguments as given.
    pub args: EncodeArgs,
}

impl EncodeArgs {
    /// Checks what clap cannot: the size is given exactly when the format needs one.
    pub(crate) fn validate(mut self) -> Result<EncodeJob, String> {
        self.output = crate::args::file_or_stdout(self.output);
        let (problem, n) = self.subject.load()?;
        let what = pq_ops::encode::asked(
            &problem,
            n,
            self.format.export(),
            &self.encoding.request(),
            self.subject.dim.is_some(),
        )?;
        Ok(EncodeJob {
            problem,
            what,
            args: self,
        })
    }
}

impl super::Job for EncodeJob {
    fn outputs(&self) -> (Vec<Output<'_>>, bool) {
        (files("-o", &self.args.output), self.args.replace.force)
    }
    fn inputs(&self) -> Vec<(&'static str, &Path)> {
        problem_input(self.args.subject.problem.problem.as_deref())
    }
    fn run(self: Box<Self>) -> Result<u8> {
        let a = &self.args;
        let (output, force) = (a.output.as_deref(), a.replace.force);
        let options = a.encoding.options();
        pq_ops::encode::run(&self.problem, self.what, &options, output, force)
    }
}
