//! Command-line arguments (clap), and their validation into a [`Job`] ([`job`]) that
//! nothing runs before it is complete.

mod cube;
mod job;

pub(crate) use cube::CubeSolverArgs;
pub(crate) use pq_engine::cube::CubeSolver;

pub(crate) use crate::commands::canon::CanonArgs;
pub(crate) use crate::commands::check::{CheckCertificateArgs, CheckProofArgs};
pub(crate) use crate::commands::family::FamilyArgs;
pub(crate) use crate::commands::hash::HashArgs;
pub(crate) use crate::commands::race::RaceArgs;
pub(crate) use crate::commands::render::RenderArgs;

pub(crate) use job::{checkable, problem_size};
pub(crate) use job::{command_line, default_jobs, Job};

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args as ClapArgs, Parser, Subcommand, ValueEnum};
use pq_board::limits::{self, Limit};
use pq_encode::spec::Problem;
use pq_encode::{Bounds, Card, Model, Options, Symmetry, MAX_DIM};

const AFTER_HELP: &str = "\
Examples:
  pq-sat solve --dim 8                      find a(8) with a witness board
  pq-sat solve --dim 8 --n 10 --backend kissat
  pq-sat encode --dim 8 --n 10 > q.cnf      a DIMACS file for any SAT solver
  pq-sat encode --dim 8 --n 10 | pq-sat solve --backend kissat

Exit codes: 10 SAT, 20 UNSAT, 0 finished optimisation or unknown, 1 error, 2 usage error.";

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
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
}

