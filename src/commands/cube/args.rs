//! `cube`'s arguments and their validation into a [`CubeJob`].

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args as ClapArgs, ValueEnum};
use pq_encode::spec::Problem;
use pq_encode::Instance;
use pq_engine::proof::ProofFormat;
use pq_solve::spec::BackendSpec;

use crate::args::{
    checkable, command_line, parse_dim, parse_n, parse_timeout, problem_size, EncodingArgs,
    ProblemArgs,
};

/// How `cube` splits.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SplitArg {
    /// Rows (rows and the first two columns for d = 10 and 11, where that measured
    /// faster) then look-ahead for the colouring model, look-ahead alone otherwise
    Auto,
    /// The row colours, then look-ahead
    Rows,
    /// The first --prefix line colours (rows, then columns, diagonals), then look-ahead
    Lines,
    /// The numbers of white rows and of white columns (one cube per pair the counting
    /// bound allows, through two counters added to the formula), then look-ahead
    Counts,
    /// Look-ahead alone, on any formula
    Lookahead,
}

impl SplitArg {
    /// The engine's method.
    pub(crate) fn method(self) -> pq_engine::cube::split::Method {
        use pq_engine::cube::split::Method;
        match self {
            SplitArg::Auto => Method::Auto,
            SplitArg::Rows => Method::Rows,
            SplitArg::Lines => Method::Lines,
            SplitArg::Counts => Method::Counts,
            SplitArg::Lookahead => Method::Lookahead,
        }
    }
}

#[derive(ClapArgs, Debug)]
pub(crate) struct CubeArgs {
    #[command(flatten)]
    pub checking: crate::args::CheckUnsatArg,
    /// An existing cube directory to estimate (with --estimate) instead of splitting
    #[arg(value_name = "DIR", requires = "estimate", conflicts_with_all = ["dim", "problem", "cnf", "output", "prefix", "depth", "free"])]
    pub dir: Option<PathBuf>,
    /// Board side d (1 to 64): the peaceable queens on d×d (needs --n)
    #[arg(long, value_name = "D", value_parser = parse_dim, conflicts_with_all = ["cnf", "problem"])]
    pub dim: Option<usize>,
    /// Army size n: at least n white and n black queens (with --problem: the size of the
    /// groups it maximises)
    #[arg(long, value_name = "N", value_parser = parse_n, allow_hyphen_values = true)]
    pub n: Option<usize>,
    #[command(flatten)]
    pub problem: ProblemArgs,
    /// Split this DIMACS CNF file (plain or .xz/.gz/.bz2); a file pq-sat wrote for the
    /// queens' colouring model is split on its lines, any other by look-ahead
    #[arg(long, value_name = "FILE", conflicts_with = "problem")]
    pub cnf: Option<PathBuf>,
    #[command(flatten)]
    pub encoding: EncodingArgs,
    /// How to split
    #[arg(long, value_enum, default_value_t = SplitArg::Auto)]
    pub split: SplitArg,
    /// With --split lines: how many line colours the cubes assign, a prefix of the
    /// lex-leader order (rows, columns, diagonals, anti-diagonals) [default: 2d, the rows
    /// and columns]
    #[arg(long, value_name = "K")]
    pub prefix: Option<usize>,
    /// At most K look-ahead decisions on top of each line cube (0: no look-ahead)
    /// [default: 8]
    #[arg(long, value_name = "K")]
    pub depth: Option<usize>,
    /// A cube is easy, and not split further, when at most T search variables (the line
    /// colours; every variable of a formula without them) are free after unit propagation
    /// [default: 53 for the colouring model, where a row cube leaves 5d − 2 free: rows
    /// alone up to d = 11; 0 otherwise, so that --depth decides]
    #[arg(long, value_name = "T")]
    pub free: Option<usize>,
    /// The directory to create (it must not exist, or be empty; --force replaces an earlier
    /// cube directory)
    #[arg(short, long, value_name = "DIR", required_unless_present = "dir")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub replace: crate::args::ForceArg,
    /// Predict the cost of conquering the cubes: solve a random sample of them, one at a
    /// time, and print the total CPU time and the wall time on 1, 2, 16, 128 and 1024
    /// workers (longest-first scheduling), each with a 95% bootstrap interval
    #[arg(long)]
    pub estimate: bool,
    /// With --estimate: how many cubes to solve [default: 30]
    #[arg(long, value_name = "K", requires = "estimate", value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub sample: Option<u64>,
    /// With --estimate: the seed of the sample and of the bootstrap [default: 1]
    #[arg(long, value_name = "S", requires = "estimate")]
    pub seed: Option<u64>,
    /// With --estimate: the solver of the sample: cadical, cadical-sat, cadical-unsat
    /// (in-process), kissat, cadical-bin, minisat, varisat [default: cadical-sat]
    #[arg(long, value_name = "B", requires = "estimate")]
    pub backend: Option<BackendSpec>,
    /// With --estimate: a time limit per cube, in seconds (a cube that reaches it counts
    /// with the limit, and the prediction is then a lower bound)
    #[arg(long = "cube-timeout", value_name = "SEC", requires = "estimate", value_parser = parse_timeout)]
    pub timeout: Option<Duration>,
    /// With --estimate: draw the predicted wall time against the workers (SVG, log scales,
    /// with the intervals and the perfect speed-up) into FILE
    #[arg(long, value_name = "FILE", requires = "estimate")]
    pub plot: Option<PathBuf>,
    #[command(flatten)]
    pub report: crate::args::FormatArg,
}

