//! Solver races: every solver on every instance of a [family](crate::family), a few at a
//! time, each answer checked (SAT models against the instance and, decoded, by the
//! independent validator; statuses against the other solvers' checked models and the
//! manifest), scored by PAR-2 as in the SAT competitions (solved: its time; unsolved or
//! wrong: twice the time limit).
//!
//! A solver is wrong only when checked evidence refutes it: its own model fails a clause or
//! the validator, or it answered UNSAT where another solver's model checks out. The
//! manifest's `expected` is a claim like any other: an answer that contradicts only the
//! manifest makes the instance [disputed](Dispute), never the solver wrong.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use pq_encode::{dimacs, Formula};

use crate::family::manifest::{Entry, Manifest, MANIFEST_JSON};
use crate::family::FamilyError;
use pq_encode::maxsat::{self, Optimisation};
use pq_encode::spec::Problem;
use pq_encode::Options;
use pq_engine::capability::climb::{Method, RunLimits, Strategy};
use pq_engine::capability::{validated, Status};
use pq_engine::sat::maxsat::{solve_file, Optimiser, Target};
use pq_engine::sat::optimise::optimise;
use pq_io::compress::{self, Compression};
use pq_io::hashing::sha256_hex;
use pq_solve::answer::Answer;
use pq_solve::backend::{first_falsified_clause, Backend};
use pq_solve::control::{interrupted, Limits};
use pq_solve::error::SolveError;

/// The largest instance file a race reads (it hashes each one whole).
const MAX_INSTANCE: u64 = 1 << 32;

/// How one run ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// A correct SAT answer (model checked).
    Sat,
    /// An UNSAT answer consistent with everything known.
    Unsat,
    /// No answer within the time limit (or the solver gave up).
    Unknown(String),
    /// The solver crashed or printed something unreadable.
    Error(String),
    /// A wrong answer, refuted by checked evidence: a model that violates the instance or the
    /// validator, an UNSAT where another solver's model checks out, or an UNSAT whose proof
    /// the checker rejects (`--check-unsat`).
    Wrong(String),
    /// An UNSAT that only the manifest contradicts (it says `sat`) and no solver's model
    /// settles: the instance is disputed; neither solved nor penalised in PAR-2.
    Disputed(String),
}

impl Verdict {
    /// The short name used in tables and JSON.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Sat => "sat",
            Verdict::Unsat => "unsat",
            Verdict::Unknown(_) => "unknown",
            Verdict::Error(_) => "error",
            Verdict::Wrong(_) => "wrong",
            Verdict::Disputed(_) => "disputed",
        }
    }

    /// The detail behind `unknown`, `error`, `wrong` and `disputed`.
    pub fn detail(&self) -> Option<&str> {
        match self {
            Verdict::Unknown(s) | Verdict::Error(s) | Verdict::Wrong(s) | Verdict::Disputed(s) => {
                Some(s)
            }
            _ => None,
        }
    }

    /// Solved, and correctly.
    pub fn solved(&self) -> bool {
        matches!(self, Verdict::Sat | Verdict::Unsat)
    }
}

/// One solver on one instance.
#[derive(Clone, Debug)]
pub struct Run {
    /// Index into the race's solvers.
    pub solver: usize,
    /// Index into the manifest's instances.
    pub instance: usize,
    /// How the run ended, after every check.
    pub verdict: Verdict,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// On an optimisation instance: the optimum the run claimed.
    pub optimum: Option<usize>,
    /// On an optimisation instance: the size of the validated board the run found.
    pub found: Option<usize>,
}

/// A solver in a race: its label (as the user wrote it) and the backend.
pub struct Racer {
    /// The name shown in reports, tables and plots.
    pub label: String,
    /// The solver that runs; on an optimisation family, the SAT solver of pq-sat's own
    /// optimiser, or (with `optimiser`) the proof-checking backend that confirms the
    /// optimiser's bound under `--check-unsat`.
    pub backend: Box<dyn Backend>,
    /// An external optimiser (rc2, clasp) that solves each optimisation instance's file.
    pub optimiser: Option<Optimiser>,
}

/// An optimisation instance of a family (`family --instance-format wcnf|opb`): what it was
/// made for, read back from its header, and its export, checked to be byte for byte the
/// instance's text.
pub struct OptInstance {
    /// The problem it optimises.
    pub problem: Problem,
    /// Its encoding options.
    pub options: Options,
    /// The export (constraints, ladder, variable map).
    pub opt: Optimisation,
}

