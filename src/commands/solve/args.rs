//! `solve`'s arguments.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args as ClapArgs, ValueEnum};
use pq_engine::capability::climb::Strategy;
use pq_engine::proof::ProofFormat;

use crate::args::{
    parse_dim, parse_jobs, parse_n, parse_timeout, EncodingArgs, ProblemArgs, ProgressMode,
};

/// Which engine answers `solve` (`--engine`).
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) enum EngineChoice {
    /// The line engine where it applies and nothing asks for a SAT solver, else SAT
    #[default]
    Auto,
    /// The native branch-and-bound on the line labelling (no CNF)
    Lines,
    /// Encode into CNF and solve with SAT solvers
    Sat,
}

/// When `solve` splits a step into cubes (`--cubes`).
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CubesWhen {
    /// Every step of the queens' colouring model, where cubes are sound and there are
    /// cores to share them (after --cube-after seconds on the solvers)
    Auto,
    /// Every step
    Always,
    /// No step
    Never,
}

#[derive(ClapArgs, Debug)]
pub(crate) struct SolveArgs {
    /// A DIMACS CNF file to solve as it is ("-": standard input), as --cnf FILE
    #[arg(value_name = "FILE", conflicts_with_all = ["cnf", "problem"])]
    pub file: Option<PathBuf>,
    #[command(flatten)]
    pub checking: crate::args::CheckUnsatArg,
    /// Board side d (1 to 64); without --n, find the largest n
    #[arg(help_heading = "Input", long, value_name = "D", value_parser = parse_dim, conflicts_with_all = ["cnf", "problem", "file"])]
    pub dim: Option<usize>,
    /// Army size n to check (needs --dim or --problem)
    ///
    /// Army size n to check (needs --dim, or --problem: the size of its maximised groups)
    #[arg(help_heading = "Input", long, value_name = "N", value_parser = parse_n, allow_hyphen_values = true)]
    pub n: Option<usize>,
    #[command(flatten)]
    pub problem: ProblemArgs,
    /// Solve this DIMACS CNF file ("-": standard input) instead of a board
    ///
    /// Solve this DIMACS CNF file instead of encoding a board ("-" = standard input)
    #[arg(help_heading = "Input", long, value_name = "FILE")]
    pub cnf: Option<PathBuf>,
    /// The SAT solver(s): cadical, kissat, minisat, varisat, ...; several race
    ///
    /// Solver: cadical, cadical-sat, cadical-unsat (in-process CaDiCaL with its default,
    /// sat or unsat options), varisat (in-process), kissat, minisat, cadical-bin
    /// (external programs, installed by scripts/setup.sh). Give it more than once to race
    /// several solvers on every step (a portfolio: the first answer wins, the others are
    /// stopped). [default: a portfolio of --jobs solvers from cadical, kissat, cadical-bin,
    /// minisat, those installed]
    ///
    /// rc2 (PySAT's MaxSAT solver, on pq-sat's WCNF) or clasp (a pseudo-Boolean solver, on
    /// its OPB) solve the whole optimisation (--dim D or --problem, no --n) in one run; their
    /// answer is checked (model, board, claimed optimum), and the bound above it is
    /// confirmed by a checked UNSAT of pq-sat's own solvers with --check-unsat
    #[arg(help_heading = "Engine", long, value_name = "B")]
    pub backend: Vec<pq_engine::plan::Named>,
    /// Any solver command with SAT-competition output; may be repeated
    ///
    /// Any solver command that follows the SAT competition output conventions
    /// (`s SATISFIABLE`, `v` lines, exit 10/20); the CNF file is appended as the last
    /// argument, or replaces a {cnf} word; {proof} stands for the path of the DRAT proof it
    /// is to write (--check-unsat, --proof; /dev/null otherwise). May be repeated, and
    /// combined with --backend, to race them
    #[arg(help_heading = "Engine", long, value_name = "CMD")]
    pub solver_cmd: Vec<String>,
    /// Solvers raced per step, cube workers, or the line engine's threads
    ///
    /// How many solvers the default portfolio runs at once on each step [default: the
    /// number of cores]; with --cubes, how many workers solve cubes; with the line engine,
    /// its threads
    #[arg(help_heading = "Engine", long, short = 'j', value_name = "N", value_parser = parse_jobs)]
    pub jobs: Option<usize>,
    /// Which engine answers: auto, lines (native search) or sat
    ///
    /// Which engine answers. lines: a native branch-and-bound on the line labelling (white
    /// rows and columns, then the diagonals, pruned by counting bounds; no CNF, no solver),
    /// for two armies of queens on a plain rectangular board; its UNSAT is an exhaustive
    /// search, and with --proof or --certify (the queens on a square board) its search tree
    /// is written as a DRAT proof of the formula with --bounds sums, checked by rate with
    /// --check-unsat. sat: encode into CNF and solve with SAT solvers. auto:
    /// lines where it applies, unless a SAT-only option is given (--backend, --solver-cmd,
    /// --check-unsat without --proof, --cnf, --model, --card, --symmetry, --cubes,
    /// --cube-after,
    /// --strategy other than up; --proof and --certify but for the queens on a square board)
    #[arg(help_heading = "Engine", long, value_enum, value_name = "E", hide_possible_values = true, default_value_t = EngineChoice::Auto)]
    pub engine: EngineChoice,
    /// When a SAT step is split into cubes: auto, always, never
    ///
    /// When a solver step is solved by cube-and-conquer: split as `pq-sat cube` does (rows,
    /// then look-ahead, on the colouring model; look-ahead otherwise), its cubes solved on
    /// --jobs workers by one solver (the one --backend given, or cadical-sat)
    /// instead of racing whole copies of the step; UNSAT only when every cube is UNSAT and
    /// the formula implies the cubes (as with lex-leader).
    ///
    /// auto: with --jobs 2 or more, at most one --backend and no --solver-cmd, lex-leader
    /// symmetry, and no --proof, --certify, --check-unsat, --cnf or --strategy incremental,
    /// every step of the queens' colouring model is split (after --cube-after seconds on the
    /// solvers, if given) and other formulas are raced; otherwise no step is split. always:
    /// every step is split. never: no cubes
    #[arg(
        help_heading = "Engine",
        long,
        value_name = "WHEN",
        hide_possible_values = true,
        default_value = "auto"
    )]
    pub cubes: CubesWhen,
    /// With --cubes auto: seconds on the solvers before a step is split [default: 0]
    ///
    /// With --cubes auto: how many seconds a step runs on the solvers before it counts as
    /// hard and is split into cubes. 0 splits every step at once: measured faster from
    /// d = 8 on, and 0.02 s slower below (BENCHMARKS.md, "When to split") [default: 0]
    #[arg(help_heading = "Engine", long, value_name = "SEC", value_parser = parse_probe)]
    pub cube_after: Option<Duration>,
    #[command(flatten)]
    pub encoding: EncodingArgs,
    /// How optimisation moves between sizes: up, incremental, bisect
    ///
    /// How optimisation (no --n) moves between army sizes: up (raise n until UNSAT, a fresh
    /// solver per step), incremental (one in-process CaDiCaL, each step a solve under
    /// assumptions on totalizer outputs, learnt clauses kept; with --dim it needs --card
    /// totalizer, with --problem the maximised groups are always counted by a totalizer and
    /// --card counts the fixed ones), bisect (binary search up to the bound: d²/4 for the
    /// queens, the counting bound for a problem)
    #[arg(help_heading = "Engine", long, value_name = "S", default_value = "up")]
    pub strategy: Strategy,
    /// Wall-clock limit for the whole run, in seconds
    ///
    /// Wall-clock limit in seconds for the whole run; when reached the answer is `unknown`
    /// (an optimisation then reports its best witness and claims no optimum)
    #[arg(help_heading = "Limits", long, value_name = "SEC", value_parser = parse_timeout, allow_hyphen_values = true)]
    pub timeout: Option<Duration>,
    /// Wall-clock limit in seconds for each solver step of an optimisation
    #[arg(help_heading = "Limits", long, value_name = "SEC", value_parser = parse_timeout, allow_hyphen_values = true)]
    pub step_timeout: Option<Duration>,
    /// On UNSAT, write a proof to FILE (DRAT/LRAT with its CNF, or a search certificate)
    ///
    /// On UNSAT, write a clausal proof to FILE, and the CNF it refers to beside it (see
    /// --cnf-out), so that anyone can check the pair (`pq-sat check-proof CNF FILE`). Written
    /// only on UNSAT. With lex-leader symmetry breaking the proof certifies the formula with
    /// those clauses (--engine sat --symmetry none for the plain encoding). With --proof-format
    /// search, FILE is the line engine's search certificate, no CNF beside it; `-` streams
    /// it to standard output (the report then goes to standard error)
    #[arg(help_heading = "Proofs", long, value_name = "FILE")]
    pub proof: Option<PathBuf>,
    /// Where to write the CNF the proof refers to [default: the proof's path with .cnf]
    #[arg(help_heading = "Proofs", long, value_name = "FILE", requires = "proof")]
    pub cnf_out: Option<PathBuf>,
    #[command(flatten)]
    pub replace: crate::args::ForceArg,
    /// Proof format: drat, lrat, or search (the line engine's certificate)
    ///
    /// Proof format: drat (kissat, cadical, cadical-bin, varisat; lines writes its search
    /// tree as binary DRAT, against a formula written with --bounds sums), lrat (cadical), or
    /// search: the line engine's search certificate (docs/search-certificate.md), checked by
    /// pq-check; with --certify, the bundle's UNSAT half is one [default: lrat for a .lrat
    /// file, else drat]
    #[arg(help_heading = "Proofs", long, value_name = "FMT")]
    pub proof_format: Option<ProofFormat>,
    /// Once the optimum is found, write a checked certificate bundle into DIR
    ///
    /// When optimising (--dim or --problem without --n): once the optimum (a(d)) is found,
    /// write a certificate bundle into DIR (witness board, CNF and checked proof one above
    /// it, manifest); check it with `pq-sat check-certificate DIR`. The proof comes from --backend if it writes proofs, else kissat
    /// (DRAT) or the in-process CaDiCaL
    #[arg(help_heading = "Proofs", long, value_name = "DIR", conflicts_with_all = ["n", "proof", "cnf"])]
    pub certify: Option<PathBuf>,
    /// Record the line engine's finished units in FILE, to resume
    ///
    /// With --n, on the line engine: record in FILE each unit of the step's search (a row
    /// set of two armies, a row colouring of three or more) as it is searched to its end,
    /// and skip the units FILE already lists: run the same command again after an
    /// interruption (Ctrl-C, --timeout, a session's end) and the step goes on where it
    /// stopped. FILE names the step and the engine's unit list; another step is refused
    #[arg(help_heading = "Engine", long, value_name = "FILE", requires = "n", conflicts_with_all = ["proof", "certify", "cnf"])]
    pub journal: Option<PathBuf>,
    /// Node budget per unit on a first pass (three armies, Dudeney)
    ///
    /// On the line engine with three or more armies or Dudeney's board: search every unit
    /// (row colouring, queens' placement) for at most NODES nodes first, then the units
    /// that ran out to their end, so that a solution behind a few slow units is found
    /// sooner; 0 searches each unit to its end at once [default: 1000000 on Dudeney's
    /// board, 0 otherwise]
    #[arg(help_heading = "Engine", long, value_name = "NODES")]
    pub unit_budget: Option<u64>,
    /// Also draw the board found as SVG into FILE
    ///
    /// Also draw the board found as an SVG picture into FILE (written atomically)
    #[arg(help_heading = "Output", long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Progress on stderr: auto, lines or none
    ///
    /// Progress on stderr: auto (a live line on a terminal, one line per step otherwise),
    /// lines, or none
    #[arg(help_heading = "Output", long, value_enum, value_name = "WHEN", hide_possible_values = true, default_value_t = ProgressMode::Auto)]
    pub progress: ProgressMode,
    /// Output format: text, json (one object) or competition (s and v lines)
    ///
    /// Output format: text (a headline and the labelled board, for people), json (one
    /// object on standard output, for scripts) or competition. competition, for a formula
    /// solved as it is (FILE, --cnf or standard input): the SAT competition's output, the
    /// report as `c` lines, one `s SATISFIABLE`, `s UNSATISFIABLE` or `s UNKNOWN` line and
    /// the model in `v` lines ending with 0, as kissat and CaDiCaL print it; for an
    /// optimisation (--dim or --problem, no --n): the MaxSAT Evaluation's, an `o` line with
    /// the cost, `s OPTIMUM FOUND` (or SATISFIABLE when not proven) and one `v` line of 0s
    /// and 1s, a model of the WCNF that `encode --format wcnf` writes with the same encoding
    /// options
    #[arg(help_heading = "Output", long, value_enum, value_name = "FORMAT", hide_possible_values = true, default_value_t = SolveFormat::Text)]
    pub format: SolveFormat,
}

