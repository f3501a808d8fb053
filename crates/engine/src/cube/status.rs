//! What the results of a cube directory prove, merged from every worker's result files
//! (`pq-sat cube-status`), and the re-check of the whole bundle (`cube-status --check`):
//! the formula's hashes, every cube's proof against the formula plus that cube, and the
//! completeness proof that the cubes cover every model (Heule, Kullmann & Marek, "Solving
//! and verifying the Boolean Pythagorean triples problem via cube-and-conquer", SAT 2016:
//! the "tautology" proof beside the cube proofs).

use pq_board::placement::Placement;
use pq_solve::answer::Assignment;
use pq_solve::backend::first_falsified_clause;
use pq_solve::control::Limits;
use pq_solve::error::SolveError;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use super::conquer::{
    cubes_sha256, write_proof_cnf, CompletenessRecord, CubeDir, COMPLETENESS, COMPLETENESS_JSON,
};
use super::estimate::{sample_ids, SplitMix};
use super::origin::{rederive_split, Origin};
use super::{read_all_results, Cube, CubeError, CubeResult, ProofRecord, Status, PROOFS_DIR};
use crate::capability::validated;
use crate::proof::{check_proof_within, prove, ProofFormat};
use pq_io::output::shown;
use pq_solve::answer::Answer;
use pq_solve::known::agrees;
use pq_solve::spec::BackendSpec;
use std::path::Path;

/// What the results prove.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A cube is SAT: the formula has a model (the witness re-validated).
    Sat,
    /// Every cube is UNSAT: so is the formula, if the cubes are complete.
    Unsat,
    /// Neither yet.
    Open,
}

/// The merged results of a cube directory.
pub struct Summary {
    /// What they prove.
    pub verdict: Verdict,
    /// Every cube's result, by id (`None`: no result yet).
    pub results: Vec<Option<CubeResult>>,
    /// The cubes whose result file names another formula or cube (a worker on an earlier
    /// split of the directory): not counted, solved again by `conquer`.
    pub stale: Vec<usize>,
    /// For SAT: the first SAT cube's result and, for a formula with a variable map, its
    /// placement (validated again here, from the result file alone).
    pub witness: Option<(CubeResult, Option<Placement>)>,
}

impl Summary {
    /// The ids of the cubes with this status.
    pub fn ids(&self, status: Status) -> Vec<usize> {
        let has = |r: &Option<CubeResult>| r.as_ref().is_some_and(|r| r.status == status);
        (self.results.iter().enumerate())
            .filter(|(_, r)| has(r))
            .map(|(i, _)| i + 1)
            .collect()
    }

    /// The ids of the cubes with no result.
    pub fn missing(&self) -> Vec<usize> {
        (self.results.iter().enumerate())
            .filter(|(_, r)| r.is_none())
            .map(|(i, _)| i + 1)
            .collect()
    }

    /// How many UNSAT results keep a proof in `dir`'s proof directory. Whether it checks is
    /// for `cube-status --check` ([`check_bundle`]) to say: a result's own `verified` is a
    /// worker's word, never counted.
    pub fn proofs_on_disk(&self, dir: &CubeDir) -> usize {
        (self.results.iter().flatten())
            .filter(|r| r.status == Status::Unsat)
            .filter_map(|r| r.proof.as_deref())
            .filter(|name| proof_file(dir, name).is_some())
            .count()
    }

    /// How many UNSAT results dropped their proof after its check (`--keep-proof none`):
    /// `cube-status --check` makes each again and checks it.
    pub fn proofs_dropped(&self) -> usize {
        (self.results.iter().flatten())
            .filter(|r| r.status == Status::Unsat && r.proof.is_none())
            .filter(|r| r.proof_record.is_some())
            .count()
    }

    /// The solvers' wall seconds summed over the cubes with a result.
    pub fn wall_seconds(&self) -> f64 {
        self.results.iter().flatten().map(|r| r.seconds).sum()
    }

