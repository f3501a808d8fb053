//! Conquering the cubes of a cube directory ([`super`]): one cube at a time by any backend
//! (`pq-sat solve-cube`, what GNU parallel and Slurm run), or all of them on N worker
//! threads (`pq-sat conquer`), each result written atomically as soon as it is known.
//!
//! A cube is solved as the formula plus its literals as unit clauses: the same CNF for an
//! in-process or an external solver, and a plain CNF whose clausal proof any DRAT checker
//! can check. Such a CNF is a pure function of `formula.cnf` and the cube
//! ([`CubeDir::cube_formula`]), so it is never stored: a checker regenerates it. With
//! `--incremental` a worker keeps one in-process CaDiCaL for all its cubes and solves each
//! under assumptions, keeping the clauses it learnt (Hamadi, Jabbour & Sais, "Learning for
//! dynamic subsumption", or the iCNF mode of march_cu + iLingeling in Heule et al., "Cube
//! and conquer", HVC 2011).
//!
//! A SAT model is checked against every clause, decoded through the formula's variable
//! map and validated by the independent validator ([`crate::sat::pipeline::decoded`]); a
//! formula without pq-sat's header gets the clause check alone.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

use pq_encode::spec::Problem;
use pq_encode::{dimacs, Formula};
use pq_solve::answer::{Answer, Assignment};
use pq_solve::backend::{accept_all, judged, Backend};
use pq_solve::control::{interrupted, Limits, Stop};
use pq_solve::cpu::CpuClock;
use pq_solve::error::SolveError;
use pq_solve::spec::BackendSpec;
use rustsat::types::Lit;

use super::origin::{cube_sha256, derive, Origin};
use super::PROOFS_DIR;
use super::{
    read_results, write_result, Cube, CubeError, CubeResult, KeepProof, Manifest, ProofRecord,
};
use crate::capability::{Outcome, Status};
use crate::proof::checked::{verify_unsat, verify_unsat_report};
use crate::proof::{arranged_for, prove, CheckReport, ProofFormat};
use crate::sat::pipeline::decoded;
use pq_solve::session::{Reply, Session};

/// An opened cube directory: its manifest, and its formula read and checked against the
/// manifest's SHA-256, with what it was re-derived to be ([`Origin`]).
pub struct CubeDir {
    /// The directory.
    pub path: PathBuf,
    /// `manifest.json`.
    pub manifest: Manifest,
    /// `formula.cnf`, parsed.
    pub formula: Formula,
    /// What the formula is: pq-sat's encoding of a problem, or a foreign CNF.
    pub origin: Origin,
    /// For [`Origin::Encoded`]: the problem, at its size `n`, to judge answers against and
    /// to decode and validate models with (`None` for a foreign formula).
    pub problem: Option<Problem>,
    /// The maximised groups' size (0 for a foreign formula).
    pub n: usize,
}

impl CubeDir {
    /// Reads `dir`'s manifest and formula; a formula whose bytes do not have the
    /// manifest's SHA-256, or whose size differs from the manifest's, is an error (the
    /// cubes were made for another formula).
    pub fn open(dir: &Path) -> Result<CubeDir, CubeError> {
        let manifest = Manifest::read(dir)?;
        // What killed workers left (a result or a proof half written): their owners are
        // gone, so nobody will finish them. Live workers' temporaries stay.
        for sub in [super::RESULTS_DIR, PROOFS_DIR] {
            pq_io::output::remove_leftovers(&dir.join(sub));
        }
        let path = dir.join(&manifest.formula);
        let bytes = pq_io::output::read_regular(&path, super::MAX_FORMULA)?;
        let sha = pq_io::hashing::sha256_hex(&bytes);
        if sha != manifest.sha256 {
            return Err(CubeError::Invalid(format!(
                "{}: its SHA-256 is {sha}, but {} says {}: the formula was changed after it was split (split it again with `pq-sat cube`)",
                path.display(),
                dir.join(super::CUBE_MANIFEST).display(),
                manifest.sha256
            )));
        }
        let formula = dimacs::parse(&bytes[..])
            .map_err(|e| CubeError::Invalid(format!("{}: {e}", path.display())))?;
        if formula.n_vars != manifest.variables || formula.n_clauses() != manifest.clauses {
            return Err(CubeError::Invalid(format!(
                "{}: {} variables and {} clauses, but the manifest says {} and {}",
                path.display(),
                formula.n_vars,
                formula.n_clauses(),
                manifest.variables,
                manifest.clauses
            )));
        }
        let origin = derive(&formula, &sha, &manifest.split)
            .map_err(|e| CubeError::Invalid(format!("{}: {e}", path.display())))?;
        // The problem a model is validated against: the sized problem when its header
        // states a size, as `solve --cnf` decodes it.
        let (problem, n) = match &origin {
            Origin::Encoded { problem, n, .. } => (Some(problem.clone()), *n),
            Origin::Foreign => (None, 0),
        };
        Ok(CubeDir {
            path: dir.to_path_buf(),
            manifest,
            formula,
            origin,
            problem,
            n,
        })
    }

