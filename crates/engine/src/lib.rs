//! pq-engine: what pq-sat does with SAT solvers, above the backends of [`pq_solve`].
//!
//! ```
//! use pq_encode::{Instance, Options};
//! use pq_engine::{pipeline::check, Status};
//! use pq_solve::{backend::Cadical, control::Limits};
//! let instance = Instance::new(5, 4).unwrap();
//! let outcome = check(&instance, &Options::default(), &Cadical, &Limits::none()).unwrap();
//! assert_eq!(outcome.status, Status::Sat); // a(5) = 4, with a validated board
//! assert!(outcome.board.is_some());
//! ```
//!
//! - [`pipeline`]: solve, decode the model into a board, validate it independently;
//!   [`placement`]: the same for general placement problems;
//! - [`optimise`]: a(d) by raising `n` until UNSAT, from a [greedy] lower bound;
//! - [`enumerate`]: every board, or one per symmetry orbit;
//! - [`proof`] and [`certificate`]: clausal proofs, independent checkers, certified optima;
//! - [`family`] and [`race`]: benchmark families of CNF files and solver races on them.

pub mod certificate;
pub mod enumerate;
pub mod family;
pub mod greedy;
pub mod optimise;
pub mod pipeline;
pub mod placement;
pub mod proof;
pub mod race;

pub use pipeline::{Outcome, Status};
