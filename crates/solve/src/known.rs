//! What pq-sat knows for sure, independent of any solver: the proven values of a(d) for
//! the peaceable queens (OEIS A250000) and the three armies (OEIS A328283). Families and
//! submissions label their instances' expected statuses from them, and every answer for a
//! formula pq-sat encoded itself must agree with them ([`agrees`]): an answer that
//! contradicts them is a solver error, never a result.
//!
//! ```
//! use pq_encode::spec::Problem;
//! use pq_solve::known::agrees;
//! use pq_solve::answer::Answer;
//! let queens = Problem::peaceable_queens(5);
//! assert!(agrees(&queens, 5, &Answer::Unsat).is_ok()); // a(5) = 4
//! assert!(agrees(&queens, 4, &Answer::Unsat).is_err());
//! ```

use crate::answer::Answer;
use pq_board::placement::Kind;
use pq_encode::spec::{Count, Problem};

/// Proven values of a(d), d = 1..15 (OEIS A250000). pq-sat never answers from it: it labels
/// the expected status of family instances, centres a family on the optimum, and refutes a
/// solver whose answer contradicts it.
pub const A250000: [usize; 15] = [0, 0, 1, 2, 4, 5, 7, 9, 12, 14, 17, 21, 24, 28, 32];

/// Where [`A250000`] comes from, as written into manifests and messages.
pub const A250000_SOURCE: &str =
    "OEIS A250000 (https://oeis.org/A250000): a(d) proven for d = 1..15";

/// The three armies' optima, d = 1..14, as OEIS A328283 lists them (the OEIS lists exact
/// values only; its guesses beyond d = 14 are in comments and link files, not here). pq-sat's
/// line engine reproduces d = 4..11 (RESULTS.md); the table serves as [`A250000`] does.
pub const A328283: [usize; 14] = [0, 0, 0, 1, 1, 2, 3, 4, 5, 7, 8, 10, 12, 14];

/// Where [`A328283`] comes from.
pub(crate) const A328283_SOURCE: &str =
    "OEIS A328283 (https://oeis.org/A328283): the three armies' optimum for d = 1..14";

/// A table of optima along the board side: `values[d - 1]` is the optimum on d×d.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Table {
    /// The sequence's A-number.
    pub sequence: &'static str,
    /// The optima, from d = 1.
    pub values: &'static [usize],
    /// Where they come from, as written into manifests and messages.
    pub source: &'static str,
}

/// The peaceable queens' table.
pub(crate) const PEACEABLE_QUEENS: Table = Table {
    sequence: "A250000",
    values: &A250000,
    source: A250000_SOURCE,
};

/// The three armies' table.
pub const THREE_ARMIES: Table = Table {
    sequence: "A328283",
    values: &A328283,
    source: A328283_SOURCE,
};

impl Table {
    /// The optimum on d×d, if the table reaches d.
    pub fn at(&self, d: usize) -> Option<usize> {
        d.checked_sub(1).and_then(|i| self.values.get(i)).copied()
    }
}

/// a(d) from the table of proven values, if it has one.
pub fn known_optimum(dim: usize) -> Option<usize> {
    PEACEABLE_QUEENS.at(dim)
}

/// Whether `problem` is k armies of queens on a square board (not a torus), every army
/// maximised, every two armies at peace: with k = 3, the problem of [`THREE_ARMIES`].
fn armies_of_queens(problem: &Problem, k: usize) -> bool {
    let l = &problem.rules.layout;
    let groups = &problem.rules.groups;
    let mut pairs = problem.rules.no_attack.clone();
    for pair in &mut pairs {
        *pair = (pair.0.min(pair.1), pair.0.max(pair.1));
    }
    pairs.sort_unstable();
    pairs.dedup();
    let every_pair: Vec<(usize, usize)> = (0..k)
        .flat_map(|a| (a + 1..k).map(move |b| (a, b)))
        .collect();
    l.rows == l.cols
        && !l.torus
        && groups.len() == k
        && groups.iter().all(|g| g.kind == Kind::Queen)
        && problem.counts.iter().all(|c| *c == Count::Maximise)
        && pairs == every_pair
}

/// The table that knows `problem`'s optimum, with that optimum: the peaceable queens (the
/// preset, or the same problem read from a file) and the three armies, on boards the table
/// covers.
pub fn table(problem: &Problem) -> Option<(usize, &'static Table)> {
    let t = if problem.shape().optimum_is_a_of_d().is_some() {
        &PEACEABLE_QUEENS
    } else if armies_of_queens(problem, 3) {
        &THREE_ARMIES
    } else {
        return None;
    };
    Some((t.at(problem.rules.layout.rows)?, t))
}

/// Whether `answer`, for a formula pq-sat encoded for `problem` with its maximised groups at
/// `n` pieces, agrees with the table: an UNSAT at n ≤ a(d) or a model at n > a(d)
/// contradicts it. `Err` says how, after the solver's name (the
/// [`Judge`](crate::backend::Judge) of such formulas).
pub fn agrees(problem: &Problem, n: usize, answer: &Answer) -> Result<(), String> {
    let Some((a, t)) = table(problem) else {
        return Ok(());
    };
    let d = problem.rules.layout.rows;
    let queens = if t == &PEACEABLE_QUEENS {
        format!("{n} white and {n} black queens")
    } else {
        format!("{n} queens of each of three colours")
    };
    let seq = t.sequence;
    match answer {
        Answer::Unsat if n <= a => Err(format!(
            "answered UNSAT, but {queens} fit on a {d}x{d} board (a({d}) = {a} is proven: OEIS {seq})"
        )),
        Answer::Sat(_) if n > a => Err(format!(
            "answered SAT, but {queens} do not fit on a {d}x{d} board (a({d}) = {a} is proven: OEIS {seq})"
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::Assignment;

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

    fn three_armies(board: &str) -> Problem {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../encodings/three-armies.toml"
        ))
        .unwrap();
        let mut p = Problem::from_toml(&text).unwrap();
        p.set_all([("board", board)]).unwrap();
        p
    }

    #[test]
    fn the_three_armies_have_their_own_table() {
        let p = three_armies("10x10");
        assert_eq!(
            table(&p).map(|(a, t)| (a, t.sequence)),
            Some((7, "A328283"))
        );
        assert_eq!(table(&three_armies("14x14")).map(|(a, _)| a), Some(14));
        assert_eq!(table(&three_armies("15x15")), None, "beyond the table");
        let err = agrees(&p, 8, &Answer::Sat(Assignment::all_false(1))).unwrap_err();
        assert!(
            err.contains("8 queens of each of three colours") && err.contains("A328283"),
            "{err}"
        );
        assert!(agrees(&p, 7, &Answer::Unsat).is_err());
        assert!(agrees(&p, 8, &Answer::Unsat).is_ok());
        // Not the three armies: a torus, a rectangle, a fixed army, a missing peace.
        for (key, value) in [("torus", "true"), ("board", "10x9"), ("red", "3")] {
            let mut q = three_armies("10x10");
            q.set_all([(key, value)]).unwrap();
            assert_eq!(table(&q), None, "{key}={value}");
        }
        let mut q = three_armies("10x10");
        q.rules.no_attack.pop();
        assert_eq!(table(&q), None, "two armies may attack each other");
    }
}
