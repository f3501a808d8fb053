//! What pq-sat prints. Each JSON output is a `#[derive(Serialize)]` type here, and each
//! JSON input (`render`, `canon`) is read back through `#[derive(Deserialize)]` on the same
//! types ([`input`]); text output is rendered from the same values. Pictures ([`plot`]) and
//! progress on stderr ([`progress`]) live here too, so the binary only parses, validates and
//! runs.

pub mod check;
pub mod cube;
pub mod decode;
pub mod enumerate;
pub mod files;
pub mod input;
#[cfg(test)]
mod input_fuzz;
pub mod plot;
pub mod progress;
pub mod race;
pub mod slurm;
pub mod solve;
pub mod split;
pub mod submission;

use std::io::{self, Write};

use pq_board::placement::{Layout, Placement, Rules};
use pq_encode::spec::{Count, Preset, Problem};
use serde::{Deserialize, Serialize};

/// What a report could not do: write its output, serialise, draw, or read what it was given.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Writing or reading failed.
    #[error(transparent)]
    Io(#[from] io::Error),
    /// A report that could not be written or read as JSON.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// An output file pq-sat refused to write.
    #[error(transparent)]
    Output(#[from] pq_io::IoError),
    /// The engine or a solver failed.
    #[error(transparent)]
    Solve(#[from] pq_solve::error::SolveError),
    /// A picture that could not be drawn.
    #[error("cannot draw the picture: {0}")]
    Plot(String),
    /// Input that does not make sense, in words.
    #[error("{0}")]
    Invalid(String),
}

impl<E: std::error::Error + Send + Sync> From<plotters::drawing::DrawingAreaErrorKind<E>>
    for Error
{
    fn from(e: plotters::drawing::DrawingAreaErrorKind<E>) -> Error {
        Error::Plot(e.to_string())
    }
}

impl From<pq_board::limits::SizeError> for Error {
    fn from(e: pq_board::limits::SizeError) -> Error {
        Error::Invalid(e.to_string())
    }
}

/// A report's result.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Output format of a command's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    /// A labelled board and a summary line
    #[default]
    Text,
    /// One JSON object on standard output
    Json,
}

/// How progress is shown on stderr.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgressMode {
    /// A live line when stderr is a terminal, plain lines otherwise
    Auto,
    /// One plain line per finished step
    Lines,
    /// Nothing
    None,
}

/// Writes `report` as one line of JSON on standard output.
pub fn emit_json<T: Serialize>(report: &T) -> Result<()> {
    let mut out = io::stdout().lock();
    serde_json::to_writer(&mut out, report)?;
    writeln!(out)?;
    Ok(())
}

/// Writes `report` as JSON, or the text `text` makes of it.
pub fn emit<T: Serialize>(format: Format, report: &T, text: impl FnOnce() -> String) -> Result<()> {
    match format {
        Format::Json => emit_json(report),
        Format::Text => emit_text(&text()),
    }
}

/// [`emit`] on standard error: for a run whose standard output carries data (a search
/// certificate streamed with `--proof -`).
pub fn emit_to_stderr<T: Serialize>(
    format: Format,
    report: &T,
    text: impl FnOnce() -> String,
) -> Result<()> {
    let mut out = io::stderr().lock();
    match format {
        Format::Json => {
            serde_json::to_writer(&mut out, report)?;
            writeln!(out)?;
        }
        Format::Text => out.write_all(text().as_bytes())?,
    }
    out.flush()?;
    Ok(())
}

/// Writes text on standard output.
pub fn emit_text(text: &str) -> Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// Which problem a report is about: the peaceable queens (`dim`, as pq-sat has always
/// reported them) or a placement problem, described in full so that the report can be
/// read back without its TOML file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Subject {
    /// The peaceable-queens preset on `dim × dim`.
    Queens {
        /// The board side.
        dim: usize,
    },
    /// Any other placement problem.
    Problem(ProblemReport),
}

impl Subject {
    /// The subject of a report about `problem` with its maximised groups at `n` (`None`:
    /// not fixed, as in an optimisation).
    pub fn of(problem: &Problem, n: Option<usize>) -> Subject {
        match problem.preset() {
            Preset::Queens { dim } => Subject::Queens { dim },
            Preset::General => Subject::Problem(ProblemReport::of(problem, n)),
        }
    }
}

