//! The board's lines: rows, columns and the two diagonal families, as bit masks of rows.
//! On a plain board the diagonals are `r + c = s` and `r − c = const`; on the `d × d` torus
//! they wrap: `(r + c) mod d` and `(r − c) mod d`, `d` of each, every one through every row.
//!
//! Every diagonal holds at most one cell per row, so the live cells of one colour on one
//! diagonal are a mask of row numbers (bit `r` for the cell in row `r`). A cell lies on one
//! diagonal of each family; `Board::cross` says which diagonal of the other family holds
//! the cell of a given diagonal and row, which is all the search needs to kill a cell in
//! both families at once.

use crate::Error;

/// The largest number of rows or columns: row masks are `u32`.
pub const MAX_SIDE: usize = 32;

/// A rectangular board of `rows × cols` cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    rows: usize,
    cols: usize,
    torus: bool,
    /// `cross[f][i * rows + r]`: the diagonal of family `1 - f` through the cell of
    /// diagonal `i` of family `f` in row `r` (meaningless where there is no such cell).
    cross: [Vec<u8>; 2],
}

/// Family 0: the diagonals `r + c = s` (index `s`).
pub const SUM: usize = 0;
/// Family 1: the anti-diagonals `r - c = k - (cols - 1)` (index `k`; on the torus
/// `(r - c) mod d = k`).
pub const DIFF: usize = 1;

impl Board {
    /// A `rows × cols` board; both sides between 1 and [`MAX_SIDE`].
    pub fn new(rows: usize, cols: usize) -> Result<Board, Error> {
        Board::build(rows, cols, false)
    }

    /// The `d × d` torus: rows, columns and diagonals wrap around the edges.
    pub fn torus(d: usize) -> Result<Board, Error> {
        Board::build(d, d, true)
    }

    fn build(rows: usize, cols: usize, torus: bool) -> Result<Board, Error> {
        if !(1..=MAX_SIDE).contains(&rows) || !(1..=MAX_SIDE).contains(&cols) {
            return Err(Error::Size { rows, cols });
        }
        let mut board = Board {
            rows,
            cols,
            torus,
            cross: [vec![], vec![]],
        };
        let diagonals = board.diagonals();
        let mut cross = [vec![0u8; diagonals * rows], vec![0u8; diagonals * rows]];
        for r in 0..rows {
            for c in 0..cols {
                let (s, k) = board.cell_diagonals(r, c);
                cross[SUM][s * rows + r] = k as u8;
                cross[DIFF][k * rows + r] = s as u8;
            }
        }
        board.cross = cross;
        Ok(board)
    }

    /// The indices of the two diagonals through cell `(r, c)`.
    pub(crate) fn cell_diagonals(&self, r: usize, c: usize) -> (usize, usize) {
        if self.torus {
            let d = self.rows;
            ((r + c) % d, (r + d - c) % d)
        } else {
            (r + c, r + self.cols - 1 - c)
        }
    }

    /// Whether lines wrap around the edges.
    pub fn is_torus(&self) -> bool {
        self.torus
    }

    /// A `d × d` board.
    pub fn square(d: usize) -> Result<Board, Error> {
        Board::new(d, d)
    }

    /// The number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Whether the board is square (transposition is then one of its symmetries).
    pub fn is_square(&self) -> bool {
        self.rows == self.cols
    }

    /// The number of diagonals in each family.
    pub fn diagonals(&self) -> usize {
        if self.torus {
            self.rows
        } else {
            self.rows + self.cols - 1
        }
    }

    /// All rows, as a mask.
    pub fn row_mask(&self) -> u32 {
        low_bits(self.rows)
    }

    /// All columns, as a mask.
    pub fn col_mask(&self) -> u32 {
        low_bits(self.cols)
    }

    /// The diagonal of the other family through the cell of diagonal `i` of family `f`
    /// in row `r`.
    #[inline(always)]
    pub(crate) fn cross(&self, f: usize, i: usize, r: usize) -> usize {
        self.cross[f][i * self.rows + r] as usize
    }

    /// The column of the cell of diagonal `i` of family `f` in row `r`.
    pub fn column(&self, f: usize, i: usize, r: usize) -> usize {
        match (self.torus, f) {
            (true, SUM) => (i + self.cols - r) % self.cols,
            (true, _) => (r + self.cols - i) % self.cols,
            (false, SUM) => i - r,
            (false, _) => r + self.cols - 1 - i,
        }
    }

