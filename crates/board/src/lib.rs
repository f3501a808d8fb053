//! Boards of peaceable queens: the data every other part of pq-sat agrees on.
//!
//! A [`Board`] is a `d × d` grid of [`Cell`]s, row 0 being the top row as printed.
//! This crate also holds the [independent validator](rules::check_placement) of every
//! placement (the queens' boards included: [`Board::to_placement`]) and the text
//! rendering; it knows nothing about SAT encodings, so that the validator cannot
//! share a mistake with the encoder.
//!
//! ```
//! use pq_board::{Board, Cell};
//! let mut b = Board::empty(3);
//! b.set(0, 0, Cell::White);
//! b.set(1, 2, Cell::Black);
//! assert_eq!(b.rows_as_strings(), vec!["W..", "..B", "..."]);
//! ```

pub mod placement;
pub mod rules;
pub mod svg;
pub mod symmetry;

use std::fmt;

/// The content of one square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cell {
    /// No queen (`.`).
    Empty,
    /// A queen of the white army (`W`).
    White,
    /// A queen of the black army (`B`).
    Black,
}

impl Cell {
    /// The letter used in text and JSON output: `.`, `W` or `B`.
    pub fn letter(self) -> char {
        match self {
            Cell::Empty => '.',
            Cell::White => 'W',
            Cell::Black => 'B',
        }
    }

    /// Parses `.`, `W` or `B` (also lower case, and `-`/`_` for empty).
    pub fn from_letter(c: char) -> Option<Cell> {
        match c {
            '.' | '-' | '_' => Some(Cell::Empty),
            'W' | 'w' => Some(Cell::White),
            'B' | 'b' => Some(Cell::Black),
            _ => None,
        }
    }
}

/// A square `d × d` board; `(row, col)` are 0-based, row 0 at the top.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    dim: usize,
    cells: Vec<Cell>,
}

/// Why a text board could not be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ParseBoardError {
    /// No row has any square (blank rows are skipped).
    #[error("the board is empty")]
    Empty,
    /// A row's length differs from the number of rows, so the board is not square.
    #[error("row {row} has {found} squares, expected {expected}")]
    RaggedRow {
        /// The offending row, 1-based among the non-blank rows.
        row: usize,
        /// Its number of squares (white space not counted).
        found: usize,
        /// The number of rows, which every row must match.
        expected: usize,
    },
    /// A square is not one of the letters [`Cell::from_letter`] accepts.
    #[error("row {row} has an unknown square '{ch}' (use W, B or .)")]
    BadCell {
        /// The offending row, 1-based among the non-blank rows.
        row: usize,
        /// The character found there.
        ch: char,
    },
}

impl Board {
    /// An empty board of side `dim`.
    pub fn empty(dim: usize) -> Board {
        Board {
            dim,
            cells: vec![Cell::Empty; dim * dim],
        }
    }

    /// The side length `d`.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The cell at 0-based `(row, col)`.
    pub fn get(&self, row: usize, col: usize) -> Cell {
        assert!(row < self.dim && col < self.dim, "square off the board");
        self.cells[row * self.dim + col]
    }

    /// Puts `cell` on 0-based `(row, col)`.
    pub fn set(&mut self, row: usize, col: usize, cell: Cell) {
        assert!(row < self.dim && col < self.dim, "square off the board");
        self.cells[row * self.dim + col] = cell;
    }

    /// How many squares hold `cell`.
    pub fn count(&self, cell: Cell) -> usize {
        self.cells.iter().filter(|&&c| c == cell).count()
    }

    /// The rows, top first, as strings of `W`, `B` and `.` (the JSON form).
    pub fn rows_as_strings(&self) -> Vec<String> {
        self.cells
            .chunks(self.dim.max(1))
            .take(self.dim)
            .map(|row| row.iter().map(|c| c.letter()).collect())
            .collect()
    }

