//! Listing the boards of two armies of queens with the line engine (`enumerate --engine
//! lines`): no CNF, no blocking clauses.
//!
//! [`pq_lines::enumerate`] searches the line labellings (Bosch's labelling, the model of
//! Smith, Petrie & Gent, CPAIOR 2004) without stopping at the first solution: each node
//! where no diagonal holds both colours gives the cells each colour may take, and every
//! labelling below it leaves a subset of them. A board with exactly `m` of each colour is
//! `m` of those white cells and `m` of those black ones; each such choice is put in its
//! orbit's canonical form under the problem's symmetry group (pq-board's, computed from the
//! rules alone) and counted once, whichever labelling or node it came from. The engine
//! searches only the `(S, T)` pairs least in their orbit; every orbit of boards has a member
//! whose labelling has such a pair, so every orbit is met. Each board is checked by the
//! independent validator before it is counted.

use std::collections::HashSet;
use std::time::Instant;

use pq_board::placement::{Layout, Placement};
use pq_board::symmetry::{images, SymmetryGroup};
use pq_encode::spec::Problem;
use pq_lines::{Demand, Settings, Verdict};
use pq_solve::control::Limits;
use pq_solve::error::SolveError;

use crate::capability::climb::RunLimits;
use crate::capability::listing::{
    check, limit_reached, Enumerated, Found, OnFound, Request, Summary, UpTo,
};
use crate::capability::{Climb, Enumerate, Optimise};
use crate::error::EngineError;
use crate::lines::{board, unsupported, LineEngine};

/// The line engine's enumeration on `jobs` threads, its optimum found by the line engine
/// too (an exhaustive search: no checked proof).
pub(crate) struct LineEnumerator {
    /// Worker threads of the search.
    pub jobs: usize,
}

/// Why the line engine cannot list `request`'s boards, if it cannot.
pub fn refusal(request: &Request) -> Option<String> {
    let problem = &request.problem;
    if let Some(why) = unsupported(problem) {
        return Some(why);
    }
    if problem.rules.groups.len() != 2 {
        return Some("it lists the boards of two armies only".into());
    }
    if request.maximal {
        return Some("it lists boards with exact counts, not maximal configurations".into());
    }
    let demands = problem.demands(request.n);
    if demands.contains(&0) && demands.iter().any(|&k| k > 0) {
        return Some("it lists boards where both armies have pieces, or neither".into());
    }
    None
}

impl Enumerate for LineEnumerator {
    fn optimum(&self, problem: &Problem) -> Result<(usize, f64), SolveError> {
        let start = Instant::now();
        let engine = LineEngine::on(self.jobs);
        let run = engine.optimise(Climb {
            problem,
            limits: &RunLimits::default(),
            on_progress: &mut |_| {},
        })?;
        let optimum = run.outcome.optimum.ok_or_else(|| {
            let why = run.outcome.reason.unwrap_or_else(|| "no answer".into());
            SolveError::from(EngineError::Unfinished(format!(
                "the line engine found no optimum: {why}"
            )))
        })?;
        Ok((optimum, start.elapsed().as_secs_f64()))
    }

    fn enumerate(&self, request: &Request, limits: &Limits, on_found: OnFound<'_>) -> Enumerated {
        enumerate(self.jobs, request, limits, on_found)
    }
}

