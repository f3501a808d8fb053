//! pq-encode: the peaceable armies of queens as CNF.
//!
//! [`encode`] turns an [`Instance`] (`n` white and `n` black queens on `d × d`) and
//! [`Options`] (model, cardinality encoding, symmetry breaking) into a [`Formula`]:
//! clauses, the map from square variables to DIMACS indices, and header comments.
//! [`dimacs`] writes and reads the file format that competition solvers take.
//!
//! ```
//! use pq_encode::{encode, Instance, Options};
//! let formula = encode(&Instance::new(4, 2).unwrap(), &Options::default());
//! assert!(formula.n_vars > 32 && formula.n_clauses() > 0);
//! ```
//!
//! The square variables come first: white queens are variables `1 ..= d²` and black
//! queens `d² + 1 ..= 2d²`, both row-major from the top-left square.
//!
//! # From a problem to a checked board
//!
//! The whole round trip on the 8×8 board, where a(8) = 9: the problem, its formula for
//! "at least 9 of each", the DIMACS file any SAT solver reads (its `c var` comment lines map
//! the piece variables back to squares), a model, the board it encodes, and the board
//! checked by [`pq_board`]'s validator, which shares no code with the encoder. Here the
//! model comes from CaDiCaL (the `rustsat-cadical` crate); any solver's model does, and so
//! does a model read from a solver's `v` lines.
//!
//! ```
//! use pq_board::rules::check_placement;
//! use pq_encode::general::encode_problem;
//! use pq_encode::spec::Problem;
//! use pq_encode::{dimacs, Options};
//! use rustsat::solvers::{Solve, SolverResult};
//! use rustsat::types::{TernaryVal, Var};
//!
//! // The problem: peaceable armies of queens on 8×8, at least 9 of each colour.
//! let problem = Problem::peaceable_queens(8);
//! let formula = encode_problem(&problem, 9, &Options::default());
//!
//! // The DIMACS file, and the same formula read back from it.
//! let mut file = Vec::new();
//! dimacs::write(&formula, &mut file).unwrap();
//! let text = String::from_utf8(file.clone()).unwrap();
//! assert!(text.contains("p cnf"));
//! assert!(text.lines().any(|l| l.starts_with("c var ")));
//! let read = dimacs::parse(&file[..]).unwrap();
//! assert_eq!((read.n_vars, read.n_clauses()), (formula.n_vars, formula.n_clauses()));
//!
//! // A model, from any SAT solver.
//! let mut solver = rustsat_cadical::CaDiCaL::default();
//! solver.add_cnf(read.cnf.clone()).unwrap();
//! assert_eq!(solver.solve().unwrap(), SolverResult::Sat);
//! let is_true = |dimacs: u32| {
//!     solver.lit_val(Var::new(dimacs - 1).pos_lit()).unwrap() == TernaryVal::True
//! };
//!
//! // Decoded with the file's own variable map, then checked independently: no queen
//! // attacks one of the other colour, and each army has at least 9 queens.
//! let pieces = read.pieces.as_ref().expect("a pq-sat file carries its `c var` lines");
//! let board = pieces.decode(is_true).expect("one piece per square");
//! check_placement(&problem.rules, &board, &[]).expect("a peaceful board");
//! assert!(board.count(0) >= 9 && board.count(1) >= 9);
//! ```
//!
//! Other problems (any pieces, several groups, rectangular or toroidal boards) are
//! [`spec::Problem`]s too, read from TOML with [`spec::Problem::from_toml`] and encoded by the
//! same [`general::encode_problem`]; [`encode`] is the queens' own, faster-to-call entry.

pub mod bounds;
pub mod card;
pub mod dimacs;
pub mod formula;
pub mod general;
pub mod geometry;
pub mod header;
pub mod incremental;
pub mod maxsat;
mod models;
pub mod problem;
mod queens;
pub mod spec;
pub mod symmetry;

pub use formula::{Formula, LineMap, PieceMap, PieceVar, VarAlloc};
pub use geometry::Geometry;
pub use incremental::IncrementalFormula;
pub use problem::{
    Bounds, Card, Extent, Instance, InstanceError, Model, Options, Symmetry, MAX_DIM,
};
pub use queens::{encode, encode_incremental};

/// The README's example, compiled and run as a doctest so that it cannot go stale.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
