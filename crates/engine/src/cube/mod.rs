//! Cube-and-conquer (Heule, Kullmann, Wieringa & Biere, "Cube and conquer: guiding CDCL SAT
//! solvers by lookaheads", HVC 2011): one hard formula split into many cubes (conjunctions
//! of literals) whose disjunction the formula implies, each solved on its own, on any
//! number of cores or machines. The formula is UNSAT exactly when every cube is; a SAT cube
//! gives a model of the formula.
//!
//! This module is the on-disk form that every part shares, so that a cube directory made
//! by `pq-sat cube` can be conquered by `pq-sat conquer`, by `pq-sat solve-cube` under GNU
//! parallel or a Slurm job array, or by any script that reads JSON:
//!
//! ```text
//! DIR/manifest.json      the formula's hashes, how it was split, and the cubes (ids 1..=N)
//! DIR/formula.cnf        the formula, plain DIMACS with pq-sat's header (decodable)
//! DIR/cubes.icnf         the same clauses as `p inccnf`, one `a LITS 0` line per cube
//!                        (the format march_cu writes and iLingeling/iGlucose read)
//! DIR/results/ID.json    one file per finished cube, written atomically by its worker
//! DIR/proofs/ID.drat     a cube's proof, when asked for
//! ```
//!
//! Results are one file per cube rather than lines appended to one file: workers on many
//! machines may share DIR over a network file system, where appends from several writers
//! are not atomic, while renaming a finished file into place is. A rerun skips every cube
//! that has a result file, and a worker killed mid-cube leaves no result, so its cube is
//! simply solved again.
//!
//! Nothing in the directory is believed: [`origin`] re-derives what the formula is and
//! whether the cubes cover it, and a result counts only for the formula and cube it names.

pub mod estimate;
pub mod make;
pub mod origin;
pub mod propagate;
pub mod split;

use crate::capability::Status;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use pq_io::output;
use pq_solve::error::SolveError;

pub mod backend;
pub mod conquer;
pub mod status;

/// The solver of a cube when none is named (`conquer`, `solve-cube`, `cube --estimate`,
/// `solve --cubes`): the in-process CaDiCaL with its `sat` configuration. Measured on the
/// 266 row cubes of 10/15 on two workers, three runs each: 27.3 s against 34.0 s for the
/// default configuration, 38.5 s for `unsat` and 45.7 s for kissat (BENCHMARKS.md,
/// "Cube-and-conquer").
pub const CUBE_SOLVER: pq_solve::spec::BackendSpec =
    pq_solve::spec::BackendSpec::CadicalTuned(pq_solve::backend::Tuning::Sat);

/// The manifest's file name in a cube directory.
pub const CUBE_MANIFEST: &str = "manifest.json";
/// How `--force` recognises a cube directory pq-sat wrote.
pub const MARKER: output::Marker = output::Marker {
    file: CUBE_MANIFEST,
    key: "cubes",
};
/// The formula's file name in a cube directory.
pub const FORMULA_CNF: &str = "formula.cnf";
/// The iCNF file's name in a cube directory.
pub const CUBES_ICNF: &str = "cubes.icnf";
/// The directory of per-cube results.
pub const RESULTS_DIR: &str = "results";
/// The directory of per-cube proofs.
pub const PROOFS_DIR: &str = "proofs";
/// The `format` field of every manifest this version writes: the kind and its version.
/// Version 2 binds every result to its formula and cube ([`CubeResult::formula_sha256`]).
pub const FORMAT: &str = "pq-sat cubes 2";

/// The largest manifest read (ten million cubes of 20 literals is about 1 GB).
const MAX_MANIFEST: u64 = 4 << 30;
/// The largest result file read (a model of every variable of a 10^7-variable formula).
const MAX_RESULT: u64 = 1 << 30;
/// The largest formula read.
pub(crate) const MAX_FORMULA: u64 = 64 << 30;

/// One cube: a conjunction of DIMACS literals, solved as assumptions (or as unit clauses).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cube {
    /// 1-based, the cube's line number among the iCNF's `a` lines, and a job array's index.
    pub id: usize,
    /// The literals, DIMACS style (a negative number is a negated variable).
    pub lits: Vec<i32>,
}

