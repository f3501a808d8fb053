//! What an engine can do, in the terms every engine shares: decide a step ([`Decide`]),
//! write a proof of it ([`Prove`]), climb to an optimum ([`Optimise`]), list placements
//! ([`Enumerate`]), or all of these with no formula ([`Native`]); and the types they pass
//! ([`Query`], [`Step`], [`Decided`], [`ProofFiles`]). The SAT path ([`crate::sat`]) and the
//! line engine ([`crate::lines`]) implement them; the plan ([`crate::plan`]) chooses among
//! them by these traits alone. [`outcome`]: the validated answer to one step; [`climb`]: the
//! climb to an optimum that every optimiser shares; [`listing`]: what an enumeration is asked
//! and answers.

pub mod climb;
pub mod listing;
pub mod outcome;

pub use outcome::{validated, Outcome, Status};

use std::path::{Path, PathBuf};

use pq_encode::spec::Problem;
use pq_encode::{Formula, Options};
use pq_io::output::WritePolicy;
use pq_solve::backend::Judge;
use pq_solve::control::Limits;
use pq_solve::error::SolveError;

use climb::{OptimiseOutcome, Progress, RunLimits, Strategy};
use listing::{Enumerated, OnFound, Request};
use pq_solve::prove::ProofFormat;

/// Where the proof of one step goes, in the format the plan chose once ([`ProofFiles::new`]):
/// the engine that proves the step writes what the variant names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProofFiles {
    /// A clausal proof (DRAT or LRAT) of the step's formula, and that formula written
    /// beside it as the CNF the proof refutes (the pair an independent checker reads).
    Clausal {
        /// DRAT or LRAT.
        format: ProofFormat,
        /// The proof.
        proof: PathBuf,
        /// The CNF it refutes.
        cnf: PathBuf,
    },
    /// The line engine's search certificate (docs/search-certificate.md), to a file or to
    /// standard output (`-`): it states its claim itself, so no formula goes with it.
    Search {
        /// The file, or `-`.
        sink: PathBuf,
    },
}

impl ProofFiles {
    /// The files of a proof in `format`: `proof`, and for a clausal proof `cnf` beside it
    /// (a search certificate needs none and leaves `cnf` unused).
    pub fn new(format: ProofFormat, proof: PathBuf, cnf: PathBuf) -> ProofFiles {
        match format {
            ProofFormat::Search => ProofFiles::Search { sink: proof },
            format => ProofFiles::Clausal { format, proof, cnf },
        }
    }

    /// The proof's format.
    pub fn format(&self) -> ProofFormat {
        match self {
            ProofFiles::Clausal { format, .. } => *format,
            ProofFiles::Search { .. } => ProofFormat::Search,
        }
    }

    /// Where the proof goes (`-`: standard output).
    pub fn proof(&self) -> &Path {
        match self {
            ProofFiles::Clausal { proof, .. } => proof,
            ProofFiles::Search { sink } => sink,
        }
    }

    /// The CNF written beside a clausal proof.
    pub fn cnf(&self) -> Option<&Path> {
        match self {
            ProofFiles::Clausal { cnf, .. } => Some(cnf),
            ProofFiles::Search { .. } => None,
        }
    }

    /// Whether the proof goes to standard output rather than to a file.
    pub fn to_stdout(&self) -> bool {
        self.proof().as_os_str() == "-"
    }
}

/// One step to decide.
#[derive(Clone, Copy)]
pub enum Step<'a> {
    /// A problem at a size (the size of its maximised groups); the SAT path encodes it
    /// with the plan's options, a native engine answers it as it is.
    Problem {
        /// The problem.
        problem: &'a Problem,
        /// The size.
        n: usize,
    },
    /// A formula: encoded from a problem, or read from a file whose header may name one.
    Formula {
        /// The problem, when known.
        problem: Option<&'a Problem>,
        /// The size of its maximised groups (0 when no problem is known).
        n: usize,
        /// The formula.
        formula: &'a Formula,
    },
}

/// One step put to an engine: the step, the limits it runs under and the judge its answer
/// must pass, which travel together from the command to whichever engine answers.
#[derive(Clone, Copy)]
pub struct Query<'a> {
    /// What is decided.
    pub step: Step<'a>,
    /// The time and memory it may take.
    pub limits: &'a Limits,
    /// What the answer must agree with (the table of proven values, say).
    pub judge: Judge<'a>,
}

impl<'a> Step<'a> {
    /// The problem and its size, when the step names a problem.
    pub fn problem(&self) -> Option<(&'a Problem, usize)> {
        match *self {
            Step::Problem { problem, n } => Some((problem, n)),
            Step::Formula { problem, n, .. } => problem.map(|p| (p, n)),
        }
    }
}

