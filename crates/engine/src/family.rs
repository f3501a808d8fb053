//! Benchmark families: many DIMACS instances of the peaceable-queens problem with a manifest
//! (CSV and JSON) and a README, in the manner of SAT-competition benchmark submissions.
//!
//! An instance's expected status is known only where it has been proven: by pq-sat itself
//! (`verify`: the written file solved and, if SAT, its model decoded and validated), or by
//! the table of proven values [`A250000`] that pq-sat carries with its source. Everything
//! else is `unknown`.

use std::fmt::Write as _;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use pq_encode::spec::Problem;
use pq_encode::{dimacs, encode, Instance, Options};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::pipeline::{solve_formula, Status};
use pq_solve::backend::Backend;
use pq_solve::control::Limits;
use pq_solve::error::SolveError;

/// Proven values of a(d), d = 1..15 (OEIS A250000). Used only to label the expected status of
/// family instances (and to centre a family on the optimum); pq-sat never answers from it.
pub const A250000: [usize; 15] = [0, 0, 1, 2, 4, 5, 7, 9, 12, 14, 17, 21, 24, 28, 32];

/// Where [`A250000`] comes from, as written into manifests.
pub const A250000_SOURCE: &str =
    "OEIS A250000 (https://oeis.org/A250000): a(d) proven for d = 1..15";

/// a(d) from the table of proven values, if it has one.
pub fn known_optimum(dim: usize) -> Option<usize> {
    dim.checked_sub(1).and_then(|i| A250000.get(i)).copied()
}

/// The name of the JSON manifest in a family directory (the one [`Manifest::read`] reads).
pub const MANIFEST_JSON: &str = "manifest.json";
/// The name of the CSV manifest beside it ([`Manifest::to_csv`]).
pub const MANIFEST_CSV: &str = "manifest.csv";

/// One instance of a family.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The file name, relative to the family directory.
    pub file: String,
    /// The board side d.
    pub dim: usize,
    /// Queens of each colour.
    pub n: usize,
    /// The attack model's name.
    pub model: String,
    /// The cardinality encoding's name.
    pub card: String,
    /// The symmetry breaking's name.
    pub symmetry: String,
    /// The number of variables in the file.
    pub variables: u32,
    /// The number of clauses in the file.
    pub clauses: usize,
    /// `sat`, `unsat` or `unknown`.
    pub expected: String,
    /// Who proved `expected` (empty when unknown).
    pub source: String,
    /// SHA-256 of the file, lower-case hex.
    pub sha256: String,
}

/// A family's manifest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// The problem the family is made of (`peaceable-queens`).
    pub family: String,
    /// The pq-sat version that wrote it (`pq-sat X.Y.Z`).
    pub generator: String,
    /// The command line that made the family.
    pub command: String,
    /// Every instance, in file order.
    pub instances: Vec<Entry>,
}

impl Manifest {
    /// Reads `DIR/manifest.json`.
    pub fn read(dir: &Path) -> Result<Manifest, FamilyError> {
        let path = dir.join(MANIFEST_JSON);
        let text = fs::read_to_string(&path).map_err(|source| FamilyError::Io {
            path: path.clone(),
            source,
        })?;
        serde_json::from_str(&text).map_err(|e| FamilyError::BadManifest {
            path,
            message: e.to_string(),
        })
    }

    /// The CSV form: a header and one row per instance.
    pub fn to_csv(&self) -> String {
        let mut out = String::from(
            "file,dim,n,model,card,symmetry,variables,clauses,expected,source,sha256\n",
        );
        for e in &self.instances {
            let _ = writeln!(
                out,
                "{},{},{},{},{},{},{},{},{},{},{}",
                csv_field(&e.file),
                e.dim,
                e.n,
                e.model,
                e.card,
                e.symmetry,
                e.variables,
                e.clauses,
                e.expected,
                csv_field(&e.source),
                e.sha256
            );
        }
        out
    }
}

