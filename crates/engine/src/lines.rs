//! The native line engine ([`pq_lines`]) as a way of deciding one step, beside the SAT
//! backends: no formula, a branch-and-bound on the line labelling. It answers two armies of
//! queens at peace on a plain rectangle or a square torus (equal or fixed sizes), and three
//! or four armies of one size on a plain board; every witness it finds goes
//! through the same independent validator as a solver's model, and every UNSAT through the
//! same table of proven values ([`crate::known::agrees`]).

use std::time::Instant;

use pq_board::placement::{Kind, Placement};
use pq_encode::spec::Problem;
use pq_lines::armies::ArmiesVerdict;
use pq_lines::{Board, Demand, Settings, Stats, Verdict};
use pq_solve::answer::Answer;
use pq_solve::control::Limits;
use pq_solve::error::SolveError;

use crate::pipeline::{validated, Outcome, Status};

/// The engine's name in reports and JSON (`solver`).
pub const NAME: &str = "lines";

/// Why the line engine cannot answer `problem`, or `None` when it can.
pub fn unsupported(problem: &Problem) -> Option<String> {
    let rules = &problem.rules;
    let l = &rules.layout;
    let k = rules.groups.len();
    if !(2..=pq_lines::armies::MAX_ARMIES).contains(&k)
        || rules.groups.iter().any(|g| g.kind != Kind::Queen)
    {
        return Some(format!(
            "it answers 2 to {} armies of queens only",
            pq_lines::armies::MAX_ARMIES
        ));
    }
    let every_pair = (0..k)
        .all(|a| (a + 1..k).all(|b| rules.no_attack.iter().any(|&p| p == (a, b) || p == (b, a))));
    if !every_pair || rules.no_attack.iter().any(|&(a, b)| a == b) {
        return Some("it answers armies that must not attack one another, and no more".into());
    }
    if k > 2 && problem.maximised().len() != k {
        return Some("it answers three or more armies of one size, all maximised".into());
    }
    if k > 2 && l.torus {
        return Some("it does not answer three or more armies on the torus yet".into());
    }
    if l.torus && l.rows != l.cols {
        return Some("it answers square toroidal boards only (on a rectangular torus a diagonal crosses a row more than once)".into());
    }
    board(problem).err().map(|e| e.to_string())
}

/// The engine's board for `problem`'s layout.
fn board(problem: &Problem) -> Result<Board, pq_lines::Error> {
    let l = &problem.rules.layout;
    if l.torus {
        Board::torus(l.rows)
    } else {
        Board::new(l.rows, l.cols)
    }
}

/// What a search found, for any number of armies.
enum Found {
    /// Each army's cells.
    Sat(Vec<Vec<(usize, usize)>>),
    Unsat,
    Unknown,
}

/// The line engine on `jobs` threads.
#[derive(Clone, Copy, Debug)]
pub struct LineEngine {
    /// Worker threads.
    pub jobs: usize,
}

impl LineEngine {
    /// The name reports show: `lines`, or `lines x N` on N threads.
    pub fn name(&self) -> String {
        if self.jobs > 1 {
            format!("{NAME} x {}", self.jobs)
        } else {
            NAME.to_string()
        }
    }

    /// Decides `problem` with its maximised groups at `n` pieces, under `limits`: a
    /// validated placement, UNSAT, or unknown with the reason. The node counts come back
    /// beside the outcome.
    ///
    /// # Errors
    /// A problem the engine does not answer ([`unsupported`]), a witness the validator
    /// rejects or an UNSAT that contradicts the table of proven values (both engine bugs).
    pub fn decide(
        &self,
        problem: &Problem,
        n: usize,
        limits: &Limits,
    ) -> Result<(Outcome, Stats), SolveError> {
        if let Some(why) = unsupported(problem) {
            return Err(SolveError::Invalid(format!(
                "the line engine cannot answer this problem: {why}"
            )));
        }
        let l = &problem.rules.layout;
        let board = board(problem).expect("checked by unsupported()");
        let demands = problem.demands(n);
        let start = Instant::now();
        let asked = || limits.should_stop();
        let settings = Settings {
            jobs: self.jobs,
            deadline: limits.remaining().map(|left| start + left),
            asked_to_stop: &asked,
        };
        // Each army's cells for SAT, `None` (with why) otherwise.
        let (found, stats) = if demands.len() > 2 {
            let (verdict, stats) =
                pq_lines::armies::decide_armies(&board, demands.len(), n, &settings);
            let found = match verdict {
                ArmiesVerdict::Sat(w) => Found::Sat(w.cells),
                ArmiesVerdict::Unsat => Found::Unsat,
                ArmiesVerdict::Unknown(_) => Found::Unknown,
            };
            (found, stats)
        } else {
            let demand = Demand {
                white: demands[0],
                black: demands[1],
            };
            let answer = pq_lines::decide(&board, demand, &settings);
            let found = match answer.verdict {
                Verdict::Sat(w) => Found::Sat(vec![w.white, w.black]),
                Verdict::Unsat => Found::Unsat,
                Verdict::Unknown(_) => Found::Unknown,
            };
            (found, answer.stats)
        };
        let seconds = start.elapsed().as_secs_f64();
        let solver = self.name();
        // No formula: its variables and clauses stay 0.
        let mut out = Outcome::unknown(solver.clone(), seconds);
        match found {
            Found::Sat(armies) => {
                let mut raw = Placement::empty(l);
                for (j, cells) in armies.iter().enumerate() {
                    for &(r, c) in cells {
                        raw.set(r, c, Some(j));
                    }
                }
                let (placement, witness_n) = validated(problem, n, &raw, &solver)?;
                out.status = Status::Sat;
                out.placement = Some(placement);
                out.raw = Some(raw);
                out.witness_n = witness_n;
            }
            Found::Unsat => {
                crate::known::agrees(problem, n, &Answer::Unsat).map_err(|reason| {
                    SolveError::Rejected {
                        program: solver.clone(),
                        reason,
                    }
                })?;
                out.status = Status::Unsat;
                // An exhaustive search, not a checked proof.
                out.verified = Some(false);
            }
            Found::Unknown => out.reason = Some(limits.unknown_reason()),
        }
        Ok((out, stats))
    }
}
