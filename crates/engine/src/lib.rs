//! pq-engine: what pq-sat does with SAT solvers and its line engine, above the backends of
//! [`pq_solve`].
//!
//! ```
//! use pq_encode::{spec::Problem, Options};
//! use pq_engine::capability::Status;
//! use pq_engine::sat::pipeline::solve;
//! use pq_solve::{backend::Cadical, control::Limits};
//! let queens = Problem::peaceable_queens(5);
//! let outcome = solve(&queens, 4, &Options::default(), &Cadical, &Limits::none()).unwrap();
//! assert_eq!(outcome.status, Status::Sat); // a(5) = 4, with a validated placement
//! assert!(outcome.placement.is_some());
//! ```
//!
//! - [`capability`]: what an engine can do (decide a step, prove it, climb to an optimum,
//!   list placements), the types those calls pass, the validated answer to a step
//!   ([`capability::Outcome`]), the climb every optimiser shares and what an enumeration
//!   asks and answers;
//! - [`sat`]: the SAT path: any problem at one size through a backend, its model decoded and
//!   validated independently ([`sat::pipeline`]); the SAT strategies of the climb to an
//!   optimum ([`sat::optimise`]), from a greedy lower bound where there is one
//!   ([`pq_board::greedy`]); every board, or one per symmetry orbit ([`sat::enumerate`]); the
//!   optimum through MaxSAT solvers ([`sat::maxsat`]);
//! - [`lines`]: the native line engine ([`pq_lines`]) without a formula: deciding a step,
//!   its journal, enumeration, its climb, estimates, Dudeney's board, and its capabilities;
//! - [`plan`]: which engine answers a run, made from a plain request with every rule of
//!   what may go with what ([`plan::Plan::new`], [`plan::enumeration`]), and chosen by what
//!   it can do (decide a step, write a proof, climb to an optimum, list placements): the
//!   SAT solvers, a portfolio, cubes or the line engine;
//! - [`proof`]: clausal proofs and independent checkers; [`proof::checked`]:
//!   `--check-unsat`, a backend whose UNSAT counts only with a checked proof;
//!   [`proof::certificate`]: certified optima;
//! - benchmark families of CNF files, solver races on them and the SAT-competition
//!   submission are the crate pq-bench's, built on this one;
//! - [`error`]: the engine's own failures by kind ([`error::EngineError`]), beside the
//!   backends' ([`pq_solve::error::SolveError`]);
//! - [`cube`]: cube-and-conquer's directory of cubes and per-cube results, shared by
//!   every way of conquering them (locally, GNU parallel, Slurm).
//!
//! Files, compression and hashes (SHA-256, the GBD id) are pq-io's, imported from there; the
//! reader of DIMACS files ([`pq_solve::input`]) and the table of proven values every answer
//! must agree with ([`pq_solve::known`]) are pq-solve's.

pub mod capability;
pub mod cube;
pub mod error;
pub mod lines;
pub mod plan;
pub mod proof;
pub mod sat;
