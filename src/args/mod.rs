//! The arguments that several commands share, declared once, and their parsers: what a
//! command's own file and the top-level parser both use (so `commands` never imports
//! `cli`, which puts the commands together).

mod cube;

pub(crate) use cube::CubeSolverArgs;

use std::path::PathBuf;

use clap::{Args as ClapArgs, ValueEnum};
use pq_board::limits::{self, Limit};
use pq_encode::spec::Problem;
use pq_encode::{Bounds, Card, Instance, Model, Options, Symmetry};
use pq_engine::proof::ProofFormat;
use pq_solve::spec::BackendSpec;

pub(crate) use pq_ops::values::{parse_dim, parse_jobs, parse_n, parse_timeout};

/// Output format of a command's answer (`--format`).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) enum Format {
    /// A labelled board and a summary line
    #[default]
    Text,
    /// One JSON object on standard output
    Json,
}

impl From<Format> for pq_report::Format {
    fn from(f: Format) -> pq_report::Format {
        match f {
            Format::Text => pq_report::Format::Text,
            Format::Json => pq_report::Format::Json,
        }
    }
}

/// `--format`, declared once for every command that prints an answer.
#[derive(ClapArgs, Clone, Copy, Debug)]
pub(crate) struct FormatArg {
    /// Output format: text for people, json (one object on standard output) for scripts
    #[arg(help_heading = "Output", long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
}

/// `--check-unsat`, declared once for the commands that take a solver's UNSAT as an
/// answer (and only there: `canon` or `hash` do not list it).
#[derive(ClapArgs, Clone, Copy, Debug, Default)]
pub(crate) struct CheckUnsatArg {
    /// Count an UNSAT only once its proof is checked (rate, ACL2, pq-check)
    ///
    /// Count a solver's UNSAT only once the independent checker has verified its proof:
    /// each solver writes a DRAT proof (LRAT from the in-process CaDiCaL with --proof-format
    /// lrat), checked by `rate` (ACL2's checker); a proof that fails is a solver error, and
    /// a portfolio waits for its other members. For `solve` (every step of an optimisation
    /// too), `race`, `family --verify`, the optimum `enumerate` finds first, `solve-cube`,
    /// `conquer`, and `cube --estimate` (the sample's cost is then that of checked proofs);
    /// a --solver-cmd must say where its proof goes with {proof} (and
    /// {cnf} where the CNF goes if not last); minisat writes no proofs
    #[arg(help_heading = "Proofs", long)]
    pub(crate) check_unsat: bool,
}

/// `--force`, declared once for every command whose outputs it may replace.
#[derive(ClapArgs, Clone, Copy, Debug)]
pub(crate) struct ForceArg {
    /// Replace outputs pq-sat wrote before
    ///
    /// Replace outputs pq-sat wrote before (a regular file, or a directory with pq-sat's own
    /// manifest: a family, a cube directory, a certificate bundle); without it an existing
    /// output is refused before any work. A link, a special file or a user's non-empty
    /// directory is never replaced
    #[arg(help_heading = "Output", long)]
    pub(crate) force: bool,
}

/// How progress is shown on stderr (`--progress`).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ProgressMode {
    /// A live line when stderr is a terminal, plain lines otherwise
    Auto,
    /// One plain line per finished step
    Lines,
    /// Nothing
    None,
}

impl From<ProgressMode> for pq_report::ProgressMode {
    fn from(m: ProgressMode) -> pq_report::ProgressMode {
        match m {
            ProgressMode::Auto => pq_report::ProgressMode::Auto,
            ProgressMode::Lines => pq_report::ProgressMode::Lines,
            ProgressMode::None => pq_report::ProgressMode::None,
        }
    }
}

/// The size of a problem's maximised groups for a single check: `Some(n)` from `--n`
/// (`Some(0)` when nothing is maximised), `None` to maximise.
pub(crate) fn problem_size(problem: &Problem, n: Option<usize>) -> Result<Option<usize>, String> {
    pq_engine::plan::request::size_asked(problem, n).map_err(|e| e.to_string())
}

