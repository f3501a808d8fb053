//! The output conventions of SAT solvers: the SAT competition's (`s` and `v` lines, exit
//! codes 10 / 20 / 0) and MiniSat's (a result file). Every answer is read strictly: a
//! contradiction between the `s` line and the exit code, a truncated model or an unknown
//! status is an error, never an answer.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use super::ExternalSolver;
use crate::answer::{Answer, Assignment};
use crate::error::SolveError;

/// How many non-model stdout lines are kept to explain a missing `s` line.
const STDOUT_TAIL_LINES: usize = 5;

/// Which output convention a solver follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Convention {
    /// SAT competition: `s SATISFIABLE` / `s UNSATISFIABLE` / `s UNKNOWN` on stdout, the model
    /// in `v ... 0` lines, exit code 10 / 20 / 0.
    Competition,
    /// MiniSat: `minisat [args] FILE RESULT`; RESULT holds `SAT` and a model line, `UNSAT` or
    /// `INDET`; exit code 10 / 20 / 0.
    Minisat,
}

impl ExternalSolver {
    pub(super) fn competition_answer(
        &self,
        code: i32,
        out: StdoutSummary,
        n_vars: usize,
        stderr: String,
    ) -> Result<Answer, SolveError> {
        if let Some(reason) = out.gave_up {
            return Err(self.failed(reason, stderr));
        }
        if let Some(bad) = out.bad_v_line {
            return Err(self.failed(format!("printed an unparsable v line: '{bad}'"), stderr));
        }
        if out.status_lines.iter().any(|s| *s != out.status_lines[0]) {
            return Err(self.failed(
                format!(
                    "printed contradicting s lines: {}",
                    out.status_lines
                        .iter()
                        .map(|s| format!("'s {s}'"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                stderr,
            ));
        }
        let Some(status) = out.status_lines.first() else {
            if code == 0 && out.c_unknown {
                // CaDiCaL's way of saying it stopped on its own limit.
                return Ok(Answer::Unknown(
                    "the solver stopped without an answer (c UNKNOWN)".to_string(),
                ));
            }
            if !matches!(code, 0 | 10 | 20) {
                return Err(self.failed(format!("exited with code {code}"), stderr));
            }
            let mut reason = format!("printed no s line (exit code {code})");
            if let Some(bare) = &out.bare_status {
                reason.push_str(&format!(
                    "; it printed '{bare}' without the 's ' prefix, as minisat does"
                ));
            } else if let Some(last) = out.tail.back() {
                reason.push_str(&format!("; its last stdout line was '{last}'"));
            }
            return Err(self.failed(reason, stderr));
        };
        let expected_code = match status.as_str() {
            "SATISFIABLE" => 10,
            "UNSATISFIABLE" => 20,
            "UNKNOWN" => 0,
            other => {
                return Err(self.failed(
                    format!("printed an unrecognised s line 's {other}' (exit code {code})"),
                    stderr,
                ))
            }
        };
        if !matches!(code, 0 | 10 | 20) {
            return Err(self.failed(
                format!("exited with code {code} after printing 's {status}'"),
                stderr,
            ));
        }
        if code != expected_code {
            return Err(self.failed(
                format!(
                    "printed 's {status}' but exited with code {code} (expected {expected_code})"
                ),
                stderr,
            ));
        }
        match expected_code {
            10 if !out.model_terminated => Err(self.failed(
                "answered SATISFIABLE but printed no complete model (v lines ending with 0)"
                    .to_string(),
                stderr,
            )),
            10 => Ok(Answer::Sat(Assignment::from_dimacs_lits(
                n_vars, &out.model,
            ))),
            20 => Ok(Answer::Unsat),
            _ => Ok(Answer::Unknown("the solver answered UNKNOWN".to_string())),
        }
    }

    pub(super) fn minisat_answer(
        &self,
        code: i32,
        result_path: &Path,
        n_vars: usize,
        stderr: String,
    ) -> Result<Answer, SolveError> {
        if !matches!(code, 0 | 10 | 20) {
            // minisat exits 1 when it cannot open the input and 3 on a parse error.
            return Err(self.failed(format!("exited with code {code}"), stderr));
        }
        let bytes = read_capped(result_path, result_cap(n_vars))
            .map_err(SolveError::io(result_path))?
            .ok_or_else(|| {
                self.failed(
                    format!(
                        "wrote more than {} bytes to its result file",
                        result_cap(n_vars)
                    ),
                    stderr.clone(),
                )
            })?;
        let text = String::from_utf8_lossy(&bytes);
        let mut tokens = text.split_ascii_whitespace();
        let (verdict, expected_code) = match tokens.next() {
            Some(v @ "SAT") => (v, 10),
            Some(v @ "UNSAT") => (v, 20),
            Some(v @ "INDET") => (v, 0),
            None => {
                return Err(self.failed(
                    format!("wrote nothing to its result file (exit code {code})"),
                    stderr,
                ))
            }
            Some(other) => {
                return Err(self.failed(
                    format!(
                        "wrote an unrecognised result '{}' (exit code {code})",
                        clip(other)
                    ),
                    stderr,
                ))
            }
        };
        if code != expected_code {
            return Err(self.failed(
                format!(
                    "wrote '{verdict}' to its result file but exited with code {code} \
                     (expected {expected_code})"
                ),
                stderr,
            ));
        }
        match expected_code {
            10 => {
                let mut lits = Vec::new();
                match take_lits(tokens, &mut lits) {
                    Ok(true) => Ok(Answer::Sat(Assignment::from_dimacs_lits(n_vars, &lits))),
                    Ok(false) => Err(self.failed(
                        "answered SAT but its model does not end with 0".to_string(),
                        stderr,
                    )),
                    Err(tok) => Err(self.failed(
                        format!("wrote an unparsable model literal '{}'", clip(tok)),
                        stderr,
                    )),
                }
            }
            20 => Ok(Answer::Unsat),
            _ => Ok(Answer::Unknown(
                "minisat answered INDETERMINATE".to_string(),
            )),
        }
    }
}

/// The form a saved answer was written in, as [`read_answer`] recognised it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnswerForm {
    /// The SAT competition's `s` line with `v` lines (kissat, CaDiCaL, any competition
    /// solver's standard output).
    Competition,
    /// MiniSat's result file (`minisat FORMULA RESULT`): `SAT` and a model line, `UNSAT`
    /// or `INDET`.
    MinisatResult,
    /// Literals ending with `0` and nothing else (`v` prefixes allowed), as a model.
    BareModel,
}

impl AnswerForm {
    /// The form's name in a message.
    pub fn name(self) -> &'static str {
        match self {
            AnswerForm::Competition => "SAT competition output",
            AnswerForm::MinisatResult => "MiniSat result file",
            AnswerForm::BareModel => "bare model",
        }
    }
}

/// A solver's answer read back from a file (see [`read_answer`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedAnswer {
    /// The verdict, with the model for SAT.
    pub answer: Answer,
    /// How it was written.
    pub form: AnswerForm,
    /// How many variables the model gives a value (the others count as false).
    pub assigned: usize,
}

