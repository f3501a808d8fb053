//! pq-encode: the peaceable armies of queens as CNF.
//!
//! [`encode`] turns an [`Instance`] (`n` white and `n` black queens on `d × d`) and
//! [`Options`] (model, cardinality encoding, symmetry breaking) into a [`Formula`]:
//! clauses, the map from square variables to DIMACS indices, and header comments.
//! [`dimacs`] writes and reads the file format that competition solvers take.
//!
//! ```
//! use pq_encode::{encode, Instance, Options};
//! let formula = encode(&Instance::new(4, 2).unwrap(), &Options::default());
//! assert!(formula.n_vars > 32 && formula.n_clauses() > 0);
//! ```
//!
//! The square variables come first: white queens are variables `1 ..= d²` and black
//! queens `d² + 1 ..= 2d²`, both row-major from the top-left square.

pub mod card;
pub mod dimacs;
pub mod formula;
pub mod geometry;
mod models;
pub mod problem;
pub mod symmetry;

use rustsat::instances::Cnf;
use rustsat::types::Lit;

pub use formula::{Colour, Formula, SquareMap, SquareVar, VarAlloc};
pub use geometry::Geometry;
pub use problem::{Card, Instance, InstanceError, Model, Options, Symmetry, MAX_DIM};

use models::SquareLits;

/// Encodes "at least `n` white and at least `n` black queens on `d × d`, no white queen
/// attacking a black one" (exactly `n`, or maximal, when the instance says so) with the
/// chosen options.
pub fn encode(instance: &Instance, options: &Options) -> Formula {
    let g = Geometry::new(instance.dim());
    let mut vars = VarAlloc::default();
    let mut cnf = Cnf::new();
    let n_squares = instance.dim() * instance.dim();
    let white: Vec<Lit> = (0..n_squares).map(|_| vars.fresh()).collect();
    let black: Vec<Lit> = (0..n_squares).map(|_| vars.fresh()).collect();
    let sq = SquareLits { white, black };

    let mut line_colours = None;
    match options.model {
        Model::Pairwise => models::pairwise(&g, &sq, &mut cnf),
        Model::Lines => models::lines(&g, &sq, &mut cnf, &mut vars),
        Model::Colouring => line_colours = Some(models::colouring(&g, &sq, &mut cnf, &mut vars)),
    }
    for army in [&sq.white, &sq.black] {
        if instance.is_exact() {
            card::exactly(options.card, army, instance.n(), &mut cnf, &mut vars);
        } else {
            card::at_least(options.card, army, instance.n(), &mut cnf, &mut vars);
        }
    }
    if instance.is_maximal() {
        maximality(&g, &sq, &mut cnf);
    }
    if options.symmetry == Symmetry::LexLeader {
        match &line_colours {
            Some(lines) => symmetry::lex_leader_lines(&g, lines, &mut cnf, &mut vars),
            None => symmetry::lex_leader_squares(&g, &sq, &mut cnf, &mut vars),
        }
    }

    let squares = square_map(&g, &sq);
    let comments = header(instance, options);
    Formula {
        n_vars: vars.n_vars(),
        cnf,
        comments,
        squares: Some(squares),
    }
}

/// Every empty square is attacked by a queen of each colour, so that neither army can grow:
/// `W(s) ∨ B(s) ∨ ⋁ B(t)` over the squares `t` attacking `s`, and the same with colours swapped.
fn maximality(g: &Geometry, sq: &SquareLits, cnf: &mut Cnf) {
    let mut attackers: Vec<Vec<usize>> = vec![Vec::new(); g.dim() * g.dim()];
    for (a, b) in g.attacking_pairs() {
        let (i, j) = (g.square_index(a), g.square_index(b));
        attackers[i].push(j);
        attackers[j].push(i);
    }
    for (i, attacking) in attackers.iter().enumerate() {
        for guard in [&sq.black, &sq.white] {
            let mut clause = vec![sq.white[i], sq.black[i]];
            clause.extend(attacking.iter().map(|&j| guard[j]));
            cnf.add_nary(&clause);
        }
    }
}

fn square_map(g: &Geometry, sq: &SquareLits) -> SquareMap {
    let mut vars = Vec::with_capacity(2 * sq.white.len());
    for (colour, lits) in [(Colour::White, &sq.white), (Colour::Black, &sq.black)] {
        for s in g.squares() {
            vars.push(SquareVar {
                dimacs: lits[g.square_index(s)].var().idx32() + 1,
                colour,
                row: s.row,
                col: s.col,
            });
        }
    }
    SquareMap { dim: g.dim(), vars }
}

fn symmetry_description(options: &Options) -> String {
    let over = match options.model {
        Model::Colouring => "the line variables",
        Model::Pairwise | Model::Lines => "the square variables",
    };
    match options.symmetry {
        Symmetry::None => "no symmetry breaking: the solutions are exactly the problem's".to_string(),
        Symmetry::LexLeader => format!(
            "lex-leader over {over} for the 15 non-identity elements of the 16-element group (8 board symmetries x colour swap): at least one solution of every orbit is kept"
        ),
    }
}

fn header(instance: &Instance, options: &Options) -> Vec<String> {
    vec![
        format!(
            "pq-sat {}: peaceable armies of queens",
            env!("CARGO_PKG_VERSION")
        ),
        format!(
            "{amount} {n} white and {amount} {n} black queens on a {d}x{d} board, no white queen attacking a black one{extra}",
            amount = if instance.is_exact() { "exactly" } else { "at least" },
            n = instance.n(),
            d = instance.dim(),
            extra = if instance.is_maximal() { "; maximal: no queen of either colour can be added" } else { "" },
        ),
        format!("dim {}", instance.dim()),
        format!("n {}", instance.n()),
        format!("model {}", options.model),
        format!("card {}", options.card),
        format!("symmetry {}", options.symmetry),
        symmetry_description(options),
        "variable map: 'var K COLOUR R C' = DIMACS variable K is a COLOUR queen on row R, column C (1-based, row 1 = top row); all other variables are auxiliary".to_string(),
    ]
}
