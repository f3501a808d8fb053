//! One formula through a backend, decoded and independently validated.

use std::time::Instant;

use pq_board::placement::Placement;
use pq_board::rules::check_placement;
use pq_board::validate::check_peaceable;
use pq_board::{Board, Cell};
use pq_encode::general::encode_problem;
use pq_encode::spec::Problem;
use pq_encode::{encode, Formula, Instance, Options};

use pq_solve::answer::Answer;
use pq_solve::backend::{solve_checked, Backend};
use pq_solve::control::Limits;
use pq_solve::error::SolveError;

/// `sat`, `unsat` or `unknown`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Sat,
    Unsat,
    Unknown,
}

impl Status {
    /// The lower-case name used in JSON and logs.
    pub fn name(self) -> &'static str {
        match self {
            Status::Sat => "sat",
            Status::Unsat => "unsat",
            Status::Unknown => "unknown",
        }
    }
}

/// The answer for one formula.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub status: Status,
    /// The validated board, when the formula is SAT and carries a square map.
    pub board: Option<Board>,
    /// Wall-clock seconds spent in the backend.
    pub seconds: f64,
    /// The solver that answered (a portfolio's winner), or the backend's name.
    pub solver: String,
    /// Why the answer is `unknown`.
    pub reason: Option<String>,
}

/// Encodes `instance`, solves it and returns the validated board, which has at least `n`
/// queens of each colour (see [`trimmed`] for exactly `n`).
pub fn check(
    instance: &Instance,
    options: &Options,
    backend: &dyn Backend,
    limits: &Limits,
) -> Result<Outcome, SolveError> {
    // The queens instance is the peaceable-queens placement problem; the general machinery
    // hands it to the specialised encoder. Exact and maximal instances (enumeration) have no
    // counterpart there.
    let problem = Problem::peaceable_queens(instance.dim());
    let formula = if instance.is_exact() || instance.is_maximal() {
        encode(instance, options)
    } else {
        encode_problem(&problem, instance.n(), options)
    };
    let outcome = solve_formula(&formula, Some(instance.n()), backend, limits)?;
    if let Some(board) = &outcome.board {
        // A second, independent check: the general placement validator on the same board.
        let placement = placement_of(board);
        check_placement(&problem.rules, &placement, &[]).map_err(|v| SolveError::InvalidBoard {
            backend: outcome.solver.clone(),
            details: v
                .iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join("; "),
        })?;
    }
    Ok(outcome)
}

/// A copy of `board` with exactly `n` queens of each colour (the first ones in row-major
/// order are kept). Removing queens never creates an attack.
pub fn trimmed(board: &Board, n: usize) -> Board {
    let mut b = board.clone();
    b.keep_first(Cell::White, n);
    b.keep_first(Cell::Black, n);
    b
}

/// Solves any formula; if it carries a square map, the model is decoded and the board
/// validated (against `n` queens per colour when `n` is known, else only for peace).
pub fn solve_formula(
    formula: &Formula,
    n: Option<usize>,
    backend: &dyn Backend,
    limits: &Limits,
) -> Result<Outcome, SolveError> {
    let start = Instant::now();
    let (answer, solver) = solve_checked(backend, formula, limits)?;
    let seconds = start.elapsed().as_secs_f64();
    decoded(formula, n, answer, solver, seconds)
}

/// The outcome of `answer` (already checked against every clause): a SAT model is decoded
/// into a board and validated when the formula carries a square map.
pub fn decoded(
    formula: &Formula,
    n: Option<usize>,
    answer: Answer,
    solver: String,
    seconds: f64,
) -> Result<Outcome, SolveError> {
    Ok(match answer {
        Answer::Sat(model) => {
            let board = match &formula.squares {
                Some(map) => {
                    let board = map.decode(|v| model.value(v as usize)).map_err(|(r, c)| {
                        SolveError::InvalidBoard {
                            backend: solver.clone(),
                            details: format!(
                                "row {}, column {} holds both a white and a black queen",
                                r + 1,
                                c + 1
                            ),
                        }
                    })?;
                    validate(&board, n.unwrap_or(0), &solver)?;
                    Some(board)
                }
                None => None,
            };
            Outcome {
                status: Status::Sat,
                board,
                seconds,
                solver,
                reason: None,
            }
        }
        Answer::Unsat => Outcome {
            status: Status::Unsat,
            board: None,
            seconds,
            solver,
            reason: None,
        },
        Answer::Unknown(reason) => Outcome {
            status: Status::Unknown,
            board: None,
            seconds,
            solver,
            reason: Some(reason),
        },
    })
}

/// A queens board as a placement of the groups white (0) and black (1).
pub fn placement_of(board: &Board) -> Placement {
    let d = board.dim();
    let mut p = Placement {
        rows: d,
        cols: d,
        cells: vec![None; d * d],
    };
    for r in 0..d {
        for c in 0..d {
            p.set(
                r,
                c,
                match board.get(r, c) {
                    Cell::White => Some(0),
                    Cell::Black => Some(1),
                    Cell::Empty => None,
                },
            );
        }
    }
    p
}

/// Runs the independent validator; a failure is an internal error, never a solution.
/// `backend` names who produced the board, for the message.
pub fn validate(board: &Board, n: usize, backend: &str) -> Result<(), SolveError> {
    check_peaceable(board, board.dim(), n).map_err(|violations| SolveError::InvalidBoard {
        backend: backend.to_string(),
        details: violations
            .iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join("; "),
    })
}
