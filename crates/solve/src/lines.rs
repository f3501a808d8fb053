//! The native line engine ([`pq_lines`]) as a backend for one kind of formula: pq-sat's own
//! colouring model of the peaceable queens with lex-leader clauses (what `pq-sat encode
//! --dim D --n N` writes by default, and what `pq-sat cube` splits), alone or followed by a
//! cube as unit clauses on its line variables. That is how cube-and-conquer hands a cube to
//! a solver (`conquer`, `solve-cube`, `cube --estimate`, GNU parallel, Slurm), so the
//! engine solves the cubes of any such directory with `--backend lines`.
//!
//! The answer means what a SAT solver's would: the engine searches exactly the pairs
//! (white rows, white columns) that are least in their orbit in the order of the formula's
//! lex-leader clauses ([`pq_lines::symmetry`]), so a cube with no solution there has no
//! model, and a cube with one has a model (the lex-least labelling with the same rows and
//! columns). That model, which a backend must return, comes from the in-process CaDiCaL on
//! the same formula; a CaDiCaL UNSAT there is reported as a disagreement, never an answer.
//! Any other formula is refused with a message that says which formulas the engine reads.

use std::borrow::Cow;
use std::sync::Mutex;

use pq_encode::{header, Extent, Formula, Instance, Model, Symmetry};
use std::io::Write;
use std::path::Path;

use pq_lines::proof::{LineLit, Proved, Step};
use pq_lines::{Board, Demand, Fixed, Settings, Verdict};
use rustsat::types::Lit;

use crate::answer::Answer;
use crate::backend::{accept_all, judged, with_units, Answered, Backend, Cadical, Judge};
use crate::control::Limits;
use crate::error::SolveError;

/// The line engine on `jobs` threads, as a backend.
#[derive(Debug, Default)]
pub struct Lines {
    /// Worker threads.
    pub jobs: usize,
    /// The last formula recognised: its header words and its clauses without a cube, so
    /// that the cubes of one directory re-encode it once.
    known: Mutex<Option<(Vec<String>, Formula)>>,
}

impl Lines {
    /// The engine on `jobs` threads.
    pub fn new(jobs: usize) -> Lines {
        Lines {
            jobs,
            known: Mutex::new(None),
        }
    }

    /// The board, the demand and the cube of `formula` followed by `cube`, or why the
    /// engine cannot read it. The cube is every unit clause after the clauses pq-sat writes
    /// for the formula's header, then `cube`'s literals.
    fn recognise(&self, formula: &Formula, cube: &[Lit]) -> Result<(Board, Demand, Fixed), String> {
        let refuse = |why: &str| {
            format!("the line engine reads pq-sat's colouring formulas of the peaceable queens with lex-leader clauses (pq-sat encode --dim D --n N, and their cubes): {why}")
        };
        let (problem, n) = header::subject(formula);
        let (Some(problem), Some(n)) = (problem, n) else {
            return Err(refuse(
                "this formula's header names no peaceable-queens problem",
            ));
        };
        let l = &problem.rules.layout;
        if !decides(&problem) {
            return Err(refuse("its header names another problem"));
        }
        let options = header::options(&formula.comments);
        if options.model != Model::Colouring || options.symmetry != Symmetry::LexLeader {
            return Err(refuse(&format!(
                "it was written with --model {} --symmetry {}",
                options.model, options.symmetry
            )));
        }
        let d = l.rows;
        let mut known = self
            .known
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if known.as_ref().is_none_or(|(c, _)| *c != formula.comments) {
            let instance = Instance::new(d, n).map_err(|e| refuse(&e.to_string()))?;
            let mine = pq_encode::encode(&instance.with_extent(Extent::AtLeast), &options);
            *known = Some((formula.comments.clone(), mine));
        }
        let (_, mine) = known.as_ref().expect("set above");
        let base = mine.cnf.len();
        let same = formula.n_vars == mine.n_vars
            && formula.cnf.len() >= base
            && formula.cnf.iter().zip(mine.cnf.iter()).all(|(a, b)| a == b);
        if !same {
            return Err(refuse(
                "its clauses are not those pq-sat writes for its header",
            ));
        }
        let mut units = Vec::new();
        for clause in formula.cnf.iter().skip(base) {
            let [lit] = clause.iter().copied().collect::<Vec<_>>()[..] else {
                return Err(refuse(
                    "a clause after the formula is not a unit clause (a cube)",
                ));
            };
            units.push(lit);
        }
        let first_line = 2 * d * d;
        let mut fixed = Fixed::default();
        for &lit in units.iter().chain(cube) {
            let var = lit.var().idx();
            let white = lit.is_pos();
            let Some(line) = var.checked_sub(first_line).filter(|&l| l < 6 * d - 2) else {
                return Err(refuse("a cube literal is not on a line variable"));
            };
            // Lines in pq-sat's order: rows, columns, r - c + d - 1, r + c.
            let bit = |set: &mut (u32, u32), i: usize| {
                set.0 |= 1 << i;
                if white {
                    set.1 |= 1 << i;
                } else {
                    set.1 &= !(1 << i);
                }
            };
            match line {
                l if l < d => bit(&mut fixed.rows, l),
                l if l < 2 * d => bit(&mut fixed.cols, l - d),
                l if l < 4 * d - 1 => fixed.diagonals.push((1, l - 2 * d, white)),
                l => fixed.diagonals.push((0, l - (4 * d - 1), white)),
            }
        }
        let board = Board::square(d).map_err(|e| refuse(&e.to_string()))?;
        Ok((board, Demand::equal(n), fixed))
    }

