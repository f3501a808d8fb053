//! Listing every placement of a problem at one size, or one per symmetry orbit, for any
//! [`Problem`] (the peaceable queens are its preset).
//!
//! One incremental CaDiCaL instance on the formula with exact counts
//! ([`Extent::Exactly`]) or maximality ([`Extent::Maximal`]). After each model, blocking
//! clauses over the piece variables forbid that placement and, up to symmetry, every image
//! of it under the problem's symmetry group ([`SymmetryGroup`], computed by pq-board from
//! the rules alone), so each orbit is found exactly once however the solver wanders and
//! however many auxiliary assignments a placement has. Up to symmetry the formula also
//! carries the encoder's lex-leader constraints (Crawford, Ginsberg, Luks & Roy, KR 1996):
//! they keep at least one member of each orbit, so they prune the search without losing
//! an orbit, and the blocking makes counting independent of how many members they keep.
//! Each placement is checked by the independent validator and printed in its orbit's
//! canonical form.

use std::time::Instant;

use pq_board::placement::Placement;
use pq_board::rules::addable_squares;
use pq_board::symmetry::{self, apply, SymmetryGroup};
use pq_encode::general::encode_extent;
use pq_encode::spec::Problem;
use pq_encode::{Extent, Model, Options, Symmetry};
use rustsat::solvers::{Solve, SolverResult};
use rustsat::types::{Clause, Lit, TernaryVal};

use pq_solve::backend::attach_limits;
use pq_solve::control::{check_interrupt, Limits};
use pq_solve::error::SolveError;

use crate::pipeline::{cadical_error, cadical_with};

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
}

/// Enumerates the placements of `request` until done or `limits` say stop, calling
/// `on_found` for each as it is found.
pub fn enumerate(
    request: &Request,
    limits: &Limits,
    on_found: &mut dyn FnMut(&Found, &Summary),
) -> Result<Summary, SolveError> {
    let start = Instant::now();
    if request.options.model == Model::Colouring {
        return Err(SolveError::in_process(
            "cadical",
            "the colouring model fills every square its lines allow, so it cannot list placements with exact counts; use --model lines or pairwise",
        ));
    }
    let problem = &request.problem;
    if request.maximal && problem.maximised().is_empty() {
        return Err(SolveError::in_process(
            "cadical",
            "maximal configurations need a problem that maximises some group",
        ));
    }
    // Bounded before the encoding and the search: a 64 × 64 torus has too many symmetries
    // to list. Counting every placement needs only the identity.
    let group = match request.up_to {
        UpTo::Total => None,
        UpTo::Symmetry => Some(
            SymmetryGroup::bounded(&problem.rules, &problem.demands(request.n)).map_err(|e| {
                SolveError::Invalid(format!("{e}; or count every placement (--up-to total)"))
            })?,
        ),
    };
    let options = Options {
        symmetry: match request.up_to {
            UpTo::Total => Symmetry::None,
            UpTo::Symmetry => Symmetry::LexLeader,
        },
        ..request.options
    };
    let extent = if request.maximal {
        Extent::Maximal
    } else {
        Extent::Exactly
    };
    let formula = encode_extent(problem, request.n, &options, extent);
    let map = formula
        .pieces
        .clone()
        .expect("pq-sat formulas carry a piece map");
    // Counting every placement blocks just the placement itself.
    let identity = [symmetry::Symmetry::identity(&problem.rules)];
    let symmetries = match &group {
        None => &identity[..],
        Some(group) => group.symmetries(),
    };
    let mut solver = cadical_with(&formula)?;
    attach_limits(&mut solver, limits);
    let piece_lits: Vec<Lit> = map
        .vars
        .iter()
        .map(|v| Lit::positive(v.dimacs - 1))
        .collect();
    let mut summary = Summary::default();
    loop {
        if request.limit.is_some_and(|k| summary.count >= k) {
            break;
        }
        match solver.solve().map_err(cadical_error)? {
            SolverResult::Sat => {}
            SolverResult::Unsat => {
                summary.complete = true;
                break;
            }
            SolverResult::Interrupted => {
                // Ctrl-C ends the job; a time limit or --limit ends the list, which says so.
                check_interrupt()?;
                summary.stopped = Some(limits.unknown_reason());
                break;
            }
        }
        let mut by_var = vec![false; formula.n_vars as usize + 1];
        for (v, &lit) in map.vars.iter().zip(&piece_lits) {
            let value = solver.lit_val(lit).map_err(cadical_error)?;
            by_var[v.dimacs as usize] = value == TernaryVal::True;
        }
        let raw = map.decode(|var| by_var[var as usize]).map_err(|(r, c)| {
            invalid(format!("row {}, column {} holds two pieces", r + 1, c + 1))
        })?;
        check(&raw, request)?;
        let mut images: Vec<Placement> = Vec::new();
        for s in symmetries {
            let image = apply(s, &raw);
            if !images.contains(&image) {
                images.push(image);
            }
        }
        // Block the placement and its images: some piece variable must differ from each.
        for image in &images {
            let blocking: Clause = map
                .vars
                .iter()
                .zip(&piece_lits)
                .map(|(v, &lit)| {
                    if image.get(v.row, v.col) == Some(v.group) {
                        !lit
                    } else {
                        lit
                    }
                })
                .collect();
            solver.add_clause(blocking).map_err(cadical_error)?;
        }
        let placement = match &group {
            None => raw,
            Some(group) => group.canonical(&raw),
        };
        let sizes: Vec<usize> = problem
            .maximised()
            .iter()
            .map(|&g| placement.count(g))
            .collect();
        if sizes.windows(2).any(|w| w[0] != w[1]) {
            summary.unequal += 1;
        }
        summary.count += 1;
        summary.total_boards += images.len();
        summary.seconds = start.elapsed().as_secs_f64();
        on_found(
            &Found {
                placement,
                orbit_size: images.len(),
            },
            &summary,
        );
    }
    summary.seconds = start.elapsed().as_secs_f64();
    Ok(summary)
}

