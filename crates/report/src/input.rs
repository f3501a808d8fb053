//! Reading a placement back: pq-sat's JSON reports (through the report types), an array of
//! rows, or a text board (pq-sat's own text output is accepted). Used by `canon` and
//! `render`.

use crate::{Error, Result};

/// Returns the refusal `$($why)*` as an [`Error::Invalid`].
macro_rules! bail {
    ($($why:tt)*) => {
        return Err(Error::Invalid(format!($($why)*)))
    };
}
use pq_board::limits;
use pq_board::placement::{Group, Kind, Placement, Rules};
use pq_encode::spec::{Count, Problem};
use serde::Deserialize;

use super::solve::Witness;
use super::{CountReport, ProblemReport, Subject};

/// A placement read back, with the problem it belongs to.
#[derive(Debug)]
pub struct Read {
    /// The problem: the one given, the one the report describes, or the queens preset.
    pub problem: Problem,
    /// The placement.
    pub placement: Placement,
}

/// Any pq-sat report that carries one placement: its problem (the queens' `dim`, or a
/// problem described in full), and the placement as `board`/`placement` rows or, from
/// `canon`, as `canonical` rows.
#[derive(Deserialize)]
struct AnyReport {
    #[serde(flatten)]
    subject: Option<Subject>,
    #[serde(flatten)]
    witness: Option<Witness>,
    #[serde(default)]
    canonical: Option<Vec<String>>,
}

/// Reads one placement from `text`. With `given`, text rows use its symbols and a JSON
/// report must describe a problem of the same shape; without it, a JSON report names its
/// own problem and text rows are a queens board (`W`, `B`, `.`).
pub fn read_placement(text: &str, given: Option<&Problem>) -> Result<Read> {
    let trimmed = text.trim_start();
    if trimmed.starts_with('[') {
        let rows: Vec<String> = serde_json::from_str(trimmed).map_err(|e| {
            Error::Invalid(format!(
                "JSON board: expected an array of rows or an object with a \"board\" array: {e}"
            ))
        })?;
        return from_rows(&rows, given);
    }
    if !trimmed.starts_with('{') {
        return from_rows(&text_rows(text), given);
    }
    let report: AnyReport = serde_json::from_str(trimmed)
        .map_err(|e| Error::Invalid(format!("the input is not valid JSON: {e}")))?;
    let rows = match (report.witness, report.canonical) {
        (Some(Witness::Board { board: rows } | Witness::Placement { placement: rows }), _)
        | (None, Some(rows)) => rows,
        (None, None) if matches!(report.subject, Some(Subject::Problem(_))) => {
            bail!("the JSON has no placement (an UNSAT or unknown answer has no board to draw)")
        }
        (None, None) => {
            bail!("JSON board: expected an array of rows or an object with a \"board\" array")
        }
    };
    match (report.subject, given) {
        (Some(Subject::Problem(report)), None) => from_rows(&rows, Some(&problem_of(&report)?)),
        (_, given) => from_rows(&rows, given),
    }
}

/// The problem a report describes, its groups' counts as they were reported.
fn problem_of(report: &ProblemReport) -> Result<Problem> {
    let mut groups = Vec::new();
    for g in &report.groups {
        let kind: Kind = g.kind.parse().map_err(Error::Invalid)?;
        let count = match g.count {
            CountReport::Exactly(k) => Count::Exactly(k),
            CountReport::Max(_) => Count::Maximise,
        };
        groups.push((
            Group {
                name: g.name.clone(),
                kind,
            },
            count,
        ));
    }
    let pairs: Vec<(String, String)> = report
        .no_attack
        .iter()
        .map(|[a, b]| (a.clone(), b.clone()))
        .collect();
    Problem::from_parts(report.problem.clone(), report.board, groups, &pairs)
        .map_err(|e| Error::Invalid(format!("the report's problem: {e}")))
}

/// The board rows of a text: one word (`W..B`) or single-character words (`W . . B`) after
/// an optional row number; summary lines (longer words), comments (`#`) and the header of
/// lower-case column letters are skipped.
fn text_rows(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| {
            let mut words: Vec<&str> = line.split_whitespace().collect();
            if words.len() > 1 && words[0].chars().all(|c| c.is_ascii_digit()) {
                words.remove(0);
            }
            let header = words
                .iter()
                .all(|w| w.len() <= 2 && w.chars().all(|c| c.is_ascii_lowercase()));
            let row = words.len() == 1 || words.iter().all(|w| w.chars().count() == 1);
            (!words.is_empty() && !header && row && !words[0].starts_with('#'))
                .then(|| words.concat())
        })
        .collect()
}