/// Reads a solver's answer saved to a file, for a formula of `n_vars` variables: the SAT
/// competition's `s` and `v` lines (comment lines and anything else a solver prints are
/// skipped), MiniSat's result file, or a bare model. As strict as reading a running
/// solver: contradicting `s` lines, a SAT answer without a complete model, a literal of a
/// variable the formula does not have, or text that is none of these is an error, with a
/// message that says which. MiniSat's standard output (a bare `SATISFIABLE`) carries no
/// model, and the message says to give MiniSat a result file.
pub fn read_answer(text: &[u8], n_vars: usize) -> Result<SavedAnswer, String> {
    let mut summary = StdoutSummary {
        n_vars,
        ..StdoutSummary::default()
    };
    for line in text.split(|&b| b == b'\n') {
        summary.take_line(line);
        if let Some(reason) = summary.gave_up.take() {
            return Err(format!(
                "the answer {}",
                reason.trim_start_matches("printed ")
            ));
        }
    }
    if let Some(bad) = &summary.bad_v_line {
        return Err(format!("the answer has an unparsable v line: '{bad}'"));
    }
    let model = |lits: &[i64], form| -> Result<SavedAnswer, String> {
        if let Some(&lit) = lits.iter().find(|l| l.unsigned_abs() > n_vars as u64) {
            return Err(format!(
                "the model gives a value to variable {}, but the formula has {n_vars} variables: it is the answer for another formula",
                lit.unsigned_abs()
            ));
        }
        let mut seen = std::collections::HashSet::new();
        if let Some(&lit) = lits.iter().find(|l| !seen.insert(l.unsigned_abs())) {
            return Err(format!(
                "the model gives variable {} a value twice",
                lit.unsigned_abs()
            ));
        }
        Ok(SavedAnswer {
            answer: Answer::Sat(Assignment::from_dimacs_lits(n_vars, lits)),
            form,
            assigned: seen.len(),
        })
    };
    let verdict = |answer, form| SavedAnswer {
        answer,
        form,
        assigned: 0,
    };
    if let Some(status) = summary.status_lines.first() {
        if let Some(other) = summary.status_lines.iter().find(|s| *s != status) {
            return Err(format!(
                "the answer has contradicting s lines: 's {status}' and 's {other}'"
            ));
        }
        return match status.as_str() {
            "SATISFIABLE" if summary.model_terminated => {
                model(&summary.model, AnswerForm::Competition)
            }
            "SATISFIABLE" => Err(
                "the answer says SATISFIABLE but has no complete model (v lines ending with 0); \
                 was the solver told not to print one?"
                    .to_string(),
            ),
            "UNSATISFIABLE" => Ok(verdict(Answer::Unsat, AnswerForm::Competition)),
            "UNKNOWN" => Ok(verdict(
                Answer::Unknown("the solver answered UNKNOWN".to_string()),
                AnswerForm::Competition,
            )),
            other => Err(format!(
                "the answer has an unrecognised s line: 's {other}'"
            )),
        };
    }
    if summary.model_terminated {
        return model(&summary.model, AnswerForm::BareModel);
    }
    let text = String::from_utf8_lossy(text);
    let mut tokens = text
        .lines()
        .filter(|l| !l.starts_with('c'))
        .flat_map(str::split_ascii_whitespace);
    match tokens.next() {
        Some("SAT") => {
            let mut lits = Vec::new();
            match take_lits(tokens, &mut lits) {
                Ok(true) => model(&lits, AnswerForm::MinisatResult),
                Ok(false) => Err("the answer says SAT but its model does not end with 0".into()),
                Err(tok) => Err(format!(
                    "the answer has an unparsable model literal '{}'",
                    clip(tok)
                )),
            }
        }
        Some(first) if first.parse::<i64>().is_ok() => {
            let mut lits = Vec::new();
            match take_lits(std::iter::once(first).chain(tokens), &mut lits) {
                Ok(true) => model(&lits, AnswerForm::BareModel),
                Ok(false) => Err("the model does not end with 0".into()),
                Err(tok) => Err(format!(
                    "the model has an unparsable literal '{}'",
                    clip(tok)
                )),
            }
        }
        Some("UNSAT") => Ok(verdict(Answer::Unsat, AnswerForm::MinisatResult)),
        Some("INDET") => Ok(verdict(
            Answer::Unknown("minisat answered INDETERMINATE".to_string()),
            AnswerForm::MinisatResult,
        )),
        _ => match summary.bare_status.as_deref() {
            Some("UNSATISFIABLE") => Ok(verdict(Answer::Unsat, AnswerForm::MinisatResult)),
            Some("INDETERMINATE") => Ok(verdict(
                Answer::Unknown("minisat answered INDETERMINATE".to_string()),
                AnswerForm::MinisatResult,
            )),
            Some(_) => Err("the answer says SATISFIABLE without a model, as minisat's standard output does; \
                 run `minisat FORMULA RESULT` and decode RESULT"
                .to_string()),
            None if text.trim().is_empty() => Err("the answer is empty".to_string()),
            None => Err(format!(
                "not a solver's answer: no 's' line (SAT competition), no SAT/UNSAT/INDET (MiniSat's result file) and no model ending with 0{}",
                summary
                    .tail
                    .back()
                    .map_or(String::new(), |last| format!("; its last line is '{last}'"))
            )),
        },
    }
}

