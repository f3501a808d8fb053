//! A family's manifest: one [`Entry`] per instance, as JSON and CSV.

use std::path::Path;

use pq_engine::capability::Status;
use pq_io::output;
use serde::{Deserialize, Serialize};

use super::settings::Member;
use super::FamilyError;
use pq_io::staging::distinct_plain_names;
use pq_solve::error::SolveError;

/// The name of the JSON manifest in a family directory (the one [`Manifest::read`] reads).
pub const MANIFEST_JSON: &str = "manifest.json";

/// How `--force` recognises a family directory pq-sat wrote ([`output::Marker`]).
pub const MARKER: output::Marker = output::Marker {
    file: MANIFEST_JSON,
    key: "family",
};
/// The name of the CSV manifest beside it ([`Manifest::to_csv`]).
pub const MANIFEST_CSV: &str = "manifest.csv";

/// One instance of a family.
///
/// A peaceable-queens family ([`super::FamilyKind::Queens`]) fills `dim` and leaves the
/// placement-problem fields out; a placement-problem family fills `problem`, `settings`,
/// `rows`, `cols` and `torus` and leaves `dim` out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The file name, relative to the family directory.
    pub file: String,
    /// The problem's name (placement-problem families).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
    /// The `--set` values that made this instance's problem, `KEY=VALUE` separated by
    /// spaces, e.g. `board=5x5 red=3` (empty when none was given; placement-problem
    /// families).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settings: Option<String>,
    /// The board's rows (placement-problem families).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rows: Option<usize>,
    /// The board's columns (placement-problem families).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cols: Option<usize>,
    /// Whether the board is a torus (placement-problem families).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub torus: Option<bool>,
    /// The board side d (peaceable-queens families).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dim: Option<usize>,
    /// Queens of each colour; for a placement problem, the size of its maximised groups (0
    /// when it maximises none).
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
    /// The proven status, `sat`, `unsat` or `unknown` in JSON (nothing else is read).
    pub expected: Status,
    /// Who proved `expected` (empty when unknown).
    pub source: String,
    /// SHA-256 of the file as written (the compressed bytes of a compressed family, which a
    /// downloader verifies), lower-case hex.
    pub sha256: String,
    /// The file's GBD hash ([`pq_io::hashing::gbd_hash`]), the id the SAT competitions
    /// use; empty in a manifest written before pq-sat recorded it.
    #[serde(default)]
    pub gbd: String,
    /// `wcnf` or `opb` for an optimisation instance (`family --instance-format`); absent
    /// for DIMACS. Such an instance states the whole optimisation (its `n` is 0, and its
    /// `gbd` empty: the GBD hash is of CNF), and `expected` is `sat` once it is known to
    /// have a solution.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// The optimum of an optimisation instance, where known (from the table of proven
    /// values, or pq-sat's own optimiser with `--verify`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub optimum: Option<usize>,
}

impl Entry {
    /// An entry for the file `file` that says nothing of the problem it encodes: status
    /// unknown, every other field empty, for the caller to fill in.
    pub fn of_file(file: String) -> Entry {
        Entry {
            file,
            problem: None,
            settings: None,
            rows: None,
            cols: None,
            torus: None,
            dim: None,
            n: 0,
            model: String::new(),
            card: String::new(),
            symmetry: String::new(),
            variables: 0,
            clauses: 0,
            expected: Status::Unknown,
            source: String::new(),
            sha256: String::new(),
            gbd: String::new(),
            format: None,
            optimum: None,
        }
    }

    /// An entry for the instance `file` of `member`, with the fields that say which problem
    /// it is filled as a queens family (`dim`) or a placement-problem family (`problem`,
    /// `settings`, `rows`, `cols`, `torus`) has them; the rest is left for the caller.
    pub(super) fn of_member(file: String, member: &Member, queens: bool) -> Entry {
        let l = &member.problem.rules.layout;
        Entry {
            problem: (!queens).then(|| member.problem.name.clone()),
            settings: (!queens).then(|| member.settings_line()),
            rows: (!queens).then_some(l.rows),
            cols: (!queens).then_some(l.cols),
            torus: (!queens).then_some(l.torus),
            dim: queens.then_some(l.rows),
            ..Entry::of_file(file)
        }
    }
}

/// A family's manifest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// The problem the family is made of: `peaceable-queens`, or a problem file's name.
    pub family: String,
    /// The problem file a placement-problem family was made from, as given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problem_file: Option<String>,
    /// The pq-sat version that wrote it (`pq-sat X.Y.Z`).
    pub generator: String,
    /// The command line that made the family.
    pub command: String,
    /// Every instance, in file order.
    pub instances: Vec<Entry>,
}

impl Manifest {
    /// Reads `DIR/manifest.json`: an `expected` other than `sat`, `unsat` or `unknown`, a
    /// file name that is not a plain name in `DIR` ([`pq_io::staging::plain_file_name`]) or a file listed
    /// twice is an error.
    pub fn read(dir: &Path) -> Result<Manifest, FamilyError> {
        let path = dir.join(MANIFEST_JSON);
        let bytes = pq_io::output::read_regular(&path, pq_io::output::MAX_TEXT_INPUT)
            .map_err(SolveError::from)?;
        let text = String::from_utf8_lossy(&bytes);
        let manifest: Manifest = serde_json::from_str(&text).map_err(|e| {
            FamilyError::Invalid(format!(
                "{}: not a pq-sat family manifest: {e}",
                path.display()
            ))
        })?;
        let files: Vec<&str> = manifest.instances.iter().map(|e| e.file.as_str()).collect();
        distinct_plain_names(&files).map_err(|e| {
            FamilyError::Invalid(format!(
                "{}: instance file {e}; a family's manifest names only files in its own directory, each once",
                path.display()
            ))
        })?;
        Ok(manifest)
    }

    /// True for a family made by `--dim` (the peaceable queens): no instance names a problem.
    pub fn made_by_dim(&self) -> bool {
        self.instances.iter().all(|e| e.problem.is_none())
    }

    /// The CSV form: a header and one row per instance. A peaceable-queens family has the
    /// columns `file,dim,n,…`; a placement-problem family
    /// `file,problem,settings,rows,cols,torus,n,…`. The columns are the JSON fields of an
    /// [`Entry`] in their order, so the two manifests cannot drift apart.
    pub fn to_csv(&self) -> String {
        let rows: Vec<serde_json::Map<String, serde_json::Value>> = self
            .instances
            .iter()
            .map(|e| match serde_json::to_value(e) {
                Ok(serde_json::Value::Object(row)) => row,
                _ => unreachable!("an entry serialises to an object"),
            })
            .collect();
        let header: Vec<&str> = rows
            .first()
            .map_or(Vec::new(), |r| r.keys().map(String::as_str).collect());
        let mut out = header.join(",") + "\n";
        for row in &rows {
            let cells: Vec<String> = row
                .values()
                .map(|v| match v {
                    serde_json::Value::String(s) => csv_field(s),
                    v => v.to_string(),
                })
                .collect();
            out += &(cells.join(",") + "\n");
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
