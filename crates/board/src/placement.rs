//! General chessboard placement problems: pieces of several kinds in named groups on a
//! rectangular (optionally toroidal) board, and which groups must not attack which.
//!
//! These are plain data shared by the encoder (pq-encode), the independent validator
//! ([`crate::rules`]) and the renderers; nothing here knows how attacks are computed.
//!
//! ```
//! use pq_board::placement::{Kind, Placement, Rules};
//! let rules = Rules::peaceable_queens(3);
//! assert_eq!(rules.groups[1].name, "black");
//! assert_eq!(rules.groups[1].kind, Kind::Queen);
//! let mut p = Placement::empty(&rules.layout);
//! p.set(0, 0, Some(0));
//! p.set(1, 2, Some(1));
//! assert_eq!(p.count(0), 1);
//! ```

use std::fmt;
use std::str::FromStr;

/// A kind of chess piece. Sliders (queen, rook, bishop) attack along their lines without
/// being blocked by pieces in between; leapers (knight, king) attack the squares one move
/// away.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Slides along its row, column and both diagonals.
    Queen,
    /// Slides along its row and column.
    Rook,
    /// Slides along both diagonals.
    Bishop,
    /// Leaps two squares one way and one the other.
    Knight,
    /// Steps to any of the 8 neighbouring squares.
    King,
}

impl Kind {
    /// Every kind, in declaration order.
    pub const ALL: [Kind; 5] = [
        Kind::Queen,
        Kind::Rook,
        Kind::Bishop,
        Kind::Knight,
        Kind::King,
    ];

    /// The name, the letter and the filled chess glyph.
    fn names(self) -> (&'static str, char, char) {
        match self {
            Kind::Queen => ("queen", 'Q', '♛'),
            Kind::Rook => ("rook", 'R', '♜'),
            Kind::Bishop => ("bishop", 'B', '♝'),
            Kind::Knight => ("knight", 'N', '♞'),
            Kind::King => ("king", 'K', '♚'),
        }
    }

    /// The lower-case name used in problem files.
    pub fn name(self) -> &'static str {
        self.names().0
    }

    /// The usual letter (`Q`, `R`, `B`, `N`, `K`).
    pub fn letter(self) -> char {
        self.names().1
    }

    /// The filled chess glyph (`♛`, `♜`, `♝`, `♞`, `♚`), filled so that a group's colour
    /// fills the whole silhouette in pictures (the outline glyphs would only colour their
    /// contour).
    pub fn glyph(self) -> char {
        self.names().2
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Kind {
    type Err = String;
    fn from_str(s: &str) -> Result<Kind, String> {
        Kind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| {
                format!(
                    "unknown piece kind '{s}' (expected one of: queen, rook, bishop, knight, king)"
                )
            })
    }
}

/// The board: `rows × cols` squares; on a torus, lines and moves wrap around both edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    /// The number of rows.
    pub rows: usize,
    /// The number of columns.
    pub cols: usize,
    /// Whether lines and moves wrap around the edges.
    pub torus: bool,
}

impl Layout {
    /// The number of squares.
    pub fn squares(&self) -> usize {
        self.rows * self.cols
    }
}

/// A named group of pieces of one kind (an army, or all pieces of one kind).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Group {
    /// The name used in problem files and messages (`white`, `black`, ...).
    pub name: String,
    /// The kind of every piece of the group.
    pub kind: Kind,
}

/// The rules of a placement problem (counts aside): at most one piece per square, and for
/// each pair `(a, b)` in `no_attack`, no piece of group `a` attacks a piece of group `b` and
/// no piece of `b` attacks one of `a`; `(a, a)` means no two pieces of `a` attack each other.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// The board.
    pub layout: Layout,
    /// The groups; everything else refers to a group by its index here.
    pub groups: Vec<Group>,
    /// The pairs of group indices whose pieces must not attack each other.
    pub no_attack: Vec<(usize, usize)>,
}

impl Rules {
    /// Groups of the given kinds named `g0`, `g1`, ... (for problems built in code, where
    /// names do not matter), with `no_attack` as given.
    pub fn with_kinds(layout: Layout, kinds: &[Kind], no_attack: &[(usize, usize)]) -> Rules {
        Rules {
            layout,
            groups: kinds
                .iter()
                .enumerate()
                .map(|(i, &kind)| Group {
                    name: format!("g{i}"),
                    kind,
                })
                .collect(),
            no_attack: no_attack.to_vec(),
        }
    }

    /// The peaceable armies of queens on `dim × dim`: groups `white` (0) and `black` (1),
    /// no queen attacking one of the other colour.
    pub fn peaceable_queens(dim: usize) -> Rules {
        let layout = Layout {
            rows: dim,
            cols: dim,
            torus: false,
        };
        let mut rules = Rules::with_kinds(layout, &[Kind::Queen; 2], &[(0, 1)]);
        rules.groups[0].name = "white".into();
        rules.groups[1].name = "black".into();
        rules
    }
}

/// Pieces on a board: for each square (row-major, row 0 at the top), the index of the group
/// whose piece stands there.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Placement {
    /// The number of rows.
    pub rows: usize,
    /// The number of columns.
    pub cols: usize,
    /// `rows × cols` squares, row-major: the group index of the piece there, `None` if empty.
    pub cells: Vec<Option<usize>>,
}