/// `DIR/manifest.json`: what was split, how, and into which cubes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Always [`FORMAT`]; a reader refuses any other.
    pub format: String,
    /// The pq-sat version that wrote it (`pq-sat X.Y.Z`).
    pub generator: String,
    /// The command line that made it.
    pub command: String,
    /// The formula's file name in the directory ([`FORMULA_CNF`]).
    pub formula: String,
    /// The iCNF file's name in the directory ([`CUBES_ICNF`]).
    pub icnf: String,
    /// SHA-256 of the formula file's bytes.
    pub sha256: String,
    /// The formula's GBD hash ([`pq_io::hashing::gbd_hash`]).
    pub gbd: String,
    /// The formula's number of variables.
    pub variables: u32,
    /// The formula's number of clauses.
    pub clauses: usize,
    /// One line saying what the formula is (the problem and its size), for people.
    pub problem: String,
    /// How the formula was split, in words and parameters (the splitter's own record).
    pub split: serde_json::Value,
    /// The cubes, ids 1..=N in order.
    pub cubes: Vec<Cube>,
}

/// `DIR/results/ID.json`: one cube's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CubeResult {
    /// The cube's id.
    pub id: usize,
    /// SAT, UNSAT or unknown.
    pub status: Status,
    /// Wall-clock seconds the solver took (with the proof's writing and check, if any).
    pub seconds: f64,
    /// The same work's CPU seconds: the worker thread's and those of the processes it ran
    /// (a solver, the checker). Unlike `seconds` it does not grow when the machine is
    /// shared or the run paused. Absent in results written before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_seconds: Option<f64>,
    /// The solver that answered.
    pub solver: String,
    /// For UNSAT: whether the independent checker verified a proof (`--check-unsat` or
    /// `--proof`); `None` for SAT and unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verified: Option<bool>,
    /// The proof's file name under [`PROOFS_DIR`], when one was kept (`ID.drat`, or
    /// `ID.drat.xz` with `--keep-proof xz`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof: Option<String>,
    /// For UNSAT with a proof: what was written and how it checked, kept even when the
    /// proof itself is not (`--keep-proof none`), so that `cube-status --check` can make it
    /// again and compare. Absent in results written before it existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof_record: Option<ProofRecord>,
    /// For SAT: the model's true literals among the formula's piece variables, or every
    /// variable for a formula without a variable map, so that anyone can re-check it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<Vec<i32>>,
    /// Which worker wrote it (`host:pid`), to tell machines apart in a merged status.
    pub worker: String,
    /// The SHA-256 of the formula file it was solved for ([`Manifest::sha256`]).
    pub formula_sha256: String,
    /// The SHA-256 of its cube's literals ([`origin::cube_sha256`]).
    pub cube_sha256: String,
}

impl CubeResult {
    /// What the cube cost its worker: its CPU seconds, or its wall seconds in a result
    /// without them (wall time grows with pauses and a shared machine).
    pub fn cost(&self) -> f64 {
        self.cpu_seconds.unwrap_or(self.seconds)
    }
}

/// A cube's proof as it was written and checked: enough to make it again (the prover and
/// format), to tell whether a proof on disk or made again is the same one (its SHA-256 and
/// size, uncompressed), and to say what its check found without checking it again.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProofRecord {
    /// The proof-writing solver, as `--backend` names it (`lines`, `cadical`, ...).
    pub prover: String,
    /// `drat` or `lrat`.
    pub format: String,
    /// SHA-256 of the proof's bytes as written (before any compression).
    pub sha256: String,
    /// Its size in bytes, uncompressed.
    pub bytes: u64,
    /// How it was kept: `plain`, `xz` or `none` ([`KeepProof`]).
    pub kept: KeepProof,
    /// The checker that verified it, with its version (`None`: not checked when solved).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checker: Option<String>,
    /// The checker's verdict line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<String>,
    /// Seconds the check took (wall).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check_seconds: Option<f64>,
    /// The checker's CPU seconds (absent in records written before it was kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check_cpu_seconds: Option<f64>,
}