/// Lists `request`'s boards with the line engine on `jobs` threads until done or `limits`
/// say stop, calling `on_found` for each as it is counted.
///
/// # Errors
/// A request the engine cannot answer ([`refusal`]), a symmetry group too large to list, or
/// a board the validator rejects (an engine bug).
pub fn enumerate(
    jobs: usize,
    request: &Request,
    limits: &Limits,
    on_found: OnFound<'_>,
) -> Enumerated {
    let start = Instant::now();
    let solver = LineEngine::on(jobs).name();
    if let Some(why) = refusal(request) {
        return Err(SolveError::from(EngineError::Unsupported(format!(
            "the line engine cannot list these boards: {why}; use --engine sat"
        ))));
    }
    let problem = &request.problem;
    let demands = problem.demands(request.n);
    let group = SymmetryGroup::bounded(&problem.rules, &demands)
        .map_err(|e| SolveError::from(EngineError::Request(e.to_string())))?;
    let layout = &problem.rules.layout;
    let (white, black) = (demands[0], demands[1]);
    let (stopped, patterns) = if white == 0 {
        // No queens: the empty board is the one board (the labelling needs m ≥ 1).
        let empty = pq_lines::Witness {
            white_rows: 0,
            white_cols: 0,
            white: Vec::new(),
            black: Vec::new(),
        };
        (None, vec![empty])
    } else {
        let board = board(problem).expect("checked by refusal()");
        let asked = || limits.should_stop();
        let settings = Settings {
            jobs,
            deadline: limits.deadline(),
            asked_to_stop: &asked,
            unit_budget: None,
        };
        let (answer, mut patterns) =
            pq_lines::enumerate(&board, Demand { white, black }, &settings);
        // The threads finish pairs in any order: sorted, the boards come out in one order
        // whatever `--jobs` says.
        patterns.sort_by(|a, b| {
            let key = |w: &pq_lines::Witness| (w.white_rows, w.white_cols);
            (key(a), &a.white, &a.black).cmp(&(key(b), &b.white, &b.black))
        });
        let stopped =
            matches!(answer.verdict, Verdict::Unknown(_)).then(|| limits.unknown_reason());
        (stopped, patterns)
    };
    let mut summary = Summary {
        cubes: 1,
        stopped,
        ..Summary::default()
    };
    // The engine meets one pair of each orbit of its own group, which on the torus is
    // larger than the problem's (the multipliers u with gcd(u, d) = 1): each board met is
    // closed under the engine's generators, so every orbit of the problem's group in it is
    // counted, once, whichever of its members the search happened to meet.
    let generators = if white == 0 {
        Vec::new()
    } else {
        let board = board(problem).expect("checked by refusal()");
        pq_lines::symmetry::Group::of(&board, white == black).cell_generators()
    };
    let mut seen: HashSet<Placement> = HashSet::new();
    'patterns: for pattern in &patterns {
        for whites in subsets(&pattern.white, white) {
            for blacks in subsets(&pattern.black, black) {
                let mut board = Placement::empty(layout);
                for (group, cells) in [(0, &whites), (1, &blacks)] {
                    for &(r, c) in cells {
                        board.set(r, c, Some(group));
                    }
                }
                let mut queue = vec![group.canonical(&board)];
                while let Some(canonical) = queue.pop() {
                    if !seen.insert(canonical.clone()) {
                        continue;
                    }
                    for g in &generators {
                        let moved = apply(g, &canonical, layout);
                        queue.push(group.canonical(&moved));
                    }
                    check(&canonical, request, &solver)?;
                    let images = images(group.symmetries(), &canonical);
                    let found = match request.up_to {
                        UpTo::Symmetry => vec![Found {
                            orbit_size: images.len(),
                            placement: canonical,
                        }],
                        UpTo::Total => (images.into_iter())
                            .map(|placement| Found {
                                placement,
                                orbit_size: 1,
                            })
                            .collect(),
                    };
                    for f in found {
                        summary.count += 1;
                        summary.total_boards += f.orbit_size;
                        summary.seconds = start.elapsed().as_secs_f64();
                        on_found(&f, &summary);
                        if limit_reached(request, &summary) {
                            break 'patterns;
                        }
                    }
                }
            }
        }
    }
    summary.complete = summary.stopped.is_none() && !limit_reached(request, &summary);
    summary.seconds = start.elapsed().as_secs_f64();
    Ok(summary)
}

/// The image of `board` under one of the engine's symmetries.
fn apply(g: &pq_lines::symmetry::CellMap, board: &Placement, layout: &Layout) -> Placement {
    let mut out = Placement::empty(layout);
    for r in 0..board.rows {
        for c in 0..board.cols {
            if let Some(piece) = board.get(r, c) {
                let (r2, c2) = g.cells[r * board.cols + c];
                out.set(r2, c2, Some(if g.swap { 1 - piece } else { piece }));
            }
        }
    }
    out
}

