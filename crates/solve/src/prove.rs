//! Proof-producing backends: the solvers that can write a clausal proof of
//! unsatisfiability while they solve (text DRAT from kissat, the CaDiCaL binary, varisat,
//! the in-process CaDiCaL and a `--solver-cmd` command that says where with `{proof}`; text
//! LRAT from the in-process CaDiCaL). Checking those proofs is
//! the engine's business (`pq_engine::proof`).
//!
//! DRAT: Wetzler, Heule & Hunt, "DRAT-trim: efficient checking and trimming using expressive
//! clausal proofs", SAT 2014. LRAT: Cruz-Filipe, Heule, Hunt, Kaufmann & Schneider-Kamp,
//! "Efficient certified RAT verification", CADE 2017.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::Instant;

use pq_encode::Formula;

use crate::answer::Answer;
use crate::backend::{
    cadical_solve, checked_model, placed, varisat_solve, write_cnf, CNF_PLACEHOLDER,
    PROOF_PLACEHOLDER,
};
use crate::control::Limits;
use crate::error::SolveError;
use crate::external::ExternalSolver;
use crate::spec::BackendSpec;
use pq_io::output;

/// A proof format: clausal (always the text form from SAT solvers: readable, and accepted
/// by every checker), or the line engine's search certificate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ProofFormat {
    /// Deletion resolution asymmetric tautology: lemmas only, the checker finds the hints.
    #[default]
    Drat,
    /// Linear RAT: each lemma carries the ids of the clauses that justify it.
    Lrat,
    /// The line engine's search tree with the rule that cuts each leaf
    /// (docs/search-certificate.md), checked by `pq-check` with no formula.
    Search,
}

impl ProofFormat {
    /// The independent checker of proofs in this format, as reports name it.
    pub fn checker(self) -> &'static str {
        match self {
            ProofFormat::Drat => "rate",
            ProofFormat::Lrat => "ACL2's verified LRAT checker",
            ProofFormat::Search => "pq-check",
        }
    }

    /// The format a proof file's extension names (`.lrat`, `.search`, else DRAT).
    pub fn from_path(path: &Path) -> ProofFormat {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("lrat") => ProofFormat::Lrat,
            Some(e) if e.eq_ignore_ascii_case("search") => ProofFormat::Search,
            _ => ProofFormat::Drat,
        }
    }
}

pq_encode::option_names!(ProofFormat, "proof format", ProofFormat::Drat => "drat", ProofFormat::Lrat => "lrat", ProofFormat::Search => "search");

/// The proof formats a backend can write (empty: none). A command writes DRAT when it says
/// where ([`PROOF_PLACEHOLDER`]).
fn formats_of(spec: &BackendSpec) -> &'static [ProofFormat] {
    match spec {
        BackendSpec::Cadical => &[ProofFormat::Drat, ProofFormat::Lrat],
        // CaDiCaL 2.2.1's LRAT under its sat or unsat configuration failed the checker
        // (6/6 without lex-leader, tests/cli/proofs.rs), its DRAT did not.
        BackendSpec::CadicalTuned(_) => &[ProofFormat::Drat],
        BackendSpec::Kissat | BackendSpec::CadicalBin | BackendSpec::Varisat => {
            &[ProofFormat::Drat]
        }
        BackendSpec::Command(cmd) if cmd.contains(PROOF_PLACEHOLDER) => &[ProofFormat::Drat],
        // Its search tree, as binary DRAT (`Lines::prove`) or as a search certificate.
        BackendSpec::Lines => &[ProofFormat::Drat, ProofFormat::Search],
        BackendSpec::Minisat | BackendSpec::Command(_) => &[],
    }
}

/// Checks that `spec` can write `format`, with a message that says what can.
pub fn check_capable(spec: &BackendSpec, format: ProofFormat) -> Result<(), String> {
    if formats_of(spec).contains(&format) {
        return Ok(());
    }
    if let (BackendSpec::Command(cmd), ProofFormat::Drat) = (spec, format) {
        return Err(format!(
            "--solver-cmd '{cmd}' cannot be asked for a proof: put {PROOF_PLACEHOLDER} in the command where the solver takes the path of its DRAT proof, and {CNF_PLACEHOLDER} where it takes the CNF if that is not last (e.g. 'kissat -q {CNF_PLACEHOLDER} {PROOF_PLACEHOLDER} --no-binary')"
        ));
    }
    let able: Vec<String> = [
        BackendSpec::Kissat,
        BackendSpec::Cadical,
        BackendSpec::CadicalBin,
        BackendSpec::Varisat,
    ]
    .iter()
    .filter(|b| formats_of(b).contains(&format))
    .map(std::string::ToString::to_string)
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
        for clause in &formula.cnf {
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

/// The path of `name` beside `path` (same directory).
pub fn beside(path: &Path, name: &str) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.join(name),
        _ => PathBuf::from(name),
    }
}

/// The result of [`prove`].
#[derive(Clone, Debug)]
pub struct Proved {
    /// The solver's answer (a SAT model has been checked against every clause); only UNSAT
    /// leaves files behind.
    pub answer: Answer,
    /// The solver that answered.
    pub solver: String,
    /// Wall-clock seconds of the solve.
    pub seconds: f64,
    /// Bytes of the proof written (UNSAT only).
    pub proof_bytes: Option<u64>,
}

