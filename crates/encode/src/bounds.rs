//! Redundant counting clauses for the colouring model (`--bounds sums`): the family-sum
//! bound of the line engine (`crates/lines/src/search.rs`; the rule of the branch-and-bound
//! of github farev/Matematica, `conjectures/peaceable-queens/NOTE.md`), written so that
//! unit propagation enforces it.
//!
//! Every queen stands on one diagonal of each family, and a diagonal coloured white holds
//! only white queens, a black one only black queens. So for each family,
//! Σ over its diagonals of (its white queens if it is white, its black queens if black)
//! = the white queens + the black queens ≥ 2n. Per diagonal, unary counts of its white and
//! of its black queens (`w_k`: at least k white queens on it), a unary "cap" with
//! `cap_k → (L → w_k)`, `cap_k → (¬L → b_k)` and `cap_k → (w_k ∨ b_k)` (the last lets
//! propagation take the larger count while `L` is open), and a count of all caps of the
//! family with "at least 2n" asserted. Every counter is a totalizer (Bailleux & Boufkhad,
//! CP 2003) with the output-implies-count direction only, so a model of the formula without
//! these clauses extends to one with them (set every output to its exact count): they
//! change no answer. Measured while planning, in notes outside the repository: 9/13 with
//! kissat 27.6 s → 14.6 s (BENCHMARKS.md, "The family-sum bound as clauses", has the
//! repository's own measurements); and every node the line engine's bounds prune is a
//! propagation conflict with them, which is what makes its search tree a proof.
//!
//! The engine's pair-level product bound (`|S|·|T| ≥ n` for the white rows `S` and columns
//! `T`, `(d − |S|)·(d − |T|) ≥ n`) needs no clauses of its own: a white queen implies its
//! row and column are white, so the white queens that can still stand lie in (rows not
//! black) × (columns not black), and the "at least n" counter propagates a conflict as
//! soon as that product is below n, for a whole pair or a partial one alike (tested
//! below; a totalizer over the row and column colours, tried in 2026, changed no time).

use rustsat::instances::Cnf;
use rustsat::types::Lit;

use crate::formula::VarAlloc;
use crate::geometry::Geometry;
use crate::models::SquareLits;

/// `out[k - 1]` may be true only if at least `k` of `lits` are: the totalizer's outputs,
/// with the clauses `out_s → a_{i+1} ∨ b_{j+1}` for every split `i + j = s − 1` of the two
/// halves' counts (a count beyond a half's size is false and left out).
pub(crate) fn at_least_outputs(lits: &[Lit], cnf: &mut Cnf, vars: &mut VarAlloc) -> Vec<Lit> {
    if lits.len() <= 1 {
        return lits.to_vec();
    }
    let (left, right) = lits.split_at(lits.len() / 2);
    let (a, b) = (
        at_least_outputs(left, cnf, vars),
        at_least_outputs(right, cnf, vars),
    );
    let out: Vec<Lit> = (0..lits.len()).map(|_| vars.fresh()).collect();
    for s in 1..=lits.len() {
        for i in 0..=a.len() {
            let Some(j) = (s - 1).checked_sub(i) else {
                break;
            };
            if j > b.len() {
                continue;
            }
            let mut clause = vec![!out[s - 1]];
            clause.extend(a.get(i));
            clause.extend(b.get(j));
            cnf.add_nary(&clause);
        }
    }
    out
}