/// Every `k`-element subset of `cells`, in lexicographic order of positions.
fn subsets(cells: &[(usize, usize)], k: usize) -> Vec<Vec<(usize, usize)>> {
    let mut out = Vec::new();
    let mut pick: Vec<usize> = (0..k).collect();
    if k > cells.len() {
        return out;
    }
    loop {
        out.push(pick.iter().map(|&i| cells[i]).collect());
        // The rightmost index that can still move right, moved, and those after it reset.
        let Some(i) = (0..k).rev().find(|&i| pick[i] < cells.len() - k + i) else {
            return out;
        };
        pick[i] += 1;
        for j in i + 1..k {
            pick[j] = pick[j - 1] + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sat::enumerate::enumerate as sat_enumerate;

    fn count(request: &Request, lines: bool) -> (usize, usize) {
        let summary = if lines {
            enumerate(2, request, &Limits::none(), &mut |_, _| {}).unwrap()
        } else {
            sat_enumerate(request, &Limits::none(), &mut |_, _| {}).unwrap()
        };
        assert!(summary.complete);
        (summary.count, summary.total_boards)
    }

    #[test]
    fn subsets_are_every_choice_once() {
        let cells: Vec<(usize, usize)> = (0..5).map(|i| (i, 0)).collect();
        let all = subsets(&cells, 2);
        assert_eq!(all.len(), 10);
        let distinct: HashSet<_> = all.iter().collect();
        assert_eq!(distinct.len(), 10);
        assert_eq!(subsets(&cells, 0), vec![Vec::<(usize, usize)>::new()]);
        assert!(subsets(&cells, 6).is_empty());
    }

    #[test]
    fn the_line_engine_counts_what_the_sat_path_counts() {
        // The optimum and one past it on boards 1..6 (and one below it up to 5), both ways
        // of counting, against the SAT path's enumeration with its blocking clauses.
        for d in 1..=6 {
            let problem = Problem::peaceable_queens(d);
            let a = pq_solve::known::known_optimum(d).unwrap();
            let below = if d <= 5 { a.saturating_sub(1) } else { a };
            for n in below..=a + 1 {
                for up_to in [UpTo::Symmetry, UpTo::Total] {
                    let request = Request::new(problem.clone(), n, up_to, false);
                    assert_eq!(
                        count(&request, true),
                        count(&request, false),
                        "d = {d}, n = {n}, {up_to:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_torus_and_unequal_armies_agree_too() {
        let mut torus = Problem::peaceable_queens(5);
        torus.set("torus", "true").unwrap();
        let mut unequal = Problem::peaceable_queens(5);
        unequal.set("white", "2").unwrap();
        for (problem, n) in [(torus, 2), (unequal, 3)] {
            let request = Request::new(problem, n, UpTo::Symmetry, false);
            assert_eq!(count(&request, true), count(&request, false));
        }
    }

    #[test]
    fn the_torus_counts_orbits_of_its_own_group() {
        // The engine prunes the 7 × 7 torus under its multipliers u = 2, 3 as well; brute
        // force over every placement gives 69 orbits and 42,042 boards.
        let mut torus = Problem::peaceable_queens(7);
        torus.set("torus", "true").unwrap();
        let request = Request::new(torus, 4, UpTo::Symmetry, false);
        let summary = enumerate(2, &request, &Limits::none(), &mut |_, _| {}).unwrap();
        assert!(summary.complete);
        assert_eq!((summary.count, summary.total_boards), (69, 42_042));
    }

    #[test]
    fn the_boards_come_in_one_order_whatever_the_threads() {
        let request = Request::new(Problem::peaceable_queens(7), 6, UpTo::Symmetry, false);
        let listed = |jobs| {
            let mut boards = Vec::new();
            enumerate(jobs, &request, &Limits::none(), &mut |f, _| {
                boards.push(f.placement.clone());
            })
            .unwrap();
            boards
        };
        let one = listed(1);
        assert!(one.len() > 100, "{}", one.len());
        assert_eq!(one, listed(3));
    }

    #[test]
    fn what_it_cannot_list_is_refused_by_name() {
        let maximal = Request::new(Problem::peaceable_queens(4), 2, UpTo::Symmetry, true);
        let e = enumerate(1, &maximal, &Limits::none(), &mut |_, _| {}).unwrap_err();
        assert!(e.to_string().contains("maximal"), "{e}");
    }
}
