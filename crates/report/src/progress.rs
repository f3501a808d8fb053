//! Progress on stderr while a long run works: a live line (indicatif) when stderr is a
//! terminal, one plain line per finished step otherwise, so that logs stay greppable.
//!
//! How much is said there is set once, from the global `--quiet` / `-v` options
//! ([`set_verbosity`]): every progress or diagnostic line goes through [`note!`] (silenced by
//! `--quiet`) or [`detail!`] (only with `-v`). Results (stdout), errors and warnings about
//! wrong answers are never silenced.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use pq_engine::capability::climb::{Progress, Step};

use crate::ProgressMode;

/// How much pq-sat says on stderr besides its results and errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verbosity {
    /// `--quiet`: no progress and no diagnostic chatter.
    Quiet = 0,
    /// The default: progress lines and short notes.
    Normal = 1,
    /// `-v`: also each step as it starts, and sizes of what is built.
    Verbose = 2,
}

static VERBOSITY: AtomicU8 = AtomicU8::new(Verbosity::Normal as u8);

/// Sets the verbosity for the whole run (from the command line, before any job starts).
pub fn set_verbosity(v: Verbosity) {
    VERBOSITY.store(v as u8, Ordering::Relaxed);
}

/// The verbosity set by [`set_verbosity`].
pub fn verbosity() -> Verbosity {
    match VERBOSITY.load(Ordering::Relaxed) {
        0 => Verbosity::Quiet,
        1 => Verbosity::Normal,
        _ => Verbosity::Verbose,
    }
}

/// Writes a line on stderr when the verbosity is at least `level` (what [`note!`] and
/// [`detail!`] expand to).
#[doc(hidden)]
pub fn say(level: Verbosity, line: std::fmt::Arguments<'_>) {
    if verbosity() >= level {
        eprintln!("{line}");
    }
}

/// A progress or diagnostic line on stderr, unless `--quiet`.
#[doc(hidden)]
#[macro_export]
macro_rules! __note {
    ($($arg:tt)*) => {
        $crate::progress::say($crate::progress::Verbosity::Normal, format_args!($($arg)*))
    };
}

/// A line of detail on stderr, only with `-v`.
#[doc(hidden)]
#[macro_export]
macro_rules! __detail {
    ($($arg:tt)*) => {
        $crate::progress::say($crate::progress::Verbosity::Verbose, format_args!($($arg)*))
    };
}

pub use crate::{__detail as detail, __note as note};

/// Shows optimisation steps as they start and finish.
pub struct Reporter {
    mode: ProgressMode,
    bar: Option<ProgressBar>,
    /// Who solves each step, for the live line.
    solvers: String,
}

impl Reporter {
    /// A reporter in `mode` (none under `--quiet`) that names `solvers` on its live line.
    pub fn new(mode: ProgressMode, solvers: String) -> Reporter {
        // --quiet wins over --progress: nothing but the answer.
        let mode = match verbosity() {
            Verbosity::Quiet => ProgressMode::None,
            _ => mode,
        };
        let bar = (mode == ProgressMode::Auto && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::new_spinner();
            bar.set_style(
                ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}")
                    .expect("the template is valid"),
            );
            bar.enable_steady_tick(Duration::from_millis(120));
            bar
        });
        Reporter { mode, bar, solvers }
    }

    /// Takes one event from the optimiser.
    pub fn on(&self, event: Progress) {
        match event {
            Progress::Trying(n) => {
                let message = format!("n = {n}: solving ({})", self.solvers);
                match (&self.bar, self.mode) {
                    (_, ProgressMode::None) => {}
                    (Some(bar), _) => bar.set_message(message),
                    // Without a live line, -v shows each step as it starts.
                    (None, _) => detail!("pq-sat: {message}"),
                }
            }
            Progress::Done(step) => {
                let line = step_line(step);
                match (&self.bar, self.mode) {
                    (_, ProgressMode::None) => {}
                    // Printed above the live line, which stays at the bottom.
                    (Some(bar), _) => bar.println(line),
                    (None, _) => eprintln!("{line}"),
                }
            }
        }
    }
}

