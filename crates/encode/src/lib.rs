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
/// attacking a black one" with the chosen options.
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
    card::at_least(options.card, &sq.white, instance.n(), &mut cnf, &mut vars);
    card::at_least(options.card, &sq.black, instance.n(), &mut cnf, &mut vars);
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
            "at least {n} white and at least {n} black queens on a {d}x{d} board, no white queen attacking a black one",
            n = instance.n(),
            d = instance.dim()
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
