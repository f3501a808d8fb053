//! `enumerate`'s arguments and their validation into an [`EnumerateJob`].

use clap::{Args as ClapArgs, ValueEnum};
use pq_encode::{Card, Model, Options, Symmetry};
use pq_engine::enumerate::{Request, UpTo};
use pq_engine::proof::ProofFormat;

use crate::args::{parse_jobs, parse_split, problem_size, SubjectArgs};

/// Which boards `enumerate` counts separately.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum UpToArg {
    /// Every board, colours distinguished, symmetric images counted separately
    Total,
    /// One board per orbit of the 16 symmetries
    Symmetry,
}

/// What lists the boards (`--engine`).
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EnumerateEngine {
    /// lines where it applies and no SAT-only option (--model, --card, --split,
    /// --check-unsat) is given, else sat
    Auto,
    /// CaDiCaL with blocking clauses, on any problem
    Sat,
    /// The line engine, no CNF: two armies of queens with exact counts (on a square board
    /// or a square torus); far faster on large boards
    Lines,
}

#[derive(ClapArgs, Debug)]
pub(crate) struct EnumerateArgs {
    #[command(flatten)]
    pub checking: crate::args::CheckUnsatArg,
    #[command(flatten)]
    pub subject: SubjectArgs,
    /// What lists the boards: auto, sat or lines (the line engine's optimum, found first
    /// without --n, is an exhaustive search, not a checked proof)
    #[arg(long, value_enum, default_value_t = EnumerateEngine::Auto)]
    pub engine: EnumerateEngine,
    /// Count every board, or one per symmetry orbit
    #[arg(long, value_enum, default_value_t = UpToArg::Symmetry)]
    pub up_to: UpToArg,
    /// Only configurations to which no queen of either colour can be added (each army then
    /// has at least n queens, and the two may differ); with --problem, no piece of a
    /// maximised group (the fixed groups keep their counts)
    #[arg(long)]
    pub maximal: bool,
    /// Print only the count
    #[arg(long)]
    pub count: bool,
    /// Stop after K boards (orbits, up to symmetry)
    #[arg(long, value_name = "K")]
    pub limit: Option<usize>,
    /// Split the search into cubes that fix the pieces on K squares (from the centre out;
    /// up to (groups+1)^K cubes, each orbit counted once, in the cube of its lex-leader
    /// member), solved by --jobs threads. 0: one search [default: 0, or 4 with --jobs > 1]
    #[arg(long, value_name = "K", value_parser = parse_split)]
    pub split: Option<usize>,
    /// Threads: solving cubes (sat), or searching (lines) [default: 1]
    #[arg(long, short = 'j', value_name = "N", value_parser = parse_jobs)]
    pub jobs: Option<usize>,
    /// Attack model: lines or pairwise (colouring cannot leave an allowed square empty)
    /// [default: lines]
    #[arg(long, value_name = "MODEL")]
    pub model: Option<Model>,
    /// Cardinality encoding: totalizer or seqcounter [default: totalizer]
    #[arg(long, value_name = "CARD")]
    pub card: Option<Card>,
    #[command(flatten)]
    pub report: crate::args::FormatArg,
}

/// What `enumerate` lists, validated.
#[derive(Debug)]
pub(crate) struct EnumerateJob {
    /// The engine's request (its `n` is set once the size is known).
    pub request: Request,
    /// The size given; `None`: the optimum, found first.
    pub n: Option<usize>,
    /// The arguments as given.
    pub args: EnumerateArgs,
    /// With `--check-unsat`: the UNSAT above the optimum found first needs a checked proof.
    pub check_unsat: Option<ProofFormat>,
}

impl EnumerateArgs {
    /// Checks what clap cannot: a model that can leave squares empty, a problem that
    /// maximises something for `--maximal`.
    pub(crate) fn validate(mut self, check_unsat: bool) -> Result<EnumerateJob, String> {
        let model = self.model.unwrap_or(Model::Lines);
        if model == Model::Colouring {
            return Err("enumerate needs a model that can leave an allowed square empty: --model lines or pairwise (the colouring model fills every square its lines allow)".into());
        }
        if self.limit == Some(0) {
            return Err("--limit must be at least 1".into());
        }
        let sat_only = [
            (self.model.is_some(), "--model"),
            (self.card.is_some(), "--card"),
            (self.split.is_some(), "--split"),
            (check_unsat, "--check-unsat"),
        ];
        let sat_flag = sat_only.iter().find(|(given, _)| *given).map(|(_, f)| *f);
        if self.engine == EnumerateEngine::Lines {
            if let Some(flag) = sat_flag {
                return Err(format!(
                    "--engine lines reads no formula: it cannot take {flag}; use --engine sat"
                ));
            }
        }
        let (problem, n) = self.subject.load()?;
        let n = problem_size(&problem, n)?;
        if self.maximal && problem.maximised().is_empty() {
            return Err(
                "--maximal needs a problem that maximises some group (count = \"max\")".into(),
            );
        }
        let request = Request {
            problem,
            n: n.unwrap_or(0),
            up_to: match self.up_to {
                UpToArg::Total => UpTo::Total,
                UpToArg::Symmetry => UpTo::Symmetry,
            },
            maximal: self.maximal,
            options: Options {
                model,
                card: self.card.unwrap_or_default(),
                symmetry: Symmetry::None,
                ..Options::default()
            },
            limit: self.limit,
            split: self
                .split
                .unwrap_or(if self.jobs.unwrap_or(1) > 1 { 4 } else { 0 }),
            jobs: self.jobs.unwrap_or(1),
        };
        let sized = Request {
            n: n.unwrap_or(1),
            ..request.clone()
        };
        let refusal = pq_engine::enumerate_lines::refusal(&sized);
        if self.engine == EnumerateEngine::Auto {
            // The line engine where it lists the boards: at d = 8, 0.02 s against 4.6 s.
            self.engine = if sat_flag.is_none() && refusal.is_none() {
                EnumerateEngine::Lines
            } else {
                EnumerateEngine::Sat
            };
        }
        if self.engine == EnumerateEngine::Lines {
            if let Some(why) = refusal {
                return Err(format!(
                    "--engine lines cannot list these boards: {why}; use --engine sat"
                ));
            }
        }
        Ok(EnumerateJob {
            request,
            n,
            args: self,
            check_unsat: check_unsat.then_some(ProofFormat::Drat),
        })
    }
}