/// What `cube` splits and how.
#[derive(Debug)]
pub(crate) struct CubeJob {
    /// The arguments as given.
    pub args: CubeArgs,
    /// The problem and the size of its maximised groups, or `None` for `--cnf`.
    pub problem: Option<(Problem, usize)>,
    /// The splitter's settings.
    pub settings: pq_engine::cube::split::Settings,
    /// The command line, for the manifest.
    pub command: String,
    /// `--estimate --check-unsat`: the sample's UNSAT cubes are proved and checked.
    pub check_unsat: Option<ProofFormat>,
}

impl CubeArgs {
    /// `cube`: the formula to split (encoded here, or a file) and the splitter's settings.
    pub(crate) fn validate(self, check_unsat: bool) -> Result<CubeJob, String> {
        let a = self;
        use pq_engine::cube::split::Settings;
        let problem = match (a.problem.load_or_queens(a.dim)?, &a.cnf) {
            // An existing directory, to estimate (clap keeps the formula's options away).
            _ if a.dir.is_some() => {
                if let Some(flag) = a.encoding.given() {
                    return Err(format!(
                    "{flag} applies when pq-sat builds the formula; an existing cube directory is estimated as it is"
                ));
                }
                None
            }
            (Some(problem), _) => {
                let what = if a.dim.is_some() {
                    "--dim D"
                } else {
                    "this problem"
                };
                let n = problem_size(&problem, a.n)?
                    .ok_or_else(|| format!("cube splits one step: {what} needs its size, --n N"))?;
                a.encoding.check_bounds(&problem)?;
                if let Some(dim) = a.dim {
                    Instance::new(dim, n).map_err(|e| e.to_string())?;
                }
                Some((problem, n))
            }
            (None, Some(_)) => {
                if a.n.is_some() {
                    return Err(
                        "--n needs --dim D or --problem FILE; a CNF file is split as it is".into(),
                    );
                }
                if let Some(flag) = a.encoding.given() {
                    return Err(format!(
                    "{flag} only applies when pq-sat builds the formula (--dim, --problem); a CNF file is split as it is"
                ));
                }
                None
            }
            (None, None) => {
                return Err(
                    "cube needs a formula: --dim D --n N, --problem FILE --n N, or --cnf FILE"
                        .into(),
                )
            }
        };
        if a.prefix.is_some() && a.split != SplitArg::Lines {
            return Err(
                "--prefix sets the line prefix of --split lines; give --split lines too".into(),
            );
        }
        let settings = Settings {
            method: a.split.method(),
            prefix: a.prefix,
            depth: a.depth,
            free: a.free,
        };
        let check_unsat = check_unsat.then_some(ProofFormat::Drat);
        if let Some(format) = check_unsat {
            let spec = a.backend.clone().unwrap_or(pq_engine::cube::CUBE_SOLVER);
            checkable(&spec, format)?;
        }
        Ok(CubeJob {
            args: a,
            problem,
            settings,
            command: command_line(),
            check_unsat,
        })
    }
}
