//! The independent validator: does a board really solve the peaceable-queens problem?
//!
//! A board solves "n peaceable armies on a d×d board" when it is `d × d`, holds at
//! least `n` white and at least `n` black queens, and no white queen attacks a black
//! queen. Two squares attack each other when they share a row, a column, a diagonal
//! (`r1 - c1 == r2 - c2`) or an anti-diagonal (`r1 + c1 == r2 + c2`); pieces in
//! between do *not* block. Queens of the same colour may attack each other freely.
//!
//! # Why this is independent of the encoder
//!
//! Every solution the SAT side produces is checked here before it is trusted, so this
//! module is deliberately written from the problem statement alone:
//!
//! * it depends on nothing but [`Board`] and [`Cell`] (this crate knows nothing about
//!   SAT variables, clauses, cardinality encodings or symmetry breaking);
//! * it works on the decoded board only, square by square, with the plain arithmetic
//!   definition of an attack in [`attacks`], not on any line numbering, variable
//!   numbering or "attack list" the encoder builds;
//! * it was written without reading the encoder or solver code.
//!
//! A mistake in the encoding (a missing attack clause, an off-by-one diagonal index,
//! a wrong cardinality bound) therefore shows up here as a [`Violation`] instead of
//! being confirmed by the same mistake.
//!
//! ```
//! use pq_board::{Board, validate::check_peaceable};
//! let b = Board::from_rows(&["WW..", "...B", "....", "..B."]).unwrap();
//! assert!(check_peaceable(&b, 4, 2).is_ok());
//! ```

use std::fmt;

use crate::{Board, Cell};

/// The line along which two squares attack each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Line {
    /// Same row.
    Row,
    /// Same column.
    Column,
    /// Same diagonal: `row - col` is equal (runs from top-left to bottom-right).
    Diagonal,
    /// Same anti-diagonal: `row + col` is equal (runs from top-right to bottom-left).
    AntiDiagonal,
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Line::Row => "same row",
            Line::Column => "same column",
            Line::Diagonal => "same diagonal",
            Line::AntiDiagonal => "same anti-diagonal",
        })
    }
}

/// What is wrong with a board.
///
/// Squares are stored 0-based `(row, col)` like everywhere else in this crate, but the
/// messages print them 1-based (row 1 is the top row, column 1 the leftmost).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Violation {
    /// The board is not of the requested side length.
    #[error("the board is {found}×{found}, expected {expected}×{expected}")]
    WrongDimension {
        /// Side length of the board given.
        found: usize,
        /// Side length asked for.
        expected: usize,
    },
    /// Fewer white queens than required.
    #[error("too few white queens: found {found}, needed at least {needed}")]
    TooFewWhite {
        /// White queens on the board.
        found: usize,
        /// White queens required.
        needed: usize,
    },
    /// Fewer black queens than required.
    #[error("too few black queens: found {found}, needed at least {needed}")]
    TooFewBlack {
        /// Black queens on the board.
        found: usize,
        /// Black queens required.
        needed: usize,
    },
    /// A white queen attacks a black queen.
    #[error(
        "white queen at row {}, column {} attacks black queen at row {}, column {} ({line})",
        white.0 + 1,
        white.1 + 1,
        black.0 + 1,
        black.1 + 1
    )]
    Attack {
        /// 0-based `(row, col)` of the white queen.
        white: (usize, usize),
        /// 0-based `(row, col)` of the black queen.
        black: (usize, usize),
        /// The line they share.
        line: Line,
    },
}

/// A square where a queen could still be added: the board is not maximal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a {colour} queen can still be added at row {}, column {} (no {} queen attacks it)", .square.0 + 1, .square.1 + 1, .attacker)]
pub struct Addable {
    /// 0-based `(row, col)` of the empty square.
    pub square: (usize, usize),
    /// `white` or `black`: the colour that fits there.
    pub colour: &'static str,
    /// The other colour, none of whose queens attacks the square.
    pub attacker: &'static str,
}

