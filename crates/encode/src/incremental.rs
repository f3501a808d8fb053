//! Formulas for every size in a range at once: the maximised groups are counted by
//! totalizers (Bailleux & Boufkhad, "Efficient CNF encoding of Boolean cardinality
//! constraints", CP 2003) whose outputs for "at least `n`" are left open, and each solver
//! call picks `n` by assuming them (Martins, Joshi, Manquinho & Lynce, "Incremental
//! cardinality constraints for MaxSAT", CP 2014), so learnt clauses carry over between sizes.
//!
//! One type, [`IncrementalFormula`], for both constructors: [`crate::encode_incremental`]
//! (the peaceable queens, on their specialised encoder) and
//! [`crate::general::encode_problem_incremental`] (any placement problem).
//!
//! ```
//! use pq_encode::general::encode_problem_incremental;
//! use pq_encode::spec::Problem;
//! use pq_encode::Options;
//! let problem = Problem::peaceable_queens(4);
//! let inc = encode_problem_incremental(&problem, &Options::default(), 0, 3);
//! assert_eq!(inc.assumptions(0), Some(&[][..]));
//! assert_eq!(inc.assumptions(2).map(<[_]>::len), Some(2), "one output per army");
//! assert!(inc.assumptions(3).is_some());
//! assert!(inc.assumptions(4).is_none());
//! ```

use rustsat::encodings::card::{BoundLower, Totalizer};
use rustsat::instances::Cnf;
use rustsat::types::Lit;

use crate::formula::{Formula, VarAlloc};

/// A formula for every size `n` of the maximised groups in `lo ..= hi` at once: the size is
/// chosen per solver call by [`IncrementalFormula::assumptions`].
#[derive(Clone, Debug)]
pub struct IncrementalFormula {
    /// The clauses for every size in the range (only the assumptions pick one), with the
    /// header and the piece map of the one-size formulas, so that models decode the same way.
    pub formula: Formula,
    lo: usize,
    /// `bounds[n - lo]`: the literals that force at least `n` pieces in each maximised group.
    bounds: Vec<Vec<Lit>>,
}

impl IncrementalFormula {
    /// The assumptions for "at least `n` pieces in each maximised group" (for the peaceable
    /// queens: of each colour), if `n` is in the encoded range; empty for `n = 0`.
    pub fn assumptions(&self, n: usize) -> Option<&[Lit]> {
        n.checked_sub(self.lo)
            .and_then(|i| self.bounds.get(i))
            .map(Vec::as_slice)
    }
}

/// One totalizer per counted group, with the outputs for every lower bound in `lo ..= hi`
/// (only the "output implies count" direction that a lower bound needs).
pub(crate) struct Counters {
    lo: usize,
    hi: usize,
    totalizers: Vec<Totalizer>,
}

impl Counters {
    /// Encodes the totalizers over each group's literals into `cnf`.
    pub(crate) fn new<'a>(
        groups: impl IntoIterator<Item = &'a [Lit]>,
        lo: usize,
        hi: usize,
        cnf: &mut Cnf,
        vars: &mut VarAlloc,
    ) -> Counters {
        assert!(lo <= hi, "empty range {lo}..={hi}");
        let mut totalizers = Vec::new();
        for lits in groups {
            assert!(
                hi <= lits.len(),
                "at least {hi} of {} literals cannot be stated",
                lits.len()
            );
            let mut tot: Totalizer = lits.iter().copied().collect();
            if hi > 0 {
                tot.encode_lb(lo.max(1)..=hi, cnf, vars.manager())
                    .expect("a Cnf collector does not run out of memory");
            }
            totalizers.push(tot);
        }
        Counters { lo, hi, totalizers }
    }

    /// The outputs that force group `i` (in the order given to [`Counters::new`]) to at least
    /// `n` pieces, `n` in the encoded range; empty for `n = 0`.
    pub(crate) fn at_least(&self, i: usize, n: usize) -> Vec<Lit> {
        assert!(
            (self.lo..=self.hi).contains(&n),
            "{n} is outside {}..={}",
            self.lo,
            self.hi
        );
        self.totalizers[i]
            .enforce_lb(n)
            .expect("the range was encoded")
    }

    /// `formula` (which holds the totalizers' clauses) with the assumptions for every size.
    pub(crate) fn finish(self, formula: Formula) -> IncrementalFormula {
        let bounds = (self.lo..=self.hi)
            .map(|n| {
                (0..self.totalizers.len())
                    .flat_map(|i| self.at_least(i, n))
                    .collect()
            })
            .collect();
        IncrementalFormula {
            formula,
            lo: self.lo,
            bounds,
        }
    }
}
