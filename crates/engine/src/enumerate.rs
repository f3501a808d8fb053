//! Listing every board with exactly `n` white and `n` black queens, or one per symmetry orbit.
//!
//! One incremental CaDiCaL instance: after each model, a blocking clause over the square
//! variables forbids that board, so each board is found once however many auxiliary
//! assignments it has. Up to symmetry, the formula carries lex-leader constraints over the
//! square variables for the whole 16-element group; with the order pq-board uses for
//! canonical forms, the boards that satisfy them are exactly the canonical members of their
//! orbits (Crawford, Ginsberg, Luks & Roy 1996), so each orbit is found exactly once. Every
//! board is checked by the independent validator and, up to symmetry, against
//! `pq_board::symmetry::is_canonical` computed from the board alone.

use std::time::Instant;

use pq_board::symmetry::{is_canonical, orbit_size};
use pq_board::validate::check_maximal;
use pq_board::{Board, Cell};
use pq_encode::{encode, Card, Instance, Model, Options, Symmetry};
use rustsat::solvers::{Solve, SolverResult};
use rustsat::types::{Clause, Lit, TernaryVal};

use pq_solve::backend::attach_limits;
use pq_solve::control::Limits;
use pq_solve::error::SolveError;

/// Count every board, or one per orbit of the 16-element group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UpTo {
    /// Every board separately.
    Total,
    /// One board per orbit, its canonical member.
    Symmetry,
}

/// What to enumerate.
#[derive(Clone, Copy, Debug)]
pub struct Request {
    /// The board side.
    pub dim: usize,
    /// Queens of each colour: exactly, or at least with `maximal`.
    pub n: usize,
    /// Whether symmetric images are listed separately.
    pub up_to: UpTo,
    /// Only configurations to which no queen can be added; then each army has at least `n`.
    pub maximal: bool,
    /// The attack model; not [`Model::Colouring`], which cannot fix the number of queens.
    pub model: Model,
    /// The cardinality encoding.
    pub card: Card,
    /// Stop after this many boards (orbits, up to symmetry).
    pub limit: Option<usize>,
}

/// One board found.
#[derive(Clone, Debug)]
pub struct Found {
    /// The board, accepted by the independent validator (and canonical, up to symmetry).
    pub board: Board,
    /// Distinct boards in its orbit (1 when counting every board separately).
    pub orbit_size: usize,
}

/// The totals of an enumeration.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Boards found (orbits, up to symmetry).
    pub count: usize,
    /// Boards counted with every symmetric image separately (the sum of the orbit sizes).
    pub total_boards: usize,
    /// Boards whose armies have different sizes (only with `maximal`).
    pub unequal: usize,
    /// False when `limit` or `limits` stopped the enumeration early.
    pub complete: bool,
    /// Why the enumeration stopped early, when `limits` stopped it (time limit, Ctrl-C).
    pub stopped: Option<String>,
    /// Wall-clock seconds since the enumeration started.
    pub seconds: f64,
}

fn internal(message: String) -> SolveError {
    SolveError::InProcess {
        backend: "cadical".into(),
        message,
    }
}

/// Enumerates the boards of `request` until done or `limits` say stop, calling `on_board`
/// for each board as it is found.
pub fn enumerate(
    request: &Request,
    limits: &Limits,
    on_board: &mut dyn FnMut(&Found, &Summary),
) -> Result<Summary, SolveError> {
    let start = Instant::now();
    if request.model == Model::Colouring {
        return Err(internal(
            "the colouring model fills every square its lines allow, so it cannot list boards with exactly n queens; use --model lines or pairwise".into(),
        ));
    }
    let mut instance =
        Instance::new(request.dim, request.n).map_err(|e| internal(e.to_string()))?;
    instance = if request.maximal {
        instance.maximal()
    } else {
        instance.exactly()
    };
    let options = Options {
        model: request.model,
        card: request.card,
        symmetry: match request.up_to {
            UpTo::Total => Symmetry::None,
            UpTo::Symmetry => Symmetry::LexLeader,
        },
    };
    let formula = encode(&instance, &options);
    let map = formula
        .pieces
        .clone()
        .expect("pq-sat formulas carry a piece map");
    let mut solver = rustsat_cadical::CaDiCaL::default();
    for clause in formula.cnf.iter() {
        solver
            .add_clause_ref(clause)
            .map_err(|e| internal(e.to_string()))?;
    }
    attach_limits(&mut solver, limits);
    let square_lits: Vec<Lit> = map
        .vars
        .iter()
        .map(|v| Lit::positive(v.dimacs - 1))
        .collect();
    let mut summary = Summary::default();
    loop {
        if request.limit.is_some_and(|k| summary.count >= k) {
            break;
        }
        match solver.solve().map_err(|e| internal(e.to_string()))? {
            SolverResult::Sat => {}
            SolverResult::Unsat => {
                summary.complete = true;
                break;
            }
            SolverResult::Interrupted => {
                summary.stopped = Some(limits.unknown_reason());
                break;
            }
        }
        let mut values = Vec::with_capacity(square_lits.len());
        for &lit in &square_lits {
            let v = solver.lit_val(lit).map_err(|e| internal(e.to_string()))?;
            values.push(v == TernaryVal::True);
        }
        let mut by_var = vec![false; formula.n_vars as usize + 1];
        for (v, &value) in map.vars.iter().zip(&values) {
            by_var[v.dimacs as usize] = value;
        }
        let placement = map.decode(|var| by_var[var as usize]).map_err(|(r, c)| {
            invalid(format!(
                "row {}, column {} holds both colours",
                r + 1,
                c + 1
            ))
        })?;
        let board = Board::from_placement(&placement)
            .ok_or_else(|| invalid("the model is not a queens board".into()))?;
        check_board(&board, request)?;
        // Block exactly this board: some square variable must differ.
        let blocking: Clause = square_lits
            .iter()
            .zip(&values)
            .map(|(&lit, &value)| if value { !lit } else { lit })
            .collect();
        solver
            .add_clause(blocking)
            .map_err(|e| internal(e.to_string()))?;
        let size = match request.up_to {
            UpTo::Total => 1,
            UpTo::Symmetry => orbit_size(&board),
        };
        summary.count += 1;
        summary.total_boards += size;
        if board.count(Cell::White) != board.count(Cell::Black) {
            summary.unequal += 1;
        }
        summary.seconds = start.elapsed().as_secs_f64();
        on_board(
            &Found {
                board,
                orbit_size: size,
            },
            &summary,
        );
    }
    summary.seconds = start.elapsed().as_secs_f64();
    Ok(summary)
}

fn invalid(details: String) -> SolveError {
    SolveError::InvalidBoard {
        backend: "cadical".into(),
        details,
    }
}

/// The independent checks every enumerated board must pass.
fn check_board(board: &Board, request: &Request) -> Result<(), SolveError> {
    let queens = pq_encode::spec::Problem::peaceable_queens(request.dim);
    crate::pipeline::validated(&queens, request.n, &board.to_placement(), "cadical")?;
    let (w, b) = (board.count(Cell::White), board.count(Cell::Black));
    if request.maximal {
        check_maximal(board).map_err(|e| invalid(e.to_string()))?;
    } else if (w, b) != (request.n, request.n) {
        return Err(invalid(format!(
            "{w} white and {b} black queens, expected exactly {} of each",
            request.n
        )));
    }
    if request.up_to == UpTo::Symmetry && !is_canonical(board) {
        return Err(invalid(format!(
            "the board is not its orbit's canonical form:\n{board}"
        )));
    }
    Ok(())
}