/// Checks that no queen of either colour can be added to `board`: every empty square is
/// attacked by at least one white and at least one black queen. Returns the first square
/// where one could be added.
pub fn check_maximal(board: &Board) -> Result<(), Addable> {
    let d = board.dim();
    let queens: Vec<((usize, usize), Cell)> = (0..d)
        .flat_map(|r| (0..d).map(move |c| (r, c)))
        .map(|sq| (sq, board.get(sq.0, sq.1)))
        .filter(|(_, cell)| *cell != Cell::Empty)
        .collect();
    for r in 0..d {
        for c in 0..d {
            if board.get(r, c) != Cell::Empty {
                continue;
            }
            let attacked_by = |colour: Cell| {
                queens
                    .iter()
                    .any(|&(q, cell)| cell == colour && attacks(q, (r, c)))
            };
            if !attacked_by(Cell::Black) {
                return Err(Addable {
                    square: (r, c),
                    colour: "white",
                    attacker: "black",
                });
            }
            if !attacked_by(Cell::White) {
                return Err(Addable {
                    square: (r, c),
                    colour: "black",
                    attacker: "white",
                });
            }
        }
    }
    Ok(())
}

/// The line shared by two distinct squares, if any.
///
/// Two distinct squares share at most one line (sharing two of them forces equality),
/// so the answer is unique.
pub fn shared_line(a: (usize, usize), b: (usize, usize)) -> Option<Line> {
    if a == b {
        return None;
    }
    let (r1, c1) = (a.0 as i64, a.1 as i64);
    let (r2, c2) = (b.0 as i64, b.1 as i64);
    if r1 == r2 {
        Some(Line::Row)
    } else if c1 == c2 {
        Some(Line::Column)
    } else if r1 - c1 == r2 - c2 {
        Some(Line::Diagonal)
    } else if r1 + c1 == r2 + c2 {
        Some(Line::AntiDiagonal)
    } else {
        None
    }
}

/// Whether two distinct squares attack each other (same row, column, diagonal or
/// anti-diagonal; nothing in between blocks). A square does not attack itself, so
/// `attacks(a, a)` is `false`.
pub fn attacks(a: (usize, usize), b: (usize, usize)) -> bool {
    shared_line(a, b).is_some()
}

/// Checks that `board` is a `dim × dim` board with at least `n` white and at least `n`
/// black queens and no white queen attacking a black queen.
///
/// Returns every violation found (`Ok(())` means valid): a wrong dimension, too few
/// queens of either colour, and one [`Violation::Attack`] for each attacking
/// white–black pair (white queens in row-major order, then black queens in row-major
/// order). The attack check is still done on a board of the wrong dimension.
///
/// Cost: `O(d²)` to collect the queens and test whether any line holds both colours;
/// only if one does are the pairs listed, in `O(white × black)` ⊆ `O(d² · queens)`.
/// A badly wrong 64×64 board can thus yield millions of attack violations; callers
/// that print them should truncate.
pub fn check_peaceable(board: &Board, dim: usize, n: usize) -> Result<(), Vec<Violation>> {
    let mut violations = Vec::new();
    let d = board.dim();
    if d != dim {
        violations.push(Violation::WrongDimension {
            found: d,
            expected: dim,
        });
    }

    let mut whites = Vec::new();
    let mut blacks = Vec::new();
    for r in 0..d {
        for c in 0..d {
            match board.get(r, c) {
                Cell::White => whites.push((r, c)),
                Cell::Black => blacks.push((r, c)),
                Cell::Empty => {}
            }
        }
    }
    if whites.len() < n {
        violations.push(Violation::TooFewWhite {
            found: whites.len(),
            needed: n,
        });
    }
    if blacks.len() < n {
        violations.push(Violation::TooFewBlack {
            found: blacks.len(),
            needed: n,
        });
    }

    if any_line_has_both_colours(d, &whites, &blacks) {
        for &w in &whites {
            for &b in &blacks {
                if let Some(line) = shared_line(w, b) {
                    violations.push(Violation::Attack {
                        white: w,
                        black: b,
                        line,
                    });
                }
            }
        }
    }

    if violations.is_empty() {
        Ok(())
    } else {
        Err(violations)
    }
}

