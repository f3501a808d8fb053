//! Progress on stderr while a long run works: a live line (indicatif) when stderr is a
//! terminal, one plain line per finished step otherwise, so that logs stay greppable.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use pq_engine::optimise::{Progress, Step};

use crate::cli::ProgressMode;

/// Shows optimisation steps as they start and finish.
pub struct Reporter {
    mode: ProgressMode,
    bar: Option<ProgressBar>,
    /// Who solves each step, for the live line.
    solvers: String,
}

impl Reporter {
    pub fn new(mode: ProgressMode, solvers: String) -> Reporter {
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
                if let Some(bar) = &self.bar {
                    bar.set_message(format!("n = {n}: solving ({})", self.solvers));
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