/// A family read from disk with every file checked against its manifest hash and parsed.
pub struct Family {
    /// The family directory; instance files are found relative to it.
    pub dir: PathBuf,
    /// Its manifest.
    pub manifest: Manifest,
    /// The parsed instances, in manifest order (an optimisation instance: its clauses and
    /// variable map).
    pub formulas: Vec<Formula>,
    /// For each optimisation instance, what it states; `None` for a DIMACS instance.
    pub optimisations: Vec<Option<OptInstance>>,
    /// For each compressed instance, a plain copy of its DIMACS (removed with the family):
    /// what the solvers are given (see [`Family::solver_file`]).
    plain: Vec<Option<tempfile::TempPath>>,
    /// Each instance's file as found on disk (its name's bytes as they are, a link
    /// resolved): what a solver is given when the instance is plain.
    files: Vec<PathBuf>,
}

impl Family {
    /// Reads `dir`'s manifest and every instance; a missing file, a hash or a variable or
    /// clause count that does not match is an error (a race on a tampered family would be
    /// meaningless). Instances compressed with xz, gzip or bzip2 (told by their first
    /// bytes) are hashed as they are stored and parsed decompressed.
    ///
    /// A directory without a manifest is a plain folder of DIMACS files
    /// ([`Family::folder`]).
    pub fn load(dir: &Path) -> Result<Family, FamilyError> {
        if !dir.join(MANIFEST_JSON).exists() {
            return Family::folder(dir);
        }
        let manifest = Manifest::read(dir)?;
        if manifest.instances.is_empty() {
            return Err(FamilyError::Invalid(format!(
                "{}: the manifest lists no instances",
                dir.display()
            )));
        }
        let mut formulas = Vec::with_capacity(manifest.instances.len());
        let mut optimisations = Vec::with_capacity(manifest.instances.len());
        let mut plain = Vec::with_capacity(manifest.instances.len());
        let mut files = Vec::with_capacity(manifest.instances.len());
        for e in &manifest.instances {
            let path = dir.join(&e.file);
            // An instance is a file the family wrote: a link, a FIFO or a device is not.
            let bytes = pq_io::output::read_regular(&path, MAX_INSTANCE)?;
            let hash = sha256_hex(&bytes);
            if hash != e.sha256 {
                return Err(FamilyError::Invalid(format!(
                    "{}: SHA-256 {hash} does not match the manifest's {}; the file was changed",
                    path.display(),
                    e.sha256
                )));
            }
            let (text, copy) = plain_text(&path, &e.file, bytes)?;
            plain.push(copy);
            files.push(path.clone());
            if let Some(format) = &e.format {
                let inst = optimisation(&path, format, &text)?;
                let found = (inst.opt.formula.n_vars, inst.opt.n_constraints());
                sizes_agree(&path, e, found, "constraints")?;
                formulas.push(inst.opt.formula.clone());
                optimisations.push(Some(inst));
                continue;
            }
            optimisations.push(None);
            let formula = dimacs::parse(&text[..])
                .map_err(|e| FamilyError::Invalid(format!("{}: {e}", path.display())))?;
            // The manifest's sizes are claims about the file like its status: checked.
            sizes_agree(&path, e, (formula.n_vars, formula.n_clauses()), "clauses")?;
            formulas.push(formula);
        }
        Ok(Family {
            dir: dir.to_path_buf(),
            manifest,
            formulas,
            optimisations,
            plain,
            files,
        })
    }