/// What the solver printed on stdout, digested line by line so that a huge model is held only
/// once, as literals.
#[derive(Default)]
pub(super) struct StdoutSummary {
    /// The text after `s ` of every `s` line.
    status_lines: Vec<String>,
    /// minisat's bare `SATISFIABLE` / `UNSATISFIABLE` / `INDETERMINATE`.
    bare_status: Option<String>,
    /// CaDiCaL prints `c UNKNOWN` instead of an `s` line when its own limit stops it.
    c_unknown: bool,
    model: Vec<i64>,
    /// A `0` ended the model: it is complete.
    model_terminated: bool,
    bad_v_line: Option<String>,
    /// Why reading stopped before the end: the output is wrong already (a model longer than
    /// the formula has variables), and the solver is to be killed.
    pub(super) gave_up: Option<String>,
    /// The formula's number of variables: no model may be longer.
    n_vars: usize,
    /// The last few lines that were not model lines, to explain a missing `s` line.
    tail: VecDeque<String>,
    pub(super) read_error: Option<std::io::Error>,
}

impl StdoutSummary {
    fn take_line(&mut self, raw: &[u8]) {
        let text = String::from_utf8_lossy(raw);
        let line = text.trim_end_matches(['\n', '\r']);
        if line == "v" || line.starts_with("v ") || line.starts_with("v\t") {
            self.take_v_line(line);
            return;
        }
        if let Some(rest) = line.strip_prefix("s ") {
            if self.status_lines.len() < 8 {
                self.status_lines.push(rest.trim().to_string());
            }
        } else if line.trim() == "c UNKNOWN" {
            self.c_unknown = true;
        } else if matches!(
            line.trim(),
            "SATISFIABLE" | "UNSATISFIABLE" | "INDETERMINATE"
        ) {
            self.bare_status = Some(line.trim().to_string());
        }
        if !line.trim().is_empty() {
            if self.tail.len() == STDOUT_TAIL_LINES {
                self.tail.pop_front();
            }
            self.tail.push_back(clip(line));
        }
    }