/// A cube solver, validated: the solver, and the proofs it writes.
#[derive(Debug)]
pub struct CubeSolver {
    /// The solver.
    pub spec: pq_solve::spec::BackendSpec,
    /// `--proof`: its format.
    pub proof: Option<crate::proof::ProofFormat>,
    /// `--check-unsat`: every UNSAT needs a checked proof in this format.
    pub check_unsat: Option<crate::proof::ProofFormat>,
    /// `--keep-proof`.
    pub keep: KeepProof,
}

impl CubeSolver {
    /// The backend that solves without writing a proof (checked with `--check-unsat`).
    pub fn plain_backend(&self) -> Result<Box<dyn pq_solve::backend::Backend>, SolveError> {
        crate::sat::member(&self.spec, self.check_unsat)
    }

    /// How each cube is solved: with `--proof` by the proof-writing solver, otherwise by
    /// the plain backend, kept in `backend` for as long as the method is used.
    pub fn method<'a>(
        &'a self,
        backend: &'a mut Option<Box<dyn pq_solve::backend::Backend>>,
    ) -> Result<conquer::Method<'a>, SolveError> {
        Ok(match self.proof {
            Some(format) => conquer::Method::Proof {
                spec: &self.spec,
                format,
                check: self.check_unsat.is_some(),
                keep: self.keep,
            },
            None => conquer::Method::Backend(&**backend.insert(self.plain_backend()?)),
        })
    }
}

/// What becomes of a cube's proof once it is written (and checked, with `--check-unsat`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum KeepProof {
    /// Kept as written, `proofs/ID.drat`.
    #[default]
    Plain,
    /// Compressed, `proofs/ID.drat.xz` (xz at level 1: the line engine's binary DRAT
    /// shrinks about 24 times at about 50 MB/s; `rate` reads it as it is).
    Xz,
    /// Deleted after its check; the result keeps its [`ProofRecord`], and
    /// `cube-status --check` makes the proof again and checks it.
    None,
}

pq_encode::option_names!(KeepProof, "--keep-proof", KeepProof::Plain => "plain", KeepProof::Xz => "xz", KeepProof::None => "none");

/// A cube directory's errors.
#[derive(Debug, thiserror::Error)]
pub enum CubeError {
    /// A file could not be read or written.
    #[error(transparent)]
    Io(#[from] SolveError),
    /// The directory's contents are not what pq-sat wrote.
    #[error("{0}")]
    Invalid(String),
}

impl From<pq_io::IoError> for CubeError {
    fn from(e: pq_io::IoError) -> CubeError {
        CubeError::Io(e.into())
    }
}

impl Manifest {
    /// Reads `DIR/manifest.json`, refusing another format, file names outside `DIR`, and
    /// cube ids that are not 1..=N in order.
    pub fn read(dir: &Path) -> Result<Manifest, CubeError> {
        let path = dir.join(CUBE_MANIFEST);
        if fs::symlink_metadata(&path).is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound) {
            return Err(CubeError::Invalid(format!(
                "{}: no {CUBE_MANIFEST}: not a cube directory (make one with `pq-sat cube ... -o {}`)",
                dir.display(),
                dir.display()
            )));
        }
        let bytes = output::read_regular(&path, MAX_MANIFEST)?;
        let invalid = |why: String| CubeError::Invalid(format!("{}: {why}", path.display()));
        let text = String::from_utf8(bytes).map_err(|_| invalid("not UTF-8 text".into()))?;
        let manifest: Manifest = serde_json::from_str(&text)
            .map_err(|e| invalid(format!("not a pq-sat cube manifest: {e}")))?;
        if manifest.format != FORMAT {
            return Err(invalid(format!(
                "format {}, but this pq-sat reads {FORMAT:?}{}",
                output::shown(&manifest.format),
                if manifest.format.starts_with("pq-sat cubes ") {
                    " (made by another pq-sat version: split again with `pq-sat cube`)"
                } else {
                    ""
                }
            )));
        }
        pq_io::staging::distinct_plain_names(&[&manifest.formula, &manifest.icnf])
            .map_err(|e| invalid(format!("file {e}")))?;
        if let Some((i, c)) = (manifest.cubes.iter().enumerate()).find(|(i, c)| c.id != i + 1) {
            return Err(invalid(format!(
                "cube number {} has id {}; ids run 1..=N in order",
                i + 1,
                c.id
            )));
        }
        let limit = i64::from(manifest.variables);
        if let Some(c) = (manifest.cubes.iter())
            .find(|c| c.lits.iter().any(|&l| l == 0 || i64::from(l).abs() > limit))
        {
            return Err(invalid(format!(
                "cube {} has a literal that is 0 or beyond the formula's {} variables",
                c.id, manifest.variables
            )));
        }
        Ok(manifest)
    }