/// Quotes a CSV field when it needs it (RFC 4180).
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Errors while writing or reading a family.
#[derive(Debug, thiserror::Error)]
pub enum FamilyError {
    /// Reading or writing a file of the family failed.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What the operating system said.
        #[source]
        source: io::Error,
    },
    /// `manifest.json` is not valid JSON of the [`Manifest`] shape.
    #[error("{path}: not a pq-sat family manifest: {message}")]
    BadManifest {
        /// The manifest file.
        path: PathBuf,
        /// The JSON parser's complaint.
        message: String,
    },
    /// The spec or the family on disk does not hold up: an optimum not in the table, an
    /// empty family, a directory that is not empty, a file changed since its manifest was
    /// written. The message says which.
    #[error("{0}")]
    Invalid(String),
    /// pq-sat's own answer contradicts the table of proven values: a bug somewhere.
    #[error("{file}: pq-sat found it {found} but {A250000_SOURCE} says {expected}")]
    Contradiction {
        /// The instance's file name.
        file: String,
        /// pq-sat's answer (`sat` or `unsat`).
        found: String,
        /// The status the table implies.
        expected: String,
    },
    /// Solving an instance for `verify` failed.
    #[error(transparent)]
    Solve(#[from] SolveError),
}

/// Which army sizes a family covers for each board size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sizes {
    /// a(d)−k+1 ..= a(d)+k (needs a(d) from the table): k SAT and k UNSAT instances.
    AroundOptimum(usize),
    /// Every n in this range.
    Range(usize, usize),
}

/// What to put in a family.
#[derive(Clone, Debug)]
pub struct Spec {
    /// The board sides, in file order.
    pub dims: Vec<usize>,
    /// The army sizes for each board side.
    pub sizes: Sizes,
    /// Every combination of encoding options to write.
    pub encodings: Vec<Options>,
    /// The command line, recorded in the manifest and README.
    pub command: String,
}

/// One planned instance.
#[derive(Clone, Copy, Debug)]
pub struct Planned {
    /// The board side and army size.
    pub instance: Instance,
    /// The encoding it is written with.
    pub options: Options,
}

impl Spec {
    /// Every instance of the family, in file order; errors name what cannot be built.
    pub fn plan(&self) -> Result<Vec<Planned>, FamilyError> {
        let mut out = Vec::new();
        for &d in &self.dims {
            let (lo, hi) = match self.sizes {
                Sizes::AroundOptimum(k) => {
                    let a = known_optimum(d).ok_or_else(|| {
                        FamilyError::Invalid(format!(
                            "a({d}) is not proven (the table of proven values covers d = 1..{}); give the army sizes with --n LO..HI instead of --around-optimum",
                            A250000.len()
                        ))
                    })?;
                    ((a + 1).saturating_sub(k).max(1), a + k)
                }
                Sizes::Range(lo, hi) => (lo, hi),
            };
            for n in lo..=hi {
                // 2n queens must fit on d² squares; sizes beyond that are not formulas.
                if 2 * n > d * d {
                    continue;
                }
                let instance = Instance::new(d, n)
                    .map_err(|e| FamilyError::Invalid(format!("d = {d}, n = {n}: {e}")))?;
                for &options in &self.encodings {
                    out.push(Planned { instance, options });
                }
            }
        }
        if out.is_empty() {
            return Err(FamilyError::Invalid(
                "the family would be empty (no army size fits on these boards)".into(),
            ));
        }
        Ok(out)
    }
}

/// The file name of an instance: what it is, not what its answer is.
pub fn file_name(p: &Planned) -> String {
    format!(
        "queens-d{:02}-n{:03}-{}-{}-{}.cnf",
        p.instance.dim(),
        p.instance.n(),
        p.options.model,
        p.options.card,
        p.options.symmetry
    )
}

/// pq-sat's own check of an instance: which solver to use and for how long.
pub struct Verify<'a> {
    /// The solver.
    pub backend: &'a dyn Backend,
    /// The limit per instance; an instance not solved in time stays as the table has it.
    pub timeout: Duration,
}

