//! pq-solve: running pq-sat formulas through SAT solvers.
//!
//! - [`backend`]: the [`Backend`] trait and the in-process backends (varisat, CaDiCaL);
//! - [`external`]: external solver processes (kissat, minisat, the CaDiCaL binary, any
//!   competition-style command);
//! - [`pipeline`]: solve, decode the model into a board, validate it independently;
//! - [`optimise`]: a(d) by raising `n` until UNSAT, from a [greedy] lower bound.

pub mod answer;
pub mod backend;
pub mod certificate;
pub mod control;
pub mod enumerate;
pub mod error;
pub mod external;
pub mod family;
pub mod greedy;
pub mod optimise;
pub mod pipeline;
pub mod placement;
pub mod portfolio;
pub mod proof;
pub mod race;
pub mod survey;

pub use answer::{Answer, Assignment};
pub use backend::{Backend, BackendSpec};
pub use error::SolveError;
pub use pipeline::{Outcome, Status};
