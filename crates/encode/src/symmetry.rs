//! Lex-leader symmetry breaking over the 16-element group of the problem: the 8 symmetries
//! of the square times swapping the colours.
//!
//! For each of the 15 non-identity elements `σ` the formula requires `x ≤lex σ(x)` over a
//! fixed sequence of the model's search variables, so the lexicographically smallest member of
//! each orbit always survives and no orbit is lost (Crawford, Ginsberg, Luks & Roy, KR 1996).
//! The sequence is the square variables (all white squares row-major, then all black) for the
//! pairwise and lines models, and the `6d − 2` line variables for the colouring model, whose
//! square variables are functions of its lines; there the chains are short and the constraints
//! act on the variables the solver actually searches (measured in BENCHMARKS.md). The comparator is the linear encoding with one
//! chain variable per position (Aloul, Markov & Sakallah, "Efficient symmetry breaking for
//! Boolean satisfiability", IEEE TC 2006), as in BreakID (Devriendt, Bogaerts, Bruynooghe &
//! Denecker, SAT 2016): positions the permutation fixes are skipped, and so is the second
//! half of a swapped pair, which the prefix equality already decides.

use std::collections::HashSet;

use rustsat::instances::Cnf;
use rustsat::types::Lit;

use crate::formula::VarAlloc;
use crate::geometry::{BoardSymmetry, Geometry};
use crate::models::SquareLits;

/// The 15 non-identity elements of the group: a board symmetry, then whether white and
/// black change places.
fn non_identity() -> impl Iterator<Item = (BoardSymmetry, bool)> {
    [false, true]
        .into_iter()
        .flat_map(|swap| BoardSymmetry::ALL.into_iter().map(move |b| (b, swap)))
        .filter(|&(b, swap)| swap || b != BoardSymmetry::Identity)
}

/// Adds the lex-leader constraints over the square variables for every non-identity group element.
pub(crate) fn lex_leader_squares(
    g: &Geometry,
    sq: &SquareLits,
    cnf: &mut Cnf,
    vars: &mut VarAlloc,
) {
    let d = g.dim();
    let pieces = [sq.white.clone(), sq.black.clone()];
    for (board, swap) in non_identity() {
        let squares: Vec<usize> = (0..g.n_squares())
            .map(|s| {
                let (row, col) = board.map(d, d, (s / d, s % d));
                row * d + col
            })
            .collect();
        let swap = usize::from(swap);
        lex_leader_pieces(&pieces, &squares, &[swap, 1 - swap], cnf, vars);
    }
}

/// `x ≤lex σ(x)` for the symmetry `σ` that sends square `s` to `squares[s]` and group `g`
/// to `groups[g]`, over the piece variables `x[g][s]` in group-major, then row-major order
/// (all white squares, then all black ones: measured faster than interleaving the colours
/// square by square, BENCHMARKS.md).
pub(crate) fn lex_leader_pieces(
    x: &[Vec<Lit>],
    squares: &[usize],
    groups: &[usize],
    cnf: &mut Cnf,
    vars: &mut VarAlloc,
) {
    let pairs = x.iter().enumerate().flat_map(|(g, lits)| {
        (lits.iter().enumerate()).map(move |(s, &p)| (p, x[groups[g]][squares[s]]))
    });
    lex_leader(pairs, cnf, vars);
}

/// Adds the lex-leader constraints over the colouring model's line variables (true = white-only)
/// for every non-identity group element. A board symmetry maps line variables to line
/// variables; the colour swap negates them all. The line order is that of [`Geometry::lines_through`].
pub(crate) fn lex_leader_lines(g: &Geometry, colour: &[Lit], cnf: &mut Cnf, vars: &mut VarAlloc) {
    for (board, swap) in non_identity() {
        let pairs = colour.iter().enumerate().map(|(l, &a)| {
            let image = colour[g.image_of_line(board, l)];
            (a, if swap { !image } else { image })
        });
        lex_leader(pairs, cnf, vars);
    }
}

/// `a ≤lex b` over the pairs `(a, b)`, without the pairs that are always equal or that an
/// earlier pair already decides (the second half of a swapped pair, or its negation).
fn lex_leader(pairs: impl Iterator<Item = (Lit, Lit)>, cnf: &mut Cnf, vars: &mut VarAlloc) {
    let mut kept = Vec::new();
    let mut seen: HashSet<(Lit, Lit)> = HashSet::new();
    for (a, b) in pairs {
        if a == b
            || [(b, a), (!a, !b), (!b, !a)]
                .iter()
                .any(|p| seen.contains(p))
        {
            continue;
        }
        seen.insert((a, b));
        kept.push((a, b));
    }
    // A pair `(a, ¬a)` ends the comparison: lex_less_or_equal stops there.
    lex_less_or_equal(&kept, cnf, vars);
}

/// `(a_1 … a_m) ≤lex (b_1 … b_m)`, no `a_k = b_k` (those [`lex_leader`] leaves out), with
/// chain variables `e_k` = "the first k pairs are equal" (only the direction that makes the
/// constraint bite is encoded).
pub(crate) fn lex_less_or_equal(pairs: &[(Lit, Lit)], cnf: &mut Cnf, vars: &mut VarAlloc) {
    let mut equal_so_far: Option<Lit> = None; // None: the empty prefix, constant true
    for (k, &(a, b)) in pairs.iter().enumerate() {
        let guard: Vec<Lit> = equal_so_far.map(|e| !e).into_iter().collect();
        let with_guard = |rest: &[Lit]| -> Vec<Lit> { guard.iter().chain(rest).copied().collect() };
        if b == !a {
            // a ≤ ¬a forces a = 0 < 1 = b: the comparison is decided here. Writing it as the
            // general case would repeat a literal in one clause, which proof checkers and
            // CaDiCaL's LRAT clause numbering do not take well.
            cnf.add_nary(&with_guard(&[!a]));
            break;
        }
        cnf.add_nary(&with_guard(&[!a, b]));
        if k + 1 == pairs.len() {
            break;
        }
        let e = vars.fresh();
        cnf.add_nary(&with_guard(&[!a, e]));
        cnf.add_nary(&with_guard(&[b, e]));
        equal_so_far = Some(e);
    }
}
