//! What pq-sat knows for sure, independent of any solver: the proven values of a(d) for
//! the peaceable queens (OEIS A250000). Families label their instances' expected statuses
//! from it, and every answer for a formula pq-sat encoded itself must agree with it
//! ([`agrees`]): an answer that contradicts it is a solver error, never a result.
//!
//! ```
//! use pq_encode::spec::Problem;
//! use pq_engine::known::agrees;
//! use pq_solve::Answer;
//! let queens = Problem::peaceable_queens(5);
//! assert!(agrees(&queens, 5, &Answer::Unsat).is_ok()); // a(5) = 4
//! assert!(agrees(&queens, 4, &Answer::Unsat).is_err());
//! ```

use pq_encode::general::is_peaceable_queens;
use pq_encode::spec::Problem;
use pq_solve::Answer;

/// Proven values of a(d), d = 1..15 (OEIS A250000). pq-sat never answers from it: it labels
/// the expected status of family instances, centres a family on the optimum, and refutes a
/// solver whose answer contradicts it.
pub const A250000: [usize; 15] = [0, 0, 1, 2, 4, 5, 7, 9, 12, 14, 17, 21, 24, 28, 32];

/// Where [`A250000`] comes from, as written into manifests and messages.
pub const A250000_SOURCE: &str =
    "OEIS A250000 (https://oeis.org/A250000): a(d) proven for d = 1..15";

/// a(d) from the table of proven values, if it has one.
pub fn known_optimum(dim: usize) -> Option<usize> {
    dim.checked_sub(1).and_then(|i| A250000.get(i)).copied()
}

/// a(d) when `problem` is the peaceable queens on d×d with both armies maximised (the
/// preset, or the same problem read from a file) and the table has d.
fn queens_optimum(problem: &Problem) -> Option<(usize, usize)> {
    if !is_peaceable_queens(problem) || problem.maximised() != [0, 1] {
        return None;
    }
    let d = problem.rules.layout.rows;
    known_optimum(d).map(|a| (d, a))
}

/// Whether `answer`, for a formula pq-sat encoded for `problem` with its maximised groups at
/// `n` pieces, agrees with the table: for the peaceable queens on d×d, an UNSAT at
/// n ≤ a(d) or a model at n > a(d) contradicts it. `Err` says how, after the solver's name
/// (the [`pq_solve::backend::Judge`] of such formulas).
pub fn agrees(problem: &Problem, n: usize, answer: &Answer) -> Result<(), String> {
    let Some((d, a)) = queens_optimum(problem) else {
        return Ok(());
    };
    let queens = format!("{n} white and {n} black queens");
    match answer {
        Answer::Unsat if n <= a => Err(format!(
            "answered UNSAT, but {queens} fit on a {d}x{d} board (a({d}) = {a} is proven: OEIS A250000)"
        )),
        Answer::Sat(_) if n > a => Err(format!(
            "answered SAT, but {queens} do not fit on a {d}x{d} board (a({d}) = {a} is proven: OEIS A250000)"
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pq_solve::Assignment;

    #[test]
    fn the_table_refutes_answers_on_either_side_of_the_optimum() {
        assert_eq!(known_optimum(8), Some(9));
        assert_eq!((known_optimum(16), known_optimum(0)), (None, None));
        let q8 = Problem::peaceable_queens(8);
        let model = Answer::Sat(Assignment::all_false(1));
        let err = agrees(&q8, 9, &Answer::Unsat).unwrap_err();
        assert!(err.contains("a(8) = 9") && err.contains("9 white"), "{err}");
        assert!(agrees(&q8, 10, &Answer::Unsat).is_ok());
        assert!(agrees(&q8, 9, &model).is_ok());
        assert!(agrees(&q8, 10, &model).is_err());
        assert!(agrees(&q8, 3, &Answer::Unknown("time".into())).is_ok());
        // Beyond the table, or another problem: nothing is known.
        assert!(agrees(&Problem::peaceable_queens(16), 1, &Answer::Unsat).is_ok());
        let mut torus = Problem::peaceable_queens(8);
        torus.set_all([("torus", "true")]).unwrap();
        assert!(agrees(&torus, 1, &Answer::Unsat).is_ok());
    }
}
