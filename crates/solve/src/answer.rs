//! What a backend answers, independent of which solver produced it.

/// A full assignment, indexed by DIMACS variable number (1-based). It covers every
/// variable the formula declares (the DIMACS convention for a model), but stores values
/// only up to the largest variable set: a header may declare two billion variables that no
/// clause uses, and those are false without costing memory.
#[derive(Clone, Debug)]
pub struct Assignment {
    /// `values[v - 1]` is the value of DIMACS variable `v`; variables past its end are false.
    values: Vec<bool>,
    /// The number of variables covered (at least `values.len()`).
    declared: usize,
}

impl PartialEq for Assignment {
    /// Equal when they cover the same variables with the same values, however many of the
    /// trailing false values each happens to store.
    fn eq(&self, other: &Self) -> bool {
        let stored = self.values.len().max(other.values.len());
        self.declared == other.declared && (1..=stored).all(|v| self.value(v) == other.value(v))
    }
}

impl Eq for Assignment {}

impl Assignment {
    /// An assignment of `n_vars` variables, all false (allocates nothing).
    pub fn all_false(n_vars: usize) -> Assignment {
        Assignment {
            values: Vec::new(),
            declared: n_vars,
        }
    }

    /// Builds an assignment from DIMACS literals (`5` = var 5 true, `-5` = false);
    /// variables not mentioned are false, literals beyond `n_vars` are ignored.
    pub fn from_dimacs_lits(n_vars: usize, lits: &[i64]) -> Assignment {
        let mut a = Assignment::all_false(n_vars);
        for &l in lits {
            let v = usize::try_from(l.unsigned_abs()).unwrap_or(usize::MAX);
            if v >= 1 && v <= n_vars {
                a.set(v, l > 0);
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
        self.declared = self.declared.max(var);
        if !value && self.values.len() < var {
            // Past the stored values everything is false already.
            return;
        }
        if self.values.len() < var {
            self.values.resize(var, false);
        }
        self.values[var - 1] = value;
    }

    /// Makes the assignment cover at least `n_vars` variables (the new ones false), as a
    /// model of a formula that declares `n_vars` must.
    pub fn cover(&mut self, n_vars: usize) {
        self.declared = self.declared.max(n_vars);
    }

    /// The number of variables the assignment covers.
    pub fn len(&self) -> usize {
        self.declared
    }

    /// True when the assignment covers no variable.
    pub fn is_empty(&self) -> bool {
        self.declared == 0
    }

    /// True when the DIMACS literal `lit` is true under this assignment.
    pub fn satisfies_lit(&self, lit: i64) -> bool {
        let var = usize::try_from(lit.unsigned_abs()).unwrap_or(usize::MAX);
        self.value(var) == (lit > 0)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_assignment_covers_declared_variables_without_storing_them() {
        let declared = i32::MAX as usize;
        let mut a = Assignment::from_dimacs_lits(declared, &[-1, 3, i64::MAX, i64::MIN]);
        assert_eq!(a.len(), declared);
        assert!(
            a.values.len() <= 3,
            "stores only up to the last true variable"
        );
        assert!(a.value(3) && !a.value(1) && !a.value(declared));
        assert!(a.satisfies_lit(-(declared as i64)) && a.satisfies_lit(i64::MIN));
        a.set(declared, false);
        assert!(
            a.values.len() <= 3,
            "a false value past the end is not stored"
        );
        // Equality is by value, not by what happens to be stored.
        let mut b = Assignment::all_false(declared);
        b.set(3, true);
        b.set(2, false);
        assert_eq!(a, b);
        b.cover(declared + 1);
        assert_ne!(a, b);
    }
}