    /// The CPU seconds summed over the cubes whose result records them, and how many do
    /// (results written before CPU time was kept do not).
    pub fn cpu_seconds(&self) -> (f64, usize) {
        (self.results.iter().flatten())
            .filter_map(|r| r.cpu_seconds)
            .fold((0.0, 0), |(sum, k), s| (sum + s, k + 1))
    }

    /// The cube that took longest, by its CPU seconds where recorded (wall seconds grow
    /// with pauses and sharing), else by its wall seconds.
    pub fn largest(&self) -> Option<&CubeResult> {
        (self.results.iter().flatten()).max_by(|a, b| a.cost().total_cmp(&b.cost()))
    }
}

/// Merges the results of `dir`; a SAT result's model is re-checked: decoded and validated
/// by the independent validator (a formula pq-sat re-derived), or checked against every
/// clause of the formula and its cube (any other). A model that fails is an error naming
/// the result file. Every cube UNSAT is a verdict only for cubes that cover the formula: the
/// split is re-run ([`rederive_split`]) and must give the manifest's cubes, or a completeness
/// proof for this cube list must be on disk. A verdict that
/// contradicts the table of proven values is an error.
pub fn summary(dir: &CubeDir) -> Result<Summary, CubeError> {
    let summary = merged(dir)?;
    if summary.verdict == Verdict::Unsat {
        let base = match &dir.origin {
            Origin::Encoded { base, .. } => base,
            Origin::Foreign => &dir.formula,
        };
        // A completeness proof on disk for this cube list stands in for the split (a
        // hand-made or edited cube list): whether it checks is `--check`'s to say, as for
        // the cubes' own proofs.
        if let Err(why) = rederive_split(base, &dir.manifest) {
            completeness_record(dir).map_err(|_| CubeError::Invalid(why))?;
        }
    }
    Ok(summary)
}

/// [`summary`] without the re-derived split: for [`check_bundle`] (`cube-status --check`),
/// where the completeness proof, checked, is what shows that the cubes cover the formula.
pub fn merged(dir: &CubeDir) -> Result<Summary, CubeError> {
    let (results, stale) = read_all_results(&dir.path, &dir.manifest)?;
    let sat = results.iter().flatten().find(|r| r.status == Status::Sat);
    let witness = match sat {
        Some(r) => Some((r.clone(), revalidated(dir, r)?)),
        None => None,
    };
    let all_unsat = results
        .iter()
        .all(|r| r.as_ref().is_some_and(|r| r.status == Status::Unsat));
    let verdict = match (&witness, all_unsat) {
        (Some(_), _) => Verdict::Sat,
        (None, true) => Verdict::Unsat,
        (None, false) => Verdict::Open,
    };
    if let (Some(problem), Verdict::Unsat) = (&dir.problem, verdict) {
        if let Err(why) = agrees(problem, dir.n, &Answer::Unsat) {
            let solvers: std::collections::BTreeSet<&str> = (results.iter().flatten())
                .map(|r| r.solver.as_str())
                .collect();
            return Err(CubeError::Invalid(format!(
                "every cube's result says UNSAT, so the formula would be, but that contradicts what is proven: the cubes were {why}; some result is wrong (solved by {}): solve the cubes again with another backend or with --proof",
                solvers.into_iter().map(shown).collect::<Vec<_>>().join(", ")
            )));
        }
    }
    Ok(Summary {
        verdict,
        results,
        stale,
        witness,
    })
}

