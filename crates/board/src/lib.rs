//! Placements of pieces: the data every other part of pq-sat agrees on.
//!
//! A [`placement::Placement`] is every answer pq-sat gives, under the [`placement::Rules`]
//! of its problem; the peaceable queens' board is the placement of
//! [`placement::Rules::peaceable_queens`] (group 0 white, group 1 black). This crate also
//! holds the [independent validator](rules::check_placement) of every placement, the
//! [symmetries](symmetry), the text and [SVG](svg) renderings and a [greedy] placement of
//! the peaceable queens (a quick lower bound with its witness); it knows nothing about
//! SAT encodings, so that the validator cannot share a mistake with the encoder. The
//! [limits] on board sides and piece counts are stated here, the lowest crate that needs
//! them, and every reader of outside sizes checks them there.
//!
//! ```
//! use pq_board::placement::{Placement, Rules};
//! let rules = Rules::peaceable_queens(3);
//! let mut p = Placement::empty(&rules.layout);
//! p.set(0, 0, Some(0));
//! p.set(1, 2, Some(1));
//! let symbols = Placement::symbols(&rules);
//! assert_eq!(p.rows_as_strings(&symbols), vec!["W..", "..B", "..."]);
//! ```
//!
//! # Checking a board
//!
//! A board from anywhere (a solver's model decoded by `pq-encode`, a file, a paper) is read
//! with [`placement::Placement::from_rows`] and checked with [`rules::check_placement`], which
//! returns every [`rules::RuleViolation`]; [`symmetry::SymmetryGroup`] gives its canonical
//! form and the size of its orbit. Here: one of the optimal 8×8 boards, a(8) = 9.
//!
//! ```
//! use pq_board::placement::{Placement, Rules};
//! use pq_board::rules::{check_placement, RuleViolation};
//! use pq_board::symmetry::SymmetryGroup;
//!
//! let rules = Rules::peaceable_queens(8);
//! let symbols = Placement::symbols(&rules); // W for group 0, B for group 1
//! let rows = [
//!     "BB...BB.", "BB...BB.", ".B......", "........",
//!     ".......W", "...W...W", "..WWW...", "..WWW...",
//! ];
//! let board = Placement::from_rows(&rules.layout, &rows, &symbols).unwrap();
//! // Exactly 9 white (group 0) and 9 black (group 1) queens, none attacking the other army.
//! check_placement(&rules, &board, &[Some(9), Some(9)]).unwrap();
//!
//! // One more white queen on a3 attacks the black queens of the first rows.
//! let mut worse = board.clone();
//! worse.set(2, 0, Some(0));
//! let violations = check_placement(&rules, &worse, &[]).unwrap_err();
//! assert!(violations.iter().any(|v| matches!(v, RuleViolation::Attack { .. })));
//!
//! // Its orbit under the 8 board symmetries and the colour swap.
//! let group = SymmetryGroup::new(&rules, &[9, 9]);
//! let canonical = group.canonical(&board);
//! assert!(group.is_canonical(&canonical));
//! assert_eq!(group.orbit_size(&canonical), group.orbit_size(&board));
//! ```

pub mod greedy;
pub mod limits;
pub mod placement;
pub mod rules;
pub mod svg;
pub mod symmetry;

/// Column labels `a..z`, then `aa`, `ab`, ... so that every board up to 64 columns has one.
pub fn column_label(col: usize) -> String {
    let letters = b"abcdefghijklmnopqrstuvwxyz";
    if col < 26 {
        (letters[col] as char).to_string()
    } else {
        let hi = col / 26 - 1;
        format!("{}{}", letters[hi] as char, letters[col % 26] as char)
    }
}

/// The name of the square at 0-based `(row, col)`: its column label and 1-based row (row 1
/// at the top), e.g. `c5`.
pub fn square_name(row: usize, col: usize) -> String {
    format!("{}{}", column_label(col), row + 1)
}

/// The README's example, compiled and run as a doctest so that it cannot go stale.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
