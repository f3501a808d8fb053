//! Cube-and-conquer as a [`Backend`]: `solve --cubes --jobs N` hands every solver step to
//! it, so that one hard step (the UNSAT one above the optimum) is spread over N cores
//! instead of being raced by N copies of the same search.
//!
//! It is the same path as `pq-sat cube` + `pq-sat conquer`, not a second one: the formula
//! is split by [`split::split`], written as a cube directory into a private temporary
//! directory, and conquered by [`super::conquer::conquer`](fn@super::conquer::conquer) with one member backend per cube.
//! UNSAT is answered only when every cube is UNSAT and the split says the formula implies
//! the cubes (every dropped cube is refuted by the formula itself). A SAT cube's board is
//! turned back into a full model of the formula by fixing its piece variables and solving
//! once more (a propagation, in practice), so that the caller checks it against every
//! clause as it checks any answer.

use std::time::Duration;

use pq_encode::Formula;
use pq_solve::answer::Answer;
use pq_solve::backend::{Answered, Backend, Cadical, Judge};
use pq_solve::control::Limits;
use pq_solve::error::SolveError;
use rustsat::types::Lit;

use super::conquer::{conquer, CubeDir, Method, Plan};
use super::split::{self, Lines, Settings};
use super::Status;
use crate::error::EngineError;

/// Solves each formula by splitting it into cubes and solving them on `jobs` workers with
/// `member`.
pub(crate) struct Cubed {
    /// The solver of every cube.
    pub member: Box<dyn Backend>,
    /// Worker threads.
    pub jobs: usize,
    /// How to split (the default: rows, then look-ahead, on the colouring model).
    pub settings: Settings,
    /// Each worker keeps one in-process CaDiCaL for all its cubes, solving each under
    /// assumptions (`member` is then not used).
    pub incremental: bool,
}

impl Backend for Cubed {
    fn name(&self) -> String {
        let solver = if self.incremental {
            "incremental cadical".to_string()
        } else {
            self.member.name()
        };
        format!("cubes({solver} x {})", self.jobs)
    }

    fn solve_once(&self, formula: &Formula, limits: &Limits) -> Result<Answer, SolveError> {
        let lines = Lines::recognise(formula);
        // The split obeys the run's limits too: `--timeout` is a limit for the whole run.
        let mut split = match split::split(formula, lines.as_ref(), &self.settings, &|_| {
            limits.should_stop()
        }) {
            Ok(split) => split,
            Err(_) if limits.should_stop() => return Ok(Answer::Unknown(limits.unknown_reason())),
            Err(e) => {
                return Err(SolveError::from(EngineError::Cubes(format!(
                    "cannot split the formula: {e}"
                ))))
            }
        };
        if !split.record.implied {
            return Err(SolveError::from(EngineError::Cubes(
                "the cubes are complete only up to symmetry (a formula without lex-leader clauses), so their UNSAT would not prove the formula's: use --symmetry lex-leader with --cubes".into(),
            )));
        }
        let record = serde_json::to_value(&split.record).expect("a record serialises");
        let work = pq_io::output::scratch_dir()?;
        let dir = work.path().join("cubes");
        let over = split.extended.take();
        let over = over.as_ref().unwrap_or(formula);
        // A fresh scratch directory: nothing to replace.
        let keep = pq_io::output::WritePolicy::Keep;
        super::write_dir(&dir, over, split.cubes, "solve --cubes", "", record, keep)
            .map_err(into_solve_error)?;
        let cubes = CubeDir::open(&dir).map_err(into_solve_error)?;
        let plan = Plan {
            jobs: self.jobs,
            incremental: self.incremental,
            method: Method::Backend(self.member.as_ref()),
            per_cube: None,
        };
        let done = conquer(&cubes, &plan, limits, &mut |_| {}).map_err(into_solve_error)?;
        if let Some(sat) = done.sat {
            let placed = sat.result.model.unwrap_or_default();
            return full_model(formula, &placed, limits);
        }
        let statuses: Vec<Option<Status>> = (done.results.iter())
            .map(|r| r.as_ref().map(|r| r.status))
            .collect();
        Ok(if statuses.iter().all(|s| *s == Some(Status::Unsat)) {
            Answer::Unsat
        } else {
            let open = statuses.iter().filter(|s| **s != Some(Status::Unsat));
            Answer::Unknown(format!(
                "{} of {} cubes undecided: {}",
                open.count(),
                statuses.len(),
                limits.unknown_reason()
            ))
        })
    }
}