/// `--force`, declared once for every command whose outputs it may replace.
#[derive(ClapArgs, Clone, Copy, Debug)]
pub(crate) struct ForceArg {
    /// Replace outputs pq-sat wrote before (a regular file, or a directory with pq-sat's own
    /// manifest: a family, a cube directory, a certificate bundle); without it an existing
    /// output is refused before any work. A link, a special file or a user's non-empty
    /// directory is never replaced
    #[arg(long)]
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

/// Peaceable armies of queens as SAT: n white and n black queens on a d×d board, no queen
/// attacking one of the other colour.
#[derive(Parser, Debug)]
#[command(name = "pq-sat", version, after_help = AFTER_HELP, propagate_version = true)]
pub(crate) struct Args {
    #[command(subcommand)]
    pub command: Command,
    /// Count a solver's UNSAT only once the independent checker has verified its proof:
    /// each solver writes a DRAT proof (LRAT from the in-process CaDiCaL with --proof-format
    /// lrat), checked by `rate` (ACL2's checker); a proof that fails is a solver error, and
    /// a portfolio waits for its other members. For `solve` (every step of an optimisation
    /// too), `race`, `family --verify`, the optimum `enumerate` finds first, `solve-cube`,
    /// `conquer`, and `cube --estimate` (the sample's cost is then that of checked proofs);
    /// a --solver-cmd must say where its proof goes with {proof} (and
    /// {cnf} where the CNF goes if not last); minisat writes no proofs
    #[arg(long, global = true)]
    pub check_unsat: bool,
    /// No progress or diagnostic lines on stderr; results, warnings about wrong answers and
    /// errors are still printed
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
    /// More detail on stderr: each solver step as it starts, the size of each formula
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
}

impl Args {
    /// How much to say on stderr, from `--quiet` and `-v`.
    pub(crate) fn verbosity(&self) -> pq_report::progress::Verbosity {
        use pq_report::progress::Verbosity;
        match (self.quiet, self.verbose) {
            (true, _) => Verbosity::Quiet,
            (false, 0) => Verbosity::Normal,
            (false, _) => Verbosity::Verbose,
        }
    }
}

#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// Write the DIMACS CNF formula for "n white and n black queens fit on d×d".
    ///
    /// Comment lines at the top name the instance and map each square variable:
    /// `c var K white R C` means DIMACS variable K is a white queen on row R, column C
    /// (1-based, row 1 = top row of the printed board).
    Encode(crate::commands::encode::EncodeArgs),
    /// Decide whether n fits (--n), find the largest n (no --n), or solve a DIMACS file.
    ///
    /// With --dim D --n N: SAT (exit 10) with a checked board, or UNSAT (exit 20).
    /// With --dim D alone: raise n from a greedy lower bound until UNSAT; the optimum a(D) and
    /// a witness go to stdout, each step to stderr. With --cnf FILE, or with neither --dim nor
    /// --cnf (standard input), solve that DIMACS formula; a board is shown when the file
    /// carries pq-sat's `c var` lines.
    Solve(crate::commands::solve::SolveArgs),
    /// List or count the boards with exactly n white and n black queens (n = a(d) by default),
    /// every board or one per symmetry orbit.
    ///
    /// Up to symmetry (the default), the orbits of the 16-element group (8 board symmetries x
    /// colour swap) are counted once each; each board printed is its orbit's canonical form
    /// (see `pq-sat canon`), with its orbit size. Boards stream to stdout as they are found.
    Enumerate(crate::commands::enumerate::EnumerateArgs),
    /// Print the canonical form of a board and the size of its orbit.
    ///
    /// Reads a board from FILE or standard input: rows of W, B and . (pq-sat's labelled text
    /// output is accepted too), or JSON (an object with a "board" array, or an array of rows).
    Canon(CanonArgs),
    /// Write a benchmark family: DIMACS files for many boards, army sizes and encodings, with
    /// a manifest (CSV and JSON: sizes, expected status and its source, SHA-256) and a README.
    ///
    /// The peaceable queens on the boards of --dims, or a placement problem (--problem FILE)
    /// for every combination of its --set values (e.g. --set board=4..6 --set red=2,3).
    /// Expected statuses come from pq-sat's own solutions (--verify) or, for the queens, from
    /// the table of proven values a(1..15) (OEIS A250000) that pq-sat carries; otherwise
    /// `unknown`. The directory is written atomically: it appears complete or not at all.
    Family(FamilyArgs),
    /// Split one step into cubes for cube-and-conquer: a directory with the formula, its
    /// cubes as iCNF (`p inccnf`, one `a LITS 0` line per cube) and a manifest.
    ///
    /// The peaceable queens (--dim D --n N), a problem (--problem FILE --n N) or any DIMACS
    /// file (--cnf FILE). The colouring model (the queens' default) is split on the row
    /// colours (--split rows), or a longer prefix of the line colours (--split lines
    /// --prefix K), keeping one cube per symmetry class and dropping the cubes too few
    /// white or black rows and columns rule out; or on the numbers of white rows and
    /// columns (--split counts, through counters added to the formula written to DIR,
    /// which is UNSAT exactly when the original is); then, and for any other formula, a
    /// look-ahead splits each cube until it is easy (--free, --depth). Every cube dropped is
    /// refuted by the formula (with --symmetry none the cubes are complete up to symmetry).
    /// `pq-sat cube DIR --estimate` (or --estimate on a new split) solves a random sample of
    /// the cubes and predicts the total CPU time and the wall time on 1 to 1024 workers.
    Cube(crate::commands::cube::CubeArgs),
    /// Predict what one step costs the line engine, before running it: search a random
    /// sample of its units of work, one at a time on one thread, and extrapolate.
    ///
    /// The line engine's search of a step is a loop over independent units: the row sets
    /// of two armies (each searched with every column set), or the row colourings of
    /// three or more armies (each searched with every column colouring); the step is SAT
    /// iff some unit is. The prediction (total CPU time, and the wall time on 1 to 1024
    /// workers by longest-first scheduling, each with a 95% bootstrap interval) is `cube
    /// --estimate`'s with units in place of cubes. For the SAT path, split the step with
    /// `pq-sat cube ... -o DIR --estimate` instead.
    Estimate(crate::commands::estimate::EstimateArgs),
    /// Check a clausal proof of unsatisfiability with an independent checker: DRAT with
    /// `rate`, LRAT with ACL2's verified LRAT checker (both installed by scripts/setup.sh).
    ///
    /// Prints `verified` or `not verified` with the checker's own verdict and time; exit code
    /// 0 when verified, 1 when not.
    CheckProof(CheckProofArgs),
    /// Re-check a certificate bundle written by `solve --certify DIR`, from its files alone:
    /// hashes, the witness (independent validator), the CNF (a fresh encoding of the claim)
    /// and the proof (independent checker). Exit code 0 when every check passes, 1 otherwise.
    CheckCertificate(CheckCertificateArgs),
    /// Race solvers on a family: every solver on every instance, answers checked against the
    /// manifest and every SAT model against its instance, scored by PAR-2, with a cactus plot.
    ///
    /// A wrong answer is reported on stderr as it happens, marked in the table, and makes the
    /// exit code 1. Each solver runs on the family's own files (their SHA-256 is checked
    /// first).
    Race(RaceArgs),
    /// Make a benchmark submission for the SAT Competition: instances from a pool (peaceable
    /// queens, three armies, the torus, Dudeney's crowded chessboard), written as .cnf.xz
    /// with their GBD ids, graded by a race of kissat and CaDiCaL, every status proven, and
    /// the two-page description as Markdown and PDF.
    ///
    /// Easy: the best solver needs less than --easy seconds; medium: solved within
    /// --timeout; hard: not, with the expected time extrapolated along the instance's series
    /// (marked as such). A SAT status is a model the validator passed; an UNSAT is a DRAT
    /// proof checked by rate (the fastest UNSAT solver is run again with a proof), or the
    /// values OEIS lists for the peaceable queens (A250000) and the three armies (A328283),
    /// tables pq-sat carries; a hard instance goes to the line
    /// engine for a witness, then to the first solver with a DRAT proof for up to
    /// --prove-timeout. The directory is also a family: `pq-sat race DIR` races it again.
    Submission(crate::commands::submission::SubmissionArgs),
    /// Draw a board as an SVG picture: reads pq-sat's JSON output (queens or a placement
    /// problem) or a text board from FILE or standard input.
    Render(RenderArgs),
    /// List the backends found on this machine, with versions, and how to install the
    /// missing ones.
    Solvers {
        /// Output format
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Solve one cube of a cube directory and record its result in DIR/results/ID.json.
    ///
    /// The formula plus the cube's literals (as unit clauses) goes to one solver; a model is
    /// decoded and validated like `solve`'s. What GNU parallel and Slurm run, one cube per
    /// job: `seq 1 N | parallel --joblog DIR/joblog --resume pq-sat solve-cube DIR {}`.
    /// Exit codes as `solve`: 10 SAT, 20 UNSAT, 0 unknown (--exit-zero: 0 for all three).
    SolveCube(crate::commands::solve_cube::SolveCubeArgs),
    /// Solve every cube of a cube directory on N workers, or write a Slurm job array that
    /// does (--emit slurm).
    ///
    /// Resumable: cubes with a SAT or UNSAT result are skipped, and Ctrl-C keeps every
    /// finished result. Stops at the first SAT cube (its board validated and printed);
    /// UNSAT only when every cube is. Exit codes as `solve`: 10 SAT, 20 UNSAT, 0 open.
    Conquer(crate::commands::conquer::ConquerArgs),
    /// Merge the results of a cube directory (from any number of workers and machines) and
    /// say what is proven: SAT, UNSAT, or open (which cubes are missing).
    ///
    /// With --check, re-check the whole bundle: hashes, every cube's proof and the proof
    /// that the cubes are complete. Exit codes: 10 SAT, 20 UNSAT, 0 open; with --check, 1
    /// when a check fails.
    CubeStatus(crate::commands::cube_status::CubeStatusArgs),
    /// Print a shell completion script on standard output.
    ///
    /// bash: `pq-sat completions bash > ~/.local/share/bash-completion/completions/pq-sat`;
    /// zsh: `pq-sat completions zsh > DIR/_pq-sat` with DIR in $fpath; fish:
    /// `pq-sat completions fish > ~/.config/fish/completions/pq-sat.fish`.
    Completions {
        /// The shell
        #[arg(value_enum, value_name = "SHELL")]
        shell: clap_complete::Shell,
    },
    /// Print the SHA-256 and the GBD hash of CNF files, the ids a competition names an
    /// instance by.
    ///
    /// One line per file: the GBD hash (the Global Benchmark Database's id, the MD5 of the
    /// normalised clause list, computed as GBD's own tool does), the SHA-256 of the bytes as
    /// stored (what `sha256sum` prints) and the file name. A compressed file (.xz, .gz,
    /// .bz2, recognised by its content) has the GBD hash of its decompressed text, as GBD
    /// computes it.
    Hash(HashArgs),
    /// Print the manual page (roff) on standard output: pq-sat's, or one command's.
    ///
    /// Install it with `pq-sat man > ~/.local/share/man/man1/pq-sat.1` (and
    /// `pq-sat man encode > ~/.local/share/man/man1/pq-sat-encode.1` for each command), or
    /// read it at once with `pq-sat man | man -l -`.
    Man {
        /// The command whose page to print (e.g. solve) [default: pq-sat's own page]
        #[arg(value_name = "COMMAND")]
        command: Option<String>,
    },
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
    pub(crate) fn format(self) -> pq_engine::compress::Compression {
        use pq_engine::compress::Compression;
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
    /// Attack model: pairwise (clause per attacking pair), lines (line indicators),
    /// colouring (one colour per line) [default: colouring]
    #[arg(long, value_name = "MODEL")]
    pub model: Option<Model>,
    /// Cardinality encoding for "at least n": totalizer or seqcounter [default: totalizer]
    #[arg(long, value_name = "CARD")]
    pub card: Option<Card>,
    /// Symmetry breaking: none, or lex-leader over the 16 symmetries [default: lex-leader]
    #[arg(long, value_name = "SYM")]
    pub symmetry: Option<Symmetry>,
    /// Redundant counting clauses: none, or sums (colouring model only: per diagonal
    /// family, the queens of each diagonal's own colour add up to at least 2n, as unary
    /// counters that unit propagation enforces; no answer changes) [default: sums when
    /// `solve` builds the peaceable queens' colouring formula itself (not with --certify
    /// or --strategy incremental), none in the files encode, family and cube write]
    #[arg(long, value_name = "B")]
    pub bounds: Option<Bounds>,
}

impl EncodingArgs {
    /// The options given, the defaults for the others.
    pub(crate) fn options(&self) -> Options {
        let d = Options::default();
        Options {
            model: self.model.unwrap_or(d.model),
            card: self.card.unwrap_or(d.card),
            symmetry: self.symmetry.unwrap_or(d.symmetry),
            bounds: self.bounds.unwrap_or(d.bounds),
        }
    }

    /// `--bounds sums` applies to the colouring model of the peaceable queens (the only
    /// formula that has the line colours it counts with).
    pub(crate) fn check_bounds(&self, problem: &Problem) -> Result<(), String> {
        let options = self.options();
        if options.bounds == Bounds::None {
            return Ok(());
        }
        if options.model != Model::Colouring {
            return Err(format!(
                "--bounds {} needs the colouring model (its clauses count on the line colours), not --model {}",
                options.bounds, options.model
            ));
        }
        if !pq_encode::general::is_peaceable_queens(problem) || problem.maximised() != [0, 1] {
            return Err(format!(
                "--bounds {} applies to the peaceable queens (--dim D), not to {}",
                options.bounds, problem.name
            ));
        }
        Ok(())
    }

    pub(crate) fn given(&self) -> Option<&'static str> {
        if self.model.is_some() {
            Some("--model")
        } else if self.card.is_some() {
            Some("--card")
        } else if self.symmetry.is_some() {
            Some("--symmetry")
        } else if self.bounds.is_some() {
            Some("--bounds")
        } else {
            None
        }
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

/// A placement problem from a file.
#[derive(ClapArgs, Debug, Default)]
pub(crate) struct ProblemArgs {
    /// A placement problem (TOML; see encodings/*.toml): board, groups of pieces with their
    /// counts, which groups must not attack which
    #[arg(long, value_name = "FILE")]
    pub problem: Option<PathBuf>,
    /// Override a setting of the problem: KEY=VALUE with KEY a group name (VALUE a count or
    /// max), board (e.g. 9x9), rows, cols or torus (true/false). May be repeated
    #[arg(long = "set", value_name = "KEY=VALUE", requires = "problem")]
    pub set: Vec<String>,
}

impl ProblemArgs {
    /// Reads the file and applies the overrides; errors name the file or the key.
    pub(crate) fn load(&self) -> Result<Option<Problem>, String> {
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
        let mut problem = read_problem(path)?;
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
        Ok(Some(problem))
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

/// The longest timeout accepted, in seconds (about 31 years): a deadline further away
/// would overflow the clock's arithmetic on some systems.
pub(crate) const MAX_TIMEOUT_SECS: f64 = 1e9;

pub(crate) fn parse_dim(s: &str) -> Result<usize, String> {
    let d: usize = s
        .trim()
        .parse()
        .map_err(|_| format!("board size must be a whole number from 1 to {MAX_DIM}"))?;
    pq_encode::problem::check_dim(d).map_err(|e| e.to_string())?;
    Ok(d)
}

/// An army size (`--n`): at most [`limits::MAX_PIECES`], so that no count derived from it
/// overflows.
pub(crate) fn parse_n(s: &str) -> Result<usize, String> {
    let s = s.trim();
    if s.starts_with('-') && s[1..].parse::<u64>().is_ok() {
        return Err(format!("army size must be 0 or more (got {s})"));
    }
    let army = limits::PIECES.named("army size");
    army.parse(s).map_err(|e| e.to_string())
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

pub(crate) fn parse_jobs(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(j) if (1..=64).contains(&j) => Ok(j),
        _ => Err(format!(
            "--jobs must be a whole number from 1 to 64 (got '{s}')"
        )),
    }
}

pub(crate) fn parse_timeout(s: &str) -> Result<Duration, String> {
    let secs: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("timeout must be a number of seconds (got '{s}')"))?;
    if !(secs > 0.0 && secs <= MAX_TIMEOUT_SECS) {
        return Err(format!(
            "timeout must be a number of seconds above 0 and at most {MAX_TIMEOUT_SECS:.0} (about 31 years; got '{s}')"
        ));
    }
    Ok(Duration::from_secs_f64(secs))
}

#[cfg(test)]
mod tests {
    use super::*;

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
