//! pq-solve: running pq-sat formulas through SAT solvers, and everything that drives them.
//!
//! ```
//! use pq_encode::{Instance, Options};
//! use pq_solve::{backend::Cadical, control::Limits, pipeline::check, Status};
//! let instance = Instance::new(5, 4).unwrap();
//! let outcome = check(&instance, &Options::default(), &Cadical, &Limits::none()).unwrap();
//! assert_eq!(outcome.status, Status::Sat); // a(5) = 4, with a validated board
//! assert!(outcome.board.is_some());
//! ```
//!
//! - [`backend`]: the [`Backend`] trait and the in-process backends (varisat, CaDiCaL);
//! - [`external`]: external solver processes (kissat, minisat, the CaDiCaL binary, any
//!   competition-style command); [`portfolio`]: several backends racing on one formula;
//! - [`control`]: time limits, stop requests and Ctrl-C, shared by every backend;
//! - [`pipeline`]: solve, decode the model into a board, validate it independently;
//!   [`placement`]: the same for general placement problems;
//! - [`optimise`]: a(d) by raising `n` until UNSAT, from a [greedy] lower bound;
//! - [`enumerate`]: every board, or one per symmetry orbit;
//! - [`proof`] and [`certificate`]: clausal proofs, independent checkers, certified optima;
//! - [`family`] and [`race`]: benchmark families of CNF files and solver races on them;
//! - [`survey`]: which solvers this machine has.

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
