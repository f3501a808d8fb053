//! Several backends on the same formula at once, one thread each: the first definite answer
//! wins and the others are stopped at once (external solvers' process groups are killed,
//! in-process CaDiCaL is terminated through its callback).

use std::sync::{mpsc, Mutex};

use pq_encode::Formula;

use crate::answer::Answer;
use crate::backend::{accept_all, Answered, Backend, Judge};
use crate::control::{Limits, Stop};
use crate::error::SolveError;
use crate::spec::BackendSpec;

/// A portfolio of backends racing on each formula.
pub struct Portfolio {
    members: Vec<Box<dyn Backend>>,
    /// The rejected answers of members that dropped out of races another member won.
    rejected: Mutex<Vec<String>>,
}

impl Portfolio {
    /// A portfolio of `members` (at least one).
    pub fn new(members: Vec<Box<dyn Backend>>) -> Portfolio {
        assert!(!members.is_empty(), "a portfolio needs at least one member");
        Portfolio {
            members,
            rejected: Mutex::default(),
        }
    }
}

impl Backend for Portfolio {
    /// The single member's name, or `portfolio(a, b, ...)`.
    fn name(&self) -> String {
        match self.members.as_slice() {
            [one] => one.name(),
            many => format!(
                "portfolio({})",
                many.iter().map(|m| m.name()).collect::<Vec<_>>().join(", ")
            ),
        }
    }

    fn solve_once(&self, formula: &Formula, limits: &Limits) -> Result<Answer, SolveError> {
        self.solve_named(formula, limits).map(|(answer, _)| answer)
    }

    fn solve_named(&self, formula: &Formula, limits: &Limits) -> Answered {
        self.solve_judged(formula, limits, &accept_all)
    }

    /// Every member solves `formula`; the first SAT or UNSAT that passes the checks wins and
    /// stops the rest. A member whose answer is rejected ([`SolveError::Rejected`]: a failed
    /// proof check, a contradiction with proven values) drops out and the others carry on;
    /// its error is returned only when no other member answers. Any other member error
    /// (crash, wrong model) stops the race and is returned, and members that finish with
    /// the opposite answer before the stop reaches them are reported as a
    /// [`SolveError::Disagreement`]: a portfolio doubles as a cross-check.
    fn solve_judged(&self, formula: &Formula, limits: &Limits, judge: Judge<'_>) -> Answered {
        if let [one] = self.members.as_slice() {
            return one.solve_judged(formula, limits, judge);
        }
        let stop = Stop::default();
        let member_limits = limits.with_stop(&stop);
        let (tx, rx) = mpsc::channel();
        let mut winner: Option<(Answer, String)> = None;
        let mut failure: Option<SolveError> = None;
        let mut rejected: Vec<SolveError> = Vec::new();
        let mut unknown: Option<String> = None;
        std::thread::scope(|scope| {
            for member in &self.members {
                let tx = tx.clone();
                let member_limits = member_limits.clone();
                scope.spawn(move || {
                    let clock = crate::cpu::CpuClock::start();
                    let result = member.solve_judged(formula, &member_limits, judge);
                    // The receiver lives until every member has reported.
                    let _ = tx.send((result, clock.seconds()));
                });
            }
            drop(tx);
            for (result, cpu) in rx {
                crate::cpu::count_helper(cpu);
                match result {
                    Ok((answer @ (Answer::Sat(_) | Answer::Unsat), name)) => match &winner {
                        None if failure.is_none() => {
                            stop.request();
                            winner = Some((answer, name));
                        }
                        Some((first, first_name)) if first.is_sat() != answer.is_sat() => {
                            let (sat, unsat) = if answer.is_sat() {
                                (name, first_name.clone())
                            } else {
                                (first_name.clone(), name)
                            };
                            failure.get_or_insert(SolveError::Disagreement { sat, unsat });
                        }
                        _ => {}
                    },
                    Ok((Answer::Unknown(reason), _)) => {
                        unknown.get_or_insert(reason);
                    }
                    // Not an answer: the others carry on.
                    Err(e @ SolveError::Rejected { .. }) => rejected.push(e),
                    Err(e) => {
                        stop.request();
                        if winner.is_none() || matches!(e, SolveError::BadModel { .. }) {
                            failure.get_or_insert(e);
                        }
                    }
                }
            }
        });
        if let Some(e) = failure {
            return Err(e);
        }
        if let Some(found) = winner {
            let mut kept = self
                .rejected
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            kept.extend(rejected.iter().map(std::string::ToString::to_string));
            return Ok(found);
        }
        if let Some(e) = rejected.into_iter().next() {
            return Err(e);
        }
        let reason = unknown.unwrap_or_else(|| limits.unknown_reason());
        Ok((Answer::Unknown(reason), self.name()))
    }

