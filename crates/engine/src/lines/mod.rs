//! The native line engine ([`pq_lines`]) as a way of deciding one step, beside the SAT
//! backends: no formula, a branch-and-bound on the line labelling. It answers two armies of
//! queens at peace on a plain rectangle or a square torus (equal or fixed sizes), and three
//! or four armies of one size on a plain board; every witness it finds goes
//! through the same independent validator as a solver's model, and every UNSAT through the
//! same table of proven values ([`pq_solve::known::agrees`]).

pub mod capabilities;
pub(crate) mod crowded;
pub mod enumerate;
pub mod estimate;
pub mod journal;
mod optimise;

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use pq_board::placement::{Kind, Placement};
use pq_encode::spec::Problem;
use pq_io::output;
use pq_lines::armies::{Armies, ArmiesVerdict};
use pq_lines::crowded::{Crowded, CrowdedVerdict, Listing};
use pq_lines::{Board, Demand, Settings, Stats, Units as _, Verdict};
use pq_solve::answer::Answer;
use pq_solve::control::Limits;
use pq_solve::error::SolveError;
use pq_solve::prove::ProofFormat;

use crate::capability::{validated, Outcome, Status};
use crate::error::EngineError;
use crowded::{crowding, Crowding};
use journal::Journal;

/// The engine's name in reports and JSON (`solver`).
pub const NAME: &str = "lines";

/// Why the line engine cannot answer `problem`, or `None` when it can.
pub fn unsupported(problem: &Problem) -> Option<String> {
    if crowding(problem).is_some() {
        return None;
    }
    let rules = &problem.rules;
    let l = &rules.layout;
    let k = rules.groups.len();
    if !(2..=pq_lines::armies::MAX_ARMIES).contains(&k)
        || rules.groups.iter().any(|g| g.kind != Kind::Queen)
    {
        return Some(format!(
            "it answers 2 to {} armies of queens, and Dudeney's crowded chessboard (n queens, n rooks, 2n − 2 bishops and the most knights on n × n, n ≤ {})",
            pq_lines::armies::MAX_ARMIES,
            pq_lines::crowded::MAX_CROWDED_SIDE,
        ));
    }
    let every_pair = (0..k)
        .all(|a| (a + 1..k).all(|b| rules.no_attack.iter().any(|&p| p == (a, b) || p == (b, a))));
    if !every_pair || rules.no_attack.iter().any(|&(a, b)| a == b) {
        return Some("it answers armies that must not attack one another, and no more".into());
    }
    if k > 2 && problem.maximised().len() != k {
        return Some("it answers three or more armies of one size, all maximised".into());
    }
    if k > 2 && l.rows.max(l.cols) > pq_lines::armies::MAX_ARMY_SIDE {
        return Some(format!(
            "it answers three or more armies on boards up to {0}×{0}",
            pq_lines::armies::MAX_ARMY_SIDE
        ));
    }
    if k > 2 && l.torus {
        return Some("it does not answer three or more armies on the torus yet".into());
    }
    if l.torus && l.rows != l.cols {
        return Some("it answers square toroidal boards only (on a rectangular torus a diagonal crosses a row more than once)".into());
    }
    board(problem).err().map(|e| e.to_string())
}

/// The board of a witness: `armies[j]` holds group `j`'s cells.
pub(crate) fn placement(problem: &Problem, armies: &[Vec<(usize, usize)>]) -> Placement {
    let mut raw = Placement::empty(&problem.rules.layout);
    for (j, cells) in armies.iter().enumerate() {
        for &(r, c) in cells {
            raw.set(r, c, Some(j));
        }
    }
    raw
}

/// Opens the journal at `path` for the step `problem` at `n`, whose units are `units`.
fn open_journal(
    path: &std::path::Path,
    problem: &Problem,
    n: usize,
    units: &Units,
) -> Result<Journal, SolveError> {
    let l = &problem.rules.layout;
    let step = format!(
        "{}, {}x{}{}, n = {n}",
        problem.name,
        l.rows,
        l.cols,
        if l.torus { " torus" } else { "" }
    );
    let demands = problem.demands(n);
    let fields = [
        ("step", step),
        (
            "rules",
            format!(
                "sha256 {}",
                pq_io::hashing::sha256_hex(format!("{:?}", problem.rules).as_bytes())
            ),
        ),
        ("demands", format!("{demands:?}")),
        (
            "units",
            format!(
                "{} {}s, sha256 {}",
                units.count(),
                units.name(),
                pq_io::hashing::sha256_hex(&units.bytes())
            ),
        ),
    ];
    Journal::open(path, &fields, units.count())
}

