//! What a backend answers, independent of which solver produced it.

/// A full assignment, indexed by DIMACS variable number (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assignment {
    /// `values[v - 1]` is the value of DIMACS variable `v`.
    values: Vec<bool>,
}

impl Assignment {
    /// An assignment of `n_vars` variables, all false.
    pub fn all_false(n_vars: usize) -> Assignment {
        Assignment {
            values: vec![false; n_vars],
        }
    }

    /// Builds an assignment from DIMACS literals (`5` = var 5 true, `-5` = false);
    /// variables not mentioned are false, literals beyond `n_vars` are ignored.
    pub fn from_dimacs_lits(n_vars: usize, lits: &[i64]) -> Assignment {
        let mut a = Assignment::all_false(n_vars);
        for &l in lits {
            let v = l.unsigned_abs() as usize;
            if v >= 1 && v <= n_vars {
                a.values[v - 1] = l > 0;
            }
        }
        a
    }

    /// The value of DIMACS variable `var` (1-based); unknown variables are false.
    pub fn value(&self, var: usize) -> bool {
        var >= 1 && self.values.get(var - 1).copied().unwrap_or(false)
    }

    /// Sets DIMACS variable `var` (1-based), growing the assignment if needed.
    pub fn set(&mut self, var: usize, value: bool) {
        assert!(var >= 1, "DIMACS variables start at 1");
        if self.values.len() < var {
            self.values.resize(var, false);
        }
        self.values[var - 1] = value;
    }

    /// The number of variables the assignment covers.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// True when the assignment covers no variable.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// True when the DIMACS literal `lit` is true under this assignment.
    pub fn satisfies_lit(&self, lit: i64) -> bool {
        self.value(lit.unsigned_abs() as usize) == (lit > 0)
    }
}

/// A backend's verdict on one formula.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Satisfiable, with a model.
    Sat(Assignment),
    /// Unsatisfiable.
    Unsat,
    /// No answer: the time limit was reached, or the solver gave up (the reason says which).
    Unknown(String),
}

impl Answer {
    /// True for a SAT answer.
    pub fn is_sat(&self) -> bool {
        matches!(self, Answer::Sat(_))
    }
}
