//! The root package's integration tests, in one test binary (one link instead of one per
//! file): end to end through the real `pq-sat` binary, the pipeline and the optimiser
//! against brute-force oracles, the external solvers, proofs and certificates.
//!
//! `util` runs the binary; `oracle` holds the brute-force oracles. Each test module uses
//! them through `crate::` paths. A new file of tests is a new module here: a file directly
//! in `tests/` would be one more binary, linked on its own.

mod oracle;
mod util;

mod certificates;
mod commands;
mod conquer;
mod cube;
mod decode;
mod encodings;
mod enumerate;
mod family;
mod formats;
mod gbd;
mod habits;
mod lines;
mod maxsat;
mod optimise;
mod oracle_selftest;
mod placement_oracle_selftest;
mod problems;
mod proofs;
mod readme;
mod runs;
mod solvers;
mod submission;
mod trust;
mod witnesses;