/// The placement of a SAT result, decoded from its stored model and validated.
fn revalidated(dir: &CubeDir, r: &CubeResult) -> Result<Option<Placement>, CubeError> {
    let file = super::result_path(&dir.path, r.id);
    let bad = |why: String| CubeError::Invalid(format!("{}: {why}", file.display()));
    let Some(lits) = &r.model else {
        return Err(bad("a SAT result without its model".into()));
    };
    let n_vars = dir.formula.n_vars as usize;
    if lits
        .iter()
        .any(|&l| l == 0 || l.unsigned_abs() as usize > n_vars)
    {
        return Err(bad(
            "its model has a literal beyond the formula's variables".into(),
        ));
    }
    let model = Assignment::from_dimacs_lits(
        n_vars,
        &lits.iter().map(|&l| i64::from(l)).collect::<Vec<_>>(),
    );
    let cube = dir.manifest.cube(r.id)?;
    let (Some(problem), Some(map)) = (&dir.problem, &dir.formula.pieces) else {
        // Every variable is stored: the model must satisfy the formula and the cube.
        return match first_falsified_clause(&dir.cube_formula(cube), &model) {
            Some(i) => Err(bad(format!("its model falsifies clause {}", i + 1))),
            None => Ok(None),
        };
    };
    // Only the piece variables are stored: the independent validator is the check.
    let raw = map
        .decode(|v| model.value(v as usize))
        .map_err(|(row, col)| {
            bad(format!(
                "its model puts two pieces on row {}, column {}",
                row + 1,
                col + 1
            ))
        })?;
    // A stored model is a file's word, not a solver's: a board that fails is a damaged or
    // forged result, said as such (not pq-sat's "internal error").
    let (placement, _) = validated(problem, dir.n, &raw, &r.solver).map_err(|e| match e {
        SolveError::InvalidBoard { details, .. } => {
            bad(format!("its model is not a valid board: {details}"))
        }
        e => bad(e.to_string()),
    })?;
    Ok(Some(placement))
}

/// One finding of [`check_bundle`].
#[derive(Clone, Debug)]
pub struct Finding {
    /// What was checked: `formula`, `cube 3`, `completeness`, `witness`.
    pub what: String,
    /// Whether it passed.
    pub ok: bool,
    /// What was found, in one line.
    pub detail: String,
}

/// A spot check: `cubes` of the recorded UNSAT cubes, drawn uniformly with `seed`.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// How many cubes to check.
    pub cubes: usize,
    /// The seed of the draw (SplitMix64), so that a spot check can be repeated.
    pub seed: u64,
}

