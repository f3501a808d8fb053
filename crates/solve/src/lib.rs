//! pq-solve: SAT backends for pq-sat formulas, what reads their input and what judges their
//! answers, and nothing above them.
//!
//! ```
//! use pq_encode::{encode, Instance, Options};
//! use pq_solve::{backend::Cadical, control::Limits, answer::Answer, backend::Backend};
//! let formula = encode(&Instance::new(5, 4).unwrap(), &Options::default());
//! let answer = Cadical.solve_once(&formula, &Limits::none()).unwrap();
//! assert!(matches!(answer, Answer::Sat(_))); // a(5) = 4
//! ```
//!
//! - [`backend`]: the [`backend::Backend`] trait and the in-process backends (varisat, CaDiCaL);
//! - [`external`]: external solver processes (kissat, minisat, the CaDiCaL binary, any
//!   competition-style command); [`portfolio`]: several backends racing on one formula;
//! - [`control`]: time limits, stop requests and Ctrl-C, shared by every backend;
//!   [`cpu`]: CPU time of a thread and the children it ran;
//! - [`prove`]: the backends that write clausal proofs (DRAT, LRAT); [`simplify`]: the
//!   top-level simplification written as DRAT steps before the line engine's tree;
//! - [`answer`]: what a backend answers; [`error`]: why it failed; [`known`]: the proven
//!   values of a(d) (and of the three armies), which every answer must agree with;
//! - [`input`]: the one reader of DIMACS files and standard input (plain or compressed,
//!   through `pq_io::compress`), stopped by [`control::Limits`];
//! - [`survey`]: which solvers this machine has.
//!
//! Every file and directory pq-sat writes goes through `pq_io::output` (checked first,
//! never over a link or a special file, leftovers of killed runs removed).
//!
//! What pq-sat does with these answers (pipelines, optimisation, proofs, families) lives in
//! the `pq-engine` crate.

pub mod answer;
pub mod backend;
pub mod control;
pub mod cpu;
pub mod error;
pub mod external;
pub mod input;
pub mod known;
pub mod lines;
pub mod portfolio;
pub mod prove;
pub mod session;
pub mod simplify;
pub mod spec;
pub mod survey;

/// Asks every running solve in this process to stop ([`control::interrupted`] turns true)
/// and kills every external solver.
///
/// Safe to call from any thread (the `ctrlc` crate calls its handler on an ordinary thread).
/// Solves return `unknown` with the reason "interrupted", so the caller can still report
/// what it knows.
pub fn interrupt() {
    control::set_interrupted();
    external::kill_all_running();
}