impl Drop for Reporter {
    // Removes the live line, so the answer is printed on a clean terminal.
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// One finished step: `pq-sat: n = 10: unsat (kissat, 0.72 s)`.
pub fn step_line(step: &Step) -> String {
    let extra = match step.witness_n {
        Some(m) if m > step.n => format!("; the board has {m} of each"),
        _ => String::new(),
    };
    let by = step.solver.as_deref().unwrap_or(step.method.name());
    format!(
        "pq-sat: n = {}: {} ({by}, {:.2} s{extra})",
        step.n,
        step.status.name(),
        step.seconds
    )
}

/// Shows `conquer`'s cubes as they finish: how many are done of how many, the time
/// elapsed, and the time left estimated from the mean CPU time per cube solved in this run
/// (a cube's wall time where it has none), spread over the workers: a pause (`kill
/// -STOP`) or a busy machine does not inflate it, though the cubes left may be lighter
/// or heavier than those done.
pub struct CubeProgress {
    mode: ProgressMode,
    bar: Option<ProgressBar>,
    total: usize,
    jobs: usize,
    start: std::time::Instant,
    state: std::sync::Mutex<(usize, usize, f64)>,
}

impl CubeProgress {
    /// `done` of the `total` cubes are decided already; `jobs` workers share the rest.
    pub fn new(mode: ProgressMode, total: usize, done: usize, jobs: usize) -> CubeProgress {
        let mode = match verbosity() {
            Verbosity::Quiet => ProgressMode::None,
            _ => mode,
        };
        let bar = (mode == ProgressMode::Auto && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::new(total as u64);
            bar.set_style(
                ProgressStyle::with_template("[{elapsed_precise}] {bar:30} {msg}")
                    .expect("the template is valid"),
            );
            bar.set_position(done as u64);
            bar.enable_steady_tick(Duration::from_millis(250));
            bar
        });
        if mode != ProgressMode::None && done > 0 {
            note!("pq-sat: {done} of {total} cubes decided by earlier runs; solving the rest");
        }
        CubeProgress {
            mode,
            bar,
            total,
            jobs: jobs.max(1),
            start: std::time::Instant::now(),
            state: std::sync::Mutex::new((done, 0, 0.0)),
        }
    }

    /// One cube's result, just written.
    pub fn done(&self, r: &pq_engine::cube::CubeResult) {
        let mut state = self.state.lock().expect("no panics while holding it");
        state.0 += 1;
        state.1 += 1;
        state.2 += r.cost();
        let (done, now, cost) = *state;
        let left = self.total.saturating_sub(done);
        let eta = cost / now as f64 * left as f64 / self.jobs as f64;
        let line = format!(
            "pq-sat: cubes {done}/{} done, {:.1} s elapsed, about {:.1} s left (cube {}: {}, {:.2} s)",
            self.total,
            self.start.elapsed().as_secs_f64(),
            eta,
            r.id,
            r.status.name(),
            r.seconds
        );
        match (&self.bar, self.mode) {
            (_, ProgressMode::None) => {}
            (Some(bar), _) => {
                bar.set_position(done as u64);
                bar.set_message(format!(
                    "{done}/{} cubes, about {eta:.0} s left",
                    self.total
                ));
            }
            (None, _) => eprintln!("{line}"),
        }
    }
}

impl Drop for CubeProgress {
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use pq_engine::capability::Status;
    use pq_engine::cube::CubeResult;

    fn result(seconds: f64, cpu_seconds: Option<f64>) -> CubeResult {
        CubeResult {
            id: 1,
            status: Status::Unsat,
            seconds,
            cpu_seconds,
            solver: "x".into(),
            verified: None,
            proof: None,
            proof_record: None,
            model: None,
            worker: "w".into(),
            formula_sha256: String::new(),
            cube_sha256: String::new(),
        }
    }

    #[test]
    fn a_cube_costs_its_cpu_time_where_it_has_one() {
        // A cube paused for 600 s of its 610 s of wall time used 10 s of CPU.
        assert_eq!(result(610.0, Some(10.0)).cost(), 10.0);
        assert_eq!(result(610.0, None).cost(), 610.0);
    }
}
