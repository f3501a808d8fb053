//! `pq-sat cube --estimate`: the cost of conquering a cube directory, predicted from a
//! random sample of its cubes before anything else is run.
//!
//! The sample (uniform, without replacement, from a seeded generator so that a run can be
//! repeated) is solved one cube at a time, each as the formula plus the cube's literals as
//! unit clauses, the way one worker solves one cube. Each cube is priced by its CPU time
//! (this thread's and its solver's and checker's processes', [`pq_solve::cpu`]), so that an
//! estimate made beside a running bundle is not inflated by the sharing. The total CPU time
//! is predicted as `N` times the sample's mean; the wall time on `w` workers as the makespan of
//! longest-processing-time-first scheduling (Graham, "Bounds on multiprocessing timing
//! anomalies", SIAM J. Appl. Math. 1969) of `N` cube times made by repeating the sampled
//! ones in proportion. The 95% intervals are percentile bootstrap intervals (Efron &
//! Tibshirani, *An introduction to the bootstrap*, 1993): the same prediction on samples
//! drawn with replacement from the sample. They cover the sampling error only: a cube much
//! harder than every sampled one, which sets the wall time when there are about as many
//! workers as cubes, is invisible to any sample.

use std::path::Path;
use std::time::Duration;

use serde::Serialize;

use pq_encode::{dimacs, header};
use pq_solve::backend::Backend;
use pq_solve::control::Limits;
use pq_solve::cpu::CpuClock;
use pq_solve::error::SolveError;

use super::{CubeError, Manifest};
use crate::capability::Status;
use crate::sat::pipeline::solve_formula;

/// The worker counts of the prediction table.
pub const WORKERS: [usize; 5] = [1, 2, 16, 128, 1024];
/// The confidence level of the intervals.
pub(crate) const CONFIDENCE: f64 = 0.95;

/// How to sample.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// How many cubes to solve (all of them when there are fewer).
    pub sample: usize,
    /// The seed of the sample and of the bootstrap.
    pub seed: u64,
    /// A time limit per cube (a cube that reaches it counts with the limit: the prediction
    /// is then a lower bound).
    pub timeout: Option<Duration>,
}

/// One sampled cube's result.
#[derive(Clone, Debug, Serialize)]
pub struct Sampled {
    /// The cube's id.
    pub id: usize,
    /// SAT, UNSAT or unknown.
    pub status: Status,
    /// Wall-clock seconds, one cube at a time.
    pub seconds: f64,
    /// CPU seconds (what the prediction uses).
    pub cpu_seconds: f64,
}

/// A prediction and its bootstrap interval, in seconds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Interval {
    /// The prediction from the sample itself.
    pub estimate: f64,
    /// The interval's lower end.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
}

/// The wall time predicted for a number of workers.
#[derive(Clone, Debug, Serialize)]
pub struct Wall {
    /// Workers solving cubes at once.
    pub workers: usize,
    /// Longest-first makespan.
    pub seconds: Interval,
}

/// What `--estimate` predicts.
#[derive(Clone, Debug, Serialize)]
pub struct Estimate {
    /// The number of units of work: the directory's cubes, or the line engine's row sets
    /// or row colourings.
    pub cubes: usize,
    /// What one unit is: "cube", "row set" (two armies on the line engine) or "row
    /// colouring" (three or more armies).
    pub unit: String,
    /// The solver that solved the sample.
    pub solver: String,
    /// Each UNSAT cube's proof was written and checked by the independent checker
    /// (`--check-unsat`): the times are those of a checked proof, not of a solve.
    pub proofs_checked: bool,
    /// The seed.
    pub seed: u64,
    /// The sampled cubes, in the order solved.
    pub sample: Vec<Sampled>,
    /// The total CPU time of all cubes, one core each.
    pub total_cpu: Interval,
    /// The wall time for each of [`WORKERS`].
    pub wall: Vec<Wall>,
    /// The intervals' level.
    pub confidence: f64,
    /// Bootstrap resamples behind the intervals.
    pub resamples: usize,
    /// A sampled cube was SAT: the formula is satisfiable (conquering stops at the first
    /// SAT cube, so the prediction, made for all cubes, is an upper bound).
    pub sat: Option<usize>,
    /// Some sampled cube reached the time limit: every prediction is a lower bound.
    pub lower_bound: bool,
}

