//! `solve`'s proofs: which solver writes them, in which format, into which files.

use pq_engine::plan::{ProofFiles, Solvers};
use pq_engine::proof::ProofFormat;
use pq_io::output::same_target;
use pq_solve::BackendSpec;

use super::args::{EngineChoice, SolveArgs};

/// `--proof`, `--proof-format` and `--certify`: the proofs' format, the one solver that
/// writes them (a portfolio's would come from whichever member happened to win), and the
/// files of `--proof`.
pub(super) fn proofs(
    a: &SolveArgs,
    solvers: &Solvers,
) -> Result<(ProofFormat, Option<BackendSpec>, Option<ProofFiles>), String> {
    let proof_format = a.proof_format.unwrap_or_else(|| {
        a.proof
            .as_deref()
            .map_or(ProofFormat::Drat, ProofFormat::from_path)
    });
    let prover = if proof_format == ProofFormat::Search && a.proof.is_some() {
        // The line engine writes it; which engine answers is settled by `line_engine`,
        // which refuses --engine sat and SAT-only options with this format.
        if a.engine == EngineChoice::Sat || !a.backend.is_empty() {
            let flag = if a.backend.is_empty() {
                "--engine sat"
            } else {
                "--backend"
            };
            return Err(format!(
                "--proof-format search writes the line engine's search; it cannot be used with {flag} (use drat or lrat)"
            ));
        }
        Some(BackendSpec::Lines)
    } else if a.proof.is_some() || a.certify.is_some() {
        match solvers {
            Solvers::Given(list) if list.len() > 1 => {
                return Err(
                    "--proof and --certify take one --backend (a proof comes from one solver)"
                        .into(),
                )
            }
            Solvers::Given(list) => {
                pq_engine::proof::check_capable(&list[0], proof_format)?;
                Some(list[0].clone())
            }
            Solvers::Default { .. } => Some(pq_engine::proof::default_prover(proof_format)),
        }
    } else {
        None
    };
    let proof = match &a.proof {
        None => None,
        Some(_) if a.dim.is_some() && a.n.is_none() => {
            return Err("--proof applies to a single formula (--n, or --cnf); to certify an optimum use --certify DIR".into())
        }
        Some(proof) if proof_format == ProofFormat::Search => {
            if a.cnf_out.is_some() {
                return Err("--cnf-out: a search certificate needs no formula beside it (pq-check reads its claim from its header)".into());
            }
            if a.certify.is_some() {
                return Err("--certify writes a DRAT bundle; --proof-format search goes with --proof FILE".into());
            }
            if pq_io::compress::Compression::of_name(proof)
                != pq_io::compress::Compression::None
            {
                return Err(format!(
                    "--proof {}: a search certificate is written as it is checked; to compress it, stream it: --proof - | xz > FILE.xz (xz -dc FILE.xz | pq-check - checks it)",
                    proof.display()
                ));
            }
            Some(ProofFiles {
                proof: proof.clone(),
                cnf_out: proof.clone(),
            })
        }
        Some(proof) if proof.as_os_str() == "-" => {
            return Err("--proof -: only a search certificate (--proof-format search) streams to standard output; a DRAT or LRAT proof goes to a file beside its CNF".into())
        }
        Some(proof) => {
            refuse_compressed_name("--proof", proof)?;
            let cnf_out = a.cnf_out.clone().unwrap_or_else(|| proof.with_extension("cnf"));
            refuse_compressed_name("--cnf-out", &cnf_out)?;
            if a.cnf_out.is_none() && same_target(&cnf_out, proof) {
                return Err(format!(
                    "--proof {}: the CNF written beside the proof takes the proof's name with .cnf, which is the proof itself; the proof file must not end in .cnf: name it .drat or .lrat, or give --cnf-out",
                    proof.display()
                ));
            }
            if a.cnf_out.is_none() && a.cnf.as_ref().is_some_and(|c| same_target(c, &cnf_out)) {
                return Err(format!(
                    "the CNF written beside the proof would overwrite the input {}; give --cnf-out",
                    cnf_out.display()
                ));
            }
            Some(ProofFiles {
                proof: proof.clone(),
                cnf_out,
            })
        }
    };
    Ok((proof_format, prover, proof))
}

/// Refuses a compressed name (`.xz`, `.gz`, `.bz2`) for a file that is written as plain text
/// beside a proof: the proof's solver reads the CNF and writes the proof as they are, and the
/// checker checks that pair. Compressing them afterwards would keep files other than the
/// ones checked; `check-proof` reads the pair compressed by the user.
pub(super) fn refuse_compressed_name(option: &str, path: &std::path::Path) -> Result<(), String> {
    use pq_io::compress::{stripped, Compression};
    match Compression::of_name(path) {
        Compression::None => Ok(()),
        c => Err(format!(
            "{option} {}: the CNF and proof of --proof are written as plain text (the solver and the checker read them as they are), not {}; name it {} and compress the pair afterwards if you like: check-proof reads compressed files",
            path.display(),
            c.name(),
            stripped(path).display()
        )),
    }
}
