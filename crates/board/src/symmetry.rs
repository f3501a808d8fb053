//! The 16 symmetries of a board (8 symmetries of the square × swapping the colours), and the
//! canonical member of an orbit.
//!
//! The canonical board is the lexicographically smallest image under the order pq-sat's
//! lex-leader constraints use over square variables: all white-queen bits row-major, then all
//! black-queen bits row-major, an empty square (false) before a queen (true). So the boards
//! that survive lex-leader over the squares are exactly the canonical ones.

use crate::{Board, Cell};

/// Symmetry `k` (0..8) of the square applied to `(r, c)` on a `d × d` board: the identity,
/// three rotations, then four reflections.
fn map_square(k: usize, d: usize, r: usize, c: usize) -> (usize, usize) {
    let m = d - 1;
    match k {
        0 => (r, c),
        1 => (c, m - r),
        2 => (m - r, m - c),
        3 => (m - c, r),
        4 => (r, m - c),
        5 => (m - r, c),
        6 => (c, r),
        _ => (m - c, m - r),
    }
}

fn swap(cell: Cell) -> Cell {
    match cell {
        Cell::White => Cell::Black,
        Cell::Black => Cell::White,
        Cell::Empty => Cell::Empty,
    }
}

/// The 16 images of `board`, identity first (boards with symmetries repeat).
pub fn images(board: &Board) -> Vec<Board> {
    let d = board.dim();
    let mut out = Vec::with_capacity(16);
    for swap_colours in [false, true] {
        for k in 0..8 {
            let mut img = Board::empty(d);
            for r in 0..d {
                for c in 0..d {
                    let (r2, c2) = map_square(k, d, r, c);
                    let cell = board.get(r, c);
                    img.set(r2, c2, if swap_colours { swap(cell) } else { cell });
                }
            }
            out.push(img);
        }
    }
    out
}

/// The bit string the canonical order compares: white bits row-major, then black bits.
fn key(board: &Board) -> Vec<bool> {
    let d = board.dim();
    let squares = || (0..d).flat_map(move |r| (0..d).map(move |c| (r, c)));
    squares()
        .map(|(r, c)| board.get(r, c) == Cell::White)
        .chain(squares().map(|(r, c)| board.get(r, c) == Cell::Black))
        .collect()
}

/// The canonical member of the orbit of `board` (see the module documentation).
pub fn canonical(board: &Board) -> Board {
    images(board)
        .into_iter()
        .min_by_key(key)
        .expect("a board has 16 images")
}

/// True when `board` is its orbit's canonical member.
pub fn is_canonical(board: &Board) -> bool {
    let k = key(board);
    images(board).iter().all(|img| k <= key(img))
}

/// The number of distinct boards in the orbit of `board` (a divisor of 16).
pub fn orbit_size(board: &Board) -> usize {
    let mut all = images(board);
    all.sort();
    all.dedup();
    all.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str]) -> Board {
        Board::from_rows(rows).unwrap()
    }

    #[test]
    fn orbit_sizes_divide_16() {
        let b = board(&["W..", "...", "..B"]);
        // Fixed by the main-diagonal mirror, and by the half turn or the anti-diagonal mirror
        // together with the colour swap: a stabiliser of 4.
        assert_eq!(orbit_size(&b), 4);
        let empty = Board::empty(3);
        assert_eq!(orbit_size(&empty), 1);
        let centre = board(&["...", ".W.", "..."]);
        assert_eq!(orbit_size(&centre), 2);
        let lopsided = board(&["WB.", "...", "..."]);
        assert_eq!(orbit_size(&lopsided), 16);
    }

    #[test]
    fn canonical_is_the_same_for_every_image_and_is_canonical() {
        let b = board(&["WB..", "....", "..W.", "...B"]);
        let c = canonical(&b);
        assert!(is_canonical(&c));
        for img in images(&b) {
            assert_eq!(canonical(&img), c);
        }
        assert!(!is_canonical(&b) || b == c);
    }

    #[test]
    fn canonical_prefers_empty_early_white_squares() {
        // White in the top-left corner is never canonical when a rotation moves it away.
        let b = board(&["W..", "...", "..."]);
        let c = canonical(&b);
        assert_eq!(c.get(0, 0), Cell::Empty);
        assert_eq!(
            c.count(Cell::Black),
            1,
            "swapping colours moves the queen into the black bits"
        );
    }
}
