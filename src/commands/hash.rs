//! `pq-sat hash FILE...`: the two ids of an instance file, its GBD hash and its SHA-256, for
//! any CNF file, pq-sat's or not, plain or compressed. A command of its own rather than an
//! option of `encode`, because organisers name the files they already have (downloaded,
//! compressed, written by other generators) and check a family's manifest against them. Its
//! run is [`pq_ops::hash`].

use anyhow::Result;
use clap::Args as ClapArgs;
use std::path::PathBuf;

/// `pq-sat hash`: the instance ids of CNF files.
#[derive(ClapArgs, Debug)]
pub(crate) struct HashArgs {
    /// The CNF files (plain or compressed)
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub report: crate::args::FormatArg,
}

impl super::Job for HashArgs {
    fn run(self: Box<Self>) -> Result<u8> {
        pq_ops::hash::hash(&self.files, self.report.format.into())
    }
}