/// Re-checks the bundle in `dir` from its files alone: the formula's GBD hash against the
/// manifest (its SHA-256 was checked by [`CubeDir::open`]); then, for a SAT verdict, the
/// witness; for UNSAT, every cube's proof against the formula plus that cube (the CNF
/// regenerated, [`write_proof_cnf`]) and the completeness proof against the formula plus
/// the negation of every cube, each by the independent checker. An open directory fails.
///
/// With a `sample`, only that many of the UNSAT cubes' proofs are checked (a spot check of
/// a bundle whose full re-check would cost as much as its run: with dropped proofs each is
/// made again), and an open directory's recorded cubes can be spot-checked too; the
/// completeness proof is checked when the verdict is UNSAT. The findings then start with a
/// `sample` one saying what was drawn.
pub fn check_bundle(
    dir: &CubeDir,
    limits: &Limits,
    jobs: usize,
    sample: Option<Sample>,
) -> Result<Vec<Finding>, CubeError> {
    let mut findings = Vec::new();
    let formula_path = dir.path.join(&dir.manifest.formula);
    let bytes = std::fs::read(&formula_path).map_err(SolveError::io(&formula_path))?;
    let gbd = pq_io::hashing::gbd_hash(&bytes[..])
        .map_err(|e| CubeError::Invalid(format!("{}: {e}", formula_path.display())))?;
    findings.push(Finding {
        what: "formula".into(),
        ok: gbd == dir.manifest.gbd,
        detail: if gbd == dir.manifest.gbd {
            format!("SHA-256 and GBD hash {gbd} as the manifest says")
        } else {
            format!("GBD hash {gbd}, but the manifest says {}", dir.manifest.gbd)
        },
    });
    // cubes.icnf is derived from the manifest's cubes (scripts feed cubes from it): a line
    // deleted or edited there is a finding, not something to trust. A directory made by
    // hand may have none; then nothing reads it.
    let icnf_path = dir.path.join(&dir.manifest.icnf);
    if icnf_path.is_file() {
        let expected = pq_io::hashing::sha256_of_writes(|w| {
            let mut w = std::io::BufWriter::new(w);
            super::write_icnf(&dir.formula, &dir.manifest.cubes, &mut w)?;
            std::io::Write::flush(&mut w)
        })
        .map_err(SolveError::io(&icnf_path))?;
        let found = pq_io::hashing::sha256_file(&icnf_path).map_err(SolveError::io(&icnf_path))?;
        let cubes = dir.manifest.cubes.len();
        findings.push(Finding {
            what: dir.manifest.icnf.clone(),
            ok: found == expected,
            detail: if found == expected {
                format!("the formula and the manifest's {cubes} cubes")
            } else {
                format!(
                    "SHA-256 {found}, but the formula and the manifest's {cubes} cubes give {expected}: the file was changed"
                )
            },
        });
    }
    let summary = merged(dir)?;
    match summary.verdict {
        Verdict::Sat => {
            let (r, _) = summary
                .witness
                .as_ref()
                .expect("a SAT verdict has a witness");
            findings.push(Finding {
                what: "witness".into(),
                ok: true,
                detail: format!("cube {}'s model re-validated", r.id),
            });
            return Ok(findings);
        }
        Verdict::Open if sample.is_none() => {
            let missing = summary.missing().len() + summary.ids(Status::Unknown).len();
            findings.push(Finding {
                what: "cubes".into(),
                ok: false,
                detail: format!("{missing} cubes have no answer yet: nothing is proven"),
            });
            return Ok(findings);
        }
        Verdict::Open | Verdict::Unsat => {}
    }
    let work = pq_io::output::scratch_dir()?;
    // The cubes' proofs are independent: `jobs` workers check them, each taking the next
    // cube; the findings are reported in cube order whatever order they finish in.
    let mut results: Vec<&CubeResult> = summary
        .results
        .iter()
        .flatten()
        .filter(|r| r.status == Status::Unsat)
        .collect();
    if let Some(Sample { cubes, seed }) = sample {
        let recorded = results.len();
        let mut picked = sample_ids(recorded, cubes, &mut SplitMix(seed));
        picked.sort_unstable();
        results = picked.into_iter().map(|k| results[k]).collect();
        findings.push(Finding {
            what: "sample".into(),
            ok: !results.is_empty(),
            detail: format!(
                "{} of the {recorded} UNSAT cubes recorded, drawn with seed {seed}: a spot check, not a check of every cube",
                results.len()
            ),
        });
    }
    let next = AtomicUsize::new(0);
    let found: Mutex<Vec<(usize, Result<Finding, CubeError>)>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| loop {
                if pq_solve::control::interrupted() {
                    break;
                }
                let k = next.fetch_add(1, Ordering::SeqCst);
                let Some(r) = results.get(k) else { break };
                let finding = check_cube(dir, r, work.path(), limits);
                let failed = finding.is_err();
                found.lock().expect("no worker panics").push((k, finding));
                if failed {
                    // Stop the others early: the bundle's check has failed already.
                    next.store(results.len(), Ordering::SeqCst);
                    break;
                }
            });
        }
    });
    pq_solve::control::check_interrupt()?;
    let mut found = found.into_inner().expect("no worker panics");
    found.sort_by_key(|(k, _)| *k);
    for (_, finding) in found {
        findings.push(finding?);
    }
    if summary.verdict == Verdict::Open {
        // Spot-checked before the last cube: there is no completeness proof yet.
        return Ok(findings);
    }
    let complete = [ProofFormat::Drat, ProofFormat::Lrat]
        .into_iter()
        .map(|f| (f, dir.completeness_proof_path(f)))
        .find(|(_, p)| p.is_file());
    match complete {
        None => findings.push(Finding {
            what: COMPLETENESS.into(),
            ok: false,
            detail: format!(
                "no completeness proof in {}/ (make it with `pq-sat solve-cube DIR --completeness --proof`)",
                dir.path.join(PROOFS_DIR).display()
            ),
        }),
        Some((format, proof)) => {
            if let Err(why) = completeness_record(dir) {
                findings.push(Finding {
                    what: COMPLETENESS.into(),
                    ok: false,
                    detail: why,
                });
                return Ok(findings);
            }
            let cnf = work.path().join("completeness.cnf");
            write_proof_cnf(&dir.completeness_formula(), format, &cnf)?;
            let name = proof.file_name().unwrap_or_default().to_string_lossy();
            findings.push(checked(COMPLETENESS.into(), &name, &cnf, &proof, format, limits)?);
        }
    }
    Ok(findings)
}