    /// A folder of DIMACS files that no manifest describes: every regular file named
    /// `*.cnf` (or `*.cnf.xz`, `.gz`, `.bz2`) in `dir`, or link to one, in name order, each
    /// status unknown until a solver answers (a SAT answer is checked against every clause,
    /// and an UNSAT that another solver's checked model contradicts is wrong).
    /// Subdirectories are skipped. A name that is not UTF-8 is shown with replacement
    /// characters, and its file is read and given to the solvers by its own bytes.
    pub fn folder(dir: &Path) -> Result<Family, FamilyError> {
        let listing = std::fs::read_dir(dir).map_err(SolveError::io(dir))?;
        let mut found = Vec::new();
        for entry in listing {
            let entry = entry.map_err(SolveError::io(dir))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let cnf = [".cnf", ".cnf.xz", ".cnf.gz", ".cnf.bz2"]
                .iter()
                .any(|ext| name.ends_with(ext) && name.len() > ext.len());
            // A folder of links into a benchmark collection is common: a link counts as
            // the regular file it leads to, which is what is read and solved.
            let file = match entry.file_type() {
                Ok(t) if t.is_file() => Some(entry.path()),
                Ok(t) if t.is_symlink() => {
                    (std::fs::canonicalize(entry.path()).ok()).filter(|target| target.is_file())
                }
                _ => None,
            };
            if let (true, Some(file)) = (cnf, file) {
                found.push((name, file));
            }
        }
        found.sort();
        if found.is_empty() {
            return Err(FamilyError::Invalid(format!(
                "{}: neither a family (no {MANIFEST_JSON}) nor a folder of DIMACS files (no *.cnf, *.cnf.xz, *.cnf.gz or *.cnf.bz2)",
                dir.display()
            )));
        }
        let (mut instances, mut formulas, mut plain) = (Vec::new(), Vec::new(), Vec::new());
        let mut files = Vec::new();
        for (name, path) in found {
            let bytes = pq_io::output::read_regular(&path, MAX_INSTANCE)?;
            let sha256 = sha256_hex(&bytes);
            let (text, copy) = plain_text(&path, &name, bytes)?;
            let formula = dimacs::parse(&text[..])
                .map_err(|e| FamilyError::Invalid(format!("{}: {e}", path.display())))?;
            // A pq-sat file's header names its encoding; another file's is left blank.
            let stated = |key| {
                pq_encode::header::word(&formula.comments, key).map_or(String::new(), String::from)
            };
            instances.push(Entry {
                model: stated("model"),
                card: stated("card"),
                symmetry: stated("symmetry"),
                variables: formula.n_vars,
                clauses: formula.n_clauses(),
                sha256,
                ..Entry::of_file(name)
            });
            formulas.push(formula);
            plain.push(copy);
            files.push(path);
        }
        let manifest = Manifest {
            family: dir.file_name().map_or_else(
                || dir.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            ),
            problem_file: None,
            generator: String::new(),
            command: String::new(),
            instances,
        };
        Ok(Family {
            dir: dir.to_path_buf(),
            optimisations: (0..formulas.len()).map(|_| None).collect(),
            manifest,
            formulas,
            plain,
            files,
        })
    }

    /// The file a solver is given for instance `i`: the instance itself when it is plain,
    /// else its plain copy. Every solver gets plain DIMACS: kissat and CaDiCaL open
    /// compressed files only through the external `xz`, `gzip` or `bzip2` programs, which
    /// need not be installed, and other solvers not at all.
    pub fn solver_file(&self, i: usize) -> PathBuf {
        match &self.plain[i] {
            Some(copy) => copy.to_path_buf(),
            None => self.files[i].clone(),
        }
    }
}

/// The optimisation instance at `path` (its text `text`, in `format`): the problem and
/// options its header names, exported again; anything but pq-sat's export of them, byte
/// for byte, is refused (a race on a file pq-sat cannot decode would check nothing).
fn optimisation(path: &Path, format: &str, text: &[u8]) -> Result<OptInstance, FamilyError> {
    let bad = |why: &str| FamilyError::Invalid(format!("{}: {why}", path.display()));
    let text = std::str::from_utf8(text).map_err(|_| bad("not text"))?;
    let (problem, options, export) = maxsat::read_subject(text)
        .ok_or_else(|| bad("no pq-sat header naming the problem it optimises"))?;
    if export.name() != format {
        return Err(bad(&format!(
            "the manifest says {format}, the file is {}",
            export.name()
        )));
    }
    let opt = maxsat::export(&problem, &options, export).map_err(|e| bad(&e.to_string()))?;
    let mut again = Vec::new();
    opt.write(&mut again).map_err(SolveError::io(path))?;
    if again != text.as_bytes() {
        return Err(bad(&format!(
            "not pq-sat {}'s {format} export of the problem its header names (was it edited, or written by another version?); make the family again",
            env!("CARGO_PKG_VERSION")
        )));
    }
    Ok(OptInstance {
        problem,
        options,
        opt,
    })
}

