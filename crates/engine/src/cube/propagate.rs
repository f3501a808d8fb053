//! Unit propagation with two watched literals per clause (Moskewicz, Madigan, Zhao, Zhang &
//! Malik, "Chaff: engineering an efficient SAT solver", DAC 2001), the one inference the
//! cube splitter needs: whether a cube is refuted outright, and how many variables each
//! branch of a look-ahead assigns. No learning and no search: what it derives the formula
//! implies, so a cube it refutes is unsatisfiable together with the formula.

use rustsat::instances::Cnf;
use rustsat::types::Lit;

/// A literal's index: `2 · var + negated` ([`Lit::lidx`]).
type Code = usize;

/// The formula's clauses and a partial assignment closed under unit propagation.
pub(crate) struct Propagator {
    /// Clauses of two or more literals; their first two literals are watched.
    clauses: Vec<Vec<Code>>,
    /// `watches[l]`: the clauses watching literal `l` (they look again when `l` turns false).
    watches: Vec<Vec<usize>>,
    /// Per variable: 0 unassigned, 1 true, -1 false.
    value: Vec<i8>,
    /// The assigned literals (true), in order.
    trail: Vec<Code>,
    /// The trail's next literal to propagate.
    head: usize,
    /// The formula alone propagates to a conflict (an empty clause, or clashing units).
    root_conflict: bool,
}

impl Propagator {
    /// The propagator of `cnf` over `n_vars` variables, its unit clauses propagated (at
    /// the root: [`Propagator::backtrack`] never undoes them).
    pub(crate) fn new(cnf: &Cnf, n_vars: u32) -> Propagator {
        let n = n_vars as usize;
        let mut p = Propagator {
            clauses: Vec::new(),
            watches: vec![Vec::new(); 2 * n],
            value: vec![0; n],
            trail: Vec::new(),
            head: 0,
            root_conflict: false,
        };
        let mut units = Vec::new();
        for clause in cnf {
            let mut lits: Vec<Code> = clause.iter().map(|l| l.lidx()).collect();
            lits.sort_unstable();
            lits.dedup();
            // A tautology (l and ¬l) never propagates.
            if lits.windows(2).any(|w| w[0] ^ 1 == w[1]) {
                continue;
            }
            match lits.len() {
                0 => p.root_conflict = true,
                1 => units.push(lits[0]),
                _ => {
                    let id = p.clauses.len();
                    p.watches[lits[0]].push(id);
                    p.watches[lits[1]].push(id);
                    p.clauses.push(lits);
                }
            }
        }
        for u in units {
            if !p.assign(u) {
                p.root_conflict = true;
            }
        }
        if !p.root_conflict && !p.propagate() {
            p.root_conflict = true;
        }
        // Root assignments stay for good.
        p.trail.clear();
        p.head = 0;
        p
    }

    /// True when the formula alone propagates to a conflict (it is unsatisfiable).
    pub(crate) fn refuted_at_root(&self) -> bool {
        self.root_conflict
    }

    /// The number of literals assigned since the root (what [`Propagator::backtrack`] takes).
    pub(crate) fn level_mark(&self) -> usize {
        self.trail.len()
    }

    /// The value of `lit`: `Some(true)`, `Some(false)`, or `None` when unassigned.
    pub(crate) fn value(&self, lit: Lit) -> Option<bool> {
        let v = self.value[lit.var().idx()];
        (v != 0).then_some((v > 0) != lit.is_neg())
    }

    /// Assumes `lits` and propagates; `false` on a conflict (the assignment is then left
    /// for [`Propagator::backtrack`] to undo).
    pub(crate) fn assume(&mut self, lits: &[Lit]) -> bool {
        if self.root_conflict {
            return false;
        }
        for l in lits {
            if !self.assign(l.lidx()) {
                return false;
            }
        }
        self.propagate()
    }

    /// Undoes every assignment made after the trail had `mark` literals.
    pub(crate) fn backtrack(&mut self, mark: usize) {
        for &l in &self.trail[mark..] {
            self.value[l >> 1] = 0;
        }
        self.trail.truncate(mark);
        self.head = mark;
    }

    /// Sets `l` true unless it already is; `false` when it is false.
    fn assign(&mut self, l: Code) -> bool {
        let want: i8 = if l & 1 == 0 { 1 } else { -1 };
        match self.value[l >> 1] {
            0 => {
                self.value[l >> 1] = want;
                self.trail.push(l);
                true
            }
            v => v == want,
        }
    }

    fn is_true(&self, l: Code) -> bool {
        let v = self.value[l >> 1];
        v != 0 && (v > 0) == (l & 1 == 0)
    }

