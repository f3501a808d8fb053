//! When a solve must give up: a time limit, a stop request from whoever started it (a
//! portfolio member whose rival answered first), or an interrupt of the whole process
//! (Ctrl-C). Every backend polls the same [`Limits`], so all three stop every kind of solver.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::error::SolveError;

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Marks the process interrupted: every solve polling its [`Limits`] stops. Called by
/// `pq_solve::interrupt`, which also kills the external solvers.
pub(crate) fn set_interrupted() {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// True once `pq_solve::interrupt` has been called.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Clears the interrupt, for a program that goes on after one: the Python binding, once
/// every solve that KeyboardInterrupt stopped has returned. pq-sat itself never calls it,
/// since an interrupt ends the command.
pub fn clear_interrupt() {
    INTERRUPTED.store(false, Ordering::SeqCst);
}

/// [`SolveError::Interrupted`] once `pq_solve::interrupt` has been called: the one check every long
/// loop makes (a family's instances, a race's report, an enumeration, a certificate) so that
/// an interrupted job stops without writing what it has not finished. The binary turns that
/// error into exit code 130.
///
/// # Errors
///
/// [`SolveError::Interrupted`] after an interrupt.
pub fn check_interrupt() -> Result<(), SolveError> {
    if interrupted() {
        Err(SolveError::Interrupted)
    } else {
        Ok(())
    }
}

/// A stop request shared between the one who asks and the solves that listen.
#[derive(Clone, Debug, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    /// Asks every solve holding a clone of this to stop.
    pub fn request(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// True once [`Stop::request`] has been called on any clone.
    pub fn is_requested(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// The limits one solve runs under.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// The deadline and the limit it came from (kept for the message).
    deadline: Option<(Instant, Duration)>,
    stops: Vec<Stop>,
}

impl Limits {
    /// No limit but an interrupt.
    pub fn none() -> Limits {
        Limits::default()
    }

    /// A wall-clock limit counted from now.
    pub fn timeout(timeout: Option<Duration>) -> Limits {
        Limits::none().with_timeout(timeout)
    }

    /// These limits, also stopped by `stop`.
    pub fn with_stop(&self, stop: &Stop) -> Limits {
        let mut limits = self.clone();
        limits.stops.push(stop.clone());
        limits
    }

    /// These limits, with a wall-clock limit of `timeout` from now if that comes first.
    pub fn with_timeout(&self, timeout: Option<Duration>) -> Limits {
        let mut limits = self.clone();
        if let Some(t) = timeout {
            let candidate = (Instant::now() + t, t);
            if limits.deadline.is_none_or(|(d, _)| candidate.0 < d) {
                limits.deadline = Some(candidate);
            }
        }
        limits
    }

    /// The instant the wall-clock limit ends, `None` without one. Engines that keep their own
    /// clock take this instant rather than `now + remaining()`: an engine deadline computed
    /// from an earlier `now` falls before this one, and a stop there would be reported
    /// without the time limit as its reason.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline.map(|(d, _)| d)
    }

    /// Time left before the deadline (`Some(ZERO)` once it has passed), `None` without one.
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline
            .map(|(d, _)| d.saturating_duration_since(Instant::now()))
    }

    /// True when the solve should stop now.
    pub fn should_stop(&self) -> bool {
        self.stop_reason().is_some()
    }

    /// Why the solve should stop now, if it should.
    pub fn stop_reason(&self) -> Option<String> {
        if interrupted() {
            return Some("interrupted".to_string());
        }
        if self.stops.iter().any(Stop::is_requested) {
            return Some("stopped: another solver answered first".to_string());
        }
        match self.deadline {
            Some((d, t)) if Instant::now() >= d => {
                Some(format!("time limit of {:.1} s reached", t.as_secs_f64()))
            }
            _ => None,
        }
    }

    /// The reason to give with `unknown` after a solver stopped without an answer.
    pub fn unknown_reason(&self) -> String {
        self.stop_reason()
            .unwrap_or_else(|| "the solver stopped without an answer".to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_deadline_stop_and_tightening() {
        let none = Limits::none();
        assert!(!none.should_stop());
        assert_eq!(none.remaining(), None);

        let past = Limits::timeout(Some(Duration::ZERO));
        assert!(past.should_stop());
        assert!(past.unknown_reason().contains("time limit of 0.0 s"));

        // An engine that stops at `deadline()` gives the time limit as the reason, whatever
        // the clock read when it started (the race behind a flaky CLI test).
        let soon = Limits::timeout(Some(Duration::from_millis(2)));
        let end = soon.deadline().unwrap();
        while Instant::now() < end {}
        assert!(soon.unknown_reason().contains("time limit of 0.0 s"));

        let long = Limits::timeout(Some(Duration::from_secs(100)));
        let short = long.with_timeout(Some(Duration::from_secs(1)));
        assert!(short.remaining().unwrap() <= Duration::from_secs(1));
        // A looser limit never replaces a tighter one.
        let still_short = short.with_timeout(Some(Duration::from_secs(50)));
        assert!(still_short.remaining().unwrap() <= Duration::from_secs(1));

        let stop = Stop::default();
        let stoppable = long.with_stop(&stop);
        assert!(!stoppable.should_stop());
        stop.request();
        assert!(stoppable.should_stop());
        assert!(stoppable.unknown_reason().contains("another solver"));
        assert!(!long.should_stop(), "the original limits are not affected");
    }
}
