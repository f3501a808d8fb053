//! Board geometry for the encoder: squares, the lines through them, and the board symmetries.
//!
//! A *line* is a maximal set of squares a queen sweeps in one direction: a row, a column,
//! a diagonal (`r - c` constant) or an anti-diagonal (`r + c` constant). A `d × d` board
//! has `6d - 2` lines; every square lies on exactly four of them. Squares are numbered
//! row-major from the top-left; lines are numbered rows first, then columns, diagonals (by
//! `row - col + d - 1`) and anti-diagonals (by `row + col`).

/// The geometry of a `d × d` board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    dim: usize,
}

impl Geometry {
    /// The geometry of a `dim × dim` board.
    pub fn new(dim: usize) -> Geometry {
        Geometry { dim }
    }

    /// The side length.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The number of squares, `d²`.
    pub fn n_squares(&self) -> usize {
        self.dim * self.dim
    }

    /// The number of lines: `6d - 2` for d ≥ 1.
    pub fn n_lines(&self) -> usize {
        (6 * self.dim).saturating_sub(2)
    }

    /// The numbers of the four lines through square `s` (row-major index): its row, its
    /// column, its diagonal and its anti-diagonal, in that order.
    pub fn lines_through(&self, s: usize) -> [usize; 4] {
        let d = self.dim;
        let (row, col) = (s / d, s % d);
        [
            row,
            d + col,
            2 * d + row + d - 1 - col,
            4 * d - 1 + row + col,
        ]
    }

    /// Every unordered pair of distinct squares that share a line, each pair once.
    pub fn attacking_pairs(&self) -> Vec<(usize, usize)> {
        let n = self.n_squares();
        (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .filter(|&(a, b)| {
                let (la, lb) = (self.lines_through(a), self.lines_through(b));
                la.iter().zip(&lb).any(|(x, y)| x == y)
            })
            .collect()
    }

    /// The image of line `l` under `sym`: the line that holds the images of its squares.
    pub fn image_of_line(&self, sym: BoardSymmetry, l: usize) -> usize {
        let d = self.dim;
        // The kind of line `l` (0 row, 1 column, 2 diagonal, 3 anti-diagonal).
        let kind = [d, 2 * d, 4 * d - 1]
            .iter()
            .filter(|&&start| l >= start)
            .count();
        let s = (0..self.n_squares())
            .find(|&s| self.lines_through(s)[kind] == l)
            .expect("every line holds a square");
        let (row, col) = sym.map(d, d, (s / d, s % d));
        self.lines_through(row * d + col)[sym.image_of_kind(kind)]
    }
}

/// One of the eight symmetries of the square (the dihedral group D4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardSymmetry {
    /// Every square stays where it is.
    Identity,
    /// A quarter turn.
    Rotate90,
    /// A half turn.
    Rotate180,
    /// Three quarter turns.
    Rotate270,
    /// Mirror left–right.
    FlipColumns,
    /// Mirror top–bottom.
    FlipRows,
    /// Mirror in the main diagonal.
    Transpose,
    /// Mirror in the anti-diagonal.
    AntiTranspose,
}

impl BoardSymmetry {
    /// All eight, identity first.
    pub const ALL: [BoardSymmetry; 8] = [
        BoardSymmetry::Identity,
        BoardSymmetry::Rotate90,
        BoardSymmetry::Rotate180,
        BoardSymmetry::Rotate270,
        BoardSymmetry::FlipColumns,
        BoardSymmetry::FlipRows,
        BoardSymmetry::Transpose,
        BoardSymmetry::AntiTranspose,
    ];

    /// The image of `(row, col)` on a `rows × cols` board; the quarter turns and the
    /// diagonal mirrors are symmetries of square boards only ([`Self::keeps_rectangles`]).
    pub fn map(self, rows: usize, cols: usize, (row, col): (usize, usize)) -> (usize, usize) {
        let (mr, mc) = (rows - 1, cols - 1);
        match self {
            BoardSymmetry::Identity => (row, col),
            BoardSymmetry::Rotate90 => (col, mr - row),
            BoardSymmetry::Rotate180 => (mr - row, mc - col),
            BoardSymmetry::Rotate270 => (mc - col, row),
            BoardSymmetry::FlipColumns => (row, mc - col),
            BoardSymmetry::FlipRows => (mr - row, col),
            BoardSymmetry::Transpose => (col, row),
            BoardSymmetry::AntiTranspose => (mc - col, mr - row),
        }
    }