impl SubjectArgs {
    /// The problem (`--dim D`: the queens preset) and the size given; `--dim D --n N` is
    /// checked as a queens instance for its messages ("too many queens").
    pub(crate) fn load(&self) -> Result<(Problem, Option<usize>), String> {
        let problem = self.problem.load_or_queens(self.dim)?;
        // clap requires one of the two.
        let problem = problem.ok_or_else(|| "give --dim D or --problem FILE".to_string())?;
        if let (Some(dim), Some(n)) = (self.dim, self.n) {
            Instance::new(dim, n).map_err(|e| e.to_string())?;
        }
        Ok((problem, self.n))
    }
}

/// Checks that `--check-unsat` can ask `spec` for a proof in `format`.
pub(crate) fn checkable(spec: &BackendSpec, format: ProofFormat) -> Result<(), String> {
    pq_engine::proof::check_capable(spec, format).map_err(|e| format!("--check-unsat: {e}"))
}

/// An `-o` value: `-` is standard output, as for every other pq-sat file argument and
/// every SAT tool, not a file named `-`.
pub(crate) fn file_or_stdout(path: Option<PathBuf>) -> Option<PathBuf> {
    path.filter(|p| p.as_os_str() != "-")
}

/// The command line as typed, for manifests: each word as a shell reads it back, a name
/// that is not UTF-8 written with `$'\xHH'` escapes for its bytes.
pub(crate) fn command_line() -> String {
    // The program as `pq-sat`, not the path it ran from (`/tmp/…/target/release/pq-sat`):
    // what is recorded is a command to run again, anywhere pq-sat is installed.
    std::env::args_os()
        .enumerate()
        .map(|(i, a)| if i == 0 { "pq-sat".into() } else { a })
        .map(|a| shell_word(&a))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `word` as a shell reads it back: as it is, in single quotes when it holds white space or
/// is empty, as `$'…'` with `\xHH` for each byte outside printable ASCII when it is not
/// UTF-8.
fn shell_word(word: &std::ffi::OsStr) -> String {
    match word.to_str() {
        Some(a) if a.contains(char::is_whitespace) || a.is_empty() => format!("'{a}'"),
        Some(a) => a.to_string(),
        None => {
            let bytes = std::os::unix::ffi::OsStrExt::as_bytes(word);
            let escaped: String = bytes
                .iter()
                .map(|&b| match b {
                    b'\\' | b'\'' => format!("\\{}", b as char),
                    0x20..=0x7e => (b as char).to_string(),
                    _ => format!("\\x{b:02x}"),
                })
                .collect();
            format!("$'{escaped}'")
        }
    }
}

/// The number of cores, the default size of the portfolio.
pub(crate) fn default_jobs() -> usize {
    pq_io::cores()
}

/// How `family` compresses its instance files.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CompressArg {
    /// Plain DIMACS (`NAME.cnf`)
    None,
    /// xz (`NAME.cnf.xz`), as the SAT competitions ship instances
    Xz,
    /// gzip (`NAME.cnf.gz`)
    Gz,
    /// bzip2 (`NAME.cnf.bz2`)
    Bz2,
}

impl CompressArg {
    /// The engine's name for the format.
    pub(crate) fn format(self) -> pq_io::compress::Compression {
        use pq_io::compress::Compression;
        match self {
            CompressArg::None => Compression::None,
            CompressArg::Xz => Compression::Xz,
            CompressArg::Gz => Compression::Gzip,
            CompressArg::Bz2 => Compression::Bzip2,
        }
    }
}

/// What `family` writes for each instance.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum InstanceFormat {
    /// DIMACS CNF, one file per size
    Cnf,
    /// WCNF: the optimisation as weighted partial MaxSAT, one file per board
    Wcnf,
    /// OPB: the optimisation as pseudo-Boolean constraints, one file per board
    Opb,
}