    fn take_v_line(&mut self, line: &str) {
        if self.model_terminated || self.bad_v_line.is_some() {
            return;
        }
        match take_lits(line[1..].split_ascii_whitespace(), &mut self.model) {
            Ok(terminated) => self.model_terminated = terminated,
            Err(_) => self.bad_v_line = Some(clip(line)),
        }
        // Checked per line, so an endless model is refused after at most one line too many.
        if self.model.len() > self.n_vars {
            self.gave_up = Some(format!(
                "printed a model of more than {} literals, but the formula has {} variables",
                self.n_vars, self.n_vars
            ));
        }
    }
}

/// Appends the DIMACS literals of `tokens` to `lits` up to a terminating `0`. Returns whether
/// that `0` came, or the first token that is not a literal.
fn take_lits<'a>(
    tokens: impl Iterator<Item = &'a str>,
    lits: &mut Vec<i64>,
) -> Result<bool, &'a str> {
    for tok in tokens {
        match tok.parse::<i64>() {
            Ok(0) => return Ok(true),
            Ok(l) => lits.push(l),
            Err(_) => return Err(tok),
        }
    }
    Ok(false)
}

/// Digests a solver's stdout for a formula of `n_vars` variables. Stops early (with
/// [`StdoutSummary::gave_up`] set) once the output is wrong beyond repair; the caller then
/// kills the solver. The length of the input is the caller's to bound (see
/// [`super::process::Pipe`]): a line is held whole while it is read.
pub(super) fn read_stdout(pipe: impl Read, n_vars: usize) -> StdoutSummary {
    let mut summary = StdoutSummary {
        n_vars,
        ..StdoutSummary::default()
    };
    let mut reader = BufReader::with_capacity(64 * 1024, pipe);
    // `split` retries reads that a signal interrupted.
    for line in reader.by_ref().split(b'\n') {
        match line {
            Ok(line) => {
                summary.take_line(&line);
                if summary.gave_up.is_some() {
                    return summary;
                }
            }
            Err(e) => {
                summary.read_error = Some(e);
                break;
            }
        }
    }
    // After a read error, keep draining so the solver never blocks on a full pipe.
    let _ = std::io::copy(&mut reader, &mut std::io::sink());
    summary
}