    /// The formula with `cube`'s literals as unit clauses, after the formula's clauses.
    pub fn cube_formula(&self, cube: &Cube) -> Formula {
        with_clauses(&self.formula, cube.lits.iter().map(|&l| vec![l]))
    }

    /// The formula plus the negation of every cube (one clause per cube, in id order): it
    /// is UNSAT exactly when the formula implies the disjunction of the cubes, that is,
    /// when the cubes leave no model out (the "tautology" check of Heule, Kullmann & Marek,
    /// "Solving and verifying the Boolean Pythagorean triples problem via cube-and-conquer",
    /// SAT 2016).
    pub fn completeness_formula(&self) -> Formula {
        let negated = (self.manifest.cubes.iter()).map(|c| c.lits.iter().map(|&l| -l).collect());
        with_clauses(&self.formula, negated)
    }

    /// The path of cube `id`'s proof in `format`.
    pub fn proof_path(&self, id: usize, format: ProofFormat) -> PathBuf {
        (self.path.join(PROOFS_DIR)).join(format!("{id}.{}", format.name()))
    }

    /// The path of the completeness proof in `format`.
    pub fn completeness_proof_path(&self, format: ProofFormat) -> PathBuf {
        (self.path.join(PROOFS_DIR)).join(format!("{COMPLETENESS}.{}", format.name()))
    }
}

/// The stem of the completeness proof's file name under [`PROOFS_DIR`].
pub(crate) const COMPLETENESS: &str = "completeness";

/// `formula` with `extra` clauses (DIMACS literals) after its own.
fn with_clauses(formula: &Formula, extra: impl Iterator<Item = Vec<i32>>) -> Formula {
    let mut out = formula.clone();
    for lits in extra {
        let clause: rustsat::types::Clause = lits.iter().map(|&l| dimacs_lit(l)).collect();
        out.cnf.add_clause(clause);
    }
    out
}

/// A DIMACS literal (never 0: the manifest reader refuses it) as a rustsat literal.
fn dimacs_lit(l: i32) -> Lit {
    Lit::from_ipasir(l).expect("manifest literals are non-zero")
}

/// Writes `formula` [arranged](arranged_for) for `format` as the CNF a proof of it refers
/// to, exactly as [`prove`] writes it (its header declares the variables the clauses use),
/// so that a proof can be checked against a regenerated CNF.
pub fn write_proof_cnf(
    formula: &Formula,
    format: ProofFormat,
    path: &Path,
) -> Result<(), SolveError> {
    let arranged = arranged_for(formula, format);
    let file = std::fs::File::create(path).map_err(SolveError::io(path))?;
    dimacs::write_declaring(&arranged, arranged.used_vars(), file).map_err(SolveError::io(path))
}

/// How a cube is solved.
pub enum Method<'a> {
    /// By a backend (one solver, a portfolio, or a `--check-unsat` checked one), the cube
    /// as unit clauses.
    Backend(&'a dyn Backend),
    /// By a proof-writing solver, leaving on UNSAT the proof at
    /// [`CubeDir::proof_path`]; checked by the independent checker when `check`.
    Proof {
        /// The solver.
        spec: &'a BackendSpec,
        /// The proof's format.
        format: ProofFormat,
        /// Check the proof before the UNSAT counts.
        check: bool,
        /// What becomes of the proof once written and checked.
        keep: KeepProof,
    },
}

