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
//!
//! # From a problem to a checked board
//!
//! The whole round trip on the 8×8 board, where a(8) = 9: the problem, its formula for
//! "at least 9 of each", the DIMACS file any SAT solver reads (its `c var` comment lines map
//! the piece variables back to squares), a model, the board it encodes, and the board
//! checked by [`pq_board`]'s validator, which shares no code with the encoder. Here the
//! model comes from CaDiCaL (the `rustsat-cadical` crate); any solver's model does, and so
//! does a model read from a solver's `v` lines.
//!
//! ```
//! use pq_board::rules::check_placement;
//! use pq_encode::general::encode_problem;
//! use pq_encode::spec::Problem;
//! use pq_encode::{dimacs, Options};
//! use rustsat::solvers::{Solve, SolverResult};
//! use rustsat::types::{TernaryVal, Var};
//!
//! // The problem: peaceable armies of queens on 8×8, at least 9 of each colour.
//! let problem = Problem::peaceable_queens(8);
//! let formula = encode_problem(&problem, 9, &Options::default());
//!
//! // The DIMACS file, and the same formula read back from it.
//! let mut file = Vec::new();
//! dimacs::write(&formula, &mut file).unwrap();
//! let text = String::from_utf8(file.clone()).unwrap();
//! assert!(text.contains("p cnf"));
//! assert!(text.lines().any(|l| l.starts_with("c var ")));
//! let read = dimacs::parse(&file[..]).unwrap();
//! assert_eq!((read.n_vars, read.n_clauses()), (formula.n_vars, formula.n_clauses()));
//!
//! // A model, from any SAT solver.
//! let mut solver = rustsat_cadical::CaDiCaL::default();
//! solver.add_cnf(read.cnf.clone()).unwrap();
//! assert_eq!(solver.solve().unwrap(), SolverResult::Sat);
//! let is_true = |dimacs: u32| {
//!     solver.lit_val(Var::new(dimacs - 1).pos_lit()).unwrap() == TernaryVal::True
//! };
//!
//! // Decoded with the file's own variable map, then checked independently: no queen
//! // attacks one of the other colour, and each army has at least 9 queens.
//! let pieces = read.pieces.as_ref().expect("a pq-sat file carries its `c var` lines");
//! let board = pieces.decode(is_true).expect("one piece per square");
//! check_placement(&problem.rules, &board, &[]).expect("a peaceful board");
//! assert!(board.count(0) >= 9 && board.count(1) >= 9);
//! ```
//!
//! Other problems (any pieces, several groups, rectangular or toroidal boards) are
//! [`spec::Problem`]s too, read from TOML with [`spec::Problem::from_toml`] and encoded by the
//! same [`general::encode_problem`]; [`encode`] is the queens' own, faster-to-call entry.

pub mod bounds;
pub mod card;
pub mod dimacs;
pub mod formula;
pub mod general;
pub mod geometry;
pub mod header;
pub mod incremental;
pub mod maxsat;
mod models;
pub mod problem;
pub mod spec;
pub mod symmetry;

use pq_board::placement::Rules;
use rustsat::instances::Cnf;
use rustsat::types::Lit;

pub use formula::{Formula, LineMap, PieceMap, PieceVar, VarAlloc};
pub use geometry::Geometry;
pub use incremental::IncrementalFormula;
pub use problem::{
    Bounds, Card, Extent, Instance, InstanceError, Model, Options, Symmetry, MAX_DIM,
};

use incremental::Counters;
use models::SquareLits;

/// Encodes "at least `n` white and at least `n` black queens on `d × d`, no white queen
/// attacking a black one" (exactly `n`, or maximal, when the instance says so) with the
/// chosen options.
pub fn encode(instance: &Instance, options: &Options) -> Formula {
    let mut sk = Skeleton::new(instance.dim(), options.model);
    let (n, exact) = (instance.n(), instance.extent() == Extent::Exactly);
    for army in [&sk.sq.white, &sk.sq.black] {
        card::count(options.card, army, n, exact, &mut sk.cnf, &mut sk.vars);
    }
    if instance.extent() == Extent::Maximal {
        maximality(&sk.g, &sk.sq, &mut sk.cnf);
    }
    // The bounds need the line colours: the colouring model's (the CLI refuses others).
    if let (Bounds::Sums, Some(lines)) = (options.bounds, &sk.line_colours) {
        bounds::family_sums(&sk.g, &sk.sq, lines, n, &mut sk.cnf, &mut sk.vars);
    }
    let comments = header::queens(instance, options);
    sk.finish(options, comments)
}

