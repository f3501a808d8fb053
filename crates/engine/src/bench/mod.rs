//! Benchmarks for other people's solvers: families of instances with their manifests
//! ([`family`]), races of solvers over them ([`race`]), and a SAT-competition submission
//! graded by a race ([`submission`]).

pub mod family;
pub mod race;
pub mod submission;