/// A small, seedable generator (SplitMix64: Steele, Lea & Flood, "Fast splittable
/// pseudorandom number generators", OOPSLA 2014): the sample must be repeatable from
/// its seed, and nothing here needs more.
pub(crate) struct SplitMix(pub(crate) u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0); the modulo bias is below 2^-40 for every n used here.
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// `k` distinct indices of `0..n`, uniformly (a partial Fisher–Yates shuffle).
pub(crate) fn sample_ids(n: usize, k: usize, rng: &mut SplitMix) -> Vec<usize> {
    let mut all: Vec<usize> = (0..n).collect();
    let k = k.min(n);
    for i in 0..k {
        let j = i + rng.below(n - i);
        all.swap(i, j);
    }
    all.truncate(k);
    all
}

/// Solves a sample of the cubes in `dir` with `backend`, one at a time (`on_cube` sees each
/// result), and predicts the cost of all of them.
///
/// # Errors
/// A directory that is not a cube directory, a formula file whose SHA-256 is not the
/// manifest's, a solver error, or a SAT model that fails validation.
pub fn estimate(
    dir: &Path,
    backend: &dyn Backend,
    settings: &Settings,
    on_cube: &mut dyn FnMut(&Sampled, usize),
) -> Result<Estimate, CubeError> {
    let manifest = Manifest::read(dir)?;
    let path = dir.join(&manifest.formula);
    let bytes = std::fs::read(&path).map_err(SolveError::io(&path))?;
    if pq_io::hashing::sha256_hex(&bytes) != manifest.sha256 {
        return Err(CubeError::Invalid(format!(
            "{}: its SHA-256 is not the manifest's: the formula changed since the cubes were made",
            path.display()
        )));
    }
    let formula = dimacs::parse(&bytes[..])
        .map_err(|e| CubeError::Invalid(format!("{}: {e}", path.display())))?;
    let (problem, n) = header::subject(&formula);
    let mut rng = SplitMix(settings.seed);
    let ids = sample_ids(manifest.cubes.len(), settings.sample, &mut rng);
    let mut sample = Vec::with_capacity(ids.len());
    for (k, i) in ids.iter().enumerate() {
        let cube = &manifest.cubes[*i];
        let mut with_cube = formula.clone();
        for &l in &cube.lits {
            with_cube.cnf.add_unit(
                rustsat::types::Lit::from_ipasir(l).expect("Manifest::read checks literals"),
            );
        }
        // Each cube has its own time limit, counted from its start.
        let limits = Limits::timeout(settings.timeout);
        let cpu = CpuClock::start();
        let outcome = solve_formula(
            problem.as_ref(),
            n.unwrap_or(0),
            &with_cube,
            backend,
            &limits,
        )?;
        let status = outcome.status;
        let s = Sampled {
            id: cube.id,
            status,
            seconds: outcome.seconds,
            cpu_seconds: cpu.seconds(),
        };
        on_cube(&s, k + 1);
        sample.push(s);
    }
    Ok(predict(
        manifest.cubes.len(),
        "cube",
        backend.name(),
        backend.checks_unsat(),
        settings.seed,
        sample,
        &mut rng,
    ))
}