impl InstanceFormat {
    /// The optimisation's export format, `None` for DIMACS.
    pub(crate) fn export(self) -> Option<pq_encode::maxsat::Export> {
        match self {
            InstanceFormat::Cnf => None,
            InstanceFormat::Wcnf => Some(pq_encode::maxsat::Export::Wcnf),
            InstanceFormat::Opb => Some(pq_encode::maxsat::Export::Opb),
        }
    }
}

/// A list of board sizes.
#[derive(Clone, Debug)]
pub(crate) struct Dims(pub Vec<usize>);

/// How the formula is built.
#[derive(ClapArgs, Debug, Default)]
pub(crate) struct EncodingArgs {
    /// Attack model: colouring (default), lines, pairwise
    ///
    /// Attack model: pairwise (clause per attacking pair), lines (line indicators),
    /// colouring (one colour per line) [default: colouring]
    #[arg(help_heading = "Encoding", long, value_name = "MODEL")]
    pub model: Option<Model>,
    /// Cardinality encoding: totalizer (default) or seqcounter
    ///
    /// Cardinality encoding for "at least n": totalizer or seqcounter [default: totalizer]
    #[arg(help_heading = "Encoding", long, value_name = "CARD")]
    pub card: Option<Card>,
    /// Symmetry breaking: lex-leader (default) or none
    ///
    /// Symmetry breaking: none, or lex-leader over the 16 symmetries [default: lex-leader]
    #[arg(help_heading = "Encoding", long, value_name = "SYM")]
    pub symmetry: Option<Symmetry>,
    /// Redundant counting clauses: none or sums
    ///
    /// Redundant counting clauses: none, or sums (colouring model only: per diagonal
    /// family, the queens of each diagonal's own colour add up to at least 2n, as unary
    /// counters that unit propagation enforces; no answer changes) [default: sums when
    /// `solve` builds the peaceable queens' colouring formula itself (not with --certify
    /// or --strategy incremental), none in the files encode, family and cube write]
    #[arg(help_heading = "Encoding", long, value_name = "B")]
    pub bounds: Option<Bounds>,
}

impl EncodingArgs {
    /// The options given, the defaults for the others.
    /// The options given, as the engine's request takes them.
    pub(crate) fn request(&self) -> pq_engine::plan::request::EncodingRequest {
        pq_engine::plan::request::EncodingRequest {
            model: self.model,
            card: self.card,
            symmetry: self.symmetry,
            bounds: self.bounds,
        }
    }

    pub(crate) fn options(&self) -> Options {
        self.request().options()
    }

    /// `--bounds sums` applies to the colouring model of the peaceable queens.
    pub(crate) fn check_bounds(&self, problem: &Problem) -> Result<(), String> {
        self.request()
            .check_bounds(problem)
            .map_err(|e| e.to_string())
    }

    pub(crate) fn given(&self) -> Option<&'static str> {
        self.request().given()
    }
}

/// What `encode` and `enumerate` work on: the peaceable queens on d×d, or a problem file.
#[derive(ClapArgs, Debug)]
pub(crate) struct SubjectArgs {
    /// Board side d (1 to 64): the peaceable queens on d×d
    #[arg(long, value_name = "D", value_parser = parse_dim, required_unless_present = "problem", conflicts_with = "problem")]
    pub dim: Option<usize>,
    /// Army size n: n white and n black queens (with --problem: the size of the groups it
    /// maximises); `encode` asks for at least n, `enumerate` for exactly n [enumerate's
    /// default: the optimum, found first]
    #[arg(long, value_name = "N", value_parser = parse_n, allow_hyphen_values = true)]
    pub n: Option<usize>,
    #[command(flatten)]
    pub problem: ProblemArgs,
}

/// A placement to read back (`render`, `canon`): pq-sat's output or a text board, and the
/// problem a text board belongs to.
#[derive(ClapArgs, Debug)]
pub(crate) struct PlacementArgs {
    /// pq-sat JSON output, or a text board ("-" or nothing = standard input)
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
    // The problem a text board belongs to (its symbols and symmetries); JSON reports name
    // their own.
    #[command(flatten)]
    pub problem: ProblemArgs,
}