/// The independent units of one step: each is searched whole by one thread, none depends
/// on another, and the step is SAT iff some unit is.
pub(crate) enum Units {
    /// Two armies: the row sets, with the board and the demand.
    Two(Board, Demand, Vec<u32>),
    /// Three or more armies: the row colourings.
    More(Armies),
    /// Dudeney's crowded chessboard: the queens' orbits.
    Crowded(Box<Crowded>, Crowding),
}

impl Units {
    /// The units of deciding `problem` (one the engine answers) at `n`, Dudeney's from
    /// `listing`'s.
    pub(crate) fn new(problem: &Problem, n: usize, listing: &CrowdedListing) -> Units {
        if let Some(c) = crowding(problem) {
            return Units::Crowded(Box::new(listing.crowded(c.n, n)), c);
        }
        let board = board(problem).expect("checked by unsupported()");
        let demands = problem.demands(n);
        if demands.len() > 2 {
            return Units::More(Armies::new(&board, demands.len(), n));
        }
        let demand = Demand {
            white: demands[0],
            black: demands[1],
        };
        let rows = pq_lines::row_sets(&board, demand);
        Units::Two(board, demand, rows)
    }

    /// How many.
    pub(crate) fn count(&self) -> usize {
        match self {
            Units::Two(.., rows) => rows.len(),
            Units::More(armies) => armies.units(),
            Units::Crowded(c, _) => c.units(),
        }
    }

    /// What one is.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Units::Two(..) => "row set",
            Units::More(_) => "row colouring",
            Units::Crowded(..) => "queens' orbit",
        }
    }

    /// The list as bytes, whose hash a journal keeps.
    fn bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::new();
        match self {
            Units::Two(.., rows) => {
                for s in rows {
                    bytes.extend_from_slice(&s.to_le_bytes());
                }
            }
            Units::More(armies) => {
                for i in 0..armies.units() {
                    bytes.extend_from_slice(armies.unit(i));
                    bytes.push(u8::MAX);
                }
            }
            Units::Crowded(c, _) => {
                for i in 0..c.units() {
                    bytes.extend_from_slice(c.unit(i));
                    bytes.push(u8::MAX);
                }
            }
        }
        bytes
    }

    /// Searches the units `ids` on `settings.jobs` threads, `finished(i)` called as each
    /// unit `i` ends without a solution.
    pub(crate) fn decide(
        &self,
        ids: &[usize],
        settings: &Settings,
        finished: &(dyn Fn(usize) + Sync),
    ) -> (Found, Stats) {
        match self {
            Units::Two(board, demand, rows) => {
                let mine: Vec<u32> = ids.iter().map(|&i| rows[i]).collect();
                let answer = pq_lines::search_rows_noting(board, *demand, &mine, settings, &|k| {
                    finished(ids[k]);
                });
                let found = match answer.verdict {
                    Verdict::Sat(w) => Found::Sat(vec![w.white, w.black]),
                    Verdict::Unsat => Found::Unsat,
                    Verdict::Unknown(_) => Found::Unknown,
                };
                (found, answer.stats)
            }
            Units::More(armies) => {
                let (verdict, stats) = armies.decide_units(ids, settings, finished);
                (Found::from_armies(verdict), stats)
            }
            Units::Crowded(c, crowding) => {
                let (verdict, stats) = c.decide_units(ids, settings, finished);
                (Found::from_crowded(verdict, crowding), stats)
            }
        }
    }

    /// Searches unit `i` alone on this thread.
    pub(crate) fn decide_one(&self, i: usize, settings: &Settings) -> Found {
        match self {
            Units::Two(..) => self.decide(&[i], settings, &|_| {}).0,
            Units::More(armies) => Found::from_armies(armies.decide_unit(i, settings).0),
            Units::Crowded(c, crowding) => {
                Found::from_crowded(c.decide_unit(i, settings).0, crowding)
            }
        }
    }
}