/// The manifest's sizes are claims about the file like its status: `found` (variables,
/// and clauses or `what`) must be the entry's.
fn sizes_agree(path: &Path, e: &Entry, found: (u32, usize), what: &str) -> Result<(), FamilyError> {
    if found == (e.variables, e.clauses) {
        return Ok(());
    }
    Err(FamilyError::Invalid(format!(
        "{}: {MANIFEST_JSON} says {} variables and {} {what}, the file has {} and {}; make the family again",
        path.display(),
        e.variables,
        e.clauses,
        found.0,
        found.1
    )))
}

/// The text of the instance `file` (at `path`) stored as `bytes`: the bytes themselves
/// when plain, else decompressed, with a plain copy for the solvers.
fn plain_text(
    path: &Path,
    file: &str,
    bytes: Vec<u8>,
) -> Result<(Vec<u8>, Option<tempfile::TempPath>), FamilyError> {
    if Compression::of_magic(&bytes) == Compression::None {
        return Ok((bytes, None));
    }
    let mut text = Vec::new();
    compress::decompressed(&bytes[..])
        .and_then(|mut r| r.read_to_end(&mut text))
        .map_err(|e| FamilyError::Invalid(format!("{}: cannot decompress: {e}", path.display())))?;
    let copy = plain_copy(file, &text)?;
    Ok((text, Some(copy)))
}

/// A temporary plain DIMACS file holding `text`, the decompressed instance `file`; named
/// after it (without the compression's extension) so that a solver's messages still say
/// which instance it is.
fn plain_copy(file: &str, text: &[u8]) -> Result<tempfile::TempPath, FamilyError> {
    let name = compress::stripped(Path::new(file));
    let stem = name.file_stem().map(|s| s.to_string_lossy().into_owned());
    // The instance's own extension: RC2 tells WCNF from CNF by it.
    let ext = name
        .extension()
        .map_or(".cnf".to_string(), |e| format!(".{}", e.to_string_lossy()));
    let suffix = format!("-{}{ext}", stem.unwrap_or_default());
    let mut copy = pq_io::output::scratch_file(&suffix)?;
    let path = copy.path().to_path_buf();
    copy.as_file_mut()
        .write_all(text)
        .and_then(|()| copy.as_file_mut().flush())
        .map_err(SolveError::io(&path))?;
    Ok(copy.into_temp_path())
}

/// Runs every racer on every instance, `jobs` runs at a time, each within `timeout`.
/// `on_run` sees each run as it finishes (from worker threads). Stops early, returning
/// what has finished, when pq-sat is interrupted.
pub fn race(
    family: &Family,
    racers: &[Racer],
    timeout: Duration,
    jobs: usize,
    on_run: &(dyn Fn(&Run) + Sync),
) -> Vec<Run> {
    // The next run to start, numbered instance by instance, solver by solver.
    let next = AtomicUsize::new(0);
    let total = family.formulas.len() * racers.len();
    let results = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| loop {
                if interrupted() {
                    break;
                }
                let k = next.fetch_add(1, Ordering::Relaxed);
                if k >= total {
                    break;
                }
                let (i, s) = (k / racers.len(), k % racers.len());
                let entry = &family.manifest.instances[i];
                let formula = &family.formulas[i];
                let path = family.solver_file(i);
                let limits = Limits::timeout(Some(timeout));
                let start = Instant::now();
                let (verdict, optimum, found) = if let Some(inst) = &family.optimisations[i] {
                    judge_optimisation(entry, inst, &racers[s], &path, &limits)
                } else {
                    let answer = racers[s].backend.solve_path(&path, formula, &limits);
                    let checked = racers[s].backend.checks_unsat();
                    (judge(entry, formula, answer, checked), None, None)
                };
                let seconds = start.elapsed().as_secs_f64();
                if interrupted() {
                    // Cut short by Ctrl-C: not a result of the solver.
                    break;
                }
                let run = Run {
                    solver: s,
                    instance: i,
                    verdict,
                    seconds,
                    optimum,
                    found,
                };
                on_run(&run);
                results
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .push(run);
            });
        }
    });
    let mut runs = results
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    runs.sort_by_key(|r| (r.instance, r.solver));
    cross_check(&mut runs, family, racers);
    runs
}

/// What the manifest says of an instance, for messages.
fn manifest_says(entry: &Entry) -> String {
    let source = if entry.source.is_empty() {
        String::new()
    } else {
        format!(" ({})", entry.source)
    };
    format!("the manifest says {}{source}", entry.expected.name())
}

