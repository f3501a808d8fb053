//! `check-proof`, `check-certificate` and `solvers`: what pq-sat checks without solving.

use std::path::Path;
use std::time::Duration;

use anyhow::Result;
use pq_engine::proof::ProofFormat;

use crate::cli::Format;
use crate::report::check::{CertificateCheck, ProofCheck, SolverReport};
use crate::report::emit;

/// Checks a clausal proof with the independent checker; exit 0 when verified, else 1.
pub fn proof(
    cnf: &Path,
    proof: &Path,
    proof_format: ProofFormat,
    timeout: Option<Duration>,
    format: Format,
) -> Result<u8> {
    let r = pq_engine::proof::check_proof(cnf, proof, proof_format, timeout)?;
    let report = ProofCheck::new(cnf, proof, proof_format, &r);
    emit(format, &report, || report.text())?;
    Ok(if r.verified { 0 } else { 1 })
}

/// Re-checks a certificate bundle; exit 0 when every check passes, else 1.
pub fn certificate(dir: &Path, timeout: Option<Duration>, format: Format) -> Result<u8> {
    let (cert, items) = pq_engine::certificate::check_certificate(dir, timeout)?;
    let report = CertificateCheck::new(dir, &cert, &items);
    emit(format, &report, || report.text(&cert.statement))?;
    Ok(if report.valid { 0 } else { 1 })
}

/// The backends found on this machine.
pub fn solvers(format: Format) -> Result<u8> {
    let list: Vec<SolverReport> = pq_solve::survey::survey()
        .iter()
        .map(SolverReport::new)
        .collect();
    emit(format, &list, || SolverReport::table(&list))?;
    Ok(0)
}
