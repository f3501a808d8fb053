//! What an enumeration is asked ([`Request`]) and answers ([`Found`], [`Summary`]), for
//! every engine that lists placements ([`crate::capability::Enumerate`]), and the
//! independent checks every listed placement passes (`check`).

use pq_board::placement::Placement;
use pq_board::rules::addable_squares;
use pq_encode::spec::Problem;
use pq_encode::{Model, Options};
use pq_solve::error::SolveError;

use super::validated;

/// Count every placement, or one per orbit of the problem's symmetry group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UpTo {
    /// Every placement, symmetric images counted separately.
    Total,
    /// One placement per orbit.
    Symmetry,
}

impl UpTo {
    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            UpTo::Total => "total",
            UpTo::Symmetry => "symmetry",
        }
    }
}

/// What to enumerate.
#[derive(Clone, Debug)]
pub struct Request {
    /// The problem; its maximised groups get `n` pieces each.
    pub problem: Problem,
    /// The size of the maximised groups.
    pub n: usize,
    /// Every placement, or one per orbit.
    pub up_to: UpTo,
    /// Only configurations to which no piece of a maximised group can be added; then each
    /// maximised group has at least `n` pieces (and the fixed groups exactly their count).
    pub maximal: bool,
    /// Attack model and cardinality encoding (the symmetry breaking follows `up_to`).
    pub options: Options,
    /// Stop after this many placements (orbits, up to symmetry).
    pub limit: Option<usize>,
    /// Split the search into cubes on the pieces of this many squares (0: one search).
    pub split: usize,
    /// Threads solving cubes (with `split` 0, one search on one thread).
    pub jobs: usize,
}

impl Request {
    /// A request with the defaults of `pq-sat enumerate`: the lines model with the
    /// totalizer, no limit, one search on one thread.
    pub fn new(problem: Problem, n: usize, up_to: UpTo, maximal: bool) -> Request {
        Request {
            problem,
            n,
            up_to,
            maximal,
            options: Options {
                model: Model::Lines,
                ..Options::default()
            },
            limit: None,
            split: 0,
            jobs: 1,
        }
    }
}

/// One placement found.
#[derive(Clone, Debug)]
pub struct Found {
    /// The placement; up to symmetry, its orbit's canonical form.
    pub placement: Placement,
    /// Distinct placements in its orbit (1 when counting every placement separately).
    pub orbit_size: usize,
}

/// The totals of an enumeration.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Placements found (orbits, up to symmetry).
    pub count: usize,
    /// Placements counted with every symmetric image separately (the sum of the orbit sizes).
    pub total_boards: usize,
    /// Placements whose maximised groups have different sizes (only with `maximal`).
    pub unequal: usize,
    /// False when `limit` or `limits` stopped the enumeration early.
    pub complete: bool,
    /// Why the enumeration stopped early, when `limits` stopped it (time limit, Ctrl-C).
    pub stopped: Option<String>,
    /// Wall-clock seconds so far.
    pub seconds: f64,
    /// The cubes the search was split into (1 for one search).
    pub cubes: usize,
}

/// What an enumeration tells of each placement as it is counted, with the totals so far.
pub(crate) type OnFound<'a> = &'a mut dyn FnMut(&Found, &Summary);

/// An enumeration's totals, or why it failed.
pub(crate) type Enumerated = Result<Summary, SolveError>;

/// Whether `summary` has reached the count `request` stops at.
pub(crate) fn limit_reached(request: &Request, summary: &Summary) -> bool {
    request.limit.is_some_and(|k| summary.count >= k)
}

/// An enumerated placement that fails a check, as the solver's error.
pub(crate) fn invalid(solver: &str, details: String) -> SolveError {
    SolveError::InvalidBoard {
        backend: solver.into(),
        details,
    }
}

/// The independent checks every enumerated placement must pass: the rules, the counts
/// (exact, or at least `n` for the maximised groups of a maximal configuration), and
/// maximality itself.
pub(crate) fn check(p: &Placement, request: &Request, solver: &str) -> Result<(), SolveError> {
    let problem = &request.problem;
    let demands = problem.demands(request.n);
    let maximised = problem.maximised();
    // Peace before trimming, and (trimmed) at least the demanded counts.
    validated(problem, request.n, p, solver)?;
    for (g, &k) in demands.iter().enumerate() {
        let found = p.count(g);
        let name = &problem.rules.groups[g].name;
        if request.maximal && maximised.contains(&g) {
            if !addable_squares(&problem.rules, p, g).is_empty() {
                return Err(invalid(
                    solver,
                    format!(
                        "a piece of {name} can still be added: the configuration is not maximal"
                    ),
                ));
            }
        } else if found != k {
            return Err(invalid(
                solver,
                format!("{found} pieces of {name}, expected exactly {k}"),
            ));
        }
    }
    Ok(())
}