/// The size `enumerate` lists when none is given: the problem's optimum (0 when it
/// maximises no group), proven with the in-process CaDiCaL; with the seconds it took.
pub fn optimum_size(problem: &Problem) -> Result<(usize, f64), SolveError> {
    optimum_size_with(problem, &pq_solve::backend::Cadical)
}

/// [`optimum_size`], proven with `backend` (e.g. a [`crate::checked::CheckedUnsat`]
/// CaDiCaL, whose UNSAT above the optimum comes with a checked proof).
pub fn optimum_size_with(
    problem: &Problem,
    backend: &dyn pq_solve::Backend,
) -> Result<(usize, f64), SolveError> {
    if problem.maximised().is_empty() {
        return Ok((0, 0.0));
    }
    let outcome = crate::optimise::optimise(
        problem,
        &Options::default(),
        crate::optimise::Strategy::default(),
        backend,
        &crate::optimise::RunLimits::default(),
        &mut |_| {},
    )?;
    check_interrupt()?;
    match (outcome.optimum, outcome.infeasible) {
        (Some(n), _) => Ok((n, outcome.seconds)),
        (None, true) => Ok((0, outcome.seconds)),
        (None, false) => Err(SolveError::in_process(
            "cadical",
            format!(
                "the optimisation did not finish: {}",
                outcome.reason.as_deref().unwrap_or("no reason given")
            ),
        )),
    }
}

fn invalid(details: String) -> SolveError {
    SolveError::InvalidBoard {
        backend: "cadical".into(),
        details,
    }
}

/// The independent checks every enumerated placement must pass: the rules, the counts
/// (exact, or at least `n` for the maximised groups of a maximal configuration), and
/// maximality itself.
fn check(p: &Placement, request: &Request) -> Result<(), SolveError> {
    let problem = &request.problem;
    let demands = problem.demands(request.n);
    let maximised = problem.maximised();
    // Peace before trimming, and (trimmed) at least the demanded counts.
    crate::pipeline::validated(problem, request.n, p, "cadical")?;
    for (g, &k) in demands.iter().enumerate() {
        let found = p.count(g);
        let name = &problem.rules.groups[g].name;
        if request.maximal && maximised.contains(&g) {
            if !addable_squares(&problem.rules, p, g).is_empty() {
                return Err(invalid(format!(
                    "a piece of {name} can still be added: the configuration is not maximal"
                )));
            }
        } else if found != k {
            return Err(invalid(format!(
                "{found} pieces of {name}, expected exactly {k}"
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(problem: Problem, n: usize, up_to: UpTo, maximal: bool) -> Request {
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
        }
    }

    fn count(r: &Request) -> Summary {
        enumerate(r, &Limits::none(), &mut |_, _| {}).unwrap()
    }

    #[test]
    fn queens_counts_are_the_known_ones() {
        // Counted both ways, the orbit sizes must add up to the total.
        let q = Problem::peaceable_queens(4);
        let total = count(&request(q.clone(), 2, UpTo::Total, false));
        let orbits = count(&request(q, 2, UpTo::Symmetry, false));
        assert!(total.complete && orbits.complete);
        assert_eq!(orbits.total_boards, total.count);
        assert!(orbits.count < total.count);
    }

    #[test]
    fn every_placement_found_is_canonical_up_to_symmetry() {
        let q = Problem::peaceable_queens(5);
        let group = SymmetryGroup::new(&q.rules, &q.demands(3));
        let mut seen = Vec::new();
        enumerate(
            &request(q, 3, UpTo::Symmetry, false),
            &Limits::none(),
            &mut |f, _| {
                assert!(group.is_canonical(&f.placement));
                assert_eq!(group.orbit_size(&f.placement), f.orbit_size);
                assert!(!seen.contains(&f.placement), "an orbit found twice");
                seen.push(f.placement.clone());
            },
        )
        .unwrap();
        assert!(!seen.is_empty());
    }

    #[test]
    fn maximal_needs_a_maximised_group_and_colouring_is_refused() {
        let mut q = Problem::peaceable_queens(3);
        let mut r = request(q.clone(), 1, UpTo::Total, false);
        r.options.model = Model::Colouring;
        assert!(enumerate(&r, &Limits::none(), &mut |_, _| {}).is_err());
        q.counts = vec![pq_encode::spec::Count::Exactly(1); 2];
        let r = request(q, 0, UpTo::Total, true);
        assert!(enumerate(&r, &Limits::none(), &mut |_, _| {}).is_err());
    }

    #[test]
    fn the_limit_stops_early() {
        let mut r = request(Problem::peaceable_queens(5), 2, UpTo::Total, false);
        r.limit = Some(3);
        let s = count(&r);
        assert_eq!(s.count, 3);
        assert!(!s.complete);
    }
}
