//! "At least k of these literals are true" as clauses.
//!
//! Two encodings, chosen with [`Card`]:
//! - the totalizer of Bailleux & Boufkhad ("Efficient CNF encoding of Boolean cardinality
//!   constraints", CP 2003), taken from rustsat, with only the "output implies count"
//!   direction that a lower bound needs;
//! - the sequential counter of Sinz ("Towards an optimal CNF encoding of Boolean
//!   cardinality constraints", CP 2005), written here because rustsat has none.

use rustsat::encodings::card::{BoundBoth, BoundLower, Totalizer};
use rustsat::instances::Cnf;
use rustsat::types::Lit;

use crate::formula::VarAlloc;
use crate::problem::Card;

/// Adds clauses that hold iff at least `k` of `lits` are true, with `exact` exactly `k`
/// (`k ≤ lits.len()`).
pub fn count(card: Card, lits: &[Lit], k: usize, exact: bool, cnf: &mut Cnf, vars: &mut VarAlloc) {
    assert!(k <= lits.len(), "{k} of {} literals", lits.len());
    match card {
        // At least 0 needs no clause; exactly 0 still does.
        Card::Totalizer if exact || k > 0 => {
            // One tree; for `exact` both directions of its outputs.
            let mut tot: Totalizer = lits.iter().copied().collect();
            let units = if exact {
                tot.encode_both(k..=k, cnf, vars.manager())
                    .expect("a Cnf collector does not run out of memory");
                tot.enforce_eq(k)
            } else {
                tot.encode_lb(k..=k, cnf, vars.manager())
                    .expect("a Cnf collector does not run out of memory");
                tot.enforce_lb(k)
            };
            for unit in units.expect("the bound was just encoded") {
                cnf.add_unit(unit);
            }
        }
        Card::Totalizer => {}
        Card::SeqCounter => {
            seq_counter(lits, k, cnf, vars);
            if exact {
                // At most k true is at least m − k false.
                let negated: Vec<Lit> = lits.iter().map(|&l| !l).collect();
                seq_counter(&negated, lits.len() - k, cnf, vars);
            }
        }
    }
}

/// Sinz's counter turned around for a lower bound: register `s(i, j)` may be true only if
/// at least `j` of the first `i` inputs are true, and `s(m, k)` is asserted. Sinz's `≤ k`
/// form propagates inputs up into the registers; here registers propagate down into inputs,
/// which is the same counter read in the other direction and keeps `m·k` registers
/// instead of the `m·(m−k)` that Sinz's form would need on the negated inputs.
///
/// Registers that cannot matter are never created: `s(i, j)` with `j > i` is false, and
/// `s(i, j)` with `j < k − (m − i)` cannot lead to `s(m, k)`.
fn seq_counter(lits: &[Lit], k: usize, cnf: &mut Cnf, vars: &mut VarAlloc) {
    if k == 0 {
        return;
    }
    let m = lits.len();
    // reg[i][j] for i in 1..=m, j in 1..=k; None means constant false for j > i and
    // "irrelevant" (never referenced) below the useful band.
    let lowest = |i: usize| (k + i).saturating_sub(m).max(1);
    let mut prev: Vec<Option<Lit>> = vec![None; k + 1];
    for i in 1..=m {
        let x = lits[i - 1];
        let mut cur: Vec<Option<Lit>> = vec![None; k + 1];
        for j in lowest(i)..=k.min(i) {
            let s = vars.fresh();
            cur[j] = Some(s);
            // A register that is None is false: it drops out of the clause.
            let clause = |lits: [Option<Lit>; 3]| lits.into_iter().flatten().collect::<Vec<_>>();
            // s(i,j) -> s(i-1,j) or x_i
            cnf.add_nary(&clause([Some(!s), prev[j], Some(x)]));
            // s(i,j) -> s(i-1,j) or s(i-1,j-1); s(i-1,0) is constant true.
            if j >= 2 {
                cnf.add_nary(&clause([Some(!s), prev[j], prev[j - 1]]));
            }
        }
        prev = cur;
    }
    cnf.add_unit(prev[k].expect("s(m, k) exists when k <= m"));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every assignment of `m` inputs: the encoding must be satisfiable (by some auxiliary
    /// values) exactly when at least `k` (with `exact`: exactly `k`) inputs are true.
    fn exhaustive(card: Card, exact: bool) {
        // Exact seqcounter builds two counters: keep m small enough to try every aux value.
        for m in 1..=(if exact { 4 } else { 5 }) {
            for k in 0..=m {
                let mut vars = VarAlloc::default();
                let inputs: Vec<Lit> = (0..m).map(|_| vars.fresh()).collect();
                let mut cnf = Cnf::new();
                count(card, &inputs, k, exact, &mut cnf, &mut vars);
                let n_aux = vars.n_vars() as usize - m;
                assert!(n_aux <= 16, "too many auxiliaries to test exhaustively");
                for bits in 0u32..(1 << m) {
                    let ones = bits.count_ones() as usize;
                    let expected = if exact { ones == k } else { ones >= k };
                    let found = (0u32..(1 << n_aux)).any(|aux| {
                        let val = |l: Lit| {
                            let v = l.var().idx();
                            let b = if v < m {
                                bits >> v & 1
                            } else {
                                aux >> (v - m) & 1
                            };
                            (b == 1) == l.is_pos()
                        };
                        cnf.iter().all(|cl| cl.iter().any(|&l| val(l)))
                    });
                    assert_eq!(found, expected, "{card:?} m={m} k={k} bits={bits:b}");
                }
            }
        }
    }

    #[test]
    fn totalizer_is_exact_on_small_inputs() {
        exhaustive(Card::Totalizer, false);
        exhaustive(Card::Totalizer, true);
    }

    #[test]
    fn seq_counter_is_exact_on_small_inputs() {
        exhaustive(Card::SeqCounter, false);
        exhaustive(Card::SeqCounter, true);
    }
}