/// The prediction for `units` units of work (cubes, or the line engine's row sets) from
/// the `sample` solved by `solver`, its intervals bootstrapped with `rng` (the generator
/// that drew the sample, so that one seed repeats the whole estimate).
pub(crate) fn predict(
    units: usize,
    unit: &str,
    solver: String,
    proofs_checked: bool,
    seed: u64,
    sample: Vec<Sampled>,
    rng: &mut SplitMix,
) -> Estimate {
    let times: Vec<f64> = sample.iter().map(|s| s.cpu_seconds).collect();
    let n_cubes = units;
    // Enough resamples for stable 2.5% and 97.5% percentiles, fewer when each
    // resample schedules very many cubes.
    let resamples = (20_000_000 / n_cubes.max(1)).clamp(100, 1000);
    let predict = |times: &[f64]| -> Vec<f64> {
        let population = expand(times, n_cubes);
        let mut out = vec![population.iter().sum()];
        out.extend(WORKERS.iter().map(|&w| lpt_makespan(&population, w)));
        out
    };
    let point = if times.is_empty() {
        vec![0.0; WORKERS.len() + 1]
    } else {
        predict(&times)
    };
    let mut boot: Vec<Vec<f64>> = vec![Vec::with_capacity(resamples); WORKERS.len() + 1];
    if !times.is_empty() {
        for _ in 0..resamples {
            let drawn: Vec<f64> = (0..times.len())
                .map(|_| times[rng.below(times.len())])
                .collect();
            for (slot, v) in boot.iter_mut().zip(predict(&drawn)) {
                slot.push(v);
            }
        }
    }
    let interval = |k: usize| {
        let mut v = boot[k].clone();
        v.sort_by(f64::total_cmp);
        let at = |q: f64| {
            v.get(((q * v.len() as f64) as usize).min(v.len().saturating_sub(1)))
                .copied()
                .unwrap_or(point[k])
        };
        Interval {
            estimate: point[k],
            low: at((1.0 - CONFIDENCE) / 2.0),
            high: at(f64::midpoint(1.0, CONFIDENCE)),
        }
    };
    Estimate {
        cubes: n_cubes,
        unit: unit.to_string(),
        solver,
        proofs_checked,
        seed,
        total_cpu: interval(0),
        wall: (WORKERS.iter().enumerate())
            .map(|(k, &workers)| Wall {
                workers,
                seconds: interval(k + 1),
            })
            .collect(),
        confidence: CONFIDENCE,
        resamples,
        sat: sample
            .iter()
            .find(|s| s.status == Status::Sat)
            .map(|s| s.id),
        lower_bound: sample.iter().any(|s| s.status == Status::Unknown),
        sample,
    }
}

/// `n` cube times from the sampled `times`, each repeated in proportion (the first
/// `n mod k` of them, in sorted order from the longest, once more), longest first.
fn expand(times: &[f64], n: usize) -> Vec<f64> {
    let mut sorted = times.to_vec();
    sorted.sort_by(|a, b| b.total_cmp(a));
    let k = sorted.len();
    let mut out = Vec::with_capacity(n);
    for (i, &t) in sorted.iter().enumerate() {
        let copies = n / k + usize::from(i < n % k);
        out.extend(std::iter::repeat_n(t, copies));
    }
    out
}

/// The makespan of longest-processing-time-first scheduling of `times` (sorted longest
/// first) on `workers` machines: each job goes to the machine that frees up first.
fn lpt_makespan(times: &[f64], workers: usize) -> f64 {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    if workers >= times.len() {
        return times.first().copied().unwrap_or(0.0);
    }
    // Loads as integer nanoseconds, so that the heap can order them.
    let mut loads: BinaryHeap<Reverse<u64>> = (0..workers).map(|_| Reverse(0)).collect();
    for &t in times {
        let Reverse(least) = loads.pop().expect("at least one worker");
        loads.push(Reverse(least + (t * 1e9) as u64));
    }
    loads.into_iter().map(|Reverse(l)| l).max().unwrap_or(0) as f64 / 1e9
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_are_distinct_repeatable_and_capped() {
        let a = sample_ids(100, 10, &mut SplitMix(7));
        assert_eq!(a, sample_ids(100, 10, &mut SplitMix(7)));
        assert_ne!(a, sample_ids(100, 10, &mut SplitMix(8)));
        let mut sorted = a.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 10);
        assert!(a.iter().all(|&i| i < 100));
        let mut all = sample_ids(5, 50, &mut SplitMix(1));
        all.sort_unstable();
        assert_eq!(all, vec![0, 1, 2, 3, 4]);
    }

    #[test]
    fn longest_first_scheduling_and_expansion() {
        // 3, 3, 2, 2, 2 on two machines: LPT gives 3+2+2 | 3+2 = 7.
        assert_eq!(lpt_makespan(&[3.0, 3.0, 2.0, 2.0, 2.0], 2), 7.0);
        assert_eq!(lpt_makespan(&[3.0, 3.0, 2.0, 2.0, 2.0], 1), 12.0);
        assert_eq!(lpt_makespan(&[3.0, 1.0], 16), 3.0);
        let e = expand(&[1.0, 5.0], 5);
        assert_eq!(e, vec![5.0, 5.0, 5.0, 1.0, 1.0]);
        assert_eq!(expand(&[2.0], 3).iter().sum::<f64>(), 6.0);
    }
}
