//! The worker pool every engine's step runs on: independent units (row sets, row
//! colourings, queens' placements) taken from one shared queue by `jobs` threads, the
//! first solution stopping them all.
//!
//! **A budgeted first pass.** A step's units differ wildly in cost: a few take minutes
//! while the rest take milliseconds, and when the step has a solution it may sit behind one
//! of those few (Dudeney's 15 × 15 board with 94 knights: 4,696 s without a board, units
//! taken in order; 7 s with a first pass of a million nodes a unit). With a budget `b` the
//! pool first searches every unit for at most `b` nodes, then the units that ran out to
//! their end. It is the restart remedy for heavy-tailed search costs of Gomes, Selman &
//! Kautz, "Boosting combinatorial search through randomization" (AAAI 1998), with the
//! randomization replaced by the order of independent units, and one restart rather than a
//! growing sequence: a unit cut short is searched again from its start, so each restart
//! costs an unsatisfiable step the budget again for every unit that outgrows it (1.3% more
//! nodes at 13 × 13 with 70 knights, where budgets growing eightfold cost 53% more).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::{Settings, Stats, Stop};

/// One worker's search, reused for unit after unit.
pub(crate) trait UnitSearch {
    /// What a solution looks like.
    type Witness;

    /// Searches unit `i` to its end (`Ok(None)`: it has no solution), stopping with
    /// [`Stop::Budget`] once `budget` more nodes have been visited.
    fn search(&mut self, i: usize, budget: Option<u64>) -> Result<Option<Self::Witness>, Stop>;

    /// Nodes and leaves visited so far, for [`Stats`].
    fn counts(&self) -> (u64, u64);
}

/// How a step ended.
pub(crate) enum Outcome<W> {
    /// A unit has a solution.
    Found(W),
    /// Every unit was searched to its end without one.
    Exhausted,
    /// Stopped from outside before an answer.
    Stopped(Stop),
}

impl<W> Outcome<W> {
    /// The outcome as an engine's verdict: `sat` wraps a solution, `unsat` and `unknown`
    /// name the other two ends.
    pub(crate) fn verdict<V>(
        self,
        sat: impl FnOnce(W) -> V,
        unsat: V,
        unknown: impl FnOnce(Stop) -> V,
    ) -> V {
        match self {
            Outcome::Found(w) => sat(w),
            Outcome::Exhausted => unsat,
            Outcome::Stopped(stop) => unknown(stop),
        }
    }
}

/// Searches the units `ids` on `settings.jobs` threads, first for at most
/// `settings.unit_budget` nodes each and then those that ran out to their end (`None`: one
/// pass to the end), calling `finished(i)` as each unit `i` is searched to its end without
/// a solution (from the worker threads, in any order). `start()` makes a worker's search,
/// which polls `found` (raised here by the first worker with an answer) to stop.
pub(crate) fn run<S, W>(
    ids: &[usize],
    settings: &Settings,
    finished: &(dyn Fn(usize) + Sync),
    found: &AtomicBool,
    start: impl Fn() -> S + Sync,
) -> (Outcome<W>, Stats)
where
    S: UnitSearch<Witness = W>,
    W: Send,
{
    let jobs = settings.jobs.max(1);
    let mut stats = Stats {
        jobs,
        row_sets: ids.len(),
        ..Stats::default()
    };
    let result: Mutex<Option<Outcome<W>>> = Mutex::new(None);
    let mut pending = ids.to_vec();
    let mut budget = settings.unit_budget;
    while !pending.is_empty() {
        let next = AtomicUsize::new(0);
        let cut: Mutex<Vec<usize>> = Mutex::new(Vec::new());
        let worker = || {
            let mut search = start();
            let mut done = 0;
            while let Some(&i) = pending.get(next.fetch_add(1, Ordering::Relaxed)) {
                let outcome = match search.search(i, budget) {
                    Ok(None) => {
                        done += 1;
                        finished(i);
                        continue;
                    }
                    Err(Stop::Budget) => {
                        lock(&cut).push(i);
                        continue;
                    }
                    Ok(Some(w)) => Outcome::Found(w),
                    Err(Stop::Found) => break,
                    Err(stop) => Outcome::Stopped(stop),
                };
                found.store(true, Ordering::Relaxed);
                lock(&result).get_or_insert(outcome);
                break;
            }
            let (nodes, leaves) = search.counts();
            (nodes, leaves, done)
        };
        stats.add(run_workers(jobs, worker));
        if found.load(Ordering::Relaxed) {
            break;
        }
        pending = cut
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // The next pass takes the units in the order the caller gave them.
        let rank: std::collections::HashMap<usize, usize> =
            ids.iter().enumerate().map(|(k, &i)| (i, k)).collect();
        pending.sort_by_key(|i| rank[i]);
        budget = None;
    }
    let outcome = result
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    (outcome.unwrap_or(Outcome::Exhausted), stats)
}