    fn is_false(&self, l: Code) -> bool {
        let v = self.value[l >> 1];
        v != 0 && (v > 0) != (l & 1 == 0)
    }

    /// Propagates the trail from its head; `false` on a conflict.
    fn propagate(&mut self) -> bool {
        while self.head < self.trail.len() {
            let falsified = self.trail[self.head] ^ 1;
            self.head += 1;
            let mut watching = std::mem::take(&mut self.watches[falsified]);
            let mut i = 0;
            let mut ok = true;
            while i < watching.len() {
                let id = watching[i];
                let clause = &mut self.clauses[id];
                if clause[0] == falsified {
                    clause.swap(0, 1);
                }
                let other = clause[0];
                // Look for a new literal to watch in place of the false one.
                let replacement = (2..clause.len()).find(|&k| {
                    let l = clause[k];
                    let v = self.value[l >> 1];
                    v == 0 || (v > 0) == (l & 1 == 0)
                });
                if let Some(k) = replacement {
                    clause.swap(1, k);
                    let new = clause[1];
                    self.watches[new].push(id);
                    watching.swap_remove(i);
                    continue;
                }
                i += 1;
                if self.is_true(other) {
                    continue;
                }
                if self.is_false(other) || !self.assign(other) {
                    ok = false;
                    break;
                }
            }
            self.watches[falsified] = watching;
            if !ok {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(d: i32) -> Lit {
        Lit::from_ipasir(d).unwrap()
    }

    fn cnf(clauses: &[&[i32]]) -> Cnf {
        let mut cnf = Cnf::new();
        for c in clauses {
            cnf.add_nary(&c.iter().map(|&d| lit(d)).collect::<Vec<_>>());
        }
        cnf
    }

    #[test]
    fn chains_propagate_and_backtrack() {
        // 1 → 2 → 3, and ¬3 ∨ ¬1 ∨ 4: assuming 1 gives 2, 3 and 4.
        let f = cnf(&[&[-1, 2], &[-2, 3], &[-3, -1, 4], &[5]]);
        let mut p = Propagator::new(&f, 5);
        assert_eq!(p.value(lit(5)), Some(true));
        let mark = p.level_mark();
        assert!(p.assume(&[lit(1)]));
        for v in [2, 3, 4] {
            assert_eq!(p.value(lit(v)), Some(true), "{v}");
        }
        assert_eq!(p.level_mark() - mark, 4);
        p.backtrack(mark);
        assert_eq!(p.value(lit(2)), None);
        assert_eq!(p.value(lit(5)), Some(true), "root units stay");
        // A conflict: 1 forces 2 and ¬2.
        let g = cnf(&[&[-1, 2], &[-1, -2, 3], &[-1, -3]]);
        let mut p = Propagator::new(&g, 3);
        assert!(!p.assume(&[lit(1)]));
        p.backtrack(0);
        assert!(p.assume(&[lit(-1)]));
        assert!(Propagator::new(&cnf(&[&[1], &[-1]]), 1).refuted_at_root());
    }

    /// Against brute force: on random small formulas, whatever propagation assigns holds in
    /// every model extending the assumptions, and a conflict means there is none.
    #[test]
    fn propagation_is_implied_by_the_formula() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        for _ in 0..300 {
            let n = 6;
            let clauses: Vec<Vec<i32>> = (0..8 + next(10))
                .map(|_| {
                    (0..=next(3))
                        .map(|_| {
                            let v = 1 + next(n) as i32;
                            if next(2) == 0 {
                                v
                            } else {
                                -v
                            }
                        })
                        .collect()
                })
                .collect();
            let refs: Vec<&[i32]> = clauses.iter().map(|c| &c[..]).collect();
            let f = cnf(&refs);
            let assumed = [1 + next(n) as i32, -(1 + next(n) as i32)];
            let models: Vec<u32> = (0..1u32 << n)
                .filter(|m| {
                    let holds = |d: i32| (m >> (d.unsigned_abs() - 1) & 1 == 1) == (d > 0);
                    clauses.iter().all(|c| c.iter().any(|&d| holds(d)))
                        && assumed.iter().all(|&d| holds(d))
                })
                .collect();
            let mut p = Propagator::new(&f, n as u32);
            let ok = p.assume(&assumed.map(lit));
            if !ok {
                assert!(models.is_empty(), "{clauses:?} {assumed:?}");
                continue;
            }
            for v in 1..=n as i32 {
                if let Some(val) = p.value(lit(v)) {
                    for m in &models {
                        assert_eq!(m >> (v - 1) & 1 == 1, val, "{clauses:?} {assumed:?} {v}");
                    }
                }
            }
        }
    }
}