/// How many bytes a solver may print for a formula of `n_vars` variables: the general cap
/// plus room for a model (a literal, its sign and a space take at most 12 bytes below 10^10
/// variables; 16 leaves room for `v ` line starts).
pub(super) fn stdout_cap(n_vars: usize) -> u64 {
    super::process::STDOUT_CAP.saturating_add((n_vars as u64).saturating_mul(16))
}

/// The largest result file read from minisat: its model line and little else.
fn result_cap(n_vars: usize) -> u64 {
    stdout_cap(n_vars)
}

/// The whole of the file at `path`, or `None` when it is longer than `cap` bytes.
fn read_capped(path: &Path, cap: u64) -> std::io::Result<Option<Vec<u8>>> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(cap.saturating_add(1))
        .read_to_end(&mut bytes)?;
    Ok((bytes.len() as u64 <= cap).then_some(bytes))
}

/// Shortens solver output quoted in a one-line message.
pub(super) fn clip(s: &str) -> String {
    const MAX: usize = 120;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        let cut: String = s.chars().take(MAX).collect();
        format!("{cut}...")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str, n_vars: usize) -> Result<SavedAnswer, String> {
        read_answer(text.as_bytes(), n_vars)
    }

    fn model(answer: &SavedAnswer) -> Vec<bool> {
        match &answer.answer {
            Answer::Sat(m) => (1..=m.len()).map(|v| m.value(v)).collect(),
            other => panic!("not SAT: {other:?}"),
        }
    }

    #[test]
    fn competition_output_with_comments_and_split_v_lines() {
        let kissat =
            "c ---- [ banner ] ----\nc kissat 4.0.4\ns SATISFIABLE\nv 1 -2\nv 3 0\nc exit 10\n";
        let a = read(kissat, 3).unwrap();
        assert_eq!(a.form, AnswerForm::Competition);
        assert_eq!(model(&a), [true, false, true]);
        assert_eq!(a.assigned, 3);
        let unsat = read("c x\ns UNSATISFIABLE\n", 3).unwrap();
        assert_eq!(unsat.answer, Answer::Unsat);
        assert!(matches!(
            read("s UNKNOWN\n", 3).unwrap().answer,
            Answer::Unknown(_)
        ));
    }

    #[test]
    fn minisat_result_files_and_bare_models() {
        let a = read("SAT\n-1 2 -3 0\n", 3).unwrap();
        assert_eq!(a.form, AnswerForm::MinisatResult);
        assert_eq!(model(&a), [false, true, false]);
        assert_eq!(read("UNSAT\n", 3).unwrap().answer, Answer::Unsat);
        assert!(matches!(
            read("INDET\n", 3).unwrap().answer,
            Answer::Unknown(_)
        ));
        let bare = read("1 2 -3 0\n", 3).unwrap();
        assert_eq!(bare.form, AnswerForm::BareModel);
        assert_eq!(model(&bare), [true, true, false]);
        let v_only = read("v -1 -2 3 0\n", 3).unwrap();
        assert_eq!(v_only.form, AnswerForm::BareModel);
        // A partial model: the variables left out count as false, and the count says so.
        assert_eq!(read("SAT\n2 0\n", 3).unwrap().assigned, 1);
    }

    #[test]
    fn what_is_not_an_answer_is_refused_saying_why() {
        let cases = [
            ("s SATISFIABLE\nv 1 2\n", "no complete model"),
            ("s SATISFIABLE\ns UNSATISFIABLE\n", "contradicting s lines"),
            ("s MAYBE\n", "unrecognised s line"),
            ("s SATISFIABLE\nv 1 x 0\n", "unparsable v line"),
            ("SAT\n1 2\n", "does not end with 0"),
            ("SATISFIABLE\n", "minisat FORMULA RESULT"),
            ("1 -7 0\n", "variable 7, but the formula has 3"),
            ("1 -1 0\n", "variable 1 a value twice"),
            ("", "empty"),
            ("hello world\n", "not a solver's answer"),
            ("s SATISFIABLE\nv 1 2 3 4 5 0\n", "more than 3"),
        ];
        for (text, says) in cases {
            let e = read(text, 3).expect_err(text);
            assert!(e.contains(says), "{text:?}: {e}");
        }
        assert_eq!(read("UNSATISFIABLE\n", 3).unwrap().answer, Answer::Unsat);
    }
}
