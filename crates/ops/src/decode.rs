//! `pq-sat decode`: any solver's answer to a formula pq-sat wrote, read back, checked against
//! every clause, decoded through the formula's variable map and validated, then printed as
//! `solve` prints its own answers.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use pq_encode::spec::Problem;
use pq_encode::{header, Formula};
use pq_engine::capability::{Outcome, Status};
use pq_engine::sat::pipeline::decoded;
use pq_io::output::WritePolicy;
use pq_report::decode::Decoded;
use pq_report::emit;
use pq_report::files::write_svg;
use pq_report::solve::Solved;
use pq_solve::answer::Answer;
use pq_solve::backend::first_falsified_clause;
use pq_solve::control::Limits;
use pq_solve::external::{read_answer, SavedAnswer};

use crate::{picture, status_code, EXIT_NOT_PQ_SAT, EXIT_WRONG_MODEL};

/// A decoding to run.
#[derive(Debug)]
pub struct Decode {
    /// The formula pq-sat wrote.
    pub formula: PathBuf,
    /// The solver's answer; standard input when `None` or `-`.
    pub answer: Option<PathBuf>,
    /// Where to draw the board, if anywhere.
    pub svg: Option<PathBuf>,
    /// Whether the picture may replace a file.
    pub force: bool,
    /// How the report is printed.
    pub format: pq_report::Format,
}

/// Reads the formula and the answer, checks and decodes the model, and prints the board.
/// Exit code: the answer's status (10, 20, 0), or [`EXIT_WRONG_MODEL`] for a model that
/// falsifies a clause, [`EXIT_NOT_PQ_SAT`] for a formula without pq-sat's variable map.
impl Decode {
    /// Decodes the answer; the exit code is 10 or 20 as the answer says, or 3 (a clause the model
    /// falsifies) or 4 (not pq-sat's formula).
    pub fn run(&self) -> Result<u8> {
        let a = self;
        let formula = pq_solve::input::read_formula(Some(&a.formula), &Limits::none())?;
        let path = a.answer.as_deref().filter(|p| p.as_os_str() != "-");
        let source = path.map_or("standard input".to_string(), |p| p.display().to_string());
        let text = crate::read_input(path)?;
        let saved = read_saved(&text, &formula, &source)?;
        let read = match read_back(&formula, saved, source.clone())? {
            Ok(read) => read,
            Err(refused) => {
                let shown = a.formula.display().to_string();
                eprintln!("pq-sat: {}", refused.message(&shown, &source));
                return Ok(refused.code());
            }
        };
        if let (Some(svg), Some(p)) = (&a.svg, &read.outcome.placement) {
            let policy = WritePolicy::from_force(a.force);
            write_svg(svg, &picture(&read.problem, p, None), policy)?;
        }
        emit(a.format, &read.report, || read.text())?;
        if read.outcome.status == Status::Unsat {
            pq_report::progress::note!(
                "pq-sat: to have the UNSAT checked, run `pq-sat solve --cnf {} --check-unsat`",
                shell_word(&a.formula)
            );
        }
        Ok(status_code(read.outcome.status))
    }
}

/// Reads `text`, a solver's answer to `formula` from `source`, in any form solvers write it
/// (`s` and `v` lines, MiniSat's result file, a bare model).
pub fn read_saved(text: &str, formula: &Formula, source: &str) -> Result<SavedAnswer> {
    read_answer(text.as_bytes(), formula.n_vars as usize)
        .map_err(anyhow::Error::msg)
        .with_context(|| format!("cannot read the answer in {source}"))
}

/// An answer read back: the problem its formula's header names, the outcome (for SAT the
/// board decoded and validated) and the report `decode` prints.
pub struct ReadBack {
    /// The problem the formula's header names.
    pub problem: Problem,
    /// The size of its maximised groups, when the header gives one.
    pub n: Option<usize>,
    /// The validated answer.
    pub outcome: Outcome,
    /// What `decode --format json` prints.
    pub report: Decoded,
}

impl ReadBack {
    /// The text `decode` prints.
    pub fn text(&self) -> String {
        self.report
            .text(Some((&self.problem, self.n)), &self.outcome)
    }
}

/// Why an answer is not read back as a board, before any board is looked at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    /// The formula is not one pq-sat wrote (exit 4): why.
    NotPqSat(&'static str),
    /// The model falsifies clause `clause` (0-based, in file order) (exit 3), giving a value
    /// to `assigned` of the formula's `used` variables when that is fewer.
    WrongModel {
        /// The first clause falsified.
        clause: usize,
        /// How many variables the model gives a value, when fewer than the clauses use.
        assigned: Option<(usize, u32)>,
    },
}

impl Refused {
    /// The message `decode` prints, naming the formula and where the answer came from.
    pub fn message(&self, formula: &str, source: &str) -> String {
        match self {
            Refused::NotPqSat(why) => format!(
                "{formula} is not a formula as pq-sat writes it: {why}; decode takes the formula as `pq-sat encode` (or `family`, `cube`) wrote it"
            ),
            Refused::WrongModel { clause, assigned } => {
                let partial = assigned.map_or(String::new(), |(assigned, used)| {
                    format!(
                        "; it gives a value to {assigned} of the formula's {used} variables, the others were taken as false"
                    )
                });
                format!(
                    "wrong answer: the model in {source} falsifies clause {} of {formula} (1-based, in file order){partial}",
                    clause + 1
                )
            }
        }
    }

    /// `decode`'s exit code for it.
    pub fn code(&self) -> u8 {
        match self {
            Refused::NotPqSat(_) => EXIT_NOT_PQ_SAT,
            Refused::WrongModel { .. } => EXIT_WRONG_MODEL,
        }
    }
}

/// Reads `saved` (an answer from `source`) back against `formula`, as `decode` does: a model
/// is checked against every clause, decoded through the formula's variable map and passed
/// by the independent validator. A formula pq-sat did not write, or a model that falsifies a
/// clause, is [`Refused`]; a board that fails the validator is an error.
pub fn read_back(
    formula: &Formula,
    saved: SavedAnswer,
    source: String,
) -> Result<Result<ReadBack, Refused>> {
    let (problem, n) = header::subject(formula);
    let Some(problem) = problem.filter(|_| formula.pieces.is_some()) else {
        return Ok(Err(Refused::NotPqSat(if formula.pieces.is_some() {
            "its header does not describe a problem pq-sat can read back"
        } else {
            "it has no variable map (`c var` lines) to read a board through"
        })));
    };
    if let Answer::Sat(model) = &saved.answer {
        if let Some(clause) = first_falsified_clause(formula, model) {
            let used = formula.used_vars();
            let assigned = (saved.assigned < used as usize).then_some((saved.assigned, used));
            return Ok(Err(Refused::WrongModel { clause, assigned }));
        }
    }
    let assigned = saved.answer.is_sat().then_some(saved.assigned);
    let outcome = decoded(
        Some(&problem),
        n.unwrap_or(0),
        formula,
        saved.answer,
        source,
        0.0,
    )?;
    let options = header::options(&formula.comments);
    let mut report = Decoded {
        solved: Solved::new(
            Some((&problem, n.unwrap_or(0))),
            Some(&options),
            "answer".to_string(),
            &outcome,
            None,
        ),
        answer_form: saved.form.name().to_string(),
        assigned,
    };
    report.solved.mark_known(None);
    Ok(Ok(ReadBack {
        problem,
        n,
        outcome,
        report,
    }))
}

/// `path` as one shell word in a suggested command.
fn shell_word(path: &Path) -> String {
    let s = path.display().to_string();
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-+,".contains(c))
    {
        s
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}