/// Checks one answer against the instance, and an UNSAT against the manifest (a SAT
/// answer's model is its own evidence; [`disputes`] compares it with the manifest).
/// `checked`: the solver's UNSAT answers come with a proof the checker verified
/// (`--check-unsat`), evidence that outweighs the manifest.
fn judge(
    entry: &Entry,
    formula: &Formula,
    answer: Result<Answer, pq_solve::error::SolveError>,
    checked: bool,
) -> Verdict {
    match answer {
        // Refuted by what pq-sat checked (a proof that does not verify): a wrong answer,
        // not a crash.
        Err(SolveError::Rejected { reason, .. }) => Verdict::Wrong(reason),
        Err(e) => Verdict::Error(e.to_string()),
        Ok(Answer::Unknown(reason)) => Verdict::Unknown(reason),
        Ok(Answer::Unsat) if entry.expected == Status::Sat && !checked => {
            Verdict::Disputed(format!(
                "answered UNSAT, but {}; no model settles it",
                manifest_says(entry)
            ))
        }
        Ok(Answer::Unsat) => Verdict::Unsat,
        Ok(Answer::Sat(model)) => {
            if let Some(k) = first_falsified_clause(formula, &model) {
                return Verdict::Wrong(format!(
                    "answered SAT with a model that violates clause {}",
                    k + 1
                ));
            }
            // A pq-sat formula's header says which rules its placement must obey.
            let problem = pq_encode::header::read_problem(&formula.comments);
            if let (Some(problem), Some(map)) = (&problem, &formula.pieces) {
                let why = match map.decode(|v| model.value(v as usize)) {
                    Ok(placement) => validated(problem, 0, &placement, "the solver").err().map(|e| {
                        format!("its model satisfies the formula but the placement fails the independent validator: {e}")
                    }),
                    Err((r, c)) => Some(format!(
                        "its model puts two pieces on row {}, column {}",
                        r + 1,
                        c + 1
                    )),
                };
                if let Some(why) = why {
                    return Verdict::Wrong(why);
                }
            }
            Verdict::Sat
        }
    }
}

/// One racer on an optimisation instance: an external optimiser on the instance's file
/// (with `--check-unsat`, its bound confirmed by the racer's proof-checking backend), or
/// pq-sat's own optimiser with the racer's SAT backend. Returns the verdict, the optimum
/// claimed and the size of the validated board found. A claimed optimum below the
/// manifest's, resting on an unchecked UNSAT, is disputed; one above it has a validated
/// board and stands (the manifest is wrong: [`disputes`]).
fn judge_optimisation(
    entry: &Entry,
    inst: &OptInstance,
    racer: &Racer,
    file: &Path,
    limits: &Limits,
) -> (Verdict, Option<usize>, Option<usize>) {
    let checked = racer.backend.checks_unsat();
    let result = if let Some(optimiser) = racer.optimiser {
        let target = Target {
            problem: &inst.problem,
            options: &inst.options,
            opt: &inst.opt,
            file,
        };
        let confirm = checked.then_some(racer.backend.as_ref());
        solve_file(&target, optimiser, limits, confirm)
    } else {
        let limits = RunLimits {
            run: limits.clone(),
            step: None,
        };
        let backend = racer.backend.as_ref();
        optimise(
            &inst.problem,
            &inst.options,
            Strategy::Up,
            backend,
            &limits,
            &mut |_| {},
        )
    };
    let outcome = match result {
        Err(SolveError::Rejected { reason, .. }) => return (Verdict::Wrong(reason), None, None),
        Err(e @ SolveError::InvalidBoard { .. }) => {
            return (Verdict::Wrong(e.to_string()), None, None)
        }
        Err(e) => return (Verdict::Error(e.to_string()), None, None),
        Ok(outcome) => outcome,
    };
    let found = outcome.best.as_ref().map(|b| b.0);
    if outcome.infeasible {
        let answer = Ok(Answer::Unsat);
        return (judge(entry, &inst.opt.formula, answer, checked), None, None);
    }
    let Some(n) = outcome.optimum else {
        let why = outcome.reason.unwrap_or_else(|| "no answer".into());
        return (Verdict::Unknown(why), None, found);
    };
    // The step the claim's upper bound rests on: counting, or a (checked?) UNSAT.
    let proven = outcome
        .steps
        .iter()
        .rev()
        .find(|s| s.n == n + 1)
        .is_some_and(|s| s.method == Method::TooManyQueens || s.verified == Some(true));
    let verdict = match entry.optimum {
        Some(a) if n < a && !proven => Verdict::Disputed(format!(
            "claimed the optimum {n}, but the manifest says {a}{}; no board settles it",
            source_of(entry)
        )),
        _ => Verdict::Sat,
    };
    (verdict, Some(n), found)
}

