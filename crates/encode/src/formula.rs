//! A CNF formula together with the names of its variables and its provenance.

use pq_board::placement::{Kind, Placement};
use rustsat::instances::{BasicVarManager, Cnf, ManageVars};
use rustsat::types::{Lit, Var};

/// A CNF formula with a variable map and header comments.
#[derive(Clone, Debug, Default)]
pub struct Formula {
    /// The clauses.
    pub cnf: Cnf,
    /// The number of variables (the largest DIMACS index in use).
    pub n_vars: u32,
    /// Header comment lines, without the leading `c `.
    pub comments: Vec<String>,
    /// The piece variables (one per group and square), if the formula is a pq-sat formula:
    /// the one map that decodes a model into a placement.
    pub pieces: Option<PieceMap>,
    /// The line-colour variables, when the formula is the queens' colouring model: what
    /// a line splitter or the line engine reads instead of re-deriving the numbering.
    pub lines: Option<LineMap>,
}

/// The colouring model's line variables (Bosch's line labelling: one colour per row,
/// column, diagonal and anti-diagonal), named by line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineMap {
    /// The board's side.
    pub dim: usize,
    /// One variable per line, in the order of [`crate::geometry::Geometry::lines_through`]:
    /// rows, columns, diagonals, anti-diagonals (true: the line is white's).
    pub vars: Vec<Lit>,
    /// The formula carries lex-leader clauses over these variables.
    pub lex_leader: bool,
}

/// The variable that says "a piece of `group` stands on (`row`, `col`)" (0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PieceVar {
    /// DIMACS index (1-based).
    pub dimacs: u32,
    /// The group index (0 = white, 1 = black for peaceable queens).
    pub group: usize,
    /// The row, 0 at the top.
    pub row: usize,
    /// The column, 0 at the left.
    pub col: usize,
}

/// Which DIMACS variables are pieces, of which groups, on which board.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct PieceMap {
    /// The board's number of rows.
    pub rows: usize,
    /// The board's number of columns.
    pub cols: usize,
    /// Group names and kinds, in group-index order.
    pub groups: Vec<(String, Kind)>,
    /// The piece variables, in the order of their `c var` lines.
    pub vars: Vec<PieceVar>,
}

impl PieceMap {
    /// True when the `c var` lines take the short form `c var K white R C` (no kind): two
    /// groups of queens named `white` and `black`, the names the reader of that form gives.
    pub fn short_form(&self) -> bool {
        self.groups.len() == 2
            && self.groups[0] == ("white".to_string(), Kind::Queen)
            && self.groups[1] == ("black".to_string(), Kind::Queen)
    }

    /// The map of the piece variables `x[g][s]` (group `g`, square `s` row-major) of a
    /// `rows × cols` board, group-major then row-major.
    pub(crate) fn of(
        rows: usize,
        cols: usize,
        groups: Vec<(String, Kind)>,
        x: &[impl AsRef<[Lit]>],
    ) -> PieceMap {
        let vars = x.iter().enumerate().flat_map(|(group, lits)| {
            lits.as_ref()
                .iter()
                .enumerate()
                .map(move |(s, lit)| PieceVar {
                    dimacs: lit.var().idx32() + 1,
                    group,
                    row: s / cols,
                    col: s % cols,
                })
        });
        let vars = vars.collect();
        PieceMap {
            rows,
            cols,
            groups,
            vars,
        }
    }

    /// Reads the placement from a model; two pieces on one square are reported as `Err`
    /// with the square's 0-based coordinates (no valid encoding allows it).
    pub fn decode(&self, value: impl Fn(u32) -> bool) -> Result<Placement, (usize, usize)> {
        let mut p = Placement {
            rows: self.rows,
            cols: self.cols,
            cells: vec![None; self.rows * self.cols],
        };
        for v in &self.vars {
            if !value(v.dimacs) {
                continue;
            }
            if p.get(v.row, v.col).is_some() {
                return Err((v.row, v.col));
            }
            p.set(v.row, v.col, Some(v.group));
        }
        Ok(p)
    }
}

impl Formula {
    /// The number of clauses.
    pub fn n_clauses(&self) -> usize {
        self.cnf.len()
    }

    /// The largest DIMACS variable a clause uses (0 for none): what a solver must
    /// reserve. A header may declare far more (`p cnf 2147483647 1`), and those unused
    /// variables are free, so reserving them would only cost memory.
    pub fn used_vars(&self) -> u32 {
        self.cnf
            .iter()
            .flat_map(|clause| clause.iter())
            .map(|lit| lit.var().idx32() + 1)
            .max()
            .unwrap_or(0)
    }
}

/// Hands out fresh variables, in DIMACS order from 1.
#[derive(Debug, Default)]
pub struct VarAlloc {
    manager: BasicVarManager,
}

impl VarAlloc {
    /// A fresh positive literal.
    pub fn fresh(&mut self) -> Lit {
        self.manager.new_var().pos_lit()
    }

    /// The variable manager, for rustsat encodings.
    pub fn manager(&mut self) -> &mut BasicVarManager {
        &mut self.manager
    }

    /// The number of variables handed out so far.
    pub fn n_vars(&self) -> u32 {
        self.manager.max_var().map_or(0, |v: Var| v.idx32() + 1)
    }
}