impl PlacementArgs {
    /// The files read: `--problem` and the placement (unless standard input).
    pub(crate) fn inputs(&self) -> Vec<(&'static str, &std::path::Path)> {
        let problem = self.problem.problem.as_deref().map(|p| ("--problem", p));
        problem
            .into_iter()
            .chain(self.file.as_deref().map(|p| ("FILE", p)))
            .collect()
    }
}

/// A placement problem from a file.
#[derive(ClapArgs, Debug, Default)]
pub(crate) struct ProblemArgs {
    /// A placement problem (TOML; see encodings/*.toml)
    ///
    /// A placement problem (TOML; see encodings/*.toml): board, groups of pieces with their
    /// counts, which groups must not attack which
    #[arg(help_heading = "Input", long, value_name = "FILE")]
    pub problem: Option<PathBuf>,
    /// Override a setting of the problem: KEY=VALUE (repeatable)
    ///
    /// Override a setting of the problem: KEY=VALUE with KEY a group name (VALUE a count or
    /// max), board (e.g. 9x9), rows, cols or torus (true/false). May be repeated
    #[arg(
        help_heading = "Input",
        long = "set",
        value_name = "KEY=VALUE",
        requires = "problem"
    )]
    pub set: Vec<String>,
}

impl ProblemArgs {
    /// Reads the file and applies the overrides; errors name the file or the key.
    pub(crate) fn load(&self) -> Result<Option<Problem>, String> {
        Ok(self.load_with_file()?.map(|(_, problem)| problem))
    }

    /// The problem file as written and the problem with the `--set` values applied, if
    /// `--problem` names one.
    fn load_with_file(&self) -> Result<Option<(Problem, Problem)>, String> {
        let Some(path) = &self.problem else {
            // clap's `requires` lets --set through beside --dim (which conflicts with
            // --problem): say so rather than ignore it.
            if let Some(item) = self.set.first() {
                return Err(format!(
                    "--set {item}: --set changes a setting of a problem file and needs --problem FILE; the queens on --dim D have nothing to set (give their army size with --n N)"
                ));
            }
            return Ok(None);
        };
        let file = read_problem(path)?;
        let mut problem = file.clone();
        let mut items = Vec::new();
        for item in &self.set {
            let Some(pair) = item.split_once('=') else {
                return Err(format!("--set {item}: expected KEY=VALUE"));
            };
            items.push(pair);
        }
        problem
            .set_all(items)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Some((file, problem)))
    }

    /// The problem asked at one size when `--set` fixed every group the file maximises to
    /// one count K: those groups maximised again, and K, so that `--set knights=30` reaches
    /// the engines as `--n 30` does. Otherwise the problem as [`ProblemArgs::load`] reads it
    /// and no size.
    pub(crate) fn load_sized(&self) -> Result<Option<(Problem, Option<usize>)>, String> {
        let Some((file, problem)) = self.load_with_file()? else {
            return Ok(None);
        };
        let sized = pq_engine::plan::request::sized_by_set(&file, problem, !self.set.is_empty());
        Ok(Some(sized))
    }

    /// The problem file, else the queens preset on `dim`×`dim`, if either is given.
    pub(crate) fn load_or_queens(&self, dim: Option<usize>) -> Result<Option<Problem>, String> {
        Ok(self.load()?.or_else(|| dim.map(Problem::peaceable_queens)))
    }
}