/// One cube's answer: the result (as written to `results/ID.json`) and the decoded outcome
/// (its validated placement, for SAT).
pub struct Solved {
    /// The result file's content.
    pub result: CubeResult,
    /// The outcome, decoded and validated.
    pub outcome: Outcome,
}

/// Solves cube `id` of `dir` with `method` under `limits`. Nothing is written here (see
/// [`record`]).
pub fn solve_cube(
    dir: &CubeDir,
    id: usize,
    method: &Method<'_>,
    limits: &Limits,
) -> Result<Solved, CubeError> {
    let cube = dir.manifest.cube(id)?;
    let (start, cpu) = (Instant::now(), CpuClock::start());
    let (answer, solver, verified, proof) = match method {
        Method::Backend(backend) => {
            let lits: Vec<Lit> = cube.lits.iter().map(|&l| dimacs_lit(l)).collect();
            let (answer, solver) = backend.solve_cube(&dir.formula, &lits, limits, &accept_all)?;
            (answer, solver, backend.checks_unsat(), (None, None))
        }
        Method::Proof {
            spec,
            format,
            check,
            keep,
        } => {
            if *keep == KeepProof::None && !*check {
                return Err(CubeError::Invalid(
                    "a proof is dropped only after its check (--keep-proof none needs --check-unsat)"
                        .into(),
                ));
            }
            let target = kept_proof_path(dir, id, *format, *keep);
            let proofs = dir.path.join(PROOFS_DIR);
            std::fs::create_dir_all(&proofs).map_err(SolveError::io(&proofs))?;
            // Both files are made in a private directory beside the proof; only a proof
            // of UNSAT (checked, if asked) is renamed into place. The CNF is not kept: it
            // is regenerated for every check.
            let work = pq_io::output::temp_dir(&target, "cube")?;
            let (cnf, tmp_proof) = (work.path().join("cube.cnf"), work.path().join("proof"));
            let formula = dir.cube_formula(cube);
            let proved = prove(
                spec,
                &formula,
                (&cnf, &tmp_proof),
                *format,
                limits,
                pq_io::output::WritePolicy::Keep,
            )?;
            let (mut answer, solver) =
                judged(&formula, (proved.answer, proved.solver), &accept_all)?;
            let (mut proof, mut record) = (None, None);
            if answer == Answer::Unsat {
                let mut report = None;
                if *check {
                    (answer, report) =
                        verify_unsat_report(solver.clone(), &cnf, &tmp_proof, *format, limits)?;
                }
                if answer == Answer::Unsat {
                    record = Some(proof_record(spec, *format, *keep, &tmp_proof, report)?);
                    keep_proof(&tmp_proof, &target, *keep)?;
                    proof = (*keep != KeepProof::None)
                        .then(|| target.file_name())
                        .flatten()
                        .map(|n| n.to_string_lossy().into_owned());
                }
            }
            (answer, solver, *check, (proof, record))
        }
    };
    let took = (start.elapsed(), cpu.seconds());
    finish(dir, cube, answer, solver, verified, proof, took)
}

/// Where cube `id`'s proof in `format` is kept: [`CubeDir::proof_path`], with `.xz` when
/// compressed (for [`KeepProof::None`], where it would have been).
fn kept_proof_path(dir: &CubeDir, id: usize, format: ProofFormat, keep: KeepProof) -> PathBuf {
    let plain = dir.proof_path(id, format);
    match keep {
        KeepProof::Xz => PathBuf::from(format!("{}.xz", plain.display())),
        KeepProof::Plain | KeepProof::None => plain,
    }
}