/// A placement problem as reports describe it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProblemReport {
    /// The problem's name.
    pub problem: String,
    /// The board's shape.
    #[serde(with = "Shape")]
    pub board: Layout,
    /// The groups, in order.
    pub groups: Vec<GroupReport>,
    /// Pairs of group names that must not attack each other (a name twice: within a group).
    pub no_attack: Vec<[String; 2]>,
}

/// The shape of a board, as reports write a [`Layout`].
#[derive(Serialize, Deserialize)]
#[serde(remote = "Layout")]
struct Shape {
    /// Number of rows.
    pub rows: usize,
    /// Number of columns.
    pub cols: usize,
    /// Whether lines wrap around the edges.
    #[serde(default)]
    pub torus: bool,
}

/// One group of pieces as reports describe it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GroupReport {
    /// The group's name.
    pub name: String,
    /// Its kind of piece (`queen`, `rook`, ...).
    pub kind: String,
    /// The character that stands for it in boards.
    pub symbol: String,
    /// How many pieces: a number, or `"max"` when the report maximises it.
    pub count: CountReport,
}

/// A group's count in a report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum CountReport {
    /// Exactly this many.
    Exactly(usize),
    /// `"max"`: as many as possible.
    Max(String),
}

impl ProblemReport {
    /// Describes `problem` with its maximised groups at `n` (`None`: `"max"`).
    pub fn of(problem: &Problem, n: Option<usize>) -> ProblemReport {
        let rules = &problem.rules;
        let symbols = Placement::symbols(rules);
        ProblemReport {
            problem: problem.name.clone(),
            board: rules.layout,
            groups: rules
                .groups
                .iter()
                .enumerate()
                .map(|(g, group)| GroupReport {
                    name: group.name.clone(),
                    kind: group.kind.name().into(),
                    symbol: symbols[g].to_string(),
                    count: match (problem.counts[g], n) {
                        (Count::Exactly(k), _) | (Count::Maximise, Some(k)) => {
                            CountReport::Exactly(k)
                        }
                        (Count::Maximise, None) => CountReport::Max("max".into()),
                    },
                })
                .collect(),
            no_attack: rules
                .no_attack
                .iter()
                .map(|&(a, b)| [rules.groups[a].name.clone(), rules.groups[b].name.clone()])
                .collect(),
        }
    }
}

/// Rows of symbols, one string per row (`.` = empty), with the problem's own symbols.
pub fn rows(rules: &Rules, p: &Placement) -> Vec<String> {
    p.rows_as_strings(&Placement::symbols(rules))
}

/// The labelled text board and, for problems other than the queens, a legend line.
pub fn board_text(problem: &Problem, p: &Placement) -> String {
    let symbols = Placement::symbols(&problem.rules);
    let mut text = p.to_labelled_text(&symbols);
    if problem.preset().needs_legend() {
        text.push_str(&legend(&problem.rules, &symbols, Some(p)));
    }
    text
}

/// The legend under a text board: each symbol, its group and kind (and count).
pub fn legend(rules: &Rules, symbols: &[char], p: Option<&Placement>) -> String {
    let entries: Vec<String> = rules
        .groups
        .iter()
        .enumerate()
        .map(|(g, group)| {
            let count = p.map(|p| format!(" ×{}", p.count(g))).unwrap_or_default();
            format!("{} = {} ({}){count}", symbols[g], group.name, group.kind)
        })
        .collect();
    format!("{}\n", entries.join(", "))
}

/// `enumerate`'s report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Enumeration {
    /// The problem.
    #[serde(flatten)]
    pub subject: Subject,
    /// The size of the maximised groups (each army, for the queens).
    pub n: usize,
    /// `total` or `symmetry`.
    pub up_to: String,
    /// Only maximal configurations.
    pub maximal: bool,
    /// Placements (orbits, up to symmetry) found.
    pub count: usize,
    /// Placements counting every symmetric image.
    pub total_boards: usize,
    /// With `maximal`: configurations whose maximised groups differ in size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unequal: Option<usize>,
    /// False when stopped early (limit, time, Ctrl-C).
    pub complete: bool,
    /// Why it stopped early, when a limit or signal stopped it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// The cubes the search was split into (1: one search; `--split`).
    #[serde(default = "one")]
    pub cubes: usize,
    /// Threads that solved them (`--jobs`).
    #[serde(default = "one")]
    pub jobs: usize,
    /// Each placement as rows of symbols (absent with `--count`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boards: Option<Vec<Vec<String>>>,
    /// The orbit size of each placement, in the same order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub orbit_sizes: Option<Vec<usize>>,
}

