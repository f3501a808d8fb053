//! `pq-sat enumerate`: every placement of a problem at one size, or one per orbit.

use std::io;
use std::time::{Duration, Instant};

use anyhow::Result;
use pq_engine::enumerate::{Found, Request, Summary, UpTo};
use pq_engine::proof::ProofFormat;
use pq_solve::control::{check_interrupt, Limits};

use clap::{Args as ClapArgs, ValueEnum};
use pq_encode::{Card, Model, Options, Symmetry};

use super::Interruptible;
use crate::cli::{parse_jobs, parse_split, problem_size, Format, SubjectArgs};
use pq_report::enumerate::{found_text, summary_line};
use pq_report::progress::note;
use pq_report::{emit_json, emit_text, Enumeration, Subject};

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
    /// CaDiCaL with blocking clauses, on any problem
    Sat,
    /// The line engine, no CNF: two armies of queens with exact counts (on a square board
    /// or a square torus); far faster on large boards
    Lines,
}

#[derive(ClapArgs, Debug)]
pub(crate) struct EnumerateArgs {
    #[command(flatten)]
    pub subject: SubjectArgs,
    /// What lists the boards: sat or lines (the line engine's optimum, found first without
    /// --n, is an exhaustive search, not a checked proof)
    #[arg(long, value_enum, default_value_t = EnumerateEngine::Sat)]
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
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
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
    pub(crate) fn validate(self, check_unsat: bool) -> Result<EnumerateJob, String> {
        let model = self.model.unwrap_or(Model::Lines);
        if model == Model::Colouring {
            return Err("enumerate needs a model that can leave an allowed square empty: --model lines or pairwise (the colouring model fills every square its lines allow)".into());
        }
        if self.limit == Some(0) {
            return Err("--limit must be at least 1".into());
        }
        if self.engine == EnumerateEngine::Lines {
            let sat_only = [
                (self.model.is_some(), "--model"),
                (self.card.is_some(), "--card"),
                (self.split.is_some(), "--split"),
                (check_unsat, "--check-unsat"),
            ];
            if let Some((_, flag)) = sat_only.iter().find(|(given, _)| *given) {
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
        if self.engine == EnumerateEngine::Lines {
            let sized = Request {
                n: n.unwrap_or(1),
                ..request.clone()
            };
            if let Some(why) = pq_engine::enumerate_lines::refusal(&sized) {
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

/// Lists the placements of `request` (at the optimum when `n` is `None`; with
/// `check_unsat`, the UNSAT above it needs a checked proof in that format): streamed as
/// text, or collected into one JSON report.
pub(crate) fn run(job: EnumerateJob) -> Result<u8> {
    let EnumerateJob {
        mut request,
        n,
        args: a,
        check_unsat,
    } = job;
    let a = &a;
    // Ctrl-C stops the solver; the enumeration then ends with an error (exit 130), never
    // with a summary of what happened to be found.
    let _guard = Interruptible::enter();
    let (count_only, format) = (a.count, a.format);
    let enumerator: Box<dyn pq_engine::plan::Enumerate> = match a.engine {
        EnumerateEngine::Sat => pq_engine::plan::enumerator(check_unsat),
        EnumerateEngine::Lines => {
            Box::new(pq_engine::enumerate_lines::LineEnumerator { jobs: request.jobs })
        }
    };
    request.n = if let Some(n) = n {
        n
    } else {
        let (n, seconds) = enumerator.optimum(&request.problem)?;
        let optimum = request.problem.preset().optimum_is(n);
        note!("pq-sat: {optimum}, found first ({seconds:.2} s)");
        n
    };
    let problem = &request.problem;
    let mut boards: Vec<Vec<String>> = Vec::new();
    let mut orbit_sizes: Vec<usize> = Vec::new();
    let mut last_progress = Instant::now();
    let mut write_error: Option<io::Error> = None;
    let mut on_found = |found: &Found, summary: &Summary| {
        if last_progress.elapsed() >= Duration::from_secs(2) {
            note!("pq-sat: {} found, {:.1} s", summary.count, summary.seconds);
            last_progress = Instant::now();
        }
        if count_only || write_error.is_some() {
            return;
        }
        match format {
            Format::Json => {
                boards.push(pq_report::rows(&problem.rules, &found.placement));
                orbit_sizes.push(found.orbit_size);
            }
            Format::Text => {
                let text = found_text(problem, found, summary.count, request.up_to);
                if let Err(e) = emit_text(&text) {
                    write_error = e.downcast::<io::Error>().ok();
                }
            }
        }
    };
    let summary = enumerator.enumerate(&request, &Limits::none(), &mut on_found)?;
    check_interrupt()?;
    if let Some(e) = write_error {
        return Err(e.into());
    }
    let n = request.n;
    match format {
        Format::Json => emit_json(&Enumeration {
            subject: Subject::of(problem, Some(n)),
            n,
            up_to: request.up_to.name().into(),
            maximal: request.maximal,
            count: summary.count,
            total_boards: summary.total_boards,
            unequal: request.maximal.then_some(summary.unequal),
            complete: summary.complete,
            stopped: summary.stopped.clone(),
            seconds: summary.seconds,
            cubes: summary.cubes,
            jobs: request.jobs,
            boards: (!count_only).then_some(boards),
            orbit_sizes: (!count_only).then_some(orbit_sizes),
        })?,
        Format::Text if count_only => emit_text(&format!("{}\n", summary.count))?,
        Format::Text => emit_text(&summary_line(&request, &summary))?,
    }
    Ok(0)
}
