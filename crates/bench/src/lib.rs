//! pq-bench: benchmarks for other people's solvers, built on pq-sat's engine: families of
//! instances with their manifests ([`family`]), races of solvers over them ([`race`]), and a
//! SAT-competition submission graded by a race, with its PDF description ([`submission`]).

pub mod family;
pub mod race;
pub mod submission;