    /// The engine's answer to `formula` with `cube` after it; a SAT answer's model comes
    /// from CaDiCaL on that formula (and satisfies it).
    fn answer(
        &self,
        formula: &Formula,
        cube: &[Lit],
        limits: &Limits,
    ) -> Result<Answer, SolveError> {
        let (board, demand, fixed) = self.recognise(formula, cube).map_err(SolveError::Invalid)?;
        let asked = || limits.should_stop();
        let answer =
            pq_lines::search_fixed(&board, demand, &fixed, &under(self.jobs, limits, &asked));
        settled(&answer.verdict, limits, || {
            Cow::Owned(with_units(formula, cube))
        })
    }
}

/// Whether the line engine decides `problem`'s steps and proves them (DRAT trees, search
/// certificates): the peaceable queens on a square board with both armies maximised, whose
/// steps are a(d)'s (PROBLEM.md's line labelling).
pub fn decides(problem: &pq_encode::spec::Problem) -> bool {
    problem.shape().optimum_is_a_of_d().is_some()
}

/// The engine's settings on `jobs` threads under `limits`, `asked` being their stop request.
fn under<'a>(jobs: usize, limits: &Limits, asked: &'a (dyn Fn() -> bool + Sync)) -> Settings<'a> {
    Settings {
        jobs: jobs.max(1),
        deadline: limits.deadline(),
        asked_to_stop: asked,
        unit_budget: None,
    }
}

/// Writes a tree proof's steps ([`pq_lines::proof`]) as DRAT: text, or binary (`a`/`d`
/// bytes and variable-length literals, as drat-trim and rate read it; about half the size).
struct DratWriter<'w> {
    out: &'w mut dyn Write,
    /// DIMACS variable of line 0.
    first: u64,
    binary: bool,
    buffer: Vec<u8>,
    failed: Option<std::io::Error>,
}

impl DratWriter<'_> {
    fn step(&mut self, step: Step, path: &[LineLit]) {
        if self.failed.is_some() {
            return;
        }
        let buffer = &mut self.buffer;
        buffer.clear();
        let delete = step == Step::Delete;
        if self.binary {
            buffer.push(if delete { b'd' } else { b'a' });
            for &(line, white) in path {
                // The lemma negates the path: a white line's literal is negative.
                crate::simplify::push_binary_literal(buffer, self.first + line as u64, white);
            }
            buffer.push(0);
        } else {
            if delete {
                buffer.extend_from_slice(b"d ");
            }
            for &(line, white) in path {
                let var = self.first + line as u64;
                if white {
                    buffer.push(b'-');
                }
                buffer.extend_from_slice(var.to_string().as_bytes());
                buffer.push(b' ');
            }
            buffer.extend_from_slice(b"0\n");
        }
        if let Err(e) = self.out.write_all(buffer) {
            self.failed = Some(e);
        }
    }
}