/// `solve --jobs N`'s default (`--cubes auto`): a step whose formula has the colouring
/// model's line variables (the queens: split on row colours, then look-ahead) is solved by
/// `cubes`, at once or, with a `probe`, only when `first` (the portfolio) has not answered
/// within it; any other formula is solved by `first`. Measured (BENCHMARKS.md, "When to
/// split"): on two cores the line split wins from d = 8 on (a(10) 0.55 of the race) and a
/// probe costs more than its own length, while the look-ahead split of the example
/// placement problems was slower than the race (up to 2.1x).
pub(crate) struct AutoCubes {
    /// The backend of every step's first attempt.
    pub first: Box<dyn Backend>,
    /// How long a step may run on `first` before it counts as hard (zero: no probe).
    pub probe: Duration,
    /// The backend of the steps it splits.
    pub cubes: Cubed,
}

impl AutoCubes {
    /// The answer of `first` for a formula without line variables or within the probe,
    /// otherwise that of the cubes. (`Cubed` recognises the lines again when it splits: a
    /// re-encoding of the header's problem, milliseconds against a step worth cubing.)
    fn probed<T>(
        &self,
        formula: &Formula,
        limits: &Limits,
        solve: impl Fn(&dyn Backend, &Limits) -> Result<T, SolveError>,
        open: impl Fn(&T) -> bool,
    ) -> Result<T, SolveError> {
        if Lines::recognise(formula).is_none() {
            return solve(self.first.as_ref(), limits);
        }
        if self.probe.is_zero() {
            return solve(&self.cubes, limits);
        }
        let probe = limits.with_timeout(Some(self.probe));
        let first = solve(self.first.as_ref(), &probe)?;
        if !open(&first) || limits.should_stop() {
            return Ok(first);
        }
        solve(&self.cubes, limits)
    }
}

impl Backend for AutoCubes {
    fn name(&self) -> String {
        if self.probe.is_zero() {
            return format!("{}, else {}", self.cubes.name(), self.first.name());
        }
        format!(
            "{}, then {} after {} s",
            self.first.name(),
            self.cubes.name(),
            self.probe.as_secs_f64()
        )
    }

    fn solve_once(&self, formula: &Formula, limits: &Limits) -> Result<Answer, SolveError> {
        self.probed(
            formula,
            limits,
            |b, l| b.solve_once(formula, l),
            |a| matches!(a, Answer::Unknown(_)),
        )
    }

    fn solve_named(&self, formula: &Formula, limits: &Limits) -> Answered {
        self.probed(
            formula,
            limits,
            |b, l| b.solve_named(formula, l),
            |(a, _)| matches!(a, Answer::Unknown(_)),
        )
    }

    fn solve_judged(&self, formula: &Formula, limits: &Limits, judge: Judge<'_>) -> Answered {
        self.probed(
            formula,
            limits,
            |b, l| b.solve_judged(formula, l, judge),
            |(a, _)| matches!(a, Answer::Unknown(_)),
        )
    }

    fn take_rejections(&self) -> Vec<String> {
        let mut all = self.first.take_rejections();
        all.extend(self.cubes.take_rejections());
        all
    }
}

/// A full model of `formula` whose piece variables are those of `placed` (the true piece
/// literals a SAT cube's result keeps, or every variable's literal for a formula without a
/// variable map): the formula with them fixed, solved once more.
fn full_model(formula: &Formula, placed: &[i32], limits: &Limits) -> Result<Answer, SolveError> {
    let mut fixed = formula.clone();
    let lit = |l: i32| {
        let var = rustsat::types::Var::new(l.unsigned_abs() - 1);
        if l > 0 {
            var.pos_lit()
        } else {
            var.neg_lit()
        }
    };
    let mut units: Vec<Lit> = placed.iter().map(|&l| lit(l)).collect();
    if let Some(map) = &formula.pieces {
        let on: std::collections::HashSet<u32> = placed.iter().map(|l| l.unsigned_abs()).collect();
        units.extend(
            (map.vars.iter())
                .filter(|v| !on.contains(&v.dimacs))
                .map(|v| lit(-(v.dimacs as i32))),
        );
    }
    for unit in units {
        fixed.cnf.add_unit(unit);
    }
    match Cadical.solve_once(&fixed, limits)? {
        Answer::Sat(model) => Ok(Answer::Sat(model)),
        Answer::Unknown(why) => Ok(Answer::Unknown(why)),
        Answer::Unsat => Err(SolveError::in_process(
            "cadical",
            "a SAT cube's board does not extend to a model of the formula",
        )),
    }
}

