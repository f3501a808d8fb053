//! Board geometry for the encoder: squares, the lines through them, and the board symmetries.
//!
//! A *line* is a maximal set of squares a queen sweeps in one direction: a row, a column,
//! a diagonal (`r - c` constant) or an anti-diagonal (`r + c` constant). A `d × d` board
//! has `6d - 2` lines; every square lies on exactly four of them.

use crate::general::Direction;

/// A square, 0-based, row 0 at the top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    /// The row, 0 at the top.
    pub row: usize,
    /// The column, 0 at the left.
    pub col: usize,
}

/// One line of the board, named by its kind and its index within the kind
/// (row number, column number, `row - col + d - 1`, or `row + col`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Line {
    /// The direction of the line.
    pub kind: Direction,
    /// Its number within the kind: the row, the column, `row - col + d - 1` or `row + col`.
    pub index: usize,
}

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

    /// Every square, row by row.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.dim).flat_map(move |row| (0..self.dim).map(move |col| Square { row, col }))
    }

    /// The position of `s` in row-major order.
    pub fn square_index(&self, s: Square) -> usize {
        s.row * self.dim + s.col
    }

    /// Every line: rows, columns, diagonals, anti-diagonals (`6d - 2` in all for d ≥ 1).
    pub fn lines(&self) -> Vec<Line> {
        let d = self.dim;
        if d == 0 {
            return Vec::new();
        }
        let mut lines = Vec::with_capacity(6 * d - 2);
        lines.extend((0..d).map(|index| Line {
            kind: Direction::Row,
            index,
        }));
        lines.extend((0..d).map(|index| Line {
            kind: Direction::Column,
            index,
        }));
        lines.extend((0..2 * d - 1).map(|index| Line {
            kind: Direction::Diagonal,
            index,
        }));
        lines.extend((0..2 * d - 1).map(|index| Line {
            kind: Direction::AntiDiagonal,
            index,
        }));
        lines
    }

    /// A dense number for `line`, 0 .. 6d - 2, in the order of [`Geometry::lines`].
    pub fn line_number(&self, line: Line) -> usize {
        let d = self.dim;
        match line.kind {
            Direction::Row => line.index,
            Direction::Column => d + line.index,
            Direction::Diagonal => 2 * d + line.index,
            Direction::AntiDiagonal => 2 * d + (2 * d - 1) + line.index,
        }
    }

    /// The four lines through `s`.
    pub fn lines_through(&self, s: Square) -> [Line; 4] {
        [
            Line {
                kind: Direction::Row,
                index: s.row,
            },
            Line {
                kind: Direction::Column,
                index: s.col,
            },
            Line {
                kind: Direction::Diagonal,
                index: s.row + self.dim - 1 - s.col,
            },
            Line {
                kind: Direction::AntiDiagonal,
                index: s.row + s.col,
            },
        ]
    }

    /// The squares on `line`.
    pub fn squares_on(&self, line: Line) -> Vec<Square> {
        self.squares()
            .filter(|&s| self.lines_through(s).contains(&line))
            .collect()
    }

    /// Every unordered pair of distinct squares that share a line, each pair once.
    pub fn attacking_pairs(&self) -> Vec<(Square, Square)> {
        let squares: Vec<Square> = self.squares().collect();
        let mut pairs = Vec::new();
        for (i, &a) in squares.iter().enumerate() {
            let la = self.lines_through(a);
            for &b in &squares[i + 1..] {
                let lb = self.lines_through(b);
                if la.iter().zip(lb.iter()).any(|(x, y)| x == y) {
                    pairs.push((a, b));
                }
            }
        }
        pairs
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

    /// The image of `s` on a `dim × dim` board.
    pub fn apply(self, dim: usize, s: Square) -> Square {
        let (row, col) = self.map(dim, dim, (s.row, s.col));
        Square { row, col }
    }

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
}

impl Geometry {
    /// The image of `line` under `sym`: the line that holds the images of its squares.
    pub fn image_of_line(&self, sym: BoardSymmetry, line: Line) -> Line {
        let kind = sym.image_of_kind(line.kind);
        let s = self.squares_on(line)[0];
        let t = sym.apply(self.dim, s);
        *self
            .lines_through(t)
            .iter()
            .find(|l| l.kind == kind)
            .expect("every square lies on a line of each kind")
    }
}

impl BoardSymmetry {
    /// Which kind of line a line of `kind` becomes. Read off a 2×2 board, where every kind
    /// has a line through two squares (on larger boards some lines hold a single square,
    /// which alone would not tell the direction).
    pub fn image_of_kind(self, kind: Direction) -> Direction {
        let sq = |row, col| Square { row, col };
        let (a, b) = match kind {
            Direction::Row => (sq(0, 0), sq(0, 1)),
            Direction::Column => (sq(0, 0), sq(1, 0)),
            Direction::Diagonal => (sq(0, 0), sq(1, 1)),
            Direction::AntiDiagonal => (sq(0, 1), sq(1, 0)),
        };
        let (a, b) = (self.apply(2, a), self.apply(2, b));
        if a.row == b.row {
            Direction::Row
        } else if a.col == b.col {
            Direction::Column
        } else if a.row + b.col == b.row + a.col {
            Direction::Diagonal
        } else {
            Direction::AntiDiagonal
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_count_is_6d_minus_2_and_every_square_is_on_four() {
        for d in 1..=9 {
            let g = Geometry::new(d);
            let lines = g.lines();
            assert_eq!(lines.len(), 6 * d - 2);
            let total: usize = lines.iter().map(|&l| g.squares_on(l).len()).sum();
            assert_eq!(total, 4 * d * d);
            for (i, &l) in lines.iter().enumerate() {
                assert_eq!(g.line_number(l), i);
            }
        }
    }

    #[test]
    fn attacking_pairs_match_queen_moves() {
        let g = Geometry::new(5);
        let pairs = g.attacking_pairs();
        for a in g.squares() {
            for b in g.squares() {
                if a >= b {
                    continue;
                }
                let (dr, dc) = (a.row.abs_diff(b.row), a.col.abs_diff(b.col));
                let attack = dr == 0 || dc == 0 || dr == dc;
                assert_eq!(pairs.contains(&(a, b)), attack, "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn symmetries_are_distinct_permutations() {
        let d = 4;
        let g = Geometry::new(d);
        let mut images = Vec::new();
        for sym in BoardSymmetry::ALL {
            let img: Vec<Square> = g.squares().map(|s| sym.apply(d, s)).collect();
            let mut sorted = img.clone();
            sorted.sort();
            assert_eq!(
                sorted,
                g.squares().collect::<Vec<_>>(),
                "{sym:?} is a permutation"
            );
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
                for line in g.lines() {
                    let image = g.image_of_line(sym, line);
                    let mut mapped: Vec<Square> = g
                        .squares_on(line)
                        .iter()
                        .map(|&s| sym.apply(d, s))
                        .collect();
                    mapped.sort();
                    assert_eq!(mapped, g.squares_on(image), "d={d} {sym:?} {line:?}");
                    images.push(image);
                }
                images.sort();
                let mut all = g.lines();
                all.sort();
                assert_eq!(images, all, "a bijection on lines");
            }
        }
    }
}
