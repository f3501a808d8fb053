//! `check-proof`, `check-certificate` and `solvers`: what pq-sat checks without solving.

use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result};
use pq_engine::proof::ProofFormat;
use pq_io::compress;
use pq_report::check::{solver_table, CertificateCheck, ProofCheck};
use pq_report::emit;
use pq_report::Format;
use pq_solve::control::check_interrupt;

use crate::Interruptible;

/// `check-proof`: the proof of `cnf` (in `proof_format`, by default as its name says) by
/// the independent checker; exit 0 when it verifies, 1 when not.
pub fn proof(
    cnf: &Path,
    proof: &Path,
    proof_format: Option<ProofFormat>,
    timeout: Option<Duration>,
    format: Format,
) -> Result<u8> {
    let report = proof_check(cnf, proof, proof_format, timeout)?;
    emit(format, &report, || report.text())?;
    Ok(u8::from(!report.verified))
}

/// `check-proof`'s verdict on the proof of `cnf`, without printing it (see [`proof`]); a
/// search certificate is given as both `cnf` and `proof`.
pub fn proof_check(
    cnf: &Path,
    proof: &Path,
    proof_format: Option<ProofFormat>,
    timeout: Option<Duration>,
) -> Result<ProofCheck> {
    let proof_format =
        proof_format.unwrap_or_else(|| ProofFormat::from_path(&compress::stripped(proof)));
    // The checkers read plain files only: compressed ones are checked as plain copies.
    let plain = |path: &Path| {
        compress::plain_file(path).with_context(|| format!("cannot decompress {}", path.display()))
    };
    let (plain_cnf, plain_proof) = (plain(cnf)?, plain(proof)?);
    let r = {
        let _guard = Interruptible::enter();
        pq_engine::proof::check_proof(plain_cnf.path(), plain_proof.path(), proof_format, timeout)?
    };
    check_interrupt()?;
    Ok(ProofCheck::new(cnf, proof, proof_format, &r))
}

/// `check-certificate`: the bundle in `dir` re-checked from its files alone; exit 0 when
/// valid, 1 when not.
pub fn certificate(dir: &Path, timeout: Option<Duration>, format: Format) -> Result<u8> {
    let report = certificate_check(dir, timeout)?;
    emit(format, &report, || report.text())?;
    Ok(u8::from(!report.valid))
}

/// `check-certificate`'s verdict on the bundle in `dir`, without printing it (see
/// [`certificate`]).
pub fn certificate_check(dir: &Path, timeout: Option<Duration>) -> Result<CertificateCheck> {
    crate::input_dir(
        dir,
        "certificate",
        "make one with pq-sat solve --certify DIR",
    )?;
    let checked = {
        let _guard = Interruptible::enter();
        pq_engine::proof::certificate::check_certificate(dir, timeout)?
    };
    // A check cut short by Ctrl-C is no verdict on the bundle.
    check_interrupt()?;
    Ok(CertificateCheck::new(dir, &checked))
}

/// `solvers`: the solvers and checkers found, with their versions; exit 0.
pub fn solvers(format: Format) -> Result<u8> {
    let list = pq_solve::survey::survey();
    emit(format, &list, || solver_table(&list))?;
    Ok(0)
}
