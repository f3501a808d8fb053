//! `pq-sat decode`: any solver's answer to a formula pq-sat wrote, read back, checked against
//! every clause, decoded through the formula's variable map and validated, then printed as
//! `solve` prints its own answers.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use pq_encode::header;
use pq_engine::capability::Status;
use pq_engine::sat::pipeline::decoded;
use pq_io::output::WritePolicy;
use pq_report::decode::Decoded;
use pq_report::emit;
use pq_report::files::write_svg;
use pq_report::solve::Solved;
use pq_solve::answer::Answer;
use pq_solve::backend::first_falsified_clause;
use pq_solve::control::Limits;
use pq_solve::external::read_answer;

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
        let saved = read_answer(text.as_bytes(), formula.n_vars as usize)
            .map_err(anyhow::Error::msg)
            .with_context(|| format!("cannot read the answer in {source}"))?;
        let (problem, n) = header::subject(&formula);
        let Some(problem) = problem.filter(|_| formula.pieces.is_some()) else {
            let why = if formula.pieces.is_some() {
                "its header does not describe a problem pq-sat can read back"
            } else {
                "it has no variable map (`c var` lines) to read a board through"
            };
            eprintln!(
            "pq-sat: {} is not a formula as pq-sat writes it: {why}; decode takes the formula as `pq-sat encode` (or `family`, `cube`) wrote it",
            a.formula.display()
        );
            return Ok(EXIT_NOT_PQ_SAT);
        };
        if let Answer::Sat(model) = &saved.answer {
            if let Some(index) = first_falsified_clause(&formula, model) {
                let partial = if saved.assigned < formula.used_vars() as usize {
                    format!(
                    "; it gives a value to {} of the formula's {} variables, the others were taken as false",
                    saved.assigned,
                    formula.used_vars()
                )
                } else {
                    String::new()
                };
                eprintln!(
                "pq-sat: wrong answer: the model in {source} falsifies clause {} of {} (1-based, in file order){partial}",
                index + 1,
                a.formula.display()
            );
                return Ok(EXIT_WRONG_MODEL);
            }
        }
        let assigned = saved.answer.is_sat().then_some(saved.assigned);
        let outcome = decoded(
            Some(&problem),
            n.unwrap_or(0),
            &formula,
            saved.answer,
            source,
            0.0,
        )?;
        if let (Some(svg), Some(p)) = (&a.svg, &outcome.placement) {
            let policy = WritePolicy::from_force(a.force);
            write_svg(svg, &picture(&problem, p, None), policy)?;
        }
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
        emit(a.format, &report, || {
            report.text(Some((&problem, n)), &outcome)
        })?;
        if outcome.status == Status::Unsat {
            pq_report::progress::note!(
                "pq-sat: to have the UNSAT checked, run `pq-sat solve --cnf {} --check-unsat`",
                shell_word(&a.formula)
            );
        }
        Ok(status_code(outcome.status))
    }
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