/// Fast pre-check in `O(d + queens)`: is there any row, column, diagonal or
/// anti-diagonal holding a white and a black queen? (Sound and complete: two squares
/// attack each other exactly when they share such a line.)
fn any_line_has_both_colours(
    d: usize,
    whites: &[(usize, usize)],
    blacks: &[(usize, usize)],
) -> bool {
    // Line indices: rows 0..d, columns d..2d, diagonals (r - c + d - 1) in 2d..4d-1,
    // anti-diagonals (r + c) in 4d-1..6d-2.
    let lines = |(r, c): (usize, usize)| [r, d + c, 2 * d + (r + d - 1 - c), 4 * d - 1 + (r + c)];
    let mut white_on = vec![false; 6 * d];
    for &w in whites {
        for l in lines(w) {
            white_on[l] = true;
        }
    }
    blacks
        .iter()
        .any(|&b| lines(b).iter().any(|&l| white_on[l]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str]) -> Board {
        Board::from_rows(rows).expect("test board parses")
    }

    type Square = (usize, usize);

    fn attacks_of(v: &[Violation]) -> Vec<(Square, Square, Line)> {
        v.iter()
            .filter_map(|x| match x {
                Violation::Attack { white, black, line } => Some((*white, *black, *line)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn attacks_along_each_line() {
        assert!(attacks((2, 0), (2, 7)), "row");
        assert!(attacks((0, 3), (9, 3)), "column");
        assert!(attacks((1, 2), (4, 5)), "diagonal");
        assert!(attacks((4, 5), (1, 2)), "diagonal, reversed");
        assert!(attacks((0, 5), (5, 0)), "anti-diagonal");
        assert!(attacks((3, 1), (1, 3)), "anti-diagonal, reversed");
        assert!(!attacks((0, 0), (1, 2)), "knight move");
        assert!(!attacks((0, 0), (2, 1)), "knight move");
        assert!(!attacks((5, 5), (5, 5)), "a square does not attack itself");
        assert!(!attacks((0, 1), (3, 0)));
    }

    #[test]
    fn shared_line_names_the_line() {
        assert_eq!(shared_line((2, 0), (2, 7)), Some(Line::Row));
        assert_eq!(shared_line((0, 3), (9, 3)), Some(Line::Column));
        assert_eq!(shared_line((1, 2), (4, 5)), Some(Line::Diagonal));
        assert_eq!(shared_line((0, 5), (5, 0)), Some(Line::AntiDiagonal));
        assert_eq!(shared_line((0, 0), (1, 2)), None);
    }

    #[test]
    fn attacks_matches_brute_force_on_8x8() {
        // Independent definition: walk from a in the 8 directions and see whether b is hit.
        let d = 8i64;
        let dirs = [
            (-1, -1),
            (-1, 0),
            (-1, 1),
            (0, -1),
            (0, 1),
            (1, -1),
            (1, 0),
            (1, 1),
        ];
        for r1 in 0..d {
            for c1 in 0..d {
                let mut hit = vec![false; (d * d) as usize];
                for (dr, dc) in dirs {
                    let (mut r, mut c) = (r1 + dr, c1 + dc);
                    while (0..d).contains(&r) && (0..d).contains(&c) {
                        hit[(r * d + c) as usize] = true;
                        r += dr;
                        c += dc;
                    }
                }
                for r2 in 0..d {
                    for c2 in 0..d {
                        let a = (r1 as usize, c1 as usize);
                        let b = (r2 as usize, c2 as usize);
                        assert_eq!(attacks(a, b), hit[(r2 * d + c2) as usize], "{a:?} {b:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn known_optimal_4x4_passes() {
        // a(4) = 2.
        let b = board(&["WW..", "...B", "....", "..B."]);
        assert_eq!(check_peaceable(&b, 4, 2), Ok(()));
        // It also passes for smaller n, and colours swapped.
        assert_eq!(check_peaceable(&b, 4, 1), Ok(()));
        assert_eq!(check_peaceable(&b, 4, 0), Ok(()));
        let swapped = board(&["BB..", "...W", "....", "..W."]);
        assert_eq!(check_peaceable(&swapped, 4, 2), Ok(()));
    }

    #[test]
    fn optimal_5x5_and_6x6_pass() {
        // a(5) = 4, a(6) = 5. Both boards checked by hand: no white row, column,
        // r - c or r + c value is shared with a black queen.
        // b5 whites: rows {0,2}, cols {0,2}, r-c {0,-2,2}, r+c {0,2,4}.
        let b5 = board(&["W.W..", "....B", "W.W..", "....B", ".B.B."]);
        assert_eq!(check_peaceable(&b5, 5, 4), Ok(()));
        // b6 whites: rows {0,2,3}, cols {0,1,2}, r-c {0,-1,-2,3}, r+c {0,1,2,4,3}.
        let b6 = board(&["WWW...", "....BB", "..W...", "W.....", "...B..", "...BB."]);
        assert_eq!(b6.count(Cell::White), 5);
        assert_eq!(b6.count(Cell::Black), 5);
        assert_eq!(check_peaceable(&b6, 6, 5), Ok(()));
        // Asking for one more queen of each colour fails on the counts only.
        assert_eq!(
            check_peaceable(&b6, 6, 6),
            Err(vec![
                Violation::TooFewWhite {
                    found: 5,
                    needed: 6
                },
                Violation::TooFewBlack {
                    found: 5,
                    needed: 6
                },
            ])
        );
    }

    #[test]
    fn more_queens_than_needed_is_fine() {
        let b = board(&["W.W..", "....B", "W.W..", "....B", ".B.B."]);
        assert_eq!(check_peaceable(&b, 5, 3), Ok(()));
    }

    #[test]
    fn empty_board_with_n_zero_is_valid() {
        assert_eq!(check_peaceable(&Board::empty(3), 3, 0), Ok(()));
        assert_eq!(check_peaceable(&Board::empty(1), 1, 0), Ok(()));
    }

    #[test]
    fn same_colour_attacks_are_allowed() {
        // The four whites attack each other, as do the two blacks (same anti-diagonal);
        // no white–black attack.
        let b = board(&["WW...", "WW...", "....B", ".....", "..B.."]);
        assert_eq!(check_peaceable(&b, 5, 2), Ok(()));
        // Adding a black on the main diagonal breaks it: (0,0) and (1,1) attack (4,4).
        let b = board(&["WW...", "WW...", "....B", ".....", "..B.B"]);
        let err = check_peaceable(&b, 5, 2).unwrap_err();
        assert_eq!(
            attacks_of(&err),
            vec![
                ((0, 0), (4, 4), Line::Diagonal),
                ((1, 1), (4, 4), Line::Diagonal)
            ]
        );
    }

    #[test]
    fn too_few_white() {
        let b = board(&["W...", "...B", "....", "..B."]);
        let err = check_peaceable(&b, 4, 2).unwrap_err();
        assert_eq!(
            err,
            vec![Violation::TooFewWhite {
                found: 1,
                needed: 2
            }]
        );
        assert_eq!(
            err[0].to_string(),
            "too few white queens: found 1, needed at least 2"
        );
    }

    #[test]
    fn too_few_black() {
        let b = board(&["WW..", "...B", "....", "...."]);
        let err = check_peaceable(&b, 4, 2).unwrap_err();
        assert_eq!(
            err,
            vec![Violation::TooFewBlack {
                found: 1,
                needed: 2
            }]
        );
        assert_eq!(
            err[0].to_string(),
            "too few black queens: found 1, needed at least 2"
        );
    }

    #[test]
    fn too_few_of_both() {
        let err = check_peaceable(&Board::empty(4), 4, 1).unwrap_err();
        assert_eq!(
            err,
            vec![
                Violation::TooFewWhite {
                    found: 0,
                    needed: 1
                },
                Violation::TooFewBlack {
                    found: 0,
                    needed: 1
                },
            ]
        );
    }

    #[test]
    fn wrong_dimension() {
        let b = board(&["WW..", "...B", "....", "..B."]);
        let err = check_peaceable(&b, 5, 2).unwrap_err();
        assert_eq!(
            err,
            vec![Violation::WrongDimension {
                found: 4,
                expected: 5
            }]
        );
        assert_eq!(err[0].to_string(), "the board is 4×4, expected 5×5");
    }

    #[test]
    fn row_attack_caught() {
        let b = board(&["W..B", "....", "....", "...."]);
        let err = check_peaceable(&b, 4, 1).unwrap_err();
        assert_eq!(attacks_of(&err), vec![((0, 0), (0, 3), Line::Row)]);
        assert_eq!(err.len(), 1);
    }

    #[test]
    fn column_attack_caught() {
        let b = board(&["....", ".W..", "....", ".B.."]);
        let err = check_peaceable(&b, 4, 1).unwrap_err();
        assert_eq!(attacks_of(&err), vec![((1, 1), (3, 1), Line::Column)]);
    }

    #[test]
    fn diagonal_attack_caught_even_through_pieces() {
        // W at (0,0), B at (3,3) with a white queen between them on the diagonal.
        let b = board(&["W...", ".W..", "....", "...B"]);
        let err = check_peaceable(&b, 4, 1).unwrap_err();
        assert_eq!(
            attacks_of(&err),
            vec![
                ((0, 0), (3, 3), Line::Diagonal),
                ((1, 1), (3, 3), Line::Diagonal)
            ]
        );
    }

    #[test]
    fn anti_diagonal_attack_caught_with_message() {
        // White at row 3, column 5 and black at row 6, column 2 (1-based): 3+5 == 6+2.
        let mut b = Board::empty(8);
        b.set(2, 4, Cell::White);
        b.set(5, 1, Cell::Black);
        let err = check_peaceable(&b, 8, 1).unwrap_err();
        assert_eq!(
            err,
            vec![Violation::Attack {
                white: (2, 4),
                black: (5, 1),
                line: Line::AntiDiagonal
            }]
        );
        assert_eq!(
            err[0].to_string(),
            "white queen at row 3, column 5 attacks black queen at row 6, column 2 (same anti-diagonal)"
        );
    }

    #[test]
    fn diagonal_message() {
        let mut b = Board::empty(8);
        b.set(5, 6, Cell::White);
        b.set(2, 3, Cell::Black);
        let err = check_peaceable(&b, 8, 1).unwrap_err();
        assert_eq!(
            err[0].to_string(),
            "white queen at row 6, column 7 attacks black queen at row 3, column 4 (same diagonal)"
        );
    }

    #[test]
    fn all_violations_are_reported_together() {
        // 3x3 board checked as 4x4, n = 3: wrong dimension, too few black, and attacks.
        let b = board(&["W.W", "...", ".B."]);
        let err = check_peaceable(&b, 4, 3).unwrap_err();
        assert!(err.contains(&Violation::WrongDimension {
            found: 3,
            expected: 4
        }));
        assert!(err.contains(&Violation::TooFewWhite {
            found: 2,
            needed: 3
        }));
        assert!(err.contains(&Violation::TooFewBlack {
            found: 1,
            needed: 3
        }));
        // (2,1) has r-c = 1, r+c = 3; whites (0,0) and (0,2) have r-c 0,-2 and r+c 0,2.
        assert_eq!(attacks_of(&err), vec![]);
        let b = board(&["W.W", "...", "B.B"]);
        let err = check_peaceable(&b, 3, 2).unwrap_err();
        // Every white attacks every black: column, diagonal / anti-diagonal, column.
        assert_eq!(
            attacks_of(&err),
            vec![
                ((0, 0), (2, 0), Line::Column),
                ((0, 0), (2, 2), Line::Diagonal),
                ((0, 2), (2, 0), Line::AntiDiagonal),
                ((0, 2), (2, 2), Line::Column),
            ]
        );
        assert_eq!(err.len(), 4);
    }

    #[test]
    fn every_white_black_pair_checked_against_definition() {
        // A dense pseudo-random 7x7 board: the reported attack pairs must be exactly the
        // pairs sharing a line, computed here by direct comparison.
        let d = 7;
        let mut b = Board::empty(d);
        let mut x: u32 = 12345;
        for r in 0..d {
            for c in 0..d {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
                let cell = match (x >> 16) % 5 {
                    0 => Cell::White,
                    1 => Cell::Black,
                    _ => Cell::Empty,
                };
                b.set(r, c, cell);
            }
        }
        let mut expected = Vec::new();
        for r1 in 0..d {
            for c1 in 0..d {
                if b.get(r1, c1) != Cell::White {
                    continue;
                }
                for r2 in 0..d {
                    for c2 in 0..d {
                        if b.get(r2, c2) == Cell::Black
                            && (r1 == r2 || c1 == c2 || r1 + c2 == r2 + c1 || r1 + c1 == r2 + c2)
                        {
                            expected.push(((r1, c1), (r2, c2)));
                        }
                    }
                }
            }
        }
        assert!(!expected.is_empty());
        let err = check_peaceable(&b, d, 0).unwrap_err();
        let got: Vec<_> = attacks_of(&err)
            .into_iter()
            .map(|(w, b, _)| (w, b))
            .collect();
        assert_eq!(got, expected);
    }

    #[test]
    fn large_board_64() {
        // Valid sparse 64x64 board: two knight-move-apart queens.
        let mut b = Board::empty(64);
        b.set(0, 0, Cell::White);
        b.set(1, 2, Cell::Black);
        assert_eq!(check_peaceable(&b, 64, 1), Ok(()));
        // One far-apart conflict on the long anti-diagonal.
        b.set(63, 0, Cell::White);
        b.set(0, 63, Cell::Black);
        let err = check_peaceable(&b, 64, 2).unwrap_err();
        assert_eq!(
            attacks_of(&err),
            vec![
                ((0, 0), (0, 63), Line::Row),
                ((63, 0), (0, 63), Line::AntiDiagonal)
            ]
        );
        // Corner (63,63) vs (0,0) is a diagonal attack.
        let mut b = Board::empty(64);
        b.set(0, 0, Cell::White);
        b.set(63, 63, Cell::Black);
        let err = check_peaceable(&b, 64, 1).unwrap_err();
        assert_eq!(attacks_of(&err), vec![((0, 0), (63, 63), Line::Diagonal)]);
    }

    #[test]
    fn large_dense_valid_board_is_fast() {
        // Whites fill the top-left k×k block; blacks every square attacked by none of them.
        let d = 64;
        let k = 20;
        let mut b = Board::empty(d);
        for r in 0..k {
            for c in 0..k {
                b.set(r, c, Cell::White);
            }
        }
        let mut blacks = 0;
        for r in 0..d {
            for c in 0..d {
                if b.get(r, c) == Cell::Empty {
                    let free = (0..k).all(|wr| (0..k).all(|wc| !attacks((wr, wc), (r, c))));
                    if free {
                        b.set(r, c, Cell::Black);
                        blacks += 1;
                    }
                }
            }
        }
        assert!(blacks > 0);
        assert_eq!(check_peaceable(&b, d, blacks.min(k * k)), Ok(()));
    }

    #[test]
    fn maximality_is_checked_square_by_square() {
        // Full 2x2 with one colour: the other colour fits nowhere, and nothing is empty.
        let full = Board::from_rows(&["WW", "WW"]).unwrap();
        assert!(check_maximal(&full).is_ok());
        // One white queen on 3x3: a black queen still fits in a corner it does not attack.
        let one = Board::from_rows(&["W..", "...", "..."]).unwrap();
        let err = check_maximal(&one).unwrap_err();
        assert_eq!(
            err.colour, "white",
            "no black queen attacks the empty squares"
        );
        // (1, 0) shares a column with the white queen but no line with the black one.
        let pair = Board::from_rows(&["W..B", "....", "....", "...."]).unwrap();
        let e = check_maximal(&pair).unwrap_err();
        assert_eq!(e.square, (1, 0), "{e}");
        assert_eq!(
            e.to_string(),
            "a white queen can still be added at row 2, column 1 (no black queen attacks it)"
        );
        // 3x3, W in a corner and B in the middle of the far side: is every empty square
        // covered by both? (0,1) is not attacked by B at (2,1)? same column: yes it is.
        let tight = Board::from_rows(&["W..", "...", ".B."]).unwrap();
        assert!(check_maximal(&tight).is_err());
    }
}