/// Writes the family into `dir`, which must not exist or be empty: everything goes into a
/// temporary directory beside it first and is renamed into place at the end, so a failure
/// or an interrupt never leaves a half-written family. `on_instance` sees each entry.
pub fn write_family(
    spec: &Spec,
    dir: &Path,
    verify: Option<&Verify>,
    on_instance: &mut dyn FnMut(&Entry),
) -> Result<Manifest, FamilyError> {
    let planned = spec.plan()?;
    let io_err = |path: &Path| {
        let path = path.to_path_buf();
        move |source| FamilyError::Io { path, source }
    };
    if dir.exists() {
        let mut entries = fs::read_dir(dir).map_err(io_err(dir))?;
        if entries.next().is_some() {
            return Err(FamilyError::Invalid(format!(
                "{} exists and is not empty; give a new directory",
                dir.display()
            )));
        }
    }
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let staging = tempfile::Builder::new()
        .prefix(".pq-family-")
        .tempdir_in(&parent)
        .map_err(io_err(&parent))?;

    let mut instances = Vec::with_capacity(planned.len());
    for p in &planned {
        let formula = encode(&p.instance, &p.options);
        let name = file_name(p);
        let path = staging.path().join(&name);
        let mut bytes = Vec::new();
        dimacs::write(&formula, &mut bytes).map_err(io_err(&path))?;
        fs::write(&path, &bytes).map_err(io_err(&path))?;
        let (d, n) = (p.instance.dim(), p.instance.n());
        let (mut expected, mut source) = match known_optimum(d) {
            Some(a) if n <= a => ("sat".to_string(), A250000_SOURCE.to_string()),
            Some(_) => ("unsat".to_string(), A250000_SOURCE.to_string()),
            None => ("unknown".to_string(), String::new()),
        };
        if let Some(v) = verify {
            let outcome = solve_formula(
                Some(&Problem::peaceable_queens(d)),
                n,
                &formula,
                v.backend,
                &Limits::timeout(Some(v.timeout)),
            )?;
            if outcome.status != Status::Unknown {
                let found = outcome.status.name().to_string();
                if expected != "unknown" && expected != found {
                    return Err(FamilyError::Contradiction {
                        file: name,
                        found,
                        expected,
                    });
                }
                let witness = if outcome.status == Status::Sat {
                    ", witness validated"
                } else {
                    ""
                };
                source = format!(
                    "pq-sat {} ({}, {:.2} s{witness})",
                    env!("CARGO_PKG_VERSION"),
                    outcome.solver,
                    outcome.seconds
                );
                expected = found;
            }
        }
        let entry = Entry {
            file: name,
            dim: d,
            n,
            model: p.options.model.name().into(),
            card: p.options.card.name().into(),
            symmetry: p.options.symmetry.name().into(),
            variables: formula.n_vars,
            clauses: formula.n_clauses(),
            expected,
            source,
            sha256: sha256_hex(&bytes),
        };
        on_instance(&entry);
        instances.push(entry);
    }
    let manifest = Manifest {
        family: "peaceable-queens".into(),
        generator: format!("pq-sat {}", env!("CARGO_PKG_VERSION")),
        command: spec.command.clone(),
        instances,
    };
    let json = serde_json::to_string_pretty(&manifest).expect("a manifest serialises");
    for (name, text) in [
        (MANIFEST_JSON, json + "\n"),
        (MANIFEST_CSV, manifest.to_csv()),
        ("README.md", readme(spec, &manifest)),
    ] {
        let path = staging.path().join(name);
        fs::write(&path, text).map_err(io_err(&path))?;
    }
    // An empty target directory is replaced; rename cannot do that over a directory.
    if dir.exists() {
        fs::remove_dir(dir).map_err(io_err(dir))?;
    }
    let staged = staging.keep();
    fs::rename(&staged, dir).map_err(|source| {
        let _ = fs::remove_dir_all(&staged);
        FamilyError::Io {
            path: dir.to_path_buf(),
            source,
        }
    })?;
    Ok(manifest)
}

/// SHA-256 of `bytes` in lower-case hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn hex(digest: &[u8]) -> String {
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA-256 of a file, read in pieces.
pub fn sha256_file(path: &Path) -> io::Result<String> {
    let mut hasher = Sha256::new();
    let mut file = fs::File::open(path)?;
    io::copy(&mut file, &mut HashWriter(&mut hasher))?;
    Ok(hex(&hasher.finalize()))
}

struct HashWriter<'a>(&'a mut Sha256);

