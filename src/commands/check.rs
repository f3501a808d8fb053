//! `check-proof`, `check-certificate` and `solvers`: what pq-sat checks without solving.

use crate::args::parse_timeout;
use anyhow::{Context, Result};
use clap::Args as ClapArgs;
use pq_engine::proof::ProofFormat;
use pq_solve::control::check_interrupt;
use std::path::PathBuf;
use std::time::Duration;

use super::Interruptible;
use crate::args::Format;
use pq_io::compress;
use pq_report::check::{solver_table, CertificateCheck, ProofCheck};
use pq_report::emit;

/// Checks a clausal proof with the independent checker; exit 0 when verified, else 1.
fn proof(a: &CheckProofArgs) -> Result<u8> {
    let proof_format = a
        .proof_format
        .unwrap_or_else(|| ProofFormat::from_path(&compress::stripped(&a.proof)));
    // The checkers read plain files only: compressed ones are checked as plain copies.
    let plain = |path: &std::path::Path| {
        compress::plain_file(path).with_context(|| format!("cannot decompress {}", path.display()))
    };
    let (cnf, proof) = (plain(&a.cnf)?, plain(&a.proof)?);
    let r = {
        let _guard = Interruptible::enter();
        pq_engine::proof::check_proof(cnf.path(), proof.path(), proof_format, a.timeout)?
    };
    check_interrupt()?;
    let report = ProofCheck::new(&a.cnf, &a.proof, proof_format, &r);
    emit(a.report.format.into(), &report, || report.text())?;
    Ok(u8::from(!r.verified))
}

/// Re-checks a certificate bundle; exit 0 when every check passes, else 1.
fn certificate(a: &CheckCertificateArgs) -> Result<u8> {
    super::input_dir(
        &a.dir,
        "certificate",
        "make one with pq-sat solve --certify DIR",
    )?;
    let checked = {
        let _guard = Interruptible::enter();
        pq_engine::proof::certificate::check_certificate(&a.dir, a.timeout)?
    };
    // A check cut short by Ctrl-C is no verdict on the bundle.
    check_interrupt()?;
    let report = CertificateCheck::new(&a.dir, &checked);
    emit(a.report.format.into(), &report, || report.text())?;
    Ok(u8::from(!report.valid))
}

/// The backends found on this machine.
fn solvers(format: Format) -> Result<u8> {
    let list = pq_solve::survey::survey();
    emit(format.into(), &list, || solver_table(&list))?;
    Ok(0)
}

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
        proof(&self)
    }
}

impl super::Job for CheckCertificateArgs {
    fn run(self: Box<Self>) -> Result<u8> {
        certificate(&self)
    }
}

/// `pq-sat solvers`: the backends, in `0`'s format.
#[derive(Debug)]
pub(crate) struct SolversJob(pub(crate) Format);

impl super::Job for SolversJob {
    fn run(self: Box<Self>) -> Result<u8> {
        solvers(self.0)
    }
}