    /// The cube with this id, or an error naming the valid range.
    pub fn cube(&self, id: usize) -> Result<&Cube, CubeError> {
        id.checked_sub(1)
            .and_then(|i| self.cubes.get(i))
            .ok_or_else(|| {
                CubeError::Invalid(format!(
                    "no cube {id}: the directory has cubes 1 to {}",
                    self.cubes.len()
                ))
            })
    }
}

/// Writes the iCNF form of `formula` with these cubes, in id order
/// ([`pq_encode::dimacs::write_icnf`]).
pub(crate) fn write_icnf(
    formula: &pq_encode::Formula,
    cubes: &[Cube],
    out: &mut impl Write,
) -> std::io::Result<()> {
    pq_encode::dimacs::write_icnf(formula, cubes.iter().map(|c| c.lits.as_slice()), out)
}

/// Writes a cube directory at `dir` (absent, empty, or an earlier cube directory when
/// replacing is allowed: [`pq_io::staging::check_target`]): `formula.cnf`, `cubes.icnf` and
/// `manifest.json`, staged beside it and renamed into place, so that it appears whole or
/// not at all. `problem` is the manifest's one-line description, `split` the splitter's
/// record.
pub fn write_dir(
    dir: &Path,
    formula: &pq_encode::Formula,
    cubes: Vec<Vec<i32>>,
    command: &str,
    problem: &str,
    split: serde_json::Value,
    policy: pq_io::output::WritePolicy,
) -> Result<Manifest, CubeError> {
    use pq_io::staging::{move_into_place, stage};
    let staging = stage(dir, "cube", MARKER, policy)?;
    let mut bytes = Vec::new();
    pq_encode::dimacs::write(formula, &mut bytes).expect("writing to memory");
    let path = staging.path().join(FORMULA_CNF);
    fs::write(&path, &bytes)
        .map_err(pq_io::IoError::io(&path))
        .map_err(output::naming(dir))?;
    let gbd = pq_io::hashing::gbd_hash(&bytes[..])
        .map_err(|e| CubeError::Invalid(format!("{FORMULA_CNF}: {e}")))?;
    let cubes: Vec<Cube> = (cubes.into_iter().enumerate())
        .map(|(i, lits)| Cube { id: i + 1, lits })
        .collect();
    let path = staging.path().join(CUBES_ICNF);
    let file = fs::File::create(&path)
        .map_err(pq_io::IoError::io(&path))
        .map_err(output::naming(dir))?;
    let mut out = std::io::BufWriter::new(file);
    write_icnf(formula, &cubes, &mut out)
        .and_then(|()| out.flush())
        .map_err(pq_io::IoError::io(&path))
        .map_err(output::naming(dir))?;
    let manifest = Manifest {
        format: FORMAT.into(),
        generator: format!("pq-sat {}", env!("CARGO_PKG_VERSION")),
        command: command.into(),
        formula: FORMULA_CNF.into(),
        icnf: CUBES_ICNF.into(),
        sha256: pq_io::hashing::sha256_hex(&bytes),
        gbd,
        variables: formula.n_vars,
        clauses: formula.n_clauses(),
        problem: problem.into(),
        split,
        cubes,
    };
    let path = staging.path().join(CUBE_MANIFEST);
    let text = serde_json::to_string_pretty(&manifest).expect("a manifest serialises");
    fs::write(&path, text + "\n")
        .map_err(pq_io::IoError::io(&path))
        .map_err(output::naming(dir))?;
    move_into_place(staging, dir, MARKER, policy)?;
    Ok(manifest)
}