/// Encodes the peaceable queens for every army size `n` in `lo ..= hi` with one totalizer
/// per colour (Bailleux & Boufkhad, CP 2003) whose outputs become assumptions (the
/// incremental use of the totalizer in Martins, Joshi, Manquinho & Lynce, "Incremental
/// cardinality constraints for MaxSAT", CP 2014). Only the totalizer has such outputs here,
/// so `options.card` must be `totalizer`. Any placement problem:
/// [`general::encode_problem_incremental`].
///
/// # Errors
/// A board size pq-sat does not handle, or `hi` queens of each colour that do not fit.
pub fn encode_incremental(
    dim: usize,
    options: &Options,
    lo: usize,
    hi: usize,
) -> Result<IncrementalFormula, InstanceError> {
    let instance = Instance::new(dim, hi)?;
    assert_eq!(
        options.card,
        Card::Totalizer,
        "incremental bounds need the totalizer"
    );
    let mut sk = Skeleton::new(dim, options.model);
    let counters = Counters::new(
        [&sk.sq.white[..], &sk.sq.black[..]],
        lo,
        hi,
        &mut sk.cnf,
        &mut sk.vars,
    );
    let mut comments = header::queens(&instance, options);
    comments[1] = format!(
        "at least n white and at least n black queens on a {dim}x{dim} board for any n in {lo}..={hi}, chosen by assumptions"
    );
    comments.retain(|c| !c.starts_with("n "));
    Ok(counters.finish(sk.finish(options, comments)))
}

/// The square variables and the attack model: the part every formula shares.
struct Skeleton {
    g: Geometry,
    vars: VarAlloc,
    cnf: Cnf,
    sq: SquareLits,
    /// The colouring model's line variables, for symmetry breaking over them.
    line_colours: Option<Vec<Lit>>,
}

impl Skeleton {
    fn new(dim: usize, model: Model) -> Skeleton {
        let g = Geometry::new(dim);
        let mut vars = VarAlloc::default();
        let mut cnf = Cnf::new();
        let white: Vec<Lit> = (0..dim * dim).map(|_| vars.fresh()).collect();
        let black: Vec<Lit> = (0..dim * dim).map(|_| vars.fresh()).collect();
        let sq = SquareLits { white, black };
        let mut line_colours = None;
        match model {
            Model::Pairwise => models::pairwise(&g, &sq, &mut cnf),
            Model::Lines => models::lines(&g, &sq, &mut cnf, &mut vars),
            Model::Colouring => {
                line_colours = Some(models::colouring(&g, &sq, &mut cnf, &mut vars));
            }
        }
        Skeleton {
            g,
            vars,
            cnf,
            sq,
            line_colours,
        }
    }

    /// Adds the symmetry breaking and packs the formula.
    fn finish(mut self, options: &Options, comments: Vec<String>) -> Formula {
        if options.symmetry == Symmetry::LexLeader {
            match &self.line_colours {
                Some(lines) => {
                    symmetry::lex_leader_lines(&self.g, lines, &mut self.cnf, &mut self.vars);
                }
                None => {
                    symmetry::lex_leader_squares(&self.g, &self.sq, &mut self.cnf, &mut self.vars);
                }
            }
        }
        let lines = self.line_colours.map(|vars| LineMap {
            dim: self.g.dim(),
            vars,
            lex_leader: options.symmetry == Symmetry::LexLeader,
        });
        Formula {
            n_vars: self.vars.n_vars(),
            pieces: Some(square_map(&self.g, &self.sq)),
            cnf: self.cnf,
            comments,
            lines,
        }
    }
}

/// Every empty square is attacked by a queen of each colour, so that neither army can grow:
/// `W(s) ∨ B(s) ∨ ⋁ B(t)` over the squares `t` attacking `s`, and the same with colours swapped.
fn maximality(g: &Geometry, sq: &SquareLits, cnf: &mut Cnf) {
    let mut attackers: Vec<Vec<usize>> = vec![Vec::new(); g.n_squares()];
    for (i, j) in g.attacking_pairs() {
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

/// The queens' variables as the placement map of [`Problem::peaceable_queens`]: group 0
/// white, group 1 black.
fn square_map(g: &Geometry, sq: &SquareLits) -> PieceMap {
    let groups = Rules::peaceable_queens(g.dim()).groups.into_iter();
    let groups = groups.map(|group| (group.name, group.kind)).collect();
    PieceMap::of(g.dim(), g.dim(), groups, &[&sq.white, &sq.black])
}

/// The README's example, compiled and run as a doctest so that it cannot go stale.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