/// `canon`'s report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Canon {
    /// The problem the placement belongs to.
    #[serde(flatten)]
    pub subject: Subject,
    /// The orbit's canonical member, as rows of symbols.
    pub canonical: Vec<String>,
    /// Distinct placements in the orbit.
    pub orbit_size: usize,
    /// Whether the placement read was already canonical.
    pub is_canonical: bool,
}

/// The certificate bundle an optimisation wrote (`"certificate"` in its report).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CertificateSummary {
    /// The bundle's directory.
    pub dir: String,
    /// What it certifies, e.g. `a(8) = 9`.
    pub claim: String,
    /// `drat` or `lrat`.
    pub proof_format: String,
    /// The proof's size.
    pub proof_bytes: u64,
    /// The solver that wrote the proof.
    pub solver: String,
    /// The checker that verified it.
    pub checker: String,
    /// The checker's verdict line.
    pub verdict: String,
    /// Seconds the check took.
    pub check_seconds: f64,
    /// What exactly the proof certifies.
    pub certified_formula: String,
}

impl CertificateSummary {
    /// The summary of bundle `c` written into `dir`.
    pub fn of(dir: &std::path::Path, c: &pq_engine::proof::certificate::Certificate) -> Self {
        CertificateSummary {
            dir: dir.display().to_string(),
            claim: c.claim.clone(),
            proof_format: c.unsat.proof_format.clone(),
            proof_bytes: c.unsat.proof_bytes,
            solver: c.unsat.solver.clone(),
            checker: c.unsat.checker.clone(),
            verdict: c.unsat.verdict.clone(),
            check_seconds: c.unsat.check_seconds,
            certified_formula: c.unsat.certified_formula.clone(),
        }
    }

    /// Two lines for the text report, with the command that re-checks the bundle.
    pub fn text(&self, n: usize) -> String {
        let proof = match self.proof_format.as_str() {
            "search" => "search certificate".to_string(),
            format => format!("{} proof", format.to_uppercase()),
        };
        format!(
            "certificate: {} ({}: {proof} of n = {n} by {}, {} bytes, {} {} in {:.2} s); re-check with `pq-sat check-certificate {}`\ncertifies: {}\n",
            self.dir,
            self.claim,
            self.solver,
            self.proof_bytes,
            self.checker,
            self.verdict,
            self.check_seconds,
            self.dir,
            self.certified_formula
        )
    }
}

/// The default of counts that were 1 before they were reported.
fn one() -> usize {
    1
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn round_trip<T>(report: &T)
    where
        T: Serialize + for<'de> Deserialize<'de> + PartialEq + std::fmt::Debug,
    {
        let text = serde_json::to_string(report).unwrap();
        let back: T = serde_json::from_str(&text).unwrap();
        assert_eq!(&back, report, "{text}");
    }

    pub(crate) fn three_armies() -> Problem {
        Problem::from_toml(include_str!("../../../encodings/three-armies.toml")).unwrap()
    }

    #[test]
    fn enumeration_reports_round_trip() {
        for subject in [
            Subject::of(&Problem::peaceable_queens(5), Some(4)),
            Subject::of(&three_armies(), Some(2)),
        ] {
            round_trip(&Enumeration {
                subject,
                n: 4,
                up_to: "symmetry".into(),
                maximal: true,
                count: 2,
                total_boards: 9,
                unequal: Some(1),
                complete: false,
                stopped: Some("time limit".into()),
                seconds: 0.25,
                cubes: 81,
                jobs: 2,
                boards: Some(vec![vec!["W.".into(), ".B".into()]]),
                orbit_sizes: Some(vec![8]),
            });
        }
    }

    #[test]
    fn certificate_summaries_round_trip() {
        round_trip(&CertificateSummary {
            dir: "c8".into(),
            claim: "a(8) = 9".into(),
            proof_format: "drat".into(),
            proof_bytes: 1234,
            solver: "kissat 4.0.4".into(),
            checker: "rate".into(),
            verdict: "s VERIFIED".into(),
            check_seconds: 0.5,
            certified_formula: "the plain encoding".into(),
        });
    }

    #[test]
    fn canon_reports_round_trip() {
        round_trip(&Canon {
            subject: Subject::of(&three_armies(), None),
            canonical: vec!["R....".into()],
            orbit_size: 48,
            is_canonical: false,
        });
        let queens = Subject::of(&Problem::peaceable_queens(3), None);
        assert_eq!(queens, Subject::Queens { dim: 3 });
        let json = serde_json::to_value(&queens).unwrap();
        assert_eq!(json["dim"], 3);
    }
}