/// Reads a problem file; errors name the file.
pub(crate) fn read_problem(path: &std::path::Path) -> Result<Problem, String> {
    let text = pq_io::output::read_input_text(path, pq_io::output::MAX_TEXT_INPUT)
        .map_err(|e| format!("cannot read {e}"))?;
    Problem::from_toml(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// `--around-optimum K`: 1 to [`limits::MAX_PIECES`] (no board holds more sizes).
pub(crate) fn parse_around(s: &str) -> Result<usize, String> {
    let k = Limit {
        min: 1,
        ..limits::PIECES.named("--around-optimum")
    };
    match k.parse(s) {
        Err(_) if s.trim().parse::<usize>() == Ok(0) => {
            Err("--around-optimum must be at least 1".into())
        }
        k => k.map_err(|e| e.to_string()),
    }
}

/// The two ends of `A..B`, `A..=B`, or of a single number.
fn range_ends(s: &str) -> (&str, &str) {
    match s.split_once("..") {
        Some((lo, hi)) => (lo.trim(), hi.trim().trim_start_matches('=')),
        None => (s.trim(), s.trim()),
    }
}

/// `A..B` (inclusive), `A..=B`, or a single number, each end checked against `limit`.
fn parse_range(s: &str, limit: Limit) -> Result<(usize, usize), String> {
    let (lo, hi) = range_ends(s);
    let end = |t: &str| -> Result<usize, String> {
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!(
                "expected a range LO..HI of whole numbers, e.g. 8..12 (got '{s}')"
            ));
        }
        limit.parse(t).map_err(|e| e.to_string())
    };
    let (lo, hi) = (end(lo)?, end(hi)?);
    if lo > hi {
        return Err(format!("the range {s} is empty (LO must not exceed HI)"));
    }
    Ok((lo, hi))
}

/// `family --n LO..HI`: army sizes, each at most [`limits::MAX_PIECES`].
pub(crate) fn parse_sizes(s: &str) -> Result<(usize, usize), String> {
    parse_range(s, limits::PIECES.named("army size"))
}

/// Board sizes: a range or a comma-separated list, each end checked like --dim (so the
/// range lies within the limits).
pub(crate) fn parse_dims(s: &str) -> Result<Dims, String> {
    let mut out = Vec::new();
    for part in s.split(',') {
        let (lo, hi) = range_ends(part);
        let (lo, hi) = (parse_dim(lo)?, parse_dim(hi)?);
        if lo > hi {
            return Err(format!("the range {part} is empty (LO must not exceed HI)"));
        }
        for d in lo..=hi {
            if !out.contains(&d) {
                out.push(d);
            }
        }
    }
    Ok(Dims(out))
}

pub(crate) fn parse_split(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(k) if k <= 12 => Ok(k),
        _ => Err(format!(
            "--split must be a whole number from 0 to 12 (squares to split on; 12 already makes up to 3^12 = 531441 cubes for two groups) (got '{s}')"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn numbers_beyond_their_limits_are_refused_with_the_limit() {
        let max = limits::MAX_PIECES.to_string();
        for bad in ["4097", "9223372036854775808", "18446744073709551615", "1e3"] {
            let e = parse_n(bad).unwrap_err();
            assert!(e.contains(&max), "{bad}: {e}");
            let e = parse_around(bad).unwrap_err();
            assert!(e.contains(&max), "{bad}: {e}");
            let e = parse_sizes(&format!("0..{bad}")).unwrap_err();
            assert!(
                e.contains(&max) || e.contains("expected a range"),
                "{bad}: {e}"
            );
        }
        assert_eq!(parse_n("4096"), Ok(limits::MAX_PIECES));
        assert!(parse_around("0").unwrap_err().contains("at least 1"));
        assert_eq!(parse_sizes("2..=5"), Ok((2, 5)));
        assert_eq!(parse_dims("4..6,5").unwrap().0, vec![4, 5, 6]);
        assert!(parse_dims("60..18446744073709551615")
            .unwrap_err()
            .contains("1 to 64"));
        assert!(parse_dims("0..3").unwrap_err().contains("at least 1"));
        assert!(parse_dims("9..4").unwrap_err().contains("empty"));
        for bad in ["1e18", "1000000001", "inf", "NaN", "0", "-1"] {
            let e = parse_timeout(bad).unwrap_err();
            assert!(
                e.contains("1000000000") || e.contains("number of seconds"),
                "{bad}: {e}"
            );
        }
        assert!(parse_timeout("1e18")
            .unwrap_err()
            .contains("at most 1000000000"));
        assert_eq!(parse_timeout("1e9"), Ok(Duration::from_secs(1_000_000_000)));
    }
}