/// The record of the proof at `path`, written by `spec` in `format`, kept as `keep`, and
/// checked as `report` says.
fn proof_record(
    spec: &BackendSpec,
    format: ProofFormat,
    keep: KeepProof,
    path: &Path,
    report: Option<CheckReport>,
) -> Result<ProofRecord, SolveError> {
    let bytes = std::fs::metadata(path).map_err(SolveError::io(path))?.len();
    let sha256 = pq_io::hashing::sha256_file(path).map_err(SolveError::io(path))?;
    Ok(ProofRecord {
        prover: spec.to_string(),
        format: format.name().into(),
        sha256,
        bytes,
        kept: keep,
        // The version, when known, is the program's own `--version` line, name included.
        checker: (report.as_ref()).map(|r| r.checker_version.clone().unwrap_or(r.checker.clone())),
        verdict: report.as_ref().map(|r| r.verdict.clone()),
        check_seconds: report.as_ref().map(|r| r.seconds),
        check_cpu_seconds: report.map(|r| r.cpu_seconds),
    })
}

/// Puts the written proof `tmp` at `target` as `keep` says: renamed, compressed into a
/// temporary beside it and renamed, or left to be deleted with its private directory.
fn keep_proof(tmp: &Path, target: &Path, keep: KeepProof) -> Result<(), SolveError> {
    match keep {
        KeepProof::Plain => std::fs::rename(tmp, target).map_err(SolveError::io(target)),
        KeepProof::Xz => {
            let packed = tmp.with_extension("xz");
            pq_io::compress::xz_file(tmp, &packed, 1).map_err(SolveError::io(&packed))?;
            std::fs::remove_file(tmp).map_err(SolveError::io(tmp))?;
            std::fs::rename(&packed, target).map_err(SolveError::io(target))
        }
        KeepProof::None => Ok(()),
    }
}

/// The result and outcome of `answer` for `cube`.
fn finish(
    dir: &CubeDir,
    cube: &Cube,
    answer: Answer,
    solver: String,
    verified: bool,
    (proof, proof_record): (Option<String>, Option<ProofRecord>),
    (took, cpu_seconds): (Duration, f64),
) -> Result<Solved, CubeError> {
    let seconds = took.as_secs_f64();
    // The cube's units add no variables: the formula's map decodes its models.
    let formula = &dir.formula;
    let model = match &answer {
        Answer::Sat(model) => Some(model_lits(formula, dir.problem.is_some(), model)),
        _ => None,
    };
    let mut outcome = decoded(
        dir.problem.as_ref(),
        dir.n,
        formula,
        answer,
        solver,
        seconds,
    )?;
    outcome.clauses += cube.lits.len();
    let status = outcome.status;
    let result = CubeResult {
        id: cube.id,
        status,
        seconds,
        cpu_seconds: Some(cpu_seconds),
        solver: outcome.solver.clone(),
        verified: (status == Status::Unsat).then_some(verified),
        proof,
        proof_record,
        model,
        worker: worker_name(),
        formula_sha256: dir.manifest.sha256.clone(),
        cube_sha256: cube_sha256(cube),
    };
    Ok(Solved { result, outcome })
}

/// A model's true literals among the piece variables of a formula pq-sat re-derived (the
/// validator re-checks those), or every variable's literal for any other formula (checked
/// against every clause): what a result keeps for anyone to re-check.
fn model_lits(formula: &Formula, encoded: bool, model: &Assignment) -> Vec<i32> {
    match formula.pieces.as_ref().filter(|_| encoded) {
        Some(map) => (map.vars.iter())
            .filter(|v| model.value(v.dimacs as usize))
            .map(|v| v.dimacs as i32)
            .collect(),
        None => (1..=formula.n_vars as usize)
            .map(|v| {
                if model.value(v) {
                    v as i32
                } else {
                    -(v as i32)
                }
            })
            .collect(),
    }
}

/// `host:pid`, naming the worker in a result file.
pub(crate) fn worker_name() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map_or_else(|_| "localhost".into(), |h| h.trim().to_string());
    format!("{host}:{}", std::process::id())
}

/// Writes `solved`'s result into `dir`, unless it is an `unknown` caused by an interrupt
/// or by `stop` (another worker found a model): that cube was not given its chance, so it
/// keeps no result and a rerun solves it. Returns whether it was written.
pub fn record(dir: &CubeDir, solved: &Solved, stop: Option<&Stop>) -> Result<bool, CubeError> {
    let cut = interrupted() || stop.is_some_and(Stop::is_requested);
    if solved.result.status == Status::Unknown && cut {
        return Ok(false);
    }
    write_result(&dir.path, &solved.result)?;
    Ok(true)
}

