//! `check-proof`, `check-certificate` and `solvers`: what pq-sat checks without solving;
//! their runs are [`pq_ops::check`].

use crate::args::parse_timeout;
use anyhow::Result;
use clap::Args as ClapArgs;
use pq_engine::proof::ProofFormat;
use std::path::PathBuf;
use std::time::Duration;

use crate::args::Format;

#[derive(ClapArgs, Debug)]
pub(crate) struct CheckProofArgs {
    /// The DIMACS CNF file the proof refers to
    #[arg(value_name = "CNF")]
    pub cnf: PathBuf,
    /// The proof (text DRAT, or LRAT)
    #[arg(value_name = "PROOF")]
    pub proof: PathBuf,
    /// drat or lrat [default: lrat for a .lrat file, else drat]
    #[arg(long, value_name = "FMT")]
    pub proof_format: Option<ProofFormat>,
    /// Give up (an error) after SEC seconds
    #[arg(long, value_name = "SEC", value_parser = parse_timeout)]
    pub timeout: Option<Duration>,
    #[command(flatten)]
    pub report: crate::args::FormatArg,
}

#[derive(ClapArgs, Debug)]
pub(crate) struct CheckCertificateArgs {
    /// The bundle directory
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Give up on the proof check after SEC seconds
    #[arg(long, value_name = "SEC", value_parser = parse_timeout)]
    pub timeout: Option<Duration>,
    #[command(flatten)]
    pub report: crate::args::FormatArg,
}

impl super::Job for CheckProofArgs {
    fn run(self: Box<Self>) -> Result<u8> {
        let format = self.report.format.into();
        pq_ops::check::proof(
            &self.cnf,
            &self.proof,
            self.proof_format,
            self.timeout,
            format,
        )
    }
}

impl super::Job for CheckCertificateArgs {
    fn run(self: Box<Self>) -> Result<u8> {
        pq_ops::check::certificate(&self.dir, self.timeout, self.report.format.into())
    }
}

/// `pq-sat solvers`: the backends, in `0`'s format.
#[derive(Debug)]
pub(crate) struct SolversJob(pub(crate) Format);

impl super::Job for SolversJob {
    fn run(self: Box<Self>) -> Result<u8> {
        pq_ops::check::solvers(self.0.into())
    }
}