/// Adds the family-sum clauses for `n` of each colour over the colouring model's line
/// variables `colour` (true = white; in [`Geometry::lines_through`]'s order).
pub(crate) fn family_sums(
    g: &Geometry,
    sq: &SquareLits,
    colour: &[Lit],
    n: usize,
    cnf: &mut Cnf,
    vars: &mut VarAlloc,
) {
    if n == 0 {
        return;
    }
    let d = g.dim();
    // The squares of every line, by line number.
    let mut on_line: Vec<Vec<usize>> = vec![Vec::new(); g.n_lines()];
    for s in 0..g.n_squares() {
        for l in g.lines_through(s) {
            on_line[l].push(s);
        }
    }
    // Diagonals (r − c) are lines 2d ..= 4d − 2, anti-diagonals (r + c) 4d − 1 ..= 6d − 3.
    for family in [2 * d..4 * d - 1, 4 * d - 1..6 * d - 2] {
        let mut caps = Vec::new();
        for l in family {
            let squares = &on_line[l];
            let pick = |lits: &[Lit]| squares.iter().map(|&s| lits[s]).collect::<Vec<_>>();
            let w = at_least_outputs(&pick(&sq.white), cnf, vars);
            let b = at_least_outputs(&pick(&sq.black), cnf, vars);
            for k in 0..squares.len() {
                let cap = vars.fresh();
                cnf.add_nary(&[!cap, !colour[l], w[k]]);
                cnf.add_nary(&[!cap, colour[l], b[k]]);
                cnf.add_nary(&[!cap, w[k], b[k]]);
                caps.push(cap);
            }
        }
        let sum = at_least_outputs(&caps, cnf, vars);
        match sum.get(2 * n - 1) {
            Some(&enough) => cnf.add_unit(enough),
            // More queens than squares: nothing fits (the instance refuses this earlier).
            None => cnf.add_nary(&[]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{encode, header, Bounds, Instance, Options};

    /// The header states the bounds, and reading it back gives the options that wrote it;
    /// without bounds the header is what it always was.
    #[test]
    fn the_header_says_so() {
        let with = Options {
            bounds: Bounds::Sums,
            ..Options::default()
        };
        let f = encode(&Instance::new(6, 5).unwrap(), &with);
        assert!(f.comments.iter().any(|c| c == "bounds sums"));
        assert_eq!(header::options(&f.comments), with);
        let plain = encode(&Instance::new(6, 5).unwrap(), &Options::default());
        assert!(!plain.comments.iter().any(|c| c.starts_with("bounds")));
        assert!(f.cnf.len() > plain.cnf.len());
    }
    use rustsat::solvers::{Solve, SolveIncremental, SolverResult};

    /// The product bound is a propagation consequence of the plain formula: with some rows
    /// fixed to a colour and enough columns fixed to the other that (rows not black) ×
    /// (columns not black) holds fewer than n cells (or the same for black), unit
    /// propagation alone finds a conflict. Every pair `(S, T)` the bound cuts is such an
    /// assignment, and so is every row set with too few columns left open.
    #[test]
    fn propagation_alone_enforces_the_product_bound() {
        use rustsat::solvers::Propagate;
        use rustsat::types::Var;
        for (d, n) in [(4, 3), (5, 5), (6, 6)] {
            let options = Options {
                symmetry: crate::Symmetry::None,
                ..Options::default()
            };
            let f = encode(&Instance::new(d, n).unwrap(), &options);
            let mut solver = rustsat_cadical::CaDiCaL::default();
            solver.add_cnf(f.cnf.clone()).unwrap();
            // Line l's colour variable (true = white): rows 0..d, then columns.
            let line = |l: usize, white: bool| {
                let v = Var::new(u32::try_from(2 * d * d + l).unwrap());
                if white {
                    v.pos_lit()
                } else {
                    v.neg_lit()
                }
            };
            let (mut cut, mut conflicts) = (0, 0);
            for s in 0..1usize << d {
                // Rows fixed; columns fixed from column 0 on, one more each time.
                for fixed_cols in 0..=d {
                    for t in 0..1usize << fixed_cols {
                        let a = s.count_ones() as usize;
                        let open = d - fixed_cols;
                        let (white_cols, black_cols) = (
                            t.count_ones() as usize + open,
                            fixed_cols - t.count_ones() as usize + open,
                        );
                        if a * white_cols >= n && (d - a) * black_cols >= n {
                            continue;
                        }
                        cut += 1;
                        let assumed: Vec<Lit> = (0..d)
                            .map(|r| line(r, s >> r & 1 == 1))
                            .chain((0..fixed_cols).map(|c| line(d + c, t >> c & 1 == 1)))
                            .collect();
                        if solver.propagate(&assumed, false).unwrap().conflict {
                            conflicts += 1;
                        } else {
                            panic!("d {d}, n {n}, S {s:b}, columns {t:b} of {fixed_cols}");
                        }
                    }
                }
            }
            assert!(cut > 0 && conflicts == cut, "d {d}, n {n}");
        }
    }

    /// The outputs never claim more than is true, and can always claim the exact count.
    #[test]
    fn outputs_bound_the_count_from_above() {
        for m in 1..=6usize {
            for assignment in 0..1u32 << m {
                let mut vars = VarAlloc::default();
                let mut cnf = Cnf::new();
                let lits: Vec<Lit> = (0..m).map(|_| vars.fresh()).collect();
                let out = at_least_outputs(&lits, &mut cnf, &mut vars);
                let count = assignment.count_ones() as usize;
                let fixed: Vec<Lit> = (0..m)
                    .map(|i| {
                        if assignment >> i & 1 == 1 {
                            lits[i]
                        } else {
                            !lits[i]
                        }
                    })
                    .collect();
                for k in 1..=m {
                    let mut solver = rustsat_cadical::CaDiCaL::default();
                    solver.add_cnf(cnf.clone()).unwrap();
                    let mut assumed = fixed.clone();
                    assumed.push(out[k - 1]);
                    let r = solver.solve_assumps(&assumed).unwrap();
                    assert_eq!(
                        r == SolverResult::Sat,
                        k <= count,
                        "m {m}, {assignment:b}, k {k}"
                    );
                }
            }
        }
    }
}
