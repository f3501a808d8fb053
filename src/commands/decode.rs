//! `pq-sat decode`: any solver's answer to a formula pq-sat wrote, read back, checked against
//! every clause, decoded through the formula's variable map and validated, then printed as
//! `solve` prints its own answers.

use super::files;
use pq_io::output::Output;
use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::Args as ClapArgs;

#[derive(ClapArgs, Debug)]
pub(crate) struct DecodeArgs {
    /// The formula the solver was given, as pq-sat wrote it (plain, .xz, .gz or .bz2)
    #[arg(value_name = "FORMULA")]
    pub formula: PathBuf,
    /// The solver's answer ("-" or nothing = standard input)
    ///
    /// The solver's answer ("-" or nothing = standard input): its standard output with the
    /// SAT competition's `s` and `v` lines (kissat, CaDiCaL), MiniSat's result file
    /// (`minisat FORMULA RESULT`), or a bare model (literals ending with 0)
    #[arg(value_name = "ANSWER")]
    pub answer: Option<PathBuf>,
    /// Also draw the board as an SVG picture in FILE
    #[arg(help_heading = "Output", long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    #[command(flatten)]
    pub replace: crate::args::ForceArg,
    #[command(flatten)]
    pub report: crate::args::FormatArg,
}

impl super::Job for DecodeArgs {
    fn outputs(&self) -> (Vec<Output<'_>>, bool) {
        (files("--svg", &self.svg), self.replace.force)
    }
    fn inputs(&self) -> Vec<(&'static str, &Path)> {
        let mut inputs = vec![("FORMULA", self.formula.as_path())];
        inputs.extend(self.answer.as_deref().map(|p| ("ANSWER", p)));
        inputs
    }
    fn run(self: Box<Self>) -> Result<u8> {
        pq_ops::decode::Decode {
            formula: self.formula,
            answer: self.answer,
            svg: self.svg,
            force: self.replace.force,
            format: self.report.format.into(),
        }
        .run()
    }
}