/// The engine's board for `problem`'s layout.
pub(crate) fn board(problem: &Problem) -> Result<Board, pq_lines::Error> {
    let l = &problem.rules.layout;
    if l.torus {
        Board::torus(l.rows)
    } else {
        Board::new(l.rows, l.cols)
    }
}

/// What a search found, for any of the engine's problems.
pub(crate) enum Found {
    /// Each group's cells.
    Sat(Vec<Vec<(usize, usize)>>),
    Unsat,
    Unknown,
}

impl Found {
    fn from_armies(verdict: ArmiesVerdict) -> Found {
        match verdict {
            ArmiesVerdict::Sat(w) => Found::Sat(w.cells),
            ArmiesVerdict::Unsat => Found::Unsat,
            ArmiesVerdict::Unknown(_) => Found::Unknown,
        }
    }

    fn from_crowded(verdict: CrowdedVerdict, crowding: &Crowding) -> Found {
        match verdict {
            CrowdedVerdict::Sat(w) => Found::Sat(crowding.cells(w)),
            CrowdedVerdict::Unsat => Found::Unsat,
            CrowdedVerdict::Unknown(_) => Found::Unknown,
        }
    }
}

/// The line engine on `jobs` threads.
#[derive(Clone, Debug, Default)]
pub struct LineEngine {
    /// Worker threads.
    pub jobs: usize,
    /// A journal of the step's finished units ([`journal`]): one step (`--n`)
    /// goes on where an earlier run with the same journal stopped.
    pub journal: Option<std::path::PathBuf>,
    /// Nodes per unit in a first pass over the units, before the ones that ran out are
    /// searched to their end (`pq_lines::Settings::unit_budget`; three or more armies and
    /// Dudeney's board): `None` takes the default for the problem ([`CROWDED_BUDGET`] for
    /// Dudeney's board, no first pass otherwise), `Some(0)` no first pass.
    pub unit_budget: Option<u64>,
    /// The units of Dudeney's board on the last side asked, kept for the next step of a
    /// climb (listing them takes minutes from n = 17 on); clones share it.
    pub listing: CrowdedListing,
}

/// The last listing of Dudeney's board's units ([`pq_lines::crowded::Listing`]), shared by
/// the clones of one engine.
#[derive(Clone, Default)]
pub struct CrowdedListing(Arc<Mutex<Option<Listing>>>);

impl std::fmt::Debug for CrowdedListing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let side = self.last().map(|l| l.side());
        f.debug_tuple("CrowdedListing").field(&side).finish()
    }
}

impl CrowdedListing {
    fn last(&self) -> Option<Listing> {
        let kept = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        kept.clone()
    }

    /// The search for `knights` knights on `n × n`, its units listed once per side.
    fn crowded(&self, n: usize, knights: usize) -> Crowded {
        if let Some(listing) = self.last().filter(|l| l.side() == n) {
            return Crowded::with_listing(&listing, knights);
        }
        let crowded = Crowded::new(n, knights);
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = Some(crowded.listing());
        crowded
    }
}

/// The first pass's nodes per unit on Dudeney's board: long enough to finish most units
/// (under a second each), short next to the few that take minutes.
pub const CROWDED_BUDGET: u64 = 1_000_000;

impl LineEngine {
    /// The engine on `jobs` threads, with no journal and the default budgets.
    pub fn on(jobs: usize) -> LineEngine {
        LineEngine {
            jobs,
            ..LineEngine::default()
        }
    }

    /// The name reports show: `lines`, or `lines x N` on N threads.
    pub fn name(&self) -> String {
        if self.jobs > 1 {
            format!("{NAME} x {}", self.jobs)
        } else {
            NAME.to_string()
        }
    }

