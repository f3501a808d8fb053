//! The peaceable queens' own encoder: the question of [`Instance`] (d and n) with the
//! chosen [`Options`], and its incremental form. Any other problem, and the queens given as a
//! [`crate::spec::Problem`], go through [`crate::general::encode_problem`], which hands the
//! queens here.

use pq_board::placement::Rules;
use rustsat::instances::Cnf;
use rustsat::types::Lit;

use crate::incremental::{Counters, IncrementalFormula};
use crate::models::{self, SquareLits};
use crate::{
    bounds, card, header, symmetry, Bounds, Card, Extent, Formula, Geometry, Instance,
    InstanceError, LineMap, Model, Options, PieceMap, Symmetry, VarAlloc,
};

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
/// [`crate::general::encode_problem_incremental`].
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