/// Searches `n` white and `n` black queens on the square `board` with the cube `fixed`
/// and writes the search tree to `out` as a DRAT proof (binary or text) against pq-sat's
/// colouring formula with `--bounds sums` plus the cube's unit clauses ([`pq_lines::proof`]);
/// complete only when the verdict is UNSAT. `proof` names the file in messages.
///
/// # Errors
/// A write error.
pub fn tree_proof(
    (board, n, fixed): (&Board, usize, &Fixed),
    out: &mut dyn Write,
    binary: bool,
    proof: &Path,
    limits: &Limits,
) -> Result<Proved, SolveError> {
    let d = board.rows();
    // Line l's colour is DIMACS variable 2d² + l + 1 (after the white and black queens).
    let mut writer = DratWriter {
        out,
        first: (2 * d * d + 1) as u64,
        binary,
        buffer: Vec::with_capacity(64 * d),
        failed: None,
    };
    let asked = || limits.should_stop();
    let settings = under(1, limits, &asked);
    let proved = pq_lines::proof::prove(
        board,
        n,
        fixed,
        &mut |step, path| writer.step(step, path),
        &settings,
    );
    match writer.failed {
        Some(e) => Err(SolveError::io(proof)(e)),
        None => Ok(proved),
    }
}

impl Lines {
    /// Solves `formula` (pq-sat's colouring formula with `--bounds sums`, and a cube as unit
    /// clauses) writing on UNSAT its search tree as a binary DRAT proof to `proof`, after the
    /// top-level simplification ([`crate::simplify`]); a SAT answer's model comes from
    /// CaDiCaL.
    ///
    /// # Errors
    /// A formula the engine does not read, or one without the family-sum clauses that make
    /// its tree a proof, or a write error.
    pub fn prove(
        &self,
        formula: &Formula,
        proof: &Path,
        limits: &Limits,
    ) -> Result<Answer, SolveError> {
        if header::options(&formula.comments).bounds == pq_encode::Bounds::None {
            return Err(SolveError::Invalid(
                "the line engine's proof refutes the formula with its bound clauses: write it with --bounds sums (pq-sat cube ... --bounds sums)".into(),
            ));
        }
        let (board, demand, fixed) = self.recognise(formula, &[]).map_err(SolveError::Invalid)?;
        let file = std::fs::File::create(proof).map_err(SolveError::io(proof))?;
        let mut out = std::io::BufWriter::new(file);
        // The cube's units fix thousands of variables; the checker goes faster without them.
        // The tree's lemmas name line variables only: DIMACS 2d² + 1 to 2d² + 6d − 2.
        let first = 2 * (board.rows() * board.rows()) as u32 + 1;
        let lines = first..first + (6 * board.rows() - 2) as u32;
        crate::simplify::top_level_prologue(formula, &|v| lines.contains(&v), &mut out, true)
            .map_err(SolveError::io(proof))?;
        let proved = tree_proof(
            (&board, demand.white, &fixed),
            &mut out,
            true,
            proof,
            limits,
        )?;
        out.flush().map_err(SolveError::io(proof))?;
        settled(&proved.verdict, limits, || Cow::Borrowed(formula))
    }