fn into_solve_error(e: super::CubeError) -> SolveError {
    match e {
        super::CubeError::Io(e) => e,
        super::CubeError::Invalid(why) => SolveError::from(EngineError::Cubes(why)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pq_encode::{encode, Instance, Options};

    fn cubed(incremental: bool) -> Cubed {
        Cubed {
            member: Box::new(Cadical),
            jobs: 2,
            settings: Settings {
                method: split::Method::Auto,
                prefix: None,
                depth: None,
                free: None,
            },
            incremental,
        }
    }

    #[test]
    fn cubes_answer_as_one_solver_does() {
        for incremental in [false, true] {
            let backend = cubed(incremental);
            for (d, n, sat) in [(5, 4, true), (5, 5, false), (6, 5, true), (6, 6, false)] {
                let formula = encode(&Instance::new(d, n).unwrap(), &Options::default());
                let answer = backend.solve_once(&formula, &Limits::none()).unwrap();
                match answer {
                    Answer::Sat(model) => {
                        assert!(sat, "{d}/{n}");
                        let falsified = pq_solve::backend::first_falsified_clause(&formula, &model);
                        assert_eq!(falsified, None, "{d}/{n}: not a model");
                    }
                    Answer::Unsat => assert!(!sat, "{d}/{n}"),
                    Answer::Unknown(why) => panic!("{d}/{n}: {why}"),
                }
            }
        }
    }

    /// A backend that never answers within its limits, like a solver on a hard step.
    struct Stalls;

    impl Backend for Stalls {
        fn name(&self) -> String {
            "stalls".into()
        }
        fn solve_once(&self, _: &Formula, limits: &Limits) -> Result<Answer, SolveError> {
            while !limits.should_stop() {
                std::thread::sleep(Duration::from_millis(5));
            }
            Ok(Answer::Unknown(limits.unknown_reason()))
        }
    }

    /// Cubes of the line split after `first` has had `probe` on a step.
    fn auto(first: Box<dyn Backend>, probe: Duration) -> AutoCubes {
        AutoCubes {
            first,
            probe,
            cubes: cubed(false),
        }
    }

    #[test]
    fn line_steps_go_to_cubes_at_once_or_after_the_probe_others_do_not() {
        let formula = encode(&Instance::new(6, 6).unwrap(), &Options::default());
        let hard = auto(Box::new(Stalls), Duration::from_millis(50));
        let (answer, solver) = hard.solve_named(&formula, &Limits::none()).unwrap();
        assert_eq!(answer, Answer::Unsat);
        assert!(solver.starts_with("cubes("), "{solver}");
        let easy = auto(Box::new(Cadical), Duration::from_mins(10));
        let (answer, solver) = easy.solve_named(&formula, &Limits::none()).unwrap();
        assert_eq!(answer, Answer::Unsat);
        assert_eq!(solver, "cadical");
        // Without a probe every line-split step goes to cubes; a formula without the
        // colouring model's lines (here the lines model) always goes to `first`.
        let at_once = auto(Box::new(Cadical), Duration::ZERO);
        let (_, solver) = at_once.solve_named(&formula, &Limits::none()).unwrap();
        assert!(solver.starts_with("cubes("), "{solver}");
        let lines_model = Options {
            model: pq_encode::Model::Lines,
            ..Options::default()
        };
        let other = encode(&Instance::new(6, 6).unwrap(), &lines_model);
        let (answer, solver) = at_once.solve_named(&other, &Limits::none()).unwrap();
        assert_eq!((answer, solver.as_str()), (Answer::Unsat, "cadical"));
        // A run's own limit is not a probe: the step stays unknown, with no cubes tried.
        let limited = Limits::timeout(Some(Duration::from_millis(30)));
        let (answer, solver) = hard.solve_named(&formula, &limited).unwrap();
        assert!(matches!(answer, Answer::Unknown(_)), "{answer:?}");
        assert_eq!(solver, "stalls");
    }

    #[test]
    fn cubes_refuse_a_split_complete_only_up_to_symmetry() {
        let symmetry = pq_encode::Symmetry::None;
        let options = &Options {
            symmetry,
            ..Options::default()
        };
        let formula = encode(&Instance::new(6, 6).unwrap(), options);
        let e = cubed(false)
            .solve_once(&formula, &Limits::none())
            .unwrap_err();
        assert!(e.to_string().contains("up to symmetry"), "{e}");
    }
}
