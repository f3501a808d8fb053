//! Proof-producing backends: the solvers that can write a clausal proof of
//! unsatisfiability while they solve (text DRAT from kissat, the CaDiCaL binary, varisat and
//! the in-process CaDiCaL; text LRAT from the in-process CaDiCaL). Checking those proofs is
//! the engine's business (`pq_engine::proof`).
//!
//! DRAT: Wetzler, Heule & Hunt, "DRAT-trim: efficient checking and trimming using expressive
//! clausal proofs", SAT 2014. LRAT: Cruz-Filipe, Heule, Hunt, Kaufmann & Schneider-Kamp,
//! "Efficient certified RAT verification", CADE 2017.

use std::fmt;
use std::fs::File;
use std::path::Path;
use std::str::FromStr;

use pq_encode::Formula;

use crate::answer::Answer;
use crate::backend::{cadical_solve, first_falsified_clause, varisat_solve, BackendSpec};
use crate::control::Limits;
use crate::error::SolveError;
use crate::external::ExternalSolver;

/// A clausal proof format (always the text form: readable, and accepted by every checker).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ProofFormat {
    /// Deletion resolution asymmetric tautology: lemmas only, the checker finds the hints.
    #[default]
    Drat,
    /// Linear RAT: each lemma carries the ids of the clauses that justify it.
    Lrat,
}

impl ProofFormat {
    /// The names accepted by `--proof-format`.
    pub const NAMES: &'static [&'static str] = &["drat", "lrat"];

    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            ProofFormat::Drat => "drat",
            ProofFormat::Lrat => "lrat",
        }
    }

    /// The format a proof file's extension names (`.lrat`, else DRAT).
    pub fn from_path(path: &Path) -> ProofFormat {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("lrat") => ProofFormat::Lrat,
            _ => ProofFormat::Drat,
        }
    }
}

impl fmt::Display for ProofFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ProofFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "drat" => Ok(ProofFormat::Drat),
            "lrat" => Ok(ProofFormat::Lrat),
            _ => Err(format!(
                "unknown proof format '{s}' (expected one of: {})",
                ProofFormat::NAMES.join(", ")
            )),
        }
    }
}

/// The proof formats a backend can write (empty: none).
pub fn formats_of(spec: &BackendSpec) -> &'static [ProofFormat] {
    match spec {
        BackendSpec::Cadical => &[ProofFormat::Drat, ProofFormat::Lrat],
        BackendSpec::Kissat | BackendSpec::CadicalBin | BackendSpec::Varisat => {
            &[ProofFormat::Drat]
        }
        BackendSpec::Minisat | BackendSpec::Command(_) => &[],
    }
}

/// Checks that `spec` can write `format`, with a message that says what can.
pub fn check_capable(spec: &BackendSpec, format: ProofFormat) -> Result<(), String> {
    if formats_of(spec).contains(&format) {
        return Ok(());
    }
    let able: Vec<String> = [
        BackendSpec::Kissat,
        BackendSpec::Cadical,
        BackendSpec::CadicalBin,
        BackendSpec::Varisat,
    ]
    .iter()
    .filter(|b| formats_of(b).contains(&format))
    .map(|b| b.to_string())
    .collect();
    Err(format!(
        "{spec} cannot write {} proofs; use --backend {}",
        format.name().to_uppercase(),
        able.join(" or --backend ")
    ))
}

/// The formula as handed to a proof-writing solver. For LRAT, unit clauses go last (and
/// clauses are written without repeated literals, tautologies dropped): CaDiCaL
/// numbers the clauses it is given 1, 2, ... but simplifies a clause that contains a literal
/// an earlier unit falsified, giving it a derived number and shifting every later one, which
/// would make the proof refer to a different numbering than the CNF file.
pub fn arranged_for(formula: &Formula, format: ProofFormat) -> Formula {
    let mut out = formula.clone();
    if format == ProofFormat::Lrat {
        // Repeated literals and tautologies get the same treatment from CaDiCaL (and ACL2's
        // checker rejects them outright): write each clause in its simplified form.
        let mut units = Vec::new();
        let mut rest = Vec::new();
        for clause in formula.cnf.iter() {
            let mut lits: Vec<_> = Vec::with_capacity(clause.len());
            for &l in clause.iter() {
                if !lits.contains(&l) {
                    lits.push(l);
                }
            }
            if lits.iter().any(|&l| lits.contains(&!l)) {
                continue;
            }
            let clause: rustsat::types::Clause = lits.into_iter().collect();
            if clause.len() == 1 {
                units.push(clause);
            } else {
                rest.push(clause);
            }
        }
        out.cnf = rest.into_iter().chain(units).collect();
    }
    out
}

/// Solves `formula` (already [arranged](arranged_for)) with `spec`, which reads `cnf` (the
/// DIMACS form of `formula`, for external solvers) and writes a text proof to `proof` in
/// `format`. The proof is complete when this returns. Returns the answer and the solver's
/// name; a SAT model has been checked against every clause.
pub fn solve_with_proof(
    spec: &BackendSpec,
    formula: &Formula,
    cnf: &Path,
    proof: &Path,
    format: ProofFormat,
    limits: &Limits,
) -> Result<(Answer, String), SolveError> {
    check_capable(spec, format).map_err(|message| SolveError::InProcess {
        backend: spec.to_string(),
        message,
    })?;
    let (answer, name) = match spec {
        BackendSpec::Kissat | BackendSpec::CadicalBin => {
            let base = match spec {
                BackendSpec::Kissat => ExternalSolver::kissat()?,
                _ => ExternalSolver {
                    name: "cadical-bin".into(),
                    ..ExternalSolver::cadical()?
                },
            };
            let solver = ExternalSolver {
                args_after: vec![proof.display().to_string(), "--no-binary".into()],
                ..base
            };
            let answer = solver.solve_file(cnf, formula.n_vars as usize, limits)?;
            (answer, solver.name)
        }
        BackendSpec::Cadical => {
            let traced = match format {
                ProofFormat::Drat => rustsat_cadical::ProofFormat::Drat { binary: false },
                ProofFormat::Lrat => rustsat_cadical::ProofFormat::Lrat { binary: false },
            };
            let answer = cadical_solve(formula, limits, Some((proof, traced)))?;
            (answer, "cadical".into())
        }
        BackendSpec::Varisat => {
            let file = File::create(proof).map_err(|source| SolveError::Io {
                path: proof.to_path_buf(),
                source,
            })?;
            let target = Box::new(std::io::BufWriter::new(file));
            let answer = varisat_solve(formula, limits, Some(target))?;
            (answer, "varisat".into())
        }
        BackendSpec::Minisat | BackendSpec::Command(_) => unreachable!("checked above"),
    };
    if let Answer::Sat(model) = &answer {
        if let Some(k) = first_falsified_clause(formula, model) {
            return Err(SolveError::BadModel {
                program: name,
                clause_index: k + 1,
            });
        }
    }
    Ok((answer, name))
}
