//! The adversarial suite: one regression test per class of defect
//! found by lying solvers, tampered files, hostile paths, overflowing sizes and signals.
//! Each module holds one family of classes; RELIABILITY.md maps every promise to its tests.

mod bytes;
mod claims;
mod cubes;
mod files;
mod leftovers;
mod processes;
mod readers;
mod sizes;
mod unsat;