impl Write for HashWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.update(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The family's README, in the manner of a SAT-competition benchmark description.
fn readme(spec: &Spec, m: &Manifest) -> String {
    let count = |s: &str| m.instances.iter().filter(|e| e.expected == s).count();
    let dims: Vec<String> = spec.dims.iter().map(|d| d.to_string()).collect();
    let sizes = match spec.sizes {
        Sizes::AroundOptimum(k) => format!(
            "for each d, n = a(d)−{}..a(d)+{k}: {k} satisfiable and {k} unsatisfiable sizes around the optimum a(d)",
            k - 1
        ),
        Sizes::Range(lo, hi) => format!("n = {lo}..{hi} for each d (sizes with 2n > d² left out)"),
    };
    let encodings: Vec<String> = spec
        .encodings
        .iter()
        .map(|o| format!("`{}` + `{}` + `{}`", o.model, o.card, o.symmetry))
        .collect();
    let max_vars = m.instances.iter().map(|e| e.variables).max().unwrap_or(0);
    let max_clauses = m.instances.iter().map(|e| e.clauses).max().unwrap_or(0);
    format!(
        "# Peaceable armies of queens: a benchmark family\n\
\n\
Generated by {generator} with\n\n    {command}\n\n\
## The problem\n\
\n\
Place n white and n black queens on a d × d board so that no queen attacks a queen of the\n\
other colour (same row, column, diagonal or anti-diagonal; pieces in between do not block).\n\
Each file asks whether at least n queens of each colour fit. The largest such n is a(d),\n\
OEIS A250000; proving that a(d)+1 does not fit is the hard, unsatisfiable part, and its\n\
difficulty grows steeply with d (d = 10 takes a modern solver about a minute, d = 11 over\n\
ten minutes).\n\
\n\
## The instances\n\
\n\
- {n_inst} files: board sizes d = {dims}; {sizes}.\n\
- Encodings: {encodings}. `colouring` gives each line (row, column, diagonal) one\n\
  colour variable; `lines` uses per-colour line indicators; `pairwise` forbids every\n\
  attacking pair directly. `totalizer` / `seqcounter` encode \"at least n\" per colour.\n\
  `lex-leader` adds symmetry-breaking clauses for the 16 symmetries (8 of the board × the\n\
  colour swap): these preserve satisfiability, so the status of a file with and without them\n\
  is the same, but a proof of unsatisfiability certifies the formula with those clauses.\n\
- Sizes: up to {max_vars} variables and {max_clauses} clauses.\n\
- Every file starts with comment lines naming d, n and the encoding, and `c var K white R C`\n\
  lines mapping the queen variables to squares, so a model can be decoded and checked.\n\
\n\
## Expected status\n\
\n\
{sat} satisfiable, {unsat} unsatisfiable, {unknown} unknown. A status is given only where it\n\
is proven: from pq-sat's own solution of the file (a satisfiable answer's model was decoded\n\
and checked by an independent validator) or from {source}. The `source` column of\n\
`manifest.csv` / `manifest.json` says which, per file.\n\
\n\
## Files\n\
\n\
- `manifest.json`, `manifest.csv`: file, d, n, model, card, symmetry, variables, clauses,\n\
  expected status, its source, SHA-256 of the file.\n\
- `*.cnf`: DIMACS CNF.\n\
\n\
Run any solver on the family and check its answers with\n\
`pq-sat race DIR --solver kissat --solver minisat --timeout 60`.\n",
        generator = m.generator,
        command = m.command,
        n_inst = m.instances.len(),
        dims = dims.join(", "),
        encodings = encodings.join(", "),
        sat = count("sat"),
        unsat = count("unsat"),
        unknown = count("unknown"),
        source = A250000_SOURCE,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn family_table_and_sizes() {
        assert_eq!(known_optimum(8), Some(9));
        assert_eq!(known_optimum(16), None);
        assert_eq!(known_optimum(0), None);
        let spec = Spec {
            dims: vec![3, 8],
            sizes: Sizes::AroundOptimum(2),
            encodings: vec![Options::default()],
            command: String::new(),
        };
        let ns: Vec<(usize, usize)> = spec
            .plan()
            .unwrap()
            .iter()
            .map(|p| (p.instance.dim(), p.instance.n()))
            .collect();
        // a(3) = 1: n = 1, 2, 3 (0 is not an instance, 2n > 9 drops nothing here).
        assert_eq!(
            ns,
            vec![(3, 1), (3, 2), (3, 3), (8, 8), (8, 9), (8, 10), (8, 11)]
        );
        let unknown = Spec {
            dims: vec![16],
            ..spec
        };
        assert!(unknown.plan().unwrap_err().to_string().contains("a(16)"));
    }

    #[test]
    fn csv_fields_are_quoted_when_needed() {
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field("a, b"), "\"a, b\"");
        assert_eq!(csv_field("say \"x\""), "\"say \"\"x\"\"\"");
    }
}
