//! `--check-unsat`: a backend whose UNSAT answers count only once the independent checker
//! has verified a clausal proof of them. [`CheckedUnsat`] wraps one proof-writing solver, so
//! every composition gets the check for free: a portfolio of checked members, the
//! optimiser's steps, a race.
//!
//! Each solve asks the solver for a text DRAT proof (LRAT from the in-process CaDiCaL when
//! asked for) in a private temporary directory, checks it with the checker of
//! [`crate::proof`] (`rate`, ACL2's LRAT checker) and removes both files. A proof the checker
//! does not verify is a solver error ([`SolveError::Rejected`]): a portfolio keeps waiting
//! for its other members. The solver gets pq-sat's own DIMACS of the formula (the CNF the
//! proof is checked against), also in a race: the same clauses as the family's file, not
//! its bytes.

use std::path::Path;

use pq_encode::Formula;
use pq_solve::answer::Answer;
use pq_solve::backend::Backend;
use pq_solve::control::Limits;
use pq_solve::error::SolveError;
use pq_solve::spec::BackendSpec;

use crate::proof::{check_capable, check_proof_within, prove, CheckReport, ProofFormat};

/// A proof-writing solver whose every UNSAT is checked before it counts.
pub struct CheckedUnsat {
    spec: BackendSpec,
    name: String,
    format: ProofFormat,
}

impl CheckedUnsat {
    /// `spec` asked for proofs in `format`; fails when it cannot write them (minisat, a
    /// command without the `{proof}` placeholder), when it is not installed, or when the
    /// checker for `format` is not.
    ///
    /// # Errors
    /// A one-line message that says what to do instead.
    pub(crate) fn new(spec: &BackendSpec, format: ProofFormat) -> Result<CheckedUnsat, String> {
        check_capable(spec, format).map_err(|e| format!("--check-unsat: {e}"))?;
        let checker = match format {
            ProofFormat::Drat => "rate",
            ProofFormat::Lrat => "acl2",
            ProofFormat::Search => {
                return Err("--check-unsat: a search certificate is the line engine's; this run solves with SAT solvers (use DRAT)".into())
            }
        };
        if which::which(checker).is_err() {
            return Err(format!(
                "--check-unsat needs the proof checker '{checker}', which is not installed (run scripts/setup.sh)"
            ));
        }
        let name = spec.resolve().map_err(|e| e.to_string())?.name();
        Ok(CheckedUnsat {
            spec: spec.clone(),
            name,
            format,
        })
    }
}

impl Backend for CheckedUnsat {
    /// The solver's own name.
    fn name(&self) -> String {
        self.name.clone()
    }

    fn solve_once(&self, formula: &Formula, limits: &Limits) -> Result<Answer, SolveError> {
        let dir = pq_io::output::scratch_dir()?;
        let cnf = dir.path().join("formula.cnf");
        let proof = dir.path().join(format!("proof.{}", self.format.name()));
        let proved = prove(
            &self.spec,
            formula,
            (&cnf, &proof),
            self.format,
            limits,
            pq_io::output::WritePolicy::Keep,
        )?;
        match proved.answer {
            Answer::Unsat => verify_unsat(proved.solver, &cnf, &proof, self.format, limits),
            other => Ok(other),
        }
    }

    fn checks_unsat(&self) -> bool {
        true
    }
}

/// Checks the proof (in `format`) of the UNSAT `solver` gave for `cnf`: `Ok(Unsat)` when
/// the independent checker verified it, `Ok(Unknown)` when `limits` stopped the check, a
/// [`SolveError::Rejected`] naming `solver` when the checker did not verify it.
pub(crate) fn verify_unsat(
    solver: String,
    cnf: &Path,
    proof: &Path,
    format: ProofFormat,
    limits: &Limits,
) -> Result<Answer, SolveError> {
    verify_unsat_report(solver, cnf, proof, format, limits).map(|(answer, _)| answer)
}

/// [`verify_unsat`], with the checker's report when it verified the proof (what a cube's
/// result records of its check).
pub(crate) fn verify_unsat_report(
    solver: String,
    cnf: &Path,
    proof: &Path,
    format: ProofFormat,
    limits: &Limits,
) -> Result<(Answer, Option<CheckReport>), SolveError> {
    let report = match check_proof_within(cnf, proof, format, limits) {
        Ok(report) => report,
        // Out of time (or stopped) while checking: no answer, as for a slow solver.
        Err(_) if limits.should_stop() => {
            return Ok((Answer::Unknown(limits.unknown_reason()), None))
        }
        Err(e) => return Err(e),
    };
    if report.verified {
        return Ok((Answer::Unsat, Some(report)));
    }
    let why = match report.note {
        Some(note) => format!("{} accepted it, but {note}", report.checker),
        None => format!("{}: {}", report.checker, report.verdict),
    };
    Err(SolveError::Rejected {
        program: solver,
        reason: format!(
            "answered UNSAT, but its {} proof does not check ({why})",
            format.name().to_uppercase(),
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use pq_encode::{encode, Instance, Options};

    fn formula(d: usize, n: usize) -> Formula {
        encode(&Instance::new(d, n).unwrap(), &Options::default())
    }

    #[test]
    fn checked_backends_verify_their_unsat_and_pass_sat_on() {
        let mut specs = vec![
            (BackendSpec::Cadical, ProofFormat::Drat),
            (BackendSpec::Varisat, ProofFormat::Drat),
        ];
        if which::which("acl2").is_ok() {
            specs.push((BackendSpec::Cadical, ProofFormat::Lrat));
        }
        for (spec, format) in specs {
            let checked = CheckedUnsat::new(&spec, format).unwrap();
            assert!(checked.checks_unsat());
            let unsat = checked.solve_once(&formula(4, 3), &Limits::none());
            assert_eq!(unsat.unwrap(), Answer::Unsat, "{spec} {format}");
            let sat = checked.solve_once(&formula(4, 2), &Limits::none()).unwrap();
            assert!(sat.is_sat(), "{spec} {format}");
        }
    }

    #[test]
    fn solvers_that_write_no_proofs_are_refused() {
        for spec in [
            BackendSpec::Minisat,
            BackendSpec::Command("kissat -q".into()),
        ] {
            let err = CheckedUnsat::new(&spec, ProofFormat::Drat).err().unwrap();
            assert!(err.starts_with("--check-unsat: "), "{err}");
        }
        let err = CheckedUnsat::new(&BackendSpec::Kissat, ProofFormat::Lrat);
        assert!(err.err().unwrap().contains("LRAT"));
    }
}