    /// Decides `problem` with its maximised groups at `n` pieces, under `limits`: a
    /// validated placement, UNSAT, or unknown with the reason. The node counts come back
    /// beside the outcome.
    ///
    /// # Errors
    /// A problem the engine does not answer ([`unsupported`]), a witness the validator
    /// rejects or an UNSAT that contradicts the table of proven values (both engine bugs).
    pub fn decide(
        &self,
        problem: &Problem,
        n: usize,
        limits: &Limits,
    ) -> Result<(Outcome, Stats), SolveError> {
        if let Some(why) = unsupported(problem) {
            return Err(SolveError::from(EngineError::Unsupported(format!(
                "the line engine cannot answer this problem: {why}"
            ))));
        }
        let start = Instant::now();
        let asked = || limits.should_stop();
        let units = Units::new(problem, n, &self.listing);
        let default_budget = matches!(units, Units::Crowded(..)).then_some(CROWDED_BUDGET);
        let settings = Settings {
            jobs: self.jobs,
            deadline: limits.deadline(),
            asked_to_stop: &asked,
            unit_budget: self.unit_budget.or(default_budget).filter(|&b| b > 0),
        };
        // The units to search: all, or those an earlier run's journal does not list.
        let journal = match &self.journal {
            Some(path) => Some(open_journal(path, problem, n, &units)?),
            None => None,
        };
        let record = |i: usize| {
            if let Some(j) = &journal {
                j.record(i);
            }
        };
        let before = journal.as_ref().map_or(0, |j| j.done().len());
        let done = journal.as_ref().map(Journal::done);
        let ids: Vec<usize> = (0..units.count())
            .filter(|i| done.is_none_or(|d| !d.contains(i)))
            .collect();
        let (found, mut stats) = units.decide(&ids, &settings, &record);
        stats.resumed = before;
        if let Some(j) = journal {
            j.finish()?;
        }
        let outcome = self.outcome(problem, n, found, start.elapsed().as_secs_f64(), limits)?;
        Ok((outcome, stats))
    }

    /// The outcome of a search that `found` something, checked: a witness by the
    /// independent validator, an UNSAT against the table of proven values.
    fn outcome(
        &self,
        problem: &Problem,
        n: usize,
        found: Found,
        seconds: f64,
        limits: &Limits,
    ) -> Result<Outcome, SolveError> {
        let solver = self.name();
        // No formula: its variables and clauses stay 0.
        let mut out = Outcome::unknown(solver.clone(), seconds);
        match found {
            Found::Sat(armies) => {
                let raw = placement(problem, &armies);
                let (placement, witness_n) = validated(problem, n, &raw, &solver)?;
                out.status = Status::Sat;
                out.placement = Some(placement);
                out.raw = Some(raw);
                out.witness_n = witness_n;
            }
            Found::Unsat => {
                pq_solve::known::agrees(problem, n, &Answer::Unsat).map_err(|reason| {
                    SolveError::Rejected {
                        program: solver.clone(),
                        reason,
                    }
                })?;
                out.status = Status::Unsat;
                // An exhaustive search, not a checked proof (until one is checked).
                out.verified = Some(false);
            }
            Found::Unknown => out.reason = Some(limits.unknown_reason()),
        }
        Ok(out)
    }