    /// True for the four symmetries of every rectangle (identity, half turn, the two
    /// mirrors parallel to the sides).
    pub fn keeps_rectangles(self) -> bool {
        matches!(
            self,
            BoardSymmetry::Identity
                | BoardSymmetry::Rotate180
                | BoardSymmetry::FlipColumns
                | BoardSymmetry::FlipRows
        )
    }

    /// Which kind of line (0 row, 1 column, 2 diagonal, 3 anti-diagonal) a line of `kind`
    /// becomes: the quarter turns and the diagonal mirrors exchange rows and columns; the
    /// quarter turns and the mirrors parallel to the sides exchange the two diagonals.
    pub fn image_of_kind(self, kind: usize) -> usize {
        use BoardSymmetry::{AntiTranspose, FlipColumns, FlipRows, Rotate270, Rotate90, Transpose};
        let transposes = matches!(self, Rotate90 | Rotate270 | Transpose | AntiTranspose);
        let mirrors = matches!(self, Rotate90 | Rotate270 | FlipColumns | FlipRows);
        match kind {
            0 | 1 if transposes => 1 - kind,
            2 | 3 if mirrors => 5 - kind,
            _ => kind,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The squares on line `l`.
    fn squares_on(g: &Geometry, l: usize) -> Vec<usize> {
        (0..g.n_squares())
            .filter(|&s| g.lines_through(s).contains(&l))
            .collect()
    }

    #[test]
    fn line_count_is_6d_minus_2_and_every_square_is_on_four() {
        for d in 1..=9 {
            let g = Geometry::new(d);
            assert_eq!(g.n_lines(), 6 * d - 2);
            let total: usize = (0..g.n_lines()).map(|l| squares_on(&g, l).len()).sum();
            assert_eq!(total, 4 * d * d);
        }
    }

    #[test]
    fn attacking_pairs_match_queen_moves() {
        let g = Geometry::new(5);
        let pairs = g.attacking_pairs();
        for a in 0..25usize {
            for b in a + 1..25 {
                let (dr, dc) = ((a / 5).abs_diff(b / 5), (a % 5).abs_diff(b % 5));
                let attack = dr == 0 || dc == 0 || dr == dc;
                assert_eq!(pairs.contains(&(a, b)), attack, "{a} {b}");
            }
        }
    }

    #[test]
    fn symmetries_are_distinct_permutations() {
        let d = 4;
        let mut images = Vec::new();
        for sym in BoardSymmetry::ALL {
            let img: Vec<(usize, usize)> =
                (0..d * d).map(|s| sym.map(d, d, (s / d, s % d))).collect();
            let mut sorted = img.clone();
            sorted.sort_unstable();
            let all: Vec<(usize, usize)> = (0..d * d).map(|s| (s / d, s % d)).collect();
            assert_eq!(sorted, all, "{sym:?} is a permutation");
            images.push(img);
        }
        for i in 0..8 {
            for j in i + 1..8 {
                assert_ne!(images[i], images[j]);
            }
        }
    }

    #[test]
    fn lines_map_onto_lines() {
        for d in 1..=6 {
            let g = Geometry::new(d);
            for sym in BoardSymmetry::ALL {
                let mut images = Vec::new();
                for l in 0..g.n_lines() {
                    let image = g.image_of_line(sym, l);
                    let mut mapped: Vec<usize> = squares_on(&g, l)
                        .iter()
                        .map(|&s| {
                            let (r, c) = sym.map(d, d, (s / d, s % d));
                            r * d + c
                        })
                        .collect();
                    mapped.sort_unstable();
                    assert_eq!(mapped, squares_on(&g, image), "d={d} {sym:?} {l}");
                    images.push(image);
                }
                images.sort_unstable();
                assert_eq!(images, (0..g.n_lines()).collect::<Vec<_>>(), "a bijection");
            }
        }
    }
}
