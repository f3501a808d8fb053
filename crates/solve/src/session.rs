//! Solving under assumptions: one solver that keeps its clauses, and what it learnt, across
//! many calls. A capability, not a backend: [`crate::backend::Backend::session`] opens one where the
//! backend can (the in-process CaDiCaL), and pq-engine asks for it when it climbs to an
//! optimum incrementally, enumerates every model, or conquers cubes on one worker.
//!
//! Incremental SAT under assumptions: Eén and Sörensson, "Temporal induction by incremental
//! SAT solving", ENTCS 89(4), 2003.

use rustsat::solvers::{ControlSignal, Solve, SolveIncremental, SolverResult, Terminate};
use rustsat::types::{Clause, Lit, TernaryVal, Var};

use pq_encode::Formula;

use crate::answer::Assignment;
use crate::control::Limits;
use crate::error::SolveError;

/// What one call under assumptions found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A model: read it with [`Session::value`] or [`Session::model`].
    Sat,
    /// No model extends the assumptions.
    Unsat,
    /// The limits stopped the search.
    Stopped,
}

/// A solver kept across calls: clauses are added for good, each call solves under its own
/// assumptions and limits.
pub trait Session: Send {
    /// The name answers carry (`cadical (incremental)`).
    fn name(&self) -> String;

    /// Adds `clause` for every later call.
    ///
    /// # Errors
    /// The solver's own failure.
    fn add_clause(&mut self, clause: Clause) -> Result<(), SolveError>;

    /// Every later call stops when `limits` say so (replacing the limits set before).
    fn limit(&mut self, limits: &Limits);

    /// Solves under `assumptions` until the limits set last say stop.
    ///
    /// # Errors
    /// The solver's own failure.
    fn solve_under(&mut self, assumptions: &[Lit]) -> Result<Reply, SolveError>;

    /// `lit`'s value in the last model.
    ///
    /// # Errors
    /// No model to read, or the solver's own failure.
    fn value(&self, lit: Lit) -> Result<bool, SolveError>;

    /// The last model as an assignment of `n_vars` variables, reading the first `read`
    /// of them (the rest false: auxiliary variables a caller need not pay to read).
    ///
    /// # Errors
    /// As [`Session::value`].
    fn model(&self, n_vars: u32, read: u32) -> Result<Assignment, SolveError> {
        let mut model = Assignment::all_false(n_vars as usize);
        for v in 0..read {
            model.set(v as usize + 1, self.value(Var::new(v).pos_lit())?);
        }
        Ok(model)
    }
}

/// The in-process CaDiCaL as a session.
pub struct CadicalSession(rustsat_cadical::CaDiCaL<'static, 'static>);

impl CadicalSession {
    /// A CaDiCaL holding the clauses of `formula`.
    ///
    /// # Errors
    /// The solver's own failure.
    pub fn with(formula: &Formula) -> Result<CadicalSession, SolveError> {
        let mut solver = rustsat_cadical::CaDiCaL::default();
        for clause in &formula.cnf {
            solver.add_clause_ref(clause).map_err(cadical_error)?;
        }
        Ok(CadicalSession(solver))
    }
}

/// The error of an in-process CaDiCaL call.
pub fn cadical_error(e: impl std::fmt::Display) -> SolveError {
    SolveError::in_process("cadical", e)
}

impl Session for CadicalSession {
    fn name(&self) -> String {
        "cadical (incremental)".into()
    }

    fn add_clause(&mut self, clause: Clause) -> Result<(), SolveError> {
        self.0.add_clause(clause).map_err(cadical_error)
    }

    fn limit(&mut self, limits: &Limits) {
        // Attaching replaces the previous terminator.
        attach_limits(&mut self.0, limits);
    }

    fn solve_under(&mut self, assumptions: &[Lit]) -> Result<Reply, SolveError> {
        Ok(
            match self.0.solve_assumps(assumptions).map_err(cadical_error)? {
                SolverResult::Sat => Reply::Sat,
                SolverResult::Unsat => Reply::Unsat,
                SolverResult::Interrupted => Reply::Stopped,
            },
        )
    }

    fn value(&self, lit: Lit) -> Result<bool, SolveError> {
        Ok(self.0.lit_val(lit).map_err(cadical_error)? == TernaryVal::True)
    }
}

/// Makes an in-process CaDiCaL stop when `limits` say so.
pub fn attach_limits(solver: &mut rustsat_cadical::CaDiCaL<'_, '_>, limits: &Limits) {
    let limits = limits.clone();
    solver.attach_terminator(move || {
        if limits.should_stop() {
            ControlSignal::Terminate
        } else {
            ControlSignal::Continue
        }
    });
}
