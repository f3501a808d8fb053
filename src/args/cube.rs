//! How `solve-cube` and `conquer` solve each cube: the solver arguments they share, and
//! their validation into a [`CubeSolver`].

use std::time::Duration;

use clap::Args as ClapArgs;
use pq_engine::cube::{CubeSolver, KeepProof};
use pq_engine::proof::ProofFormat;
use pq_solve::spec::BackendSpec;

use super::parse_timeout;

/// How each cube is solved.
#[derive(ClapArgs, Debug)]
pub(crate) struct CubeSolverArgs {
    /// Solver: cadical, cadical-sat, cadical-unsat (in-process CaDiCaL, default or tuned
    /// options), varisat, kissat, minisat, cadical-bin [default: cadical-sat]
    #[arg(long, value_name = "B", conflicts_with = "solver_cmd")]
    pub backend: Option<BackendSpec>,
    /// Any solver command that follows the SAT competition output conventions; the CNF
    /// (the formula plus the cube as unit clauses) is appended, or replaces {cnf}; {proof}
    /// stands for the path of the DRAT proof it is to write
    #[arg(long, value_name = "CMD")]
    pub solver_cmd: Option<String>,
    /// On UNSAT, write a clausal proof of the formula plus the cube (as unit clauses) into
    /// DIR/proofs/ID.drat (ID.lrat with --proof-format lrat); `cube-status --check`
    /// checks them all
    #[arg(long)]
    pub proof: bool,
    /// Proof format: drat (kissat, cadical, cadical-bin, varisat; lines writes its search
    /// tree as binary DRAT, against a formula written with --bounds sums), lrat (cadical)
    /// or search (lines: each cube's search certificate, ID.search, checked by pq-check;
    /// docs/search-certificate.md) [default: drat]
    #[arg(long, value_name = "FMT", requires = "proof")]
    pub proof_format: Option<ProofFormat>,
    /// What becomes of each cube's proof: plain (DIR/proofs/ID.drat), xz (ID.drat.xz, about
    /// 24 times smaller for the line engine's proofs; checkers read it as it is) or none
    /// (deleted after its check: needs --check-unsat; the result records the proof's
    /// SHA-256, size and check, and `cube-status --check` makes it again and checks it)
    /// [default: plain]
    #[arg(long, value_name = "HOW", requires = "proof")]
    pub keep_proof: Option<KeepProof>,
    /// Wall-clock limit per cube in seconds: the cube's result is then `unknown`, and a
    /// rerun solves it again
    #[arg(long = "cube-timeout", value_name = "SEC", value_parser = parse_timeout)]
    pub timeout: Option<Duration>,
}

impl CubeSolverArgs {
    /// The one solver named, or the default cube solver.
    pub(crate) fn spec(&self) -> Result<BackendSpec, String> {
        match (&self.backend, &self.solver_cmd) {
            (Some(b), _) => Ok(b.clone()),
            (None, Some(cmd)) if cmd.trim().is_empty() => {
                Err("--solver-cmd needs a command".into())
            }
            (None, Some(cmd)) => Ok(BackendSpec::Command(cmd.clone())),
            (None, None) => Ok(pq_engine::cube::CUBE_SOLVER),
        }
    }
}

impl CubeSolverArgs {
    /// Checks that the solver writes the proofs asked for.
    pub(crate) fn validated(&self, check_unsat: bool) -> Result<CubeSolver, String> {
        let spec = self.spec()?;
        let format = self.proof_format.unwrap_or_default();
        if self.proof {
            pq_engine::proof::check_capable(&spec, format)?;
        }
        if check_unsat {
            pq_engine::proof::check_capable(&spec, format)
                .map_err(|e| format!("--check-unsat: {e}"))?;
        }
        let keep = self.keep_proof.unwrap_or_default();
        if keep == KeepProof::None && !check_unsat {
            return Err("--keep-proof none deletes each proof after its check, so it needs --check-unsat (without it nothing would vouch for the UNSAT)".into());
        }
        Ok(CubeSolver {
            spec,
            proof: self.proof.then_some(format),
            check_unsat: check_unsat.then_some(format),
            keep,
        })
    }
}
