//! A bundle made: the witness validated and written, the step above the optimum proved by
//! the plan's prover and checked, the manifest assembled from that evidence, all staged and
//! moved into place at once.

use std::fs;
use std::path::Path;

use pq_board::placement::Placement;
use pq_encode::general::{encode_problem, specialised};
use pq_encode::spec::Problem;
use pq_encode::{Formula, Options};
use pq_io::hashing::{sha256_file, sha256_hex};
use pq_io::staging::{check_target, move_into_place, stage};
use pq_solve::backend::accept_all;
use pq_solve::control::{check_interrupt, Limits};
use pq_solve::error::SolveError;

use super::{
    assemble, search_header, Certificate, Evidence, Recorded, SearchClaim, MANIFEST, MARKER,
    WITNESS,
};
use crate::capability::{ProofFiles, Prove, Query, Status, Step};
use crate::error::EngineError;
use crate::proof::{check_proof, CheckReport, ProofFormat};

/// What to certify: the optimum of `problem` is `optimum`, with `witness` (exactly `optimum`
/// pieces in each maximised group), the UNSAT step encoded with `options` and proved in
/// `format` by the prover the plan gives for the bundle's files.
pub struct Request<'a> {
    /// The problem (the peaceable queens: [`Problem::peaceable_queens`]).
    pub problem: &'a Problem,
    /// The claimed optimum.
    pub optimum: usize,
    /// A placement at the optimum; validated before anything is written.
    pub witness: &'a Placement,
    /// The encoding of the UNSAT step, `optimum + 1` queens of each colour.
    pub options: Options,
    /// The proof format, which decides the files and the checker.
    pub format: ProofFormat,
    /// What proves the UNSAT step into the files it is given (unchecked: the bundle's
    /// check follows).
    pub prover: &'a dyn Fn(&ProofFiles) -> Box<dyn Prove + 'a>,
    /// The limits of the proof-writing solve.
    pub solve_limits: Limits,
    /// Whether an earlier bundle at the target may be replaced (`--force`).
    pub policy: pq_io::output::WritePolicy,
}

/// Writes the bundle into `dir` (which must not exist, be empty, or hold an earlier bundle,
/// then replaced; see [`check_target`]), atomically: everything
/// is staged beside it and renamed into place once the proof has been checked (the checker
/// runs without a time limit).
pub(crate) fn write_certificate(dir: &Path, req: &Request) -> Result<Certificate, SolveError> {
    check_target(dir, MARKER, req.policy)?;
    let (problem, a) = (req.problem, req.optimum);
    if problem.maximised().is_empty() {
        return Err(SolveError::from(EngineError::Certificate(
            "the problem maximises no group: there is no optimum to certify".into(),
        )));
    }
    let (trimmed, _) = crate::capability::validated(problem, a, req.witness, "the optimiser")?;
    if &trimmed != req.witness {
        return Err(SolveError::from(EngineError::Certificate(format!(
            "the witness does not have exactly {a} pieces in each maximised group"
        ))));
    }
    let queens = specialised(problem);
    let staging = stage(dir, "certificate", MARKER, req.policy)?;
    let s = staging.path();

    let symbols = Placement::symbols(&problem.rules);
    let witness_text = req.witness.to_labelled_text(&symbols);
    fs::write(s.join(WITNESS), &witness_text).map_err(SolveError::io(&s.join(WITNESS)))?;

    let n = a + 1;
    let stem = if queens {
        format!("unsat-d{:02}-n{n:03}", problem.rules.layout.rows)
    } else {
        format!("unsat-n{n:03}")
    };
    let proof_name = format!("{stem}.{}", req.format.name());
    let files = ProofFiles::new(
        req.format,
        s.join(&proof_name),
        s.join(format!("{stem}.cnf")),
    );
    let (unsat, report) = prove_step(req, n, &files)?;
    if !report.verified {
        return Err(SolveError::from(EngineError::Certificate(format!(
            "the {} proof from {} was not verified by {}: {}{}",
            req.format.name().to_uppercase(),
            unsat.solver,
            report.checker,
            report.verdict,
            report
                .note
                .clone()
                .map(|n| format!(" ({n})"))
                .unwrap_or_default()
        ))));
    }
    let proof_path = files.proof();
    let proof_bytes = fs::metadata(proof_path)
        .map_err(SolveError::io(proof_path))?
        .len();
    let cnf_name = unsat.cnf.as_ref().map(|(name, _)| name.clone());
    let cnf_sha256 = match &unsat.cnf {
        Some((_, path)) => Some(sha256_file(path).map_err(SolveError::io(path))?),
        None => None,
    };
    let cert = assemble(
        &Evidence {
            problem,
            optimum: a,
            witness: req.witness,
            options: unsat.formula.as_ref().map(|_| &req.options),
            format: req.format,
            formula: unsat.formula.as_ref(),
            names: (WITNESS.into(), cnf_name, proof_name),
            proof_bytes,
            checker: &report.checker,
            verdict: &report.verdict,
        },
        Recorded {
            generator: format!("pq-sat {}", env!("CARGO_PKG_VERSION")),
            witness_sha256: sha256_hex(witness_text.as_bytes()),
            cnf_sha256,
            proof_sha256: sha256_file(proof_path).map_err(SolveError::io(proof_path))?,
            solver: solver_with_version(&unsat.solver),
            solve_seconds: unsat.seconds,
            checker_version: report.checker_version.clone(),
            check_seconds: report.seconds,
        },
    );
    let json = serde_json::to_string_pretty(&cert).expect("a certificate serialises") + "\n";
    fs::write(s.join(MANIFEST), json).map_err(SolveError::io(&s.join(MANIFEST)))?;
    move_into_place(staging, dir, MARKER, req.policy)?;
    Ok(cert)
}