/// Solves `formula` ([arranged](arranged_for) for `format`) with `spec`, which writes a text
/// proof in `format`, and on UNSAT leaves the proof at `proof` and the CNF it refers to at
/// `cnf`. Both are written to temporary files beside their targets ([`output`]) (external solvers read
/// the CNF from there) and renamed into place only on UNSAT, so a SAT or unknown answer (or
/// a crash) leaves neither behind; an existing file at either is replaced only as `policy`
/// allows.
pub fn prove(
    spec: &BackendSpec,
    formula: &Formula,
    (cnf, proof): (&Path, &Path),
    format: ProofFormat,
    limits: &Limits,
    policy: output::WritePolicy,
) -> Result<Proved, SolveError> {
    let arranged = arranged_for(formula, format);
    let cnf_tmp = output::temp_file(cnf, "out")?;
    let proof_tmp = output::temp_file(proof, "out")?;
    // The CNF beside the proof is the one the solver reads: its header declares only the
    // variables the clauses use (the same header for pq-sat's own formulas).
    let used = write_cnf(&arranged, cnf_tmp.path()).map_err(SolveError::naming(cnf))?;
    let start = Instant::now();
    check_capable(spec, format)
        .map_err(|message| SolveError::in_process(&spec.to_string(), message))?;
    let solved = match spec {
        BackendSpec::Kissat | BackendSpec::CadicalBin => {
            let base = match spec {
                BackendSpec::Kissat => ExternalSolver::kissat()?,
                _ => ExternalSolver::cadical()?,
            };
            let solver = ExternalSolver {
                args_after: vec![proof_tmp.path().display().to_string(), "--no-binary".into()],
                ..base
            };
            let answer = solver.solve_file(cnf_tmp.path(), used, limits)?;
            (answer, solver.name)
        }
        BackendSpec::Cadical | BackendSpec::CadicalTuned(_) => {
            let tuning = match spec {
                BackendSpec::CadicalTuned(tuning) => Some(*tuning),
                _ => None,
            };
            let traced = match format {
                ProofFormat::Drat => rustsat_cadical::ProofFormat::Drat { binary: false },
                ProofFormat::Lrat => rustsat_cadical::ProofFormat::Lrat { binary: false },
                ProofFormat::Search => {
                    return Err(SolveError::Invalid(
                        "a search certificate comes from the line engine, not a SAT solver".into(),
                    ))
                }
            };
            let answer =
                cadical_solve(&arranged, limits, Some((proof_tmp.path(), traced)), tuning)?;
            (answer, spec.to_string())
        }
        BackendSpec::Varisat => {
            let file = File::create(proof_tmp.path()).map_err(SolveError::io(proof))?;
            let target = Box::new(std::io::BufWriter::new(file));
            let answer = varisat_solve(&arranged, limits, Some(target))?;
            if answer == Answer::Unsat {
                // varisat 0.2.2 ends its proof without the empty clause when the clauses
                // contradict by unit propagation alone (`1 0` and `-1 0`: an empty proof),
                // which a checker then rejects. The empty clause added here is still
                // checked (it must follow by unit propagation), so nothing unchecked counts.
                std::fs::OpenOptions::new()
                    .append(true)
                    .open(proof_tmp.path())
                    .and_then(|mut f| std::io::Write::write_all(&mut f, b"0\n"))
                    .map_err(SolveError::io(proof))?;
            }
            (answer, "varisat".into())
        }
        BackendSpec::Command(cmd) => {
            let solver = placed(ExternalSolver::from_command(cmd)?, proof_tmp.path());
            let answer = solver.solve_file(cnf_tmp.path(), used, limits)?;
            (answer, solver.name)
        }
        BackendSpec::Lines => {
            let lines = crate::lines::Lines::new(1);
            let answer = match format {
                ProofFormat::Search => lines.certify(&arranged, proof_tmp.path(), limits)?,
                _ => lines.prove(&arranged, proof_tmp.path(), limits)?,
            };
            (answer, "lines".into())
        }
        BackendSpec::Minisat => unreachable!("checked above"),
    };
    let (mut answer, name) = checked_model(&arranged, solved)?;
    if let Answer::Sat(model) = &mut answer {
        model.cover(arranged.n_vars as usize);
    }
    let seconds = start.elapsed().as_secs_f64();
    let mut proof_bytes = None;
    if answer == Answer::Unsat {
        // Never over a link or a special file; whether an existing file may be replaced
        // was decided before solving (`--force`).
        // Both are checked first, so that a refusal leaves neither (no CNF without its proof).
        output::replaceable(cnf)?;
        output::replaceable(proof)?;
        output::persist(cnf_tmp, cnf, policy)?;
        output::persist(proof_tmp, proof, policy)?;
        proof_bytes = std::fs::metadata(proof).ok().map(|m| m.len());
    }
    Ok(Proved {
        answer,
        solver: name,
        seconds,
        proof_bytes,
    })
}