/// A worker of [`conquer`]: a fresh solve per cube, or one in-process CaDiCaL kept across
/// its cubes, each solved under the cube's literals as assumptions.
enum Worker<'a> {
    Fresh(&'a Method<'a>),
    Incremental(Option<Box<dyn Session>>),
}

impl Worker<'_> {
    fn solve(&mut self, dir: &CubeDir, id: usize, limits: &Limits) -> Result<Solved, CubeError> {
        let slot = match self {
            Worker::Fresh(method) => return solve_cube(dir, id, method, limits),
            Worker::Incremental(solver) => solver,
        };
        let cube = dir.manifest.cube(id)?;
        let (start, cpu) = (Instant::now(), CpuClock::start());
        // Loaded on the worker's first cube, so that loading runs in parallel too.
        if slot.is_none() {
            *slot = Some(crate::sat::pipeline::cadical_session(&dir.formula)?);
        }
        let solver = slot.as_mut().expect("made above");
        let assumptions: Vec<Lit> = cube.lits.iter().map(|&l| dimacs_lit(l)).collect();
        let formula = &dir.formula;
        solver.limit(limits);
        let answer = match solver.solve_under(&assumptions)? {
            Reply::Sat => Answer::Sat(solver.model(formula.n_vars, formula.used_vars())?),
            Reply::Unsat => Answer::Unsat,
            Reply::Stopped => Answer::Unknown(limits.unknown_reason()),
        };
        // The model must satisfy the formula and the cube, like any backend's.
        let cube_formula = dir.cube_formula(cube);
        let (answer, name) = judged(&cube_formula, (answer, solver.name()), &accept_all)?;
        finish(
            dir,
            cube,
            answer,
            name,
            false,
            (None, None),
            (start.elapsed(), cpu.seconds()),
        )
    }
}

/// The cubes of `dir` still to solve, hardest first as far as anything predicts it: cubes
/// with a result are skipped, except `unknown` ones (a time limit ran out), which go first,
/// longest earlier attempt first; then the cubes with more literals; then by id. Longer
/// first, although a literal halves the space a cube covers, because the look-ahead stops
/// a branch early exactly when it has become easy, and the cubes that reach the depth limit
/// are those it still judged hard: measured on a(12)'s and a(13)'s cubes (BENCHMARKS.md),
/// the mean time grows with the length at every step, 0.011 s at 12 literals to 0.225 s at
/// 17 for 12/22, 0.004 s at 13 to 0.089 s at 21 for 13/25. Line-prefix cubes without
/// look-ahead all have one length, so only the ids order them.
pub fn pending(manifest: &Manifest, results: &[Option<CubeResult>]) -> Vec<usize> {
    let mut todo: Vec<(usize, Option<f64>, usize)> = Vec::new();
    for (cube, result) in manifest.cubes.iter().zip(results) {
        match result {
            Some(r) if r.status != Status::Unknown => {}
            Some(r) => todo.push((cube.id, Some(r.seconds), cube.lits.len())),
            None => todo.push((cube.id, None, cube.lits.len())),
        }
    }
    todo.sort_by(|a, b| {
        let earlier = |x: &Option<f64>| x.map_or(f64::NEG_INFINITY, |s| s);
        (earlier(&b.1).total_cmp(&earlier(&a.1)))
            .then(b.2.cmp(&a.2))
            .then(a.0.cmp(&b.0))
    });
    todo.into_iter().map(|t| t.0).collect()
}

/// How [`conquer`] runs.
pub struct Plan<'a> {
    /// Worker threads.
    pub jobs: usize,
    /// Each worker keeps one in-process CaDiCaL and solves its cubes under assumptions
    /// (otherwise every cube gets a fresh solve by `method`).
    pub incremental: bool,
    /// How each cube is solved when not incremental.
    pub method: Method<'a>,
    /// Time limit per cube (its result is then `unknown`, solved again by a rerun).
    pub per_cube: Option<Duration>,
}

