//! pq-io: the plumbing under pq-sat, with no knowledge of boards, formulas or solvers.
//!
//! - [`output`]: every file and directory pq-sat writes (checked first, written to a
//!   temporary beside it, renamed into place only over what may be replaced, leftovers of
//!   killed runs removed);
//! - [`staging`]: a directory written whole or not at all (a family, a bundle, a cube
//!   directory);
//! - [`compress`]: xz, gzip and bzip2, told by their content;
//! - [`hashing`]: SHA-256 and the GBD hash of a CNF, the ids a competition names files by;
//! - [`IoError`]: why any of it failed, naming the path the user gave.

pub mod compress;
pub mod error;
pub mod hashing;
pub mod output;
pub mod staging;

pub use error::{os_message, IoError};

/// The number of cores this process may use (1 when the system does not say): the default
/// number of workers and portfolio members, and what reports give as the machine's size.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}