/// A placement from rows of symbols: the problem's own, or a queens board.
fn from_rows(rows: &[String], problem: Option<&Problem>) -> Result<Read> {
    let Some(problem) = problem else {
        let placement = queens_board(rows)
            .map_err(|e| Error::Invalid(format!("cannot read the board: {e}")))?;
        return Ok(Read {
            problem: Problem::peaceable_queens(placement.rows),
            placement,
        });
    };
    let symbols = Placement::symbols(&problem.rules);
    let p = Placement::from_rows(&problem.rules.layout, rows, &symbols).map_err(Error::Invalid)?;
    Ok(Read {
        problem: problem.clone(),
        placement: p,
    })
}

/// A queens board from rows of `W`, `B` and `.` (also lower case, and `-` or `_` for an
/// empty square; blank rows skipped): as many columns as rows.
fn queens_board(rows: &[String]) -> Result<Placement> {
    let rows: Vec<Vec<char>> = rows
        .iter()
        .map(|r| r.chars().filter(|c| !c.is_whitespace()).collect())
        .filter(|r: &Vec<char>| !r.is_empty())
        .collect();
    if rows.is_empty() {
        bail!("the board is empty");
    }
    let d = rows.len();
    // Checked before the d² squares are allocated: 100000 one-letter lines are not a board.
    limits::SIDE.named("the board's number of rows").check(d)?;
    if let Some((r, row)) = rows.iter().enumerate().find(|(_, row)| row.len() != d) {
        bail!("row {} has {} squares, expected {d}", r + 1, row.len());
    }
    let mut p = Placement::empty(&Rules::peaceable_queens(d).layout);
    for (r, row) in rows.iter().enumerate() {
        for (c, &ch) in row.iter().enumerate() {
            let group = match ch {
                '.' | '-' | '_' => None,
                'W' | 'w' => Some(0),
                'B' | 'b' => Some(1),
                _ => bail!("row {} has an unknown square '{ch}' (use W, B or .)", r + 1),
            };
            p.set(r, c, group);
        }
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ProblemReport, Subject};

    #[test]
    fn a_problem_report_is_read_back_with_its_problem() {
        let problem =
            Problem::from_toml(include_str!("../../../encodings/three-armies.toml")).unwrap();
        let mut p = Placement::empty(&problem.rules.layout);
        p.set(0, 0, Some(0));
        p.set(4, 4, Some(2));
        let mut json = serde_json::to_value(ProblemReport::of(&problem, Some(1))).unwrap();
        json["placement"] = serde_json::json!(crate::rows(&problem.rules, &p));
        let read = read_placement(&json.to_string(), None).unwrap();
        assert_eq!(read.placement, p);
        assert_eq!(read.problem.rules, problem.rules);
    }

    #[test]
    fn queens_boards_come_as_text_json_or_rows() {
        let text = "   a b c\n1  W . .\n2  . . .\n3  . . B\n";
        let a = read_placement(text, None).unwrap();
        let b = read_placement(r#"{"dim": 3, "board": ["W..", "...", "..B"]}"#, None).unwrap();
        let c = read_placement(r#"["W..", "...", "..B"]"#, None).unwrap();
        assert_eq!(a.placement, b.placement);
        assert_eq!(b.placement, c.placement);
        assert_eq!(a.problem, Problem::peaceable_queens(3));
        let _ = Subject::Queens { dim: 3 };
    }

    #[test]
    fn queens_boards_accept_lower_case_and_dashes() {
        let a = read_placement("w.-\n\n_.b\n...\n", None).unwrap();
        let b = read_placement("W..\n..B\n...\n", None).unwrap();
        assert_eq!(a.placement, b.placement);
        assert_eq!(a.placement.get(1, 2), Some(1));
        let err = |text: &str| format!("{:#}", read_placement(text, None).unwrap_err());
        assert_eq!(err("\n\n"), "cannot read the board: the board is empty");
        assert_eq!(
            err("W..\n..\n...\n"),
            "cannot read the board: row 2 has 2 squares, expected 3"
        );
        assert_eq!(
            err("W..\n.x.\n...\n"),
            "cannot read the board: row 2 has an unknown square 'x' (use W, B or .)"
        );
    }

    #[test]
    fn bad_input_says_what_is_wrong() {
        let problem =
            Problem::from_toml(include_str!("../../../encodings/three-armies.toml")).unwrap();
        let err = read_placement("RRX..\n.....\n.....\n.....\n.....\n", Some(&problem))
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown symbol 'X'"), "{err}");
        let err = read_placement("R..\n", Some(&problem))
            .unwrap_err()
            .to_string();
        assert!(err.contains("1 rows"), "{err}");
        assert!(read_placement(
            r#"{"status": "unsat", "groups": [], "board": {"rows": 2, "cols": 2}}"#,
            None
        )
        .is_err());
    }
}