impl Placement {
    /// An empty board of this layout.
    pub fn empty(layout: &Layout) -> Placement {
        Placement {
            rows: layout.rows,
            cols: layout.cols,
            cells: vec![None; layout.squares()],
        }
    }

    /// Whether the placement has the size of `layout` (and as many cells).
    pub fn fits(&self, layout: &Layout) -> bool {
        self.rows == layout.rows && self.cols == layout.cols && self.cells.len() == layout.squares()
    }

    /// The group of the piece on 0-based `(row, col)`, `None` if the square is empty.
    pub fn get(&self, row: usize, col: usize) -> Option<usize> {
        self.cells[row * self.cols + col]
    }

    /// Puts a piece of `group` on 0-based `(row, col)`, or empties it with `None`.
    pub fn set(&mut self, row: usize, col: usize, group: Option<usize>) {
        self.cells[row * self.cols + col] = group;
    }

    /// The number of pieces of `group`.
    pub fn count(&self, group: usize) -> usize {
        self.cells.iter().filter(|c| **c == Some(group)).count()
    }

    /// Keeps the first `n` pieces of `group` in row-major order and removes the rest.
    pub fn keep_first(&mut self, group: usize, n: usize) {
        for cell in self.cells.iter_mut().filter(|c| **c == Some(group)).skip(n) {
            *cell = None;
        }
    }

    /// The symbol of each group in text output: the kind's letter when every group has its
    /// own kind (`Q`, `R`, `B`, `N`, `K`), else the upper-cased first letter of each name when
    /// those differ (`W`, `B` for white and black), else the group's number (`1`, `2`, ...).
    pub fn symbols(rules: &Rules) -> Vec<char> {
        let distinct = |v: &[char]| v.iter().enumerate().all(|(i, c)| !v[..i].contains(c));
        let kinds: Vec<char> = rules.groups.iter().map(|g| g.kind.letter()).collect();
        if distinct(&kinds) {
            return kinds;
        }
        let initials: Vec<char> = rules
            .groups
            .iter()
            .map(|g| {
                g.name
                    .chars()
                    .next()
                    .map_or('?', |c| c.to_ascii_uppercase())
            })
            .collect();
        if distinct(&initials) && initials.iter().all(char::is_ascii_alphanumeric) {
            return initials;
        }
        (0..rules.groups.len())
            .map(|i| std::char::from_digit((i + 1) as u32, 36).unwrap_or('?'))
            .collect()
    }

    /// The placement drawn by `rows` (one string per row, each group's symbol or `.`;
    /// whitespace ignored) on `layout`: the inverse of [`Placement::rows_as_strings`]. The
    /// error names the row and what is wrong with it.
    pub fn from_rows<S: AsRef<str>>(
        layout: &Layout,
        rows: &[S],
        symbols: &[char],
    ) -> Result<Placement, String> {
        if rows.len() != layout.rows {
            return Err(format!(
                "the placement has {} rows, the board {}",
                rows.len(),
                layout.rows
            ));
        }
        // Nothing is allocated for a board beyond the limits (a lying manifest's).
        for (what, v) in [("rows", layout.rows), ("columns", layout.cols)] {
            crate::limits::SIDE
                .named(what)
                .check(v)
                .map_err(|e| format!("the board: {e}"))?;
        }
        let mut p = Placement::empty(layout);
        for (r, line) in rows.iter().enumerate() {
            let chars: Vec<char> = line
                .as_ref()
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect();
            if chars.len() != layout.cols {
                return Err(format!(
                    "placement row {} has {} squares, the board {}",
                    r + 1,
                    chars.len(),
                    layout.cols
                ));
            }
            for (c, ch) in chars.into_iter().enumerate() {
                if ch == '.' {
                    continue;
                }
                let g = symbols.iter().position(|&s| s == ch).ok_or_else(|| {
                    format!(
                        "unknown symbol '{ch}' in row {} (the problem's symbols: {})",
                        r + 1,
                        symbols.iter().collect::<String>()
                    )
                })?;
                p.set(r, c, Some(g));
            }
        }
        Ok(p)
    }

    /// One string per row with each group's symbol (see [`Placement::symbols`]) and `.`.
    pub fn rows_as_strings(&self, symbols: &[char]) -> Vec<String> {
        (0..self.rows)
            .map(|r| {
                (0..self.cols)
                    .map(|c| self.get(r, c).map_or('.', |g| symbols[g]))
                    .collect()
            })
            .collect()
    }

    /// Rows with column letters and row numbers, as pq-sat prints boards.
    pub fn to_labelled_text(&self, symbols: &[char]) -> String {
        let width = self.rows.to_string().len();
        let mut out = format!("{:width$} ", "");
        for c in 0..self.cols {
            out.push(' ');
            out.push_str(&crate::column_label(c));
        }
        out.push('\n');
        for (r, row) in self.rows_as_strings(symbols).iter().enumerate() {
            out.push_str(&format!("{:>width$} ", r + 1));
            for (c, ch) in row.chars().enumerate() {
                // Columns past z have two-letter labels: keep the symbols under them.
                out.push_str(&" ".repeat(crate::column_label(c).len()));
                out.push(ch);
            }
            out.push('\n');
        }
        out
    }
}