    /// True when every member checks its UNSAT answers.
    fn checks_unsat(&self) -> bool {
        self.members.iter().all(|m| m.checks_unsat())
    }

    fn take_rejections(&self) -> Vec<String> {
        std::mem::take(
            &mut *self
                .rejected
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        )
    }
}

/// The default portfolio's candidates, best first: the in-process CaDiCaL (always there),
/// then kissat (fastest on the hardest UNSAT steps, see BENCHMARKS.md), then the others.
pub const DEFAULT_ORDER: &[BackendSpec] = &[
    BackendSpec::Cadical,
    BackendSpec::Kissat,
    BackendSpec::CadicalBin,
    BackendSpec::Minisat,
];

/// The first `jobs` backends of [`DEFAULT_ORDER`] installed on this machine (at least the
/// in-process CaDiCaL). varisat is left out: it cannot be stopped, so a lost race would keep
/// a core busy.
pub fn default_portfolio(jobs: usize) -> Portfolio {
    let members = default_specs(jobs, |_| true)
        .iter()
        .filter_map(|spec| spec.resolve().ok())
        .collect();
    Portfolio::new(members)
}

/// The first `jobs` backends of [`DEFAULT_ORDER`] that are installed on this machine and
/// that `eligible` accepts (e.g. those that write proofs).
pub fn default_specs(jobs: usize, eligible: impl Fn(&BackendSpec) -> bool) -> Vec<BackendSpec> {
    DEFAULT_ORDER
        .iter()
        .filter(|spec| eligible(spec) && spec.resolve().is_ok())
        .take(jobs.max(1))
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    use pq_encode::{encode, Instance, Options};

    use super::*;
    use crate::answer::Assignment;

    /// A backend that answers after `delay`, or gives up when its limits say stop (unless
    /// `stubborn`), recording whether it was stopped.
    struct Fake {
        name: &'static str,
        answer: Option<bool>,
        delay: Duration,
        stubborn: bool,
        stopped: Arc<AtomicBool>,
    }

    impl Fake {
        fn new(name: &'static str, answer: Option<bool>, delay_ms: u64) -> Fake {
            Fake {
                name,
                answer,
                delay: Duration::from_millis(delay_ms),
                stubborn: false,
                stopped: Arc::default(),
            }
        }
    }

    impl Backend for Fake {
        fn name(&self) -> String {
            self.name.to_string()
        }

        fn solve_once(&self, formula: &Formula, limits: &Limits) -> Result<Answer, SolveError> {
            let end = Instant::now() + self.delay;
            while Instant::now() < end {
                if !self.stubborn && limits.should_stop() {
                    self.stopped.store(true, Ordering::SeqCst);
                    return Ok(Answer::Unknown(limits.unknown_reason()));
                }
                std::thread::sleep(Duration::from_millis(1));
            }
            Ok(match self.answer {
                Some(true) if self.name == "wrong" => {
                    Answer::Sat(Assignment::all_false(formula.n_vars as usize))
                }
                // A genuine model, so that only the UNSAT claim can be the wrong one.
                Some(true) => crate::backend::Cadical.solve_once(formula, &Limits::none())?,
                Some(false) => Answer::Unsat,
                None => Answer::Unknown("gave up".into()),
            })
        }
    }

    fn formula() -> Formula {
        encode(&Instance::new(3, 0).unwrap(), &Options::default())
    }

    /// A backend that burns 0.2 s of its thread's CPU time, then answers UNSAT.
    struct Spin;

    impl Backend for Spin {
        fn name(&self) -> String {
            "spin".into()
        }

        fn solve_once(&self, _: &Formula, _: &Limits) -> Result<Answer, SolveError> {
            let clock = crate::cpu::CpuClock::start();
            while clock.seconds() < 0.2 {
                std::hint::black_box(0u64.wrapping_add(1));
            }
            Ok(Answer::Unsat)
        }
    }

    /// The members' CPU time counts to the thread that ran the portfolio (a conquer worker's
    /// cube record), though they ran on threads of their own.
    #[test]
    fn portfolio_members_cpu_counts_to_the_caller() {
        let clock = crate::cpu::CpuClock::start();
        let p = Portfolio::new(vec![Box::new(Spin), Box::new(Spin)]);
        assert_eq!(
            p.solve_once(&formula(), &Limits::none()).unwrap(),
            Answer::Unsat
        );
        assert!(clock.seconds() >= 0.4, "{}", clock.seconds());
    }

    #[test]
    fn portfolio_first_answer_wins_and_stops_the_rest() {
        let slow = Fake::new("slow", Some(false), 10_000);
        let stopped = slow.stopped.clone();
        let p = Portfolio::new(vec![
            Box::new(slow),
            Box::new(Fake::new("fast", Some(true), 5)),
        ]);
        let start = Instant::now();
        let (answer, by) = p.solve_named(&formula(), &Limits::none()).unwrap();
        assert!(answer.is_sat());
        assert_eq!(by, "fast");
        assert!(stopped.load(Ordering::SeqCst), "the loser was told to stop");
        assert!(start.elapsed() < Duration::from_secs(5));
        assert_eq!(p.name(), "portfolio(slow, fast)");
    }

    #[test]
    fn portfolio_waits_past_a_member_that_gives_up() {
        let p = Portfolio::new(vec![
            Box::new(Fake::new("quitter", None, 1)),
            Box::new(Fake::new("solver", Some(false), 30)),
        ]);
        let (answer, by) = p.solve_named(&formula(), &Limits::none()).unwrap();
        assert_eq!((answer, by.as_str()), (Answer::Unsat, "solver"));
    }

    #[test]
    fn portfolio_time_limit_gives_unknown() {
        let p = Portfolio::new(vec![
            Box::new(Fake::new("a", Some(true), 10_000)),
            Box::new(Fake::new("b", Some(false), 10_000)),
        ]);
        let limits = Limits::timeout(Some(Duration::from_millis(50)));
        let (answer, _) = p.solve_named(&formula(), &limits).unwrap();
        match answer {
            Answer::Unknown(reason) => assert!(reason.contains("time limit"), "{reason}"),
            other => panic!("expected unknown, got {other:?}"),
        }
    }

    #[test]
    fn portfolio_reports_solvers_that_disagree() {
        let mut liar = Fake::new("liar", Some(false), 20);
        liar.stubborn = true;
        let mut honest = Fake::new("honest", Some(true), 1);
        honest.stubborn = true;
        let p = Portfolio::new(vec![Box::new(liar), Box::new(honest)]);
        match p.solve_named(&formula(), &Limits::none()) {
            Err(SolveError::Disagreement { sat, unsat }) => {
                assert_eq!((sat.as_str(), unsat.as_str()), ("honest", "liar"));
            }
            other => panic!("expected a disagreement, got {other:?}"),
        }
    }

    #[test]
    fn portfolio_member_with_a_wrong_model_is_an_error() {
        // Claims SAT with the all-false model for n = 1, which violates the cardinality.
        let bad = encode(&Instance::new(3, 1).unwrap(), &Options::default());
        let p = Portfolio::new(vec![
            Box::new(Fake::new("wrong", Some(true), 1)),
            Box::new(Fake::new("slow", Some(true), 10_000)),
        ]);
        match p.solve_named(&bad, &Limits::none()) {
            Err(SolveError::BadModel { program, .. }) => assert_eq!(program, "wrong"),
            other => panic!("expected a bad model, got {other:?}"),
        }
    }

    #[test]
    fn portfolio_waits_past_a_rejected_member() {
        // The liar answers UNSAT first; the judge rejects it, and the honest member's later
        // SAT wins.
        let mut liar = Fake::new("liar", Some(false), 1);
        liar.stubborn = true;
        let p = Portfolio::new(vec![
            Box::new(liar),
            Box::new(Fake::new("honest", Some(true), 50)),
        ]);
        let no_unsat = |a: &Answer| match a {
            Answer::Unsat => Err("answered UNSAT, but it is known to be SAT".to_string()),
            _ => Ok(()),
        };
        let (answer, by) = p
            .solve_judged(&formula(), &Limits::none(), &no_unsat)
            .unwrap();
        assert!(answer.is_sat());
        assert_eq!(by, "honest");
        // Alone, or beside a member that gives up, the rejection is the result.
        let p = Portfolio::new(vec![
            Box::new(Fake::new("liar", Some(false), 1)),
            Box::new(Fake::new("quitter", None, 20)),
        ]);
        match p.solve_judged(&formula(), &Limits::none(), &no_unsat) {
            Err(SolveError::Rejected { program, reason }) => {
                assert_eq!(program, "liar");
                assert!(reason.contains("known to be SAT"), "{reason}");
            }
            other => panic!("expected a rejection, got {other:?}"),
        }
    }
}