/// What [`conquer`] did.
pub struct Conquered {
    /// Every cube's result after the run (earlier runs' too), by id.
    pub results: Vec<Option<CubeResult>>,
    /// The first SAT cube found in this run, with its validated placement.
    pub sat: Option<Solved>,
    /// Cubes solved in this run.
    pub solved_now: usize,
    /// Cubes that had a decided result before the run.
    pub skipped: usize,
}

/// Solves the pending cubes of `dir` ([`pending`]) on `plan.jobs` workers, writing each
/// result as it comes ([`record`]) and calling `on_result` with it; stops at the first SAT
/// cube, and when `limits` say so (Ctrl-C, the whole run's time limit), with whatever is
/// finished already on disk.
pub fn conquer(
    dir: &CubeDir,
    plan: &Plan<'_>,
    limits: &Limits,
    on_result: &mut dyn FnMut(&CubeResult),
) -> Result<Conquered, CubeError> {
    let before = read_results(&dir.path, &dir.manifest)?;
    let order = pending(&dir.manifest, &before);
    let skipped = dir.manifest.cubes.len() - order.len();
    let queue = Mutex::new(VecDeque::from(order));
    let stop = Stop::default();
    let limits = limits.with_stop(&stop);
    let (tx, rx) = mpsc::channel::<Result<Solved, CubeError>>();
    let mut sat = None;
    let mut failure = None;
    let mut solved_now = 0;
    std::thread::scope(|scope| {
        for _ in 0..plan.jobs.max(1) {
            let (tx, queue, limits, stop) = (tx.clone(), &queue, &limits, &stop);
            scope.spawn(move || {
                let mut worker = if plan.incremental {
                    Worker::Incremental(None)
                } else {
                    Worker::Fresh(&plan.method)
                };
                loop {
                    if limits.should_stop() {
                        return;
                    }
                    let Some(id) = queue.lock().expect("no worker panics").pop_front() else {
                        return;
                    };
                    let cube_limits = limits.with_timeout(plan.per_cube);
                    let solved = worker.solve(dir, id, &cube_limits).and_then(|solved| {
                        record(dir, &solved, Some(stop)).map(|written| (solved, written))
                    });
                    let message = match solved {
                        Ok((solved, true)) => {
                            // This worker takes no further cube once it has a model.
                            if solved.result.status == Status::Sat {
                                stop.request();
                            }
                            Ok(solved)
                        }
                        Ok((_, false)) => return,
                        Err(e) => Err(e),
                    };
                    let fatal = message.is_err();
                    if tx.send(message).is_err() || fatal {
                        return;
                    }
                }
            });
        }
        drop(tx);
        for message in rx {
            match message {
                Ok(solved) => {
                    solved_now += 1;
                    on_result(&solved.result);
                    if solved.result.status == Status::Sat && sat.is_none() {
                        stop.request();
                        sat = Some(solved);
                    }
                }
                Err(e) => {
                    stop.request();
                    failure.get_or_insert(e);
                }
            }
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    Ok(Conquered {
        results: read_results(&dir.path, &dir.manifest)?,
        sat,
        solved_now,
        skipped,
    })
}

/// Solves the completeness formula ([`CubeDir::completeness_formula`]) with `spec`, which
/// writes its proof in `format` to [`CubeDir::completeness_proof_path`] on UNSAT; with
/// `check`, the proof is checked first. Returns the answer: UNSAT when the cubes are
/// complete, SAT (with a model no cube covers) when they are not.
pub fn prove_completeness(
    dir: &CubeDir,
    spec: &BackendSpec,
    format: ProofFormat,
    check: bool,
    limits: &Limits,
) -> Result<(Answer, String), CubeError> {
    let formula = dir.completeness_formula();
    let target = dir.completeness_proof_path(format);
    let proofs = dir.path.join(PROOFS_DIR);
    std::fs::create_dir_all(&proofs).map_err(SolveError::io(&proofs))?;
    let work = pq_io::output::temp_dir(&target, "cube")?;
    let (cnf, tmp_proof) = (work.path().join("complete.cnf"), work.path().join("proof"));
    let proved = prove(
        spec,
        &formula,
        (&cnf, &tmp_proof),
        format,
        limits,
        pq_io::output::WritePolicy::Keep,
    )?;
    let (mut answer, solver) = judged(&formula, (proved.answer, proved.solver), &accept_all)?;
    if answer == Answer::Unsat {
        if check {
            answer = verify_unsat(solver.clone(), &cnf, &tmp_proof, format, limits)?;
        }
        if answer == Answer::Unsat {
            // The record first: a proof without it is refused by the check, never one
            // with a stale record.
            let record = CompletenessRecord {
                cubes_sha256: cubes_sha256(&dir.manifest),
                cubes: dir.manifest.cubes.len(),
                proof: target
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                solver: solver.clone(),
                verified: check,
            };
            let path = dir.path.join(PROOFS_DIR).join(COMPLETENESS_JSON);
            let mut tmp = pq_io::output::temp_file(&path, "result")?;
            let text = serde_json::to_string_pretty(&record).expect("a record serialises");
            std::io::Write::write_all(&mut tmp, text.as_bytes()).map_err(SolveError::io(&path))?;
            pq_io::output::persist_over(tmp, &path)?;
            std::fs::rename(&tmp_proof, &target).map_err(SolveError::io(&target))?;
        }
    }
    Ok((answer, solver))
}

/// `proofs/completeness.json`: which cube set the completeness proof was made for, so that
/// a proof of another cube set (a cube added or removed since) is refused at once.
pub(crate) const COMPLETENESS_JSON: &str = "completeness.json";

/// The record beside the completeness proof.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) struct CompletenessRecord {
    /// SHA-256 of the manifest's cube list ([`cubes_sha256`]).
    pub cubes_sha256: String,
    /// How many cubes it covered.
    pub cubes: usize,
    /// The proof's file name under [`PROOFS_DIR`].
    pub proof: String,
    /// The solver that wrote it.
    pub solver: String,
    /// Whether the independent checker verified it when it was written.
    pub verified: bool,
}

/// SHA-256 of the cube list as compact JSON: what a completeness proof is bound to.
pub(crate) fn cubes_sha256(manifest: &Manifest) -> String {
    pq_io::hashing::sha256_hex(
        serde_json::to_string(&manifest.cubes)
            .expect("cubes serialise")
            .as_bytes(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::{CUBES_ICNF, CUBE_MANIFEST, FORMAT, FORMULA_CNF};
    use pq_solve::backend::Cadical;

    /// A cube directory for the queens, `n` of each on `d`×`d`, cut into every sign
    /// pattern of variables 1..=k.
    fn cube_dir(d: usize, n: usize, k: i32) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let formula = pq_encode::encode(
            &pq_encode::Instance::new(d, n).unwrap(),
            &pq_encode::Options::default(),
        );
        let mut bytes = Vec::new();
        dimacs::write(&formula, &mut bytes).unwrap();
        std::fs::write(dir.path().join(FORMULA_CNF), &bytes).unwrap();
        let cubes = (0..1 << k)
            .map(|bits: i32| Cube {
                id: bits as usize + 1,
                lits: (1..=k)
                    .map(|v| if bits >> (v - 1) & 1 == 1 { v } else { -v })
                    .collect(),
            })
            .collect();
        let manifest = Manifest {
            format: FORMAT.into(),
            generator: "test".into(),
            command: "test".into(),
            formula: FORMULA_CNF.into(),
            icnf: CUBES_ICNF.into(),
            sha256: pq_io::hashing::sha256_hex(&bytes),
            gbd: pq_io::hashing::gbd_hash(&bytes[..]).unwrap(),
            variables: formula.n_vars,
            clauses: formula.n_clauses(),
            problem: format!("queens {n} on {d}x{d}"),
            split: serde_json::json!({}),
            cubes,
        };
        let text = serde_json::to_string(&manifest).unwrap();
        std::fs::write(dir.path().join(CUBE_MANIFEST), text).unwrap();
        dir
    }

    #[test]
    fn cube_formulas_append_units_and_negated_cubes() {
        let tmp = cube_dir(4, 3, 2);
        let dir = CubeDir::open(tmp.path()).unwrap();
        let base = dir.formula.n_clauses();
        let cube = dir.manifest.cube(3).unwrap();
        assert_eq!(cube.lits, [-1, 2]);
        let f = dir.cube_formula(cube);
        let tail: Vec<Vec<i32>> = (f.cnf.iter().skip(base))
            .map(|c| c.iter().map(|l| l.to_ipasir()).collect())
            .collect();
        assert_eq!(tail, [vec![-1], vec![2]]);
        let c = dir.completeness_formula();
        let tail: Vec<Vec<i32>> = (c.cnf.iter().skip(base))
            .map(|c| c.iter().map(|l| l.to_ipasir()).collect())
            .collect();
        assert_eq!(tail, [vec![1, 2], vec![-1, 2], vec![1, -2], vec![-1, -2]]);
    }

    #[test]
    fn a_formula_changed_after_the_split_is_refused() {
        let tmp = cube_dir(4, 3, 1);
        let path = tmp.path().join(FORMULA_CNF);
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str("1 0\n");
        std::fs::write(&path, text).unwrap();
        let err = CubeDir::open(tmp.path()).err().unwrap().to_string();
        assert!(err.contains("changed after it was split"), "{err}");
    }

    #[test]
    fn pending_cubes_go_hardest_first() {
        let tmp = cube_dir(4, 3, 2);
        let mut m = CubeDir::open(tmp.path()).unwrap().manifest;
        m.cubes[3].lits = [m.cubes[0].lits.clone(), vec![1]].concat();
        let result = |id, status, seconds| {
            Some(CubeResult {
                id,
                status,
                seconds,
                cpu_seconds: None,
                solver: "x".into(),
                verified: None,
                proof: None,
                proof_record: None,
                model: None,
                worker: "w".into(),
                formula_sha256: String::new(),
                cube_sha256: String::new(),
            })
        };
        let results = vec![
            None,
            result(2, Status::Unknown, 1.0),
            result(3, Status::Unsat, 9.0),
            None,
        ];
        // The timed-out cube first, then the longer cube 4, then cube 1; cube 3 is done.
        assert_eq!(pending(&m, &results), [2, 4, 1]);
    }

    #[test]
    fn fresh_and_incremental_workers_agree_and_record_every_cube() {
        for incremental in [false, true] {
            let tmp = cube_dir(4, 3, 2);
            let dir = CubeDir::open(tmp.path()).unwrap();
            let plan = Plan {
                jobs: 2,
                incremental,
                method: Method::Backend(&Cadical),
                per_cube: None,
            };
            let mut seen = Vec::new();
            let done = conquer(&dir, &plan, &Limits::none(), &mut |r| seen.push(r.id)).unwrap();
            seen.sort_unstable();
            assert_eq!(seen, [1, 2, 3, 4]);
            assert_eq!((done.solved_now, done.skipped), (4, 0));
            assert!(done.sat.is_none());
            let all_unsat = done
                .results
                .iter()
                .flatten()
                .all(|r| r.status == Status::Unsat);
            assert!(all_unsat && done.results.iter().all(Option::is_some));
            // Everything is done: a rerun solves nothing.
            let again = conquer(&dir, &plan, &Limits::none(), &mut |_| panic!()).unwrap();
            assert_eq!((again.solved_now, again.skipped), (0, 4));
        }
        // a(4) = 2: some cube of 4/2 is SAT, with a validated board.
        let tmp = cube_dir(4, 2, 2);
        let dir = CubeDir::open(tmp.path()).unwrap();
        let plan = Plan {
            jobs: 1,
            incremental: true,
            method: Method::Backend(&Cadical),
            per_cube: None,
        };
        let done = conquer(&dir, &plan, &Limits::none(), &mut |_| {}).unwrap();
        let sat = done.sat.expect("a SAT cube");
        let p = sat.outcome.placement.unwrap();
        assert_eq!((p.count(0), p.count(1)), (2, 2));
    }
}
