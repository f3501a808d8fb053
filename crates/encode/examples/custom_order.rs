//! Prints the DIMACS formula of the peaceable queens on 5×5 (at least a(5) = 4 of each
//! colour) with the variables in an order of our own: square by square, the white and the
//! black queen of each square side by side (a1 white = 1, a1 black = 2, b1 white = 3, ...),
//! then every auxiliary variable of the encoding in its old order.
//!
//! pq-encode numbers all white squares first, then all black ones; some solvers and
//! preprocessors are sensitive to the order, and studies of it need formulas that differ in
//! nothing else. Because the file keeps its `c var` lines (renumbered with the clauses), a
//! model of the renumbered formula still decodes to a board.
//!
//! Run with `cargo run -p pq-encode --example custom_order > q5.cnf`; its tests
//! (`cargo test -p pq-encode --example custom_order`) solve the printed formula and check the
//! board it decodes to.

use std::io;

use pq_encode::general::encode_problem;
use pq_encode::spec::Problem;
use pq_encode::{dimacs, Formula, Options, PieceVar};
use rustsat::instances::Cnf;
use rustsat::types::{Clause, Lit};

fn main() -> io::Result<()> {
    dimacs::write(&interleaved(5, 4), io::stdout().lock())
}

/// The peaceable queens on `d`×`d` with at least `n` of each colour, its variables
/// renumbered square by square, white before black on each square.
fn interleaved(d: usize, n: usize) -> Formula {
    let formula = encode_problem(&Problem::peaceable_queens(d), n, &Options::default());
    renumber(&formula, |v| (v.row, v.col, v.group))
}

/// `formula` with its piece variables numbered 1, 2, ... in the order of `key`, and the
/// other variables after them in their old order. Clauses, `c var` lines and the variable
/// count follow; the header comments are kept, with one more saying what was done.
fn renumber<K: Ord>(formula: &Formula, key: impl Fn(&PieceVar) -> K) -> Formula {
    let map = formula
        .pieces
        .as_ref()
        .expect("a formula made by pq-encode has its piece map");
    let mut pieces: Vec<&PieceVar> = map.vars.iter().collect();
    pieces.sort_by_key(|v| key(v));
    // new[old] for DIMACS indices (index 0 unused); 0 = not numbered yet.
    let mut new = vec![0u32; formula.n_vars as usize + 1];
    let mut next = 0;
    for v in pieces {
        next += 1;
        new[v.dimacs as usize] = next;
    }
    for slot in new.iter_mut().skip(1).filter(|slot| **slot == 0) {
        next += 1;
        *slot = next;
    }
    let lit = |l: Lit| Lit::new(new[l.var().idx() + 1] - 1, l.is_neg());
    let cnf: Cnf = formula
        .cnf
        .iter()
        .map(|clause| clause.iter().map(|&l| lit(l)).collect::<Clause>())
        .collect();
    let mut pieces = map.clone();
    for v in &mut pieces.vars {
        v.dimacs = new[v.dimacs as usize];
    }
    let mut comments = formula.comments.clone();
    comments.push("variables renumbered: square by square, white then black".to_string());
    Formula {
        cnf,
        n_vars: formula.n_vars,
        comments,
        pieces: Some(pieces),
        lines: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pq_board::placement::Rules;
    use pq_board::rules::check_placement;
    use rustsat::solvers::{Solve, SolverResult};
    use rustsat::types::{TernaryVal, Var};

    /// The text `main` prints, read back.
    fn printed(d: usize, n: usize) -> (String, Formula) {
        let mut out = Vec::new();
        dimacs::write(&interleaved(d, n), &mut out).unwrap();
        let formula = dimacs::parse(&out[..]).unwrap();
        (String::from_utf8(out).unwrap(), formula)
    }

    /// Solves `formula` with CaDiCaL: the decoded board when SAT.
    fn solve(formula: &Formula) -> Option<pq_board::placement::Placement> {
        let mut solver = rustsat_cadical::CaDiCaL::default();
        solver.add_cnf(formula.cnf.clone()).unwrap();
        match solver.solve().unwrap() {
            SolverResult::Sat => {
                let value =
                    |k: u32| solver.lit_val(Var::new(k - 1).pos_lit()).unwrap() == TernaryVal::True;
                Some(formula.pieces.as_ref().unwrap().decode(value).unwrap())
            }
            SolverResult::Unsat => None,
            SolverResult::Interrupted => unreachable!("no limits"),
        }
    }

    #[test]
    fn pieces_come_first_square_by_square() {
        let (text, _) = printed(5, 4);
        let vars: Vec<&str> = text.lines().filter(|l| l.starts_with("c var ")).collect();
        assert_eq!(vars.len(), 50);
        assert!(vars.contains(&"c var 1 white 1 1"), "{vars:?}");
        assert!(vars.contains(&"c var 2 black 1 1"));
        assert!(vars.contains(&"c var 3 white 1 2"));
        assert!(vars.contains(&"c var 50 black 5 5"));
    }

    #[test]
    fn same_formula_up_to_the_names_of_its_variables() {
        let original = encode_problem(&Problem::peaceable_queens(5), 4, &Options::default());
        let (_, renumbered) = printed(5, 4);
        assert_eq!(renumbered.n_vars, original.n_vars);
        assert_eq!(renumbered.n_clauses(), original.n_clauses());
        // Clause lengths, as a multiset, are unchanged.
        let lengths = |f: &Formula| {
            let mut l: Vec<usize> = f.cnf.iter().map(|c| c.len()).collect();
            l.sort_unstable();
            l
        };
        assert_eq!(lengths(&renumbered), lengths(&original));
    }

    /// a(5) = 4: the renumbered formula with 4 of each is SAT and its model decodes to a
    /// valid board; with 5 it is UNSAT, as the original.
    #[test]
    fn solves_and_decodes_like_the_original() {
        let (_, formula) = printed(5, 4);
        let board = solve(&formula).expect("4 of each fit on 5x5");
        check_placement(&Rules::peaceable_queens(5), &board, &[]).unwrap();
        assert!(board.count(0) >= 4 && board.count(1) >= 4);
        assert!(
            solve(&printed(5, 5).1).is_none(),
            "5 of each do not fit on 5x5"
        );
    }
}