    /// Decides the peaceable queens `problem` (a square board) at `n` like
    /// [`LineEngine::decide`], on one thread, writing on UNSAT its search tree as a DRAT
    /// proof to `proof` and the formula it refutes ([`tree_proof_options`]) to `cnf`; with
    /// `check`, the UNSAT counts only once the independent checker has verified the pair.
    /// Both files are made beside their targets and renamed into place only on UNSAT, so
    /// any other answer (or a crash) leaves neither. Returns the outcome, the search's
    /// counts and the proof's size.
    ///
    /// # Errors
    /// Another problem, a write error, a witness the validator rejects, an UNSAT against
    /// the table, or a proof the checker rejects.
    pub fn prove(
        &self,
        problem: &Problem,
        n: usize,
        (cnf, proof): (&std::path::Path, &std::path::Path),
        check: bool,
        limits: &Limits,
        policy: output::WritePolicy,
    ) -> Result<(Outcome, Stats, Option<u64>), SolveError> {
        let d = proved_board(problem, "proofs")?.rows();
        let instance = pq_encode::Instance::new(d, n)
            .map_err(|e| SolveError::from(EngineError::Request(e.to_string())))?;
        let formula = pq_encode::encode(&instance, &tree_proof_options());
        let cnf_tmp = output::temp_file(cnf, "out")?;
        let proof_tmp = output::temp_file(proof, "out")?;
        pq_solve::backend::write_cnf(&formula, cnf_tmp.path()).map_err(SolveError::naming(cnf))?;
        let start = Instant::now();
        let proved = {
            let file = proof_tmp
                .as_file()
                .try_clone()
                .map_err(SolveError::io(proof))?;
            let mut writer = std::io::BufWriter::new(file);
            let proved = write_tree_proof(d, n, &mut writer, true, limits)?;
            std::io::Write::flush(&mut writer).map_err(SolveError::io(proof))?;
            proved
        };
        let stats = Stats {
            nodes: proved.nodes,
            pairs: proved.pairs,
            jobs: 1,
            ..Stats::default()
        };
        let found = match proved.verdict {
            Verdict::Sat(w) => Found::Sat(vec![w.white, w.black]),
            Verdict::Unsat => Found::Unsat,
            Verdict::Unknown(_) => Found::Unknown,
        };
        // The proof is written by one thread: the report names that.
        let one = LineEngine::on(1);
        let mut outcome = one.outcome(problem, n, found, start.elapsed().as_secs_f64(), limits)?;
        if outcome.status != Status::Unsat {
            return Ok((outcome, stats, None));
        }
        if check {
            let (cnf, proof) = (cnf_tmp.path(), proof_tmp.path());
            let answer = crate::proof::checked::verify_unsat(
                one.name(),
                cnf,
                proof,
                ProofFormat::Drat,
                limits,
            )?;
            if answer != Answer::Unsat {
                // Stopped while checking: no answer, as for a slow solver.
                let mut out = Outcome::unknown(one.name(), outcome.seconds);
                out.reason = Some(limits.unknown_reason());
                return Ok((out, stats, None));
            }
            outcome.verified = Some(true);
        }
        // Never over a link or a special file; whether an existing file may be replaced was
        // decided before the search (`--force`). Both are checked first, so that a refusal
        // leaves neither (no CNF without its proof).
        output::replaceable(cnf)?;
        output::replaceable(proof)?;
        output::persist(cnf_tmp, cnf, policy)?;
        output::persist(proof_tmp, proof, policy)?;
        let bytes = std::fs::metadata(proof).ok().map(|m| m.len());
        Ok((outcome, stats, bytes))
    }
}

