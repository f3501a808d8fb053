//! `enumerate`'s arguments and their validation into an [`EnumerateJob`].

use clap::{Args as ClapArgs, ValueEnum};
use pq_encode::{Card, Model};
use pq_engine::capability::listing::UpTo;
use pq_engine::plan::choice::EngineChoice;
use pq_engine::plan::enumeration::{EnumeratePlan, EnumerateRequest};

use crate::args::{parse_jobs, parse_split, SubjectArgs};

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

/// What `enumerate` lists, validated: the engine's plan, and the arguments for the output.
pub(crate) struct EnumerateJob {
    /// Which engine lists which boards.
    pub plan: EnumeratePlan,
    /// The arguments as given.
    pub args: EnumerateArgs,
}

impl std::fmt::Debug for EnumerateJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EnumerateJob")
            .field("request", &self.plan.request)
            .field("engine", &self.plan.engine)
            .field("args", &self.args)
            .finish()
    }
}

impl EnumerateArgs {
    /// The problem read, and the engine's plan of it ([`EnumeratePlan::new`]).
    pub(crate) fn validate(self, check_unsat: bool) -> Result<EnumerateJob, String> {
        let (problem, n) = self.subject.load()?;
        let request = EnumerateRequest {
            problem,
            n,
            engine: match self.engine {
                EnumerateEngine::Auto => EngineChoice::Auto,
                EnumerateEngine::Sat => EngineChoice::Sat,
                EnumerateEngine::Lines => EngineChoice::Lines,
            },
            up_to: match self.up_to {
                UpToArg::Total => UpTo::Total,
                UpToArg::Symmetry => UpTo::Symmetry,
            },
            maximal: self.maximal,
            limit: self.limit,
            split: self.split,
            jobs: self.jobs,
            model: self.model,
            card: self.card,
            check_unsat,
        };
        let plan = EnumeratePlan::new(request).map_err(|e| e.to_string())?;
        Ok(EnumerateJob { plan, args: self })
    }
}