/// The UNSAT step as proved: by whom and how fast, and for a clausal proof the formula it
/// refutes with the CNF file's name and path.
struct Proved {
    solver: String,
    seconds: f64,
    formula: Option<Formula>,
    cnf: Option<(String, std::path::PathBuf)>,
}

/// The step `n` refuted into `files` by the plan's prover, and the proof checked: a clausal
/// proof against the CNF written beside it (pq-sat's encoding of the step), a search
/// certificate once its header claims the whole step.
fn prove_step(
    req: &Request,
    n: usize,
    files: &ProofFiles,
) -> Result<(Proved, CheckReport), SolveError> {
    let problem = req.problem;
    let formula = files
        .cnf()
        .map(|_| encode_problem(problem, n, &req.options));
    let step = match &formula {
        Some(formula) => Step::Formula {
            problem: Some(problem),
            n,
            formula,
        },
        None => Step::Problem { problem, n },
    };
    let query = Query {
        step,
        limits: &req.solve_limits,
        judge: &accept_all,
    };
    let decided = (req.prover)(files).prove(query, files)?;
    // Stopped by Ctrl-C: the bundle is not written (the staging directory goes with it).
    check_interrupt()?;
    let outcome = decided.outcome;
    let answer = match outcome.status {
        Status::Unsat => Ok(true),
        Status::Sat => Ok(false),
        Status::Unknown => Err(outcome.reason.clone().unwrap_or_else(|| "stopped".into())),
    };
    unsat_or_refuted(answer, &outcome.solver, n, req.optimum)?;
    let report = match files {
        ProofFiles::Search { sink } => {
            let d = problem.rules.layout.rows;
            let claim = search_header(sink).map_err(|e| {
                SolveError::from(EngineError::Certificate(format!("{}: {e}", sink.display())))
            })?;
            if claim != SearchClaim::whole(d, n) {
                return Err(SolveError::from(EngineError::Certificate(format!(
                    "the search certificate claims {claim}, not {}",
                    SearchClaim::whole(d, n)
                ))));
            }
            check_proof(sink, sink, files.format(), None)?
        }
        ProofFiles::Clausal { format, proof, cnf } => check_proof(cnf, proof, *format, None)?,
    };
    let cnf = files.cnf().and_then(|path| {
        let name = path.file_name()?.to_string_lossy().into_owned();
        Some((name, path.to_path_buf()))
    });
    Ok((
        Proved {
            solver: outcome.solver,
            seconds: outcome.seconds,
            formula,
            cnf,
        },
        report,
    ))
}

/// An UNSAT answer (`Ok(true)`; `Ok(false)` is SAT, `Err` no answer and why), or why the
/// certification run refutes or leaves open the optimum `a`.
fn unsat_or_refuted(
    answer: Result<bool, String>,
    solver: &str,
    n: usize,
    a: usize,
) -> Result<(), SolveError> {
    match answer {
        Ok(true) => Ok(()),
        Ok(false) => Err(SolveError::from(EngineError::Certificate(format!(
            "{solver} found n = {n} satisfiable on the certification run: the claimed optimum {a} is wrong"
        )))),
        Err(reason) => Err(SolveError::from(EngineError::Certificate(format!(
            "the proof run for n = {n} gave no answer: {reason}"
        )))),
    }
}

/// `kissat 4.0.4`, `cadical 2.2.1`, ... as far as it can be found out; the line engine is
/// named alone (its version is pq-sat's, which the manifest states already).
fn solver_with_version(name: &str) -> String {
    let version = pq_solve::survey::survey()
        .into_iter()
        .find(|s| s.name == name && s.kind != "native")
        .and_then(|s| s.version);
    match version {
        Some(v) => format!("{name} {v}"),
        None => name.to_string(),
    }
}