/// The path of cube `id`'s result file in `dir`.
pub(crate) fn result_path(dir: &Path, id: usize) -> PathBuf {
    dir.join(RESULTS_DIR).join(format!("{id}.json"))
}

/// Writes one cube's result atomically (a temporary beside it, renamed into place), so a
/// reader sees the whole file or none; an earlier result for the cube is replaced.
pub(crate) fn write_result(dir: &Path, result: &CubeResult) -> Result<(), CubeError> {
    let results = dir.join(RESULTS_DIR);
    fs::create_dir_all(&results).map_err(SolveError::io(&results))?;
    let path = result_path(dir, result.id);
    let mut tmp = output::temp_file(&path, "result")?;
    let text = serde_json::to_string_pretty(result).expect("a result serialises");
    writeln!(tmp, "{text}").map_err(SolveError::io(&path))?;
    tmp.as_file().sync_all().map_err(SolveError::io(&path))?;
    // Readable as the umask says, so other users of a shared cluster directory read it.
    output::persist_over(tmp, &path)?;
    Ok(())
}

/// Every result in `dir`, by cube id ([`read_all_results`] without the stale ones).
pub fn read_results(dir: &Path, manifest: &Manifest) -> Result<Vec<Option<CubeResult>>, CubeError> {
    Ok(read_all_results(dir, manifest)?.0)
}

