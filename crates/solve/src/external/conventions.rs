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