impl LineEngine {
    /// Decides whether `n` and `n` queens fit on `problem`'s square board and, when they do
    /// not, writes the search's certificate (docs/search-certificate.md) to `proof`
    /// (standard output when it is `-`), checked by `pq-check` first when `check`. The file
    /// appears only when complete: SAT, a stop or a failed check leaves none (on standard
    /// output, a stream without its end, which a checker refuses). Returns the outcome, the
    /// counts and the certificate's size.
    ///
    /// # Errors
    /// Another problem, a write error, a witness the validator rejects, an UNSAT against
    /// the table, or a certificate the checker rejects.
    pub fn certify(
        &self,
        problem: &Problem,
        n: usize,
        proof: &std::path::Path,
        check: bool,
        limits: &Limits,
        policy: output::WritePolicy,
    ) -> Result<(Outcome, Stats, Option<u64>), SolveError> {
        let board = proved_board(problem, "search certificates")?;
        let l = &problem.rules.layout;
        let to_stdout = proof.as_os_str() == "-";
        let tmp = if to_stdout {
            None
        } else {
            Some(output::temp_file(proof, "out")?)
        };
        let asked = || limits.should_stop();
        let settings = pq_lines::Settings {
            jobs: self.jobs,
            deadline: limits.deadline(),
            asked_to_stop: &asked,
            unit_budget: None,
        };
        let start = Instant::now();
        let write_error = |e: pq_lines::certificate::CertifyError| match e {
            pq_lines::certificate::CertifyError::Io(e) => SolveError::io(proof)(e),
            e => SolveError::from(EngineError::Request(e.to_string())),
        };
        let demand = Demand::equal(n);
        let range = (0, 1u64 << l.rows);
        let written = std::sync::atomic::AtomicU64::new(0);
        let sink: Box<dyn std::io::Write + Send + '_> = if let Some(tmp) = &tmp {
            Box::new(tmp.as_file().try_clone().map_err(SolveError::io(proof))?)
        } else {
            output::widen_stdout_pipe();
            Box::new(Counted {
                inner: std::io::stdout(),
                bytes: &written,
            })
        };
        let mut out = std::io::BufWriter::with_capacity(1 << 20, sink);
        let answer = pq_lines::certificate::certify(&board, demand, range, &settings, &mut out)
            .map_err(write_error)?;
        drop(out);
        let found = match answer.verdict {
            Verdict::Sat(w) => Found::Sat(vec![w.white, w.black]),
            Verdict::Unsat => Found::Unsat,
            Verdict::Unknown(_) => Found::Unknown,
        };
        let mut outcome = self.outcome(problem, n, found, start.elapsed().as_secs_f64(), limits)?;
        let stats = answer.stats;
        let Some(tmp) = tmp.filter(|_| outcome.status == Status::Unsat) else {
            let bytes = (to_stdout && outcome.status == Status::Unsat)
                .then(|| written.load(std::sync::atomic::Ordering::Relaxed));
            return Ok((outcome, stats, bytes));
        };
        if check {
            // The step asked, demanded of the claim: a certificate of any other step (a slip
            // between the request and the writer) verifies as nothing.
            let expect = format!("board square {} armies {n} {n}", l.rows);
            let report = crate::proof::check_search(tmp.path(), false, Some(&expect), limits)?;
            if !report.verified {
                return Err(EngineError::CheckerRefused(report.verdict.clone()).into());
            }
            outcome.verified = Some(true);
        }
        output::replaceable(proof)?;
        output::persist(tmp, proof, policy)?;
        let bytes = std::fs::metadata(proof).ok().map(|m| m.len());
        Ok((outcome, stats, bytes))
    }
}

/// The square board of the peaceable queens that `problem` is, for a proof of its search
/// (`what`: the kind of proof, for the refusal): the one problem whose search the proofs
/// cover.
fn proved_board(problem: &Problem, what: &str) -> Result<Board, SolveError> {
    let l = &problem.rules.layout;
    if !pq_solve::lines::decides(problem) {
        return Err(SolveError::from(EngineError::Unsupported(format!(
            "the line engine writes {what} for the peaceable queens on a square board (--dim D) only"
        ))));
    }
    Board::square(l.rows).map_err(|e| SolveError::from(EngineError::Request(e.to_string())))
}

/// A writer that counts what goes through it (a certificate on standard output has no file
/// to measure).
struct Counted<'a, W> {
    inner: W,
    bytes: &'a std::sync::atomic::AtomicU64,
}

impl<W: std::io::Write> std::io::Write for Counted<'_, W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes
            .fetch_add(n as u64, std::sync::atomic::Ordering::Relaxed);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// The encoding options of the formula that the line engine's search tree refutes: pq-sat's
/// defaults (colouring model, totalizer, lex-leader) with the family-sum clauses
/// (`pq-sat encode --dim D --n N --bounds sums`), which let propagation refute every leaf.
pub fn tree_proof_options() -> pq_encode::Options {
    pq_encode::Options {
        bounds: pq_encode::Bounds::Sums,
        ..pq_encode::Options::default()
    }
}