    /// Reads rows of `W`, `B` and `.`; white space inside a row is ignored.
    pub fn from_rows<S: AsRef<str>>(rows: &[S]) -> Result<Board, ParseBoardError> {
        let rows: Vec<Vec<char>> = rows
            .iter()
            .map(|r| r.as_ref().chars().filter(|c| !c.is_whitespace()).collect())
            .filter(|r: &Vec<char>| !r.is_empty())
            .collect();
        if rows.is_empty() {
            return Err(ParseBoardError::Empty);
        }
        let dim = rows.len();
        let mut board = Board::empty(dim);
        for (r, row) in rows.iter().enumerate() {
            if row.len() != dim {
                return Err(ParseBoardError::RaggedRow {
                    row: r + 1,
                    found: row.len(),
                    expected: dim,
                });
            }
            for (c, &ch) in row.iter().enumerate() {
                let cell =
                    Cell::from_letter(ch).ok_or(ParseBoardError::BadCell { row: r + 1, ch })?;
                board.set(r, c, cell);
            }
        }
        Ok(board)
    }

    /// A labelled text picture: column letters on top, row numbers (1 = top) on the left.
    pub fn to_labelled_text(&self) -> String {
        let width = self.dim.to_string().len();
        let mut out = String::new();
        out.push_str(&" ".repeat(width + 1));
        for c in 0..self.dim {
            out.push(' ');
            out.push_str(&column_label(c));
        }
        out.push('\n');
        for r in 0..self.dim {
            out.push_str(&format!("{:>width$} ", r + 1));
            for c in 0..self.dim {
                let label_width = column_label(c).len();
                out.push_str(&" ".repeat(label_width));
                out.push(self.get(r, c).letter());
            }
            out.push('\n');
        }
        out
    }
}

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

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in self.rows_as_strings() {
            writeln!(f, "{row}")?;
        }
        Ok(())
    }
}

/// A queens board is the two-army view of a placement: group 0 is white, group 1 black
/// (the groups of [`placement::Rules::peaceable_queens`]).
impl Board {
    /// The placement this board shows: white queens as group 0, black ones as group 1.
    pub fn to_placement(&self) -> placement::Placement {
        placement::Placement {
            rows: self.dim,
            cols: self.dim,
            cells: self
                .cells
                .iter()
                .map(|c| match c {
                    Cell::White => Some(0),
                    Cell::Black => Some(1),
                    Cell::Empty => None,
                })
                .collect(),
        }
    }

    /// The board of a placement on a square board whose groups 0 and 1 are the white and
    /// black armies; `None` for a board that is not square or holds another group.
    pub fn from_placement(p: &placement::Placement) -> Option<Board> {
        if p.rows != p.cols || p.cells.len() != p.rows * p.cols {
            return None;
        }
        let cells = p
            .cells
            .iter()
            .map(|c| match c {
                None => Some(Cell::Empty),
                Some(0) => Some(Cell::White),
                Some(1) => Some(Cell::Black),
                Some(_) => None,
            })
            .collect::<Option<Vec<Cell>>>()?;
        Some(Board { dim: p.rows, cells })
    }

    /// Keeps only the first `n` queens of colour `cell` in row-major order and removes the
    /// rest. Removing queens never creates an attack, so a valid board stays valid.
    pub fn keep_first(&mut self, cell: Cell, n: usize) {
        let mut kept = 0;
        for c in self.cells.iter_mut().filter(|c| **c == cell) {
            if kept < n {
                kept += 1;
            } else {
                *c = Cell::Empty;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_is_the_two_army_view_of_a_placement() {
        let b = Board::from_rows(&["W.B", "...", "B.W"]).unwrap();
        let p = b.to_placement();
        assert_eq!(p.get(0, 0), Some(0));
        assert_eq!(p.get(0, 2), Some(1));
        assert_eq!(Board::from_placement(&p), Some(b));
        let mut three = p.clone();
        three.set(1, 1, Some(2));
        assert_eq!(Board::from_placement(&three), None);
        let wide = placement::Placement::empty(&placement::Layout {
            rows: 2,
            cols: 3,
            torus: false,
        });
        assert_eq!(Board::from_placement(&wide), None);
    }
}