/// One cube's finding: its kept proof checked (against its recorded hash), or its dropped
/// proof made again and checked, or why neither is possible.
fn check_cube(
    dir: &CubeDir,
    r: &CubeResult,
    work: &std::path::Path,
    limits: &Limits,
) -> Result<Finding, CubeError> {
    let what = format!("cube {}", r.id);
    let cube = dir.manifest.cube(r.id)?;
    Ok(match (&r.proof, &r.proof_record) {
        (Some(name), record) => match proof_file(dir, name) {
            Some(proof) => on_disk(dir, cube, &proof, record.as_ref(), work, limits)?,
            None => Finding {
                what,
                ok: false,
                detail: format!(
                    "its proof {} is missing",
                    dir.path.join(PROOFS_DIR).join(name).display()
                ),
            },
        },
        (None, Some(record)) => proved_again(dir, cube, record, work, limits)?,
        (None, None) => Finding {
            what,
            ok: false,
            detail: "no proof (solve it with `pq-sat solve-cube DIR ID --proof`)".into(),
        },
    })
}

/// The check of cube `cube`'s proof kept at `proof` (plain or compressed): against the
/// formula plus the cube, and against its record's SHA-256 when it has one (a proof
/// replaced since its check is not the one the result vouches for).
fn on_disk(
    dir: &CubeDir,
    cube: &Cube,
    proof: &Path,
    record: Option<&ProofRecord>,
    work: &Path,
    limits: &Limits,
) -> Result<Finding, CubeError> {
    let what = format!("cube {}", cube.id);
    let plain = pq_io::compress::plain_file(proof).map_err(SolveError::io(proof))?;
    let format = ProofFormat::from_path(&pq_io::compress::stripped(proof));
    if let Some(record) = record {
        let sha = pq_io::hashing::sha256_file(plain.path()).map_err(SolveError::io(proof))?;
        if sha != record.sha256 {
            return Ok(Finding {
                what,
                ok: false,
                detail: format!(
                    "{} is not the proof its result records (SHA-256 {sha}, recorded {}): solve the cube again",
                    proof.display(),
                    record.sha256
                ),
            });
        }
    }
    let cnf = work.join(format!("{}.cnf", cube.id));
    write_proof_cnf(&dir.cube_formula(cube), format, &cnf)?;
    let name = proof.file_name().unwrap_or_default().to_string_lossy();
    let finding = checked(what, &name, &cnf, plain.path(), format, limits)?;
    let _ = std::fs::remove_file(&cnf);
    Ok(finding)
}