    /// Solves `formula` (pq-sat's colouring formula, and a cube as unit clauses) writing on
    /// UNSAT its search certificate (docs/search-certificate.md) to `proof`: the cube turned
    /// into the engine's order on the header's `cube` line
    /// ([`pq_lines::certificate::certify_cube`]). A SAT answer's model comes from CaDiCaL.
    ///
    /// # Errors
    /// A formula the engine does not read, or a write error.
    pub fn certify(
        &self,
        formula: &Formula,
        proof: &Path,
        limits: &Limits,
    ) -> Result<Answer, SolveError> {
        let (board, demand, fixed) = self.recognise(formula, &[]).map_err(SolveError::Invalid)?;
        let file = std::fs::File::create(proof).map_err(SolveError::io(proof))?;
        let mut out = std::io::BufWriter::new(file);
        let asked = || limits.should_stop();
        let settings = under(self.jobs, limits, &asked);
        let answer =
            pq_lines::certificate::certify_cube(&board, demand, &fixed, &settings, &mut out)
                .map_err(|e| match e {
                    pq_lines::certificate::CertifyError::Io(e) => SolveError::io(proof)(e),
                    e => SolveError::Invalid(e.to_string()),
                })?;
        out.flush().map_err(SolveError::io(proof))?;
        settled(&answer.verdict, limits, || Cow::Borrowed(formula))
    }

    /// The header, up to and including its `begin` line, that [`Lines::certify`] writes
    /// for `formula`: what a certificate of that formula (a cube's) must claim.
    ///
    /// # Errors
    /// A formula the engine does not read.
    pub fn certificate_header(&self, formula: &Formula) -> Result<String, SolveError> {
        let (board, demand, fixed) = self.recognise(formula, &[]).map_err(SolveError::Invalid)?;
        Ok(pq_lines::certificate::cube_header(&board, demand, &fixed))
    }

    /// The claim a search certificate of `formula` makes when the formula is a whole step
    /// (no cube among its units), in pq-check's words (`board square D armies W B`); `None`
    /// for a cube, whose certificate claims its cube ([`Lines::certificate_header`]).
    ///
    /// # Errors
    /// A formula the engine does not read.
    pub fn whole_claim(&self, formula: &Formula) -> Result<Option<String>, SolveError> {
        let (board, demand, fixed) = self.recognise(formula, &[]).map_err(SolveError::Invalid)?;
        let cube = fixed.rows.0 != 0 || fixed.cols.0 != 0 || !fixed.diagonals.is_empty();
        let kind = if board.is_torus() { "torus" } else { "square" };
        Ok((!cube).then(|| {
            format!(
                "board {kind} {} armies {} {}",
                board.rows(),
                demand.white,
                demand.black
            )
        }))
    }
}

/// The answer of a search whose verdict is `verdict`: a SAT one's model comes from CaDiCaL
/// on the formula with the cube's units (`whole`, made only then), which must agree.
fn settled<'f>(
    verdict: &Verdict,
    limits: &Limits,
    whole: impl FnOnce() -> Cow<'f, Formula>,
) -> Result<Answer, SolveError> {
    match verdict {
        Verdict::Unsat => Ok(Answer::Unsat),
        Verdict::Unknown(_) => Ok(Answer::Unknown(limits.unknown_reason())),
        Verdict::Sat(_) => match Cadical.solve_judged(&whole(), limits, &accept_all)?.0 {
            Answer::Unsat => Err(SolveError::in_process(
                "lines",
                "the line engine found a labelling, but CaDiCaL proved the formula UNSAT: the engine and the formula disagree on which (S, T) pairs are least (a bug)",
            )),
            answer => Ok(answer),
        },
    }
}

impl Backend for Lines {
    fn name(&self) -> String {
        "lines".to_string()
    }

    fn solve_once(&self, formula: &Formula, limits: &Limits) -> Result<Answer, SolveError> {
        self.answer(formula, &[], limits)
    }