/// The manifest's source for an entry, for messages (` (SOURCE)`, or nothing).
fn source_of(entry: &Entry) -> String {
    if entry.source.is_empty() {
        String::new()
    } else {
        format!(" ({})", entry.source)
    }
}

/// A checked model from one solver shows that another solver's UNSAT on the same instance
/// is wrong, whatever the manifest says; on an optimisation instance, a validated board
/// larger than a claimed optimum shows that claim wrong.
fn cross_check(runs: &mut [Run], family: &Family, racers: &[Racer]) {
    for i in 0..family.formulas.len() {
        if family.optimisations[i].is_some() {
            let best = runs
                .iter()
                .filter(|r| r.instance == i && !matches!(r.verdict, Verdict::Wrong(_)))
                .filter_map(|r| r.found.map(|m| (m, racers[r.solver].label.clone())))
                .max_by_key(|(m, _)| *m);
            if let Some((m, by)) = best {
                for r in runs.iter_mut().filter(|r| r.instance == i) {
                    if let (Some(n), Verdict::Sat | Verdict::Disputed(_)) = (r.optimum, &r.verdict)
                    {
                        if n < m {
                            r.verdict = Verdict::Wrong(format!(
                                "claimed the optimum {n}, but {by} found a validated board of size {m}"
                            ));
                        }
                    }
                }
            }
            continue;
        }
        let sat_by = runs
            .iter()
            .find(|r| r.instance == i && r.verdict == Verdict::Sat)
            .map(|r| racers[r.solver].label.clone());
        if let Some(by) = sat_by {
            for r in runs.iter_mut().filter(|r| {
                r.instance == i && matches!(r.verdict, Verdict::Unsat | Verdict::Disputed(_))
            }) {
                r.verdict = Verdict::Wrong(format!(
                    "answered UNSAT, but {by} found a model that satisfies every clause"
                ));
            }
        }
    }
}

/// An instance whose manifest status a solver's answer contradicts, with nothing checked to
/// show that the solver is wrong.
#[derive(Clone, Debug, PartialEq)]
pub struct Dispute {
    /// Index into the manifest's instances.
    pub instance: usize,
    /// Who contradicts the manifest, and whether the manifest is known to be wrong.
    pub detail: String,
}

/// The disputed instances, in manifest order: a checked model where the manifest says
/// `unsat`, or a checked UNSAT (`--check-unsat`) where it says `sat` (the manifest is
/// wrong), or an unchecked UNSAT that no model refutes where it says `sat` (the manifest or
/// the solver is wrong; a checked proof would settle it).
pub fn disputes(runs: &[Run], family: &Family, racers: &[Racer]) -> Vec<Dispute> {
    let mut out = Vec::new();
    for (i, entry) in family.manifest.instances.iter().enumerate() {
        if family.optimisations[i].is_some() {
            if let Some(detail) = optimum_dispute(runs, i, entry, racers) {
                out.push(Dispute {
                    instance: i,
                    detail,
                });
            }
            continue;
        }
        let labels = |pick: &dyn Fn(&Verdict) -> bool| -> Vec<&str> {
            runs.iter()
                .filter(|r| r.instance == i && pick(&r.verdict))
                .map(|r| racers[r.solver].label.as_str())
                .collect()
        };
        let says = manifest_says(entry);
        let sat = labels(&|v| *v == Verdict::Sat);
        let unsat = labels(&|v| matches!(v, Verdict::Disputed(_)));
        // Only judged Unsat (not Wrong) where the manifest says sat when it was checked.
        let proved: Vec<&str> = runs
            .iter()
            .filter(|r| r.instance == i && r.verdict == Verdict::Unsat)
            .filter(|r| racers[r.solver].backend.checks_unsat())
            .map(|r| racers[r.solver].label.as_str())
            .collect();
        let detail = if entry.expected == Status::Unsat && !sat.is_empty() {
            format!(
                "{says}, but the model from {} satisfies every clause: the manifest is wrong",
                sat.join(", ")
            )
        } else if entry.expected == Status::Sat && !proved.is_empty() {
            format!(
                "{says}, but {} answered UNSAT with a proof the checker verified: the manifest is wrong",
                proved.join(", ")
            )
        } else if !unsat.is_empty() {
            format!(
                "{says}, but {} answered UNSAT and no solver found a model: the manifest or the solver is wrong",
                unsat.join(", ")
            )
        } else {
            continue;
        };
        out.push(Dispute {
            instance: i,
            detail,
        });
    }
    out
}