/// The check of a cube whose proof was dropped after its check (`--keep-proof none`): the
/// recorded prover makes it again, into scratch space, and the checker checks it. A proof
/// with another SHA-256 than the recorded one still counts when it checks (a solver need not
/// be deterministic, and pq-sat's own prover changes between versions), and the finding says
/// so.
fn proved_again(
    dir: &CubeDir,
    cube: &Cube,
    record: &ProofRecord,
    work: &Path,
    limits: &Limits,
) -> Result<Finding, CubeError> {
    let what = format!("cube {}", cube.id);
    let refused = |detail: String| Finding {
        what: what.clone(),
        ok: false,
        detail,
    };
    // The prover is recorded in its `Display` form, which `parse` reads back.
    let prover = record.prover.parse::<BackendSpec>();
    let (spec, format) = match (prover, record.format.parse::<ProofFormat>()) {
        (Ok(spec), Ok(format)) => (spec, format),
        (Err(e), _) | (_, Err(e)) => {
            return Ok(refused(format!(
                "its proof was dropped and its record names no prover pq-sat can run ({e})"
            )))
        }
    };
    let (cnf, proof) = (
        work.join(format!("{}.cnf", cube.id)),
        work.join(format!("{}.{}", cube.id, format.name())),
    );
    let proved = prove(
        &spec,
        &dir.cube_formula(cube),
        (&cnf, &proof),
        format,
        limits,
        pq_io::output::WritePolicy::Keep,
    )?;
    if proved.answer != Answer::Unsat {
        let said = match proved.answer {
            Answer::Sat(_) => "SAT".to_string(),
            Answer::Unknown(why) => format!("unknown ({why})"),
            Answer::Unsat => unreachable!(),
        };
        return Ok(refused(format!(
            "its proof was dropped; made again, {} answered {said}",
            proved.solver
        )));
    }
    let sha = pq_io::hashing::sha256_file(&proof).map_err(SolveError::io(&proof))?;
    let same = if sha == record.sha256 {
        "the recorded SHA-256".to_string()
    } else {
        format!(
            "SHA-256 {sha}, not the recorded {} (another version of the prover, or one that is not deterministic)",
            record.sha256
        )
    };
    let again = format!(
        "dropped after its check, made again by {} in {:.2} s ({} bytes, {same})",
        proved.solver,
        proved.seconds,
        proved.proof_bytes.unwrap_or(0)
    );
    let finding = checked(what, &again, &cnf, &proof, format, limits)?;
    let _ = std::fs::remove_file(&cnf);
    let _ = std::fs::remove_file(&proof);
    Ok(finding)
}

/// The checker's verdict on `proof` for `cnf`, as a finding.
fn checked(
    what: String,
    name: &str,
    cnf: &Path,
    proof: &Path,
    format: ProofFormat,
    limits: &Limits,
) -> Result<Finding, CubeError> {
    let report = check_proof_within(cnf, proof, format, limits)?;
    let (ok, checker, seconds) = (report.verified, &report.checker, report.seconds);
    let detail = if ok {
        format!("{name}: {} ({checker}, {seconds:.2} s)", report.verdict)
    } else {
        match &report.note {
            Some(note) => format!("{name} does not check: {checker} accepted it, but {note}"),
            None => format!("{name} does not check ({checker}: {})", report.verdict),
        }
    };
    Ok(Finding { what, ok, detail })
}

/// The proof a result or record names, when it is a plain name of a file in `dir`'s proof
/// directory (a name with a `/` could point anywhere).
fn proof_file(dir: &CubeDir, name: &str) -> Option<std::path::PathBuf> {
    let path = dir.path.join(PROOFS_DIR).join(name);
    (!name.contains('/') && path.is_file()).then_some(path)
}

/// Checks that the completeness proof's record names this manifest's cube set.
fn completeness_record(dir: &CubeDir) -> Result<(), String> {
    let path = dir.path.join(PROOFS_DIR).join(COMPLETENESS_JSON);
    let text = std::fs::read_to_string(&path).map_err(|e| {
        format!(
            "{}: {e} (make it again with `pq-sat solve-cube DIR --completeness --proof`)",
            path.display()
        )
    })?;
    let record: CompletenessRecord = serde_json::from_str(&text)
        .map_err(|e| format!("{}: not a completeness record: {e}", path.display()))?;
    if proof_file(dir, &record.proof).is_none() {
        return Err(format!(
            "{}: its proof {} is missing",
            path.display(),
            shown(&record.proof)
        ));
    }
    if record.cubes_sha256 != cubes_sha256(&dir.manifest) {
        return Err(format!(
            "the completeness proof was made for another cube set ({} cubes; the manifest has {}): prove it again with `pq-sat solve-cube DIR --completeness --proof`",
            record.cubes,
            dir.manifest.cubes.len()
        ));
    }
    Ok(())
}