/// One step answered, whichever engine answered it.
pub struct Decided {
    /// The engine's name as reports show it.
    pub engine: String,
    /// The validated answer.
    pub outcome: Outcome,
    /// The line engine's node counts.
    pub search: Option<pq_lines::Stats>,
    /// Whether a proof was asked for, and its size when one was written (UNSAT only).
    pub proof_bytes: Option<Option<u64>>,
    /// The formula options the answer is about, when a formula was solved or proved.
    pub options: Option<Options>,
}

impl Decided {
    /// `outcome` as its solver answered it, with nothing else to report.
    pub(crate) fn of(outcome: Outcome) -> Decided {
        Decided {
            engine: outcome.solver.clone(),
            outcome,
            search: None,
            proof_bytes: None,
            options: None,
        }
    }
}

/// An optimum found, whichever engine climbed to it.
pub struct Optimised {
    /// The engine's name.
    pub engine: String,
    /// The run's outcome.
    pub outcome: OptimiseOutcome,
    /// The strategy it climbed by.
    pub strategy: Strategy,
    /// The line engine's node counts.
    pub search: Option<pq_lines::Stats>,
    /// The options of the formulas solved (the SAT path).
    pub options: Option<Options>,
    /// The options a certificate's formula is written with.
    pub certified: Options,
}

/// What decides one step: a problem at a size, or the formula given (`formula`, encoded
/// from `problem` or read from a file). An engine that reads no formula gets `None`.
pub trait Decide {
    /// Answers a portfolio rejected since the last call, while another member's won.
    fn take_rejections(&self) -> Vec<String> {
        Vec::new()
    }
    /// Decides the step under `limits`; the answer must pass `judge`.
    fn decide(&self, query: Query<'_>) -> Result<Decided, SolveError>;
}

/// What writes a proof of an UNSAT step into `files` (and checks it, when built to).
pub trait Prove {
    /// Decides the step, writing the proof on UNSAT; the answer must pass the query's judge.
    fn prove(&self, query: Query<'_>, files: &ProofFiles) -> Result<Decided, SolveError>;
}

/// What climbs to the optimum of a problem's maximised groups.
pub trait Optimise {
    /// The name reports show.
    fn name(&self) -> String;
    /// Answers a portfolio rejected while another member's won.
    fn take_rejections(&self) -> Vec<String> {
        Vec::new()
    }
    /// Climbs to the climb's optimum under its limits, telling it of each step.
    fn optimise(&self, climb: Climb<'_>) -> Result<Optimised, SolveError>;
}

/// One optimum put to an optimiser: the problem, the limits of the run and of each step, and
/// who hears of each step's progress.
pub struct Climb<'a> {
    /// The problem whose maximised groups are climbed.
    pub problem: &'a Problem,
    /// The run's and each step's limits.
    pub limits: &'a RunLimits,
    /// Told of each step as it starts and ends.
    pub on_progress: &'a mut dyn FnMut(Progress),
}

/// What lists every placement of a problem at one size (or one per symmetry orbit).
pub trait Enumerate {
    /// The size listed when none is given: the problem's optimum, with the seconds it took
    /// to prove it.
    fn optimum(&self, problem: &Problem) -> Result<(usize, f64), SolveError>;
    /// Lists `request`'s placements until done or `limits` say stop, telling `on_found` of
    /// each as it is found.
    fn enumerate(&self, request: &Request, limits: &Limits, on_found: OnFound<'_>) -> Enumerated;
}

/// An engine that answers problems itself, with no formula (the line engine): it decides
/// steps, climbs to optima and writes proofs of its own.
pub trait Native: Decide + Optimise + std::fmt::Debug + Send + Sync {
    /// What writes its proofs (in the format of the files each is given), replacing earlier
    /// files as `policy` says, and checks each before its UNSAT counts when `check` says so.
    fn prover(&self, policy: WritePolicy, check: bool) -> Box<dyn Prove + '_>;
    /// What writes the search certificate of the step above an optimum for its bundle:
    /// into a fresh folder (nothing to replace), unchecked (the bundle's own check
    /// follows).
    fn certifier(&self) -> Box<dyn Prove + '_>;
}

/// The engine of one call: the plan's native engine, borrowed, or SAT solvers made for the
/// call.
pub enum Engine<'a, T: ?Sized> {
    /// The plan's own engine.
    Held(&'a T),
    /// One made for the call.
    Made(Box<T>),
}

impl<T: ?Sized> std::ops::Deref for Engine<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        match self {
            Engine::Held(engine) => engine,
            Engine::Made(engine) => engine,
        }
    }
}
