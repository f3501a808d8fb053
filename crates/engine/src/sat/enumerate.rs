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
//!
//! **On cubes** ([`Request::split`]), the search is split, as in cube-and-conquer (Heule,
//! Kullmann, Wieringa & Biere, HVC 2011), into cubes that fix the pieces on a few squares,
//! every combination once, and the cubes are shared among [`Request::jobs`] threads with a
//! CaDiCaL each, solving cube after cube under assumptions. The cubes partition the
//! placements, since each fixes every piece variable of its squares. An orbit may meet
//! several cubes, so it is counted only in the cube holding its *leader*: the member whose
//! piece variables, read in the lex-leader order, form the lexicographically least vector
//! (false before true). The leader satisfies every lex-leader constraint, so the cube holding
//! it finds that orbit (some member of it) for sure, and exactly one cube holds it. An orbit
//! found in another cube is blocked there only (its blocking clauses carry the cube's
//! negation); a counted orbit is blocked for good.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use pq_board::placement::Placement;
use pq_board::symmetry::{self, SymmetryGroup};
use pq_encode::general::encode_extent;
use pq_encode::spec::Problem;
use pq_encode::{Extent, Model, Options, PieceMap, Symmetry};
use rustsat::types::{Clause, Lit};

use pq_solve::control::{check_interrupt, Limits, Stop};
use pq_solve::error::SolveError;

use super::pipeline::cadical_session;
use crate::capability::listing::{
    check, invalid, limit_reached, Enumerated, Found, OnFound, Request, Summary, UpTo,
};
use crate::error::EngineError;
use pq_solve::session::{Reply, Session};

/// Enumerates the placements of `request` until done or `limits` say stop, calling
/// `on_found` for each as it is found.
pub fn enumerate(request: &Request, limits: &Limits, on_found: OnFound<'_>) -> Enumerated {
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
                SolveError::from(EngineError::Request(format!(
                    "{e}; or count every placement (--up-to total)"
                )))
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
    let piece_lits: Vec<Lit> = (map.vars.iter())
        .map(|v| Lit::positive(v.dimacs - 1))
        .collect();
    let cubes = cubes(&map, request.split);
    let search = Search {
        request,
        formula: &formula,
        map: &map,
        piece_lits: &piece_lits,
        symmetries,
        group: group.as_ref(),
        cubes: &cubes,
        next: AtomicUsize::new(0),
        stop: Stop::default(),
    };
    let mut summary = Summary {
        cubes: cubes.len(),
        ..Summary::default()
    };
    let jobs = request.jobs.clamp(1, cubes.len());
    let (sender, found) = mpsc::channel::<Result<Event, SolveError>>();
    let mut failure = None;
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let (search, sender) = (&search, sender.clone());
            let limits = limits.with_stop(&search.stop);
            scope.spawn(move || {
                if let Err(e) = search.work(&limits, &sender) {
                    search.stop.request();
                    let _ = sender.send(Err(e));
                }
            });
        }
        drop(sender);
        // Every found orbit passes through here, so the count, the limit and the callback
        // see one sequence whatever the number of threads.
        for event in found {
            match event {
                Ok(Event::Found(f)) if failure.is_none() && !limit_reached(request, &summary) => {
                    let sizes: Vec<usize> = (problem.maximised().iter())
                        .map(|&g| f.placement.count(g))
                        .collect();
                    if sizes.windows(2).any(|w| w[0] != w[1]) {
                        summary.unequal += 1;
                    }
                    summary.count += 1;
                    summary.total_boards += f.orbit_size;
                    summary.seconds = start.elapsed().as_secs_f64();
                    on_found(&f, &summary);
                    if limit_reached(request, &summary) {
                        search.stop.request();
                    }
                }
                Ok(Event::Found(_)) => {}
                Ok(Event::Stopped(reason)) => {
                    summary.stopped.get_or_insert(reason);
                }
                Err(e) => {
                    failure.get_or_insert(e);
                }
            }
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    // Ctrl-C ends the job; a time limit or --limit ends the list, which says so.
    check_interrupt()?;
    if limit_reached(request, &summary) {
        summary.stopped = None;
    }
    summary.complete = summary.stopped.is_none() && !limit_reached(request, &summary);
    summary.seconds = start.elapsed().as_secs_f64();
    Ok(summary)
}

/// What a worker tells the collector.
enum Event {
    /// An orbit (or a placement), counted in the cube that holds its leader.
    Found(Found),
    /// A solve stopped without an answer (time limit, `--limit`, Ctrl-C), with the reason.
    Stopped(String),
}

