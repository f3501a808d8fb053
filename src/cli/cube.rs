//! The arguments of the cube-and-conquer commands that solve and merge cubes:
//! `solve-cube`, `conquer` and `cube-status` (the cube directory is made by `pq-sat cube`).

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args as ClapArgs, ValueEnum};
use pq_engine::cube::KeepProof;
use pq_engine::proof::ProofFormat;
use pq_solve::BackendSpec;

use super::{parse_jobs, parse_timeout, Format, ProgressMode};

/// How each cube is solved.
#[derive(ClapArgs, Debug)]
pub struct CubeSolverArgs {
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
    /// tree as binary DRAT, against a formula written with --bounds sums) or lrat (cadical)
    /// [default: drat]
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
    #[arg(long, value_name = "SEC", value_parser = parse_timeout)]
    pub timeout: Option<Duration>,
}

/// `pq-sat solve-cube`.
#[derive(ClapArgs, Debug)]
pub struct SolveCubeArgs {
    /// The cube directory (made by `pq-sat cube`)
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// The cube's id (1 to the number of cubes: a job array's index, or a line of `seq`)
    #[arg(value_name = "ID", required_unless_present = "completeness")]
    pub id: Option<usize>,
    #[command(flatten)]
    pub solver: CubeSolverArgs,
    /// Instead of a cube, prove the cube set complete: the formula plus the negation of
    /// every cube is UNSAT (its proof goes to DIR/proofs/completeness.drat with --proof)
    #[arg(long, conflicts_with = "id")]
    pub completeness: bool,
    /// Do nothing when the cube already has a SAT or UNSAT result (print it): a
    /// resubmitted job array, or a rerun of the same list, solves only the open cubes
    #[arg(long)]
    pub resume: bool,
    /// Exit 0 whenever the answer was found and recorded, also for SAT and UNSAT (for job
    /// schedulers that count any other exit code as a failed job); errors still exit 1
    #[arg(long)]
    pub exit_zero: bool,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// What `conquer --emit` writes instead of solving.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Emit {
    /// An `sbatch` script: a Slurm job array with one task per cube
    Slurm,
}

/// `pq-sat conquer`.
#[derive(ClapArgs, Debug)]
pub struct ConquerArgs {
    /// The cube directory (made by `pq-sat cube`)
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Worker threads, each solving one cube at a time [default: the number of cores]
    #[arg(long, short = 'j', value_name = "N", value_parser = parse_jobs)]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub solver: CubeSolverArgs,
    /// Each worker keeps one in-process CaDiCaL and solves its cubes under assumptions,
    /// keeping what it learnt from one cube to the next (no proofs)
    #[arg(long, conflicts_with_all = ["backend", "solver_cmd", "proof"])]
    pub incremental: bool,
    /// Progress on stderr: auto (a live line on a terminal, one line per cube otherwise),
    /// lines, or none
    #[arg(long, value_enum, default_value_t = ProgressMode::Auto)]
    pub progress: ProgressMode,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Write a script for a cluster's scheduler instead of solving: slurm (an sbatch job
    /// array running `pq-sat solve-cube DIR $SLURM_ARRAY_TASK_ID` per cube)
    #[arg(
        long,
        value_enum,
        value_name = "ENGINE",
        conflicts_with = "incremental"
    )]
    pub emit: Option<Emit>,
    /// Where --emit writes the script (atomically) [default: standard output]
    #[arg(short, long, value_name = "FILE", requires = "emit")]
    pub output: Option<PathBuf>,
    /// Replace an existing --output
    #[arg(long, requires = "output")]
    pub force: bool,
    /// Slurm: each task's time limit (sbatch --time, e.g. 1:00:00)
    #[arg(
        long,
        value_name = "TIME",
        default_value = "1:00:00",
        requires = "emit"
    )]
    pub time: String,
    /// Slurm: each task's memory (sbatch --mem, e.g. 4G)
    #[arg(long, value_name = "MEM", default_value = "4G", requires = "emit")]
    pub mem: String,
    /// Slurm: at most M tasks at once (sbatch --array=1-N%M) [default: no limit]
    #[arg(long, value_name = "M", requires = "emit")]
    pub max_running: Option<usize>,
    /// Slurm: the partition (sbatch --partition)
    #[arg(long, value_name = "NAME", requires = "emit")]
    pub partition: Option<String>,
}

/// `pq-sat cube-status`.
#[derive(ClapArgs, Debug)]
pub struct CubeStatusArgs {
    /// The cube directory
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Re-check the whole bundle from its files: the formula's hashes, every cube's proof
    /// (against the formula plus the cube), the completeness proof, by the independent
    /// checker; exit 0 only when everything checks
    #[arg(long)]
    pub check: bool,
    /// Give up on the checks after SEC seconds (an error)
    #[arg(long, value_name = "SEC", value_parser = parse_timeout, requires = "check")]
    pub timeout: Option<Duration>,
    /// With --check: check N cubes' proofs at a time (each its own checker process; the
    /// findings are printed in cube order) [default: the number of cores]
    #[arg(long, short = 'j', value_name = "N", value_parser = parse_jobs, requires = "check")]
    pub jobs: Option<usize>,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

impl CubeSolverArgs {
    /// The one solver named, or the default cube solver.
    pub fn spec(&self) -> Result<BackendSpec, String> {
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

/// A cube solver, validated: the solver, and the proofs it writes.
#[derive(Debug)]
pub struct CubeSolver {
    /// The solver.
    pub spec: BackendSpec,
    /// `--proof`: its format.
    pub proof: Option<ProofFormat>,
    /// `--check-unsat`: every UNSAT needs a checked proof in this format.
    pub check_unsat: Option<ProofFormat>,
    /// `--keep-proof`.
    pub keep: KeepProof,
}

impl CubeSolverArgs {
    /// Checks that the solver writes the proofs asked for.
    pub fn validated(&self, check_unsat: bool) -> Result<CubeSolver, String> {
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