    /// The cells of `rows × cols` (row mask `rows`, column mask `cols`) on each diagonal of
    /// both families, as row masks: `out[f][i]`. O(diagonals), by shifting the column mask.
    pub(crate) fn diagonal_masks(&self, rows: u32, cols: u32, out: &mut [[u32; MAX_DIAG]; 2]) {
        for (f, out) in out.iter_mut().enumerate() {
            self.family_masks(f, rows, cols, out);
        }
    }

    /// [`Board::diagonal_masks`] of family `f` alone.
    #[inline(always)]
    pub(crate) fn family_masks(&self, f: usize, rows: u32, cols: u32, out: &mut [u32; MAX_DIAG]) {
        let nd = self.diagonals();
        if self.torus {
            let d = self.rows;
            let reversed = reverse(cols, d);
            for (i, mask) in out.iter_mut().take(nd).enumerate() {
                *mask = rows
                    & if f == SUM {
                        // Row r of diagonal s is column (s - r) mod d: bit (d-1-c) of the
                        // reversed mask, which is bit r of it rotated right by (d-1-s) mod d.
                        rotate_right(reversed, (2 * d - 1 - i) % d, d)
                    } else {
                        // Row r of anti-diagonal k is column (r - k) mod d: bit r of the
                        // column mask rotated left by k.
                        rotate_right(cols, (d - i) % d, d)
                    };
            }
            return;
        }
        // Row r of diagonal s is column s - r: bit (cols-1-c) of the reversed mask, that is
        // bit r of it shifted right by cols-1-s (left for a negative shift). Row r of
        // anti-diagonal k is column r + cols-1-k: bit r of the mask shifted the same way.
        // Held 32 bits up, the shift is to the right for every diagonal: no branch.
        let shifted = u64::from(if f == SUM {
            reverse(cols, self.cols)
        } else {
            cols
        });
        let (wide, c1) = (shifted << 32, self.cols - 1);
        for (i, mask) in out.iter_mut().take(nd).enumerate() {
            *mask = rows & (wide >> (32 + c1 - i)) as u32;
        }
    }
}

/// The most diagonals one family can have.
pub(crate) const MAX_DIAG: usize = 2 * MAX_SIDE - 1;

/// The lowest `n` bits.
pub(crate) fn low_bits(n: usize) -> u32 {
    if n >= 32 {
        u32::MAX
    } else {
        (1u32 << n) - 1
    }
}

/// `x`'s lowest `n` bits in reverse order.
pub(crate) fn reverse(x: u32, n: usize) -> u32 {
    if n == 0 {
        0
    } else {
        x.reverse_bits() >> (32 - n)
    }
}

/// The lowest `n` bits of `x` rotated right by `k < n` places within those bits.
pub(crate) fn rotate_right(x: u32, k: usize, n: usize) -> u32 {
    if k == 0 {
        x
    } else {
        ((x >> k) | (x << (n - k))) & low_bits(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_match_the_cells() {
        let boards = [
            (1, 1, false),
            (3, 5, false),
            (5, 3, false),
            (6, 6, false),
            (7, 4, false),
        ]
        .into_iter()
        .chain([(1, 1, true), (4, 4, true), (5, 5, true), (6, 6, true)]);
        for (rows, cols, torus) in boards {
            let board = Board::build(rows, cols, torus).unwrap();
            for (s_rows, t_cols) in [(0b1011, 0b110), (u32::MAX, u32::MAX), (0b10, 0b1)] {
                let (s_rows, t_cols) = (s_rows & board.row_mask(), t_cols & board.col_mask());
                let mut out = [[0u32; MAX_DIAG]; 2];
                board.diagonal_masks(s_rows, t_cols, &mut out);
                let mut want = [[0u32; MAX_DIAG]; 2];
                for r in 0..rows {
                    for c in 0..cols {
                        if s_rows >> r & 1 == 1 && t_cols >> c & 1 == 1 {
                            // Written out here rather than through cell_diagonals.
                            let (s, k) = if torus {
                                ((r + c) % rows, (rows + r - c) % rows)
                            } else {
                                (r + c, r + cols - 1 - c)
                            };
                            want[SUM][s] |= 1 << r;
                            want[DIFF][k] |= 1 << r;
                        }
                    }
                }
                assert_eq!(out, want, "{rows}x{cols}, torus {torus}");
                for f in 0..2 {
                    for i in 0..board.diagonals() {
                        for r in 0..rows {
                            if want[f][i] >> r & 1 == 1 {
                                let c = board.column(f, i, r);
                                let j = board.cross(f, i, r);
                                assert_eq!(want[1 - f][j] >> r & 1, 1);
                                assert_eq!(board.column(1 - f, j, r), c);
                            }
                        }
                    }
                }
            }
        }
    }
}