/// Why the manifest's optimum of optimisation instance `i` is disputed, if it is: a
/// validated board above it or a proven optimum below it (the manifest is wrong), or an
/// unchecked claim below it that nothing settles.
fn optimum_dispute(runs: &[Run], i: usize, entry: &Entry, racers: &[Racer]) -> Option<String> {
    let a = entry.optimum?;
    let says = format!("the manifest says the optimum is {a}{}", source_of(entry));
    let ours = runs.iter().filter(|r| r.instance == i);
    let label = |r: &Run| racers[r.solver].label.clone();
    if let Some(r) = ours
        .clone()
        .find(|r| r.found.is_some_and(|m| m > a) && r.verdict.solved())
    {
        return Some(format!(
            "{says}, but {} found a validated board of size {}: the manifest is wrong",
            label(r),
            r.found.unwrap_or_default()
        ));
    }
    let below = |r: &&Run| r.optimum.is_some_and(|n| n < a);
    if let Some(r) = ours
        .clone()
        .filter(below)
        .find(|r| r.verdict == Verdict::Sat)
    {
        return Some(format!(
            "{says}, but {} proved {} impossible: the manifest is wrong",
            label(r),
            r.optimum.unwrap_or_default() + 1
        ));
    }
    let claims: Vec<String> = ours
        .filter(below)
        .filter(|r| matches!(r.verdict, Verdict::Disputed(_)))
        .map(|r| format!("{} claimed {}", label(r), r.optimum.unwrap_or_default()))
        .collect();
    (!claims.is_empty()).then(|| {
        format!(
            "{says}, but {} without a checked proof and no board settles it: the manifest or the optimiser is wrong",
            claims.join(", ")
        )
    })
}

/// One solver's totals (in `race --format json`, beside the solver's label).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Score {
    /// Runs judged [`Verdict::Sat`].
    pub sat: usize,
    /// Runs judged [`Verdict::Unsat`].
    pub unsat: usize,
    /// Runs judged [`Verdict::Unknown`].
    pub unknown: usize,
    /// Runs judged [`Verdict::Error`].
    pub errors: usize,
    /// Runs judged [`Verdict::Wrong`].
    pub wrong: usize,
    /// Runs judged [`Verdict::Disputed`].
    pub disputed: usize,
    /// PAR-2 in seconds, summed over the instances run.
    pub par2: f64,
    /// Seconds of every correctly solved run, for cactus plots.
    #[serde(skip)]
    pub solved_seconds: Vec<f64>,
}

impl Score {
    /// Runs with a correct answer, including any that came in after the time limit.
    pub fn solved(&self) -> usize {
        self.sat + self.unsat
    }
}

