//! `pq-sat decode`: a solver's answer to a pq-sat formula, read back as a board.

use pq_encode::spec::Problem;
use pq_engine::capability::{Outcome, Status};
use serde::{Deserialize, Serialize};

use crate::solve::Solved;

/// A saved answer decoded against its formula: the report `solve` gives for the same
/// answer, and how the answer was written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Decoded {
    /// The answer as `solve` reports one (`backend` is `answer`, `solver` the answer's
    /// file name).
    #[serde(flatten)]
    pub solved: Solved,
    /// The form recognised: SAT competition output, MiniSat result file or bare model.
    pub answer_form: String,
    /// For SAT: how many variables the model gives a value (the others count as false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assigned: Option<usize>,
}

impl Decoded {
    /// The text answer: a headline that says what the answer claims and how far it is
    /// known, then the board.
    pub fn text(&self, problem: Option<(&Problem, Option<usize>)>, outcome: &Outcome) -> String {
        let source = &self.solved.solver;
        let fits = match outcome.status {
            Status::Sat => Some(true),
            Status::Unsat => Some(false),
            Status::Unknown => None,
        };
        let claim = match problem {
            Some((p, Some(n))) => p.preset().claim(p, n, fits),
            Some((p, None)) => match fits {
                Some(false) => format!("{} is impossible", p.summary()),
                _ => p.summary(),
            },
            None => format!(
                "{} variables, {} clauses",
                self.solved.variables, self.solved.clauses
            ),
        };
        let status = match outcome.status {
            Status::Sat => "SAT",
            Status::Unsat => "UNSAT",
            Status::Unknown => "UNKNOWN",
        };
        let how = match outcome.status {
            Status::Sat => format!(
                "{source}, {}: the model satisfies every clause; the board passed the validator",
                self.answer_form
            ),
            Status::Unsat => format!("{source}: a solver's unchecked word"),
            Status::Unknown => format!(
                "{source}: {}",
                outcome.reason.as_deref().unwrap_or("no answer")
            ),
        };
        let mut text = format!("{status}: {claim} ({how})\n");
        if let (Some((p, _)), Some(placement)) = (problem, &outcome.placement) {
            text.push_str(&crate::board_text(p, placement));
        }
        text
    }
}