    fn solve_cube(
        &self,
        formula: &Formula,
        cube: &[Lit],
        limits: &Limits,
        judge: Judge<'_>,
    ) -> Answered {
        let answer = self.answer(formula, cube, limits)?;
        judged(formula, (answer, self.name()), judge)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pq_encode::Options;
    use rustsat::types::Lit;

    /// The formula for `d`, `n` (pq-sat's defaults) plus `cube` as unit clauses on line
    /// variables (`(line, white)`, lines in pq-sat's order).
    fn with_cube(d: usize, n: usize, cube: &[(usize, bool)]) -> Formula {
        with_cube_in(d, n, cube, &Options::default())
    }

    /// [`with_cube`] for a formula written with `options`.
    fn with_cube_in(d: usize, n: usize, cube: &[(usize, bool)], options: &Options) -> Formula {
        let instance = Instance::new(d, n).unwrap();
        let mut f = pq_encode::encode(&instance, options);
        for &(line, white) in cube {
            let var = u32::try_from(2 * d * d + line).unwrap();
            f.cnf.add_unit(if white {
                Lit::positive(var)
            } else {
                Lit::negative(var)
            });
        }
        f
    }

    fn same_answer(d: usize, n: usize, cube: &[(usize, bool)]) {
        same_answer_on(
            &with_cube(d, n, cube),
            &format!("d = {d}, n = {n}, cube {cube:?}"),
        );
    }

    /// The engine and CaDiCaL agree on whether `f` is UNSAT.
    fn same_answer_on(f: &Formula, what: &str) {
        let lines = Lines::new(1).solve_once(f, &Limits::none()).unwrap();
        let cadical = Cadical.solve_once(f, &Limits::none()).unwrap();
        assert_eq!(lines == Answer::Unsat, cadical == Answer::Unsat, "{what}");
    }

    /// Every assignment of the rows (and, for small boards, of the rows and the first
    /// columns, or a row and a diagonal) is a cube on which the engine and CaDiCaL must
    /// agree, SAT and UNSAT, kept or dropped by a splitter: the engine's least pairs are
    /// the formula's lex-leader order.
    #[test]
    fn every_cube_has_the_sat_solvers_answer() {
        // a(4..6) = 2, 4, 5: both sides of each.
        for (d, a) in [(4, 2), (5, 4), (6, 5)] {
            for n in [a, a + 1] {
                for rows in 0..1usize << d {
                    let cube: Vec<(usize, bool)> =
                        (0..d).map(|r| (r, rows >> r & 1 == 1)).collect();
                    same_answer(d, n, &cube);
                }
                for bits in 0..1usize << 4 {
                    // Two rows and two columns.
                    let cube = [
                        (0, bits & 1 == 1),
                        (d - 1, bits & 2 != 0),
                        (d, bits & 4 != 0),
                        (2 * d - 1, bits & 8 != 0),
                    ];
                    same_answer(d, n, &cube);
                    // A row, a column and one diagonal of each family.
                    let cube = [
                        (1, bits & 1 == 1),
                        (d + 1, bits & 2 != 0),
                        (2 * d + d - 1, bits & 4 != 0),
                        (4 * d - 1 + d, bits & 8 != 0),
                    ];
                    same_answer(d, n, &cube);
                }
            }
        }
    }

    /// The bound clauses change no answer, so the engine reads such formulas too.
    #[test]
    fn formulas_with_bound_clauses_are_read_as_well() {
        let bounds = Options {
            bounds: pq_encode::Bounds::Sums,
            ..Options::default()
        };
        for n in [4, 5] {
            for rows in 0..1usize << 5 {
                let cube: Vec<(usize, bool)> = (0..5).map(|r| (r, rows >> r & 1 == 1)).collect();
                let f = with_cube_in(5, n, &cube, &bounds);
                same_answer_on(&f, &format!("n {n}, {cube:?}"));
            }
        }
    }

    #[test]
    fn other_formulas_are_refused_by_name() {
        let instance = Instance::new(5, 4).unwrap();
        let pairwise = Options {
            model: Model::Pairwise,
            ..Options::default()
        };
        let f = pq_encode::encode(&instance, &pairwise);
        let e = Lines::new(1).solve_once(&f, &Limits::none()).unwrap_err();
        assert!(e.to_string().contains("--model pairwise"), "{e}");
        let mut f = pq_encode::encode(&instance, &Options::default());
        f.cnf.add_binary(Lit::positive(0), Lit::positive(1));
        let e = Lines::new(1).solve_once(&f, &Limits::none()).unwrap_err();
        assert!(e.to_string().contains("not a unit clause"), "{e}");
        let mut f = pq_encode::encode(&instance, &Options::default());
        f.cnf.add_unit(Lit::positive(0));
        let e = Lines::new(1).solve_once(&f, &Limits::none()).unwrap_err();
        assert!(e.to_string().contains("not on a line variable"), "{e}");
    }
}