/// Searches whether `n` white and `n` black queens fit on `d × d` and writes the search
/// tree to `out` as a DRAT proof (binary, or text) against the formula of
/// [`tree_proof_options`] ([`pq_lines::proof`]). The proof is complete only when the
/// verdict is UNSAT.
///
/// # Errors
/// A board the engine does not take, or a write error.
pub(crate) fn write_tree_proof(
    d: usize,
    n: usize,
    out: &mut dyn std::io::Write,
    binary: bool,
    limits: &Limits,
) -> Result<pq_lines::proof::Proved, SolveError> {
    let board =
        Board::square(d).map_err(|e| SolveError::from(EngineError::Request(e.to_string())))?;
    let whole = pq_lines::Fixed::default();
    let name = std::path::Path::new("the proof");
    pq_solve::lines::tree_proof((&board, n, &whole), out, binary, name, limits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pq_encode::{dimacs, encode, Instance};

    /// Writes the formula with `options` and the tree proof for `d`, `n` into `dir`;
    /// returns the two paths and the engine's account.
    fn files(
        dir: &std::path::Path,
        d: usize,
        n: usize,
        options: &pq_encode::Options,
    ) -> (
        std::path::PathBuf,
        std::path::PathBuf,
        pq_lines::proof::Proved,
    ) {
        let cnf = dir.join(format!("q{d}-{n}.cnf"));
        let formula = encode(&Instance::new(d, n).unwrap(), options);
        dimacs::write(&formula, std::fs::File::create(&cnf).unwrap()).unwrap();
        let proof = dir.join(format!("q{d}-{n}.drat"));
        let mut file = std::io::BufWriter::new(std::fs::File::create(&proof).unwrap());
        let proved = write_tree_proof(d, n, &mut file, false, &Limits::none()).unwrap();
        drop(file);
        (cnf, proof, proved)
    }

    fn verified(cnf: &std::path::Path, proof: &std::path::Path) -> bool {
        crate::proof::check_proof(cnf, proof, ProofFormat::Drat, None)
            .unwrap()
            .verified
    }

    /// The tree checks for the UNSAT step of d = 3..7, with the formula's own symmetry
    /// breaking refuting the pairs it skips.
    #[test]
    fn the_tree_is_a_drat_proof() {
        let dir = tempfile::tempdir().unwrap();
        for (d, n) in [(3, 2), (4, 3), (5, 5), (6, 6), (7, 8)] {
            let (cnf, proof, proved) = files(dir.path(), d, n, &tree_proof_options());
            assert_eq!(proved.verdict, Verdict::Unsat, "{d}/{n}");
            assert!(verified(&cnf, &proof), "{d}/{n}: {proved:?}");
        }
    }

    /// A proof cut short, a lemma taken out, or the formula without its bound clauses:
    /// each fails the check (so the test above can fail).
    #[test]
    fn a_damaged_tree_or_formula_fails_the_check() {
        let dir = tempfile::tempdir().unwrap();
        let (d, n) = (6, 6);
        let (cnf, proof, _) = files(dir.path(), d, n, &tree_proof_options());
        let text = std::fs::read_to_string(&proof).unwrap();
        let lemmas: Vec<&str> = text.lines().collect();
        assert!(lemmas.len() > 100, "{}", lemmas.len());
        let damaged = dir.path().join("damaged.drat");
        let write = |lines: &[&str]| std::fs::write(&damaged, lines.join("\n") + "\n").unwrap();
        write(&lemmas[..lemmas.len() - 1]);
        assert!(!verified(&cnf, &damaged), "without the empty clause");
        // The whole subtree of the pair (rows and columns: the first 2d literals) whose
        // search took the most lemmas: without it, nothing refutes that pair.
        // A deletion ("d LITS 0") goes with the lemma it deletes.
        let body = |l: &str| l.strip_prefix("d ").unwrap_or(l).to_string();
        let prefix = |l: &str| body(l).split(' ').take(2 * d).collect::<Vec<_>>().join(" ");
        let long = |l: &str| body(l).split(' ').count() > 2 * d;
        let mut sizes = std::collections::HashMap::new();
        for l in lemmas
            .iter()
            .filter(|l| body(l).split(' ').count() > 2 * d + 1)
        {
            *sizes.entry(prefix(l)).or_insert(0) += 1;
        }
        let (pair, size) = sizes.into_iter().max_by_key(|&(_, n)| n).unwrap();
        assert!(size > 10, "{size}");
        let missing: Vec<&str> = (lemmas.iter().copied())
            .filter(|l| !(long(l) && prefix(l) == pair))
            .collect();
        write(&missing);
        assert!(!verified(&cnf, &damaged), "without the subtree of {pair}");
        let plain = pq_encode::Options::default();
        let (cnf, proof, _) = files(dir.path(), d, n, &plain);
        assert!(
            !verified(&cnf, &proof),
            "against the formula without bound clauses"
        );
    }
}