/// Runs `worker` on `jobs` threads and adds up what each reports: (nodes, pairs or
/// leaves, units done). One job runs on the caller's thread, so that its CPU clock (one
/// cube on one conquer worker, `pq_solve::cpu`) counts the search and a cube of a few
/// milliseconds pays no thread start.
pub(crate) fn run_workers(jobs: usize, worker: impl Fn() -> Counts + Sync) -> Counts {
    if jobs <= 1 {
        return worker();
    }
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs).map(|_| scope.spawn(&worker)).collect();
        handles.into_iter().fold((0, 0, 0), |(n, p, d), handle| {
            let (nodes, pairs, done) = handle.join().expect("a line-engine worker panicked");
            (n + nodes, p + pairs, d + done)
        })
    })
}

/// What one worker reports: nodes searched, leaf pairs reached, units searched to the end.
pub(crate) type Counts = (u64, u64, usize);

/// Why a unit's search stops, asked every `every` nodes (a power of two; each search
/// counts its own `nodes`): another worker's solution (`found`), the caller, the deadline,
/// or the unit's node budget `limit`.
#[inline]
pub(crate) fn poll(
    nodes: u64,
    every: u64,
    found: &std::sync::atomic::AtomicBool,
    settings: &crate::Settings,
    limit: u64,
) -> Result<(), crate::Stop> {
    use crate::Stop;
    if nodes & (every - 1) != 0 {
        return Ok(());
    }
    if found.load(std::sync::atomic::Ordering::Relaxed) {
        return Err(Stop::Found);
    }
    if (settings.asked_to_stop)() {
        return Err(Stop::Asked);
    }
    if settings
        .deadline
        .is_some_and(|d| std::time::Instant::now() >= d)
    {
        return Err(Stop::Deadline);
    }
    if nodes >= limit {
        return Err(Stop::Budget);
    }
    Ok(())
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Unit `i` costs `cost[i]` nodes and has a solution when `solution[i]`.
    struct Toy<'a> {
        cost: &'a [u64],
        solution: &'a [bool],
        nodes: u64,
        stop: &'a AtomicBool,
    }

    impl UnitSearch for Toy<'_> {
        type Witness = usize;
        fn search(&mut self, i: usize, budget: Option<u64>) -> Result<Option<usize>, Stop> {
            if self.stop.load(Ordering::Relaxed) {
                return Err(Stop::Found);
            }
            let spend = budget.map_or(self.cost[i], |b| b.min(self.cost[i]));
            self.nodes += spend;
            if spend < self.cost[i] {
                return Err(Stop::Budget);
            }
            Ok(self.solution[i].then_some(i))
        }
        fn counts(&self) -> (u64, u64) {
            (self.nodes, 0)
        }
    }

    fn run_toy(cost: &[u64], solution: &[bool], budget: Option<u64>) -> (Option<usize>, Stats) {
        let ids: Vec<usize> = (0..cost.len()).collect();
        let done = Mutex::new(Vec::new());
        let found = AtomicBool::new(false);
        let settings = Settings {
            jobs: 1,
            deadline: None,
            asked_to_stop: &|| false,
            unit_budget: budget,
        };
        let (outcome, stats) = run(&ids, &settings, &|i| lock(&done).push(i), &found, || Toy {
            cost,
            solution,
            nodes: 0,
            stop: &found,
        });
        let found = match outcome {
            Outcome::Found(i) => Some(i),
            Outcome::Exhausted => None,
            Outcome::Stopped(stop) => panic!("stopped: {stop:?}"),
        };
        if found.is_none() {
            let mut done = done.into_inner().unwrap();
            done.sort_unstable();
            assert_eq!(done, ids, "every unit is finished exactly once");
        }
        (found, stats)
    }

    #[test]
    fn a_budget_gets_past_a_heavy_unit_to_the_solution() {
        let cost = [10, 1_000_000, 10, 10];
        let solution = [false, false, false, true];
        let (plain, plain_stats) = run_toy(&cost, &solution, None);
        let (budgeted, stats) = run_toy(&cost, &solution, Some(100));
        assert_eq!((plain, budgeted), (Some(3), Some(3)));
        assert_eq!(plain_stats.nodes, 1_000_030);
        assert_eq!(stats.nodes, 130, "the heavy unit is cut at 100 nodes");
    }

    #[test]
    fn an_unsatisfiable_step_finishes_every_unit_in_the_second_pass() {
        let cost = [5, 700, 50, 90_000, 3];
        let (found, stats) = run_toy(&cost, &[false; 5], Some(10));
        assert_eq!(found, None);
        assert_eq!(stats.row_sets_done, 5);
        // 700, 50 and 90,000 are cut at 10 nodes, then searched to their end.
        let wasted = 3 * 10;
        assert_eq!(stats.nodes, cost.iter().sum::<u64>() + wasted);
    }

    #[test]
    fn a_solution_found_in_a_later_pass_is_found() {
        let cost = [500, 10, 10];
        let solution = [true, false, false];
        let (found, _) = run_toy(&cost, &solution, Some(10));
        assert_eq!(found, Some(0));
    }
}