/// The cubes on the pieces of `squares` squares: for each square, empty or one group's piece,
/// every combination once, as assumptions over the piece variables. The squares are taken
/// from the middle row outwards, where a piece's lines cross most of the board.
fn cubes(map: &PieceMap, squares: usize) -> Vec<Vec<Lit>> {
    let (rows, cols) = (map.rows, map.cols);
    let mut order: Vec<(usize, usize)> = (0..rows)
        .flat_map(|r| (0..cols).map(move |c| (r, c)))
        .collect();
    let centre = |(r, c): (usize, usize)| (r.abs_diff(rows / 2), c.abs_diff(cols / 2));
    order.sort_by_key(|&sq| centre(sq));
    let mut cubes: Vec<Vec<Lit>> = vec![Vec::new()];
    for &(row, col) in order.iter().take(squares) {
        let here: Vec<Lit> = (map.vars.iter())
            .filter(|v| (v.row, v.col) == (row, col))
            .map(|v| Lit::positive(v.dimacs - 1))
            .collect();
        let choices = (0..=here.len()).map(|piece| {
            // Piece `piece` of the square's variables is true (none when it is `len`).
            here.iter()
                .enumerate()
                .map(|(i, &lit)| if i == piece { lit } else { !lit })
                .collect::<Vec<Lit>>()
        });
        let choices: Vec<Vec<Lit>> = choices.collect();
        cubes = cubes
            .iter()
            .flat_map(|cube| {
                choices.iter().map(move |choice| {
                    let mut c = cube.clone();
                    c.extend(choice);
                    c
                })
            })
            .collect();
    }
    cubes
}

/// One enumeration's shared state: the formula, the cubes and the next cube to take.
struct Search<'a> {
    request: &'a Request,
    formula: &'a pq_encode::Formula,
    map: &'a PieceMap,
    piece_lits: &'a [Lit],
    symmetries: &'a [symmetry::Symmetry],
    group: Option<&'a SymmetryGroup>,
    cubes: &'a [Vec<Lit>],
    next: AtomicUsize,
    stop: Stop,
}

impl Search<'_> {
    /// Takes cubes until none is left, enumerating each with one CaDiCaL kept across them.
    fn work(
        &self,
        limits: &Limits,
        found: &mpsc::Sender<Result<Event, SolveError>>,
    ) -> Result<(), SolveError> {
        let mut solver = cadical_session(self.formula)?;
        solver.limit(limits);
        loop {
            let i = self.next.fetch_add(1, Ordering::SeqCst);
            let Some(cube) = self.cubes.get(i) else {
                return Ok(());
            };
            loop {
                match solver.solve_under(cube)? {
                    Reply::Sat => {}
                    Reply::Unsat => break,
                    Reply::Stopped => {
                        let _ = found.send(Ok(Event::Stopped(limits.unknown_reason())));
                        return Ok(());
                    }
                }
                let (orbit, counted_here) = self.orbit_of_model(solver.as_ref(), cube)?;
                // A counted orbit is blocked for good: every cube would only skip it again.
                // Otherwise only in this cube, whose negation the clauses then carry.
                let guard: Vec<Lit> = if counted_here {
                    Vec::new()
                } else {
                    cube.iter().map(|&l| !l).collect()
                };
                for image in &orbit.images {
                    let mut blocking: Clause = (self.map.vars.iter())
                        .zip(self.piece_lits)
                        .map(|(v, &lit)| {
                            if image.get(v.row, v.col) == Some(v.group) {
                                !lit
                            } else {
                                lit
                            }
                        })
                        .collect();
                    for &l in &guard {
                        blocking.add(l);
                    }
                    solver.add_clause(blocking)?;
                }
                if counted_here {
                    let placement = match self.group {
                        None => orbit.raw,
                        Some(group) => group.canonical(&orbit.raw),
                    };
                    let event = Event::Found(Found {
                        placement,
                        orbit_size: orbit.images.len(),
                    });
                    if found.send(Ok(event)).is_err() {
                        return Ok(());
                    }
                }
            }
        }
    }

    /// The model's placement, checked, with its orbit; and whether `cube` holds the orbit's
    /// leader (the member least in the lex-leader order), the one cube that counts it.
    fn orbit_of_model(
        &self,
        solver: &dyn Session,
        cube: &[Lit],
    ) -> Result<(Orbit, bool), SolveError> {
        let mut by_var = vec![false; self.formula.n_vars as usize + 1];
        for (v, &lit) in self.map.vars.iter().zip(self.piece_lits) {
            by_var[v.dimacs as usize] = solver.value(lit)?;
        }
        let raw = (self.map)
            .decode(|var| by_var[var as usize])
            .map_err(|(r, c)| {
                invalid(
                    CADICAL,
                    format!("row {}, column {} holds two pieces", r + 1, c + 1),
                )
            })?;
        check(&raw, self.request, CADICAL)?;
        let images = symmetry::images(self.symmetries, &raw);
        let bits = |p: &Placement| -> Vec<bool> {
            (self.map.vars.iter())
                .map(|v| p.get(v.row, v.col) == Some(v.group))
                .collect()
        };
        let leader = images
            .iter()
            .map(bits)
            .min()
            .expect("the identity is an image");
        let value: std::collections::HashMap<Lit, bool> = (self.piece_lits.iter())
            .zip(&leader)
            .map(|(&lit, &b)| (lit, b))
            .collect();
        let holds = cube.iter().all(|&l| {
            let v = value[&l.var().pos_lit()];
            if l.is_neg() {
                !v
            } else {
                v
            }
        });
        Ok((Orbit { raw, images }, holds))
    }
}