/// Every result in `dir` that names the manifest's formula and its own cube, by cube id,
/// and the ids of the stale ones, which name another formula or cube (written by a worker
/// on an earlier split of the directory) and count as no result. A result file that does
/// not parse, or names a cube the manifest lacks, is an error naming the file (a cube's
/// result is evidence, so a damaged one must not be skipped silently).
#[allow(clippy::type_complexity)]
pub fn read_all_results(
    dir: &Path,
    manifest: &Manifest,
) -> Result<(Vec<Option<CubeResult>>, Vec<usize>), CubeError> {
    let mut results = vec![None; manifest.cubes.len()];
    let mut stale = Vec::new();
    let path = dir.join(RESULTS_DIR);
    let entries = match fs::read_dir(&path) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((results, stale)),
        Err(e) => return Err(SolveError::io(&path)(e).into()),
    };
    for entry in entries {
        let entry = entry.map_err(SolveError::io(&path))?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        // Temporaries of running workers (`.pq-result-…`) are not results yet.
        let Some(stem) = name
            .strip_suffix(".json")
            .filter(|_| !name.starts_with('.'))
        else {
            continue;
        };
        let file = entry.path();
        let invalid = |why: String| CubeError::Invalid(format!("{}: {why}", file.display()));
        let bytes = output::read_regular(&file, MAX_RESULT)?;
        let text = String::from_utf8(bytes).map_err(|_| invalid("not UTF-8 text".into()))?;
        let result: CubeResult =
            serde_json::from_str(&text).map_err(|e| invalid(format!("not a cube result: {e}")))?;
        if !(result.seconds.is_finite() && result.seconds >= 0.0) {
            return Err(invalid(format!(
                "its seconds, {}, are not a time",
                result.seconds
            )));
        }
        if stem != result.id.to_string() {
            return Err(invalid(format!("holds the result of cube {}", result.id)));
        }
        let slot = (result.id.checked_sub(1))
            .and_then(|i| results.get_mut(i))
            .ok_or_else(|| invalid(format!("no cube {} in the manifest", result.id)))?;
        let cube = &manifest.cubes[result.id - 1];
        if result.formula_sha256 != manifest.sha256
            || result.cube_sha256 != origin::cube_sha256(cube)
        {
            stale.push(result.id);
            continue;
        }
        *slot = Some(result);
    }
    stale.sort_unstable();
    Ok((results, stale))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest(cubes: Vec<Cube>) -> Manifest {
        Manifest {
            format: FORMAT.into(),
            generator: "pq-sat test".into(),
            command: "test".into(),
            formula: FORMULA_CNF.into(),
            icnf: CUBES_ICNF.into(),
            sha256: String::new(),
            gbd: String::new(),
            variables: 3,
            clauses: 0,
            problem: "test".into(),
            split: serde_json::json!({}),
            cubes,
        }
    }

    fn write(dir: &Path, m: &Manifest) {
        fs::write(dir.join(CUBE_MANIFEST), serde_json::to_string(m).unwrap()).unwrap();
    }

    #[test]
    fn manifest_round_trip_and_refusals() {
        let dir = tempfile::tempdir().unwrap();
        let good = manifest(vec![
            Cube {
                id: 1,
                lits: vec![1, -2],
            },
            Cube {
                id: 2,
                lits: vec![-1],
            },
        ]);
        write(dir.path(), &good);
        assert_eq!(Manifest::read(dir.path()).unwrap(), good);
        assert!(good.cube(2).is_ok());
        assert!(good.cube(0).is_err() && good.cube(3).is_err());

        let mut bad = good.clone();
        bad.cubes[1].id = 5;
        write(dir.path(), &bad);
        assert!(Manifest::read(dir.path())
            .unwrap_err()
            .to_string()
            .contains("ids run"));

        let mut bad = good.clone();
        bad.cubes[0].lits = vec![4];
        write(dir.path(), &bad);
        assert!(Manifest::read(dir.path()).is_err());

        let mut bad = good.clone();
        bad.formula = "../x.cnf".into();
        write(dir.path(), &bad);
        assert!(Manifest::read(dir.path()).is_err());

        let mut bad = good;
        bad.format = "pq-sat cubes 99".into();
        write(dir.path(), &bad);
        assert!(Manifest::read(dir.path())
            .unwrap_err()
            .to_string()
            .contains("format"));

        let empty = tempfile::tempdir().unwrap();
        let e = Manifest::read(empty.path()).unwrap_err().to_string();
        assert!(e.contains("not a cube directory"), "{e}");
    }

    #[test]
    fn results_are_written_whole_and_read_back_by_id() {
        let dir = tempfile::tempdir().unwrap();
        let m = manifest(vec![
            Cube {
                id: 1,
                lits: vec![1],
            },
            Cube {
                id: 2,
                lits: vec![-1],
            },
        ]);
        assert_eq!(read_results(dir.path(), &m).unwrap(), vec![None, None]);
        let r = CubeResult {
            id: 2,
            status: Status::Unsat,
            seconds: 0.5,
            cpu_seconds: Some(0.4),
            solver: "kissat".into(),
            verified: Some(false),
            proof: None,
            proof_record: None,
            model: None,
            worker: "host:1".into(),
            formula_sha256: m.sha256.clone(),
            cube_sha256: origin::cube_sha256(&m.cubes[1]),
        };
        write_result(dir.path(), &r).unwrap();
        write_result(dir.path(), &r).unwrap();
        // A running worker's temporary is not a result.
        fs::write(
            dir.path().join(RESULTS_DIR).join(".pq-result-1-2-x.json"),
            "{",
        )
        .unwrap();
        assert_eq!(
            read_results(dir.path(), &m).unwrap(),
            vec![None, Some(r.clone())]
        );

        fs::write(result_path(dir.path(), 1), "{ torn").unwrap();
        let e = read_results(dir.path(), &m).unwrap_err().to_string();
        assert!(
            e.contains("1.json") && e.contains("not a cube result"),
            "{e}"
        );

        let mut other = r;
        other.id = 3;
        fs::write(
            result_path(dir.path(), 1),
            serde_json::to_string(&other).unwrap(),
        )
        .unwrap();
        assert!(read_results(dir.path(), &m).is_err());
    }

    #[test]
    fn icnf_has_the_clauses_then_one_a_line_per_cube() {
        let formula = pq_encode::encode(
            &pq_encode::Instance::new(3, 1).unwrap(),
            &pq_encode::Options::default(),
        );
        let cubes = [
            Cube {
                id: 1,
                lits: vec![1, -2],
            },
            Cube {
                id: 2,
                lits: vec![3],
            },
        ];
        let mut out = Vec::new();
        write_icnf(&formula, &cubes, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('c')).collect();
        assert_eq!(lines[0], "p inccnf");
        assert_eq!(lines.len(), 1 + formula.n_clauses() + 2);
        assert_eq!(lines[lines.len() - 2..], ["a 1 -2 0", "a 3 0"]);
    }
}