/// `solve --format`: the shared formats and the SAT competition's.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SolveFormat {
    /// A headline and the labelled board
    Text,
    /// One JSON object on standard output
    Json,
    /// The SAT competition's `c`, `s` and `v` lines (a formula solved as it is)
    Competition,
}

impl SolveFormat {
    /// The report's format; the competition's lines are written by the caller, around the
    /// text report.
    pub(crate) fn report(self) -> pq_report::Format {
        match self {
            SolveFormat::Json => pq_report::Format::Json,
            SolveFormat::Text | SolveFormat::Competition => pq_report::Format::Text,
        }
    }
}

impl From<EngineChoice> for pq_engine::plan::choice::EngineChoice {
    fn from(e: EngineChoice) -> Self {
        match e {
            EngineChoice::Auto => Self::Auto,
            EngineChoice::Lines => Self::Lines,
            EngineChoice::Sat => Self::Sat,
        }
    }
}

impl From<CubesWhen> for pq_engine::plan::request::CubesWhen {
    fn from(c: CubesWhen) -> Self {
        match c {
            CubesWhen::Auto => Self::Auto,
            CubesWhen::Always => Self::Always,
            CubesWhen::Never => Self::Never,
        }
    }
}

/// `--cube-after`: seconds, 0 included.
fn parse_probe(s: &str) -> Result<Duration, String> {
    if s.trim().parse::<f64>() == Ok(0.0) {
        return Ok(Duration::ZERO);
    }
    parse_timeout(s)
}