/// A placement found and the distinct images of it under the symmetries counted together.
struct Orbit {
    raw: Placement,
    images: Vec<Placement>,
}

/// The size `enumerate` lists when none is given: the problem's optimum (0 when it
/// maximises no group), proven with the in-process CaDiCaL; with the seconds it took.
pub fn optimum_size(problem: &Problem) -> Result<(usize, f64), SolveError> {
    optimum_size_with(problem, &pq_solve::backend::Cadical)
}

/// [`optimum_size`], proven with `backend` (e.g. a [`crate::proof::checked::CheckedUnsat`]
/// CaDiCaL, whose UNSAT above the optimum comes with a checked proof).
pub(crate) fn optimum_size_with(
    problem: &Problem,
    backend: &dyn pq_solve::backend::Backend,
) -> Result<(usize, f64), SolveError> {
    if problem.maximised().is_empty() {
        return Ok((0, 0.0));
    }
    let outcome = super::optimise::optimise(
        problem,
        &Options::default(),
        crate::capability::climb::Strategy::default(),
        backend,
        &crate::capability::climb::RunLimits::default(),
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

/// The solver the SAT path's enumeration runs, as its messages name it.
const CADICAL: &str = "cadical";

#[cfg(test)]
mod tests {
    use super::*;

    fn request(problem: Problem, n: usize, up_to: UpTo, maximal: bool) -> Request {
        Request::new(problem, n, up_to, maximal)
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

    /// Every placement found, in canonical form, sorted: what a split search must find
    /// exactly once each, as the single search does.
    fn listed(r: &Request) -> (Vec<Placement>, Summary) {
        let mut seen = Vec::new();
        let summary = enumerate(r, &Limits::none(), &mut |f, _| {
            seen.push(f.placement.clone());
        })
        .unwrap();
        seen.sort_by_key(|p| format!("{p:?}"));
        (seen, summary)
    }

    #[test]
    fn cubes_count_every_orbit_once() {
        let file = |text: &str, board: &str| {
            let mut p = Problem::from_toml(text).unwrap();
            p.set("board", board).unwrap();
            p
        };
        let three = file(
            include_str!("../../../../encodings/three-armies.toml"),
            "4x4",
        );
        let torus = file(
            include_str!("../../../../encodings/peaceable-queens-torus.toml"),
            "5x5",
        );
        let cases = [
            (Problem::peaceable_queens(5), 3, false),
            (Problem::peaceable_queens(5), 2, false),
            (Problem::peaceable_queens(6), 5, false),
            (Problem::peaceable_queens(5), 3, true),
            (three, 1, false),
            (torus, 2, false),
        ];
        for (problem, n, maximal) in cases {
            for up_to in [UpTo::Symmetry, UpTo::Total] {
                let one = request(problem.clone(), n, up_to, maximal);
                let (want, single) = listed(&one);
                assert!(single.complete && single.cubes == 1);
                for (split, jobs) in [(1, 1), (3, 2), (5, 2)] {
                    let r = Request {
                        split,
                        jobs,
                        ..one.clone()
                    };
                    let (got, summary) = listed(&r);
                    let what = format!(
                        "{} n={n} {up_to:?} maximal={maximal} split={split}",
                        problem.name
                    );
                    assert_eq!(got.len(), want.len(), "{what}");
                    assert_eq!(got, want, "{what}");
                    assert_eq!(summary.total_boards, single.total_boards, "{what}");
                    assert!(summary.complete && summary.cubes > 1, "{what}");
                }
            }
        }
    }

    #[test]
    fn the_limit_stops_a_split_search_too() {
        let mut r = request(Problem::peaceable_queens(6), 4, UpTo::Total, false);
        (r.limit, r.split, r.jobs) = (Some(5), 3, 2);
        let s = count(&r);
        assert_eq!(s.count, 5);
        assert!(!s.complete && s.stopped.is_none());
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
