//! Placements of pieces: the data every other part of pq-sat agrees on.
//!
//! A [`placement::Placement`] is every answer pq-sat gives, under the [`placement::Rules`]
//! of its problem; the peaceable queens' board is the placement of
//! [`placement::Rules::peaceable_queens`] (group 0 white, group 1 black). This crate also
//! holds the [independent validator](rules::check_placement) of every placement, the
//! [symmetries](symmetry) and the text and [SVG](svg) renderings; it knows nothing about
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
