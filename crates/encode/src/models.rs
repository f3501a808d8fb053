//! The three ways to forbid attacks between the armies. Each adds clauses over the square
//! variables (and its own auxiliary variables); the cardinality constraints and symmetry
//! breaking are added on top by [`crate::encode`].

use rustsat::instances::Cnf;
use rustsat::types::Lit;

use crate::formula::VarAlloc;
use crate::geometry::Geometry;

/// The square variables, by row-major square index.
pub(crate) struct SquareLits {
    pub white: Vec<Lit>,
    pub black: Vec<Lit>,
}

/// Pairwise model (Smith, Petrie & Gent, "Models and symmetry breaking for 'peaceable armies
/// of queens'", CPAIOR 2004): no square holds both colours, and for every pair of squares on
/// a common line, not a white queen on one and a black queen on the other. About `4d³` clauses.
pub(crate) fn pairwise(g: &Geometry, sq: &SquareLits, cnf: &mut Cnf) {
    for i in 0..g.n_squares() {
        cnf.add_binary(!sq.white[i], !sq.black[i]);
    }
    for (i, j) in g.attacking_pairs() {
        cnf.add_binary(!sq.white[i], !sq.black[j]);
        cnf.add_binary(!sq.black[i], !sq.white[j]);
    }
}

/// Line-indicator model (the "combined" model of Smith, Petrie & Gent 2004): per line and
/// colour an indicator, implied by every queen of that colour on the line; the two
/// indicators of a line exclude each other. A square's row is one of its lines, so this
/// also keeps the two colours off the same square. About `4d²` clauses.
pub(crate) fn lines(g: &Geometry, sq: &SquareLits, cnf: &mut Cnf, vars: &mut VarAlloc) {
    let white_ind: Vec<Lit> = (0..g.n_lines()).map(|_| vars.fresh()).collect();
    let black_ind: Vec<Lit> = (0..g.n_lines()).map(|_| vars.fresh()).collect();
    for i in 0..g.n_squares() {
        for l in g.lines_through(i) {
            cnf.add_binary(!sq.white[i], white_ind[l]);
            cnf.add_binary(!sq.black[i], black_ind[l]);
        }
    }
    for l in 0..g.n_lines() {
        cnf.add_binary(!white_ind[l], !black_ind[l]);
    }
}

/// Line-colouring model: one variable per line, true = white-only, false = black-only.
/// A square holds a white queen iff its four lines are white-only, a black queen iff all
/// four are black-only; both directions are clauses, so the square variables are functions
/// of the `6d − 2` line variables and the search space is that of the lines.
pub(crate) fn colouring(
    g: &Geometry,
    sq: &SquareLits,
    cnf: &mut Cnf,
    vars: &mut VarAlloc,
) -> Vec<Lit> {
    let colour: Vec<Lit> = (0..g.n_lines()).map(|_| vars.fresh()).collect();
    for i in 0..g.n_squares() {
        let mine = g.lines_through(i).map(|l| colour[l]);
        for &c in &mine {
            cnf.add_binary(!sq.white[i], c);
            cnf.add_binary(!sq.black[i], !c);
        }
        let [a, b, c, d] = mine;
        cnf.add_nary(&[!a, !b, !c, !d, sq.white[i]]);
        cnf.add_nary(&[a, b, c, d, sq.black[i]]);
    }
    colour
}