/// The totals of each racer (in racer order). A disputed run counts its time in PAR-2 (the
/// solver is not penalised for contradicting the manifest alone) but is not solved.
pub fn scores(runs: &[Run], n_racers: usize, timeout: Duration) -> Vec<Score> {
    let mut out = vec![Score::default(); n_racers];
    let penalty = 2.0 * timeout.as_secs_f64();
    for r in runs {
        let s = &mut out[r.solver];
        match &r.verdict {
            Verdict::Sat => s.sat += 1,
            Verdict::Unsat => s.unsat += 1,
            Verdict::Unknown(_) => s.unknown += 1,
            Verdict::Error(_) => s.errors += 1,
            Verdict::Wrong(_) => s.wrong += 1,
            Verdict::Disputed(_) => s.disputed += 1,
        }
        // A run that answered just after the limit (a slow kill) still counts as unsolved.
        let in_time = r.seconds <= timeout.as_secs_f64();
        if r.verdict.solved() && in_time {
            s.par2 += r.seconds;
            s.solved_seconds.push(r.seconds);
        } else if matches!(r.verdict, Verdict::Disputed(_)) && in_time {
            s.par2 += r.seconds;
        } else {
            s.par2 += penalty;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(solver: usize, verdict: Verdict, seconds: f64) -> Run {
        Run {
            solver,
            instance: 0,
            verdict,
            seconds,
            optimum: None,
            found: None,
        }
    }

    /// An entry of a one-variable family with the given manifest status.
    fn entry(expected: Status) -> Entry {
        Entry {
            model: "colouring".into(),
            card: "totalizer".into(),
            symmetry: "none".into(),
            variables: 1,
            clauses: 1,
            expected,
            source: "a test".into(),
            ..Entry::of_file("x.cnf".into())
        }
    }

    #[test]
    fn race_judges_by_checked_evidence_and_disputes_the_manifest() {
        use pq_solve::answer::Assignment;
        let formula = dimacs::parse(&b"p cnf 1 1\n1 0\n"[..]).unwrap();
        let model = |lit| Ok(Answer::Sat(Assignment::from_dimacs_lits(1, &[lit])));
        // A model that checks out is right, even where the manifest says unsat.
        assert_eq!(
            judge(&entry(Status::Unsat), &formula, model(1), false),
            Verdict::Sat
        );
        // A model that violates the formula is wrong, whatever the manifest says.
        assert!(matches!(
            judge(&entry(Status::Sat), &formula, model(-1), false),
            Verdict::Wrong(_)
        ));
        // An UNSAT that only the manifest contradicts is disputed, not wrong.
        let v = judge(&entry(Status::Sat), &formula, Ok(Answer::Unsat), false);
        assert_eq!(v.name(), "disputed");
        assert!(v
            .detail()
            .unwrap()
            .contains("the manifest says sat (a test)"));
        assert_eq!(
            judge(&entry(Status::Unknown), &formula, Ok(Answer::Unsat), false),
            Verdict::Unsat
        );
        // A checked UNSAT outweighs the manifest (disputes says the manifest is wrong).
        assert_eq!(
            judge(&entry(Status::Sat), &formula, Ok(Answer::Unsat), true),
            Verdict::Unsat
        );
        // A proof the checker rejects refutes the solver: wrong, not an error.
        let rejected = Err(SolveError::Rejected {
            program: "s".into(),
            reason: "answered UNSAT, but its DRAT proof does not check".into(),
        });
        assert!(matches!(
            judge(&entry(Status::Unsat), &formula, rejected, true),
            Verdict::Wrong(ref why) if why.contains("does not check")
        ));
    }

    #[test]
    fn race_par2_does_not_penalise_a_disputed_run() {
        let runs = vec![
            run(0, Verdict::Disputed("d".into()), 1.5),
            run(0, Verdict::Disputed("late".into()), 11.0),
        ];
        let s = scores(&runs, 1, Duration::from_secs(10));
        assert_eq!((s[0].disputed, s[0].solved(), s[0].wrong), (2, 0, 0));
        assert!((s[0].par2 - 21.5).abs() < 1e-9, "{}", s[0].par2);
        assert!(s[0].solved_seconds.is_empty());
    }

    #[test]
    fn race_par2_counts_unsolved_and_wrong_twice_the_limit() {
        let runs = vec![
            run(0, Verdict::Sat, 1.0),
            run(0, Verdict::Unsat, 2.5),
            run(0, Verdict::Unknown("t".into()), 10.0),
            run(1, Verdict::Wrong("w".into()), 0.1),
            run(1, Verdict::Error("e".into()), 0.1),
            run(1, Verdict::Sat, 10.5),
        ];
        let s = scores(&runs, 2, Duration::from_secs(10));
        assert_eq!((s[0].sat, s[0].unsat, s[0].unknown), (1, 1, 1));
        assert!((s[0].par2 - 23.5).abs() < 1e-9);
        assert_eq!(s[0].solved_seconds, vec![1.0, 2.5]);
        assert_eq!((s[1].wrong, s[1].errors, s[1].sat), (1, 1, 1));
        assert!((s[1].par2 - 60.0).abs() < 1e-9, "{}", s[1].par2);
        assert!(s[1].solved_seconds.is_empty());
    }
}
