//! The line engine in the plan's terms ([`crate::plan`]): it decides steps, climbs to
//! optima and writes its search tree as a proof (DRAT, or a search certificate), so that a
//! plan holds it as a [`Native`] engine and reports it as any other.

use std::borrow::Cow;

use pq_encode::spec::Problem;
use pq_io::output::WritePolicy;
use pq_solve::error::SolveError;

use super::optimise::optimise_lines;
use super::{tree_proof_options, LineEngine};
use crate::capability::climb::Strategy;
use crate::capability::{
    Climb, Decide, Decided, Native, Optimise, Optimised, ProofFiles, Prove, Query, Step,
};
use crate::error::EngineError;

/// The problem a native engine answers: `step`'s (a formula that names none is for the
/// SAT path, which [`crate::plan::Plan::new`] chooses for a formula read as it is).
fn native_problem(step: Step<'_>) -> Result<(&Problem, usize), SolveError> {
    step.problem().ok_or_else(|| {
        SolveError::from(EngineError::Unsupported(
            "the line engine answers a problem; a formula that names none is for a SAT solver"
                .into(),
        ))
    })
}

impl Decide for LineEngine {
    fn decide(&self, query: Query<'_>) -> Result<Decided, SolveError> {
        let (problem, n) = native_problem(query.step)?;
        let (outcome, stats) = LineEngine::decide(self, problem, n, query.limits)?;
        Ok(Decided {
            search: Some(stats),
            ..Decided::of(outcome)
        })
    }
}

/// The line engine with the write policy of its proofs.
pub(crate) struct TreeProver<'a> {
    /// The engine.
    pub engine: Cow<'a, LineEngine>,
    /// Whether the proof may replace an earlier file.
    pub policy: WritePolicy,
    /// Whether the proof is checked before its UNSAT counts.
    pub check: bool,
}

impl Prove for TreeProver<'_> {
    fn prove(&self, query: Query<'_>, files: &ProofFiles) -> Result<Decided, SolveError> {
        let check = self.check;
        let (problem, n) = native_problem(query.step)?;
        let limits = query.limits;
        let (outcome, stats, bytes, options) = match files {
            ProofFiles::Search { sink } => {
                let (outcome, stats, bytes) =
                    self.engine
                        .certify(problem, n, sink, check, limits, self.policy)?;
                (outcome, stats, bytes, None)
            }
            // Its DRAT proof refutes the formula with the bound clauses the search uses.
            ProofFiles::Clausal { proof, cnf, .. } => {
                let paths = (cnf.as_path(), proof.as_path());
                let (outcome, stats, bytes) =
                    self.engine
                        .prove(problem, n, paths, check, limits, self.policy)?;
                (outcome, stats, bytes, Some(tree_proof_options()))
            }
        };
        Ok(Decided {
            search: Some(stats),
            proof_bytes: Some(bytes),
            options,
            ..Decided::of(outcome)
        })
    }
}

impl Optimise for LineEngine {
    fn name(&self) -> String {
        LineEngine::name(self)
    }

    fn optimise(&self, climb: Climb<'_>) -> Result<Optimised, SolveError> {
        let mut stats = pq_lines::Stats::default();
        let (problem, limits) = (climb.problem, climb.limits);
        let outcome = optimise_lines(problem, self, limits, climb.on_progress, &mut stats)?;
        Ok(Optimised {
            engine: LineEngine::name(self),
            outcome,
            strategy: Strategy::Up,
            search: Some(stats),
            options: None,
            certified: tree_proof_options(),
        })
    }
}

impl Native for LineEngine {
    fn prover(&self, policy: WritePolicy, check: bool) -> Box<dyn Prove + '_> {
        Box::new(TreeProver {
            engine: Cow::Borrowed(self),
            policy,
            check,
        })
    }

    fn certifier(&self) -> Box<dyn Prove + '_> {
        // One thread, as `--certify` has always proved the step: its certificate does not
        // depend on the run's `--jobs`.
        Box::new(TreeProver {
            engine: Cow::Owned(LineEngine::on(1)),
            policy: WritePolicy::Keep,
            check: false,
        })
    }
}
